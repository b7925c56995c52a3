"""Grammar instances from UD treebanks: a word whose form agreement or government fixes, masked; the rationale is
read off the tree (silver, one rule per construction).

English (EWT): ``verb_agreement`` — a finite be/have/do form, rationale the subject head with its determiners,
numerals and conjuncts; ``noun_number`` — a noun whose number a determiner or numeral marks, rationale that word;
``reflexive_antecedent`` — a reflexive pronoun, rationale the subject of its clause (its antecedent; for a
relative pronoun the noun it refers to).
Chinese (GSD, traditional script): ``classifier`` — a measure word, rationale the noun it counts and the numeral;
``de_particle`` — 的/地/得, rationale the modifier it marks and the word modified.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.words import ud_item
from interpeval.benchmarks.probing.conllu_reader import Sentence, read_conllu

SOURCES = {"en": ("ud/UD_English-EWT/en_ewt-ud-dev.conllu", "ud/UD_English-EWT/en_ewt-ud-test.conllu"),
           "zh": ("ud/UD_Chinese-GSD/zh_gsd-ud-dev.conllu", "ud/UD_Chinese-GSD/zh_gsd-ud-test.conllu")}
_AGREEING = {"is", "are", "was", "were", "has", "have", "does", "do", "am"}
_NUMBER_DETS = {"this", "these", "that", "those", "a", "an", "every", "each", "many", "several", "few", "both",
                "another", "one"}
_SUBJECTS = ("nsubj", "nsubj:pass")
MAX_WORDS = {"en": 40, "zh": 60}


def _children(sentence: Sentence, wid: int) -> list[int]:
    return sentence.children[wid]


def _word(sentence: Sentence, wid: int) -> tuple:
    return sentence.words[wid - 1]


def _verb_agreement(s: Sentence) -> Iterator[tuple[int, list[int], str]]:
    for wid, form, upos, feats, head, deprel, _ in s.words:
        if form.lower() not in _AGREEING or upos not in ("AUX", "VERB") or feats.get("VerbForm") != "Fin":
            continue
        holder = head if deprel in ("aux", "cop", "aux:pass") else wid
        subjects = [c for c in _children(s, holder) if _word(s, c)[5] in _SUBJECTS]
        if len(subjects) != 1:
            continue
        subj = subjects[0]
        sform, supos, sfeats = _word(s, subj)[1:4]
        if supos not in ("NOUN", "PROPN", "PRON") or "Number" not in sfeats or sfeats.get("PronType") == "Rel":
            continue
        if subj > wid:  # inverted questions and existentials: the agreement cue follows the verb
            continue
        markers = [c for c in _children(s, subj) if _word(s, c)[5] in ("det", "nummod", "conj")]
        yield wid, [subj, *markers], "verb_agreement"


def _noun_number(s: Sentence) -> Iterator[tuple[int, list[int], str]]:
    for wid, _form, upos, feats, _head, _deprel, _ in s.words:
        if upos != "NOUN" or "Number" not in feats:
            continue
        cues = [c for c in _children(s, wid)
                if (_word(s, c)[5] == "det" and _word(s, c)[1].lower() in _NUMBER_DETS)
                or (_word(s, c)[5] == "nummod" and _word(s, c)[2] == "NUM")]
        if len(cues) == 1 and cues[0] < wid:
            yield wid, cues, "noun_number"


def _reflexive(s: Sentence) -> Iterator[tuple[int, list[int], str]]:
    for wid, _form, upos, feats, head, _deprel, _ in s.words:
        if upos != "PRON" or feats.get("Reflex") != "Yes" or head == 0:
            continue
        subjects = [c for c in _children(s, head) if _word(s, c)[5] in _SUBJECTS and c < wid]
        if len(subjects) != 1:
            continue
        antecedent = subjects[0]
        if _word(s, antecedent)[3].get("PronType") == "Rel":  # "books that speak for themselves": the noun
            clause = _word(s, head)
            if clause[5] != "acl:relcl" or clause[4] == 0:
                continue
            antecedent = clause[4]
        yield wid, [antecedent], "reflexive_antecedent"


def _classifier(s: Sentence) -> Iterator[tuple[int, list[int], str]]:
    for wid, _form, _upos, _feats, head, deprel, _ in s.words:
        if deprel != "clf" or head == 0:
            continue
        numeral = _word(s, head)
        noun = numeral[4]
        if noun == 0 or _word(s, noun)[2] not in ("NOUN", "PROPN") or noun < wid:
            continue
        yield wid, [head, noun], "classifier"


def _de_particle(s: Sentence) -> Iterator[tuple[int, list[int], str]]:
    for wid, form, _upos, _feats, head, deprel, _ in s.words:
        if form not in ("的", "地", "得") or deprel not in ("case", "mark:rel", "mark:adv", "compound:ext"):
            continue
        if head == 0:
            continue
        if deprel == "compound:ext":  # 得: the verb (head) and its complement
            rationale = [head, *[c for c in _children(s, head) if _word(s, c)[5] in ("xcomp", "advmod") and c > wid]]
        else:  # 的/地: the modifier (head) and the word it modifies
            modified = _word(s, head)[4]
            rationale = [head] + ([modified] if modified > wid else [])
        if len(rationale) >= 2:
            yield wid, rationale, "de_particle"


RULES = {"en": (_verb_agreement, _noun_number, _reflexive), "zh": (_classifier, _de_particle)}


def grammar_items(data_dir: Path, lang: str) -> dict[str, list[Item]]:
    """Candidate items per rule, in file order, at most one per sentence and rule."""
    out: dict[str, list[Item]] = {}
    for rel in SOURCES[lang]:
        path = data_dir / rel
        for sentence in read_conllu(path):
            if len(sentence.words) > MAX_WORDS[lang] or len(sentence.words) < 4:
                continue
            for rule in RULES[lang]:
                for mask, rationale, name in rule(sentence):
                    prov = {"source": rel, "line": sentence.line, "sent_id": sentence.metadata.get("sent_id")}
                    out.setdefault(name, []).append(ud_item(sentence, lang, "grammar", mask, rationale, name, prov))
                    break
    return out
