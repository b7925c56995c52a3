"""The one way to name an explainer: ``[LABEL=]NAME[:key=value,...]``, parsed and checked here only.

``NAME`` is a registered explainer (built-in or plug-in); each ``value`` is read as JSON when it parses (``50``,
``0.5``, ``true``, ``null``, ``"50"``) and is a string otherwise (``zero``); an optional ``LABEL=`` names the
explainer in tables (the ``=`` must come before the first ``:``). Every explainer declares its parameters as
:class:`Param` s (:attr:`Explainer.parameters`); :func:`check` holds the values against them, so a bad spec is one
clear line naming the spec, the part that is wrong and the choices, before any model is loaded.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpeval.explain.params import Param

if TYPE_CHECKING:
    from interpeval.explain.base import Explainer

@dataclass(frozen=True)
class ExplainerSpec:
    """A named explainer with its parameters and an optional table label; ``str(spec)`` parses back to it."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    label: str | None = None

    def __str__(self) -> str:
        args = ",".join(f"{key}={_format(value)}" for key, value in self.params.items())
        return f"{self.label + '=' if self.label else ''}{self.name}{':' + args if args else ''}"

    @property
    def body(self) -> str:
        """The spec without its label (``NAME[:key=value,...]``)."""
        return str(ExplainerSpec(self.name, self.params))

    def build(self, seed: int | None = None) -> Explainer:
        """A checked instance; a stochastic explainer gets ``seed`` unless the spec sets one."""
        from interpeval.explain.registry import build

        check(self)
        return build(self.name, dict(self.params), seed)


class SpecError(ValueError):
    """A spec that does not parse or does not fit its explainer: the message is one line for the user."""


class UnknownExplainer(SpecError, KeyError):
    """A spec names no registered explainer (a KeyError too, as the registry lookup it replaces)."""

    def __str__(self) -> str:
        return str(self.args[0])


def parse(text: str, *, known: bool = True) -> ExplainerSpec:
    """``[LABEL=]NAME[:key=value,...]`` as an :class:`ExplainerSpec`; ``known`` also checks that ``NAME`` is
    registered (see :func:`check` for the parameters' values)."""
    head, colon, args = text.strip().partition(":")
    label, eq, name = head.partition("=") if "=" in head else ("", "", head)
    label, name = label.strip(), name.strip()
    if eq and not label:
        raise SpecError(f"explainer {text!r}: empty label before '='")
    if not name:
        raise SpecError(f"explainer {text!r}: no explainer name (write [LABEL=]NAME[:key=value,...])")
    if known:
        _explainer(name, text)
    params: dict[str, Any] = {}
    for item in (a.strip() for a in _split(args)) if colon else ():
        if not item:
            continue
        key, has_eq, value = item.partition("=")
        key = key.strip()
        if not has_eq or not key:
            raise SpecError(f"explainer {text!r}: parameter {item!r} is not key=value")
        if key in params:
            raise SpecError(f"explainer {text!r}: parameter {key!r} is given twice")
        params[key] = read_value(value.strip())
    return ExplainerSpec(name, params, label or None)


def check(spec: ExplainerSpec) -> ExplainerSpec:
    """``spec`` when its explainer is registered and every parameter is one it declares, with an allowed value."""
    cls = _explainer(spec.name, str(spec))
    declared = parameters(cls)
    for key, value in spec.params.items():
        if key not in declared:
            raise SpecError(f"explainer {spec.name!r} has no parameter {key!r}; it takes "
                            f"{', '.join(declared) or 'no parameters'}")
        problem = declared[key].problem(value)
        if problem:
            raise SpecError(f"{spec.name}: {key} {problem}")
    return spec


def parse_checked(text: str) -> ExplainerSpec:
    """:func:`parse` and :func:`check` in one call: what a command does with each ``--explainer``."""
    return check(parse(text))


def parameters(cls: type[Explainer]) -> dict[str, Param]:
    """The parameters ``cls`` declares (:attr:`Explainer.parameters`); a plug-in that declares none is read from its
    constructor's annotations (bool, int, float or str, and ``None``; no choices or bounds)."""
    if cls.parameters is not None:
        return dict(cls.parameters)
    out = {}
    for name, p in inspect.signature(cls.__init__).parameters.items():
        if name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        annotation = p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", None) \
            or str(p.annotation)
        words = {t.strip() for t in annotation.split("|")} if p.annotation is not p.empty else set()
        kind = next((t for t in (bool, int, float, str) if t.__name__ in words), object)
        out[name] = Param(kind, nullable=kind is object or "None" in words)
    return out


def _explainer(name: str, text: str) -> type[Explainer]:
    from interpeval.explain.registry import get

    try:
        return get(name)
    except KeyError as err:
        raise UnknownExplainer(f"explainer {text!r}: {err.args[0]}") from None


def read_value(text: str) -> Any:
    """A parameter value: JSON when it parses (``50``, ``true``, ``"50"``), else the text itself (``zero``)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _format(value: Any) -> str:
    """A value as the spec writes it: a string that would read back as something else is quoted."""
    plain = isinstance(value, str) and value == value.strip() and not any(c in value for c in ',"[]{}')
    if plain and type(read_value(value)) is str:
        return value
    return json.dumps(value, ensure_ascii=False)


def _split(args: str) -> list[str]:
    """``args`` cut at the commas outside JSON strings, lists and objects (``x=[1,2],y=3``: two items)."""
    items, depth, quoted, escaped, start = [], 0, False, False, 0
    for i, char in enumerate(args):
        if quoted:
            escaped, quoted = (not escaped and char == "\\"), quoted and (escaped or char != '"')
        elif char == '"':
            quoted = True
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth <= 0:
            items.append(args[start:i])
            start = i + 1
    return [*items, args[start:]]
