"""Uploads arriving and Monitor files on the data folder and on an S3-compatible store, side
by side in one run.

Two "replicas" (two apps, each with its own data folder; with the store, the same bucket):
a file of ``--mb`` MB POSTed to ``/upload`` on replica a as the page sends it, then read by
``take_batch`` on replica b (with the data folder, both replicas on one folder, as a shared
volume would be); and a Monitor window file kept on a and read on b (first read: b makes its
copy; again: checked against the store). moto's S3 server on loopback, started here.

Run: ``python bench/bench_incoming.py [--mb 50] [--repeat 5]``. No target: the numbers say
what the store adds to an upload (one more copy of the file, to the store and back) against
a shared folder; moto on loopback is a floor, a remote store adds its bandwidth and latency.
"""

from __future__ import annotations

import argparse
import datetime
import os
import secrets
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_store import _env, _ms  # noqa: E402 - the same timing and environment
from tools.s3_server import s3_server  # noqa: E402


def measure(root: Path, mb: float, repeat: int, *, shared_folder: bool) -> dict:
    from roc_dash.app import create_app
    from roc_dash.app.server.monitor_files import get_file, put_file
    from roc_dash.app.server.upload_route import take_batch

    a = create_app(data_dir=root / "a")
    b = create_app(data_dir=root / ("a" if shared_folder else "b"))
    body = b"label,score\n" + b"1,0.5\n" * int(mb * 2**20 / 6)
    client = a.server.test_client()
    out = {}
    tokens = []

    def post():
        tokens.append(secrets.token_urlsafe(24))
        reply = client.post(f"/upload?batch={tokens[-1]}&index=0&name=big.csv", data=body)
        assert reply.status_code == 200, reply.get_json()

    def take():
        files = take_batch(b.store, tokens.pop())
        assert files and len(files[0][1]) == len(body)

    def post_and_take():
        post()
        take()

    out[f"POST /upload of {mb:g} MB (replica a)"] = _ms(post, repeat)
    out["take_batch on replica b"] = _ms(take, repeat)
    out["both (one drop, a then b)"] = _ms(post_and_take, repeat)
    window = b"score\n" + b"0.25\n" * 20000
    kept = []
    out["Monitor file kept (a)"] = _ms(
        lambda: kept.append(put_file(a.store.root, "window", "w.csv", window)), repeat)
    first = iter(kept)
    out["Monitor file read, first (b)"] = _ms(
        lambda: get_file(b.store.root, next(first).id), repeat)
    out["Monitor file read, again (b)"] = _ms(lambda: get_file(b.store.root, kept[0].id),
                                              repeat)
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=50.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    os.environ.setdefault("ROC_DASH_MAX_UPLOAD_MB", str(max(200.0, 2 * args.mb)))
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-incoming-") as tmp:
        root = Path(tmp)
        os.environ.pop("ROC_DASH_STORE_URL", None)
        results["data folder (shared)"] = measure(root / "local", args.mb, args.repeat,
                                                  shared_folder=True)
        with s3_server(root / "moto", buckets=("bench",)) as env, _env(
                {**env, "ROC_DASH_STORE_URL": "s3://bench/incoming-bench"}):
            results["S3 (moto, loopback)"] = measure(root / "s3", args.mb, args.repeat,
                                                     shared_folder=False)
    print(f"# bench/bench_incoming.py --mb {args.mb:g} --repeat {args.repeat}")
    print(f"# {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()) + ", median ms")
    names = list(results)
    print(f"{'':36}" + "".join(f"{n:>22}" for n in names) + f"{'ratio':>8}")
    for row in results[names[0]]:
        local, s3 = (results[n][row] for n in names)
        print(f"{row:36}{local:>22.1f}{s3:>22.1f}{s3 / max(local, 1e-9):>8.1f}")


if __name__ == "__main__":
    main()
