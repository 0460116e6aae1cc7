"""scikit-learn estimators that apply a decision record: a cost-weighted argmax over several
classes (:class:`CostWeightedClassifier`) and a recalibration of a binary classifier's
probabilities (:class:`Recalibrated`).

Both wrap a probabilistic classifier, fitted already or fitted by their own ``fit`` (on a
clone), as scikit-learn's ``FixedThresholdClassifier`` does; both pickle and clone. This
module imports scikit-learn: the decision records load it only when asked for a classifier.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from ..core.constraints.recalibration import Recalibration

__all__ = ["CostWeightedClassifier", "Recalibrated"]


def _fitted(estimator) -> bool:
    try:
        check_is_fitted(estimator)
    except Exception:  # NotFittedError, or an object scikit-learn cannot inspect
        return False
    return True


class _Wrapper(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """What both wrappers share: fit a clone, or use the given estimator when it is fitted
    (the decision record's case: the model the decision was taken on)."""

    def fit(self, X, y, **fit_params):
        """Fit a clone of ``estimator`` on ``(X, y)``."""
        self.estimator_ = clone(self.estimator).fit(X, y, **fit_params)
        self._check_params()
        return self

    def _check_params(self) -> None:
        """Validate the parameters against the fitted estimator (subclasses)."""

    def _inner(self):
        if hasattr(self, "estimator_"):
            return self.estimator_
        est = self.estimator
        if hasattr(est, "__sklearn_tags__"):
            check_is_fitted(est)  # NotFittedError: neither is fitted
        elif not (est.__sklearn_is_fitted__() if hasattr(est, "__sklearn_is_fitted__")
                  else hasattr(est, "classes_")):  # not scikit-learn's: its own word
            raise NotFittedError(f"{type(est).__name__} is not fitted: fit it, or fit this "
                                 "wrapper (which fits a clone)")
        return est

    @property
    def classes_(self):
        return self._inner().classes_

    @property
    def n_features_in_(self):
        return self._inner().n_features_in_

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "estimator_") or _fitted(self.estimator)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        own = getattr(self.estimator, "__sklearn_tags__", None)
        if own is not None:  # the wrapped estimator's inputs and classes are the wrapper's
            inner = own()
            tags.input_tags = inner.input_tags
            tags.classifier_tags = inner.classifier_tags
        return tags


class CostWeightedClassifier(_Wrapper):
    """Decide ``argmin_j Σ_i w_i·p(i|x)·C[i, j]`` on a classifier's ``predict_proba``.

    The Bayes decision under the cost matrix ``C`` (``C[i, j]``: the cost of deciding ``j``
    when the truth is ``i``) for probabilities re-weighted by the class weights ``w``
    (a deployment prior over the training one, or the weights fitted by
    :func:`~roc_dash.core.constraints.cost_matrix.fit_class_weights`); ties go to the first
    class. See :mod:`roc_dash.core.constraints.cost_matrix`.

    Parameters
    ----------
    estimator : classifier with ``predict_proba``
        Fitted (used as it is) or not (``fit`` fits a clone).
    cost_matrix : array of shape (k, k), optional
        Default: 0 on the diagonal and 1 elsewhere (the argmax of the weighted
        probabilities).
    class_weights : array of shape (k,), optional
        Default: 1 for every class.
    classes : sequence, optional
        The class of each row and column of ``cost_matrix`` and of ``class_weights``, matched
        to the estimator's ``classes_`` (by value, else as text); default the estimator's
        order.
    """

    def __init__(self, estimator, *, cost_matrix=None, class_weights=None, classes=None):
        self.estimator = estimator
        self.cost_matrix = cost_matrix
        self.class_weights = class_weights
        self.classes = classes

    def _order(self, fitted_classes) -> np.ndarray:
        """Position in ``classes`` of each of the estimator's classes."""
        k = len(fitted_classes)
        if self.classes is None:
            return np.arange(k)
        given = list(self.classes)
        text = [str(c) for c in given]
        out = []
        for c in np.asarray(fitted_classes).tolist():
            if c in given:
                out.append(given.index(c))
            elif str(c) in text and text.count(str(c)) == 1:
                out.append(text.index(str(c)))
            else:
                raise ValueError(f"the estimator's class {c!r} is not among classes="
                                 f"{given!r}; give the cost matrix's classes in the "
                                 "estimator's terms")
        if len(given) != k:
            raise ValueError(f"classes= names {len(given)} classes, the estimator has {k}")
        return np.asarray(out)

    def _matrices(self):
        classes = self.classes_
        k = len(classes)
        order = self._order(classes)
        if self.cost_matrix is None:
            c = 1.0 - np.eye(k)
        else:
            c = np.asarray(self.cost_matrix, dtype=np.float64)
            if c.shape != (k, k) or not np.isfinite(c).all():
                raise ValueError(f"cost_matrix must be a finite {k} x {k} matrix for the "
                                 f"estimator's {k} classes, got shape {c.shape}")
            c = c[np.ix_(order, order)]
        w = np.ones(k) if self.class_weights is None else np.asarray(self.class_weights, float)
        if w.shape != (k,) or not np.isfinite(w).all() or (w <= 0).any():
            raise ValueError(f"class_weights must be {k} positive numbers, got "
                             f"{self.class_weights!r}")
        return c, (w if self.class_weights is None else w[order])

    def _check_params(self) -> None:
        self._matrices()

    def predict_proba(self, X):
        """The estimator's probabilities (unchanged)."""
        return self._inner().predict_proba(X)

    def predict(self, X):
        """The class of least weighted expected cost for each row."""
        c, w = self._matrices()
        p = np.asarray(self.predict_proba(X), dtype=np.float64)
        risk = np.einsum("nk,kj->nj", p, w[:, None] * c)
        return np.asarray(self.classes_)[np.argmin(risk, axis=1)]


