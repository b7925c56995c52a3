"""The Metric noun: a pure function with declared metadata, found by name through a registry.

Every metric declares what it needs when it is registered (``needs=``), and the declaration is checked against the
function's signature then, so a metric cannot need something its function does not take or take a required input it
does not declare. There are three call shapes:

* **an explanation** — :meth:`Metric.evaluate` with an :class:`Evidence`. The metric's needs are drawn from
  :data:`EVIDENCE_NEEDS` and its parameters have one meaning everywhere:

  =====================================  ====================  =============================================
  parameter                              covered by need       filled from
  =====================================  ====================  =============================================
  ``scores`` / ``ori_scores``            ``attribution``       the explanation's token scores
  ``tokens`` / ``ori_tokens``            ``attribution``,      the explained tokens
                                         ``tokens``
  ``rationale``                          ``rationale``         the human rationale (0/1 per token)
  ``score_fn``                           ``model``             re-query the model on perturbed texts
  ``dis_tokens`` / ``dis_scores``        ``partner``           the explanation of a perturbed partner input
  ``sep``, ``full_text``, ``mask_token``  —                    how perturbed texts are rebuilt (optional)
  =====================================  ====================  =============================================

  :attr:`Metric.per_explanation` (it needs ``attribution``) tells the evaluation engine which metrics score any
  explanation; a metric that needs ``tokens`` but no attribution scores a given rationale instead.
* **one instance of named inputs** — ``metric(...)``: the needs are the names of its required parameters
  (``references`` and ``prediction`` for ``expmrc_f1``).
* **a dataset** — :meth:`Metric.over_dataset` for a metric registered with ``level="dataset"`` (Pearson over a
  dataset, MAP over ranks, ExpMRC's aggregates, …); its needs are named inputs too. Calling such a metric as if
  it scored one instance is an error, and the other way round.

:meth:`Metric.from_inputs` calls either of the last two with a mapping of named inputs and names a missing one
(``interpeval metrics score`` uses it). The ``official=`` switches stay plain keyword options.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

FAMILIES = ("plausibility", "faithfulness", "consistency", "localisation", "answer", "probing", "quality")


@dataclass(frozen=True)
class MetricInfo:
    """What a metric is: ``higher_is_better`` gives its direction, ``value_range`` its bounds (may be inf),
    ``needs`` what it is computed from, ``level`` whether it scores one instance or a whole dataset."""

    name: str
    family: str
    higher_is_better: bool
    value_range: tuple[float, float]
    source: str
    quirks: str = ""
    needs: tuple[str, ...] = ()
    level: str = "instance"


#: parameter name → (the needs that cover it, Evidence field or "partner.<field>")
EVIDENCE_PARAMS: dict[str, tuple[frozenset[str], str]] = {
    "scores": (frozenset({"attribution"}), "scores"), "ori_scores": (frozenset({"attribution"}), "scores"),
    "tokens": (frozenset({"attribution", "tokens"}), "tokens"),
    "ori_tokens": (frozenset({"attribution", "tokens"}), "tokens"),
    "rationale": (frozenset({"rationale"}), "rationale"), "score_fn": (frozenset({"model"}), "score_fn"),
    "dis_tokens": (frozenset({"partner"}), "partner.tokens"), "dis_scores": (frozenset({"partner"}), "partner.scores"),
    "sep": (frozenset(), "sep"), "full_text": (frozenset(), "full_text"), "mask_token": (frozenset(), "mask_token"),
}
#: what an explanation's evidence can supply
EVIDENCE_NEEDS = ("attribution", "tokens", "rationale", "model", "partner")
LEVELS = ("instance", "dataset")


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
        """Whether this evidence can satisfy ``need`` (one of :data:`EVIDENCE_NEEDS`)."""
        return {"attribution": True, "tokens": True, "rationale": self.rationale is not None,
                "model": self.score_fn is not None, "partner": self.partner is not None}.get(need, False)


@dataclass(frozen=True)
class Metric:
    info: MetricInfo
    fn: Callable[..., Any]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The metric of one instance (an explanation's arrays or the metric's named inputs)."""
        if self.info.level == "dataset":
            raise ValueError(f"metric {self.name!r} scores a whole dataset: call over_dataset(...)")
        return self.fn(*args, **kwargs)

    def over_dataset(self, *args: Any, **kwargs: Any) -> Any:
        """The metric of a whole dataset (only for metrics registered with ``level="dataset"``)."""
        if self.info.level != "dataset":
            raise ValueError(f"metric {self.name!r} scores one instance, not a dataset: call it directly")
        return self.fn(*args, **kwargs)

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def needs(self) -> frozenset[str]:
        """What the metric needs, as declared at registration (see the module docstring)."""
        return frozenset(self.info.needs)

    @property
    def uses_evidence(self) -> bool:
        """True when the metric is filled from an :class:`Evidence` (:meth:`evaluate`)."""
        return self.info.level == "instance" and self.needs <= set(EVIDENCE_NEEDS)

    @property
    def per_explanation(self) -> bool:
        """True when :meth:`evaluate` can score any single explanation (it reads its scores, needs no dataset)."""
        return self.uses_evidence and "attribution" in self.needs

    def applies_to(self, evidence: Evidence) -> bool:
        """True when the metric scores single explanations and ``evidence`` has all it needs."""
        return self.per_explanation and all(evidence.has(n) for n in self.needs)

    def evaluate(self, evidence: Evidence, **options: Any) -> Any:
        """The metric of one explanation: parameters filled from ``evidence``, ``options`` passed through."""
        if not self.uses_evidence:
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

    def from_inputs(self, inputs: Mapping[str, Any], **options: Any) -> Any:
        """The metric of named ``inputs`` (its needs as keys; other keys are left out), at its own level."""
        if self.uses_evidence:
            raise ValueError(f"metric {self.name!r} scores an explanation: use interpeval evaluate --metric "
                             f"{self.name} (it needs {', '.join(sorted(self.needs))})")
        missing = [n for n in self.info.needs if n not in inputs]
        if missing:
            raise ValueError(f"metric {self.name!r}: missing input {', '.join(missing)} (it needs "
                             f"{', '.join(self.info.needs)})")
        args = {n: inputs[n] for n in self.info.needs}
        return self.fn(**args, **options)


