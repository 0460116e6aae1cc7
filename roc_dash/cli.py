"""Command line: ``roc-dash serve``, ``report``, ``decide`` and ``check``.

Bad input ends with exit status 2 and the io message on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
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
    from .io import InputError, load_predictions
    from .io.engine_sources import should_stream
    from .io.engines import aggregate_predictions

    engine = args.engine
    if engine == "auto":
        engine = "duckdb" if should_stream(args.files) else "memory"
    if engine != "memory":
        if getattr(args, "group", None):
            raise InputError(f"--group reads every row; it does not work with --engine "
                             f"{engine}. Use --engine memory (or leave --group out).")
        return aggregate_predictions(args.files, options=options, engine=engine)
    # the same file twice would count its predictions twice: refuse it, naming both
    return load_predictions(args.files, options=options, duplicate_files="error")


def _read_options(args: argparse.Namespace):
    """How to read the files, from the column options (:func:`_add_reading`) and the input
    kinds' (report only, :func:`_add_beyond_binary`)."""
    from .io import ReadOptions

    return ReadOptions(
        label=args.label, score=args.score, model=args.model_column, fold=args.fold,
        weight=args.weight, id=args.id, positive=args.positive,
        drop_nonfinite=args.drop_nonfinite,
        **(_kind_options(args) if hasattr(args, "class_col") else {}),
        **({"group_columns": tuple(args.group)} if getattr(args, "group", None) else {}),
    )


def _report(args: argparse.Namespace) -> int:
    from .core.assembly.analysis import Conditions, analyse
    from .io import InputError
    from .report import build_report

    options = _read_options(args)
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
        intervals = _point_intervals(args, result, analysis)
        report = build_report(analysis, extensions, intervals=intervals)
        slices = _slices(result, conditions)
        report.update(slices)
    except ValueError as exc:
        print(f"roc-dash: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for note in report["notes"]:
        print(f"roc-dash: note: {note}", file=sys.stderr)
    if args.format == "html":
        from .html_report import render_html

        text = render_html(analysis, extensions=extensions, intervals=intervals,
                           slices=slices)
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
    from .io import GROUP_COLUMN
    from .slices_report import slices_sections

    if GROUP_COLUMN not in result.table.columns:
        return {}
    return slices_sections(result.table, conditions, group_columns=result.group_columns)


def _point_intervals(args: argparse.Namespace, result, analysis) -> dict | None:
    """Bootstrap intervals at each model's optimum and pins (``--replicates``, ``--seed``,
    ``--pin``), all models within ``--interval-seconds``; ``None`` with ``--replicates 0``
    or aggregated input (no rows to resample)."""
    from .core.economics import Economics
    from .report import model_point_intervals

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


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(
            f"the seed must be a whole number >= 0, got {text!r}")
    return value


def _replicates(text: str) -> int:
    from .core.uncertainty import MAX_BOOT

    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_BOOT:
        raise argparse.ArgumentTypeError(
            f"replicates must be a whole number from 0 to {MAX_BOOT}, got {text!r}")
    return value


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


# ------------------------------------------------------------------ decide and check
class _BadInput(Exception):
    """Ends ``decide`` or ``check`` with exit status 2 and this message."""


def _non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be a non-negative number, got {text}")
    return value


def _finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text}")
    return value


def _gate_conditions(args: argparse.Namespace):
    """Conditions (net costs, as the page) and economics of ``decide``/``check``."""
    from .core.assembly.analysis import Conditions
    from .core.economics import Economics

    economics = Economics(cost_fp=args.cost_fp, cost_fn=args.cost_fn,
                          benefit_tp=args.benefit_tp, benefit_tn=args.benefit_tn)
    conditions = Conditions(cost_fp=economics.net_cost_fp, cost_fn=economics.net_cost_fn,
                            benefit_tp=args.benefit_tp, benefit_tn=args.benefit_tn,
                            prior_pos=args.prior, level=args.level)
    return conditions, economics


