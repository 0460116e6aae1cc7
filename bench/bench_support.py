"""What several benchmark scripts share: the header that dates a run, and writing a table
in parts."""

from __future__ import annotations

import datetime
import os
import platform
import sys


def print_header() -> None:
    """The command, the date, the machine and its load average before the run."""
    print(f"command: python {' '.join(sys.argv)}")
    print(f"date: {datetime.datetime.now().isoformat(timespec='seconds')}; "
          f"{platform.node()}, {os.cpu_count()} CPUs; load average before: "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")


def write_part(directory: str, k: int, table) -> str:
    """The path of part ``k`` of a table written as Parquet in ``directory`` (row groups of
    a million rows)."""
    import pyarrow.parquet as pq

    path = os.path.join(directory, f"part-{k:05d}.parquet")
    pq.write_table(table, path, row_group_size=1_000_000)
    return path
