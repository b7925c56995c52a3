"""Model inputs and training targets of a batch of examples, and length-bucketed epochs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from interpeval.models.base import Model
from interpeval.training.examples import ChoiceExample, ClassificationExample, QAExample


def choice_pair(question: str, option: str) -> str:
    """The second segment of a choice: the option fills the cloze blank ``_`` or follows the question."""
    return question.replace("_", option) if "_" in question else f"{question} {option}".strip()


def _char_to_tokens(enc: Any, row: int, start: int, text: str) -> tuple[int, int]:
    """Token span of a context char span, or (0, 0) (the [CLS] null answer) when absent or truncated away."""
    return _segment_span(enc.sequence_ids(row), enc["offset_mapping"][row], 1, start, text)


def _segment_span(seq: Sequence[int | None], offsets: Sequence[tuple[int, int]], segment: int, start: int | None,
                  text: str | None) -> tuple[int, int]:
    """Token span of the char span ``start`` + ``text`` of sequence ``segment``, or (0, 0) when absent or truncated
    away."""
    if start is None or start < 0 or not text:
        return 0, 0
    end = start + len(text)
    inside = [i for i, s in enumerate(seq) if s == segment and offsets[i][1] > start and offsets[i][0] < end]
    return (inside[0], inside[-1]) if inside else (0, 0)


def _choice_evidence(enc: Any, b: int, example: ChoiceExample) -> tuple[int, int]:
    """Token span of a choice item's evidence in its context (segment 0), the same in every choice's row, or (0, 0)
    when a row truncated part of it away (the evidence head reads the rows' average)."""
    start, text = example.evidence_start, example.evidence_text or ""
    spans = set()
    for seq, offsets in zip(enc["sequence_ids"][b], enc["offset_mapping"][b], strict=True):
        first, last = _segment_span(seq, offsets, 0, start, text)
        whole = (first, last) != (0, 0) and offsets[last][1] >= (start or 0) + len(text)
        spans.add((first, last) if whole else (0, 0))
    return spans.pop() if len(spans) == 1 else (0, 0)


def _evidence_targets(spans: Sequence[tuple[int, int]], device: torch.device) -> dict[str, torch.Tensor]:
    """The evidence head's targets: start and end positions, and which rows have an evidence span to learn."""
    return {"evidence_start": torch.tensor([s for s, _ in spans], device=device),
            "evidence_end": torch.tensor([t for _, t in spans], device=device),
            "evidence_keep": torch.tensor([span != (0, 0) for span in spans], device=device)}


def _is_cjk(token: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in token)


def word_units(enc: Any, row: int, tokens: Sequence[str]) -> list[list[int]]:
    """Token positions grouped into whole words (special tokens and padding left out).

    Words are the tokenizer's pre-tokenized words; a token with CJK characters is a word of its own, since
    Chinese text has no spaces and a pre-tokenized "word" would be a whole clause.
    """
    words = enc.word_ids(row)
    units: list[list[int]] = []
    previous = None
    for pos, word in enumerate(words):
        if word is None or (enc.sequence_ids(row)[pos] is None):
            previous = None
            continue
        if units and word == previous and not _is_cjk(tokens[pos]) and not _is_cjk(tokens[units[-1][-1]]):
            units[-1].append(pos)
        else:
            units.append([pos])
        previous = word
    return units


def _mask_words(model: Model, enc: Any, generator: torch.Generator, rate: float = 0.15
                ) -> tuple[torch.Tensor, torch.Tensor]:
    """Whole-word masking: ``rate`` of the words of each row are predicted (all their tokens); of the predicted
    tokens 80% → [MASK], 10% → a random token, 10% kept. Labels are -100 everywhere else."""
    ids = enc["input_ids"].cpu().clone()
    labels = torch.full_like(ids, -100)
    for row in range(ids.shape[0]):
        units = word_units(enc, row, model.tokenizer.convert_ids_to_tokens(ids[row].tolist()))
        if not units:
            continue
        count = max(1, int(round(rate * len(units))))
        for unit in torch.randperm(len(units), generator=generator)[:count].tolist():
            labels[row, units[unit]] = ids[row, units[unit]]
    chosen = labels != -100
    roll = torch.rand(ids.shape, generator=generator)
    ids[chosen & (roll < 0.8)] = model.tokenizer.mask_token_id
    rand = chosen & (roll >= 0.8) & (roll < 0.9)
    ids[rand] = torch.randint(len(model.tokenizer), ids.shape, generator=generator)[rand]
    return ids, labels


def make_batch(model: Model, kind: str, examples: Sequence[Any], generator: torch.Generator | None = None) -> dict:
    """Model inputs plus the training targets of a batch of examples (padded to its longest item)."""
    if kind in ("sequence-classification", "regression"):
        pairs = [e.pair for e in examples]
        enc = model.tokenize([e.text for e in examples], None if all(p is None for p in pairs) else pairs)
        dtype = torch.float32 if kind == "regression" else torch.long
        return {"inputs": enc, "labels": torch.tensor([e.label for e in examples], dtype=dtype, device=model.device)}
    if kind == "multiple-choice":
        n = max(len(e.options) for e in examples)
        options = [[choice_pair(e.question, o) for o in e.options] + [""] * (n - len(e.options)) for e in examples]
        enc = model.tokenize([e.context for e in examples], options)
        valid = torch.tensor([[i < len(e.options) for i in range(n)] for e in examples], device=model.device)
        out = {"inputs": enc, "labels": torch.tensor([e.label for e in examples], device=model.device),
               "valid": valid}
        if any(e.evidence_text for e in examples):
            out.update(_evidence_targets([_choice_evidence(enc, b, e) for b, e in enumerate(examples)], model.device))
        return out
    if kind == "extractive-qa":
        enc = model.tokenize([e.question for e in examples], [e.context for e in examples])
        spans = [_char_to_tokens(enc, i, e.answer_start, e.answer_text) for i, e in enumerate(examples)]
        # an answer cut off by truncation would teach "no answer": such rows are left out of the loss
        keep = [e.answer_start < 0 or span != (0, 0) for e, span in zip(examples, spans, strict=True)]
        out = {"inputs": enc, "start": torch.tensor([s for s, _ in spans], device=model.device),
               "end": torch.tensor([t for _, t in spans], device=model.device),
               "keep": torch.tensor(keep, device=model.device)}
        if any(e.evidence_text for e in examples):
            out.update(_evidence_targets([_char_to_tokens(enc, i, e.evidence_start if e.evidence_start is not None
                                                          else -1, e.evidence_text or "")
                                          for i, e in enumerate(examples)], model.device))
        return out
    enc = model.tokenize([e.text for e in examples])
    ids, labels = _mask_words(model, enc, generator or torch.Generator().manual_seed(0))
    enc["input_ids"] = ids.to(model.device)
    return {"inputs": enc, "labels": labels.to(model.device)}


def masked_logits(model: Model, inputs: dict[str, Any], positions: torch.Tensor) -> torch.Tensor:
    """Vocabulary logits at the ``positions`` mask only: the head never runs on the other tokens, which matters
    for a 250k-piece vocabulary (multilingual-e5)."""
    from interpeval.models.base import MODEL_INPUTS

    model_inputs = {k: inputs[k] for k in MODEL_INPUTS if k != "inputs_embeds" and inputs.get(k) is not None}
    hidden = model.hf.base_model(**model_inputs).last_hidden_state
    return model.lm_head()(hidden[positions])



def example_length(example: Any) -> int:
    """A cheap proxy of an example's token count (characters), for length-bucketed batches."""
    if isinstance(example, ChoiceExample):
        return len(example.context) + max(len(choice_pair(example.question, o)) for o in example.options)
    if isinstance(example, QAExample):
        return len(example.question) + len(example.context)
    if isinstance(example, ClassificationExample):
        return len(example.text) + len(example.pair or "")
    return len(example.text)


def epoch_batches(lengths: Sequence[int], batch_size: int, seed: int, epoch: int, pool: int = 50
                  ) -> list[list[int]]:
    """A seeded shuffle into batches of similar length: shuffle, sort each run of ``pool`` batches by length,
    cut, shuffle the batches. Padding shrinks to a few tokens a row; every index appears once per epoch."""
    rng = np.random.RandomState(seed * 1000 + epoch)
    order = rng.permutation(len(lengths)).tolist()
    batches: list[list[int]] = []
    for start in range(0, len(order), batch_size * pool):
        chunk = sorted(order[start:start + batch_size * pool], key=lambda i: lengths[i])
        batches += [chunk[k:k + batch_size] for k in range(0, len(chunk), batch_size)]
    rng.shuffle(batches)
    return batches
