"""compose.replicas.yaml, parsed (no Docker engine runs on the test machines;
tests/replicas/ runs the same arrangement on loopback): several app replicas behind the nginx
of deploy/nginx.conf, one Redis, one shared data volume, and only variables the app reads."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
COMPOSE = yaml.safe_load((ROOT / "compose.replicas.yaml").read_text())
NGINX = (ROOT / "deploy" / "nginx.conf").read_text()


def _package_text() -> str:
    return "\n".join(p.read_text() for p in [*(ROOT / "roc_dash").rglob("*.py"),
                                              ROOT / "gunicorn.conf.py", ROOT / "Dockerfile"])


def test_scl020_replicas_behind_nginx_share_redis_and_the_data_volume():
    services = COMPOSE["services"]
    assert set(services) == {"app", "worker", "redis", "proxy", "store", "store-init"}
    app, redis, proxy = services["app"], services["redis"], services["proxy"]
    assert app["build"] == "." and app["deploy"]["replicas"] >= 2
    assert "ports" not in app and app["expose"] == ["8050"]
    # no fixed address for the app: replicas cannot share one; nginx finds them by name
    assert app["networks"] == ["backend"]
    upstream = re.search(r"server (\S+):(\d+);\s+# test: upstream", NGINX)
    assert upstream.groups() == ("app", app["expose"][0])
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]
    assert proxy["ports"] == ["8080:8080"]
    # the app believes the user header from nginx's address alone
    env = app["environment"]
    nginx_ip = proxy["networks"]["backend"]["ipv4_address"]
    assert env["ROC_DASH_TRUSTED_PROXIES"] == nginx_ip
    subnet = COMPOSE["networks"]["backend"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(nginx_ip) in ipaddress.ip_network(subnet)
    # one Redis, by its service name and port, that saves nothing and evicts when full
    url = re.fullmatch(r"redis://(\w+):(\d+)/\d+", env["ROC_DASH_REDIS_URL"])
    assert url and url.group(1) == "redis" and url.group(2) in redis["expose"]
    command = redis["command"]
    assert command[0] == "redis-server"
    assert command[command.index("--save") + 1] == ""
    assert command[command.index("--maxmemory-policy") + 1] == "allkeys-lru"
    assert app["depends_on"]["redis"]["condition"] == "service_healthy"
    # every replica mounts the same data volume at the data folder
    volume, _, mount = app["volumes"][0].partition(":")
    assert mount == env["ROC_DASH_DATA_DIR"] and volume in COMPOSE["volumes"]


def test_scl021_every_variable_set_is_one_the_app_reads():
    env = COMPOSE["services"]["app"]["environment"]
    source = _package_text()
    unread = [name for name in env if f'"{name}"' not in source and f"'{name}'" not in source
              and f"{name}=" not in source]
    assert unread == []
    from roc_dash.app.server.shared_state import REDIS_VAR

    assert REDIS_VAR in env


def test_scl022_the_job_worker_runs_the_queue_the_app_sends_to():
    app, worker = COMPOSE["services"]["app"], COMPOSE["services"]["worker"]
    assert worker["build"] == app["build"]
    command = worker["command"]
    assert command[:3] == ["celery", "-A", "roc_dash.app.server.job_queue"]
    assert command[3] == "worker" and command[command.index("--concurrency") + 1] == "1"
    import importlib

    module = importlib.import_module(command[2])
    assert module.JOBS_VAR == "ROC_DASH_JOBS"
    for name in ("ROC_DASH_DATA_DIR", "ROC_DASH_REDIS_URL", "ROC_DASH_JOBS"):
        assert worker["environment"][name] == app["environment"][name], name
    assert app["environment"]["ROC_DASH_JOBS"] == "celery"
    assert worker["volumes"] == app["volumes"]  # the datasets it stores, where the app reads


def test_scl023_datasets_and_notes_in_the_s3_store_service():
    """The app and the job worker keep datasets and notes in the "store" service (an
    S3-compatible server on its own volume), the bucket made before either starts, with
    the same URL, endpoint and credentials; the URL is one the app accepts."""
    from roc_dash.app.server.objects import AWS_VARIABLES, STORE_VAR, parse_store_url

    services = COMPOSE["services"]
    app, worker, store, init = (services[n] for n in ("app", "worker", "store", "store-init"))
    bucket, prefix = parse_store_url(app["environment"][STORE_VAR])
    assert prefix
    endpoint = re.fullmatch(r"http://([\w-]+):(\d+)", app["environment"]["ROC_DASH_S3_ENDPOINT_URL"])
    assert endpoint and endpoint.group(1) == "store" and endpoint.group(2) in store["expose"]
    for name in (STORE_VAR, "ROC_DASH_S3_ENDPOINT_URL", *AWS_VARIABLES):
        assert worker["environment"][name] == app["environment"][name], name
    # the store's own user is the app's key; its data on a volume of its own
    assert store["environment"]["MINIO_ROOT_USER"] == app["environment"]["AWS_ACCESS_KEY_ID"]
    assert (store["environment"]["MINIO_ROOT_PASSWORD"]
            == app["environment"]["AWS_SECRET_ACCESS_KEY"])
    volume, _, mount = store["volumes"][0].partition(":")
    assert volume in COMPOSE["volumes"] and store["command"] == ["server", mount]
    assert "healthcheck" in store
    # the bucket is made once the store is ready, before the app and the worker start
    assert init["depends_on"]["store"]["condition"] == "service_healthy"
    assert init["command"][-1] == f"store/{bucket}"
    for service in (app, worker):
        assert service["depends_on"]["store-init"]["condition"] == \
            "service_completed_successfully"
