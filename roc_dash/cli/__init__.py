"""Command line: ``roc-dash serve``, ``report``, ``decide`` and ``check`` (the last two in
:mod:`roc_dash.cli.decide_check`; what they share in :mod:`roc_dash.cli.args`).

Bad input ends with exit status 2 and the io message on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence

from .. import __version__
from .args import (
    EXIT_BAD_INPUT,
    add_bootstrap,
    add_costs,
    add_prior,
    add_reading,
    load_files,
    open_unit,
    positive_float,
    read_options,
    silence_stdout,
)
from .constraints import add_report_constraints, report_constraints, report_state
from .decide_check import add_check, add_decide
from .monitor import add_monitor


def _fpr_max(text: str) -> float:
    value = positive_float(text)
    if value > 1:
        raise argparse.ArgumentTypeError(f"must lie in (0, 1], got {text}")
    return value


def _report(args: argparse.Namespace) -> int:
    from ..core.analysis_types import Conditions
    from ..core.assembly.analysis import analyse
    from ..io import InputError
    from ..report import build_report

    options = read_options(args)
    try:
        result = load_files(args, options)
    except InputError as exc:
        print(f"roc-dash: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for note in result.notes:
        print(f"roc-dash: note: {note}", file=sys.stderr)
    conditions = Conditions(cost_fp=args.cost_fp, cost_fn=args.cost_fn, prior_pos=args.prior,
                            fpr_max=DEFAULT_FPR_MAX if args.fpr_max is None else args.fpr_max,
                            level=args.level)
    try:
        analysis = analyse(result.table, conditions)
        extensions = _extensions(args, result, analysis)
        intervals = _point_intervals(args, result, analysis)
        partial = _partial_auc_comparison(args, result)
        report = build_report(analysis, extensions, intervals=intervals,
                              partial_auc_comparison=partial)
        slices = _slices(result, conditions)
        report.update(slices)
        extra, extra_html = report_constraints(args, result, analysis)  # (constraints)
        report.update(extra)
        # (constraints) the headline under --capacity/--floor, as the page's strip
        state = report_state(args, analysis) if args.format == "html" else None
    except ValueError as exc:
        print(f"roc-dash: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for note in report["notes"]:
        print(f"roc-dash: note: {note}", file=sys.stderr)
    if args.format == "html":
        from ..report.html import render_html

        text = render_html(analysis, extensions=extensions, intervals=intervals,
                           slices=slices, partial_auc_comparison=partial,
                           constraints_html=extra_html,
                           state=state)
    else:
        text = json.dumps(report, indent=2, allow_nan=False)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError as exc:
            print(f"roc-dash: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
            return EXIT_BAD_INPUT
    else:
        sys.stdout.write(text + "\n")
    return 0


def _slices(result, conditions) -> dict:
    """The ``slices`` and ``group_thresholds`` keys when the table has a ``group`` column
    (``--group``, or a column named ``group``), else none (the report keeps its keys)."""
    from ..io import GROUP_COLUMN
    from ..report.slices import slices_sections

    if GROUP_COLUMN not in result.table.columns:
        return {}
    return slices_sections(result.table, conditions, group_columns=result.group_columns)


#: The partial AUC's FPR limit when ``--fpr-max`` is not given.
DEFAULT_FPR_MAX = 0.2


def _partial_auc_comparison(args: argparse.Namespace, result):
    """With ``--fpr-max`` given: every pair of models compared on the partial AUC over
    ``FPR <= A`` by a paired stratified bootstrap (``--replicates`` of them, at least 2,
    ``--seed``); the report's ``comparison_partial_auc``. None otherwise, and with a note
    when the models cannot be paired."""
    from ..core.assembly.analysis import partial_auc_comparison

    if args.fpr_max is None or args.replicates < 2:
        return None
    table = getattr(result, "table", None)
    part = None if table is None else partial_auc_comparison(
        table, args.fpr_max, n_boot=args.replicates, seed=args.seed)
    if part is None:
        print("roc-dash: note: no partial-AUC comparison: it needs two or more models scored "
              "on the same rows (not aggregated input)", file=sys.stderr)
    return part


def _point_intervals(args: argparse.Namespace, result, analysis) -> dict | None:
    """Bootstrap intervals at each model's optimum and pins (``--replicates``, ``--seed``,
    ``--pin``), all models within ``--interval-seconds``; ``None`` with ``--replicates 0``
    or aggregated input (no rows to resample)."""
    from ..core.decisions.economics import Economics
    from ..report import model_point_intervals

    if args.replicates == 0:
        return None
    table = getattr(result, "table", None)
    if table is None or "label" not in table or "score" not in table:
        print("roc-dash: note: no bootstrap intervals at the chosen point: the input has no "
              "rows to resample", file=sys.stderr)
        return None
    names = {m.name for m in analysis.models}
    pins: dict = {}
    for model, threshold in args.pin or ():
        if model not in names:
            raise ValueError(f"--pin: model {model!r} is not in the data (models: "
                             f"{', '.join(map(repr, sorted(names)))})")
        pins.setdefault(model, []).append(_pin(threshold))
    deadline = time.monotonic() + args.interval_seconds
    economics = Economics(cost_fp=args.cost_fp, cost_fn=args.cost_fn)
    try:
        return model_point_intervals(analysis, table, economics, pins=pins,
                                     n_boot=args.replicates, seed=args.seed, deadline=deadline)
    except ValueError as exc:  # data the bootstrap cannot resample: the rest of the report stands
        print(f"roc-dash: note: no bootstrap intervals at the chosen point: {exc}",
              file=sys.stderr)
        return None


def _pin(text: str) -> float | None:
    """``--pin``'s threshold: a finite number, or ``inf`` (flag nothing)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isnan(value) or value == -math.inf:
        raise ValueError(f"--pin: the threshold must be a number (e.g. 0.5) or inf, got {text!r}")
    return None if value == math.inf else value


