"""``roc-dash decide`` and ``roc-dash check``: their options and what they run
(:mod:`roc_dash.decision`, :mod:`roc_dash.decision.gate`). :mod:`roc_dash.cli` adds them as
subcommands with :func:`add_decide` and :func:`add_check`.

Bad input of any kind ends with exit status 2 and one message on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..text.rounding import rule_threshold, sig
from .args import (
    EXIT_BAD_INPUT,
    add_bootstrap,
    add_costs,
    add_prior,
    add_reading,
    finite,
    load_files,
    non_negative,
    open_unit,
    read_options,
    silence_stdout,
)
from .constraints import add_decide_constraints, constrained_choice, decide_multiclass

__all__ = ["add_decide", "add_check"]


class _BadInput(Exception):
    """Ends ``decide`` or ``check`` with exit status 2 and this message."""


def _gate_conditions(args: argparse.Namespace):
    """Conditions (net costs, as the page) and economics of ``decide``/``check``."""
    from ..core.analysis_types import Conditions
    from ..core.decisions.economics import Economics

    economics = Economics(cost_fp=args.cost_fp, cost_fn=args.cost_fn,
                          benefit_tp=args.benefit_tp, benefit_tn=args.benefit_tn)
    conditions = Conditions(cost_fp=economics.net_cost_fp, cost_fn=economics.net_cost_fn,
                            benefit_tp=args.benefit_tp, benefit_tn=args.benefit_tn,
                            prior_pos=args.prior, level=args.level)
    return conditions, economics


def _gate_table(args: argparse.Namespace):
    """The canonical table of the files (notes to stderr); ``_BadInput`` when unreadable or
    not binary predictions."""
    from ..core.kinds.canonical_kinds import BINARY, SOFT
    from ..io import InputError

    try:
        result = load_files(args, read_options(args))
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
    """Run ``decide`` or ``check``: bad input of any kind is exit 2 with one message. So is
    an error nobody foresaw (a bug): a traceback would end the process with status 1, which
    a CI pipeline reads as "a criterion failed"; ``check`` exits 1 only for that."""
    def wrapped(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except (_BadInput, ValueError) as exc:
            print(f"roc-dash {args.command}: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except (KeyboardInterrupt, BrokenPipeError, MemoryError):
            raise
        except Exception as exc:  # noqa: BLE001 -- never exit 1 on a bug
            print(f"roc-dash {args.command}: unexpected error ({type(exc).__name__}: "
                  f"{exc}); nothing was decided or checked. This is a bug in roc-dash: "
                  "please report it with the command and the files' shape", file=sys.stderr)
            return EXIT_BAD_INPUT
    return wrapped


def _score_below(table, model, threshold):
    """The highest score of ``model`` under ``threshold`` (None if none): the printed rule
    stays above it, so it flags exactly the cases the record's threshold flags."""
    scores = table.loc[table["model"].astype(str) == str(model), "score"].to_numpy(float)
    scores = scores[scores < threshold]
    return float(scores.max()) if scores.size else None


@_gate
def _decide(args: argparse.Namespace) -> int:
    from ..core.assembly.analysis import analyse
    from ..decision import build_decision

    if args.cost_matrix is not None:  # (constraints) a decision among several classes
        return decide_multiclass(args)
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
    constrained = constrained_choice(args, analysis, table, economics)  # (constraints)
    if constrained is not None:
        pinned = constrained.pinned
    record = build_decision(analysis, table, pinned=pinned, economics=economics,
                            note=args.note or "", response_method=args.response_method,
                            replicates=args.replicates, seed=args.seed,
                            recalibration=args.recalibrate)
    if constrained is not None:
        record = constrained.apply(record)
    text = json.dumps(record.to_dict(), indent=2, allow_nan=False) + "\n"
    if args.output:
        _write(args.output, text)
    for note in record.notes:
        print(f"roc-dash: note: {note}", file=sys.stderr)
    m = record.metrics
    shown = rule_threshold(record.threshold, below=_score_below(table, record.model,
                                                                 record.threshold))
    print(f"roc-dash decide: {record.model}, flag iff score >= {shown} "
          f"({record.how_chosen}): TPR {sig(m.tpr)}, FPR {sig(m.fpr)}, expected cost "
          f"{sig(m.expected_cost)} per case at p(+) {sig(record.prior_pos)}", file=sys.stderr)
    c = record.choice_intervals
    if c is not None:
        print(f"roc-dash decide: {c.level:.0%} interval of the choice (the optimum picked "
              f"again in {c.replicates_used} replicates): threshold [{sig(c.threshold[0])}, "
              f"{sig(c.threshold[1])}], expected cost [{sig(c.expected_cost[0])}, "
              f"{sig(c.expected_cost[1])}]; out-of-bag cost {sig(c.out_of_bag_cost)}",
              file=sys.stderr)
    if not args.output:
        sys.stdout.write(text)
    return 0


def _lone_options(args: argparse.Namespace) -> None:
    """``_BadInput`` for an option given without the criterion it belongs to."""
    for option, value, needs, given in (
            ("--margin", args.margin, "--not-worse-than", args.not_worse_than),
            ("--alpha", args.alpha, "--not-worse-than", args.not_worse_than),
            ("--cost-tolerance", args.cost_tolerance, "--decision", args.decision),
            ("--decision-alpha", args.decision_alpha, "--decision", args.decision)):
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
    from ..core.assembly.analysis import analyse
    from ..decision.gate import max_expected_cost, min_auc, not_worse_than, recheck_decision

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
            table, model, args.not_worse_than, margin=args.margin,
            alpha=0.05 if args.alpha is None else args.alpha))
    if record is not None:
        _same_decision(record, table, model)
        out.extend(recheck_decision(
            record, table, model, cost_tolerance=args.cost_tolerance,
            alpha=0.05 if args.decision_alpha is None else args.decision_alpha))
    return out


