"""The Explainer noun: one class per attribution method, one call signature, capability flags.

``Explainer(**params)`` only stores its parameters (scikit-learn style). :meth:`Explainer.explain` does what every
method shares: resolve a "predicted" target on the original input (so interpolated or perturbed inputs keep
explaining the same class / token / position), group inputs by resolved target, tokenise in bounded batches, call
the method's ``_attribute`` and wrap each row in an :class:`~interpeval.explain.attribution.Attribution`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import warnings
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import numpy as np
import torch
from transformers import BatchEncoding

from interpeval.explain.attribution import Attribution
from interpeval.explain.params import DRAW_RULES, Param
from interpeval.models.base import Model, Target

#: the model kinds whose targets are one scalar per (text, pair) input.
SCALAR_KINDS = ("sequence-classification", "regression", "masked-lm", "extractive-qa")
#: Captum's notices about hooks it sets and inputs it marks as requiring gradients (expected here, not problems)
_CAPTUM_NOISE = ("Input Tensor .* did not already require gradients", "Setting backward hooks on ReLU",
                 "Setting forward, backward hooks and attributes on non-linear")
_INDEXED = ("class_prob", "choice_prob", "span_start", "span_end", "evidence_start", "evidence_end")


class Explainer:
    """Base class. Subclasses set the flags, define ``__init__`` storing their params, and ``_attribute``.

    Flags: ``needs_gradients`` (backpropagates through the model), ``signed`` (scores can be negative),
    ``stochastic`` (depends on ``seed``), ``kinds`` (model kinds it supports). ``parameters`` declares every
    constructor parameter (:class:`~interpeval.explain.spec.Param`: type, choices, bounds), which the explainer
    spec checks before any work; a subclass with other constructor parameters declares its own.
    """

    name: ClassVar[str] = ""
    needs_gradients: ClassVar[bool] = False
    signed: ClassVar[bool] = True
    stochastic: ClassVar[bool] = False
    kinds: ClassVar[tuple[str, ...]] = SCALAR_KINDS
    #: how many inputs one ``_attribute`` call receives (the perturbation methods, SmoothGrad and Random take one at a
    #: time, unpadded, so a stochastic method's draws for an input start from ``seed`` whatever is explained with it)
    rows_per_call: ClassVar[int | None] = None
    #: constructor parameter → what it accepts (None: read from the constructor's annotations, for plug-ins)
    parameters: ClassVar[dict[str, Param] | None] = None

    batch_size: int | None = None
    seed: int | None = None
    #: where each input's draws start, for the methods that draw per input (:data:`~.params.DRAW_RULES`); the
    #: built-ins take it as a constructor parameter (default ``"tokens"``), so it is stored with their attributions and
    #: in their runs' keys; a plug-in without that parameter keeps the earlier rule, ``"seed"``, so that its scores
    #: never change under an unchanged run key
    draws: str = "seed"
    #: attribute only this input segment (0: the text, 1: the pair) and hold the other one fixed, as QUACKIE's
    #: originals do (question fixed, context attributed); ``None`` attributes every text token. Explainers that
    #: support it take ``segment`` as a constructor parameter.
    segment: int | None = None

    # -------------------------------------------------------------------------------------------- params
    def get_params(self) -> dict[str, Any]:
        """The constructor parameters and their current values (stored with every Attribution)."""
        return {p: getattr(self, p) for p in _init_parameters(type(self))}

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({params})"

    # -------------------------------------------------------------------------------------------- explain
    def explain(self, model: Model, texts: str | Sequence[str], target: Target | None = None,
                pairs: Sequence[str] | None = None) -> list[Attribution]:
        """One :class:`Attribution` per text (and pair), in input order, for ``target`` (default: the model's)."""
        texts = [texts] if isinstance(texts, str) else list(texts)
        if not texts:
            raise ValueError("texts is empty")
        if pairs is not None:
            pairs = [pairs] if isinstance(pairs, str) else list(pairs)
            if len(pairs) != len(texts):
                raise ValueError(f"pairs has {len(pairs)} items but texts has {len(texts)}")
        if self.segment is not None and (self.segment not in (0, 1) or (self.segment == 1 and pairs is None)):
            raise ValueError(f"segment must be 0 (the text) or 1 (the pair, which needs pairs), got {self.segment!r}")
        if model.kind not in self.kinds:
            raise ValueError(f"explainer {self.name or type(self).__name__!r} does not support {model.kind} models "
                             f"(supports: {', '.join(self.kinds)})")
        target = target or model.default_target()
        model.check_target(target)
        batch = self._batch_size(model)
        targets = resolve_targets(model, texts, pairs, target, batch)
        groups: dict[Target, list[int]] = {}
        for i, t in enumerate(targets):
            groups.setdefault(t, []).append(i)
        out: list[Attribution | None] = [None] * len(texts)
        rows = self.rows_per_call or batch
        # one input per call (the stochastic methods): each input's draws start from its own seed (``seed`` and, by
        # ``draws``, its token ids), so its scores are those it gets when explained alone, whatever came before it
        # in this call (chunking, worker count)
        per_input = self.stochastic and rows == 1
        if per_input and self.draws not in DRAW_RULES:
            raise ValueError(f"draws must be one of {', '.join(DRAW_RULES)}, got {self.draws!r}")
        params = _jsonable(self.get_params())
        was_training = model.hf.training
        if was_training:  # a loaded model is in eval mode already (walking its modules twice a call showed in profiles)
            model.hf.eval()
        try:
            with (_seeded(self.seed if self.stochastic and not per_input else None, model.device),
                  warnings.catch_warnings()):
                for message in _CAPTUM_NOISE:
                    warnings.filterwarnings("ignore", message=message, category=UserWarning)
                for t, idx in groups.items():
                    if len(idx) > rows > 1 and model.kind != "multiple-choice":
                        # several batches: rows of similar length share one, so little padding is computed
                        # (results still go to their input's place)
                        lengths = model.lengths([texts[i] for i in idx], None if pairs is None else
                                                [pairs[i] for i in idx])
                        idx = [i for _, i in sorted(zip(lengths, idx, strict=True), key=lambda pair: pair[0])]
                    for start in range(0, len(idx), rows):
                        chunk = idx[start:start + rows]
                        chunk_pairs = None if pairs is None else [pairs[i] for i in chunk]
                        enc = model.tokenize([texts[i] for i in chunk], chunk_pairs)
                        with _seeded(input_seed(self.seed, self.draws, enc) if per_input else None, model.device):
                            scores = self._attribute(model, enc, t)
                        for row, i in enumerate(chunk):
                            out[i] = _make(enc, row, scores[row], texts[i], None if pairs is None else pairs[i],
                                           t, self.name, params, model.name)
        finally:
            if was_training:
                model.hf.train()
        return out  # type: ignore[return-value]

    def _batch_size(self, model: Model) -> int:
        size = self.batch_size or model.batch_size
        if size < 1:
            raise ValueError(f"batch_size must be >= 1, got {size}")
        return int(size)

    def _attribute(self, model: Model, enc: BatchEncoding, target: Target) -> np.ndarray:
        """Scores ``[rows, L]`` for one tokenised batch (padding positions are ignored by the caller)."""
        raise NotImplementedError


# ------------------------------------------------------------------------------------------------ helpers
@functools.cache
def _init_parameters(cls: type) -> tuple[str, ...]:
    """The constructor parameter names of an explainer class (read once: ``inspect.signature`` on every explain
    call showed in the profile of one-input calls)."""
    return tuple(p for p in inspect.signature(cls.__init__).parameters if p != "self")


def input_seed(seed: int | None, draws: str, enc: BatchEncoding) -> int | None:
    """Where the draws for the one input in ``enc`` start: ``seed`` alone (``draws="seed"``), or a 63-bit number
    hashed from ``seed`` and the input's token ids (``"tokens"``), the same in every process and on every device;
    None (unseeded) when ``seed`` is."""
    if seed is None or draws == "seed":
        return seed
    ids = enc["input_ids"][0].cpu().numpy().astype("<i8").tobytes()
    digest = hashlib.sha256(str(int(seed)).encode() + b":" + ids).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def resolve_targets(model: Model, texts: list[str], pairs: list[str] | None, target: Target,
                    batch_size: int) -> list[Target]:
    """Fix a "predicted" target (``index`` / ``token_ids`` = None) on each original input.

    Class and choice targets take ``model.predict``; masked-token targets take the predicted ids at the [MASK]
    positions; span targets take the argmax position of the adapter's own scorer. Others pass through.
    """
    if target.name == "masked_token_prob" and target.token_ids is None:
        return [Target(target.name, target.index, tuple(int(t) for t in ids), target.params)
                for ids in model.predict(texts, pairs)]
    if target.name not in _INDEXED or target.index is not None:
        return [target] * len(texts)
    if target.name in ("class_prob", "choice_prob"):
        return [Target(target.name, int(i), target.token_ids, target.params) for i in model.predict(texts, pairs)]
    out: list[Target] = []
    with torch.inference_mode():
        for start in range(0, len(texts), batch_size):
            enc = model.tokenize(texts[start:start + batch_size],
                                 None if pairs is None else pairs[start:start + batch_size])
            result = model.forward(enc)
            length = enc["input_ids"].shape[-1]
            probs = torch.stack([model._score(result, enc, Target(target.name, i)) for i in range(length)], -1)
            out.extend(Target(target.name, int(i), target.token_ids, target.params) for i in probs.argmax(-1))
    return out


def special_mask(model: Model, enc: BatchEncoding) -> torch.Tensor:
    """``Tensor[B, L]`` bool: tokens that are not text (special tokens, padding) and the [MASK] tokens of an MLM."""
    special = torch.tensor([[s is None for s in enc.sequence_ids(r)] for r in range(enc["input_ids"].shape[0])],
                           device=enc["input_ids"].device)
    if model.kind == "masked-lm":
        special |= enc["input_ids"] == model.tokenizer.mask_token_id
    return special


def fixed_mask(model: Model, enc: BatchEncoding, segment: int | None = None) -> torch.Tensor:
    """``Tensor[B, L]`` bool: tokens an explainer must leave as they are — :func:`special_mask`, padding, and with
    ``segment`` every token of the other segment."""
    fixed = special_mask(model, enc) | (enc["attention_mask"] == 0)
    if segment is not None:
        other = torch.tensor([[s is not None and s != segment for s in enc.sequence_ids(r)]
                              for r in range(enc["input_ids"].shape[0])], device=fixed.device)
        fixed |= other
    return fixed


def _make(enc: BatchEncoding, row: int, scores: np.ndarray, text: str, pair: str | None, target: Target,
          method: str, params: dict[str, Any], model_name: str) -> Attribution:
    keep = enc["attention_mask"][row].bool().cpu().numpy()
    tokens = enc.tokens(row)
    seq = enc.sequence_ids(row)
    offsets = enc["offset_mapping"][row]
    idx = np.flatnonzero(keep)
    return Attribution(
        text=text, pair=pair, tokens=[tokens[i] for i in idx],
        offsets=[offsets[i] if seq[i] is not None else (0, 0) for i in idx],
        segments=[-1 if seq[i] is None else int(seq[i]) for i in idx],
        scores=np.asarray(scores, dtype=np.float64)[idx],
        target={"name": target.name, "index": target.index,
                "token_ids": None if target.token_ids is None else list(target.token_ids)},
        method=method, params=params, model=model_name)


def _jsonable(params: dict[str, Any]) -> dict[str, Any]:
    """Parameters as JSON values (tuples become lists, anything else unusual its repr)."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, tuple):
            value = list(value)
        if value is None or isinstance(value, (bool, int, float, str, list, dict)):
            out[key] = value
        else:
            out[key] = repr(value)
    return out


@contextlib.contextmanager
def _seeded(seed: int | None, device: torch.device) -> Iterator[None]:
    """Run with torch's RNG seeded, restoring the caller's RNG state afterwards (no global side effect)."""
    if seed is None:
        yield
        return
    devices = [device.index or 0] if device.type == "cuda" else []
    with torch.random.fork_rng(devices=devices):
        torch.manual_seed(seed)
        yield
