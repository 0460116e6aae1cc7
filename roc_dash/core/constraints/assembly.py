"""Everything of the constraints the report, the CLI and the page show, per model of an
analysis: assembly only (every number comes from the module named after it).

:class:`ConstraintSettings` is what a user states (a capacity, floors, how sure, the bands
wanted); :func:`analyse_constraints` turns an
:class:`~roc_dash.core.assembly.analysis.Analysis` and the canonical table it was made from
into one :class:`ModelConstraints` per model. The stratified bootstrap replicates do not
depend on the settings, the costs or the prior: :func:`model_replicates` makes them once per
model and the caller may keep them (``replicates=``) so that a change of floors, costs or
prior only chooses again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..decisions.economics import Economics
from ..table_groups import groups_of
from . import _checks
from .calibration_intervals import CalibrationUncertainty, calibration_uncertainty
from .capacity import (
    CapacityPoint,
    GainsCurve,
    KsStatistic,
    capacity_point,
    gains_curve,
    ks_statistic,
)
from .floor_confidence import (
    FloorConfidence,
    ThresholdReplicates,
    floor_confidence,
    resample_thresholds,
)
from .floors import Floor, FloorDecision, floor_decision, parse_floor
from .pr_bands import PrBand, pr_bootstrap_band, pr_fold_band

__all__ = ["ConstraintSettings", "ModelConstraints", "analyse_constraints",
           "model_replicates", "economics_of", "model_rows", "decision_views"]


@dataclass(frozen=True)
class ConstraintSettings:
    """What a team states about its decision beyond costs and a prior.

    Attributes
    ----------
    capacity : float, optional
        K cases that can be reviewed per :attr:`volume` cases.
    capacity_fraction : float, optional
        Or K as a share of the cases (e.g. 30 per 1,000 = 0.03).
    volume : float, optional
        Cases per period (default: the data's cases).
    floors : tuple of str or Floor
        E.g. ``("precision>=0.9",)``.
    confidence : float, optional
        Choose the floors' threshold on conservative bounds at this level.
    n_boot, seed : int
        Bootstrap replicates (0: no floor confidence and no bootstrap PR band) and seed.
    level : float, optional
        Interval level (default: the analysis').
    calibration_bins : int
    band_method : str
        ``"wilson"`` or ``"clopper-pearson"`` (reliability bands).
    pr_bands : bool
        Compute the PR bands (folds with two or more folds; bootstrap with replicates).
    """

    capacity: float | None = None
    capacity_fraction: float | None = None
    volume: float | None = None
    floors: tuple = ()
    confidence: float | None = None
    n_boot: int = 200
    seed: int = 0
    level: float | None = None
    calibration_bins: int = 10
    band_method: str = "wilson"
    pr_bands: bool = False

    @property
    def has_capacity(self) -> bool:
        return self.capacity is not None or self.capacity_fraction is not None

    def parsed_floors(self) -> tuple[Floor, ...]:
        return tuple(f if isinstance(f, Floor) else parse_floor(f) for f in self.floors)


@dataclass(frozen=True, eq=False)
class ModelConstraints:
    """One model's constraints views (None where not asked for or not computable)."""

    name: str
    gains: GainsCurve
    ks: KsStatistic
    calibration: CalibrationUncertainty
    capacity: CapacityPoint | None = None
    floors: FloorDecision | None = None
    floor_confidence: FloorConfidence | None = None
    pr_fold_band: PrBand | None = None
    pr_bootstrap_band: PrBand | None = None
    notes: tuple[str, ...] = field(default=())


def economics_of(conditions) -> Economics:
    """The costs and benefits of an analysis' conditions (which hold net costs)."""
    return Economics(cost_fp=conditions.cost_fp - conditions.benefit_tn,
                     cost_fn=conditions.cost_fn - conditions.benefit_tp,
                     benefit_tp=conditions.benefit_tp, benefit_tn=conditions.benefit_tn)


def model_rows(table: pd.DataFrame, name: str):
    """``(labels, scores, weights)`` of one model's rows (weights None when all are 1)."""
    rows = groups_of(table, "model").get(name)
    if rows is None or rows.empty:
        raise ValueError(f"model {name!r} has no rows in the table")
    w = rows["weight"].to_numpy(dtype=np.float64)
    return (rows["label"].to_numpy(dtype=bool), rows["score"].to_numpy(dtype=np.float64),
            None if bool((w == 1.0).all()) else w)


def model_replicates(table: pd.DataFrame, name: str, *, n_boot: int = 200,
                     seed: int = 0) -> ThresholdReplicates:
    """:func:`~.floor_confidence.resample_thresholds` of one model's rows."""
    y, s, w = model_rows(table, name)
    return resample_thresholds(y, s, weights=w, n_boot=n_boot, seed=seed)


def decision_views(m, *, prior_pos: float, economics: Economics, capacity=None,
                   n_total=None, floors: tuple[Floor, ...] = (), confidence=None):
    """``(gains, ks, capacity point, floor decision)`` of one model's analysis ``m`` at
    ``prior_pos``: the point under ``capacity`` (``(cases, fraction)``; cases out of
    ``n_total``) when given, the decision under ``floors`` (on exact bounds at
    ``confidence`` when given) when any; else ``None``."""
    curve = m.curve
    cap = fd = None
    if capacity is not None:
        cap = capacity_point(curve, capacity=capacity[0], fraction=capacity[1],
                             n_total=n_total, prior_pos=prior_pos, economics=economics,
                             hull=m.hull)
    if floors:
        fd = floor_decision(curve, floors, prior_pos=prior_pos, economics=economics,
                            confidence=confidence, hull=m.hull)
    return gains_curve(curve, prior_pos=prior_pos), ks_statistic(curve), cap, fd


def _one(m, table, settings: ConstraintSettings, p: float, e: Economics, level: float,
         replicates: Mapping[str, ThresholdReplicates] | None) -> ModelConstraints:
    curve, notes = m.curve, []
    floors = settings.parsed_floors()
    gains, ks, cap, fd = decision_views(
        m, prior_pos=p, economics=e, n_total=settings.volume, floors=floors,
        confidence=settings.confidence,
        capacity=((settings.capacity, settings.capacity_fraction) if settings.has_capacity
                  else None))
    fc = None
    reps = (replicates or {}).get(m.name)
    boot = settings.n_boot > 0 and "label" in table and "score" in table
    if boot and reps is None and (floors or settings.pr_bands):
        reps = model_replicates(table, m.name, n_boot=settings.n_boot, seed=settings.seed)
    if floors:
        if boot and fd.index is not None:
            y, s, w = model_rows(table, m.name)
            fc = floor_confidence(y, s, floors, fd.threshold, prior_pos=p, economics=e,
                                  weights=w, n_boot=settings.n_boot, seed=settings.seed,
                                  level=level, replicates=reps,
                                  confidence=settings.confidence)
    fold_band = boot_band = None
    if settings.pr_bands:
        if len(m.folds) >= 2:
            fold_band = pr_fold_band(m.folds, prevalence=p, pooled=curve, level=level)
        if reps is not None:
            boot_band = pr_bootstrap_band(reps, curve, prevalence=p, level=level)
    cal = calibration_uncertainty(curve, n_bins=settings.calibration_bins, level=level,
                                  band=settings.band_method)
    return ModelConstraints(name=m.name, gains=gains, ks=ks, calibration=cal, capacity=cap,
                            floors=fd,
                            floor_confidence=fc, pr_fold_band=fold_band,
                            pr_bootstrap_band=boot_band, notes=tuple(notes))


def analyse_constraints(analysis, table: pd.DataFrame, settings: ConstraintSettings, *,
                        economics: Economics | None = None,
                        replicates: Mapping[str, ThresholdReplicates] | None = None,
                        settings_of=None) -> list[ModelConstraints]:
    """The constraints views of every model of ``analysis`` (made from ``table``) at its
    prior and level, under ``economics`` (default: the analysis' conditions).

    Gains, lift, CAP and KS are at the prior; the capacity, floors and their confidence,
    calibration with its uncertainty and the PR bands as :class:`ConstraintSettings` asks.
    ``replicates`` maps a model to :func:`model_replicates` made earlier (same ``n_boot``
    and ``seed``); missing ones are made here when the floors or the bootstrap band need
    them. Input without rows (aggregated counts) still resamples: each row then stands for
    its weight. ``settings_of(model)``: a model's own settings (e.g. a capacity in cases as
    a share of that model's cases), default ``settings`` for every model."""
    c = analysis.conditions
    p = _checks.prior(c.prior_pos)
    level = c.level if settings.level is None else _checks.level(settings.level)
    e = economics or economics_of(c)
    return [_one(m, table, settings if settings_of is None else settings_of(m), p, e, level,
                 replicates) for m in analysis.models]
