"""Knowledge instances: SQuAD-family questions turned into statements with the answer masked (the paper's §3.2).

English (SQuAD 2.0 dev part, XQuAD en, SQuADShifts new-wiki): wh-questions whose form a rule can turn around —
``wh_subject`` ("Who wrote X?" → "[MASK] wrote X ."), ``wh_be`` ("What is X?" → "X is [MASK] ."), ``wh_do``
("When/Where did X V?" → "X V-ed in [MASK] ."; "What did X V?" → "X V-ed [MASK] ."), with lemminflect for the
verb form. Chinese (CMRC 2018 trial/dev, XQuAD zh): questions keep the word order of the answer, so the wh-phrase
(什么, 谁, 哪里, 多少, 哪一年 …) is replaced by the answer and "？" by "。".
Only short answers (English ≤ 4 words, Chinese ≤ 8 characters) are kept. Rationale (``evidence_overlap``): the
statement's content words that occur in the context sentence holding the answer (all its content words when
none does): the words that retrieve the fact.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.words import en_tokens, is_en_content, is_zh_content, text_hash, zh_words
from interpeval.errors import DataError
from interpeval.text.sentences import sent_spans, sent_tokenize_zh

SOURCES = {"en": ("xquad/xquad.en.json", "squad/squad2-dev-part.json", "squad/squadshifts-new_wiki.json"),
           "zh": ("cmrc2018/cmrc2018_trial.json", "cmrc2018/cmrc2018_dev.json", "xquad/xquad.zh.json")}
_BE = {"is", "was", "are", "were"}
_DO = {"did": "VBD", "does": "VBZ", "do": "VBP"}
_ZH_WH = re.compile(r"什么时候|哪一年|哪年|哪一天|哪里|哪儿|什么|多少|哪个|哪位|哪些|哪国|谁")


def _questions(path: Path) -> list[tuple[str, str, str, int, str, str]]:
    """``(title, qid, question, answer_start, answer, context)`` for every answerable question of a SQuAD file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))["data"]
    except (json.JSONDecodeError, KeyError, TypeError) as err:
        raise DataError(path, None, f"is not a SQuAD-format file ({err})") from None
    out = []
    for a, article in enumerate(data):
        for paragraph in article.get("paragraphs", []):
            for qa in paragraph.get("qas", []):
                if qa.get("is_impossible") or not qa.get("answers"):
                    continue
                ans = qa["answers"][0]
                out.append((article.get("title", str(a)), str(qa["id"]), qa["question"].strip(),
                            int(ans["answer_start"]), ans["text"].strip(), paragraph["context"]))
    return out


def _inflect(lemma_form: str, tag: str) -> str | None:
    from lemminflect import getAllLemmas, getInflection

    lemmas = getAllLemmas(lemma_form).get("VERB")
    if not lemmas or lemmas[0] != lemma_form.lower():
        return None
    forms = getInflection(lemma_form.lower(), tag)
    return forms[0] if forms else None


def _is_verb_form(word: str) -> bool:
    from lemminflect import getAllLemmas

    return "VERB" in getAllLemmas(word.lower()) and word.lower() not in _BE | set(_DO) | {"has", "have", "had"}


def en_statement(question: str, answer: str) -> tuple[list[str], int, str] | None:
    """``(words, mask index, rule)`` of the statement for an English question, or None when no rule applies."""
    q = en_tokens(question.rstrip("?").strip())
    ans = en_tokens(answer)
    if len(q) < 3 or not ans or len(ans) > 4:
        return None
    first = q[0].lower()
    if first in ("who", "what", "which"):
        if first in ("what", "which") and len(q) > 3 and _is_verb_form(q[2]) and not _is_verb_form(q[1]):
            return ["[MASK]", *q[2:], "."], 0, "wh_subject"
        if q[1].lower() in _BE and len(q) > 2:
            return [*q[2:], q[1].lower(), "[MASK]", "."], len(q) - 1, "wh_be"
        if first == "who" and _is_verb_form(q[1]) and q[1].lower().endswith(("ed", "s")):
            return ["[MASK]", *q[1:], "."], 0, "wh_subject"
    if first in ("when", "where", "what", "who") and len(q) > 3 and q[1].lower() in _DO:
        for v in range(3, len(q)):
            form = _inflect(q[v], _DO[q[1].lower()])
            if form is None:
                continue
            rest = q[v + 1:]
            if first in ("what", "who") and rest:
                return None
            words = [*q[2:v], form, *rest]
            if first == "when" and not re.fullmatch(r"\d{4}", answer):
                return None
            tail = ["in", "[MASK]", "."] if first in ("when", "where") else ["[MASK]", "."]
            return words + tail, len(words) + tail.index("[MASK]"), "wh_do"
    return None


def zh_statement(question: str, answer: str) -> tuple[str, str, int] | None:
    """``(text before, text after, rule)`` around the masked answer for a Chinese question, or None."""
    q = question.strip().rstrip("？?").strip()
    found = list(_ZH_WH.finditer(q))
    if len(found) != 1 or not 1 <= len(answer) <= 8:
        return None
    m = found[0]
    after = q[m.end():]
    for n in (2, 1):  # "多少次擒杀" with the answer "136 次": the measure word is in the answer already
        if len(answer) > n and after[:n] == answer[-n:] and not answer[-n:].isdigit():
            after = after[n:]
            break
    return q[:m.start()], after + "。", 0


def _evidence(context: str, start: int, lang: str) -> str:
    if lang == "en":
        for a, b in sent_spans(context):
            if a <= start < b:
                return context[a:b]
        return context
    pos = 0
    for sentence in sent_tokenize_zh(context):
        found = context.find(sentence, pos)
        if found <= start < found + len(sentence):
            return sentence
        pos = max(pos, found)
    return context


def _item(lang: str, words: list[str], mask: int, flags: list[str] | None, evidence: str, rule: str,
          prov: dict[str, Any]) -> Item | None:
    if lang == "en":
        content = [i for i, w in enumerate(words) if i != mask and is_en_content(w)]
        low = evidence.lower()
        hits = [i for i in content if re.search(r"\b" + re.escape(words[i].lower()) + r"\b", low)]
    else:
        content = [i for i, f in enumerate(flags or []) if i != mask and is_zh_content(f)]
        hits = [i for i in content if words[i] in evidence]
    rationale = hits or content
    if not rationale:
        return None
    return Item(lang, "knowledge", words, mask, rationale, f"{rule}+evidence_overlap", prov)


def knowledge_items(data_dir: Path, lang: str) -> dict[str, list[Item]]:
    out: dict[str, list[Item]] = {}
    for rel in SOURCES[lang]:
        for title, qid, question, start, answer, context in _questions(data_dir / rel):
            prov = {"source": rel, "qid": qid, "title": title, "text_sha1": text_hash(context)}
            evidence = _evidence(context, start, lang)
            if lang == "en":
                answer = answer.rstrip(".,;:")
                made = en_statement(question, answer)
                if made is None:
                    continue
                words, mask, rule = made
                words[mask] = answer
                item = _item(lang, words, mask, None, evidence, rule, prov)
            else:
                made_zh = zh_statement(question, answer)
                if made_zh is None:
                    continue
                before, after, _ = made_zh
                left, right = zh_words(before), zh_words(after)
                words = [w for w, _ in left] + [answer] + [w for w, _ in right]
                flags = [f for _, f in left] + ["x"] + [f for _, f in right]
                rule = "wh_in_situ"
                item = _item(lang, words, len(left), flags, evidence, rule, prov)
            if item is not None:
                out.setdefault(rule, []).append(item)
    return out
