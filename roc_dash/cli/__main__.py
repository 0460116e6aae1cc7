"""``python -m roc_dash.cli``: the ``roc-dash`` command."""

import sys

from . import main

sys.exit(main())
