"""Semantics instances: Winograd schemas (English) and entity–property sentences from UD (English and Chinese).

``wsc_referent``: the schema's pronoun becomes "the [MASK]" (or "[MASK]" for a name), the answer is the correct
candidate's head word; the rationale is both candidates' head words and the content words of the schema's quote
(the words that decide the referent). Possessive pronouns become "[MASK] 's"; ambiguous "her" is skipped.
WSC exists only in English (no Chinese WSC is among the sources).
``entity_property``: an adjective that modifies a noun (amod) or is predicated of a subject, masked; the rationale
is the noun it describes.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

from interpeval.benchmarks.plm.grammar import MAX_WORDS
from interpeval.benchmarks.plm.grammar import SOURCES as UD_SOURCES
from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.words import en_tokens, is_en_content, text_hash, ud_item
from interpeval.benchmarks.probing.conllu_reader import Sentence, read_conllu
from interpeval.errors import DataError

WSC = "plm_rationale/wsc/WSCollection.xml"
_DETERMINERS = {"the", "a", "an", "his", "her", "their", "my", "our", "its"}
_POSSESSIVE = {"his", "their", "its"}


def _text(node: ElementTree.Element | None) -> str:
    return " ".join((node.text or "").split()) if node is not None else ""


def wsc_items(data_dir: Path) -> list[Item]:
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
            continue
        left, right = en_tokens(_text(schema.find("text/txt1"))), en_tokens(_text(schema.find("text/txt2")))
        answer_words = [en_tokens(a) for a in answers]
        if not all(answer_words):
            continue
        chosen = answer_words["AB".index(correct)]
        common = chosen[0].lower() in _DETERMINERS
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
            head = cand[-1]
            hits = [i for i, w in enumerate(left) if w == head]
            if hits:
                heads.append(hits[0])
        if len(heads) != 2:
            continue
        quote1 = en_tokens(_text(schema.find("quote/quote1")))
        quote2 = en_tokens(_text(schema.find("quote/quote2")))
        cue = [len(left) - len(quote1) + i for i, w in enumerate(quote1)
               if left[len(left) - len(quote1):] == quote1 and is_en_content(w)]
        after = len(left) + len(middle)
        cue += [after + i for i, w in enumerate(quote2) if right[:len(quote2)] == quote2 and is_en_content(w)]
        out.append(Item("en", "semantics", words, mask, sorted(set(heads + cue)), "wsc_referent",
                        {"source": WSC, "schema": number, "correct": correct,
                         "text_sha1": text_hash(" ".join(left + right))}))
    return out


def _entity_property(s: Sentence) -> Iterator[tuple[int, list[int]]]:
    for wid, _form, upos, _feats, head, deprel, _ in s.words:
        if upos != "ADJ":
            continue
        if deprel == "amod" and head and s.words[head - 1][2] == "NOUN":
            yield wid, [head]
            continue
        subjects = [c for c in s.children[wid] if s.words[c - 1][5] == "nsubj" and s.words[c - 1][2] == "NOUN"]
        if len(subjects) == 1:
            yield wid, subjects


def entity_property_items(data_dir: Path, lang: str) -> list[Item]:
    out = []
    for rel in UD_SOURCES[lang]:
        for sentence in read_conllu(data_dir / rel):
            if not 4 <= len(sentence.words) <= MAX_WORDS[lang]:
                continue
            for mask, rationale in _entity_property(sentence):
                prov = {"source": rel, "line": sentence.line, "sent_id": sentence.metadata.get("sent_id")}
                out.append(ud_item(sentence, lang, "semantics", mask, rationale, "entity_property", prov))
                break
    return out


def semantics_items(data_dir: Path, lang: str) -> dict[str, list[Item]]:
    items = {"entity_property": entity_property_items(data_dir, lang)}
    if lang == "en":
        items["wsc_referent"] = wsc_items(data_dir)
    return items
