"""Explainers by name: the built-in ones register themselves, plug-ins come from an entry-point group.

A user adds an explainer without editing the package by declaring, in their own package::

    [project.entry-points."interpeval.explainers"]
    my_method = "my_pkg.module:MyExplainer"

The entry point is loaded the first time :func:`get` or :func:`names` needs it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from interpeval.explain.base import Explainer

ENTRY_POINT_GROUP = "interpeval.explainers"

_REGISTRY: dict[str, type[Explainer]] = {}
_plugins_loaded = False

E = TypeVar("E", bound="type[Explainer]")


def register(name: str) -> Callable[[E], E]:
    """Class decorator: make an :class:`Explainer` available as ``get(name)``; sets ``cls.name``."""

    def decorate(cls: E) -> E:
        existing = _REGISTRY.get(name)
        if existing is not None and existing is not cls:
            raise ValueError(f"explainer name {name!r} is already taken by {existing.__module__}.{existing.__name__}")
        cls.name = name
        _REGISTRY[name] = cls
        return cls

    return decorate


def _load_plugins() -> None:
    """Import every ``interpeval.explainers`` entry point once; a broken plug-in is reported by name."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    from interpeval.explain.base import Explainer

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _REGISTRY:
            continue
        try:
            cls = ep.load()
        except Exception as err:  # a broken plug-in must not hide the built-in explainers
            raise ImportError(f"explainer plug-in {ep.name!r} ({ep.value}) failed to load: {err}") from err
        if not (isinstance(cls, type) and issubclass(cls, Explainer)):
            raise TypeError(f"explainer plug-in {ep.name!r} ({ep.value}) is not an Explainer subclass")
        register(ep.name)(cls)


def get(name: str) -> type[Explainer]:
    """The explainer class registered as ``name`` (built-in or plug-in)."""
    if name not in _REGISTRY:
        _load_plugins()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown explainer {name!r}; known: {', '.join(names())}") from None


def build(name: str, params: dict[str, Any] | None = None, seed: int | None = None) -> Explainer:
    """An instance of the explainer ``name`` with ``params``; a stochastic one gets ``seed`` unless it is given."""
    cls = get(name)
    params = dict(params or {})
    if getattr(cls, "stochastic", False) and seed is not None:
        params.setdefault("seed", seed)
    return cls(**params)


def key_params(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` as a run key stores them: with the explainer's ``draws`` rule (its default unless ``params`` sets
    one) when it draws per input, so that a run stored under another draw rule — or before the rule was a parameter
    — gets another key and is never resumed with this one. Other explainers' params are returned as they are."""
    cls = get(name)
    draws = inspect.signature(cls.__init__).parameters.get("draws")
    if draws is None:
        return dict(params)
    return {**params, "draws": params.get("draws", draws.default)}


def names() -> list[str]:
    """Sorted names of all explainers (built-in and plug-ins)."""
    _load_plugins()
    return sorted(_REGISTRY)
