"""The threshold a decision record ships under a capacity or floors: the least expected cost
meeting them all, over the models, with how sure the floors are to hold. One procedure for
``roc-dash decide --capacity/--floor`` and the page's *Download decision* (its Decide tab's
capacity and floors), so the two write the same record."""

from __future__ import annotations

import dataclasses
import math

from ..core.constraints.assembly import ConstraintSettings, analyse_constraints, economics_of
from ..core.constraints.floors import LABELS, Floor, floor_decision
from ..text.capacity_words import less_than_one_case, more_cases_than
from ..text.rounding import limit_percent, percent, sig
from .constraints import model_constraints_dict

__all__ = ["Constrained", "capacity_share", "best_model", "choose_point", "choose_under"]


@dataclasses.dataclass(frozen=True)
class Constrained:
    """The threshold chosen under a capacity or floors, and what to add to its record."""

    pinned: dict
    how_chosen: str
    constraints: dict
    notes: tuple[str, ...]

    def apply(self, record):
        """``record`` (built at :attr:`pinned`) as chosen under the constraints."""
        return dataclasses.replace(record, how_chosen=self.how_chosen,
                                   notes=tuple(record.notes) + self.notes,
                                   constraints=self.constraints)


def capacity_share(analysis, settings: ConstraintSettings, option: str | None = None,
                   model=None) -> float:
    """The capacity as a share of the cases: K over the volume, or over the cases of
    ``model`` (default the first model; each dataset's models have their own number of
    cases, so K cases are another share of each). A capacity below one case (0.5, a share
    written as a count) is refused in the page's words
    (:func:`~roc_dash.text.capacity_words.less_than_one_case`; ``option``: how the reader
    typed it, ``"--capacity"``)."""
    if settings.capacity_fraction is not None:
        return settings.capacity_fraction
    n = settings.volume
    if n is None:
        m = analysis.models[0] if model is None else model
        n = m.n_pos + m.n_neg
    if 0 < settings.capacity < 1 < n:
        raise ValueError(less_than_one_case(settings.capacity, n, option))
    return min(settings.capacity / n, 1.0)


def best_model(analysis, table, settings: ConstraintSettings, economics, settings_of=None):
    """Per model its constraints (``settings_of(model)``: a model's own settings, default
    ``settings``); the one whose single threshold costs least (ValueError when no threshold
    of any model meets them)."""
    models = analyse_constraints(analysis, table, settings, economics=economics,
                                 settings_of=settings_of)

    def cost(m):
        return m.floors.expected_cost if m.floors.index is not None else math.inf

    best = min(models, key=cost)
    if not math.isfinite(cost(best)):
        raise ValueError(_unmet([(m.name, m.floors) for m in models], settings.confidence))
    return best


def _shortfall(d) -> float:
    """How far a model's best figures (:attr:`FloorDecision.closest`: each floor's metric at
    its best with the other floors met) fall short of the floors, summed (inf when a floor
    cannot be reached with the others met; 0 when the hull meets them all)."""
    if d.feasible:
        return 0.0
    total = 0.0
    for fl in d.floors:
        v = d.closest.get(fl.text, math.nan)
        if not math.isfinite(v):
            return math.inf
        total += max(0.0, fl.value - v) if fl.bound == ">=" else max(0.0, v - fl.value)
    return total


def _reaches(d) -> str:
    """What one model reaches: per floor its best figure with the other floors met; or,
    when its hull meets them, why no single threshold does."""
    if d.feasible:
        mix = next((n for n in d.notes if n.startswith("Only a random mix")), "")
        return (mix[:1].lower() + mix[1:]).rstrip(".") if mix else "no single threshold"
    parts = []
    for fl in d.floors:
        v = d.closest.get(fl.text, math.nan)
        others = "" if len(d.floors) == 1 else " with the other floors met"
        parts.append(f"{floor_words(fl)}: no threshold meets the others" if math.isnan(v)
                     else f"{floor_words(fl)}: reaches {_figure(fl, v)}{others}")
    return "; ".join(parts)


def _figures(d) -> str:
    """A model's best figures, short (``"precision 0.719409, recall 0.345882"``), or why no
    single threshold meets the floors when its hull does."""
    if d.feasible:
        return f"({_reaches(d)})"
    return ", ".join(f"{LABELS[fl.metric]} none" if math.isnan(v := d.closest.get(
        fl.text, math.nan)) else _figure(fl, v) for fl in d.floors)


def _figure(fl: Floor, v: float) -> str:
    """``"precision 0.890625"`` (``"share flagged 18.75%"`` for a capacity)."""
    if fl.metric == "flagged":
        return f"share flagged {percent(v)}"
    return f"{LABELS[fl.metric]} {v:.6g}"


