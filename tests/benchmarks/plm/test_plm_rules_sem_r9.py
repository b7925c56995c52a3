"""Round 9 (English semantics, reasoning, computation): the rules written for the failures of the outside reviews
(seed 9393, merged build; seed 1010, en semantics by the strictest reading), each on hand-written sentences that
reproduce a failure and fail on the round-8 rules."""

from collections import Counter

import pytest

from interpeval.benchmarks.plm.semantics import WSC, wsc_items


def _schema(txt1, pron, txt2, answers, correct, quote1="", quote2=""):
    return (f"<schema><text><txt1>{txt1}</txt1><pron>{pron}</pron><txt2>{txt2}</txt2></text><quote><quote1>{quote1}"
            f"</quote1><pron>{pron}</pron><quote2>{quote2}</quote2></quote><answers>"
            + "".join(f"<answer>{a}</answer>" for a in answers)
            + f"</answers><correctAnswer>{correct}</correctAnswer></schema>")


def _rationales(tmp_path, *schemas):
    path = tmp_path / WSC
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("<collection>" + "".join(schemas) + "</collection>", encoding="utf-8")
    return [[item.words[i] for i in item.rationale] for item in wsc_items(tmp_path, Counter())]


# seed 1010 (strictest reading): both candidates are people and the rationale lacked what each of them did
@pytest.mark.parametrize("txt1, pron, txt2, answers, correct, quote2, needed, left_out", [
    ("Beth didn't get angry with Sally, who had cut her off, because", "she", "stopped and counted to ten.",
     ["Beth", "Sally"], "A", "stopped and counted to ten", ["didn't", "get", "angry", "with"], []),
    ("Fred watched TV while George went out to buy groceries. After an hour", "he", "got back.",
     ["Fred", "George"], "B", "got back", ["watched", "went", "out"], []),
    ("Bob collapsed on the sidewalk. Soon he saw Carl coming to help.", "He", "was very concerned.",
     ["Bob", "Carl"], "B", "was very concerned", ["collapsed", "saw", "coming"], ["Soon"]),
    ("Sam Goodman's biography of the Spartan general Xenophanes conveys a vivid sense of the difficulties", "he",
     "faced in his childhood.", ["Goodman", "Xenophanes"], "B", "faced in his childhood", ["biography", "of"],
     ["Spartan", "general", "conveys", "vivid"]),
    ("Tom threw his schoolbag down to Ray after", "he", "reached the top of the stairs.", ["Tom", "Ray"], "A",
     "reached the top of the stairs", ["threw", "schoolbag", "down", "to"], []),
    ("Jackson was greatly influenced by Arnold, though", "he", "lived two centuries earlier.",
     ["Jackson", "Arnold"], "B", "lived two centuries earlier", ["influenced", "by"], ["greatly"]),
    ("Thomson visited Cooper's grave in 1765. At that date", "he", "had been dead for five years.",
     ["Thomson", "Cooper"], "B", "had been dead", ["visited", "grave"], ["1765"]),
    ('Tom said "Check" to Ralph as', "he", "moved his bishop.", ["Tom", "Ralph"], "A", "moved his bishop",
     ["said", "Check", "to"], []),
    ("Bob paid for Charlie's college education.", "He", "is very grateful.", ["Bob", "Charlie"], "B",
     "is very grateful", ["paid", "for", "education"], []),
    # an apposition and an object take no predicate of their own: "Anne into bed" decides nothing
    ("Mary tucked her daughter Anne into bed, so that", "she", "could work.", ["Mary", "her daughter"], "A",
     "could work", ["tucked", "daughter"], ["Anne", "bed"]),
])
def test_wsc_rationale_holds_what_each_person_candidate_did(tmp_path, txt1, pron, txt2, answers, correct, quote2,
                                                           needed, left_out):
    (rationale,) = _rationales(tmp_path, _schema(txt1, pron, txt2, answers, correct, quote2=quote2))
    assert set(needed) <= set(rationale), rationale
    assert not set(left_out) & set(rationale), rationale


def test_wsc_rationale_holds_no_filler_adverb(tmp_path):
    # seed 1010: "customer tellers immediately taken police station" — "immediately" decides nothing, "stabbed" does
    (rationale,) = _rationales(tmp_path, _schema(
        "The customer walked into the bank and stabbed one of the tellers.", "He",
        "was immediately taken to the police station.", ["the customer", "the tellers"], "A",
        quote2="was immediately taken to the police station"))
    assert "immediately" not in rationale and {"stabbed", "taken", "police", "station"} <= set(rationale), rationale


def test_wsc_rationale_of_things_gains_no_relation_words(tmp_path):
    # the relation words are for people only: things are told apart by the cue ("too small"), and "brown" is filler
    (rationale,) = _rationales(tmp_path, _schema(
        "The trophy doesn't fit into the brown suitcase because", "it", "is too small.",
        ["the trophy", "the suitcase"], "B", quote2="is too small"))
    assert rationale == ["trophy", "suitcase", "too", "small"]
