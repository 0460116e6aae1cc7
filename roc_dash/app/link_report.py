"""What a link or a saved view names that cannot be restored, said exactly.

A link names its datasets, models, pins, the Slices card's model and the prior's source by
dataset id (:mod:`.page_state`); when one of its datasets is no longer on the server, what
belongs to it cannot come back, and everything else can. :func:`unrestored` lists the former
(the missing-data banner says it, above the views), so a meeting knows which pins, notes and
settings of the link are gone and that the rest is as it was. :func:`link_refused` lists the
link's values the page did not take (a prior that is not a number, a tab that is not one, a
class or time column the data lack) and what it used instead, in the same banner.
"""

from __future__ import annotations

from .analysis import legacy_names
from .page_state import Pin, link_refusals, parse_link, resolve_refs
from .server.limits import excerpt
from .server.store import DatasetInfo, DatasetStore

__all__ = ["unrestored", "gone_label", "link_refused", "link_words"]


def gone_label(store: DatasetStore, dataset_id: str) -> str:
    """How a dataset no longer stored is named: its files, as the server remembers them."""
    note = store.gone(dataset_id) or {}
    return str(note.get("label") or f"the dataset {dataset_id[:8]}…")


def _pin_text(p: Pin, where: str) -> str:
    t = "+inf" if p.threshold is None else format(p.threshold, ".6g")
    return f"pin {p.label} ({p.model.name}{where} at score ≥ {t})"


def unrestored(store: DatasetStore, search) -> list[str]:
    """What the link ``search`` names that cannot be restored, one phrase each: the pins,
    shown models and the Slices card's model of its datasets that are gone (or of models a
    link of an older version names and no dataset of it has), the prior's source when it is
    gone, and the note and saved views deleted with a dataset. Empty when everything can."""
    link, given = parse_link(search)
    if "datasets" not in given:
        return []
    present = set(store.present(link.datasets))
    gone = [d for d in link.datasets if d not in present]
    legacy = legacy_names(store, link.datasets)
    labels = {d: gone_label(store, d) for d in gone}

    def lost(refs):
        found, unknown = resolve_refs(refs, legacy)
        return [x for x in found if (x.model if isinstance(x, Pin) else x).dataset in gone], \
            unknown

    out = []
    pins, unknown = lost(link.pins)
    out += [_pin_text(p, f" of {labels[p.model.dataset]}") for p in pins]
    out += [_pin_text(p, "") + ": its model is in none of the link's datasets still on the "
            "server" for p in unknown]
    if "models" in given:
        models, unknown = lost(link.models)
        names = [f"{m.name} ({labels[m.dataset]})" for m in models] + [m.name for m in unknown]
        if names:
            out.append(("the models " if len(names) > 1 else "the model ")
                       + ", ".join(names) + " among those shown")
    if "slices" in given and link.slices.model is not None:
        models, unknown = lost([link.slices.model])
        cut = " × ".join(c for c in (link.slices.columns or ()) if c)
        cut = f" (sliced by {cut})" if cut else ""  # slc=, slx=: the card's columns
        if models:
            out.append(f"the Slices card's model {models[0].name} of "
                       f"{labels[models[0].dataset]}{cut}")
        elif unknown:
            out.append(f"the Slices card's model {unknown[0].name}{cut}")
    if "prior_source" in given and link.prior_source in gone:
        out.append(f"the prevalence of {labels[link.prior_source]} as the deployment prior "
                   "(the last dataset's is used)")
    for d in gone:
        note = store.gone(d) or {}
        kept = (["its note"] if note.get("note") else []) + (
            [f"{note['views']} saved view(s)"] if note.get("views") else [])
        if kept:
            out.append(f"{' and '.join(kept)} of {labels[d]} (deleted with it)")
    return out


def link_refused(search, infos: list[DatasetInfo] | None = None,
                 columns: list[str] | None = None) -> list[str]:
    """The link's values the page does not use, one short phrase each with what it uses
    instead (:func:`.page_state.link_refusals`), and, once the datasets are loaded
    (``infos``), a ``class`` that none of them has and a Monitor time column ``mtime`` that
    is not among ``columns`` (the columns its windows may be cut by; None: not known yet)."""
    out = link_refusals(search)
    link, given = parse_link(search)
    wanted = link.control.reference_class if "conditions" in given else None
    if wanted and infos:
        classes = [c for i in infos if i.kind == "multiclass" for c in i.classes]
        kept = next((i.reference_class for i in infos if i.kind == "multiclass"), None)
        if not classes:
            out.append(f"class {excerpt(wanted)} is not used: no multi-class data is loaded")
        elif wanted not in classes:
            out.append(f"class {excerpt(wanted)} is not a class of the data (kept {kept})")
    time = link.monitor.time if "monitor" in given else None
    if time and columns is not None and time not in columns:
        cols = ", ".join(columns) if columns else "none"
        out.append(f"mtime {excerpt(time)} is not a column of the windows (their columns: "
                   f"{excerpt(cols, 80, quote=False)}; not used)")
    return out


def link_words(search, infos: list[DatasetInfo], gone, columns_of) -> list[str]:
    """:func:`link_refused` as the missing-data banner says it: while the page shows the
    link's datasets (``infos`` loaded, ``gone`` no longer stored; once they are loaded, and
    not again after an upload or a removal), with the columns its Monitor windows may be
    cut by (``columns_of(dataset ids)``; not known for window files)."""
    link, _ = parse_link(search)
    loaded = [i.id for i in infos]
    if not loaded or set(loaded) | set(gone) != set(link.datasets):
        return []
    windows = list(link.monitor.windows) or loaded
    columns = columns_of(windows) if set(windows) <= set(loaded) else None
    return link_refused(search, infos, columns)
