"""Answer uniqueness: the rules are the primary check; a masked LM's top answers are a second signal for review.

:func:`check` runs the model once per batch of records (``MaskedLMModel.fill_mask`` batches them) and writes
``interpeval.unique`` on every record: the model's ``k`` best fillings with their probabilities, and ``unique``
(the best is ``ratio`` × as probable as the second). An **original** gets ``ambiguous_flag`` (with
``ambiguous_reason``) when the gold answer is not among the model's ``k`` best fillings while the model gives at
least ``confident`` probability to another word that also fits the item's rule (:func:`fits_rule`: another form
of be/have/do, another reflexive, classifier or 的/地/得, a name or number for knowledge, a number for computation,
the other WSC candidate, a content word for reasoning). The flag is a model's signal, not a judgement: a weak model
flags items it merely gets wrong, and misses ambiguity it does not see. ``plm run --unambiguous-only`` evaluates
the originals without the flag (and their partners).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from interpeval.benchmarks.plm.grammar import classifier_lexicon
from interpeval.benchmarks.plm.inputs import decode, model_input
from interpeval.benchmarks.plm.records import GoldenRecord
from interpeval.benchmarks.plm.words import function_words, has_cjk

AGREEMENT_FORMS = frozenset({"is", "are", "am", "was", "were", "has", "have", "does", "do"})
_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)*%?")


def _content(word: str, lang: str) -> bool:
    if word.lower() in function_words(lang):
        return False
    return has_cjk(word) if lang == "zh" else word.replace("-", "").replace("'", "").isalnum()


def fits_rule(record: GoldenRecord, word: str) -> bool:
    """Whether ``word`` is of the kind the record's rule chooses its answer among (so a model confident in it,
    with the gold not in its top answers, points at a second answer the rule did not rule out)."""
    rule, lang, word = str(record.meta.get("rule", "")), record.lang, word.strip()
    low = word.lower()
    if not word or low == record.answers.strip().lower() or word.startswith("##"):
        return False
    if rule.startswith("verb_agreement"):
        return low in AGREEMENT_FORMS
    if rule in ("comparative_than", "as_as", "correlative"):  # the partner words of a pair
        return low in ("than", "as", "and", "or", "nor", "but")
    if rule.startswith("reflexive"):
        return low.endswith(("self", "selves"))
    if rule.startswith("classifier"):
        return any(word in forms for forms in classifier_lexicon().values())
    if rule.startswith("de_particle"):
        return word in ("的", "地", "得")
    if rule.startswith("equation_numbers"):
        return bool(_NUMBER.fullmatch(word))
    if rule.startswith("wsc_referent"):  # the rationale holds both candidates' head words
        words = {record.sent_token[i].lower() for i in record.rationale}
        return low in words and _content(word, lang)
    if record.dimension == "knowledge":
        if _NUMBER.fullmatch(word):
            return True
        return _content(word, lang) and (lang == "zh" or word[0].isupper())
    return _content(word, lang)


def ambiguous_reason(record: GoldenRecord, fillings: Sequence[tuple[str, float]], k: int,
                     confident: float, model_name: str) -> str | None:
    """Why an original looks ambiguous to the model (``fillings``: its best words with probabilities, best
    first), or None. Lower-cased and space-free comparison as in Top-k scoring."""
    def norm(w: str) -> str:
        return w.replace(" ", "") if record.lang == "zh" else w.lower()

    gold = norm(record.answers.strip())
    top = fillings[:k]
    if any(norm(w) == gold for w, _ in top):
        return None
    for word, p in top:
        if p >= confident and fits_rule(record, word):
            shown = ", ".join(f"{w} {q:.2f}" for w, q in top)
            return (f"{model_name}: gold '{record.answers}' not in its top {k} ({shown}); p('{word}') = {p:.2f} "
                    f"and '{word}' fits the rule {record.meta.get('rule', '?')}")
    return None


def check(records: list[GoldenRecord], model: Any, k: int = 5, confident: float = 0.3, ratio: float = 2.0) -> int:
    """Fill every record's mask with ``model`` (batched) and write its uniqueness block; flag ambiguous originals.
    Returns how many originals were flagged."""
    inputs = [model_input(r.sent_token, r.lang, r.answers, model)[0] for r in records]
    best = model.fill_mask(inputs, k=max(k, 2))
    flagged = 0
    for record, options in zip(records, best, strict=True):
        words = [(decode(model, ids, record.lang), math.exp(score)) for ids, score in options]
        p = [q for _, q in words] + [0.0]
        record.meta["unique"] = {"model": model.name, "top1": words[0][0], "p_top1": round(p[0], 6),
                                 "p_top2": round(p[1], 6), "unique": bool(p[0] >= ratio * p[1]),
                                 "top_k": [[w, round(q, 4)] for w, q in words[:k]]}
        if record.sample_type != "ori":
            continue
        reason = ambiguous_reason(record, words, k, confident, model.name)
        record.meta["ambiguous_flag"] = reason is not None
        if reason:
            record.meta["ambiguous_reason"] = reason
            flagged += 1
    return flagged
