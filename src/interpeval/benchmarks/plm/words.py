"""Words for the builder: English tokens, Chinese words with jieba, content words, numbers, UD sentences as items."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from interpeval.benchmarks.plm.records import Item
from interpeval.models.lineage import content_hash

_EN_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|\w+(?:[-'’]\w+)*|[^\w\s]")
_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
          "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
NUMBER_WORDS = {w: float(i) for i, w in enumerate(_UNITS)}
NUMBER_WORDS.update({"thirty": 30.0, "forty": 40.0, "fifty": 50.0, "hundred": 100.0, "thousand": 1000.0,
                     "twice": 2.0, "double": 2.0, "triple": 3.0, "half": 0.5, "quarter": 0.25, "dozen": 12.0})
#: jieba POS tags of content words (nouns, verbs, adjectives, numerals, names, foreign words)
_ZH_CONTENT = ("n", "v", "a", "m", "eng", "t", "s", "j", "i", "l")


def en_tokens(text: str) -> list[str]:
    """English words and punctuation (numbers with thousands separators stay whole)."""
    return _EN_TOKEN.findall(text)


@lru_cache(maxsize=1)
def _jieba() -> Any:
    import logging

    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    return jieba.posseg


def zh_words(text: str) -> list[tuple[str, str]]:
    """Chinese words with their jieba POS tags (whitespace dropped)."""
    return [(p.word, p.flag) for p in _jieba().lcut(text) if p.word.strip()]


@cache
def word_list(name: str) -> frozenset[str]:
    """The lower-cased words of the task's list ``data/plm/<name>.txt`` (one a line, ``#`` comments)."""
    from importlib.resources import files

    text = files("interpeval.data").joinpath(f"plm/{name}.txt").read_text(encoding="utf-8")
    return frozenset(w.strip().lower() for w in text.splitlines() if w.strip() and not w.startswith("#"))


def function_words(lang: str) -> frozenset[str]:
    """The task's function-word list of ``lang`` (``data/plm/function_words_<lang>.txt``: grammar words only, so
    cue words such as "full", "off", "first" count as content)."""
    return word_list(f"function_words_{lang}")


def is_en_content(word: str) -> bool:
    """Not an English function word and made of letters or digits."""
    return word.lower() not in function_words("en") and any(c.isalnum() for c in word)


def is_en_function(word: str) -> bool:
    return word.lower() in function_words("en")


#: words that turn a clause round ("repetition of a digit is [not] permitted"): never left out of a rationale
_EN_NEGATIONS = {"not", "n't", "no", "never", "without", "cannot", "nothing", "nobody", "none", "nor", "neither"}


def is_en_negation(word: str) -> bool:
    """A negation, also when it is written into its verb ("didn't", "can't")."""
    low = word.lower()
    return low in _EN_NEGATIONS or low.endswith(("n't", "n’t"))


def is_en_plural(noun: str) -> bool:
    """Whether ``noun`` is a plural in -s: its noun lemma is another word ("tellers", not "news" or "bus")."""
    from lemminflect import getAllLemmas

    return noun.endswith("s") and getAllLemmas(noun).get("NOUN", (noun,))[0] != noun


def is_zh_content(word: str, flag: str) -> bool:
    """A jieba content tag (nouns, verbs, adjectives, numerals, names …) on a word not in the function-word list."""
    return flag.startswith(_ZH_CONTENT) and word not in function_words("zh")


def has_cjk(word: str) -> bool:
    return bool(_CJK.search(word))


def numbers_in(text: str) -> list[float]:
    """Every number written with digits in ``text`` (unsigned: "3-36" is a subtraction; thousands separators
    allowed), and English number words."""
    values = [float(m.replace(",", "")) for m in _NUMBER.findall(text)]
    values += [NUMBER_WORDS[w] for w in re.findall(r"[a-z]+", text.lower()) if w in NUMBER_WORDS]
    return values


def integer_answer(value: Any) -> str | None:
    """The answer as an integer string when it is a whole number, else None."""
    try:
        number = float(str(value).replace(",", ""))
    except ValueError:
        return None
    return str(int(number)) if number.is_integer() and abs(number) < 1e7 else None


def ud_item(sentence: Any, lang: str, dimension: str, mask_id: int, rationale_ids: list[int], rule: str,
            provenance: dict[str, Any]) -> Item:
    """An item from a UD sentence (``interpeval.benchmarks.conllu.Sentence``); ids are CoNLL-U word ids (1-based)."""
    words = [w[1] for w in sentence.words]
    provenance = {**provenance, "text_sha1": content_hash(sentence.surface())}
    tree = [(w[4] - 1, w[5], w[2], dict(w[3])) for w in sentence.words]
    return Item(lang, dimension, words, mask_id - 1, sorted({i - 1 for i in rationale_ids}), rule, provenance,
                tree=tree)


#: adverbs of time and discourse that decide nothing ("Soon he saw Carl", "was immediately taken")
_FILLERS = {"soon", "now", "then", "already", "just", "also", "even", "again", "still", "ever", "yet", "here",
            "there", "finally", "eventually", "suddenly", "immediately", "really", "actually", "greatly",
            "several", "certain"}  # "[Several] suspects", "a [certain] number" (review, seed 4141)


def is_en_filler(word: str) -> bool:
    """An adverb that decides nothing: of time or discourse ("soon", "immediately"), or one lemminflect knows
    only as an adverb in -ly ("greatly"). Degree words ("too", "very", "so") and negations are no fillers."""
    from lemminflect import getAllLemmas

    low = word.lower()
    return low in _FILLERS or low.endswith("ly") and set(getAllLemmas(low)) == {"ADV"}


#: person nouns that say nothing of a role ("the woman", not "the patron"): what a COPA alternative says such a
#: person did, another person of the premise may do as naturally; a WSC predicate noun of this kind is no cue
ROLE_FREE_PERSONS = {"man", "men", "woman", "women", "boy", "boys", "girl", "girls", "child", "children", "kid",
                     "kids", "person", "people", "friend", "friends", "guy", "lady", "gentleman", "stranger",
                     "neighbor"}
