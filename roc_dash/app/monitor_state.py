"""The Monitor tab's part of the page's state (:class:`MonitorState`): its fields, how a link
writes them (``mref``, ``mwin``, ``mtime``, ``mevery``, ``mnolab``, ``mest``, ``mrec``,
``mpin``) and how they are read back, from the tab's components or a link.
:mod:`.page_state` holds it as :attr:`PageState.monitor` and re-exports these names."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

from ..io.size_limits import limits
from .server.limits import excerpt
from .server.store import clean_ids

__all__ = ["MONITOR_PERIODS", "MONITOR_ESTIMATORS", "MonitorState", "monitor_pins",
           "monitor_query", "monitor_from_raw", "link_monitor", "monitor_refusals"]


#: The periods a Monitor tab's time column may be cut into (:func:`roc_dash.io.windows`).
MONITOR_PERIODS = ("day", "week", "month", "quarter", "year")
#: The prevalence estimates that may re-derive an unlabelled window's choice.
MONITOR_ESTIMATORS = ("em", "pacc", "acc")


@dataclass(frozen=True)
class MonitorState:
    """The Monitor tab: the decision checked (``"optimum"``: the page's recommendation, a
    pin's letter, ``"upload"``: a record uploaded in the tab), the datasets that are
    windows (ids), the column cutting their rows into windows and its period, whether
    their labels are set aside (as after deployment: each window's prior estimated) and
    the estimate that re-derives the choice."""

    reference: str = "optimum"
    windows: tuple[str, ...] = ()
    time: str | None = None
    every: str | None = None
    hide_labels: bool = False
    estimator: str = "em"
    record: str | None = None  # the id of the uploaded record kept on the server
    pins: tuple[tuple[str, float], ...] = ()  # (window name, threshold) pinned per window


def monitor_query(m: MonitorState) -> list[tuple[str, str]]:
    q = []
    if m.reference != "optimum":
        q.append(("mref", m.reference))
    if m.windows:
        q.append(("mwin", ",".join(m.windows)))
    if m.time:
        q.append(("mtime", m.time))
        if m.every:
            q.append(("mevery", m.every))
    if m.hide_labels:
        q.append(("mnolab", "1"))
    if m.estimator != "em":
        q.append(("mest", m.estimator))
    if m.record and m.reference == "upload":
        q.append(("mrec", m.record))
    if m.pins:
        q.append(("mpin", json.dumps([list(p) for p in m.pins], separators=(",", ":"))))
    return q


def _monitor_reference(v) -> str | None:
    if v in ("optimum", "upload"):
        return v
    return v if isinstance(v, str) and len(v) == 1 and v.isalpha() and v.isupper() else None


def monitor_pins(raw) -> tuple[tuple[str, float], ...]:
    """The ``ids.MON_PINS`` store (``[[window, threshold], ...]``, or a link's JSON of it) as
    :attr:`MonitorState.pins`: finite thresholds, one per window (the last), 50 at most."""
    try:
        raw = json.loads(raw) if isinstance(raw, str) and len(raw) < 8192 else raw
    except ValueError:
        return ()
    out: dict[str, float] = {}
    for item in raw if isinstance(raw, list | tuple) else ():
        name, t = item if isinstance(item, list | tuple) and len(item) == 2 else (None, None)
        if isinstance(name, str) and 0 < len(name) <= 200 and isinstance(t, int | float) \
                and not isinstance(t, bool) and math.isfinite(t):
            out.pop(name, None)
            out[name] = float(t)
    return tuple(out.items())[-50:]


def monitor_from_raw(raw) -> MonitorState:
    reference, windows, time, every, labels, estimator, record, pins = \
        (tuple(raw) + (None,) * 8)[:8]
    # a column name is at most ROC_DASH_MAX_NAME_CHARS long (a file with a longer one is
    # refused): a longer one names no column, and is never echoed back (bnd009)
    time = time if isinstance(time, str) and 0 < len(time) <= limits().name_chars else None
    record = next(iter(clean_ids([record])), None) if isinstance(record, str) else None
    return MonitorState(
        reference=_monitor_reference(reference) or "optimum",
        windows=tuple(clean_ids(windows)) if isinstance(windows, list | tuple) else (),
        time=time, every=every if time and every in MONITOR_PERIODS else None,
        hide_labels=isinstance(labels, list | tuple) and "hide" in labels,
        estimator=estimator if estimator in MONITOR_ESTIMATORS else "em", record=record,
        pins=monitor_pins(pins))


def link_monitor(search) -> MonitorState | None:
    """The Monitor tab's settings a link names (``mref``, ``mwin``, ``mtime``, ``mevery``,
    ``mnolab``, ``mest``, ``mrec``: the uploaded record's id), None when it names none."""
    from urllib.parse import parse_qs

    if not isinstance(search, str) or len(search) > 16384:
        return None
    q = {k: v[-1] for k, v in parse_qs(search.lstrip("?")).items()
         if k in ("mref", "mwin", "mtime", "mevery", "mnolab", "mest", "mrec", "mpin")}
    if not q:
        return None
    return monitor_from_raw((q.get("mref"), (q.get("mwin") or "").split(","), q.get("mtime"),
                     q.get("mevery"), ["hide"] if q.get("mnolab") == "1" else [],
                     q.get("mest"), q.get("mrec"), q.get("mpin")))


def monitor_refusals(search) -> list[str]:
    """What :func:`link_monitor` does not take of a link's Monitor settings, one short phrase
    each (the value, why, what is used instead). Whether the time column ``mtime`` is one of
    the windows' columns is known only once they are loaded (:mod:`.link_report`)."""
    from urllib.parse import parse_qs

    if not isinstance(search, str) or len(search) > 16384:
        return []
    q = {k: v[-1] for k, v in parse_qs(search.lstrip("?")).items()}
    out = []
    if "mref" in q and _monitor_reference(q["mref"]) is None:
        out.append(f"mref {excerpt(q['mref'])} is not a decision to check (optimum, upload or "
                   "a pin's letter; kept optimum)")
    if "mtime" in q and not 0 < len(q["mtime"]) <= limits().name_chars:
        out.append(f"mtime {excerpt(q['mtime'])} is not a column name (kept none)")
    if "mevery" in q and q["mevery"] not in MONITOR_PERIODS:
        kept = "each value as a window" if q.get("mtime") else "none"
        out.append(f"mevery {excerpt(q['mevery'])} is not one of "
                   f"{', '.join(MONITOR_PERIODS)} (kept {kept})")
    if "mest" in q and q["mest"] not in MONITOR_ESTIMATORS:
        out.append(f"mest {excerpt(q['mest'])} is not one of {', '.join(MONITOR_ESTIMATORS)} "
                   "(kept em)")
    return out