@_gate
def _check(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from ..decision import load
    from ..decision.gate import exit_status, junit_xml, summary_text

    if not any(v is not None for v in (args.min_auc, args.max_expected_cost,
                                       args.not_worse_than, args.decision)):
        raise _BadInput("no criterion given: add --min-auc, --max-expected-cost, "
                        "--not-worse-than or --decision")
    _lone_options(args)
    if args.not_worse_than is not None and args.margin is None:
        raise _BadInput(
            "--not-worse-than needs --margin M: the loss of AUC you accept (e.g. 0.01 or "
            "0.02). --margin 0 makes it a superiority test: the model must be shown better "
            "than the baseline, and one as good as it fails (p = 0.5 at equal AUCs)")
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
        silence_stdout()
    return status


def _alarm_rate(text: str) -> float:
    """``--decision-alpha``: a number in (0, 0.5)."""
    return open_unit(text, below=0.5)


def _add_gate_conditions(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("conditions")
    add_costs(g)
    g.add_argument("--benefit-tp", type=non_negative, default=0.0, metavar="B",
                   help="benefit of a true positive (default 0)")
    g.add_argument("--benefit-tn", type=non_negative, default=0.0, metavar="B",
                   help="benefit of a true negative (default 0)")
    add_prior(g)
    g.add_argument("--level", type=open_unit, default=0.95, metavar="L",
                   help="confidence level of intervals (default 0.95)")


def _model_parser(sub, name: str, help: str, model_help: str) -> argparse.ArgumentParser:
    """The command ``name``: the files, how to read them, and ``--model M``."""
    p = sub.add_parser(name, help=help)
    add_reading(p, model_flag="--model-col")
    p.add_argument("--model", metavar="M", default=None, help=model_help)
    return p


def add_decide(sub) -> None:
    p = _model_parser(sub, "decide", "write a decision record (JSON): model, threshold, "
                                     "conditions, metrics, data fingerprint",
                      "the model decided on (default: the optimum over all models)")
    p.add_argument("--threshold", type=finite, default=None, metavar="T",
                   help="flag iff score >= T (default: the model's optimum under the "
                        "conditions)")
    p.add_argument("--note", default=None, metavar="TEXT", help="a note kept in the record")
    p.add_argument("--response-method", default="auto",
                   choices=["auto", "predict_proba", "decision_function"],
                   help="what the scores are, for scikit-learn (auto, the default: "
                        "predict_proba when every score of the model lies in [0, 1], else "
                        "decision_function; predict_proba is refused for scores beyond "
                        "[0, 1])")
    add_bootstrap(p, "bootstrap replicates of the intervals, 0 to 2000 (default 200; 0: none)")
    p.add_argument("-o", "--output", metavar="PATH", default=None,
                   help="write the record here instead of standard output")
    _add_gate_conditions(p)
    add_decide_constraints(p)
    p.set_defaults(func=_decide)


def add_check(sub) -> None:
    p = _model_parser(sub, "check", "CI gate: exit 0 when every criterion passes, 1 when "
                                    "one fails, 2 on bad input",
                      "the model checked (default: the decision's, or the only one)")
    g = p.add_argument_group("criteria")
    g.add_argument("--min-auc", type=open_unit, default=None, metavar="X",
                   help="fail when the model's AUC is below X")
    g.add_argument("--max-expected-cost", type=finite, default=None, metavar="X",
                   help="fail when the expected cost per case at the model's optimum "
                        "(under the conditions) is above X")
    g.add_argument("--not-worse-than", metavar="BASELINE", default=None,
                   help="fail unless DeLong's one-sided test shows AUC(model) > "
                        "AUC(BASELINE) - margin (same rows); needs --margin")
    g.add_argument("--margin", type=non_negative, default=None, metavar="M",
                   help="with --not-worse-than, required: the loss of AUC accepted "
                        "(non-inferiority margin, e.g. 0.01); 0 makes it a superiority "
                        "test (the model must be shown better: an equal one fails)")
    g.add_argument("--alpha", type=open_unit, default=None, metavar="A",
                   help="with --not-worse-than: one-sided significance level "
                        "(default 0.05)")
    g.add_argument("--decision", metavar="decision.json", default=None,
                   help="re-check a decision record on these files: its threshold, costs "
                        "and prior; fail when the expected cost is worse than the record's "
                        "beyond chance (a one-sided test of both samples, corrected for "
                        "the choice of the threshold on the record's data; 5%% false "
                        "alarms under no change)")
    g.add_argument("--decision-alpha", type=_alarm_rate, default=None, metavar="A",
                   help="with --decision: the false-alarm rate of that test under no "
                        "change, in (0, 0.5) (default 0.05)")
    g.add_argument("--cost-tolerance", type=non_negative, default=None, metavar="X",
                   help="with --decision: fail instead when the expected cost exceeds the "
                        "record's by more than X (a fixed tolerance: no false-alarm rate "
                        "is claimed)")
    p.add_argument("--junit", metavar="PATH", default=None,
                   help="also write the criteria as JUnit XML (one test case each)")
    _add_gate_conditions(p)
    p.set_defaults(func=_check)
