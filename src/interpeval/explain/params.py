"""What an explainer declares about each constructor parameter (:class:`Param`), read by :mod:`.spec` to check a
spec's values; a module of its own so that explainers import it without importing the spec parser."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_TYPE_WORDS = {bool: "a boolean (true/false)", int: "an integer", float: "a number", str: "a string"}


@dataclass(frozen=True)
class Param:
    """One constructor parameter an explainer declares: its type (bool, int, float or str; an int is a float too),
    whether ``null`` is allowed, the allowed values and the least value (``above``: strictly greater)."""

    type: type
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    above: float | None = None
    nullable: bool = False

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not allowed (None when it is)."""
        if value is None:
            return None if self.nullable else "cannot be null"
        ok = {bool: isinstance(value, bool), int: isinstance(value, int) and not isinstance(value, bool),
              float: isinstance(value, (int, float)) and not isinstance(value, bool),
              str: isinstance(value, str)}.get(self.type, True)
        if not ok:
            return f"must be {_TYPE_WORDS[self.type]}, got {value!r}"
        if self.choices and value not in self.choices:
            return f"must be one of {', '.join(map(str, self.choices))}, got {value!r}"
        if self.minimum is not None and value < self.minimum:
            return f"must be >= {self.minimum:g}, got {value!r}"
        if self.above is not None and value <= self.above:
            return f"must be > {self.above:g}, got {value!r}"
        return None


#: parameters many explainers share
BATCH_SIZE = Param(int, minimum=1, nullable=True)
SEED = Param(int, nullable=True)
SEGMENT = Param(int, choices=(0, 1), nullable=True)
#: where the draws of an explainer that draws per input (LIME, Kernel SHAP, SmoothGrad, Random) start for each input:
#: ``"tokens"`` from ``seed`` and the input's token ids (inputs with the same number of words get different LIME and
#: SHAP masks), ``"seed"`` from ``seed`` alone (the rule of the version before; every input with n words gets the
#: same masks). Either way an input's scores do not depend on the inputs explained with it (chunks, workers).
DRAW_RULES = ("tokens", "seed")
DRAWS = Param(str, choices=DRAW_RULES)
