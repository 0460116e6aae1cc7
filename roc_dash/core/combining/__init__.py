"""Combining classifiers (Fawcett 2004, section 7.4): better operating points from several.

Two hull classifiers mixed at random to act on a given number of cases (a capacity, e.g.
"we can review 500 cases a day": :mod:`.capacity_mix`, 7.4.1), Flach & Wu's repair of a
curve's concavities (:mod:`.concavity_repair`, 7.4.2), the AND and OR of two thresholded
classifiers (:mod:`.logical_combining`, 7.4.3) and Adams & Hand's relative superiority
(:mod:`.superiority`). Above :mod:`..roc`.
"""