def _budget(text: str) -> tuple[float | None, float | None]:
    """``--budget``: K cases ("800") or a share of the cases ("20%")."""
    raw = text.strip()
    try:
        if raw.endswith("%"):
            value = float(raw[:-1])
            if not (math.isfinite(value) and 0 <= value <= 100):
                raise ValueError
            return None, value / 100.0
        value = float(raw)
        if not (math.isfinite(value) and value >= 0):
            raise ValueError
        return value, None
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a number of cases (800) or a percentage (20%), got {text}") from None


def _extensions(args: argparse.Namespace, result, analysis):
    """The report sections beyond one binary scorer (raises ValueError on bad requests)."""
    from ..core.assembly.extensions import analyse_extensions

    budget, fraction = args.budget if args.budget is not None else (None, None)
    logical = None
    if args.logical:
        a, ta, b, tb = args.logical
        try:
            logical = (a, float(ta), b, float(tb))
        except ValueError:
            raise ValueError(f"--logical A THRESHOLD_A B THRESHOLD_B: thresholds must be "
                             f"numbers, got {ta!r} and {tb!r}") from None
    return analyse_extensions(
        result.table, analysis, result.kind, budget=budget, fraction=fraction,
        n_total=args.population, budget_pair=tuple(args.budget_pair) if args.budget_pair
        else None, repairs=args.concavities, all_leaf_labelings=args.all_labelings,
        logical=logical, lc_pair=tuple(args.lc_pair) if args.lc_pair else None,
        lc_belief=tuple(args.lc_ratio) if args.lc_ratio else None, lc_scale=args.lc_scale)


def _add_beyond_binary(report: argparse.ArgumentParser) -> None:
    """Options of the input kinds and methods beyond one binary scorer (README)."""
    report.add_argument_group("slices").add_argument(
        "--group", metavar="COL", action="append", default=None,
        help="a categorical column slicing the rows into groups (twice: two columns "
             "crossed); adds the keys slices and group_thresholds (default: a column "
             "named group, if any)")
    g = report.add_argument_group("beyond one binary scorer")
    g.add_argument("--class-col", metavar="COL", default=None,
                   help="multi-class: the column of true classes (a label column with 3+ "
                        "values and score_<class> (or p_, proba_, y_proba_, .pred_<class>) columns "
                        "is detected without it)")
    g.add_argument("--soft-labels", nargs="?", const=True, default=None, metavar="COL",
                   help="the label column (or COL, default label_prob) holds P(positive)")
    g.add_argument("--cost", metavar="COL", default=None,
                   help="example-specific costs (default: a column named cost)")
    g.add_argument("--leaves", action="store_true",
                   help="rows carry a tree's leaf (a leaf column); a leaf,pos,neg table is "
                        "detected without it")
    g.add_argument("--all-labelings", action="store_true",
                   help="leaves: also report all 2^n labelings (at most 16 leaves)")
    g.add_argument("--budget", type=_budget, default=None, metavar="K",
                   help="act on K cases (800) or a share (20%%): the best point meeting it")
    g.add_argument("--population", type=positive_float, default=None, metavar="N",
                   help="number of cases the budget is out of (default: the test set's)")
    g.add_argument("--budget-pair", nargs=2, metavar=("A", "B"), default=None,
                   help="also mix model A's and model B's vertices to meet the budget")
    g.add_argument("--concavities", action="store_true",
                   help="report each model's concavities and their Flach-Wu repair")
    g.add_argument("--logical", nargs=4, metavar=("A", "TA", "B", "TB"), default=None,
                   help="AND/OR of model A at score >= TA and model B at score >= TB")
    g.add_argument("--lc-pair", nargs=2, metavar=("A", "B"), default=None,
                   help="relative superiority and LC index of model A against model B")
    g.add_argument("--lc-ratio", nargs=3, type=float, metavar=("LOW", "MODE", "HIGH"),
                   default=None, help="the expert's range and most likely cost ratio "
                                      "c(FN)/c(FP) (default: cost ratio /10, x1, x10)")
    g.add_argument("--lc-scale", choices=["ratio", "unit"], default="ratio",
                   help="--lc-ratio values are ratios (default) or mapped values in (0, 1)")


