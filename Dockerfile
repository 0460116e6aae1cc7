# roc-dash container: gunicorn serving the Dash app on port 8050.
#   docker build -t roc-dash .
#   docker run -p 8050:8050 -v roc-dash-data:/data roc-dash
# tests/unit/project/test_container.py replays the COPY, RUN and CMD steps below in a fresh virtual
# environment and checks /health, so keep them plain shell commands.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ROC_DASH_DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=8050 \
    WEB_CONCURRENCY=3 \
    ROC_DASH_THREADS=4

WORKDIR /app
# the "scale" extra (redis, celery) serves replicas (ROC_DASH_REDIS_URL) and the source jobs'
# worker (ROC_DASH_JOBS=celery; docs/scaling.md); the "s3" extra (s3fs) an S3-compatible store
# of datasets and notes (ROC_DASH_STORE_URL); unused unless those are set
COPY pyproject.toml README.md ./
COPY roc_dash ./roc_dash
RUN python -m venv /opt/venv && /opt/venv/bin/pip install --no-cache-dir ".[scale,s3]"
COPY app.py gunicorn.conf.py ./

RUN useradd --create-home --uid 10001 rocdash && mkdir -p /data && chown rocdash /data
ENV PATH=/opt/venv/bin:$PATH
USER rocdash
VOLUME ["/data"]
EXPOSE 8050

# liveness: <prefix>health (ROC_DASH_URL_PREFIX, default /); compose.yaml asks <prefix>ready
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s%s/health' % (os.environ.get('PORT', '8050'), os.environ.get('ROC_DASH_URL_PREFIX', '').strip().rstrip('/')), timeout=4)"

CMD ["gunicorn", "app:server"]
