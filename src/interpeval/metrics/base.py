"""The Metric noun: a pure function with declared metadata, found by name through a registry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True)
class Metric:
    info: MetricInfo
    fn: Callable[..., Any]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    @property
    def name(self) -> str:
        return self.info.name


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
