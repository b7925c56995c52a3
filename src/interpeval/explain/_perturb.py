"""Shared pieces of the perturbation explainers (LIME, Kernel SHAP, occlusion).

The interpretable features are WORDS: maximal runs of subword tokens whose character spans touch, i.e. the
whitespace words of the text (the default words of :meth:`Attribution.to_words`). Special tokens, padding and the
[MASK] tokens of a masked-LM input are never perturbed. Captum perturbs a 0/1 *presence* vector over the words;
:class:`PresenceScore` turns a whole batch of presence vectors into model inputs with tensor ops (no Python loop
per sample) and scores them in one forward pass under ``torch.inference_mode``.
"""

from __future__ import annotations

import functools

import numpy as np
import torch
from threadpoolctl import ThreadpoolController
from transformers import BatchEncoding

from interpeval.explain.base import Explainer, fixed_mask
from interpeval.models.base import Model, Target, length_batches

REMOVALS = ("attention", "mask", "pad", "unk")
UNITS = ("word", "token")


def word_features(model: Model, enc: BatchEncoding, row: int = 0, unit: str = "word",
                  segment: int | None = None) -> tuple[torch.Tensor, int]:
    """Feature id per token of ``row`` (-1: never perturbed) and the number of features.

    ``unit="word"`` groups subwords into whitespace words; ``unit="token"`` makes every subword its own feature;
    with ``segment`` only that segment's tokens are features (the other segment stays fixed).
    """
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {UNITS}, got {unit!r}")
    fixed = fixed_mask(model, enc, segment)[row].tolist()
    offsets = enc["offset_mapping"][row]
    seq = enc.sequence_ids(row)
    ids = []
    n = -1
    prev: tuple[int | None, int] | None = None  # (segment, end char) of the previous text token
    for i, (start, end) in enumerate(offsets):
        if fixed[i] or end <= start:
            ids.append(-1)
            prev = None if fixed[i] else prev
            continue
        if unit == "token" or prev is None or prev != (seq[i], start):
            n += 1
        ids.append(n)
        prev = (seq[i], end)
    return torch.tensor(ids, device=enc["input_ids"].device), n + 1


def spread(feature_scores: np.ndarray, feature_of_token: torch.Tensor, n_features: int) -> np.ndarray:
    """Token scores ``[L]``: each feature's score split equally among its tokens (0 for unperturbed tokens),
    so that :meth:`Attribution.to_words` (sum) gives back the feature scores exactly."""
    fot = feature_of_token.cpu().numpy()
    sizes = np.bincount(fot[fot >= 0], minlength=n_features)
    out = np.zeros(len(fot))
    mine = fot >= 0
    out[mine] = np.asarray(feature_scores, dtype=np.float64)[fot[mine]] / sizes[fot[mine]]
    return out


@functools.cache
def _blas() -> ThreadpoolController:
    """The BLAS libraries numpy and scipy loaded (looked up once: a fresh lookup costs ~10 ms per input)."""
    import sklearn.linear_model  # noqa: F401  (loads scipy's BLAS, which the surrogate fits use, before the lookup)

    return ThreadpoolController()


#: Captum hands every perturbation of an input to :class:`PresenceScore` in one call; it batches them itself
ALL_AT_ONCE = 1 << 20


