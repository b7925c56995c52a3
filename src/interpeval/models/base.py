"""The Model noun: a thin adapter over one Hugging Face model of one task kind.

Explainers never look inside a model: they ask it to *score* a batch for a :class:`Target`, either from token ids
or from embeddings, and they find the embedding layer through :meth:`Model.embedding_layer`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch

KINDS = ("masked-lm", "sequence-classification", "regression", "extractive-qa", "multiple-choice", "encoder")


@dataclass(frozen=True)
class Target:
    """What an explainer explains: one differentiable scalar per input.

    ``name`` is one of the model kind's ``targets``:
      - ``class_prob`` (sequence-classification; ``index`` = class, ``None`` = predicted class), ``regression``;
      - ``masked_token_prob`` (masked-lm; ``token_ids`` = gold id per [MASK] position, ``None`` = predicted;
        the probabilities of all mask positions are summed);
      - ``p_answer`` (extractive-qa: P(answer in context) exactly as QUACKIE, REFERENCE §1.5),
        ``span_start`` / ``span_end`` (extractive-qa; ``index`` = token position, ``None`` = argmax);
      - ``choice_prob`` (multiple-choice; ``index`` = choice).
    """

    name: str
    index: int | None = None
    token_ids: tuple[int, ...] | None = None
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


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
