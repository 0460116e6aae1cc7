"""The container recipe, replayed without a Docker engine.

No Docker engine runs on the test machines, so this test executes the Dockerfile's own steps:
it copies exactly what the COPY lines name into a fresh folder, runs the RUN line that installs
the package (into a fresh virtual environment instead of /opt/venv), starts the CMD with the
ENV settings, and runs the HEALTHCHECK command against it. A file missing from the COPY lines,
a broken install step or a broken start command fails here.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tools.processes import children as _children
from tools.processes import free_port as _free_port

ROOT = Path(__file__).resolve().parents[3]
DOCKERFILE = ROOT / "Dockerfile"


def _instructions() -> list[tuple[str, str]]:
    text = DOCKERFILE.read_text()
    text = re.sub(r"\\\n", " ", text)  # join continuation lines
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        op, _, rest = line.partition(" ")
        out.append((op.upper(), rest.strip()))
    return out


def _env(instructions) -> dict[str, str]:
    env = {}
    for op, rest in instructions:
        if op == "ENV":
            for token in shlex.split(rest):
                key, _, value = token.partition("=")
                env[key] = value
    return env


def test_ctr001_dockerfile_essentials():
    ins = _instructions()
    ops = [op for op, _ in ins]
    assert ins[0][0] == "FROM" and "slim" in ins[0][1]
    assert "HEALTHCHECK" in ops and "/health" in dict(ins)["HEALTHCHECK"]
    assert dict(ins)["EXPOSE"] == "8050"
    assert "/data" in dict(ins)["VOLUME"]
    user = [rest for op, rest in ins if op == "USER"]
    assert user and user[-1] not in ("root", "0")
    cmd = json.loads(dict(ins)["CMD"])
    assert cmd[:2] == ["gunicorn", "app:server"]
    env = _env(ins)
    assert env["ROC_DASH_DATA_DIR"] == "/data"
    assert int(env["WEB_CONCURRENCY"]) > 1 and int(env["ROC_DASH_THREADS"]) > 1


@pytest.mark.server
def test_ctr002_recipe_installs_starts_and_is_healthy(tmp_path):
    ins = _instructions()
    app_dir = tmp_path / "app"
    app_dir.mkdir()
    venv = tmp_path / "venv"
    data_dir = tmp_path / "data"
    data_dir.mkdir()

    for op, rest in ins:
        if op == "COPY":
            *sources, dest = rest.split()
            target = app_dir / dest
            for src in sources:
                path = ROOT / src
                if path.is_dir():
                    shutil.copytree(path, target, ignore=shutil.ignore_patterns("__pycache__"),
                                    dirs_exist_ok=True)
                else:
                    target.mkdir(parents=True, exist_ok=True) if dest.endswith("/") else None
                    shutil.copy(path, target / path.name if dest.endswith("/") else target)

    install = [rest for op, rest in ins if op == "RUN" and "pip install" in rest]
    assert len(install) == 1, "one RUN line installs the package"
    base_python = getattr(sys, "_base_executable", sys.executable)
    command = install[0].replace("/opt/venv", str(venv))
    command = re.sub(r"^python\b", shlex.quote(base_python), command)
    subprocess.run(command, shell=True, cwd=app_dir, check=True, timeout=900,
                   stdout=subprocess.DEVNULL)

    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROC_DASH")}
    env.update(_env(ins))
    env.update({
        "ROC_DASH_DATA_DIR": str(data_dir),
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
        "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
    })
    env.pop("PYTHONPATH", None)
    cmd = json.loads(dict(ins)["CMD"])
    log = (tmp_path / "gunicorn.log").open("w")
    server = subprocess.Popen(cmd, cwd=app_dir, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        status = None
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=3) as r:
                    status = r.status
                    break
            except OSError:
                if server.poll() is not None:
                    break
                time.sleep(0.5)
        assert status == 200, (tmp_path / "gunicorn.log").read_text()[-3000:]

        # The installed package (not this checkout) is what runs.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as r:
            assert "roc-dash" in r.read().decode()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/assets/style.css", timeout=10) as r:
            assert r.status == 200
        probe = subprocess.run(
            [str(venv / "bin" / "python"), "-c", "import roc_dash; print(roc_dash.__file__)"],
            env=env, cwd=tmp_path, capture_output=True, text=True, check=True,
        )
        assert str(venv) in probe.stdout

        # The HEALTHCHECK command itself succeeds against the running server.
        health = dict(ins)["HEALTHCHECK"]
        health_cmd = health.split(" CMD ", 1)[1]
        health_cmd = re.sub(r"^python\b", shlex.quote(str(venv / "bin" / "python")), health_cmd)
        assert subprocess.run(health_cmd, shell=True, env=env, timeout=30).returncode == 0

        assert len(_children(server.pid)) == 2, "gunicorn runs the configured workers"
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
