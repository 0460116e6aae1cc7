"""The constraints on the command line: options of ``roc-dash report`` (``--constraints``,
``--capacity``, ``--floor``, ``--pr-bands``, ``--cost-matrix``) and of ``roc-dash decide``
(``--capacity``, ``--floor``, ``--floor-confidence``, ``--recalibrate``, ``--cost-matrix``),
and what they run. :mod:`roc_dash.cli` and :mod:`roc_dash.cli.decide_check` register them with
:func:`add_report_constraints` and :func:`add_decide_constraints` and call
:func:`report_constraints`, :func:`constrained_choice` and :func:`decide_multiclass`.

Bad input raises ``ValueError`` with a message naming the option; the subcommands turn it
into exit status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import TYPE_CHECKING

from ..text.rounding import sig
from .args import load_files, open_unit, positive_float, read_options

if TYPE_CHECKING:
    from ..report.constrained_choice import Constrained

__all__ = ["add_report_constraints", "add_decide_constraints", "report_constraints",
           "report_state", "constrained_choice", "decide_multiclass", "capacity_value", "floor_text"]


def capacity_value(text: str) -> tuple[float | None, float | None]:
    """``--capacity``: :func:`~roc_dash.core.constraints.capacity.parse_capacity`."""
    from ..core.constraints.capacity import parse_capacity

    try:
        return parse_capacity(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a number of cases (800), a share (3%) or cases per so many "
            f"(30/1000), got {text}") from None


def floor_text(text: str) -> str:
    """``--floor``: checked by :func:`~roc_dash.core.constraints.floors.parse_floor`."""
    from ..core.constraints.floors import parse_floor

    try:
        parse_floor(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _class_prior(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        values = ()
    if len(values) < 2 or not all(math.isfinite(v) and v > 0 for v in values):
        raise argparse.ArgumentTypeError(f"must be positive shares separated by commas, one "
                                         f"per class in the files' order (0.5,0.3,0.2), got "
                                         f"{text}")
    return values


def _common(g) -> None:
    g.add_argument("--capacity", type=capacity_value, default=None, metavar="K",
                   help="cases that can be reviewed: K of --volume cases (800), a share "
                        "(3%%) or K per N (30/1000): the best point within it")
    g.add_argument("--volume", type=positive_float, default=None, metavar="N",
                   help="cases per period the capacity K is out of (default: the data's)")
    g.add_argument("--floor", type=floor_text, action="append", default=None, metavar="EXPR",
                   help="a floor on a metric, e.g. precision>=0.9, recall>=95%%, fpr<=1%%, "
                        "npv>=0.99, flagged<=0.05 (repeatable): the best point meeting all")
    g.add_argument("--floor-confidence", type=open_unit, default=None, metavar="L",
                   help="choose the floors' threshold on exact one-sided bounds at level L "
                        "(e.g. 0.95) instead of the estimates")
    g.add_argument("--cost-matrix", default=None, metavar="FILE",
                   help="multi-class predictions: a CSV cost matrix (rows: the true class, "
                        "columns: the decision; a header row and column of class names, or "
                        "k rows of k numbers in the files' class order)")
    g.add_argument("--class-prior", type=_class_prior, default=None, metavar="P1,P2,...",
                   help="with --cost-matrix: the deployment shares of the classes (default: "
                        "the data's)")


def add_report_constraints(report: argparse.ArgumentParser) -> None:
    """``roc-dash report``'s options of the constraints (a ``constraints`` key, and for
    multi-class input with ``--cost-matrix`` a ``cost_matrix`` key)."""
    g = report.add_argument_group("constraints (adds the key constraints)")
    g.add_argument("--constraints", action="store_true",
                   help="add gains, lift, CAP and KS, and calibration with its uncertainty "
                        "(implied by --capacity, --floor and --pr-bands)")
    _common(g)
    g.add_argument("--pr-bands", action="store_true",
                   help="PR bands at the prior: fold bands (two or more folds) and "
                        "bootstrap bands (--replicates, --seed)")
    g.add_argument("--calibration-bins", type=int, default=10, metavar="N",
                   help="bins of the reliability diagram with bands (default 10)")


def add_decide_constraints(decide: argparse.ArgumentParser) -> None:
    """``roc-dash decide``'s options of the constraints."""
    g = decide.add_argument_group("constraints")
    _common(g)
    g.add_argument("--rule", choices=["fitted", "bayes"], default=None,
                   help="with --cost-matrix: class weights fitted to the data (default) or "
                        "the Bayes rule's (the deployment prior over the data's)")
    g.add_argument("--recalibrate", choices=["logistic", "platt", "isotonic"], default=None,
                   help="store a recalibration of the scores in the record: its classifier's "
                        "predict_proba returns recalibrated probabilities (decisions still "
                        "threshold the raw score)")