class PresenceScore:
    """``presence [N, F] → model.score [N]`` for one input whose features are switched on (1) or off (0).

    ``removal`` says what a switched-off token becomes: ``"attention"`` (left out of attention — the token is
    deleted without shifting positions or re-tokenising), or replaced by ``"mask"`` / ``"pad"`` / ``"unk"``.

    Identical perturbations are scored once. With ``"attention"`` removal on a BERT-type classifier or regressor
    (absolute positions, the target read from [CLS]) the removed tokens are cut out instead of masked — each kept
    token keeps its position and token type ids, so the kept tokens' hidden states are the same as with the
    attention mask, up to float rounding — and the shortened rows are scored in :func:`length_batches` (similar
    lengths, at most the tokens of ``batch`` full-length rows), so little padding is computed. Other models and removals are scored at full length.
    """

    def __init__(self, model: Model, enc: BatchEncoding, row: int, target: Target, feature_of_token: torch.Tensor,
                 removal: str = "attention", batch: int = 32) -> None:
        if removal not in REMOVALS:
            raise ValueError(f"removal must be one of {REMOVALS}, got {removal!r}")
        self.model = model
        self.target = target
        self.inputs = {k: enc[k][row:row + 1] for k in ("input_ids", "attention_mask", "token_type_ids") if k in enc}
        self.feature_of_token = feature_of_token
        self.perturbable = feature_of_token >= 0
        self.removal = removal
        self.batch = max(1, int(batch))
        self.replacement = None
        if removal != "attention":
            self.replacement = getattr(model.tokenizer, f"{removal}_token_id")
            if self.replacement is None:
                raise ValueError(f"the tokenizer of {model.name} has no {removal} token; use removal='attention'")
        config = model.hf.config
        self.compact = (removal == "attention" and model.kind in ("sequence-classification", "regression")
                        and config.model_type == "bert"
                        and getattr(config, "position_embedding_type", "absolute") == "absolute")
        self.rows_scored = 0  # distinct perturbations scored (model rows)

    def __call__(self, presence: torch.Tensor) -> torch.Tensor:
        with torch.inference_mode():
            on = presence[:, self.feature_of_token.clamp(min=0)] > 0.5
            keep = on | ~self.perturbable
            unique, inverse = torch.unique(keep, dim=0, return_inverse=True)
            scores = self._compact(unique) if self.compact else self._full(unique)
            self.rows_scored += unique.shape[0]
            scores = scores[inverse]
        return scores.clone()  # a normal tensor, usable outside inference mode by Captum

    def _full(self, keep: torch.Tensor) -> torch.Tensor:
        out = []
        for start in range(0, keep.shape[0], self.batch):
            part = keep[start:start + self.batch]
            inputs = {k: v.expand(part.shape[0], -1) for k, v in self.inputs.items()}
            if self.removal == "attention":
                inputs["attention_mask"] = inputs["attention_mask"] * part
            else:
                inputs["input_ids"] = torch.where(part, inputs["input_ids"], self.replacement)
            out.append(self.model.score(inputs, self.target))
        return torch.cat(out)

    def _compact(self, keep: torch.Tensor) -> torch.Tensor:
        lengths = keep.sum(-1)
        # the kept positions of each row first, in their original order
        positions = torch.argsort((~keep).to(torch.int8), dim=-1, stable=True)
        out = torch.empty(keep.shape[0], device=keep.device)
        for batch in length_batches(lengths.tolist(), self.batch):
            rows = torch.tensor(batch, device=keep.device)
            width = int(lengths[rows].max())
            pos = positions[rows, :width]
            inputs = {k: v[0][pos] for k, v in self.inputs.items() if k != "attention_mask"}
            inputs["attention_mask"] = (torch.arange(width, device=keep.device)[None, :]
                                        < lengths[rows][:, None]).long()
            inputs["position_ids"] = pos
            out[rows] = self.model.score(inputs, self.target).float()
        return out


class WordPerturbationExplainer(Explainer):
    """Shared frame of the perturbation methods: one input per call, features = words (or subwords).

    Subclasses set ``unit``, ``removal``, ``segment`` and ``batch_size`` in ``__init__`` and implement
    ``_feature_scores``, which runs their Captum method on the ``[1, n]`` presence vector and returns one score per
    feature; ``batch`` is how many perturbations Captum passes per call (all of them: :class:`PresenceScore` dedups,
    shortens and batches them by ``batch_size``).
    """

    rows_per_call = 1
    unit: str = "word"
    removal: str = "attention"

    def _attribute(self, model: Model, enc: BatchEncoding, target: Target) -> np.ndarray:
        feature_of_token, n = word_features(model, enc, 0, self.unit, self.segment)
        if n == 0:
            return np.zeros((1, enc["input_ids"].shape[1]))
        forward = PresenceScore(model, enc, 0, target, feature_of_token, self.removal, self._batch_size(model))
        device = feature_of_token.device
        # The surrogate fit (sklearn, float32 on OpenBLAS) splits its sums by the BLAS thread count, which moves the
        # last bits of every score (~1e-7): one BLAS thread, as in a Ray worker, gives the same scores in every
        # process. Torch's own kernels (the model passes) are not OpenBLAS and keep their threads.
        with _blas().limit(limits=1, user_api="blas"):
            values = self._feature_scores(forward, torch.ones(1, n, device=device),
                                          torch.arange(n, device=device)[None], ALL_AT_ONCE)
        return spread(values.detach().cpu().numpy().reshape(-1), feature_of_token, n)[None]

    def _feature_scores(self, forward: PresenceScore, present: torch.Tensor, feature_mask: torch.Tensor,
                        batch: int) -> torch.Tensor:
        raise NotImplementedError
