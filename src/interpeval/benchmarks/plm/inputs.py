"""What a masked LM sees for a record: the text with the answer's [MASK] expanded to one mask token per answer
token, the character span of every ``sent_token`` in that text, and the answer's token ids (the gold segment)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from interpeval.benchmarks.plm.records import MASK

if TYPE_CHECKING:
    from interpeval.models.kinds import MaskedLMModel


def model_input(tokens: Sequence[str], lang: str, answer: str,
                model: MaskedLMModel) -> tuple[str, list[tuple[int, int]], tuple[int, ...]]:
    """``(text, token spans, gold ids)``; Chinese tokens are joined without spaces, English ones with one."""
    gold = model.answer_ids(answer)
    masked = model.tokenizer.mask_token * len(gold)
    sep = "" if lang == "zh" else " "
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    for i, token in enumerate(tokens):
        piece = masked if token == MASK else token
        if i:
            pos += len(sep)
        spans.append((pos, pos + len(piece)))
        parts.append(piece)
        pos += len(piece)
    return sep.join(parts), spans, gold


def decode(model: MaskedLMModel, ids: Sequence[int], lang: str) -> str:
    """A filling as a word: decoded, stripped, and for Chinese without the spaces a WordPiece decoder inserts."""
    word = model.tokenizer.decode(list(ids)).strip()
    return word.replace(" ", "") if lang == "zh" else " ".join(word.split())
