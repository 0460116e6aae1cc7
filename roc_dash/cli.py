"""Command line: ``roc-dash serve`` and ``roc-dash report``.

Bad input ends with exit status 2 and the io message on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence

from . import __version__

EXIT_BAD_INPUT = 2


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def _open_unit(text: str) -> float:
    value = _positive_float(text)
    if not value < 1:
        raise argparse.ArgumentTypeError(f"must lie strictly between 0 and 1, got {text}")
    return value


def _fpr_max(text: str) -> float:
    value = _positive_float(text)
    if value > 1:
        raise argparse.ArgumentTypeError(f"must lie in (0, 1], got {text}")
    return value


def _load(args: argparse.Namespace, options):
    """Read the files in memory, or aggregate them in an engine (``--engine``; ``auto``:
    DuckDB for globs, directories and files beyond the in-memory limits)."""
    from .io import load_predictions
    from .io.engine_sources import should_stream
    from .io.engines import aggregate_predictions

    engine = args.engine
    if engine == "auto":
        engine = "duckdb" if should_stream(args.files) else "memory"
    if engine != "memory":
        return aggregate_predictions(args.files, options=options, engine=engine)
    # the same file twice would count its predictions twice: refuse it, naming both
    return load_predictions(args.files, options=options, duplicate_files="error")


def _report(args: argparse.Namespace) -> int:
    from .core.assembly.analysis import Conditions, analyse
    from .io import InputError, ReadOptions
    from .report import build_report

    options = ReadOptions(
        label=args.label, score=args.score, model=args.model, fold=args.fold,
        weight=args.weight, id=args.id, positive=args.positive,
        drop_nonfinite=args.drop_nonfinite, **_kind_options(args),
    )
    try:
        result = _load(args, options)
    except InputError as exc:
        print(f"roc-dash: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for note in result.notes:
        print(f"roc-dash: note: {note}", file=sys.stderr)
    conditions = Conditions(cost_fp=args.cost_fp, cost_fn=args.cost_fn, prior_pos=args.prior,
                            fpr_max=args.fpr_max, level=args.level)
    try:
        analysis = analyse(result.table, conditions)
        extensions = _extensions(args, result, analysis)
        report = build_report(analysis, extensions)
    except ValueError as exc:
        print(f"roc-dash: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for note in report["notes"]:
        print(f"roc-dash: note: {note}", file=sys.stderr)
    if args.format == "html":
        from .html_report import render_html

        text = render_html(analysis, extensions=extensions)
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


def _kind_options(args: argparse.Namespace) -> dict:
    return {"class_column": args.class_col, "soft_labels": args.soft_labels,
            "cost": args.cost, "leaves": args.leaves}


def _extensions(args: argparse.Namespace, result, analysis):
    """The report sections beyond one binary scorer (raises ValueError on bad requests)."""
    from .core.assembly.beyond_binary import analyse_extensions

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
    g.add_argument("--population", type=_positive_float, default=None, metavar="N",
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
    from .app import create_app

    app = create_app(data_dir=args.data_dir)
    print(f"roc-dash {__version__}: open http://{args.host}:{args.port}/ (Ctrl+C stops)",
          file=sys.stderr)
    app.run(host=args.host, port=args.port, debug=args.debug)
    return 0


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
    serve.set_defaults(func=_serve)

    report = sub.add_parser("report", help="analyse prediction files and print a report")
    report.add_argument("files", nargs="+", metavar="FILE")
    for col in ("label", "score", "model", "fold", "weight", "id"):
        report.add_argument(f"--{col}", metavar="COL", default=None,
                            help=f"name of the {col} column (default: found by common names)")
    report.add_argument("--positive", metavar="VALUE", default=None,
                        help="label value of the positive class, when labels are ambiguous")
    report.add_argument("--drop-nonfinite", action="store_true",
                        help="drop rows whose score is missing, NaN or infinite instead of failing")
    report.add_argument("--engine", choices=["auto", "memory", "duckdb", "spark"],
                        default="auto",
                        help="where rows are read: memory (row by row), duckdb or spark "
                             "(aggregated to counts per model, fold, score and label: any "
                             "size, no paired tests); auto (default): duckdb for quoted globs, "
                             "directories and files beyond the in-memory limits")
    report.add_argument("--cost-fp", type=_positive_float, default=1.0, metavar="X",
                        help="cost of a false positive (default 1)")
    report.add_argument("--cost-fn", type=_positive_float, default=1.0, metavar="Y",
                        help="cost of a false negative (default 1)")
    report.add_argument("--prior", type=_open_unit, default=None, metavar="P",
                        help="deployment prior p(+) in (0, 1) (default: the data's prevalence)")
    report.add_argument("--fpr-max", type=_fpr_max, default=0.2, metavar="A",
                        help="upper FPR limit of the partial AUC (default 0.2)")
    report.add_argument("--level", type=_open_unit, default=0.95, metavar="L",
                        help="confidence level of intervals and bands (default 0.95)")
    report.add_argument("--format", choices=["json", "html"], default="json",
                        help="json (the contract in the README) or a self-contained html page")
    report.add_argument("-o", "--output", metavar="PATH", default=None,
                        help="write the report here instead of standard output")
    _add_beyond_binary(report)
    report.set_defaults(func=_report)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
