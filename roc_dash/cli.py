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


def _finite_or_none(values) -> list:
    """JSON-safe list: +inf/-inf/NaN (e.g. the threshold of the origin) become ``null``."""
    return [None if not math.isfinite(v) else float(v) for v in values]


def build_report(models) -> dict:
    """The JSON document of ``roc-dash report`` for summarised models."""
    return {
        "models": [
            {
                "name": m.name,
                "n_pos": m.n_pos,
                "n_neg": m.n_neg,
                "n_rows": m.n_rows,
                "n_folds": m.n_folds,
                "auc": m.auc,
                "gini": 2.0 * m.auc - 1.0,
                "roc": {
                    "fpr": m.curve.fpr.tolist(),
                    "tpr": m.curve.tpr.tolist(),
                    "threshold": _finite_or_none(m.curve.thresholds),
                },
            }
            for m in models
        ]
    }


def _report(args: argparse.Namespace) -> int:
    from .core.summary import summarise_models
    from .io import InputError, ReadOptions, load_predictions

    options = ReadOptions(
        label=args.label, score=args.score, model=args.model, fold=args.fold,
        weight=args.weight, id=args.id, positive=args.positive,
        drop_nonfinite=args.drop_nonfinite,
    )
    try:
        result = load_predictions(args.files, options=options)
    except InputError as exc:
        print(f"roc-dash: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for note in result.notes:
        print(f"roc-dash: note: {note}", file=sys.stderr)
    try:
        report = build_report(summarise_models(result.table))
    except ValueError as exc:
        print(f"roc-dash: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
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
    report.add_argument("--format", choices=["json"], default="json")
    report.add_argument("-o", "--output", metavar="PATH", default=None,
                        help="write the report here instead of standard output")
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
