"""Semantics instances: Winograd schemas (English).

``wsc_referent``: the schema's pronoun becomes "the [MASK]" (or "[MASK]" for a name), the answer is the correct
candidate's head word; the rationale is both candidates' head words, the content words of the schema's quote
(the words that decide the referent, e.g. "full" in "… because he was full") and the words by which the schema
differs from its twin ("research" / "childhood"; the twin is the closest neighbour with the same candidates and
the other answer), or without a twin the candidates' own words ("the heavy book"). Every candidate also brings the
words relating it to its predicate ("Beth didn't get angry with Sally", "the ball crashed through the table",
"the judges couldn't figure out"), less setting phrases ("through the park", "at the party"): without them the
candidates could swap (round 9; for things too since round 9c). Fillers (adverbs such as "immediately", "soon")
and intensifiers ("very", "right") are never marked, unless the twin differs by them; a manner adverb of the quote
("behaving so strangely") is the cue and stays. Possessive pronouns become
"[MASK] 's"; "her" (object or possessive) is dropped. Entity–property items from UD (an adjective of a noun) were
dropped: a noun admits many adjectives, so no reader can give the one answer. No Chinese source fixes a word by
meaning alone (no Chinese WSC is among the sources), so Chinese has no semantics dimension.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher
from pathlib import Path
from xml.etree import ElementTree

from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.synonyms import en_noun_senses, wn_reaches
from interpeval.benchmarks.plm.words import (
    ROLE_FREE_PERSONS,
    en_tokens,
    is_en_content,
    is_en_filler,
    is_en_negation,
    is_en_plural,
)
from interpeval.errors import DataError
from interpeval.models.lineage import content_hash

WSC = "plm_rationale/wsc/WSCollection.xml"
_DETERMINERS = {"the", "a", "an", "his", "her", "their", "my", "our", "its", "this", "that", "these", "those"}
_POSSESSIVE = {"his", "their", "its"}
#: pronouns that stand for one thing: a referent whose head word is plural is one of a group ("He" → "the tellers")
_SINGULAR = {"he", "she", "it", "him", "his", "its"}
_BE = {"is", "was", "are", "were"}
_PRONOUNS = {"he", "she", "it", "him", "her", "they", "them", "his", "its", "their", "we", "us", "i", "me", "you"}
#: a preposition inside the referent: its head word is not its last word ("a spot under the tree": not the tree)
_PREPOSITIONS = {"of", "under", "in", "on", "at", "with", "from", "near", "by", "behind", "above", "below", "over",
                 "for", "into", "beside", "between"}
#: words that tie a candidate to its predicate although they are function words ("angry [with]", "biography [of]",
#: "threw … down [to]"): kept after a marked word of the predicate
_TIES = _PREPOSITIONS | {"to", "about", "through", "onto", "across", "against", "toward", "towards", "than",
                         "around", "off", "out", "up", "down", "back", "away"}
#: words that end a candidate's predicate: punctuation aside, the openers of another clause
_CLAUSE_OPENERS = {"because", "while", "but", "so", "although", "though", "since", "when", "after", "before",
                   "until", "if", "as", "that", "who", "whom", "whose", "which", "where", "what", "and", "or", "then"}
#: degree words that only strengthen ("[very] persistent", "crashed [right] through", "[very much] in the minority"):
#: marked only where the schema differs from its twin by them (round 9c; "too" and "more" decide, so they stay)
_INTENSIFIERS = {"very", "so", "much", "really", "extremely", "quite", "right", "just", "pretty", "rather", "only"}
#: a quantity before "of" and a candidate: "stabbed [one of] the tellers" holds no relation (seed 9797: filler)
_QUANTITIES = {"one", "some", "all", "each", "most", "both", "none", "any", "many", "few"}
#: verbs that only set a scene when their phrase is a setting: "walked into the bank", "started at 4",
#: "jogging through the park" (outside reviews, seeds 8181 / 9797: filler); "collapsed on the sidewalk" stays
_SETTING_VERBS = {"walk", "go", "come", "get", "jog", "start", "run", "drive", "travel", "return"}
#: WordNet 3.0 synsets of a setting — location, structure, way, social event, happening, time period (round 9c),
#: institution and geological formation ("into the [bank]", "at the [beach]", round 9d): a phrase "through the
#: [park]", "at the [party]", "to the town [hall]" around a predicate holds no candidate
_WN_SETTINGS = {"00027167", "04341686", "04564698", "07288639", "07283608", "15113229", "08053576", "09287968"}
_WN_LIVING_THING = "00004258"
#: how alike a neighbouring schema must read to be the twin (SequenceMatcher ratio of the words)
_TWIN_SIMILARITY = 0.6


def _text(node: ElementTree.Element | None) -> str:
    return " ".join((node.text or "").split()) if node is not None else ""


def wsc_items(data_dir: Path, drops: Counter[str]) -> list[Item]:
    path = data_dir / WSC
    try:
        root = ElementTree.fromstring(path.read_bytes())
    except ElementTree.ParseError as err:
        raise DataError(path, f"line {err.position[0]}", f"is not valid XML ({err})") from None
    schemas = root.findall("schema")
    out = []
    for number, schema in enumerate(schemas):
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
        why = _unfit_referent(chosen, pron)
        if why:
            drops[why] += 1
            continue
        if chosen[-1].lower() in ("one", "ones"):  # "we rescued the [ones]", "moving into the [one]" (round 7)
            drops["wsc: the referent's head word is 'one' (the [MASK] would read 'the one')"] += 1
            continue
        if pron not in _POSSESSIVE and chosen[-1].endswith("'s"):  # "Susan's" names Susan
            chosen = [*chosen[:-1], chosen[-1][:-2]]
        # a determiner, or a bare common noun ("daughter"): "the [MASK]"; a name's possessive stays before the head
        # ("Pam's [parents]", not "[Pam's parents]": the whole phrase reads as written for a pronoun, round 7c);
        # a name stands alone
        owner = len(chosen) == 2 and chosen[0][:1].isupper() and chosen[0].endswith("'s")
        if owner and any(cand[-1].endswith("'s") for cand in answer_words if cand is not chosen):
            drops["wsc: the candidates differ by their owner ('Sam's drawing' / 'Tina's'): the owner is the "
                  "answer, not a noun"] += 1
            continue
        common = chosen[0].lower() in _DETERMINERS or (len(chosen) == 1 and chosen[0].islower())
        answer = chosen[-1] if common or owner else " ".join(chosen)
        start = not left or left[-1] in (".", "!", "?")
        middle = (["The" if start else "the"] if common else [chosen[0]] if owner else []) + ["[MASK]"]
        if pron in _POSSESSIVE:
            middle.append("'s")
        words = left + middle + right
        mask = len(left) + middle.index("[MASK]")
        words[mask] = answer
        heads = []
        heads_words = [cand[-1].removesuffix("'s") for cand in answer_words]
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
        special = [i if i < len(left) else after + i - len(left) - 1
                   for i in _special_words(schemas, number) if i != len(left)]
        cue = [i for i in cue if i in special or not is_en_filler(words[i]) or _is_manner(words, i)]
        # a twin that differs only by the tense of "be" ("Fred [is] a remarkable man" / "He [was] …"): the words
        # both share ("remarkable man") decide nothing (seed 9797: filler)
        if _tense_twin(schemas, number):
            cue = [i for i in cue if i in special]
        near = _last_clause(left)
        conditional = near if near and left[near - 1].lower() == "if" else None
        relation = _relation_words(left, [cand[-1].removesuffix("'s") for cand in answer_words],
                                   {w.lower() for cand in answer_words for w in cand[:-1] if is_en_content(w)}, conditional)
        # the clause just before the pronoun, without a candidate and negated, is the cue: "but there was [no
        # answer]" (seed 9797), "I [couldn't hear]"; a noun the pronoun's clause relates to: "all the [help] Susan had given"
        if not any(w in heads_words or w.removesuffix("'s") in heads_words for w in left[near:]) \
                and any(is_en_negation(w.lower()) for w in left[near:]):
            relation += [j for j in range(near, len(left)) if is_en_negation(left[j].lower())
                         or is_en_content(left[j]) and not is_en_filler(left[j])]
        if len(left) > 2 and left[-2].lower() in _DETERMINERS and is_en_content(left[-1]) \
                and left[-3][:1].islower() and left[-3] not in _CLAUSE_OPENERS | _PREPOSITIONS:
            relation.append(len(left) - 1)
        own = [] if special else _candidate_words(left, heads, answer_words)  # no twin: "the [heavy] book"
        marked = {i for i in heads + own + cue + special + relation
                  if i in special or words[i].lower() not in _INTENSIFIERS}
        out.append(Item("en", "semantics", words, mask, sorted(marked), "wsc_referent",
                        {"source": WSC, "schema": number, "correct": correct,
                         "text_sha1": content_hash(" ".join(left + right))}))
    return out


def _schema_words(schema: ElementTree.Element) -> list[str]:
    return [*en_tokens(_text(schema.find("text/txt1"))), _text(schema.find("text/pron")).lower(),
            *en_tokens(_text(schema.find("text/txt2")))]


def _special_words(schemas: list[ElementTree.Element], number: int) -> list[int]:
    """Positions (in txt1 + pron + txt2) of the words by which schema ``number`` differs from its twin — the
    neighbouring schema with the same two candidates and the other answer ("… because of his [childhood]" /
    "… his [research]"). The quote does not always hold them, and without them the rationale is the same for both
    twins, so it cannot fix the answer (independent review, seed 9393). None without a twin."""
    def candidates(schema: ElementTree.Element) -> list[str]:
        return sorted(_text(a).lower() for a in schema.findall("answers/answer"))

    def answer(schema: ElementTree.Element) -> str:
        return _text(schema.find("correctAnswer")).strip(". ").upper()[:1]

    this = schemas[number]
    mine = _schema_words(this)
    twins = []
    for other in (number + 1, number - 1):
        if 0 <= other < len(schemas) and candidates(schemas[other]) == candidates(this) \
                and answer(schemas[other]) != answer(this):
            theirs = _schema_words(schemas[other])
            twins.append(SequenceMatcher(None, [w.lower() for w in mine], [w.lower() for w in theirs], autojunk=False))
    # the most similar neighbour, and only a close one: "John was doing research in the library …" is no twin of
    # "John was jogging through the park …" although both name John and a man (round 9c)
    matcher = max(twins, key=SequenceMatcher.ratio, default=None)
    if matcher is None or matcher.ratio() < _TWIN_SIMILARITY:
        return []
    return [i for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal" for i in range(i1, i2)
            if mine[i][:1].isalnum() and mine[i].lower() not in _DETERMINERS]


def _tense_twin(schemas: list[ElementTree.Element], number: int) -> bool:
    """Whether schema ``number`` differs from its neighbour with the same candidates only by the tense of "be"
    (besides the pronoun): "Fred is the only man still alive … He [is] / [was] a remarkable man"."""
    mine = [w.lower() for w in _schema_words(schemas[number])]
    for other in (number + 1, number - 1):
        if 0 <= other < len(schemas):
            theirs = [w.lower() for w in _schema_words(schemas[other])]
            diff = [(mine[i1:i2], theirs[j1:j2]) for tag, i1, i2, j1, j2
                    in SequenceMatcher(None, mine, theirs, autojunk=False).get_opcodes() if tag != "equal"]
            if diff and all(len(a) == len(b) == 1 and {a[0], b[0]} <= _BE | _PRONOUNS for a, b in diff) \
                    and any(a[0] in _BE for a, _ in diff):
                return True
    return False


def _candidate_words(left: list[str], heads: list[int], candidates: list[list[str]]) -> list[int]:
    """Positions of the content words of each candidate as the schema writes it, before its head: "the [heavy]
    book". Used where no twin with the same candidates is found (round 9c: the twin of "the heavy book" is "the
    butterfly wing", and "book table broke" fits either); where one is, its differences decide ("brown" suitcase
    stays out)."""
    out = []
    for cand in candidates:
        head = cand[-1].removesuffix("'s")
        hit = next(h for h in heads if left[h] in (head, head + "'s"))
        out += [hit - len(cand) + 1 + k for k, w in enumerate(cand[:-1])
                if hit - len(cand) + 1 + k >= 0 and left[hit - len(cand) + 1 + k] == w and is_en_content(w)]
    return out


def _is_manner(words: list[str], i: int) -> bool:
    """An adverb in -ly after its verb (a degree word between): "was behaving so [strangely]" — the deciding cue of
    the quote, not a filler like "was immediately taken" (round 9c)."""
    j = i - 1 - (i > 0 and words[i - 1].lower() in _INTENSIFIERS | {"too"})
    return j >= 0 and _is_verb(words[j])


def _is_setting(noun: str) -> bool:
    """Whether one of ``noun``'s first four WordNet senses is a place, building, way, social event, happening or
    time period ("park", "party", "hall", "time") and its first is no living thing: a phrase of it that holds no
    candidate is a setting."""
    senses = en_noun_senses(noun)
    if not senses or wn_reaches(senses[:1], {_WN_LIVING_THING}):  # "chickens", not the game of chicken
        return False
    return wn_reaches(senses[:4], _WN_SETTINGS)


def _is_verb_form(word: str) -> bool:
    """An inflected verb ("stabbed", "counted"): what follows "and" in a shared-subject predicate."""
    from lemminflect import getAllLemmas

    verb = getAllLemmas(word.lower()).get("VERB")
    return bool(verb) and verb[0] != word.lower()


def _lemma(word: str) -> str:
    from lemminflect import getAllLemmas

    return getAllLemmas(word.lower()).get("VERB", ("",))[0]


def _is_verb(word: str) -> bool:
    from lemminflect import getAllLemmas

    return is_en_content(word) and "VERB" in getAllLemmas(word.lower())


def _is_adjective(word: str) -> bool:
    """Only an adjective ("the [large] ball"): it stands between a subject and its article."""
    from lemminflect import getAllLemmas

    return set(getAllLemmas(word.lower())) == {"ADJ"}


def _relation_words(left: list[str], heads: list[str], modifiers: set[str] = frozenset(), near: int | None = None
                    ) -> list[int]:
    """Positions in ``left`` (the text before the pronoun) of the words relating each mention of a candidate to
    its predicate: forward to the end of its clause (verbs, particles, the preposition tying the other candidate,
    negations, a possessed noun: "Beth [didn't get angry with] Sally", "Cooper's [grave]"; content words between
    that preposition and the other candidate are its modifiers and stay out: "biography [of] the Spartan general
    Xenophanes"), and backward the preposition and verb that govern it ("he [saw] Carl", "[put] the heavy book":
    the candidates' own ``modifiers`` are skipped). Fillers and settings stay out, and so do the "to" of an
    infinitive, "make sure" and a quantity "one of" (round 9d). A mention in a conditional clause just before the
    pronoun (from ``near`` on) is marked itself and keeps its settings: "If [Bob] had [left home for work on time]" (seeds
    4141 / 9797: the cue). Why: the candidates alone could swap (outside reviews, seed 1010: 9/20 for people; seeds
    4141 / 8181 for things: "ball table made steel")."""
    mentions = [i for i, w in enumerate(left) if w in heads or w.removesuffix("'s") in heads]
    out: set[int] = set()
    for h in mentions:
        governed = False
        for j in range(h - 1, max(h - 4, -1), -1):  # "he [saw] Carl", "changed it [to] Tina"
            low = left[j].lower()
            if low in _DETERMINERS or left[j] == '"' or low in modifiers:  # "[put] the heavy book"
                continue
            if low in _TIES:
                if not _is_light(left, j):  # "stabbed one of the tellers"
                    out.add(j)
                governed = True
                continue
            # a verb, not a modifier that can be one ("the [brown] suitcase", "the [school] bus"): no article before
            if j not in mentions and left[j][:1].islower() and _is_verb(left[j]) and (
                    j == 0 or left[j - 1].lower() not in _DETERMINERS):
                out.add(j)
                governed = True
            break
        if left[h].endswith("'s") or h + 1 < len(left) and left[h + 1] in ("'s", "’s"):  # "Cooper's [grave]"
            owned = h + 1 + (not left[h].endswith("'s"))
            out.update(j for j in range(owned, min(owned + 2, len(left))) if is_en_content(left[j]))
        if not _opens_clause(left, h) and not (governed and _small_clause(left, h)):
            continue  # an object or an apposition ("the Spartan general Xenophanes"): no predicate of its own
        stop = next((j for j in range(h + 1, len(left))
                     if not left[j][:1].isalnum() and left[j] != '"' or j in mentions
                     or left[j].lower() in _CLAUSE_OPENERS
                     and not (left[j].lower() == "and" and j + 1 < len(left) and _is_verb_form(left[j + 1]))),
                    len(left))
        begin = h + 1
        # the subject's own phrase: "the sponsors [of the bill] got", "the painting [in Mark's living room] shows"
        if _opens_clause(left, h) and begin < stop and left[begin].lower() in _PREPOSITIONS:
            begin = next((j for j in range(begin + 1, stop) if _is_verb_form(left[j]) and not (  # not "Mark's living"
                left[j - 1].endswith("'s") or left[j - 1].lower() in _DETERMINERS)), begin)
        kept: list[int] = []
        for j in range(begin, min(stop, begin + 8)):
            low = left[j].lower()
            if (is_en_negation(low) or low in _TIES and kept and kept[-1] == j - 1 and not _infinitive(left, j)
                    or is_en_content(left[j]) and left[j] != '"' and not is_en_filler(left[j])):
                kept.append(j)
        if stop < len(left) and stop in mentions:  # the other candidate ends the clause
            ties = [j for j in kept if left[j].lower() in _TIES  # not the "to" of an infinitive ("start to [read]")
                    and not (left[j].lower() == "to" and j + 1 < stop and _is_verb(left[j + 1]))]
            if ties:  # "of the [Spartan general] Xenophanes": modifiers of the other candidate stay out
                kept = [j for j in kept if j <= ties[-1]]
            elif kept and left[stop - 1].lower() in _TIES:
                kept.append(stop - 1)  # "Jim yelled [at] Kevin"
        kept = [j for j in kept if not _is_light(left, j)]
        if near is not None and h >= near:
            out.update([h, *kept])
        else:
            out.update(_without_settings(left, kept, stop))
    return sorted(out)


def _last_clause(words: list[str]) -> int:
    """Where the last clause of ``words`` (the text before the pronoun) begins: after the punctuation mark or clause
    opener before it; trailing ones ("… answer .", "… , because") are skipped."""
    end = len(words)
    while end and (not words[end - 1][:1].isalnum() or words[end - 1].lower() in _CLAUSE_OPENERS):
        end -= 1
    return next((j + 1 for j in range(end - 1, -1, -1)
                 if not words[j][:1].isalnum() and words[j] != '"' or words[j].lower() in _CLAUSE_OPENERS), 0)


def _infinitive(words: list[str], j: int) -> bool:
    """The "to" of an infinitive: "arrives to [replace]", "went out to [buy]" (seed 9797: "to" is filler)."""
    return words[j].lower() == "to" and j + 1 < len(words) and words[j + 1][:1].islower() and _is_verb(words[j + 1])


def _is_light(words: list[str], j: int) -> bool:
    """A word that relates nothing: "[made sure] to thank", a quantity "[one of] the tellers", a predicate noun
    without a role "is the only [man]" (seed 9797)."""
    low = words[j].lower()
    nxt = words[j + 1].lower() if j + 1 < len(words) else ""
    prev = words[j - 1].lower() if j > 0 else ""
    if low in ROLE_FREE_PERSONS:  # "Fred is the only [man] still alive": a predicate noun that names no role
        k = next((k for k in range(j - 1, -1, -1) if words[k].lower() not in _DETERMINERS | _INTENSIFIERS), -1)
        if k >= 0 and words[k].lower() in _BE | {"be", "been"}:
            return True
    return (_lemma(low) == "make" and nxt == "sure" or low == "sure" and _lemma(prev) == "make"
            or low in _QUANTITIES and nxt == "of" or low == "of" and prev in _QUANTITIES)


def _without_settings(words: list[str], kept: list[int], stop: int) -> list[int]:
    """``kept`` less each phrase of a preposition whose noun is a setting or a name and no candidate: "jogging
    [through the park]", "barking [at the party]", "got [to the town hall]" (outside review, seed 8181: filler),
    "lived [in Laputa]", and a time "[20,000 years ago]". The window ends
    before a candidate (``stop``), so a phrase of a candidate keeps its preposition ("crashed [through] the table")."""
    out = list(kept)
    for j in kept:
        if words[j].lower() not in _TIES - {"out", "up", "down", "back", "away", "off"} \
                or words[j].lower() == "to" and j + 1 < stop and _is_verb(words[j + 1]):  # "went out [to buy] …"
            continue
        noun = [k for k in range(j + 1, stop) if is_en_content(words[k])]
        end = next((k for k in range(j + 1, stop) if any(c.isdigit() for c in words[k])
                    or not (is_en_content(words[k]) or words[k].lower() in _DETERMINERS)), stop)
        noun = [k for k in noun if k < end]
        number = [j + 1] if not noun and j + 1 < stop and words[j + 1][:1].isdigit() else []  # "started [at 4]"
        if number or noun and (_is_setting(words[noun[-1]]) or words[noun[-1]][:1].isupper()):  # "lived [in Laputa]"
            verb = [j - 1] if j - 1 in out and _lemma(words[j - 1]) in _SETTING_VERBS else []  # "[walked] into the bank"
            out = [k for k in out if k != j and k not in noun + number + verb]
    for j in kept:  # "[20,000 years ago]": a time, no relation
        if words[j].lower() == "ago":
            out = [k for k in out if not j - 2 <= k <= j]
    return out


def _small_clause(words: list[str], h: int) -> bool:
    """Whether an object at ``h`` is followed by what it does: "saw Carl [coming] to help", "stop Bill [from
    toying] with the injured bird" (seed 2626: without it, "Dan stop Bill very compassionate" fits either)."""
    at = h + 1 + (h + 1 < len(words) and words[h + 1].lower() == "from")
    return at < len(words) and words[at].endswith("ing") and _is_verb(words[at])