class Recalibrated(_Wrapper):
    """A binary classifier whose ``predict_proba`` is recalibrated, its raw score kept.

    ``predict_proba`` returns ``[1 − q, q]`` (in ``classes_`` order) with ``q`` the
    recalibrated probability of ``pos_label``; ``decision_function`` returns the raw score
    the decision was taken on (the estimator's ``response_method`` output for ``pos_label``),
    signed so that scikit-learn reads it as the score of ``pos_label`` (``classes_[1]``'s
    sign convention: negated when ``pos_label`` is ``classes_[0]``, which
    ``FixedThresholdClassifier`` undoes). So a ``FixedThresholdClassifier`` with
    ``response_method="decision_function"`` on it thresholds the raw score exactly as the
    record says, and its ``predict_proba`` gives the recalibrated probabilities.

    Parameters
    ----------
    estimator : binary classifier
    recalibration : Recalibration
        :class:`~roc_dash.core.constraints.recalibration.Recalibration` of the raw score.
    pos_label : optional
        Default ``classes_[1]``.
    response_method : {"predict_proba", "decision_function"}
        What the raw score is.
    """

    def __init__(self, estimator, *, recalibration=None, pos_label=None,
                 response_method="predict_proba"):
        self.estimator = estimator
        self.recalibration = recalibration
        self.pos_label = pos_label
        self.response_method = response_method

    def _positive(self) -> int:
        classes = list(np.asarray(self.classes_).tolist())
        if len(classes) != 2:
            raise ValueError(f"Recalibrated needs a binary classifier; it has {len(classes)} "
                             "classes")
        if self.pos_label is None:
            return 1
        if self.pos_label not in classes:
            raise ValueError(f"pos_label {self.pos_label!r} is not among {classes}")
        return classes.index(self.pos_label)

    def _raw(self, X) -> np.ndarray:
        inner, k = self._inner(), self._positive()
        if self.response_method == "predict_proba":
            return np.asarray(inner.predict_proba(X), dtype=np.float64)[:, k]
        if self.response_method != "decision_function":
            raise ValueError("response_method must be 'predict_proba' or "
                             f"'decision_function', got {self.response_method!r}")
        d = np.asarray(inner.decision_function(X), dtype=np.float64)
        return d if k == 1 else -d

    def decision_function(self, X):
        """The raw score of ``pos_label``, signed as scikit-learn reads ``classes_[1]``'s."""
        raw = self._raw(X)
        return raw if self._positive() == 1 else -raw

    def predict_proba(self, X):
        """``[1 − q, q]`` per row (``classes_`` order) with ``q`` the recalibrated
        probability of ``pos_label``."""
        rec = self.recalibration
        if not isinstance(rec, Recalibration):
            raise ValueError("recalibration must be a Recalibration")
        q = rec.apply(self._raw(X))
        out = np.empty((q.size, 2))
        k = self._positive()
        out[:, k], out[:, 1 - k] = q, 1.0 - q
        return out

    def predict(self, X):
        """The class of recalibrated probability above one half (ties: ``pos_label``)."""
        q = self.predict_proba(X)[:, self._positive()]
        classes = np.asarray(self.classes_)
        k = self._positive()
        return np.where(q >= 0.5, classes[k], classes[1 - k])
