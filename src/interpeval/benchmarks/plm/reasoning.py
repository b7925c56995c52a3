"""Reasoning instances from COPA (English) and XCOPA (Chinese): the premise and its correct alternative joined by
their causal connective, and a noun of the alternative masked (not the connective).

"premise because cause ." / "premise , so effect ." ("premise，因为cause。" / "premise，所以effect。"). The masked
word (``copa_repeat``) is a noun of the alternative that **repeats one of the premise's nouns**, where the premise
names at least two things: the causal link decides which of them the alternative is about ("The chandelier
shattered on the floor because the [chandelier] dropped from the ceiling"; "男人向女人表白了，所以那个[女人]拒绝了他"),
so a reader gives one answer. The noun must follow a determiner (English "the/his …"; Chinese 的, 这/那/该/其 … or a
numeral-classifier), so no pronoun fits the slot. A noun the premise lacks is not masked: COPA's alternatives
leave such a slot open — another word or a synonym fits as naturally (canal / ditch, 手电筒 / 蜡烛; round 6 of the
review) — so those items are dropped and counted. Rationale: the content words of the premise, the connective and
the other content words of the alternative.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.words import (
    ROLE_FREE_PERSONS,
    en_tokens,
    is_en_content,
    is_en_filler,
    is_en_function,
    is_zh_content,
    zh_words,
)
from interpeval.errors import DataError
from interpeval.models.lineage import content_hash

SOURCES = {"en": ("plm_rationale/copa/copa-dev.xml",),
           "zh": ("plm_rationale/xcopa/zh/val.zh.jsonl", "plm_rationale/xcopa/zh/test.zh.jsonl")}
CONNECTIVES = {"en": {"cause": ["because"], "effect": [",", "so"]}, "zh": {"cause": ["，", "因为"],
                                                                         "effect": ["，", "所以"]}}
_DETERMINERS = {"the", "a", "an", "his", "her", "my", "their", "our", "your", "its", "some", "this", "that", "no"}
#: Chinese words before a noun that leave no room for a pronoun (那个[女人], 这片[土地], 其[公民])
_ZH_DETERMINERS = ("这", "那", "该", "此", "其", "每")
#: pronouns of the alternative that name a person of the premise, so the masked noun is the other ("he trusted the
#: [therapist]", "the [man] stalked her")
_PERSONAL = {"he", "she", "him", "her", "they", "them", "his", "their"}

#: a demonstrative without a classifier: "苍蝇挤满了那[水果]" takes 桌子 as well (seeds 6263, 9393), where "这片[土地]",
#: "那个[女孩]" choose by their classifier and "她的[手指]" by its owner
_ZH_BARE_DEMONSTRATIVES = ("那", "这", "這")


def _copa_en(path: Path) -> list[tuple[str, str, str, int]]:
    """``(premise, question, correct alternative, item id)`` of every COPA item."""
    try:
        root = ElementTree.fromstring(path.read_bytes())
    except ElementTree.ParseError as err:
        raise DataError(path, f"line {err.position[0]}", f"is not valid XML ({err})") from None
    out = []
    for item in root.findall("item"):
        try:
            question, right = item.attrib["asks-for"], int(item.attrib["most-plausible-alternative"])
            premise, alternative = item.findtext("p"), item.findtext(f"a{right}")
        except (KeyError, ValueError) as err:
            raise DataError(path, f"item {item.attrib.get('id')}", f"is not a COPA item ({err})") from None
        if question not in ("cause", "effect") or not premise or not alternative:
            raise DataError(path, f"item {item.attrib.get('id')}", "needs asks-for cause/effect, p, a1 and a2")
        out.append((premise.strip(), question, alternative.strip(), int(item.attrib.get("id", 0))))
    return out


def _xcopa(path: Path) -> list[tuple[str, str, str, int]]:
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            alternative = row["choice1" if int(row["label"]) == 0 else "choice2"]
            premise, question = row["premise"], row["question"]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
            raise DataError(path, f"line {number}", f"is not an XCOPA record ({err})") from None
        if question not in ("cause", "effect"):
            raise DataError(path, f"line {number}", f"question must be 'cause' or 'effect', got {question!r}")
        out.append((premise.strip(), question, alternative.strip(), number))
    return out


def _en_nouns(words: list[str]) -> list[int]:
    """Nouns of a simple clause: a noun-capable word after a determiner or a possessive ("the woman's ring"),
    directly or across up to two modifiers (adjectives, nouns, -ing participles: "my sleeping friend", "the grape
    juice"; round 8 — these were read as open slots), never across a verb ("his friend got [sick]")."""
    from lemminflect import getAllLemmas

    out = []
    for i, w in enumerate(words):
        if not w.isalpha() or is_en_function(w) or "NOUN" not in getAllLemmas(w.lower()):
            continue  # "her friend": "her" is no noun
        for k in range(1, 4):
            opener = words[i - k].lower() if i - k >= 0 else ""
            between = words[i - k + 1:i]
            if not all(x.isalpha() and not is_en_function(x) and ({"ADJ", "NOUN"} & set(getAllLemmas(x.lower()))
                                                                     or x.lower().endswith("ing"))
                       for x in between):  # "his friend got [sick]": a verb ends the noun phrase
                break
            if opener in _DETERMINERS or opener.endswith(("'s", "’s")) and len(opener) > 2:
                out.append(i)
                break
    return out


def _clauses(lang: str, premise: str, alternative: str) -> tuple[list[str], list[bool], list[str], list[bool],
                                                                  list[int]]:
    """Words and content flags of both clauses (final punctuation dropped), and the alternative's noun indices."""
    from lemminflect import getAllLemmas

    if lang == "en":
        left = en_tokens(premise.rstrip("."))
        right = en_tokens(alternative.rstrip("."))
        if right and right[0] != "I" and (is_en_function(right[0]) or getAllLemmas(right[0].lower())):
            right[0] = right[0].lower()  # COPA's alternatives hold no names: "so people skated", not "so People"
        return (left, [is_en_content(w) for w in left], right, [is_en_content(w) for w in right], _en_nouns(right))
    lp, rp = zh_words(premise.rstrip("。")), zh_words(alternative.rstrip("。"))
    return ([w for w, _ in lp], _zh_content(lp), [w for w, _ in rp],
            _zh_content(rp), [i for i, (_, f) in enumerate(rp) if f.startswith("n")
                              and i and _zh_determined(*rp[i - 1])])


#: negations: "这个男孩[不]喜欢这个新同学" without 不 reads the opposite cause (outside review, seed 4242)
_ZH_NEGATIONS = {"不", "没", "没有", "沒", "沒有", "未", "别", "別", "不要", "不会", "不能", "无法", "無法", "从未", "從未"}


#: words that decide nothing in a cause or effect (outside review, seed 9898: 来吹捧, 哭了起来, 走动时, 很感兴趣, 有着);
#: numerals and classifiers (一张, 一部) are left out by their jieba tags
_ZH_LIGHT = {"来", "起来", "时", "很", "有着", "着"}


def _zh_content(words: list[tuple[str, str]]) -> list[bool]:
    """Content flags of jieba-tagged words, with a negation before a content word and a word jieba tags as a
    preposition but that takes an aspect particle, so a verb ("立法机关[通过]了该法案", seed 4242)."""
    flags = [is_zh_content(w, f) and f not in ("m", "mq", "q") and w not in _ZH_LIGHT for w, f in words]
    for i, (word, flag) in enumerate(words[:-1]):
        negation = word in _ZH_NEGATIONS and flags[i + 1]
        flags[i] = flags[i] or negation or flag == "p" and words[i + 1][0] in ("了", "过", "過", "着", "著")
    return flags


def _zh_determined(word: str, flag: str) -> bool:
    """Whether a noun after ``word`` (jieba tag ``flag``) is determined: 的, a demonstrative, a numeral-classifier."""
    return word.endswith("的") or word.startswith(_ZH_DETERMINERS) or flag in ("m", "q", "mq")


def _premise_nouns(lang: str, premise: list[str]) -> set[str]:
    if lang == "en":
        return {premise[i].lower() for i in _en_nouns(premise)}
    return {w for w, f in zh_words("".join(premise)) if f.startswith("n") and len(w) > 1}


def copa_item(lang: str, premise: str, question: str, alternative: str) -> Item | str:
    """The reasoning item of one COPA/XCOPA pair (``copa_repeat``, see the module doc), or why it is dropped."""
    left, left_content, right, right_content, nouns = _clauses(lang, premise, alternative)
    things = _premise_nouns(lang, left)
    repeated = [i for i in nouns if right[i].lower() in things and len(right[i]) > 1]
    if not repeated:
        return ("reasoning: no determined noun of the alternative repeats the premise's (an open slot: another "
                "word fits as naturally)")
    if len(things) < 2:
        return "reasoning: the premise names one thing (nothing for the causal link to decide)"
    if lang == "zh" and right[repeated[-1] - 1] in _ZH_BARE_DEMONSTRATIVES:
        return ("reasoning: a bare 那/这 before the noun (no classifier tells the premise's nouns apart: "
                "苍蝇挤满了那[水果] / 桌子)")
    if lang == "en" and _either_person(left, right, repeated[-1]):
        return ("reasoning: the masked noun and another noun of the premise both name people (a person's action "
                "of the alternative fits either: 'because the [woman] waved' / the friend)")
    connective = CONNECTIVES[lang][question]
    words = [*left, *connective, *right, "." if lang == "en" else "。"]
    offset = len(left) + len(connective)
    mask = offset + repeated[-1]
    def deciding(words: list[str], content: list[bool]) -> list[int]:  # no "quickly", "Several" (review, seed 4141)
        return [i for i, c in enumerate(content) if c and not (lang == "en" and is_en_filler(words[i]))]

    rationale = (deciding(left, left_content) + [offset - 1]
                 + [offset + i for i in deciding(right, right_content) if offset + i != mask])
    return Item(lang, "reasoning", words, mask, sorted(set(rationale)), "copa_repeat", {"question": question})


def _either_person(premise: list[str], alternative: list[str], masked: int) -> bool:
    """Whether the masked noun of the alternative names a person without a role (:data:`~interpeval.benchmarks.plm.words.ROLE_FREE_PERSONS`) and another
    noun of the premise names a person too (WordNet), so that what the alternative says the person did fits either
    ("The woman spotted her friend … because the [woman] waved": the friend waves as naturally; outside review,
    seed 9393). A role fixes it ("the [patron] was drunk", not the bartender), and so does the alternative's
    wording where it names the other person too ("so the patient filed a lawsuit against the [physician]", "the
    [man] stalked her") or the masked noun is owned ("her [friend]", "the bully's [classmate]")."""
    from interpeval.benchmarks.plm.synonyms import en_names_person

    noun = alternative[masked].lower()
    if noun not in ROLE_FREE_PERSONS:
        return False
    others = {premise[i].lower() for i in _en_nouns(premise)} - {noun}
    people = {w for w in others if en_names_person(w)}
    if not people:
        return False
    owner = alternative[masked - 1].lower() if masked else ""
    def names_a_person(k: int, word: str) -> bool:  # "her hand" is the owner's, not another person (review)
        low = re.sub(r"['’]s$", "", word.lower())
        possessive = low in _PERSONAL and k + 1 < len(alternative) and is_en_content(alternative[k + 1])
        return low in people or low in _PERSONAL and not possessive

    named_again = any(names_a_person(k, w) for k, w in enumerate(alternative) if k != masked)
    return not (named_again or owner in ("his", "her", "their", "my", "our", "your")
                or owner.endswith(("'s", "’s")) and len(owner) > 2)


def reasoning_items(data_dir: Path, lang: str, drops: Counter[str] | None = None) -> dict[str, list[Item]]:
    drops = Counter() if drops is None else drops
    out = []
    for rel in SOURCES[lang]:
        path = data_dir / rel
        for premise, question, alternative, number in (_copa_en(path) if lang == "en" else _xcopa(path)):
            item = copa_item(lang, premise, question, alternative)
            if isinstance(item, str):
                drops[item] += 1
                continue
            item.provenance.update({"source": rel, "line": number, "text_sha1": content_hash(premise)})
            out.append(item)
    return {"copa_repeat": out}
