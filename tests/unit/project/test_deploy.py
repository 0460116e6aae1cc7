"""The documented team set-up: compose.yaml starts nginx (deploy/nginx.conf) in front of the
app, and only nginx is reachable; the two files agree with the app's own limits. (No Docker
engine runs on the test machines: tests/hostile/test_nginx.py runs the same nginx.conf with
the system's nginx in front of the real gunicorn.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
COMPOSE = (ROOT / "compose.yaml").read_text()
NGINX = (ROOT / "deploy" / "nginx.conf").read_text()


def _service(name: str) -> str:
    """The text of one service of compose.yaml (its indented block)."""
    match = re.search(rf"^  {name}:\n((?:    .*\n|\s*\n)+)", COMPOSE, re.M)
    assert match, name
    return match.group(1)


def _mb(value: str) -> float:
    number, unit = re.fullmatch(r"(\d+)([km]?)", value).groups()
    return int(number) / {"k": 1024, "m": 1, "": 2**20}[unit]


def test_dep001_only_nginx_is_published_and_the_app_trusts_only_it():
    app, proxy = _service("app"), _service("proxy")
    assert "build: ." in app
    assert "ports:" not in app and 'expose:\n      - "8050"' in app
    assert '- "8080:8080"' in proxy and "image: nginx:" in proxy
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in proxy
    assert "condition: service_healthy" in proxy  # the Dockerfile's HEALTHCHECK
    nginx_ip = re.search(r"ipv4_address: (\S+)", proxy).group(1)
    trusted = re.search(r"ROC_DASH_TRUSTED_PROXIES: (\S+)", app).group(1)
    assert trusted == nginx_ip
    subnet = re.search(r"subnet: (\S+)", COMPOSE).group(1)
    import ipaddress

    assert ipaddress.ip_address(nginx_ip) in ipaddress.ip_network(subnet)
    assert "roc-dash-data:/data" in app
    upstream = re.search(r"server (\S+):(\d+);\s+# test: upstream", NGINX)
    assert upstream.groups() == ("app", "8050")
    assert re.search(r"listen 8080;", NGINX)


def test_dep002_nginx_limits_agree_with_the_app():
    from roc_dash.app.server.limits import body_timeout, max_body_bytes
    from roc_dash.app.server.upload_route import max_upload_bytes

    sizes = re.findall(r"client_max_body_size (\w+);", NGINX)
    assert len(sizes) == 2
    other, upload = (_mb(v) for v in sizes)
    assert other == max_body_bytes() / 2**20  # 1m: callbacks (ROC_DASH_MAX_BODY_KB)
    assert max_upload_bytes() / 2**20 <= upload <= max_upload_bytes() / 2**20 + 2
    assert 'location = /upload {\n            client_max_body_size' in NGINX
    read = int(re.search(r"proxy_read_timeout (\d+)s;", NGINX).group(1))
    assert read > 120  # ROC_DASH_TIMEOUT: a long analysis is not cut by the proxy
    assert int(re.search(r"client_body_timeout (\d+)s;", NGINX).group(1)) <= 2 * body_timeout()
    assert "proxy_request_buffering on;" in NGINX and "proxy_buffering on;" in NGINX
    assert "client_header_timeout" in NGINX and "limit_conn per_address" in NGINX
    assert "server_tokens off;" in NGINX


def test_dep003_the_user_header_comes_from_nginx_alone():
    sets = re.findall(r"^\s*proxy_set_header X-Forwarded-User (\S+);", NGINX, re.M)
    # overwritten (or removed when empty) on every request; never sent to the probes
    assert sets == ["$remote_user", '""', '""']
    assert "underscores_in_headers on" not in NGINX  # X_Forwarded_User cannot slip through
    # the refusals nginx makes itself are the app's kind of JSON
    for status in ("413", "408", "503"):
        assert re.search(rf"return {status} '\{{\"ok\": false, \"error\": \"[^']+\"}}';", NGINX)


@pytest.mark.slow
def test_dep004_workers_use_the_system_allocator_and_give_memory_back():
    """gunicorn.conf.py (read by the master before it forks the workers) makes pyarrow use the
    system allocator unless the operator chose one, limits glibc's arenas and trims the heap
    after requests (issue 14: < 400 MB per worker under bench/load_test.py, where pyarrow's
    own mimalloc pool kept ~100 MB more per worker)."""
    import subprocess
    import sys

    probe = (
        "import os, runpy\n"
        "ns = runpy.run_path('gunicorn.conf.py')\n"
        "print(os.environ['ARROW_DEFAULT_MEMORY_POOL'])\n"
        "ns['post_request'](None, None, {}, None)\n"
        "import pyarrow as pa\n"
        "print(pa.default_memory_pool().backend_name)\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["system", "system"]
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True,
                         env={**env, "ARROW_DEFAULT_MEMORY_POOL": "mimalloc"}, timeout=60)
    assert out.stdout.split() == ["mimalloc", "mimalloc"], out.stderr


SUBPATH = (ROOT / "deploy" / "nginx-subpath.conf").read_text()


def _without_app_locations(conf: str) -> list[str]:
    """The directives of an nginx file outside its comments and its path locations (the
    named ones, @too_large ..., stay): what the root and the sub-path set-ups share."""
    out, depth = [], 0
    for line in conf.splitlines():
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if depth == 0 and re.match(r"location\s+(=\s+)?/", text):
            depth = 1
            continue
        if depth:
            depth += text.count("{") - text.count("}")
            continue
        if text != "absolute_redirect off;":
            out.append(text)
    return out


def test_dep005_the_subpath_example_is_the_root_one_with_its_locations_under_the_prefix():
    """deploy/nginx-subpath.conf cannot drift from nginx.conf: the same directives outside
    the locations; every location is under /roc/ (or /roc itself), the upload's with the
    same body cap; ROC_DASH_URL_PREFIX accepts that prefix."""
    from roc_dash.app.server.url_prefix import check_url_prefix

    assert _without_app_locations(SUBPATH) == _without_app_locations(NGINX)
    locations = re.findall(r"^\s*location\s+(=\s+)?(/\S*)\s*\{", SUBPATH, re.M)
    paths = {path for _, path in locations}
    assert paths == {"/roc", "/roc/", "/roc/upload", "/roc/health", "/roc/ready",
                     "/roc/_dash-component-suites/", "/roc/assets/"}
    # the static locations' directives (nginx's cache) are the root file's
    def static(conf, prefix):
        return [re.search(rf"location {prefix}/{name}/ \{{(.*?)\}}", conf, re.S).group(1)
                for name in ("_dash-component-suites", "assets")]

    assert static(SUBPATH, "/roc") == static(NGINX, "")
    assert check_url_prefix("/roc/") == "/roc/"
    cap = re.search(r"location = /upload \{\s+client_max_body_size (\w+);", NGINX).group(1)
    assert re.search(rf"location = /roc/upload \{{\s+client_max_body_size {cap};", SUBPATH)
    assert re.search(r"location /roc/ \{\s+proxy_pass http://roc_dash;\s+\}", SUBPATH), \
        "the path goes on unchanged: proxy_pass without a URI part"
    assert "return 301 /roc/;" in SUBPATH and "absolute_redirect off;" in SUBPATH


def test_dep006_health_checks_follow_the_prefix():
    """The image's HEALTHCHECK asks <prefix>health; compose's healthcheck asks /ready."""
    import os
    import subprocess
    import sys

    docker = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    command = re.search(r"HEALTHCHECK .*? CMD python -c \"(.*?)\"\n", docker).group(1)
    url = command.replace("urllib.request.urlopen(", "print(").replace(", timeout=4)", ")")
    for prefix, expected in (("", "http://127.0.0.1:8050/health"),
                             ("/roc/", "http://127.0.0.1:8050/roc/health")):
        env = {k: v for k, v in os.environ.items() if k not in ("PORT", "ROC_DASH_URL_PREFIX")}
        env["ROC_DASH_URL_PREFIX"] = prefix
        out = subprocess.run([sys.executable, "-c", url], env=env, capture_output=True,
                             text=True, timeout=30)
        assert out.stdout.strip() == expected, out.stderr
    app = _service("app")
    assert "healthcheck:" in app and "http://127.0.0.1:8050/ready" in app


@pytest.mark.server
def test_dep007_a_bad_prefix_stops_gunicorn_with_the_message_alone(tmp_path):
    """The stranger review: a bad ROC_DASH_URL_PREFIX under gunicorn printed the right
    message after a ~50-line traceback per worker; the master now says it once, exit 2."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "ROC_DASH_URL_PREFIX": "roc", "ROC_DASH_DATA_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py",
                          "-b", "127.0.0.1:0", "app:server"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr
    assert "roc-dash: ROC_DASH_URL_PREFIX must start and end with '/'" in out.stderr
    assert "Traceback" not in out.stderr
