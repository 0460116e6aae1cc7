"""What the command line's subcommands share: the file options and reading
(:func:`add_reading`, :func:`read_options`, :func:`load_files`), argument types with clear
messages, the exit status of bad input, and a closed standard output
(:func:`silence_stdout`). Used by :mod:`roc_dash.cli` and :mod:`roc_dash.cli.decide_check`.
"""

from __future__ import annotations

import argparse
import math
import os
import sys

__all__ = ["EXIT_BAD_INPUT", "positive_float", "open_unit", "non_negative", "finite",
           "bootstrap_seed", "bootstrap_replicates", "add_reading", "read_options", "load_files",
           "silence_stdout", "whole_number", "add_bootstrap", "add_costs", "add_prior"]

#: Exit status of bad input (a message on stderr, never a traceback).
EXIT_BAD_INPUT = 2


def _finite_number(text: str, accept, what: str) -> float:
    """``float(text)`` when it is finite and ``accept(value)``; else argparse's error saying
    it must be ``what``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and accept(value)):
        raise argparse.ArgumentTypeError(f"must be {what}, got {text}")
    return value


def positive_float(text: str) -> float:
    """A finite number > 0."""
    return _finite_number(text, lambda v: v > 0, "a positive number")


def open_unit(text: str, *, below: float = 1.0) -> float:
    """A number strictly between 0 and ``below`` (1 unless told)."""
    value = positive_float(text)
    if not value < below:
        raise argparse.ArgumentTypeError(
            f"must lie strictly between 0 and {below:g}, got {text}")
    return value


def whole_number(text: str, low: int, high: float, message: str) -> int:
    """``int(text)`` when it lies in ``[low, high]``; else argparse's error ``message``,
    followed by what was given."""
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{message}, got {text!r}")
    return value


def load_files(args: argparse.Namespace, options):
    """Read the files in memory, or aggregate them in an engine (``--engine``; ``auto``:
    DuckDB for globs, directories and files beyond the in-memory limits)."""
    from ..io import load_predictions
    from ..io.engine_sources import should_stream
    from ..io.engines import aggregate_predictions

    engine = args.engine
    if engine == "auto":
        engine = "duckdb" if should_stream(args.files) else "memory"
    if engine != "memory":  # --group too: the engine counts per group
        return aggregate_predictions(args.files, options=options, engine=engine)
    from ..io import InputError
    from ..io.engine_sources import TABLE_SEPARATOR, is_duckdb_file

    for f in args.files:  # a DuckDB table or database: only the DuckDB engine reads it
        if is_duckdb_file(f) or (TABLE_SEPARATOR in str(f) and not os.path.exists(f)):
            raise InputError(f"{f}: is a DuckDB database or table, which only the DuckDB "
                             "engine reads. Use --engine duckdb (or auto).", file=str(f))
    # the same file twice would count its predictions twice: refuse it, naming both
    return load_predictions(args.files, options=options, duplicate_files="error")


def read_options(args: argparse.Namespace):
    """How to read the files, from the column options (:func:`add_reading`) and the input
    kinds' (``report`` only: its options of the input kinds beyond one binary scorer)."""
    from ..io import ReadOptions

    return ReadOptions(
        label=args.label, score=args.score, model=args.model_column, fold=args.fold,
        weight=args.weight, id=args.id, positive=args.positive,
        drop_nonfinite=args.drop_nonfinite,
        **(_kind_options(args) if hasattr(args, "class_col") else {}),
        **({"group_columns": tuple(args.group)} if getattr(args, "group", None) else {}),
    )


def bootstrap_seed(text: str) -> int:
    """``--seed``: a whole number >= 0."""
    return whole_number(text, 0, math.inf, "the seed must be a whole number >= 0")


def bootstrap_replicates(text: str) -> int:
    """``--replicates``: a whole number from 0 (no intervals) to ``MAX_BOOT`` (2000)."""
    from ..core.decisions.uncertainty import MAX_BOOT

    return whole_number(text, 0, MAX_BOOT,
                        f"replicates must be a whole number from 0 to {MAX_BOOT}")


def add_bootstrap(group, replicates_help: str, *, replicates=bootstrap_replicates) -> None:
    """``--replicates N`` (parsed by ``replicates``, default 200) and ``--seed S`` of a
    bootstrap, on a parser or an argument group."""
    group.add_argument("--replicates", type=replicates, default=200, metavar="N",
                       help=replicates_help)
    group.add_argument("--seed", type=bootstrap_seed, default=0, metavar="S",
                       help="bootstrap seed, a whole number >= 0 (default 0)")


def _kind_options(args: argparse.Namespace) -> dict:
    return {"class_column": args.class_col, "soft_labels": args.soft_labels,
            "cost": args.cost, "leaves": args.leaves}


def non_negative(text: str) -> float:
    """A finite number >= 0."""
    return _finite_number(text, lambda v: v >= 0, "a non-negative number")


def finite(text: str) -> float:
    """A finite number."""
    return _finite_number(text, lambda v: True, "a finite number")


def add_costs(p) -> None:
    """``--cost-fp`` and ``--cost-fn`` on a parser or group (positive numbers, default 1)."""
    p.add_argument("--cost-fp", type=positive_float, default=1.0, metavar="X",
                   help="cost of a false positive (default 1)")
    p.add_argument("--cost-fn", type=positive_float, default=1.0, metavar="Y",
                   help="cost of a false negative (default 1)")


def add_prior(p) -> None:
    """``--prior`` on a parser or group: the deployment prior (default: the data's)."""
    p.add_argument("--prior", type=open_unit, default=None, metavar="P",
                   help="deployment prior p(+) in (0, 1) (default: the data's prevalence)")


def add_reading(p: argparse.ArgumentParser, *, model_flag: str) -> None:
    """The files and how to read them (shared by report, decide and check); the model
    column's option is ``model_flag`` (``--model`` in report, ``--model-col`` where
    ``--model`` names a model)."""
    p.add_argument("files", nargs="+", metavar="FILE")
    for col in ("label", "score", "model", "fold", "weight", "id"):
        p.add_argument(model_flag if col == "model" else f"--{col}", metavar="COL",
                       default=None, dest="model_column" if col == "model" else col,
                       help=f"name of the {col} column (default: found by common names)")
    p.add_argument("--positive", metavar="VALUE", default=None,
                   help="label value of the positive class, when labels are ambiguous")
    p.add_argument("--drop-nonfinite", action="store_true",
                   help="drop rows whose score is missing, NaN or infinite instead of failing")
    p.add_argument("--engine", choices=["auto", "memory", "duckdb", "spark"],
                   default="auto",
                   help="where rows are read: memory (row by row), duckdb or spark "
                        "(aggregated to counts per model, fold, score and label: any "
                        "size, no paired tests); auto (default): duckdb for quoted globs, "
                        "directories and files beyond the in-memory limits")


def silence_stdout() -> None:
    """Point standard output at the null device, so that nothing written later (Python's
    flush at exit included) fails again on a pipe the reader has closed."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