def _gate_table(args: argparse.Namespace):
    """The canonical table of the files (notes to stderr); ``_BadInput`` when unreadable or
    not binary predictions."""
    from .core.canonical_kinds import BINARY, SOFT
    from .io import InputError

    try:
        result = _load(args, _read_options(args))
    except InputError as exc:
        raise _BadInput(str(exc)) from None
    for note in result.notes:
        print(f"roc-dash: note: {note}", file=sys.stderr)
    if result.kind.kind not in (BINARY, SOFT):
        raise _BadInput(f"{args.command} works on one score per case and a two-class (or "
                        f"soft) label; these files hold {result.kind.kind} input. Give one "
                        "class's scores (a label column of two values)")
    return result.table


def _models_of(table) -> list[str]:
    import pandas as pd

    return [str(m) for m in pd.unique(table["model"])]


def _pick_model(args, names: list[str], default: str | None = None) -> str:
    """``--model`` (checked), else ``default``, else the only model."""
    listed = ", ".join(map(repr, names))
    if args.model is not None:
        if args.model not in names:
            raise _BadInput(f"--model {args.model!r}: no such model in the files (models: "
                            f"{listed}). Give one of them; model names come from the model "
                            "column (--model-col) or the file names")
        return args.model
    if default is not None:
        if default not in names:
            raise _BadInput(f"the decision record's model {default!r} is not in the files "
                            f"(models: {listed}). Give its predictions (a decision is "
                            "re-checked on the model it was taken on)")
        return default
    if len(names) == 1:
        return names[0]
    raise _BadInput(f"the files hold {len(names)} models ({listed}): choose one with --model")


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise _BadInput(f"cannot write {path}: {exc.strerror}; check the folder exists and "
                        "is writable") from None


