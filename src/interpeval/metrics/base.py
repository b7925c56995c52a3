"""The Metric noun: a pure function with declared metadata, found by name through a registry.

The call shape shared by every metric that scores ONE explanation is :meth:`Metric.evaluate` with an
:class:`Evidence`. What a metric needs is declared by its parameter names, which have one meaning everywhere:

=====================================  ================  ==================================================
parameter                              need              filled from
=====================================  ================  ==================================================
``scores`` / ``ori_scores``            ``attribution``   the explanation's token scores
``tokens`` / ``ori_tokens``            ``attribution``   the explained tokens
``rationale``                          ``rationale``     the human rationale (0/1 per token)
``score_fn``                           ``model``         re-query the model on perturbed texts
``dis_tokens`` / ``dis_scores``        ``partner``       the explanation of a perturbed partner input
``sep``, ``full_text``, ``mask_token``  —                how perturbed texts are rebuilt (optional)
=====================================  ================  ==================================================

A metric with another required parameter (a dataset of predictions, sentence ground truths, …) is called with its
own arguments (:meth:`Metric.__call__`) and has ``"data"`` among its needs; :attr:`Metric.per_explanation` tells the
evaluation engine which metrics it can apply to any explanation. The ``official=`` switches stay plain keyword
options of :meth:`Metric.evaluate`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

FAMILIES = ("plausibility", "faithfulness", "consistency", "localisation", "answer", "probing", "quality")


@dataclass(frozen=True)
class MetricInfo:
    """What a metric is: ``higher_is_better`` gives its direction, ``value_range`` its bounds (may be inf)."""

    name: str
    family: str
    higher_is_better: bool
    value_range: tuple[float, float]
    source: str
    quirks: str = ""


#: parameter name → (need, Evidence field or "partner.<field>")
EVIDENCE_PARAMS: dict[str, tuple[str, str]] = {
    "scores": ("attribution", "scores"), "tokens": ("attribution", "tokens"),
    "ori_scores": ("attribution", "scores"), "ori_tokens": ("attribution", "tokens"),
    "rationale": ("rationale", "rationale"), "score_fn": ("model", "score_fn"),
    "dis_tokens": ("partner", "partner.tokens"), "dis_scores": ("partner", "partner.scores"),
    "sep": ("", "sep"), "full_text": ("", "full_text"), "mask_token": ("", "mask_token"),
}
NEEDS = ("attribution", "rationale", "model", "partner", "data")


@dataclass
class Evidence:
    """Everything one explanation can be scored with; fields a metric does not need may stay ``None``.

    ``score_fn(texts) -> probabilities`` re-queries the model for the explained target; ``partner`` is the
    explanation of a perturbed version of the input (consistency metrics).
    """

    tokens: Sequence[str]
    scores: np.ndarray
    rationale: np.ndarray | None = None
    score_fn: Callable[[list[str]], Any] | None = None
    partner: Evidence | None = None
    sep: str = " "
    full_text: str | None = None
    mask_token: str | None = None

    def has(self, need: str) -> bool:
        """Whether this evidence can satisfy ``need``."""
        return {"attribution": True, "rationale": self.rationale is not None, "model": self.score_fn is not None,
                "partner": self.partner is not None, "data": False}[need]


@dataclass(frozen=True)
class Metric:
    info: MetricInfo
    fn: Callable[..., Any]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def needs(self) -> frozenset[str]:
        """What the metric needs, read from its required parameters (see the module docstring)."""
        out = set()
        for param in inspect.signature(self.fn).parameters.values():
            if param.default is not inspect.Parameter.empty or param.kind in (param.VAR_POSITIONAL,
                                                                              param.VAR_KEYWORD):
                continue
            out.add(EVIDENCE_PARAMS[param.name][0] if param.name in EVIDENCE_PARAMS else "data")
        return frozenset(out)

    @property
    def per_explanation(self) -> bool:
        """True when :meth:`evaluate` can score any single explanation (it reads its scores, needs no dataset)."""
        params = set(inspect.signature(self.fn).parameters)
        return "data" not in self.needs and bool({"scores", "ori_scores"} & params)

    def applies_to(self, evidence: Evidence) -> bool:
        """True when the metric scores single explanations and ``evidence`` has all it needs."""
        return self.per_explanation and all(evidence.has(n) for n in self.needs)

    def evaluate(self, evidence: Evidence, **options: Any) -> Any:
        """The metric of one explanation: parameters filled from ``evidence``, ``options`` passed through."""
        if not self.per_explanation:
            raise ValueError(f"metric {self.name!r} does not score a single explanation (needs "
                             f"{', '.join(sorted(self.needs))}); call it with its own arguments")
        missing = [n for n in self.needs if not evidence.has(n)]
        if missing:
            raise ValueError(f"metric {self.name!r} needs {', '.join(sorted(missing))}, which the evidence lacks")
        kwargs: dict[str, Any] = {}
        for name in inspect.signature(self.fn).parameters:
            if name in options or name not in EVIDENCE_PARAMS:
                continue
            holder: Any = evidence
            path = EVIDENCE_PARAMS[name][1].split(".")
            for part in path:
                holder = None if holder is None else getattr(holder, part)
            if holder is not None:
                kwargs[name] = holder
        return self.fn(**kwargs, **options)


_REGISTRY: dict[str, Metric] = {}


def register(name: str, family: str, higher_is_better: bool, value_range: tuple[float, float], source: str,
             quirks: str = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: register ``fn`` under ``name`` with its metadata; returns ``fn`` unchanged."""
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name in _REGISTRY:
            raise ValueError(f"metric {name!r} is already registered")
        _REGISTRY[name] = Metric(MetricInfo(name, family, higher_is_better, value_range, source, quirks), fn)
        return fn

    return wrap


def get(name: str) -> Metric:
    _load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown metric {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def names(family: str | None = None) -> list[str]:
    _load_all()
    return sorted(n for n, m in _REGISTRY.items() if family is None or m.info.family == family)


def _load_all() -> None:
    """Import every metrics module so that their ``@register`` decorators run."""
    import importlib
    import pkgutil

    import interpeval.metrics as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.name != "base":
            importlib.import_module(f"interpeval.metrics.{module.name}")
