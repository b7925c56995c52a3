"""Explainers: one class per attribution method, found by name (``get``/``names``) or as plug-ins.

Importing this package registers the built-in methods; third-party ones register through the entry-point group
``interpeval.explainers`` (see :mod:`interpeval.explain.registry`).
"""

from interpeval.explain import (  # noqa: F401  (imported to register the built-in methods)
    attention,
    deeplift,
    guided_backprop,
    input_x_gradient,
    integrated_gradients,
    kernel_shap,
    lime,
    occlusion,
    random,
    saliency,
    smoothgrad,
)
from interpeval.explain.attribution import Attribution
from interpeval.explain.base import Explainer
from interpeval.explain.registry import get, names, register

__all__ = ["Attribution", "Explainer", "get", "names", "register"]
