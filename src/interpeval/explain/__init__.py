"""Explainers: one class per attribution method, found by name (``get``/``names``) or as plug-ins.

Every public module of this package (a name not starting with ``_``) is imported here, so a new built-in method is
one new file with an ``@register(name)`` class — no import list to edit. Third-party methods register through the
entry-point group ``interpeval.explainers`` (see :mod:`interpeval.explain.registry`).
"""

import importlib
import pkgutil

from interpeval.explain.attribution import Attribution
from interpeval.explain.base import Explainer
from interpeval.explain.registry import build, get, key_params, names, register

for _module in pkgutil.iter_modules(__path__):
    if not _module.name.startswith("_") and _module.name not in ("attribution", "base", "registry"):
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["Attribution", "Explainer", "build", "get", "key_params", "names", "register"]
