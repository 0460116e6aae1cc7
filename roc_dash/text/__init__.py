"""Text shown to a person: numbers rounded for display (:mod:`.rounding`) and names without
invisible characters (:mod:`.invisible`). Pure Python, imported by every layer that shows
text (io's messages, figures, reports, the app, the command line); it imports nothing of
roc_dash."""
