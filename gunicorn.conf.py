"""gunicorn settings for `gunicorn app:server`, configured by environment variables.

HOST (0.0.0.0), PORT (8050), WEB_CONCURRENCY (workers, 3), ROC_DASH_THREADS (threads per worker, 4),
ROC_DASH_TIMEOUT (seconds, 120). gunicorn reads this file from the working directory.
"""

import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8050')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
threads = int(os.environ.get("ROC_DASH_THREADS", "4"))
timeout = int(os.environ.get("ROC_DASH_TIMEOUT", "120"))
accesslog = "-"
