"""Monitor windows of predictions against a reference: one call, one result per window.

For each window (:class:`~.windows.WindowCounts`) against a :class:`~.reference.Reference`:

* the share flagged by the deployed threshold (Clopper–Pearson interval);
* its prior: counted from its labels, and estimated from its scores by EM, PACC and ACC
  (:mod:`.quantification`);
* with labels, the threshold's metrics, the drift test and the window's own optimum
  (:mod:`.labelled`);
* with the reference's predictions, the choice re-derived on the reference's hull at the
  window's prior (:mod:`.rederive`) and the score-distribution comparisons (:mod:`.shift`).

Three criteria per window, each a :class:`Finding` (PASS, WARN or FAIL):

* ``cost-drift`` (labelled windows): the drift test rejects -> FAIL;
* ``choice``: the window's prior lies outside the range where the deployed choice is optimal
  (test of :mod:`.rederive`) and switching saves at least ``min_saving`` of the largest
  cost (:attr:`~.rederive.Rederived.normalized_saving`) -> FAIL (an optimum at the estimate
  that differs without both is only reported: :attr:`~.rederive.Rederived.differs`);
* ``score-shift``: a score distribution moved beyond what the prior explains
  (:mod:`.shift`) -> WARN (FAIL with ``fail_on_shift``).

``alpha`` is the false-alarm rate of a whole run: the chance, under no change at all, that
some window fails. It is split evenly (Bonferroni) over the run's failing tests
(:func:`failing_tests`: a drift test per labelled window, a choice test per window when the
reference's predictions are at hand, and the score tests with ``fail_on_shift``). The score
tests only warn by default; they run at ``alpha`` split over the windows (and over a
labelled window's two classes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..decisions.proportion_intervals import clopper_pearson
from .estimates import Estimate
from .labelled import LabelledMetrics, labelled_metrics
from .quantification import (
    ESTIMATORS,
    PrevalenceEstimate,
    ReferenceReplicates,
    counted_prevalence,
    estimate_prevalence,
    reference_replicates,
    window_bins,
)
from .rederive import Rederived, rederive
from .reference import Reference
from .shift import ScoreShift, score_shift
from .windows import WindowCounts

__all__ = ["MonitorSettings", "Finding", "WindowResult", "MonitorResult", "monitor",
           "monitor_window", "failing_tests", "run_replicates", "CRITERIA", "PASS", "WARN", "FAIL"]

PASS, WARN, FAIL = "PASS", "WARN", "FAIL"
#: The criteria, in the order they are reported.
CRITERIA = ("cost-drift", "choice", "score-shift")


@dataclass(frozen=True)
class MonitorSettings:
    """How a run is made.

    Attributes
    ----------
    level : float
        Level of every interval shown (default 0.95).
    alpha : float
        A run's false-alarm rate under no change (default 0.05), split over its failing
        tests (module docstring).
    replicates : int
        Bootstrap replicates (default 200).
    seed : int
    estimator : str
        The prevalence estimate that re-derives the choice of an unlabelled window: ``"em"``
        (default), ``"pacc"`` or ``"acc"``.
    min_saving : float
        The share of the largest cost per case (Drummond & Holte's normalized expected cost)
        that switching to the re-derived choice must save for the choice to fail besides
        its test (default 0.002: with large windows a prior change too small to matter is
        significant).
    psi_min : float
        The PSI a score shift must reach besides its test (default 0.01: what is left
        after the prior adjustment is small; 0.1 and 0.25 are customary for raw scores).
    fail_on_shift : bool
        A score shift fails the run instead of warning.
    """

    level: float = 0.95
    alpha: float = 0.05
    replicates: int = 200
    seed: int = 0
    estimator: str = "em"
    min_saving: float = 0.002
    psi_min: float = 0.01
    fail_on_shift: bool = False

    def __post_init__(self):
        for name in ("level", "alpha"):
            v = getattr(self, name)
            if not 0.0 < float(v) < 1.0:
                raise ValueError(f"{name} must lie strictly between 0 and 1 (got {v!r})")
        if not (isinstance(self.replicates, int | np.integer) and 20 <= self.replicates
                <= 5000):
            raise ValueError(f"replicates must be a whole number from 20 to 5000 "
                             f"(got {self.replicates!r})")
        if self.estimator not in ESTIMATORS:
            raise ValueError(f"estimator must be one of {ESTIMATORS} "
                             f"(got {self.estimator!r})")
        for name in ("psi_min", "min_saving"):
            v = getattr(self, name)
            if not (isinstance(v, int | float) and math.isfinite(v) and v >= 0):
                raise ValueError(f"{name} must be a non-negative number (got {v!r})")


@dataclass(frozen=True)
class Finding:
    """One criterion of one window.

    Attributes
    ----------
    criterion : str
        One of :data:`CRITERIA`.
    status : str
        ``"PASS"``, ``"WARN"`` or ``"FAIL"``.
    p_value : float
        The test's (NaN when there is none).
    alpha : float
        The level it was compared with (the run's alpha split over its tests).
    """

    criterion: str
    status: str
    p_value: float
    alpha: float


@dataclass(frozen=True, eq=False)
class WindowResult:
    """Everything monitored in one window.

    Attributes
    ----------
    name, start, end : str
    rows : int
    n : float
        (Weighted) cases.
    flagged : Estimate
        Share flagged by the deployed threshold (Clopper–Pearson interval).
    prevalence : tuple of PrevalenceEstimate
        ``"labels"`` first when labelled, then EM, PACC, ACC (ACC alone without the
        reference's predictions).
    prior : PrevalenceEstimate or None
        The one the choice is re-derived at (labels, else the settings' estimator).
    labelled : LabelledMetrics or None
    rederived : Rederived or None
        Needs the reference's predictions.
    shifts : tuple of ScoreShift
        Needs the reference's predictions.
    findings : tuple of Finding
    bins : ndarray or None
        The window's cases per bin of the reference's grid (for drawing its scores).
    notes : tuple of str
    """

    name: str
    start: str
    end: str
    rows: int
    n: float
    flagged: Estimate
    prevalence: tuple[PrevalenceEstimate, ...]
    prior: PrevalenceEstimate | None
    labelled: LabelledMetrics | None
    rederived: Rederived | None
    shifts: tuple[ScoreShift, ...]
    findings: tuple[Finding, ...]
    bins: np.ndarray | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def status(self) -> str:
        """``"drift"`` (a criterion failed), ``"warning"`` or ``"held"``."""
        statuses = {f.status for f in self.findings}
        return "drift" if FAIL in statuses else "warning" if WARN in statuses else "held"

    def estimate(self, method: str) -> PrevalenceEstimate | None:
        """The prevalence estimate of ``method`` (``"labels"``, ``"em"``, ...), or None."""
        return next((e for e in self.prevalence if e.method == method), None)


@dataclass(frozen=True, eq=False)
class MonitorResult:
    """A run: the reference, the windows' results in order, the settings."""

    reference: Reference
    windows: tuple[WindowResult, ...]
    settings: MonitorSettings
    notes: tuple[str, ...] = ()

    @property
    def status(self) -> str:
        """``"drift"`` when a window failed a criterion, else ``"held"``."""
        return "drift" if any(w.status == "drift" for w in self.windows) else "held"

    @property
    def alpha_per_test(self) -> float:
        """The level of each failing test (the run's alpha over :func:`failing_tests`)."""
        return self.settings.alpha / max(failing_tests(self.reference, self.windows,
                                                       self.settings), 1)

    @property
    def shift_alpha(self) -> float:
        """The level of a window's score test (the run's alpha over the windows)."""
        return self.settings.alpha / max(len(self.windows), 1)


# ------------------------------------------------------------------------------ per window
def _flagged(reference: Reference, window: WindowCounts, level: float) -> Estimate:
    k = float(window.totals[window.scores >= reference.threshold].sum())
    low, high = clopper_pearson(min(k, window.n), window.n, level)
    return Estimate(k / window.n, low, high)


def _shifts(reference: Reference, window: WindowCounts, bins: np.ndarray,
            positives: np.ndarray | None, prior: PrevalenceEstimate | None,
            s: MonitorSettings, alpha: float) -> tuple[ScoreShift, ...]:
    pos, neg = reference.positives, reference.negatives
    big_p, big_n = float(pos.sum()), float(neg.sum())
    out = [score_shift("as-before", pos + neg, big_p + big_n, bins, alpha=alpha,
                       psi_min=s.psi_min)]
    if prior is not None and math.isfinite(prior.value):
        pi = prior.value
        mixture = pi * pos / big_p + (1 - pi) * neg / big_n
        size = 1.0 / (pi ** 2 / big_p + (1 - pi) ** 2 / big_n)
        out.append(score_shift("prior-adjusted", mixture, size, bins, alpha=alpha,
                               psi_min=s.psi_min))
    if positives is not None:
        for name, ref, counts in (("positives", pos, positives),
                                  ("negatives", neg, bins - positives)):
            if counts.sum() > 0:
                out.append(score_shift(name, ref, float(ref.sum()), counts,
                                       alpha=alpha / 2, psi_min=s.psi_min))
    return tuple(out)


def _findings(labelled, rederived, shifts, window: WindowCounts, s: MonitorSettings,
              alpha: float) -> tuple[Finding, ...]:
    out = []
    if labelled is not None:
        d = labelled.drift
        out.append(Finding("cost-drift", FAIL if d.drifted else PASS, d.p_value, alpha))
    if rederived is not None:
        moved = (rederived.p_value < alpha
                 and rederived.normalized_saving >= s.min_saving)
        out.append(Finding("choice", FAIL if moved else PASS, rederived.p_value, alpha))
    judged = [x for x in shifts if x.comparison in (
        ("positives", "negatives") if window.labelled else ("prior-adjusted",))]
    if judged:
        shifted = any(x.shifted for x in judged)
        out.append(Finding("score-shift", (FAIL if s.fail_on_shift else WARN) if shifted
                           else PASS, min(x.p_value for x in judged), judged[0].alpha))
    return tuple(out)


def _notes(estimates, reference: Reference) -> tuple[str, ...]:
    notes = []
    for e in estimates:
        name = e.method.upper()
        if e.method != "labels" and not math.isfinite(e.value):
            notes.append(f"{name} is undefined: the reference's rates are equal (TPR = "
                         "FPR) at the threshold.")
        elif e.method in ("acc", "pacc") and e.raw != e.value:
            notes.append(f"{name} gave {e.raw:.4g}, outside [0, 1]: clipped (the window's "
                         "scores do not fit the reference's classes at any prior).")
        if not e.converged:
            notes.append(f"EM did not settle in {e.iterations} iterations; its fixed point "
                         "was found by Newton's method.")
    if not reference.has_scores:
        notes.append("Only ACC is estimated and the choice is not re-derived: EM, PACC, "
                     "the hull and the score comparisons need the reference's predictions.")
    return tuple(notes)


def run_replicates(reference: Reference, settings: MonitorSettings) -> ReferenceReplicates:
    """The reference's bootstrap replicates of a run (computed once, shared by its windows;
    seeded by the settings, so one window monitored alone gets the run's numbers)."""
    return reference_replicates(reference, settings.replicates,
                                np.random.default_rng([settings.seed, 0]))


def failing_tests(reference: Reference, windows, settings: MonitorSettings) -> int:
    """The tests of a run that can fail it: a drift test per labelled window, a choice test
    per window (with the reference's predictions), a score test per window with
    ``fail_on_shift``. ``windows``: :class:`~.windows.WindowCounts` or
    :class:`WindowResult`."""
    def labelled(w) -> bool:  # WindowCounts says True/False, WindowResult holds its metrics
        return w.labelled if isinstance(w.labelled, bool) else w.labelled is not None

    items = list(windows)
    per_window = int(reference.has_scores) * (1 + int(settings.fail_on_shift))
    return sum(labelled(w) for w in items) + per_window * len(items)


def monitor_window(reference: Reference, window: WindowCounts,
                   replicates: ReferenceReplicates, settings: MonitorSettings, *,
                   index: int = 0, alpha: float | None = None,
                   shift_alpha: float | None = None) -> WindowResult:
    """One window of a run: its place ``index`` seeds its bootstrap (so a window's numbers
    do not depend on the other windows); ``alpha`` is the level of its failing tests and
    ``shift_alpha`` of its score tests (default: the settings' alpha, a run of one test;
    :func:`monitor` splits it, see the module docstring)."""
    s = settings
    alpha = s.alpha if alpha is None else float(alpha)
    shift_alpha = s.alpha if shift_alpha is None else float(shift_alpha)
    rng = np.random.default_rng([s.seed, index + 1])
    bins = positives = None
    if reference.has_scores:  # the window on the reference's grid, counted once
        bins = window_bins(reference, window)
        if window.labelled:
            bins, positives = bins
    estimates = estimate_prevalence(reference, window, replicates, level=s.level, rng=rng,
                                    bins=bins)
    labelled = prior = None
    if window.labelled:
        counted = counted_prevalence(window, s.level)
        estimates = (counted, *estimates)
        labelled = labelled_metrics(reference, window, level=s.level, alpha=alpha,
                                    replicates=s.replicates, rng=rng)
        prior = counted
    else:
        prior = next((e for e in estimates if e.method == s.estimator), estimates[-1])
    rederived, shifts = None, ()
    if reference.has_scores:
        rederived = rederive(reference.hull, prior=prior, decision_prior=reference.prior_pos,
                             economics=reference.economics, deployed_fpr=reference.fpr,
                             deployed_tpr=reference.tpr)
        shifts = _shifts(reference, window, bins, positives, prior, s,
                         alpha if s.fail_on_shift else shift_alpha)
    return WindowResult(
        name=window.name, start=window.start, end=window.end, rows=window.rows,
        n=window.n, flagged=_flagged(reference, window, s.level), prevalence=estimates,
        prior=prior, labelled=labelled, rederived=rederived, shifts=shifts,
        findings=_findings(labelled, rederived, shifts, window, s, alpha), bins=bins,
        notes=_notes(estimates, reference))


def monitor(reference: Reference, windows, settings: MonitorSettings | None = None
            ) -> MonitorResult:
    """Monitor ``windows`` (an iterable of :class:`~.windows.WindowCounts`, in time order)
    against ``reference`` (module docstring).

    Raises
    ------
    ValueError
        No window, or two windows of one name.
    """
    s = settings or MonitorSettings()
    items = list(windows)
    if not items:
        raise ValueError("no window to monitor: give at least one")
    names = [w.name for w in items]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"two windows are named {twice[0]!r}: give each window once")
    replicates = run_replicates(reference, s)
    alpha = s.alpha / max(failing_tests(reference, items, s), 1)
    shift_alpha = s.alpha / len(items)
    results = tuple(monitor_window(reference, w, replicates, s, index=k, alpha=alpha,
                                   shift_alpha=shift_alpha) for k, w in enumerate(items))
    return MonitorResult(reference=reference, windows=results, settings=s)
