"""ExpMRC answer and evidence scores, exact to the official ``eval_expmrc.py`` (REFERENCE §2.3–2.4).

Both answers and evidences, English and Chinese, go through one tokenisation (:func:`mixed_segmentation`: basic
CJK characters and ``SP_CHARS`` become single tokens, the rest goes through NLTK ``word_tokenize``), one
normalisation (:func:`normalize_tokens`) and a bag-of-tokens F1 (:func:`token_f1`), maximised over the references.

``official=True`` (the default) keeps the original's quirks, which published numbers depend on:

- ``'……'`` is a 2-character entry of ``SP_CHARS`` and so never matches a character: ``…`` stays inside NLTK's
  tokens; ``‘`` is not in ``SP_CHARS`` at all (``’`` is);
- the articles ``a``/``an``/``the`` are dropped *before* lowercasing, so ``The`` and ``A`` survive as ``the``/``a``;
- only 1-character punctuation tokens are dropped, so NLTK's ``` `` ```, ``''``, ``...`` and ``--`` count as words.

``official=False`` fixes the three: ``…`` and ``‘`` split like the other special characters, articles are dropped
whatever their case, and tokens made only of punctuation are dropped.
"""

from __future__ import annotations

import functools
import re
import string
from collections import Counter
from collections.abc import Sequence

from interpeval.metrics.base import register
from interpeval.text.sentences import word_tokenize

SOURCE = "ExpMRC eval_expmrc.py (ymcui/expmrc 9827fed), REFERENCE §2.3–2.4"

SP_CHARS: tuple[str, ...] = (
    "-", ":", "_", "*", "^", "/", "\\", "~", "`", "+", "=", "，", "。", "：", "？", "！", "“", "”", "；", "’", "《", "》",
    "……", "·", "、", "「", "」", "（", "）", "－", "～", "『", "』",
)
"""The original's special characters, in its order; note the 2-character ``'……'``."""

CJK = re.compile(r"[\u4e00-\u9fa5]")
_SPLIT_OFFICIAL = frozenset(c for c in SP_CHARS if len(c) == 1)
_SPLIT_FIXED = _SPLIT_OFFICIAL | {"…", "‘"}
_PUNCT_OFFICIAL = frozenset(string.punctuation + "".join(SP_CHARS))
_PUNCT_FIXED = _PUNCT_OFFICIAL | {"‘"}
_ARTICLES = frozenset({"a", "an", "the"})


def mixed_segmentation(text: object, official: bool = True) -> list[str]:
    """Tokens of ``str(text).strip()``: each basic-CJK or special character alone, NLTK words in between."""
    return list(_segmentation(str(text).strip(), official))


@functools.lru_cache(maxsize=1 << 16)
def _segmentation(text: str, official: bool) -> tuple[str, ...]:
    """:func:`mixed_segmentation`, cached: the evidence selectors score every passage sentence once per system and
    question, and NLTK's tokenizer (every regex under a timeout) was most of ExpMRC Table 3's CPU time."""
    split = _SPLIT_OFFICIAL if official else _SPLIT_FIXED
    tokens: list[str] = []
    buffer: list[str] = []
    for ch in text:
        if ch in split or CJK.match(ch):
            if buffer:
                tokens.extend(word_tokenize("".join(buffer)))
                buffer = []
            tokens.append(ch)
        else:
            buffer.append(ch)
    if buffer:
        tokens.extend(word_tokenize("".join(buffer)))
    return tuple(tokens)


def normalize_tokens(tokens: Sequence[str], official: bool = True) -> list[str]:
    """Drop articles and punctuation tokens, lowercase the rest (see the module docstring for the quirks)."""
    out = []
    for token in tokens:
        if official:
            if token in _ARTICLES or token in _PUNCT_OFFICIAL:
                continue
        elif token.lower() in _ARTICLES or all(ch in _PUNCT_FIXED for ch in token):
            continue
        out.append(token.lower())
    return out


