"""What several benchmark scripts share: the header that dates a run, the commit measured,
writing a table in parts, whole-number options, and a timed simulation's main."""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time
from pathlib import Path


def print_header() -> None:
    """The command, the date, the machine and its load average before the run."""
    print(f"command: python {' '.join(sys.argv)}")
    print(f"date: {datetime.datetime.now().isoformat(timespec='seconds')}; "
          f"{platform.node()}, {os.cpu_count()} CPUs; load average before: "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")


def checkout() -> str:
    """The commit measured: its short hash and subject (the docs' figures name it)."""
    here = Path(__file__).resolve().parents[1]
    out = subprocess.run(["git", "-C", str(here), "log", "-1", "--format=%h %s"],
                         capture_output=True, text=True)
    return out.stdout.strip()[:70] or str(here)


def write_part(directory: str, k: int, table) -> str:
    """The path of part ``k`` of a table written as Parquet in ``directory`` (row groups of
    a million rows)."""
    import pyarrow.parquet as pq

    path = os.path.join(directory, f"part-{k:05d}.parquet")
    pq.write_table(table, path, row_group_size=1_000_000)
    return path


def int_options(doc: str, argv=None, **defaults: int) -> argparse.Namespace:
    """Options ``--NAME`` (whole numbers, default ``defaults[NAME]``) read from ``argv``, the
    script described by the first line of ``doc``; then the header that dates the run."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    for name, default in defaults.items():
        ap.add_argument(f"--{name}", type=int, default=default)
    args = ap.parse_args(argv)
    print_header()
    return args


def timed_main(parse, simulate, report, argv=None) -> None:
    """A simulation script's main: ``report(args, simulate(args), seconds it took)`` with
    ``args = parse(argv)``."""
    args = parse(argv)
    started = time.perf_counter()
    out = simulate(args)
    report(args, out, time.perf_counter() - started)