def _check_needs(name: str, fn: Callable[..., Any], needs: tuple[str, ...], level: str) -> None:
    """Raise unless ``needs`` matches ``fn``'s signature (see the module docstring)."""
    params = inspect.signature(fn).parameters
    required = [p.name for p in params.values() if p.default is inspect.Parameter.empty
                and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    where = f"metric {name!r} ({fn.__module__}.{fn.__qualname__})"
    if not needs:
        raise ValueError(f"{where}: declare what it needs (needs=...)")
    if level == "instance" and set(needs) <= set(EVIDENCE_NEEDS):
        for param in required:
            if param not in EVIDENCE_PARAMS or not EVIDENCE_PARAMS[param][0] & set(needs):
                raise ValueError(f"{where}: parameter {param!r} is not covered by its needs {needs}")
        covered = set().union(*(EVIDENCE_PARAMS[p][0] for p in params if p in EVIDENCE_PARAMS))
        unused = [n for n in needs if n not in covered]
        if unused:
            raise ValueError(f"{where}: needs {unused} but takes no parameter that it fills")
    elif sorted(needs) != sorted(required):
        raise ValueError(f"{where}: a metric of named inputs needs exactly its required parameters "
                         f"{tuple(required)}, got needs={needs}")


_REGISTRY: dict[str, Metric] = {}


def register(name: str, family: str, higher_is_better: bool, value_range: tuple[float, float], source: str,
             quirks: str = "", *, needs: tuple[str, ...],
             level: str = "instance") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: register ``fn`` under ``name`` with its metadata; returns ``fn`` unchanged.

    ``needs`` is checked against ``fn``'s signature here (see the module docstring); ``level`` is ``"instance"``
    or ``"dataset"`` (called with :meth:`Metric.over_dataset`).
    """
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name in _REGISTRY:
            raise ValueError(f"metric {name!r} is already registered")
        _check_needs(name, fn, tuple(needs), level)
        _REGISTRY[name] = Metric(MetricInfo(name, family, higher_is_better, value_range, source, quirks,
                                            tuple(needs), level), fn)
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


@functools.cache
def _load_all() -> None:
    """Import every metrics module so that their ``@register`` decorators run (once: listing the package's files on
    every ``get`` took a third of the time of the web app's QUACKIE leaderboard)."""
    import importlib
    import pkgutil

    import interpeval.metrics as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.name != "base":
            importlib.import_module(f"interpeval.metrics.{module.name}")