def _unmet(decisions, confidence: float | None = None) -> str:
    """Why no threshold meets the constraints: ``decisions`` ``(name, FloorDecision)`` of
    each model shown; the model closest to the floors (:func:`_shortfall`) first, each
    named with its best figures. With ``confidence`` the figures are the estimates on the
    data, and the message says so (the conservative bounds are lower still)."""
    ranked = sorted(decisions, key=lambda nd: _shortfall(nd[1]))
    if len(ranked) == 1:
        name, d = ranked[0]
        text = f"model {name} does not ({_reaches(d)})"
    else:
        name, d = ranked[0]
        text = (f"none of the {len(ranked)} models shown does. Closest: {name} "
                f"({_reaches(d)}); the others reach, each figure with the other floors met: "
                + "; ".join(f"{n} {_figures(x)}" for n, x in ranked[1:]))
    text += (". Relax a floor or improve the model (precision and NPV also depend on the "
             "prior)")
    if confidence is not None:
        text += (f". These figures are the estimates on the data; at the conservative "
                 f"bounds that {confidence:.0%} confidence asks for, the floors are harder "
                 "still to meet")
    return "no threshold meets the constraints: " + text


def _as_floors(analysis, settings: ConstraintSettings, option: str | None):
    """``(how_chosen, settings_of)``: each model's settings, with the capacity as one more
    floor (a share flagged at most: of that model's cases when it is given in cases)."""
    how = "capacity" if settings.has_capacity and not settings.floors else "floors"
    if not settings.has_capacity:
        return how, lambda m: settings
    if settings.capacity_fraction is None:  # in cases: not more than there are (the page's)
        too_big = more_cases_than(settings.capacity, analysis.models, settings.volume)
        if too_big:
            raise ValueError(too_big)
    base = settings.parsed_floors()
    shares = {m.name: capacity_share(analysis, settings, option, m) for m in analysis.models}
    return how, lambda m: dataclasses.replace(settings, floors=base + (
        Floor("flagged", "<=", shares[m.name]),))


def floor_words(f: Floor) -> str:
    """A floor in a sentence: the capacity's "share flagged ≤ 95%" in the strip's percent
    style (the share it flags is said in percent too); the others as typed (``Floor.text``)."""
    if f.metric == "flagged" and f.bound == "<=":
        return f"share flagged ≤ {limit_percent(f.value)}"  # a limit, never rounded up
    return f.text


def _chosen_note(name: str, d) -> str:
    one = len(d.floors) == 1
    return (f"Chosen under {', '.join(floor_words(f) for f in d.floors)}: the least expected cost "
            f"meeting {'it' if one else 'them'} (model {name}; without "
            f"{'it' if one else 'them'} the optimum costs {sig(d.optimum_cost)} per case, "
            f"the {'constraint' if one else 'constraints'} {sig(d.cost_of_floors)} more).")


def choose_point(analysis, settings: ConstraintSettings, economics, *,
                 option: str | None = None) -> Constrained:
    """The threshold :func:`choose_under` chooses (the same floor decisions, the same
    least cost over the models), without the other views, the bootstrap and the record's
    constraints entry: the page's summary strip, per change. ``ValueError`` as
    :func:`best_model`."""
    how, settings_of = _as_floors(analysis, settings, option)
    c = analysis.conditions
    e = economics if economics is not None else economics_of(c)
    best, decisions = None, []
    for m in analysis.models:
        d = floor_decision(m.curve, settings_of(m).parsed_floors(), prior_pos=c.prior_pos,
                           economics=e, confidence=settings.confidence, hull=m.hull)
        decisions.append((m.name, d))
        cost = d.expected_cost if d.index is not None else math.inf
        if best is None or cost < best[0]:
            best = (cost, m.name, d)
    cost, name, d = best
    if not math.isfinite(cost):
        raise ValueError(_unmet(decisions, settings.confidence))
    return Constrained(pinned={"model": name, "threshold": d.threshold}, how_chosen=how,
                       constraints={}, notes=(_chosen_note(name, d),))


def choose_under(analysis, table, settings: ConstraintSettings, economics, *,
                 option: str | None = None) -> Constrained:
    """The least expected cost meeting the capacity (one more floor: a share flagged at
    most) and the floors of ``settings``, over the models of ``analysis``, with how sure the
    floors are (``settings.n_boot`` replicates, ``settings.seed``)."""
    how, settings_of = _as_floors(analysis, settings, option)
    m = best_model(analysis, table, settings, economics, settings_of=settings_of)
    d = m.floors
    notes = [_chosen_note(m.name, d)]
    fc = m.floor_confidence
    if fc is not None:
        for h in fc.holds:
            estimate = (f"{sig(100 * h.estimate)}%" if h.floor.metric == "flagged" else
                        sig(h.estimate))  # a share in percent, as its floor
            notes.append(f"{floor_words(h.floor)}: {estimate} at this threshold; holds in "
                         f"{100 * h.holds_share:.0f}% of {fc.n_boot} bootstrap replicates, "
                         f"and the choice made again holds in {100 * h.procedure_share:.0f}%.")
    entry = model_constraints_dict(m)
    entry.pop("gains")
    return Constrained(pinned={"model": m.name, "threshold": d.threshold}, how_chosen=how,
                       constraints=entry, notes=tuple(notes))
