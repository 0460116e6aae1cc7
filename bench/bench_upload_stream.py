"""A file arriving, put into the object store two ways, side by side in one run: staged (its
chunks written to a local file, then sent with ``put_file``: the former upload route) and
streamed (its chunks written into a multipart upload of ``ROC_DASH_S3_BLOCK_MB`` parts as they
come: :class:`roc_dash.app.server.incoming_store.StreamedFile`'s way). moto's S3 server on
loopback, started here.

Printed per way: the median time of ``--repeat`` puts of a ``--mb`` MB file (1 MiB chunks, as
the route reads them), the most memory Python allocated at once during one put
(``tracemalloc``, a separate pass) and the local disk the file took.

Run: ``python bench/bench_upload_stream.py [--mb 50] [--repeat 5]``. No target: what the
replica holds while a file arrives, and what streaming costs or saves in time.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_store import _env, _ms  # noqa: E402 - the same timing and environment
from tools.s3_server import s3_server, store_env  # noqa: E402

CHUNK = 1 << 20


def staged(objects, key: str, mb: int, folder: Path) -> int:
    """The former way: chunks to a local file, then one ``put_file``; the disk it took."""
    path = folder / "staged.part"
    chunk = os.urandom(CHUNK)
    with open(path, "wb") as fh:
        for _ in range(mb):
            fh.write(chunk)
            fh.flush()
    used = path.stat().st_blocks * 512
    objects.fs.put_file(str(path), objects.path(key))
    path.unlink()
    return used


def streamed(objects, key: str, mb: int, folder: Path) -> int:
    """The chunks into a multipart upload as they come; the disk it took (none)."""
    from roc_dash.app.server.incoming_store import block_bytes

    chunk = os.urandom(CHUNK)
    remote = objects.open_stream(key, block_bytes())
    for _ in range(mb):
        remote.write(chunk)
    remote.close()
    return 0


def peak_mb(fn) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    from roc_dash.app.server.incoming_store import block_bytes
    from roc_dash.app.server.objects import S3Objects

    print(f"# bench/bench_upload_stream.py --mb {args.mb} --repeat {args.repeat}")
    print(f"# {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    with tempfile.TemporaryDirectory() as tmp, s3_server(Path(tmp) / "moto") as env, \
            _env(store_env(env, "s3://roc-dash/stream")):
        objects = S3Objects("s3://roc-dash/stream")
        print(f"# parts of {block_bytes() / 2**20:g} MiB (ROC_DASH_S3_BLOCK_MB); moto on "
              "loopback; a 1 MiB chunk at a time")
        print(f"{'way':<10} {'median ms':>10} {'peak MB allocated':>18} {'local disk MB':>14}")
        for name, way in (("staged", staged), ("streamed", streamed)):
            print(row(name, objects, way, args, Path(tmp)))


def row(name: str, objects, way, args, folder: Path) -> str:
    key, disk = f"incoming/{'B' * 32}.00.data", []
    ms = _ms(lambda: disk.append(way(objects, key, args.mb, folder)), args.repeat)
    peak = peak_mb(lambda: way(objects, key, args.mb, folder))
    return f"{name:<10} {ms:>10,.0f} {peak:>18,.1f} {max(disk) / 2**20:>14,.0f}"


if __name__ == "__main__":
    main()