def _opens_clause(words: list[str], h: int) -> bool:
    """Whether the candidate at ``h`` is a clause's subject: only determiners and parts of its name stand between
    it and the sentence start, a punctuation mark, a clause opener ("because [he]", "Sam [Goodman's]") or a fronted
    phrase of a preposition without a verb ("At the Loebner competition the [judges] couldn't …", round 9c)."""
    for j in range(h - 1, -1, -1):
        low = words[j].lower()
        if low in _CLAUSE_OPENERS or not words[j][:1].isalnum() or low == "when":
            return True
        if not (low in _DETERMINERS or words[j][:1].isupper() or _is_adjective(words[j])):
            start = next((k + 1 for k in range(j, -1, -1) if not words[k][:1].isalnum()), 0)
            return words[start].lower() in _PREPOSITIONS and not any(_is_verb_form(w) for w in words[start:h])
    return True


def _unfit_referent(chosen: list[str], pron: str) -> str | None:
    """Why the correct candidate cannot stand in the pronoun's place as a noun a reader gives (the reason of the
    drop), or None. Round 7c / 8: "The [tellers] was taken" (one of them), "because the [tree] was cooler" (the
    spot under it), "[Sam and Amy] are fifteen" and "but [lemon trees] came out" (written for "they": no article),
    a quoted password as the referent, "the [him]"."""
    low = [w.lower() for w in chosen]
    if any(w in _PREPOSITIONS for w in low[:-1]):
        return "wsc: the referent's head word is not its last word (one of a group: 'one of the tellers'; 'a spot under the tree')"
    if low[-1] in _PRONOUNS:
        return "wsc: the referent is a pronoun"
    if "and" in low:
        return "wsc: the referent is two things ('Sam and Amy': 'they' fits as naturally)"
    if len(chosen) > 1 and chosen[0][:1].islower() and low[0] not in _DETERMINERS:
        return "wsc: the referent is a bare phrase without its article ('lemon trees', a quoted password)"
    if pron in _SINGULAR and chosen[0][:1].islower() and is_en_plural(low[-1]):
        return "wsc: a singular pronoun whose referent's head word is plural ('He' → 'the tellers': one of them)"
    return None


def semantics_items(data_dir: Path, lang: str, drops: Counter[str] | None = None) -> dict[str, list[Item]]:
    if lang != "en":
        return {}
    return {"wsc_referent": wsc_items(data_dir, Counter() if drops is None else drops)}
