"""Helpers shared by the tests, the benchmarks (``bench/``) and the scripts (``scripts/``):
starting the app in a headless browser, Dash callback requests built from the app's callback map,
example data, hostile files, free ports and nginx in front of gunicorn. Nothing here is part of
the ``roc_dash`` package; the benchmarks and scripts import this, never ``tests``."""
