"""Shared model passes: every text the metrics of one chunk of inputs ask for is scored once, batched by length.

The erasure metrics (:mod:`interpeval.metrics.faithfulness`) each call ``score_fn`` once with all their perturbed
texts. Several explainers and metrics on one input ask for many of the same texts — the unperturbed input for every
metric, the whole leave-one-out set once per explanation, equal top-k erasures across methods — so the engine runs
every metric twice: first with a *recording* ``score_fn`` that only collects the texts (and returns zeros), then,
after :meth:`SharedPasses.run` has scored each distinct (target, text) once in batches of similar length (shorter
perturbed texts share batches with texts of their own length, so little padding is computed), with a *replaying*
``score_fn`` that looks the probabilities up. The metric functions themselves are unchanged, so their values are
exactly those of a direct call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch

from interpeval.models.base import Model, Target, length_batches


class SharedPasses:
    """A cache of ``target`` probabilities keyed by (target, text), filled in batches by :meth:`run`."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.values: dict[tuple[Target, str], float] = {}
        self.pending: dict[tuple[Target, str], None] = {}
        self.passes = 0  # texts actually scored (each one model row)
        self.requests = 0  # texts asked for by the metrics

    def seed(self, target: Target, text: str, value: float) -> None:
        """Store a value already computed elsewhere (the unperturbed input's probability)."""
        self.values[(target, text)] = float(value)

    def recorder(self, target: Target, decode: Callable[[str], str]) -> Callable[[list[str]], np.ndarray]:
        """A ``score_fn`` that records the decoded texts it is asked for and returns zeros."""

        def score_fn(texts: list[str]) -> np.ndarray:
            for text in texts:
                key = (target, decode(text))
                if key not in self.values:
                    self.pending[key] = None
            return np.zeros(len(texts))

        return score_fn

    def replayer(self, target: Target, decode: Callable[[str], str]) -> Callable[[list[str]], np.ndarray]:
        """A ``score_fn`` that answers from the cache (after :meth:`run`)."""

        def score_fn(texts: list[str]) -> np.ndarray:
            self.requests += len(texts)
            return np.array([self.values[(target, decode(t))] for t in texts])

        return score_fn

    def run(self) -> None:
        """Score every pending (target, text) once: per target, in batches of similar token length."""
        by_target: dict[Target, list[str]] = {}
        for target, text in self.pending:
            by_target.setdefault(target, []).append(text)
        self.pending.clear()
        for target, texts in by_target.items():
            lengths = [len(ids) for ids in self.model.tokenizer(texts, truncation=True)["input_ids"]]
            for batch in length_batches(lengths, self.model.batch_size):
                part = [texts[i] for i in batch]
                with torch.inference_mode():
                    values = self.model.score(self.model.tokenize(part), target).cpu().numpy()
                for text, value in zip(part, values, strict=True):
                    self.values[(target, text)] = float(value)
                self.passes += len(part)


def id_decoder(model: Model, full_text: str) -> Callable[[str], str]:
    """Map a metric's text of space-joined token ids back to text as ferret does (``tokenizer.decode``).

    The metrics rebuild perturbed inputs by joining the kept tokens; the engine passes token *ids* as the tokens, so
    a perturbed input is exactly ``decode(kept ids)``, re-tokenised when scored. ``full_text`` is the input itself.
    """
    decode = model.tokenizer.decode

    def to_text(text: str) -> str:
        if text == full_text:
            return text
        return decode([int(t) for t in text.split()]) if text else ""

    return to_text


def token_ids(model: Model, tokens: Sequence[str]) -> list[str]:
    """The vocabulary ids of ``tokens`` as strings (the units the erasure metrics remove)."""
    ids: Any = model.tokenizer.convert_tokens_to_ids(list(tokens))
    return [str(i) for i in ids]
