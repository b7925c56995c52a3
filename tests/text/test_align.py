"""Subword ↔ char ↔ word alignment, hand-worked."""

from __future__ import annotations

import numpy as np
import pytest

from interpeval.text.align import (
    char_to_token,
    equal_shares,
    overlaps,
    token_word_ids,
    whitespace_spans,
    word_spans,
)


def test_whitespace_spans():
    assert whitespace_spans("  it 's\tfine ") == [(2, 4), (5, 7), (8, 12)]
    assert whitespace_spans("   ") == []


def test_word_spans_find_moves_left_to_right():
    # PaddleNLP's context.find(word, pointer): the second "a" is the one after the first
    text = "a cat and a dog"
    assert word_spans(text, ["a", "cat", "and", "a", "dog"]) == [(0, 1), (2, 5), (6, 9), (10, 11), (12, 15)]
    # a word list without spaces (Chinese style) works the same way
    assert word_spans("迈向充满", ["迈", "向", "充满"]) == [(0, 1), (1, 2), (2, 4)]


def test_word_spans_errors_name_the_word():
    with pytest.raises(ValueError, match=r"word 2 \('cat'\) not found"):
        word_spans("a cat sat", ["a", "cat", "cat"])
    with pytest.raises(ValueError, match="word 0 is empty"):
        word_spans("a", [""])


def test_overlaps_and_equal_shares_subword_over_two_words():
    # "New York-based": subword "york-" (4, 9) overlaps "York" (4, 8) and "-" (8, 9)
    tokens = [(0, 0), (0, 3), (4, 9), (9, 14), (0, 0)]
    words = [(0, 3), (4, 8), (8, 9), (9, 14)]
    hit = overlaps(tokens, words)
    assert hit.tolist() == [[False] * 4, [True, False, False, False], [False, True, True, False],
                            [False, False, False, True], [False] * 4]
    shares = equal_shares(tokens, words)
    np.testing.assert_array_equal(shares[2], [0, 0.5, 0.5, 0])
    np.testing.assert_array_equal(shares[0], [0, 0, 0, 0])  # special token: no share
    # touching spans do not overlap
    assert not overlaps([(0, 3)], [(3, 5)]).any()


def test_token_word_ids_and_char_to_token():
    tokens = [(0, 0), (0, 3), (4, 9), (9, 14), (0, 0)]
    words = [(0, 3), (4, 8), (8, 9), (9, 14)]
    assert token_word_ids(tokens, words).tolist() == [-1, 0, 1, 3, -1]
    assert char_to_token(tokens, 5) == 2
    assert char_to_token(tokens, 3) is None
