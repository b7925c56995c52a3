"""Tiny random BERTs of every kind with the real MiniLM uncased WordPiece tokenizer.

They build offline in milliseconds, so tests of explainers, metrics and benchmarks can run real code paths
(real tokenisation, real forward and backward passes) without a pretrained checkpoint. Their outputs are noise.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import torch

from interpeval.models.base import Model
from interpeval.models.kinds import EVIDENCE_KINDS, KIND_CLASSES, hf_class

#: 2 layers, hidden 32: small enough that a forward + backward pass takes milliseconds on CPU.
TINY_CONFIG = {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 64,
               "max_position_embeddings": 512, "type_vocab_size": 2}


def tokenizer_dir() -> Path:
    """The vendored MiniLM uncased tokenizer (see ``data/tokenizers/SOURCES.md``)."""
    return Path(str(resources.files("interpeval") / "data" / "tokenizers" / "minilm-uncased"))


def head_overrides(kind: str, num_labels: int | None = None) -> dict[str, Any]:
    """Config entries a head of ``kind`` needs (one output for regression, ``num_labels`` classes otherwise)."""
    if kind == "regression":
        return {"num_labels": 1, "problem_type": "regression"}
    if kind == "sequence-classification":
        return {"num_labels": num_labels or 2, "problem_type": "single_label_classification"}
    return {}


def tiny_hf(kind: str, seed: int = 0, num_labels: int | None = None) -> tuple[Any, Any]:
    """``(hf_model, tokenizer)`` of a tiny random BERT of ``kind``, seeded without touching the global RNG."""
    from transformers import AutoTokenizer, BertConfig

    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir()))
    config = BertConfig(vocab_size=len(tokenizer), pad_token_id=tokenizer.pad_token_id, **TINY_CONFIG,
                        **head_overrides(kind, num_labels))
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        hf = hf_class(kind).from_config(config)
    hf.config.architectures = [type(hf).__name__]
    return hf.eval(), tokenizer


def tiny(kind: str, seed: int = 0, *, evidence_head: bool = False, num_labels: int | None = None,
         batch_size: int = 32, max_length: int = 128) -> Model:
    """A tiny random :class:`Model` of ``kind`` on CPU (extractive-qa and multiple-choice optionally with a random
    evidence head)."""
    hf, tokenizer = tiny_hf(kind, seed, num_labels)
    extra: dict[str, Any] = {}
    if kind in EVIDENCE_KINDS:
        head = None
        if evidence_head:
            with torch.random.fork_rng(devices=[]):
                torch.manual_seed(seed + 1)
                head = torch.nn.Linear(hf.config.hidden_size, 2)
        extra["evidence_head"] = head
    elif evidence_head:
        raise ValueError(f"evidence_head is only for {' and '.join(EVIDENCE_KINDS)}")
    return KIND_CLASSES[kind](hf, tokenizer, f"tiny-{kind}", "cpu", batch_size, max_length, **extra)
