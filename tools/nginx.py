"""deploy/nginx.conf with its lines marked "# test:" (addresses, paths) set for a run on
loopback, and where the system's nginx is: for the hostile nginx test and the load test's
``--nginx`` (``bench/load_test.py``)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONF = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def nginx_conf(upstream_port: int | list[int], port: int, folder: Path, *,
               basic_auth: Path | None = None, conf: Path = CONF) -> str:
    """``conf`` (deploy/nginx.conf, or its sub-path variant) with its "# test:" lines set;
    a list of upstream ports: one ``server`` line each (replicas, taken in turn)."""
    text = conf.read_text()
    ports = upstream_port if isinstance(upstream_port, list | tuple) else [upstream_port]
    subs = {"pid": f"pid {folder}/nginx.pid;",
            "upstream": " ".join(f"server 127.0.0.1:{p};" for p in ports),
            "listen": f"listen 127.0.0.1:{port};"}
    out = []
    for line in text.splitlines():
        marker = re.search(r"# test: (\w+)\s*$", line)
        if marker:
            key = marker.group(1)
            indent = line[: len(line) - len(line.lstrip())]
            if key == "temp":  # the path (second word) under folder, the rest kept
                words = line.split("#", 1)[0].split()
                end = ";" if words[1].endswith(";") else ""
                words[1] = f"{folder}/{words[0]}{end}"
                line = indent + " ".join(words)
            else:
                line = indent + subs[key]
        elif basic_auth is not None and line.strip().startswith("# auth_basic"):
            line = line.replace("# auth_basic", "auth_basic").replace(
                "/etc/nginx/htpasswd", str(basic_auth))
        out.append(line)
    if os.getuid() == 0:  # nginx's workers would run as nobody, who cannot write tmp_path
        out.insert(0, "user root;")
    return "\n".join(out) + "\n"