def _gate(run):
    """Run ``decide`` or ``check``: bad input of any kind is exit 2 with one message."""
    def wrapped(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except (_BadInput, ValueError) as exc:
            print(f"roc-dash {args.command}: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
    return wrapped


@_gate
def _decide(args: argparse.Namespace) -> int:
    from .core.assembly.analysis import analyse
    from .decision import build_decision

    table = _gate_table(args)
    names = _models_of(table)
    if args.threshold is not None and args.model is None and len(names) > 1:
        raise _BadInput(f"--threshold needs --model: the files hold {len(names)} models "
                        f"({', '.join(map(repr, names))})")
    model = _pick_model(args, names) if args.model or args.threshold is not None else None
    if model is not None:
        table = table[table["model"].astype(str) == model]
    conditions, economics = _gate_conditions(args)
    analysis = analyse(table, conditions)
    pinned = ({"model": model, "threshold": args.threshold} if args.threshold is not None
              else None)
    record = build_decision(analysis, table, pinned=pinned, economics=economics,
                            note=args.note or "", response_method=args.response_method,
                            replicates=args.replicates, seed=args.seed)
    text = json.dumps(record.to_dict(), indent=2, allow_nan=False) + "\n"
    if args.output:
        _write(args.output, text)
    for note in record.notes:
        print(f"roc-dash: note: {note}", file=sys.stderr)
    m = record.metrics
    print(f"roc-dash decide: {record.model}, flag iff score >= {record.threshold:.6g} "
          f"({record.how_chosen}): TPR {m.tpr:.6g}, FPR {m.fpr:.6g}, expected cost "
          f"{m.expected_cost:.6g} per case at p(+) {record.prior_pos:.6g}", file=sys.stderr)
    if not args.output:
        sys.stdout.write(text)
    return 0


def _lone_options(args: argparse.Namespace) -> None:
    """``_BadInput`` for an option given without the criterion it belongs to."""
    for option, value, needs, given in (
            ("--margin", args.margin, "--not-worse-than", args.not_worse_than),
            ("--alpha", args.alpha, "--not-worse-than", args.not_worse_than),
            ("--cost-tolerance", args.cost_tolerance, "--decision", args.decision)):
        if value is not None and given is None:
            raise _BadInput(f"{option} belongs to {needs}, which is not given: add "
                            f"{needs} or leave {option} out")


def _same_decision(record, table, model: str) -> None:
    """``_BadInput`` when the files' model or positive label is not the record's."""
    if model != record.model:
        raise _BadInput(f"--decision: the record holds the decision on model "
                        f"{record.model!r}, --model gives {model!r}. Leave --model out to "
                        "re-check the record's model, or give the decision record of "
                        f"{model!r}")
    positive = (table.attrs.get("positive_labels") or {}).get(model)
    if record.positive_label is not None and positive is not None \
            and str(positive) != record.positive_label:
        raise _BadInput(f"--decision: the record takes label {record.positive_label!r} as "
                        f"positive, these files are read with {str(positive)!r} as "
                        f"positive. Give --positive {record.positive_label!r}, or the "
                        "decision record taken with this positive label")


def _check_criteria(args, table, record) -> list:
    from .core.assembly.analysis import analyse
    from .gate import max_expected_cost, min_auc, not_worse_than, recheck_decision

    names = _models_of(table)
    model = _pick_model(args, names, record.model if record is not None else None)
    out = []
    if args.min_auc is not None or args.max_expected_cost is not None:
        conditions, _ = _gate_conditions(args)
        analysis = analyse(table[table["model"].astype(str) == model], conditions)
        if args.min_auc is not None:
            out.append(min_auc(analysis, model, args.min_auc))
        if args.max_expected_cost is not None:
            out.append(max_expected_cost(analysis, model, args.max_expected_cost))
    if args.not_worse_than is not None:
        if args.not_worse_than not in names or args.not_worse_than == model:
            raise _BadInput(f"--not-worse-than {args.not_worse_than!r}: give another model of "
                            f"the files as the baseline (models: {', '.join(map(repr, names))})")
        out.append(not_worse_than(
            table, model, args.not_worse_than,
            margin=0.0 if args.margin is None else args.margin,
            alpha=0.05 if args.alpha is None else args.alpha))
    if record is not None:
        _same_decision(record, table, model)
        out.extend(recheck_decision(record, table, model, cost_tolerance=args.cost_tolerance))
    return out


@_gate
def _check(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from .decision import load
    from .gate import exit_status, junit_xml, summary_text

    if not any(v is not None for v in (args.min_auc, args.max_expected_cost,
                                       args.not_worse_than, args.decision)):
        raise _BadInput("no criterion given: add --min-auc, --max-expected-cost, "
                        "--not-worse-than or --decision")
    _lone_options(args)
    record = load(args.decision) if args.decision is not None else None
    table = _gate_table(args)
    criteria = _check_criteria(args, table, record)
    if args.junit:
        _write(args.junit, junit_xml(criteria, timestamp=datetime.now(UTC).strftime(
            "%Y-%m-%dT%H:%M:%S")) + "\n")
    status = exit_status(criteria)
    try:
        print(summary_text(criteria), flush=True)
    except BrokenPipeError:  # the reader closed the pipe: the criteria's status stands
        _silence_stdout()
    return status


def _add_gate_conditions(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("conditions")
    g.add_argument("--cost-fp", type=_positive_float, default=1.0, metavar="X",
                   help="cost of a false positive (default 1)")
    g.add_argument("--cost-fn", type=_positive_float, default=1.0, metavar="Y",
                   help="cost of a false negative (default 1)")
    g.add_argument("--benefit-tp", type=_non_negative, default=0.0, metavar="B",
                   help="benefit of a true positive (default 0)")
    g.add_argument("--benefit-tn", type=_non_negative, default=0.0, metavar="B",
                   help="benefit of a true negative (default 0)")
    g.add_argument("--prior", type=_open_unit, default=None, metavar="P",
                   help="deployment prior p(+) in (0, 1) (default: the data's prevalence)")
    g.add_argument("--level", type=_open_unit, default=0.95, metavar="L",
                   help="confidence level of intervals (default 0.95)")


def _add_decide(sub) -> None:
    p = sub.add_parser("decide", help="write a decision record (JSON): model, threshold, "
                                      "conditions, metrics, data fingerprint")
    _add_reading(p, model_flag="--model-col")
    p.add_argument("--model", metavar="M", default=None,
                   help="the model decided on (default: the optimum over all models)")
    p.add_argument("--threshold", type=_finite, default=None, metavar="T",
                   help="flag iff score >= T (default: the model's optimum under the "
                        "conditions)")
    p.add_argument("--note", default=None, metavar="TEXT", help="a note kept in the record")
    p.add_argument("--response-method", default="auto",
                   choices=["auto", "predict_proba", "decision_function"],
                   help="what the scores are, for scikit-learn (auto, the default: "
                        "predict_proba when every score of the model lies in [0, 1], else "
                        "decision_function; predict_proba is refused for scores beyond "
                        "[0, 1])")
    p.add_argument("--replicates", type=_replicates, default=200, metavar="N",
                   help="bootstrap replicates of the intervals, 0 to 2000 (default 200; "
                        "0: none)")
    p.add_argument("--seed", type=_seed, default=0, metavar="S",
                   help="bootstrap seed, a whole number >= 0 (default 0)")
    p.add_argument("-o", "--output", metavar="PATH", default=None,
                   help="write the record here instead of standard output")
    _add_gate_conditions(p)
    p.set_defaults(func=_decide)


def _add_check(sub) -> None:
    p = sub.add_parser("check", help="CI gate: exit 0 when every criterion passes, 1 when "
                                     "one fails, 2 on bad input")
    _add_reading(p, model_flag="--model-col")
    p.add_argument("--model", metavar="M", default=None,
                   help="the model checked (default: the decision's, or the only one)")
    g = p.add_argument_group("criteria")
    g.add_argument("--min-auc", type=_open_unit, default=None, metavar="X",
                   help="fail when the model's AUC is below X")
    g.add_argument("--max-expected-cost", type=_finite, default=None, metavar="X",
                   help="fail when the expected cost per case at the model's optimum "
                        "(under the conditions) is above X")
    g.add_argument("--not-worse-than", metavar="BASELINE", default=None,
                   help="fail unless DeLong's one-sided test shows AUC(model) > "
                        "AUC(BASELINE) - margin (same rows)")
    g.add_argument("--margin", type=_non_negative, default=None, metavar="M",
                   help="with --not-worse-than: non-inferiority margin on the AUC "
                        "(default 0)")
    g.add_argument("--alpha", type=_open_unit, default=None, metavar="A",
                   help="with --not-worse-than: one-sided significance level "
                        "(default 0.05)")
    g.add_argument("--decision", metavar="decision.json", default=None,
                   help="re-check a decision record on these files: its threshold, costs "
                        "and prior; fail when the expected cost exceeds the record's")
    g.add_argument("--cost-tolerance", type=_non_negative, default=None, metavar="X",
                   help="with --decision: expected cost allowed above the record's "
                        "(default: up to its interval's upper end)")
    p.add_argument("--junit", metavar="PATH", default=None,
                   help="also write the criteria as JUnit XML (one test case each)")
    _add_gate_conditions(p)
    p.set_defaults(func=_check)


def _serve(args: argparse.Namespace) -> int:
    from .app import create_app

    app = create_app(data_dir=args.data_dir)
    print(f"roc-dash {__version__}: open http://{args.host}:{args.port}/ (Ctrl+C stops)",
          file=sys.stderr)
    app.run(host=args.host, port=args.port, debug=args.debug)
    return 0


def _add_reading(p: argparse.ArgumentParser, *, model_flag: str) -> None:
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


def _add_point_intervals(report: argparse.ArgumentParser) -> None:
    g = report.add_argument_group("intervals at the chosen point (stratified bootstrap)")
    g.add_argument("--replicates", type=_replicates, default=200, metavar="N",
                   help="bootstrap replicates per model (default 200; 0: no intervals)")
    g.add_argument("--seed", type=_seed, default=0, metavar="S",
                   help="bootstrap seed, a whole number >= 0 (default 0)")
    g.add_argument("--pin", nargs=2, action="append", metavar=("MODEL", "T"), default=None,
                   type=str, help="also give intervals at MODEL's threshold T (repeatable)")
    g.add_argument("--interval-seconds", type=_positive_float, default=60.0, metavar="S",
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
    serve.set_defaults(func=_serve)

    report = sub.add_parser("report", help="analyse prediction files and print a report")
    _add_reading(report, model_flag="--model")
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
    _add_point_intervals(report)
    report.set_defaults(func=_report)
    _add_decide(sub)
    _add_check(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        status = args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader closed standard output (e.g. `| head`)
        _silence_stdout()
        return 1
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    return status


def _silence_stdout() -> None:
    """Point standard output at the null device, so that nothing written later (Python's
    flush at exit included) fails again on a pipe the reader has closed."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
