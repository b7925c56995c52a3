"""Property tests (Hypothesis) of the alignment layer — words ↔ subword tokens ↔ character offsets — for any Unicode
string, with the real tokenizers of the offline zoo: MiniLM's WordPiece and multilingual-e5's SentencePiece.

Strings come from Hypothesis' full Unicode alphabet and from fragments that have broken aligners elsewhere: RTL
scripts, combining characters, mixed scripts and emoji, punctuation only, empty lines, zero-width and control
characters. The properties are the ones every explainer relies on (:mod:`interpeval.text.align`); inputs longer than
the model's limit lose exactly their tail, which ``interpeval explain`` then says.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpeval.text.align import (
    char_to_token,
    equal_shares,
    overlaps,
    token_word_ids,
    whitespace_spans,
    word_spans,
)

FRAGMENTS = ["שָׁלוֹם", "مرحبا بالعالم", "e\u0301", "a\u0308\u0323", "Ǆ", "ﬁ", "Straße", "İstanbul", "日本語の文",
             "한국어", "😀👍🏽", "👩‍👩‍👧", "...", "?!", "—", "«»", "\u200b", "\u200f", "\u00ad", "\t", "\n", "\n\n",
             "  ", "\r\n", "\x07", "١٢٣", "𝔘𝔫𝔦", "word", "don't", "U.S.A.", "3.14", "#tag", "<b>", "\ufffd"]
TEXTS = st.one_of(st.text(max_size=80),
                  st.lists(st.sampled_from(FRAGMENTS), max_size=12).map(" ".join),
                  st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join),
                  st.text(alphabet=st.characters(categories=["P", "S", "Z"]), max_size=30))
PROPERTY = settings(max_examples=120, deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module", params=["minilm", "me5-small"])
def tokenizer(request):
    from transformers import AutoTokenizer

    from interpeval.models import zoo

    try:
        folder = zoo.folder(request.param)
    except Exception as err:  # the zoo extra is not installed
        pytest.skip(f"{request.param} is not installed: {err}")
    return AutoTokenizer.from_pretrained(str(folder))


def _token_spans(tokenizer, text: str, max_length: int = 512) -> list[tuple[int, int]]:
    """Token spans as :func:`interpeval.explain.base._make` keeps them: special tokens get (0, 0)."""
    enc = tokenizer(text, truncation=True, max_length=max_length, return_offsets_mapping=True)
    return [tuple(o) if s is not None else (0, 0) for o, s in zip(enc["offset_mapping"], enc.sequence_ids(0),
                                                                  strict=True)]


@pytest.mark.slow
@PROPERTY
@given(text=TEXTS)
def test_word_spans_partition_the_non_space_text(text):
    spans = whitespace_spans(text)
    assert "".join(text[s:e] for s, e in spans) == "".join(text.split())
    assert all(e > s for s, e in spans) and all(a[1] < b[0] for a, b in zip(spans, spans[1:], strict=False))
    assert word_spans(text, text.split()) == spans


@pytest.mark.slow
@given(text=TEXTS, seed=st.integers(0, 2**31 - 1))
@PROPERTY
def test_tokens_words_and_characters_agree(tokenizer, text, seed):
    tokens = _token_spans(tokenizer, text)
    words = whitespace_spans(text)
    real = [(s, e) for s, e in tokens if e > s]
    assert all(0 <= s < e <= len(text) for s, e in real)
    assert [s for s, _ in real] == sorted(s for s, _ in real)

    hit = overlaps(tokens, words)
    shares = equal_shares(tokens, words)
    np.testing.assert_allclose(shares.sum(axis=1), hit.any(axis=1).astype(float))
    scores = np.random.default_rng(seed).normal(size=len(tokens))
    # a word's score is its tokens' shares: nothing is created or lost between the two views
    assert np.isclose((shares.T @ scores).sum(), scores[hit.any(axis=1)].sum())
    ids = token_word_ids(tokens, words)
    assert all((i == -1) == (not hit[t].any()) and (i == -1 or hit[t, i]) for t, i in enumerate(ids))
    for t, (s, e) in enumerate(tokens):
        for c in range(s, e):
            found = char_to_token(tokens, c)
            assert found is not None and found <= t and tokens[found][0] <= c < tokens[found][1]
    # every word with a letter or digit is seen by at least one token (unknown characters become [UNK] or bytes)
    for w, (s, e) in enumerate(words):
        if any(ch.isalnum() for ch in text[s:e]):
            assert hit[:, w].any(), f"word {text[s:e]!r} has no token"


@pytest.mark.slow
@given(words=st.lists(st.sampled_from(FRAGMENTS[:12] + ["word", "another"]), min_size=40, max_size=120))
@PROPERTY
def test_an_input_over_the_limit_loses_exactly_its_tail(tokenizer, words):
    text = " ".join(words)
    tokens = _token_spans(tokenizer, text, max_length=16)
    spans = whitespace_spans(text)
    seen = overlaps(tokens, spans).any(axis=0)
    end = max(e for _, e in tokens)
    assert end < len(text)  # truncated
    assert all(seen[w] == (s < end) for w, (s, _) in enumerate(spans))  # seen: a prefix; unseen: the tail


def test_explain_states_that_a_long_input_was_truncated(cli):
    words = " ".join(f"word{i}" for i in range(700))
    outcome = cli(["explain", words, "--model", "tiny-sequence-classification", "--method", "saliency"])
    assert outcome.code == 0, outcome.err
    said = " ".join(outcome.out.split())
    assert "truncated: tiny-sequence-classification reads at most 512 tokens; TEXT is explained up to character" in said
    short = cli(["explain", "word0 word1", "--model", "tiny-sequence-classification", "--method", "saliency"])
    assert short.code == 0 and "truncated" not in short.out
