"""The Model noun: a thin adapter over one Hugging Face model of one task kind.

Explainers never look inside a model: they ask it to *score* a batch for a :class:`Target`, either from token ids
or from embeddings, and they find the embedding layer through :meth:`Model.embedding_layer`.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from transformers import BatchEncoding

KINDS = ("masked-lm", "sequence-classification", "regression", "extractive-qa", "multiple-choice", "encoder")

#: the keys of an ``inputs`` dict that reach the HF forward pass; anything else (offsets) is ignored.
MODEL_INPUTS = ("input_ids", "inputs_embeds", "attention_mask", "token_type_ids", "position_ids")


def length_batches(lengths: Sequence[int], max_rows: int) -> list[list[int]]:
    """Indices grouped into batches of similar length for scoring shorter inputs cheaply.

    Rows are taken in order of length; a batch holds at most ``max_rows`` × (the longest length) tokens once padded
    — the memory of a full batch of the longest input — so short rows share a batch many at a time and a batch pads
    little. Few, large batches matter on a CPU, where each forward pass has a sizeable fixed cost.
    """
    if not lengths:
        return []
    budget = max(1, int(max_rows)) * max(lengths)
    batches: list[list[int]] = []
    for i in sorted(range(len(lengths)), key=lengths.__getitem__):
        if batches and (len(batches[-1]) + 1) * lengths[i] <= budget:
            batches[-1].append(i)
        else:
            batches.append([i])
    return batches


@dataclass(frozen=True)
class Target:
    """What an explainer explains: one differentiable scalar per input.

    ``name`` is one of the model kind's ``targets``:
      - ``class_prob`` (sequence-classification; ``index`` = class, ``None`` = predicted class), ``regression``;
      - ``masked_token_prob`` (masked-lm; ``token_ids`` = gold id per [MASK] position, ``None`` = predicted;
        the probabilities of all mask positions are summed);
      - ``p_answer`` (extractive-qa: P(answer in context) exactly as QUACKIE, REFERENCE §1.5),
        ``span_start`` / ``span_end`` (extractive-qa; ``index`` = token position, ``None`` = argmax),
        ``evidence_start`` / ``evidence_end`` (extractive-qa with an evidence head, same indexing);
      - ``choice_prob`` (multiple-choice; ``index`` = choice).

    ``index=None`` is resolved on the inputs being scored; explainers that interpolate inputs should resolve the
    predicted index on the original input first and pass it explicitly.
    """

    name: str
    index: int | None = None
    token_ids: tuple[int, ...] | None = None
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


@dataclass
class HiddenStates:
    """Per-layer hidden states of a batch (layer 0 = embeddings output), on CPU.

    ``layers[k]`` is ``Tensor[N, L, H]``; ``attention_mask`` is ``Tensor[N, L]``; ``attentions[k]`` (layers 1..n,
    when requested) is ``Tensor[N, heads, L, L]``; ``encoding`` is the tokenizer output (offsets, word ids).
    """

    layers: dict[int, torch.Tensor]
    attention_mask: torch.Tensor
    encoding: BatchEncoding
    attentions: dict[int, torch.Tensor] | None = None


def _as_list(texts: str | Sequence[Any], what: str) -> list[Any]:
    if isinstance(texts, str):
        return [texts]
    out = list(texts)
    if not out:
        raise ValueError(f"{what} is empty")
    return out


class Model:
    """One HF model of one ``kind`` with its tokenizer, device, dtype and batch size.

    Contract used by explainers and benchmarks (implemented in :mod:`interpeval.models.kinds`):

    - ``name``, ``kind``, ``hf`` (the ``PreTrainedModel``), ``tokenizer``, ``device``, ``batch_size``, ``max_length``;
    - ``targets``: the target names this kind supports;
    - ``tokenize(texts, pairs=None)`` → ``BatchEncoding`` of tensors on ``device`` (padding, truncation to
      ``max_length``, ``offset_mapping`` kept out of the tensors and returned as ``enc["offset_mapping"]`` list);
    - ``embedding_layer()`` → the ``nn.Module`` whose output gradient-based explainers attribute to
      (the full embeddings block: word + position + type + LayerNorm);
    - ``score(inputs, target)`` → ``Tensor[batch]``: ``inputs`` is a dict with ``input_ids`` (or ``inputs_embeds``),
      ``attention_mask`` and optionally ``token_type_ids``; differentiable; one forward pass;
    - ``score_texts(texts, pairs=None, target=...)`` → ``np.ndarray[batch]`` in batches of ``batch_size``,
      without gradients (for perturbation explainers and erasure metrics);
    - ``predict(texts, pairs=None)`` → kind-specific predictions (class ids, spans, token ids, choice ids).
    """

    kind: str = "encoder"
    targets: tuple[str, ...] = ()
    #: tokenizer truncation strategy; QA truncates only the context.
    truncation: str | bool = True
    #: the lower precision every forward pass runs in under autocast (``torch.bfloat16``; weights stay as loaded),
    #: or None: the weights' own precision (``load(dtype="bf16")`` sets it)
    autocast: torch.dtype | None = None
    #: ``batch_size`` was chosen by :func:`interpeval.models.memory.auto_batch_size` (from ``memory`` bytes, or the
    #: device's memory when None): it is chosen again when the model moves to another device (a Ray worker's GPU)
    auto_batch: bool = False
    memory: int | None = None

    def __init__(self, hf: Any, tokenizer: Any, name: str, device: str | torch.device = "cpu",
                 batch_size: int = 32, max_length: int = 512) -> None:
        self.hf = hf
        self.tokenizer = tokenizer
        self.name = name
        self.device = torch.device(device)
        self.batch_size = batch_size
        self.max_length = max_length

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, kind={self.kind!r}, device={str(self.device)!r})"

    # ----------------------------------------------------------------------------------------------- inputs
    def tokenize(self, texts: str | Sequence[str], pairs: Sequence[str] | None = None) -> BatchEncoding:
        """Tokenize a batch (padded, truncated) onto ``device``; offsets are kept as a list, not a tensor."""
        texts = _as_list(texts, "texts")
        if pairs is not None:
            pairs = _as_list(pairs, "pairs")
            if len(pairs) != len(texts):
                raise ValueError(f"pairs has {len(pairs)} items but texts has {len(texts)}")
        enc = self.tokenizer(texts, pairs, padding=True, truncation=self.truncation, max_length=self.max_length,
                             return_offsets_mapping=True, return_tensors="pt")
        offsets = enc.pop("offset_mapping").tolist()
        enc = enc.to(self.device)
        enc["offset_mapping"] = [[tuple(o) for o in row] for row in offsets]
        return enc

    def lengths(self, texts: Sequence[str], pairs: Sequence[str] | None = None) -> list[int]:
        """Tokens of each input as :meth:`tokenize` cuts it, without padding (to batch inputs by length)."""
        enc = self.tokenizer(_as_list(texts, "texts"), None if pairs is None else _as_list(pairs, "pairs"),
                             truncation=self.truncation, max_length=self.max_length)
        return [len(ids) for ids in enc["input_ids"]]

    def truncated(self, texts: Sequence[str], pairs: Sequence[str] | None = None) -> tuple[int, int]:
        """How many inputs (``texts`` with ``pairs``) are longer than the ``max_length`` tokens the model reads, and
        the longest one's length in tokens: what :meth:`tokenize` cuts off."""
        texts = _as_list(texts, "texts")
        enc = self.tokenizer(texts, None if pairs is None else _as_list(pairs, "pairs"), truncation=False,
                             verbose=False)
        lengths = [len(ids) for ids in enc["input_ids"]]
        return sum(n > self.max_length for n in lengths), max(lengths, default=0)

    def embedding_layer(self) -> torch.nn.Module:
        """The embeddings block (word + position + type + LayerNorm) that layer attributions hook."""
        embeddings = getattr(self.hf.base_model, "embeddings", None)
        return embeddings if embeddings is not None else self.hf.get_input_embeddings()

    @staticmethod
    def model_inputs(inputs: dict[str, Any]) -> dict[str, Any]:
        """The keys of ``inputs`` an HF model takes (others such as offsets are dropped)."""
        model_inputs = {k: inputs[k] for k in MODEL_INPUTS if inputs.get(k) is not None}
        if "input_ids" in model_inputs and "inputs_embeds" in model_inputs:
            # ids may ride along with embeddings so targets can find [MASK]/[SEP] positions; the embeddings win.
            model_inputs.pop("input_ids")
        if "input_ids" not in model_inputs and "inputs_embeds" not in model_inputs:
            raise ValueError("inputs needs 'input_ids' or 'inputs_embeds'")
        return model_inputs

    def forward(self, inputs: dict[str, Any], **kwargs: Any) -> Any:
        """One HF forward pass on the model inputs in ``inputs`` (under :meth:`precision`)."""
        with self.precision():
            return self.hf(**self.model_inputs(inputs), **kwargs)

    def precision(self) -> contextlib.AbstractContextManager[Any]:
        """Autocast to :attr:`autocast` on the model's device (matmuls in bf16, reductions and norms in fp32), or
        nothing when it is None. Gradients flow through it; :meth:`score` returns fp32 either way."""
        if self.autocast is None:
            return contextlib.nullcontext()
        return torch.autocast(self.device.type, dtype=self.autocast)

    # ----------------------------------------------------------------------------------------------- scoring
    def check_target(self, target: Target) -> None:
        """Raise a clear error when ``target`` is not one this kind can score."""
        if target.name not in self.targets:
            supported = ", ".join(self.targets) or "none (use hidden_states)"
            raise ValueError(f"target {target.name!r} is not supported by a {self.kind} model; supported: {supported}")

    def default_target(self) -> Target:
        """The target scored when none is given: this kind's first, for the predicted index."""
        if not self.targets:
            raise ValueError(f"a {self.kind} model has no targets; use hidden_states()")
        return Target(self.targets[0])

    def score(self, inputs: dict[str, Any], target: Target) -> torch.Tensor:
        """Differentiable ``Tensor[batch]`` of ``target`` for one forward pass on ``inputs``."""
        self.check_target(target)
        return self._score(self.forward(inputs), inputs, target).float()

    def _score(self, output: Any, inputs: dict[str, Any], target: Target) -> torch.Tensor:
        raise NotImplementedError

    def score_texts(self, texts: str | Sequence[str], pairs: Sequence[Any] | None = None,
                    target: Target | None = None) -> np.ndarray:
        """``target`` for every text, in batches of ``batch_size``, without gradients."""
        texts = _as_list(texts, "texts")
        target = target or self.default_target()
        self.check_target(target)
        scores = [self._score(out, enc, target).float().cpu().numpy() for enc, out in self._batches(texts, pairs)]
        return np.concatenate(scores)

    def predict(self, texts: str | Sequence[str], pairs: Sequence[Any] | None = None) -> Any:
        """Kind-specific predictions; see the subclass."""
        raise NotImplementedError

    def _encodings(self, texts: list[Any], pairs: Sequence[Any] | None):
        """Yield the encoding of each batch of ``batch_size`` texts."""
        for start in range(0, len(texts), self.batch_size):
            chunk_pairs = None if pairs is None else pairs[start:start + self.batch_size]
            yield self.tokenize(texts[start:start + self.batch_size], chunk_pairs)

    def _batches(self, texts: list[Any], pairs: Sequence[Any] | None):
        """Yield ``(encoding, forward output)`` per batch of ``batch_size``, without gradients."""
        with torch.no_grad():
            for enc in self._encodings(texts, pairs):
                yield enc, self.forward(enc)

    # ----------------------------------------------------------------------------------------------- internals
    def _states_forward(self, inputs: dict[str, Any], **kwargs: Any) -> Any:
        """The forward pass :meth:`hidden_states` reads layers and attentions from."""
        return self.forward(inputs, **kwargs)

    def hidden_states(self, texts: str | Sequence[str], pairs: Sequence[str] | None = None,
                      layers: Sequence[int] | None = None, attentions: bool = False) -> HiddenStates:
        """Hidden states of every (or the listed) layer for a batch, padded to its longest text, on CPU.

        Layer 0 is the embeddings output, layer k the output of transformer block k. Attentions need the eager
        attention implementation, which is switched on for this call only.
        """
        texts = _as_list(texts, "texts")
        enc = self.tokenize(texts, pairs)
        n_layers = self.hf.config.num_hidden_layers
        wanted = list(range(n_layers + 1)) if layers is None else [int(k) for k in layers]
        bad = [k for k in wanted if not -(n_layers + 1) <= k <= n_layers]
        if bad:
            raise ValueError(f"layers {bad} out of range: this model has layers 0..{n_layers}")
        wanted = [k % (n_layers + 1) for k in wanted]
        states: dict[int, list[torch.Tensor]] = {k: [] for k in wanted}
        atts: dict[int, list[torch.Tensor]] = {k: [] for k in wanted if k > 0}
        previous = self.hf.config._attn_implementation
        if attentions and previous != "eager":
            self.hf.set_attn_implementation("eager")
        try:
            with torch.no_grad():
                for start in range(0, len(texts), self.batch_size):
                    part = {k: v[start:start + self.batch_size] for k, v in enc.items()
                            if k in MODEL_INPUTS and isinstance(v, torch.Tensor)}
                    out = self._states_forward(part, output_hidden_states=True, output_attentions=attentions)
                    for k in wanted:
                        states[k].append(out.hidden_states[k].float().cpu())
                        if attentions and k > 0:
                            atts[k].append(out.attentions[k - 1].float().cpu())
        finally:
            if attentions and previous != "eager":
                self.hf.set_attn_implementation(previous)
        return HiddenStates(
            layers={k: torch.cat(v) for k, v in states.items()},
            attention_mask=enc["attention_mask"].cpu(),
            encoding=enc,
            attentions={k: torch.cat(v) for k, v in atts.items()} if attentions else None,
        )


def say_truncated(model: Any, texts: Sequence[str], pairs: Sequence[str] | None = None) -> int:
    """Say once, on stderr, how many inputs (``texts`` with ``pairs``) are longer than ``model`` reads: they are cut
    to its first ``max_length`` tokens, explained and scored on that part only. Returns that count."""
    if not texts:
        return 0
    cut, longest = model.truncated(texts, pairs)
    if cut:
        print(f"truncated: {cut} of {len(texts)} inputs are longer than the {model.max_length} tokens {model.name} "
              f"reads (the longest has {longest}); the model reads, explains and scores only their first "
              f"{model.max_length} tokens", file=sys.stderr)
    return cut