def _settings(args, *, n_boot: int):
    from ..core.constraints.assembly import ConstraintSettings

    cases, fraction = args.capacity if args.capacity is not None else (None, None)
    if args.volume is not None and cases is None:
        raise ValueError("--volume belongs to --capacity K given in cases (800), which is "
                         "not given: add it or leave --volume out")
    if args.floor_confidence is not None and not args.floor:
        raise ValueError("--floor-confidence belongs to --floor, which is not given")
    bins = getattr(args, "calibration_bins", 10)
    if not (isinstance(bins, int) and 1 <= bins <= 1000):
        raise ValueError(f"--calibration-bins must be a whole number from 1 to 1000, got {bins}")
    return ConstraintSettings(capacity=cases, capacity_fraction=fraction, volume=args.volume,
                              floors=tuple(args.floor or ()), confidence=args.floor_confidence,
                              n_boot=n_boot, seed=args.seed, calibration_bins=bins,
                              pr_bands=bool(getattr(args, "pr_bands", False)))


def _wanted(args) -> bool:
    return bool(args.constraints or args.capacity is not None or args.floor or args.pr_bands)


def report_constraints(args, result, analysis) -> tuple[dict, str]:
    """The report's keys and HTML sections of the constraints asked for (``({}, "")`` when
    none is): ``ValueError`` on an option that does not fit the input."""
    from ..core.kinds.canonical_kinds import MULTICLASS

    kind = getattr(getattr(result, "kind", None), "kind", None)
    if args.cost_matrix is not None or args.class_prior is not None:
        if kind != MULTICLASS:
            raise ValueError("--cost-matrix is for multi-class predictions (a class column and "
                             "one score column per class); these files hold one score per "
                             "case: use --floor or --capacity")
        return _report_cost_matrix(args, result)
    if not _wanted(args):
        return {}, ""
    from ..core.constraints.assembly import analyse_constraints
    from ..report.constraints import constraints_sections
    from ..report.constraints_html import constraints_html

    settings = _settings(args, n_boot=args.replicates)
    table = getattr(result, "table", None)
    models = analyse_constraints(analysis, table, settings)
    curves = {m.name: m.curve for m in analysis.models}
    return (constraints_sections(models, settings),
            constraints_html(models, settings, curves=curves))


def report_state(args, analysis):
    """The HTML report's decision under ``--capacity`` and ``--floor``
    (:class:`~roc_dash.report.html.ReportState`: the headline the page's summary strip shows
    for them, :func:`roc_dash.app.constrained_headline.report_headline`, and the point it
    names as the operating point), None without them (the optimum's report)."""
    if args.capacity is None and not args.floor:
        return None
    from ..app.constrained_headline import report_headline
    from ..app.page_state import PageState
    from ..core.constraints.assembly import economics_of
    from ..report.html import ReportState

    cases, fraction = args.capacity if args.capacity is not None else (None, None)
    page = PageState(
        capacity="" if args.capacity is None else (
            format(cases, ".15g") if cases is not None else format(100 * fraction, ".15g") + "%"),
        floors="; ".join(args.floor or ()),
        floor_confidence="" if args.floor_confidence is None else repr(args.floor_confidence),
        volume="" if args.volume is None else repr(args.volume))
    under = report_headline(page, analysis, economics_of(analysis.conditions))
    if under is None:
        return None
    return ReportState(summary=under.summary, operating=under.operating,
                       chosen_by=under.chosen_by, constraints=under.constraints)