def token_f1(gold: Sequence[str], pred: Sequence[str]) -> float:
    """Bag-of-tokens F1; when either side is empty it is 1 if both are empty, else 0."""
    if not gold or not pred:
        return float(list(gold) == list(pred))
    same = sum((Counter(gold) & Counter(pred)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(gold)
    return 2 * precision * recall / (precision + recall)


def _check_references(references: Sequence[str]) -> None:
    if isinstance(references, str):
        raise ValueError("references must be a list of strings, got a single string")
    if len(references) == 0:
        raise ValueError("references is empty: the maximum over references is undefined")


@register("expmrc_f1", family="answer", higher_is_better=True, value_range=(0.0, 1.0), source=SOURCE,
          quirks="'……' never matches; case-sensitive article drop; only 1-char punctuation dropped; "
                 "max over references; both-empty F1 = 1", needs=("references", "prediction"))
def expmrc_f1(references: Sequence[str], prediction: object, official: bool = True) -> float:
    """Maximum over ``references`` of the token F1 with ``prediction`` (answers and evidences alike)."""
    _check_references(references)
    pred = normalize_tokens(mixed_segmentation(prediction, official), official)
    return max(token_f1(normalize_tokens(mixed_segmentation(ref, official), official), pred) for ref in references)


@register("expmrc_choice_match", family="answer", higher_is_better=True, value_range=(0.0, 1.0), source=SOURCE,
          quirks="exact, case-sensitive comparison without str(): 'a' != 'A' and 0 != '0'",
          needs=("gold", "prediction"))
def expmrc_choice_match(gold: object, prediction: object) -> float:
    """Multiple-choice answer score: 1 if the predicted label equals the gold label exactly."""
    return float(prediction == gold)


def _scores(values: Sequence[float], name: str) -> list[float]:
    values = [float(v) for v in values]
    if not values:
        raise ValueError(f"{name} is empty: the original divides by the number of questions")
    return values


def _running_sum(values: Sequence[float]) -> float:
    """Left-to-right ``+=`` as the original (``sum()`` compensates rounding since Python 3.12)."""
    total = 0.0
    for value in values:
        total += value
    return total


@register("expmrc_all_f1", family="answer", higher_is_better=True, value_range=(0.0, 100.0), source=SOURCE,
          quirks="mean of per-question products, not a product of means",
          needs=("answer_scores", "evidence_scores"), level="dataset")
def expmrc_all_f1(answer_scores: Sequence[float], evidence_scores: Sequence[float]) -> float:
    """Overall score: 100 × mean over questions of answer score × evidence score (unanswered count as 0)."""
    a, e = _scores(answer_scores, "answer_scores"), _scores(evidence_scores, "evidence_scores")
    if len(a) != len(e):
        raise ValueError(f"answer_scores has {len(a)} values but evidence_scores has {len(e)}")
    return 100.0 * _running_sum([x * y for x, y in zip(a, e, strict=True)]) / len(a)


@register("expmrc_ans_f1", family="answer", higher_is_better=True, value_range=(0.0, 100.0), source=SOURCE,
          needs=("answer_scores",), level="dataset")
def expmrc_ans_f1(answer_scores: Sequence[float]) -> float:
    """Answer score: 100 × mean per-question answer score (unanswered count as 0)."""
    a = _scores(answer_scores, "answer_scores")
    return 100.0 * _running_sum(a) / len(a)


@register("expmrc_evi_f1", family="answer", higher_is_better=True, value_range=(0.0, 100.0), source=SOURCE,
          needs=("evidence_scores",), level="dataset")
def expmrc_evi_f1(evidence_scores: Sequence[float]) -> float:
    """Evidence score: 100 × mean per-question evidence score (unanswered count as 0)."""
    e = _scores(evidence_scores, "evidence_scores")
    return 100.0 * _running_sum(e) / len(e)