def _serve(args: argparse.Namespace) -> int:
    from ..app import create_app
    from ..app.server.objects import check_store_url
    from ..app.server.url_prefix import check_url_prefix, url_prefix

    try:  # the option, else $ROC_DASH_URL_PREFIX: a bad one is named, not a traceback
        prefix = (url_prefix() if args.url_prefix is None
                  else check_url_prefix(args.url_prefix, source="--url-prefix"))
        check_store_url()  # $ROC_DASH_STORE_URL, likewise
    except ValueError as exc:
        print(f"roc-dash serve: {exc}", file=sys.stderr)
        return 2
    app = create_app(data_dir=args.data_dir, url_prefix=prefix)
    print(f"roc-dash {__version__}: open http://{args.host}:{args.port}{prefix} (Ctrl+C stops)",
          file=sys.stderr)
    app.run(host=args.host, port=args.port, debug=args.debug)
    return 0


def _add_point_intervals(report: argparse.ArgumentParser) -> None:
    g = report.add_argument_group("intervals at the chosen point (stratified bootstrap)")
    add_bootstrap(g, "bootstrap replicates per model (default 200; 0: no intervals)")
    g.add_argument("--pin", nargs=2, action="append", metavar=("MODEL", "T"), default=None,
                   type=str, help="also give intervals at MODEL's threshold T (repeatable)")
    g.add_argument("--interval-seconds", type=positive_float, default=60.0, metavar="S",
                   help="time for the replicates of all models (default 60); replicates not "
                        "made by then are left out (n_boot_used says how many were)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="roc-dash", description="ROC analysis of classifier predictions."
    )
    parser.add_argument("--version", action="version", version=f"roc-dash {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="start the dashboard (demo data loaded)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8050)
    serve.add_argument("--data-dir", default=None,
                       help="where uploads are stored (default $ROC_DASH_DATA_DIR or ~/.cache/roc-dash)")
    serve.add_argument("--debug", action="store_true", help="Dash debug mode (hot reload)")
    serve.add_argument("--url-prefix", default=None, metavar="PATH",
                       help="serve everything under PATH, e.g. /roc/ behind a reverse proxy "
                            "at a sub-path (default $ROC_DASH_URL_PREFIX or /)")
    serve.set_defaults(func=_serve)

    report = sub.add_parser("report", help="analyse prediction files and print a report")
    add_reading(report, model_flag="--model")
    add_costs(report)
    add_prior(report)
    report.add_argument("--fpr-max", type=_fpr_max, default=None, metavar="A",
                        help="upper FPR limit of the partial AUC (default 0.2); given, the "
                             "report also compares every pair of models on it (paired "
                             "bootstrap, --replicates, --seed)")
    report.add_argument("--level", type=open_unit, default=0.95, metavar="L",
                        help="confidence level of intervals and bands (default 0.95)")
    report.add_argument("--format", choices=["json", "html"], default="json",
                        help="json (the contract in docs/cli.md) or a self-contained html page")
    report.add_argument("-o", "--output", metavar="PATH", default=None,
                        help="write the report here instead of standard output")
    _add_beyond_binary(report)
    _add_point_intervals(report)
    add_report_constraints(report)
    report.set_defaults(func=_report)
    add_decide(sub)
    add_check(sub)
    add_monitor(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        status = args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader closed standard output (e.g. `| head`)
        silence_stdout()
        return 1
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    return status

