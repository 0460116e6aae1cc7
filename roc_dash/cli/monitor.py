"""``roc-dash monitor``: a shipped decision against windows of predictions after deployment
(:mod:`roc_dash.decision.monitoring`). :mod:`roc_dash.cli` adds it with :func:`add_monitor`.

Exit status 0 when the decision held in every window, 1 when a window drifted (a criterion
failed), 2 on bad input (one message on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .args import (
    EXIT_BAD_INPUT,
    add_bootstrap,
    non_negative,
    open_unit,
    silence_stdout,
    whole_number,
)

__all__ = ["add_monitor"]


def _replicates(text: str) -> int:
    return whole_number(text, 20, 5000, "replicates must be a whole number from 20 to 5000")


def _run(args: argparse.Namespace):
    from ..core.monitoring import MonitorSettings
    from ..decision.monitoring import monitor

    settings = MonitorSettings(level=args.level, alpha=args.alpha,
                               replicates=args.replicates, seed=args.seed,
                               estimator=args.estimator, min_saving=args.min_saving,
                               psi_min=args.psi_min,
                               fail_on_shift=args.fail_on_shift)
    return monitor(args.record, args.windows, reference=args.reference, time=args.time,
                   every=args.every, score=args.score, label=args.label,
                   model_column=args.model_column, weight=args.weight,
                   positive=args.positive, drop_nonfinite=args.drop_nonfinite,
                   settings=settings)


def _monitor(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    if args.every is not None and args.time is None:
        print("roc-dash monitor: --every cuts the time column into periods: give the column "
              "with --time", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        report = _run(args)
        for note in report.notes:
            print(f"roc-dash: note: {note}", file=sys.stderr)
        if args.format == "html":
            from ..report.html_monitor import render_monitor_html

            text = render_monitor_html(report)
        else:
            text = json.dumps(report.to_dict(), indent=2, allow_nan=False)
        if args.junit:
            Path(args.junit).write_text(report.junit_xml(timestamp=datetime.now(UTC).strftime(
                "%Y-%m-%dT%H:%M:%S")) + "\n", encoding="utf-8")
        if args.output:
            Path(args.output).write_text(text + "\n", encoding="utf-8")
    except ValueError as exc:  # MonitorInputError, DecisionFileError, InputError, ...
        print(f"roc-dash monitor: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:  # the output or the JUnit file
        print(f"roc-dash monitor: cannot write {exc.filename}: {exc.strerror}; check the "
              "folder exists and is writable", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        print(report.summary_text(), file=sys.stderr)
        if not args.output:
            sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader closed the pipe: the run's status stands
        silence_stdout()
    return report.exit_status


def add_monitor(sub) -> None:
    """The ``monitor`` subcommand."""
    p = sub.add_parser(
        "monitor", help="check a decision record on windows of predictions after "
                        "deployment: exit 0 held, 1 drift, 2 bad input")
    p.add_argument("record", metavar="RECORD",
                   help="the decision record (JSON of `roc-dash decide` or the page)")
    p.add_argument("windows", nargs="+", metavar="WINDOW",
                   help="prediction files (CSV, TSV, Parquet; quoted globs, directories): "
                        "one window each, or cut by --time; a label column is optional")
    g = p.add_argument_group("windows")
    g.add_argument("--time", metavar="COL", default=None,
                   help="the column whose values are the windows (or, with --every, the "
                        "dates and times cut into periods)")
    g.add_argument("--every", choices=["day", "week", "month", "quarter", "year"],
                   default=None, help="cut --time into periods")
    g.add_argument("--reference", metavar="FILE", nargs="+", default=None,
                   help="the predictions the decision was taken on (labels and scores): "
                        "needed for EM, PACC, the re-derived choice and the score tests")
    for col in ("label", "score", "weight"):
        g.add_argument(f"--{col}", metavar="COL", default=None,
                       help=f"name of the {col} column (default: found by common names)")
    g.add_argument("--model-col", metavar="COL", default=None, dest="model_column",
                   help="name of the model column (default: 'model'; only the record's "
                        "model's rows are read)")
    g.add_argument("--positive", metavar="VALUE", default=None,
                   help="label value of the positive class (default: the record's)")
    g.add_argument("--drop-nonfinite", action="store_true",
                   help="leave out rows whose score is missing, NaN or infinite")
    s = p.add_argument_group("tests and intervals")
    s.add_argument("--level", type=open_unit, default=0.95, metavar="L",
                   help="level of the intervals (default 0.95)")
    s.add_argument("--alpha", type=open_unit, default=0.05, metavar="A",
                   help="false-alarm rate of a run (exit 1 under no change), split over "
                        "its failing tests (default 0.05)")
    add_bootstrap(s, "bootstrap replicates, 20 to 5000 (default 200)", replicates=_replicates)
    s.add_argument("--estimator", choices=["em", "pacc", "acc"], default="em",
                   help="the prevalence estimate that re-derives the choice of an "
                        "unlabelled window (default em)")
    s.add_argument("--min-saving", type=non_negative, default=0.002, metavar="X",
                   help="share of the largest cost per case that switching to the re-derived "
                        "choice must save for the choice to fail (default 0.002)")
    s.add_argument("--psi-min", type=non_negative, default=0.01, metavar="X",
                   help="PSI a score shift must reach besides its KS test (default 0.01)")
    s.add_argument("--fail-on-shift", action="store_true",
                   help="a score shift the prior does not explain fails the run (default: "
                        "a warning)")
    p.add_argument("--format", choices=["json", "html"], default="json",
                   help="json (default) or a self-contained html page")
    p.add_argument("-o", "--output", metavar="PATH", default=None,
                   help="write the report here instead of standard output")
    p.add_argument("--junit", metavar="PATH", default=None,
                   help="also write the criteria as JUnit XML (one test case each)")
    p.set_defaults(func=_monitor)
