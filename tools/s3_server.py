"""A throw-away S3-compatible store on a free loopback port: moto's server (``moto[server]``,
in the test extra) in a process of its own, for the tests of the object store
(``ROC_DASH_STORE_URL``) and of replicas sharing it. Everything is kept in its memory; it
stops on exit."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import urllib.request
from pathlib import Path

from tools.processes import free_port, stop_group, wait_until_up

#: Credentials moto accepts (any); the tests pass them through the standard AWS variables.
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "roc-dash-test", "AWS_SECRET_ACCESS_KEY": "roc-dash-test",
               "AWS_DEFAULT_REGION": "us-east-1"}


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/moto-api/", timeout=0.5) as reply:
            return reply.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def s3_server(folder: Path, *, buckets=("roc-dash",), wait: float = 60.0):
    """Start moto's S3 server (its log under ``folder``), create ``buckets``; yield the
    environment a roc-dash process needs to use it (endpoint and credentials, without
    ``ROC_DASH_STORE_URL``: the caller names the bucket and prefix); stop it on exit."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = open(folder / "moto.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1",
                             "-p", str(port)], stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        wait_until_up(proc, lambda: _answers(url), folder / "moto.log", "moto's S3 server",
                      wait, 0.1)
        env = {**CREDENTIALS, "ROC_DASH_S3_ENDPOINT_URL": url}
        client = s3_client(env)
        for bucket in buckets:
            client.create_bucket(Bucket=bucket)
        yield env
    finally:
        stop_group(proc, timeout=10)
        log.close()


def s3_client(env: dict):
    """A boto3 client of the store ``env`` names: the tests' independent view of what is
    stored (not through roc-dash's own code)."""
    import boto3

    return boto3.client("s3", endpoint_url=env["ROC_DASH_S3_ENDPOINT_URL"],
                        aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
                        aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
                        region_name=env["AWS_DEFAULT_REGION"])


def object_keys(env: dict, bucket: str, prefix: str = "") -> dict[str, int]:
    """``{key: size}`` of every object under ``prefix`` in ``bucket``."""
    out: dict[str, int] = {}
    pages = s3_client(env).get_paginator("list_objects_v2").paginate(Bucket=bucket,
                                                                      Prefix=prefix)
    for page in pages:
        for item in page.get("Contents", []):
            out[item["Key"]] = item["Size"]
    return out


def store_env(env: dict, url: str) -> dict:
    """What a roc-dash process needs to keep its objects at ``url`` (``s3://bucket/prefix``)
    of the store ``env`` (:func:`s3_server`'s) names: the replicated tests' and the load
    test's (``bench/load_test.py --store s3``) set-up."""
    return {**env, "ROC_DASH_STORE_URL": url}
