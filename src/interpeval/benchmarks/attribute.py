"""Explain every line of a text file and store the attributions: the run behind ``interpeval attribute``.

The run is keyed by (method, params, chunk, the model's batch size, file name, model, file contents): re-running the same command after a
kill skips the lines already stored, and the stored results are those of an uninterrupted run with the same chunk.
``chunk`` lines go to one explainer call; it is part of the key because batching changes the padding and so the
last bits of the scores (chunk 1 vs 8 differ by ~1e-9), and stochastic explainers draw per call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interpeval.benchmarks.base import Benchmark, Record, RunKey

BENCHMARK = "attribute"


class AttributeLines(Benchmark):
    """One record per ``(line number, text)``: the :class:`~interpeval.explain.Attribution` and its score sum."""

    name = BENCHMARK

    def __init__(self, model: Any, explainer: Any, method: str, lines: Sequence[tuple[str, str]], file_name: str,
                 fingerprint: str, chunk: int = 8) -> None:
        if chunk < 1:
            raise ValueError(f"chunk must be >= 1, got {chunk}")
        self.model, self.explainer, self.method = model, explainer, method
        self.lines, self.file_name, self.fingerprint, self.chunk = list(lines), file_name, fingerprint, chunk

    def key(self) -> RunKey:
        config = {"method": self.method, "params": self.explainer.get_params(), "file": self.file_name,
                  "chunk": self.chunk, "batch_size": self.model.batch_size}
        return RunKey(BENCHMARK, config, self.model.name, self.fingerprint)

    def instances(self) -> list[tuple[str, str]]:
        return self.lines

    def instance_id(self, item: tuple[str, str]) -> str:
        return item[0]

    def compute(self, items: Sequence[tuple[str, str]]) -> list[Record]:
        attributions = self.explainer.explain(self.model, [text for _, text in items])
        return [Record(a.to_dict(), {"sum": float(a.scores.sum())}) for a in attributions]
