"""Semantics instances: Winograd schemas (English).

``wsc_referent``: the schema's pronoun becomes "the [MASK]" (or "[MASK]" for a name), the answer is the correct
candidate's head word; the rationale is both candidates' head words and the content words of the schema's quote
(the words that decide the referent, e.g. "full" in "… because he was full"). Possessive pronouns become
"[MASK] 's"; "her" (object or possessive) is dropped. Entity–property items from UD (an adjective of a noun) were
dropped: a noun admits many adjectives, so no reader can give the one answer. No Chinese source fixes a word by
meaning alone (no Chinese WSC is among the sources), so Chinese has no semantics dimension.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.words import en_tokens, is_en_content
from interpeval.errors import DataError
from interpeval.models.lineage import content_hash

WSC = "plm_rationale/wsc/WSCollection.xml"
_DETERMINERS = {"the", "a", "an", "his", "her", "their", "my", "our", "its"}
_POSSESSIVE = {"his", "their", "its"}


def _text(node: ElementTree.Element | None) -> str:
    return " ".join((node.text or "").split()) if node is not None else ""


def wsc_items(data_dir: Path, drops: Counter[str]) -> list[Item]:
    path = data_dir / WSC
    try:
        root = ElementTree.fromstring(path.read_bytes())
    except ElementTree.ParseError as err:
        raise DataError(path, f"line {err.position[0]}", f"is not valid XML ({err})") from None
    out = []
    for number, schema in enumerate(root.findall("schema")):
        pron = _text(schema.find("text/pron")).lower()
        answers = [_text(a) for a in schema.findall("answers/answer")]
        correct = _text(schema.find("correctAnswer")).strip(". ").upper()[:1]
        if pron == "her" or len(answers) != 2 or correct not in ("A", "B"):
            drops["wsc: pronoun 'her' or no two candidates"] += 1
            continue
        left, right = en_tokens(_text(schema.find("text/txt1"))), en_tokens(_text(schema.find("text/txt2")))
        answer_words = [en_tokens(a) for a in answers]
        if not all(answer_words):
            continue
        chosen = answer_words["AB".index(correct)]
        if "of" in (w.lower() for w in chosen[:-1]):
            drops["wsc: the referent is one of a group ('one of the tellers': its head word is not the answer)"] += 1
            continue
        if chosen[-1].lower() in ("one", "ones"):  # "we rescued the [ones]", "moving into the [one]" (round 7)
            drops["wsc: the referent's head word is 'one' (the [MASK] would read 'the one')"] += 1
            continue
        if pron not in _POSSESSIVE and chosen[-1].endswith("'s"):  # "Susan's" names Susan
            chosen = [*chosen[:-1], chosen[-1][:-2]]
        # a determiner, or a bare common noun ("daughter"): "the [MASK]"; a name stands alone
        common = chosen[0].lower() in _DETERMINERS or (len(chosen) == 1 and chosen[0].islower())
        answer = chosen[-1] if common else " ".join(chosen)
        start = not left or left[-1] in (".", "!", "?")
        middle = (["The" if start else "the"] if common else []) + ["[MASK]"]
        if pron in _POSSESSIVE:
            middle.append("'s")
        words = left + middle + right
        mask = len(left) + middle.index("[MASK]")
        words[mask] = answer
        heads = []
        for cand in answer_words:
            head = cand[-1].removesuffix("'s")
            hits = [i for i, w in enumerate(left) if w in (head, head + "'s")]
            if hits:
                heads.append(hits[0])
        if len(heads) != 2 or len(set(heads)) != 2:
            drops["wsc: a candidate's head word not in the sentence before the pronoun"] += 1
            continue
        quote1 = en_tokens(_text(schema.find("quote/quote1")))
        quote2 = en_tokens(_text(schema.find("quote/quote2")))
        cue = [len(left) - len(quote1) + i for i, w in enumerate(quote1)
               if left[len(left) - len(quote1):] == quote1 and is_en_content(w)]
        after = len(left) + len(middle)
        cue += [after + i for i, w in enumerate(quote2) if right[:len(quote2)] == quote2 and is_en_content(w)]
        if not cue:
            drops["wsc: the schema's quote (the deciding words) not found in the text"] += 1
            continue
        out.append(Item("en", "semantics", words, mask, sorted(set(heads + cue)), "wsc_referent",
                        {"source": WSC, "schema": number, "correct": correct,
                         "text_sha1": content_hash(" ".join(left + right))}))
    return out


def semantics_items(data_dir: Path, lang: str, drops: Counter[str] | None = None) -> dict[str, list[Item]]:
    if lang != "en":
        return {}
    return {"wsc_referent": wsc_items(data_dir, Counter() if drops is None else drops)}
