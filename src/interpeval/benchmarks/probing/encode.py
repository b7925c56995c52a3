"""Encode each sentence once and cache every layer's sentence vector on disk (numpy memmaps).

A probing grid trains thousands of probes on the same sentences; the encoder pass dominates unless it runs once.
The cache holds, per aggregation, a float32 array ``[sentences, layers, hidden]`` for the transformer layers
1..L (the original's ``hidden_states[1:]``), in shards appended as new sentences arrive, so tasks, layers,
aggregations and probes all reuse one pass, and an interrupted encode loses at most one shard.

Aggregations: ``cls`` (= ``first``, position 0), ``last``, ``sum``, ``avg``. By default the attention mask is
applied (``last`` = last real token, ``sum``/``avg`` over real tokens) and texts longer than the model's
``max_length`` are truncated. ``official=True`` reproduces the original encoder: padding positions are included
in ``sum``/``avg``, ``last`` is position −1 (a pad for shorter rows), texts are batched in the given order (padding
depends on the batch), and texts longer than ``max_length`` are dropped (their rows are NaN).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

AGGREGATIONS = ("cls", "first", "last", "sum", "avg")


def _key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def aggregate(hidden: torch.Tensor, mask: torch.Tensor, how: str, official: bool = False) -> torch.Tensor:
    """``hidden [B, T, H]``, ``mask [B, T]`` → ``[B, H]`` for one aggregation (see the module docstring)."""
    if how in ("cls", "first"):
        return hidden[:, 0]
    if official:
        if how == "last":
            return hidden[:, -1]
        if how == "sum":
            return hidden.sum(1)
        if how == "avg":
            return hidden.mean(1)
    else:
        m = mask.to(hidden.dtype).unsqueeze(-1)
        if how == "last":
            last = mask.long().sum(1) - 1
            return hidden[torch.arange(hidden.shape[0]), last]
        if how == "sum":
            return (hidden * m).sum(1)
        if how == "avg":
            return (hidden * m).sum(1) / m.sum(1).clamp(min=1)
    raise ValueError(f"unknown aggregation {how!r}; choose from {', '.join(AGGREGATIONS)}")


class LayerCache:
    """Sentence vectors of one model in one folder; ``official`` caches are kept apart from default ones.

    The folder is named by the model's name and content revision (:func:`interpeval.models.zoo.revision`), so a
    head retrained or replaced under the same name never reads the vectors of the one before.
    """

    def __init__(self, path: str | os.PathLike[str], model_name: str, official: bool = False) -> None:
        self.path = path
        self.model_name = model_name
        self.official = official

    @property
    def folder(self) -> Path:
        from interpeval.models import zoo

        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in self.model_name)
        revision = zoo.revision(self.model_name)
        return Path(self.path) / f"{safe}{f'-{revision}' if revision else ''}{'-official' if self.official else ''}"

    def _index(self) -> dict[str, Any]:
        index_file = self.folder / "index.json"
        if index_file.exists():
            return json.loads(index_file.read_text())
        return {"shards": [], "rows": {}, "layers": None, "hidden": None, "aggregations": None, "encoded": 0}

    def missing(self, texts: Sequence[str], aggregations: Sequence[str]) -> list[str]:
        """Texts not yet encoded (all of them when the cache lacks one of ``aggregations``)."""
        index = self._index()
        if index["aggregations"] is not None and not set(aggregations) <= set(index["aggregations"]):
            raise ValueError(f"{self.folder} caches {index['aggregations']}, not {list(aggregations)}: use another "
                             "cache folder or include every aggregation in the first run")
        rows = index["rows"]
        return list(dict.fromkeys(t for t in texts if _key(t) not in rows))

    def encode(self, model: Any, texts: Sequence[str], aggregations: Sequence[str], shard_size: int = 4096,
               progress: Any = None) -> int:
        """Encode the texts that are missing (each once) and append them; returns how many were encoded."""
        todo = self.missing(texts, aggregations)
        if not todo:
            return 0
        folder = self.folder
        folder.mkdir(parents=True, exist_ok=True)
        index = self._index()
        index["aggregations"] = index["aggregations"] or list(aggregations)
        aggs = index["aggregations"]
        for start in range(0, len(todo), shard_size):
            chunk = todo[start:start + shard_size]
            arrays = self._encode_chunk(model, chunk, aggs, progress)
            shard = len(index["shards"])
            for agg, array in arrays.items():
                tmp = folder / f"{shard:05d}.{agg}.f32.tmp"
                array.astype(np.float32).tofile(tmp)
                tmp.replace(folder / f"{shard:05d}.{agg}.f32")
            index["layers"], index["hidden"] = int(array.shape[1]), int(array.shape[2])
            index["shards"].append(len(chunk))
            for row, text in enumerate(chunk):
                index["rows"][_key(text)] = [shard, row]
            index["encoded"] += len(chunk)
            tmp_index = folder / "index.json.tmp"
            tmp_index.write_text(json.dumps(index))
            tmp_index.replace(folder / "index.json")
        return len(todo)

    def _encode_chunk(self, model: Any, texts: list[str], aggs: list[str], progress: Any) -> dict[str, np.ndarray]:
        tokenizer = model.tokenizer
        lengths = [len(ids) for ids in tokenizer(texts, add_special_tokens=True, truncation=False)["input_ids"]]
        limit = model.max_length
        n_layers = model.hf.config.num_hidden_layers
        hidden = model.hf.config.hidden_size
        out = {agg: np.full((len(texts), n_layers, hidden), np.nan, dtype=np.float32) for agg in aggs}
        if self.official:  # the given order; rows longer than the model limit are dropped (stay NaN)
            order = [i for i in range(len(texts)) if lengths[i] <= limit]
        else:  # by length, so batches carry little padding (masked aggregation makes batching irrelevant)
            order = sorted(range(len(texts)), key=lambda i: lengths[i])
        batch = model.batch_size
        for start in range(0, len(order), batch):
            rows = order[start:start + batch]
            states = model.hidden_states([texts[i] for i in rows], layers=list(range(1, n_layers + 1)))
            stacked = torch.stack([states.layers[k] for k in range(1, n_layers + 1)], 1)  # [B, L, T, H]
            b, n_l, t, h = stacked.shape
            flat = stacked.reshape(b * n_l, t, h)
            mask = states.attention_mask.repeat_interleave(n_l, 0)
            for agg in aggs:
                out[agg][rows] = aggregate(flat, mask, agg, self.official).reshape(b, n_l, h).numpy()
            if progress is not None:
                progress(len(rows))
        return out

    def get(self, texts: Sequence[str], aggregation: str) -> np.ndarray:
        """``[len(texts), layers, hidden]`` float32 (NaN rows: texts the official encoder dropped)."""
        index = self._index()
        if index["aggregations"] is None or aggregation not in index["aggregations"]:
            raise KeyError(f"{self.folder} has no {aggregation!r} vectors; encode first")
        n_layers, hidden = index["layers"], index["hidden"]
        maps = {}
        out = np.empty((len(texts), n_layers, hidden), dtype=np.float32)
        for i, text in enumerate(texts):
            where = index["rows"].get(_key(text))
            if where is None:
                raise KeyError(f"sentence not in the cache {self.folder}: {text[:60]!r}")
            shard, row = where
            if shard not in maps:
                maps[shard] = np.memmap(self.folder / f"{shard:05d}.{aggregation}.f32", dtype=np.float32, mode="r",
                                        shape=(index["shards"][shard], n_layers, hidden))
            out[i] = maps[shard][row]
        return out