def _multiclass_decisions(args, table) -> dict:
    from ..core.constraints.cost_matrix import cost_matrix_decision
    from ..core.kinds.canonical_kinds import CLASS_COLUMN, class_score_column, classes_of
    from ..decision.multiclass import read_cost_matrix

    classes = classes_of(table)
    cost = read_cost_matrix(args.cost_matrix, classes)
    if args.class_prior is not None and len(args.class_prior) != len(classes):
        raise ValueError(f"--class-prior gives {len(args.class_prior)} shares; the files' "
                         f"{len(classes)} classes ({', '.join(classes)}) need one each")
    out = {}
    for name, rows in table.groupby("model", sort=False, observed=True):
        p = rows[[class_score_column(c) for c in classes]].to_numpy(dtype=float)
        w = rows["weight"].to_numpy(dtype=float)
        out[str(name)] = cost_matrix_decision(
            p, rows[CLASS_COLUMN].astype(str).to_numpy(), cost, classes=classes,
            prior=args.class_prior, sample_weight=None if (w == 1).all() else w)
    return out


def _report_cost_matrix(args, result) -> tuple[dict, str]:
    from ..report.constraints import cost_matrix_section
    from ..report.constraints_html import cost_matrix_html

    decisions = _multiclass_decisions(args, result.table)
    return cost_matrix_section(decisions), cost_matrix_html(decisions)


# ---------------------------------------------------------------------------- decide
def constrained_choice(args, analysis, table, economics) -> Constrained | None:
    """The threshold ``decide`` ships under ``--capacity`` and ``--floor`` (None without
    them): the least expected cost meeting them all, over the models (or ``--model``), with
    how sure the floors are to hold (``--replicates``, ``--seed``)."""
    for option, value in (("--class-prior", args.class_prior), ("--rule", args.rule)):
        if value is not None:
            raise ValueError(f"{option} belongs to --cost-matrix (a decision among classes), "
                             "which is not given: add it or leave the option out")
    if args.capacity is None and not args.floor:
        if args.volume is not None or args.floor_confidence is not None:
            _settings(args, n_boot=0)  # names the option given alone
        return None
    if args.threshold is not None:
        raise ValueError("--threshold pins a threshold; --capacity and --floor choose one: "
                         "give one or the other")
    from ..report.constrained_choice import choose_under

    return choose_under(analysis, table, _settings(args, n_boot=args.replicates), economics,
                        option="--capacity")


def decide_multiclass(args) -> int:
    """``roc-dash decide --cost-matrix``: the multi-class decision record."""
    from ..core.kinds.canonical_kinds import MULTICLASS
    from ..decision.multiclass import build_multiclass_decision, read_cost_matrix
    from ..io import InputError

    for option in ("threshold", "capacity", "floor", "recalibrate"):
        if getattr(args, option, None) not in (None, False):
            raise ValueError(f"--{option.replace('_', '-')} is for one score per case; "
                             "--cost-matrix decides among classes")
    try:
        result = load_files(args, read_options(args))
    except InputError as exc:
        raise ValueError(str(exc)) from None
    if result.kind.kind != MULTICLASS:
        raise ValueError("--cost-matrix is for multi-class predictions (a class column and one "
                         "score column per class); these files hold "
                         f"{result.kind.kind} input")
    from ..core.kinds.canonical_kinds import classes_of

    table = result.table
    cost = read_cost_matrix(args.cost_matrix, classes_of(table))
    record, _ = build_multiclass_decision(table, cost, model=args.model, prior=args.class_prior,
                                          rule=args.rule or "fitted", note=args.note or "")
    text = json.dumps(record.to_dict(), indent=2, allow_nan=False) + "\n"
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            raise ValueError(f"cannot write {args.output}: {exc.strerror}") from None
    for note in record.notes:
        print(f"roc-dash: note: {note}", file=sys.stderr)
    print(f"roc-dash decide: {record.model}, {len(record.classes)} classes, {record.rule} "
          f"weights: expected cost {sig(record.expected_cost)} per case (Bayes rule "
          f"{sig(record.bayes_cost)}, one-vs-rest {sig(record.ovr_cost)}, argmax "
          f"{sig(record.argmax_cost)})", file=sys.stderr)
    if not args.output:
        sys.stdout.write(text)
    return 0
