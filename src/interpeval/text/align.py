"""Alignment between subword tokens, characters and words.

Every alignment here goes through character spans ``(start, end)`` (end exclusive): fast tokenizers give them for
subwords (``offset_mapping``), and word lists are located in their text left to right with
``text.find(word, pointer)`` exactly as PaddleNLP's ``utils.match`` does (REFERENCE §4.1). Special tokens have the
empty span ``(0, 0)`` and overlap nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

Span = tuple[int, int]

_NON_SPACE = re.compile(r"\S+")


def whitespace_spans(text: str) -> list[Span]:
    """Spans of the whitespace-separated words of ``text`` (the default words of an Attribution)."""
    return [m.span() for m in _NON_SPACE.finditer(text)]


def word_spans(text: str, words: Sequence[str]) -> list[Span]:
    """Locate ``words`` in ``text`` left to right with ``text.find(word, pointer)``, as PaddleNLP does.

    The pointer moves to the end of each word found, so repeated words map to successive occurrences.
    Raises ``ValueError`` naming the word (index and string) that cannot be found after the pointer.
    """
    spans: list[Span] = []
    pointer = 0
    for i, word in enumerate(words):
        if not word:
            raise ValueError(f"word {i} is empty; every word needs at least one character")
        start = text.find(word, pointer)
        if start < 0:
            raise ValueError(f"word {i} ({word!r}) not found in the text after character {pointer}")
        spans.append((start, start + len(word)))
        pointer = start + len(word)
    return spans


def overlaps(token_spans: Sequence[Span], spans: Sequence[Span]) -> np.ndarray:
    """Boolean ``[n_tokens, n_spans]``: does token i share at least one character with span j."""
    tok = np.asarray(token_spans, dtype=np.int64).reshape(-1, 2)
    spn = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
    nonempty = (tok[:, 1] > tok[:, 0])[:, None] & (spn[:, 1] > spn[:, 0])[None, :]
    return nonempty & (tok[:, 0, None] < spn[None, :, 1]) & (spn[None, :, 0] < tok[:, 1, None])


def equal_shares(token_spans: Sequence[Span], spans: Sequence[Span]) -> np.ndarray:
    """``[n_tokens, n_spans]`` weights: a token's score is split equally among all spans it overlaps.

    A span's score is then ``shares.T @ token_scores`` (PaddleNLP / TrustAI ``merge_attributions``, §4.1).
    A token that overlaps no span contributes nothing.
    """
    hit = overlaps(token_spans, spans).astype(np.float64)
    count = hit.sum(axis=1, keepdims=True)
    return np.divide(hit, count, out=np.zeros_like(hit), where=count > 0)


def token_word_ids(token_spans: Sequence[Span], spans: Sequence[Span]) -> np.ndarray:
    """For each token, the index of the first span it overlaps, or -1 (special tokens, whitespace).

    Used to group subwords into words for perturbation explainers (a feature mask).
    """
    hit = overlaps(token_spans, spans)
    if hit.shape[1] == 0:  # no words at all (an empty or blank text): argmax has nothing to pick from
        return np.full(hit.shape[0], -1, dtype=np.int64)
    first = hit.argmax(axis=1)
    return np.where(hit.any(axis=1), first, -1)


def char_to_token(token_spans: Sequence[Span], char: int) -> int | None:
    """Index of the token whose span contains character ``char``, or ``None``."""
    for i, (start, end) in enumerate(token_spans):
        if start <= char < end:
            return i
    return None
