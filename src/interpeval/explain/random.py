"""The random baseline: a random ranking of the tokens (QUACKIE's ``Random``: a permutation, so no ties)."""

from __future__ import annotations

import numpy as np
import torch
from transformers import BatchEncoding

from interpeval.explain.base import Explainer, special_mask
from interpeval.explain.params import BATCH_SIZE, DRAWS, SEED
from interpeval.explain.registry import register
from interpeval.models.base import Model, Target


@register("random")
class Random(Explainer):
    """Each text token gets a distinct score from a random permutation of 1..n (special tokens get 0)."""

    needs_gradients = False
    signed = False
    stochastic = True
    #: one input per call, so each input's permutation starts from its own seed (``seed`` and, by ``draws``, its token
    #: ids: :meth:`Explainer.explain`) and does not depend on the inputs explained with it (chunking, worker count)
    rows_per_call = 1

    parameters = {"seed": SEED, "batch_size": BATCH_SIZE, "draws": DRAWS}

    def __init__(self, seed: int | None = 0, batch_size: int | None = None, draws: str = "tokens") -> None:
        self.seed = seed
        self.batch_size = batch_size
        self.draws = draws

    def _attribute(self, model: Model, enc: BatchEncoding, target: Target) -> np.ndarray:
        text = ~special_mask(model, enc) & (enc["attention_mask"] > 0)
        out = np.zeros(text.shape)
        for row in range(text.shape[0]):
            idx = text[row].nonzero().flatten().cpu().numpy()
            out[row, idx] = torch.randperm(len(idx)).numpy() + 1.0
        return out
