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


def test_wsc_rationale_of_things_gains_no_modifier(tmp_path):
    # round 9c: things take their relation words too ("doesn't fit"); "brown" stays filler
    (rationale,) = _rationales(tmp_path, _schema(
        "The trophy doesn't fit into the brown suitcase because", "it", "is too small.",
        ["the trophy", "the suitcase"], "B", quote2="is too small"))
    assert rationale == ["trophy", "doesn't", "fit", "suitcase", "too", "small"], rationale


# seed 9393, en reasoning: "because the [woman] waved" — the friend waves as naturally
@pytest.mark.parametrize("premise, question, alternative, kept", [
    ("The woman spotted her friend from across the room.", "cause", "The woman waved.", False),
    ("The security guard tackled the man.", "cause", "The man displayed a weapon.", False),
    # the wording fixes the person: a role, the other person named again or by a pronoun, an owned noun
    ("The bartender refused to serve the patron.", "cause", "The patron was drunk.", True),
    ("The woman filed a restraining order against the man.", "cause", "The man stalked her.", True),
    ("The girl pushed her friend.", "effect", "Her friend fell over.", True),
    ("The man fell unconscious.", "cause", "The assailant struck the man in the head.", True),
])
def test_copa_drops_a_person_another_person_of_the_premise_fits_as_well(premise, question, alternative, kept):
    from interpeval.benchmarks.plm.reasoning import copa_item

    item = copa_item("en", premise, question, alternative)
    assert isinstance(item, str) != kept, item
    if not kept:
        assert "both name people" in item


def test_en_names_person_reads_wordnet():
    from interpeval.benchmarks.plm.synonyms import en_names_person

    assert [en_names_person(w) for w in ("woman", "friend", "tellers", "bull", "room")] == [True, True, True, False,
                                                                                           False]


def test_computation_rationale_keeps_the_negation_of_its_clause(tmp_path):
    # seed 9393: "repetition digit permitted" dropped the "not" (it reads as repetition allowed: 32, not 12)
    import json

    from interpeval.benchmarks.plm.computation import computation_items

    text = ("How many 3 digit numbers can you make using the digits 1,2,3, and 4 if the hundreds digit is prime and "
            "repetition of a digit is not permitted?")
    row = {"original_text": text, "equation": "x=2*3*2", "ans": 12}
    folder = tmp_path / "plm_rationale" / "mwp"
    for name in ("alg514", "dolphin1878"):
        (folder / name).mkdir(parents=True)
        for part in ("trainset", "validset", "testset"):
            (folder / name / f"{part}.json").write_text(json.dumps([row] if (name, part) == ("alg514", "trainset")
                                                                   else []))
    (item,) = computation_items(tmp_path, "en")["mwp_answer"]
    rationale = [item.words[i] for i in item.rationale]
    assert rationale[-3:] == ["digit", "not", "permitted"], rationale


@pytest.mark.parametrize("words, mask, first", [
    # seed 9393: "In fact , Find the number …" — an imperative takes "Please", the verb lower-cased
    (["Find", "a", "number", "which", "is", "24", "greater", "than", "its", "opposite", "The", "answer", "is", "12",
      "."], 13, ["Please", "find", "a"]),
    (["find", "a", "number", "whose", "double", "is", "8", ".", "The", "answer", "is", "4", "."], 11,
     ["Please", "find", "a"]),
    (["Divide", "50", "into", "two", "equal", "parts", ".", "The", "answer", "is", "25", "."], 10,
     ["Please", "divide", "50"]),
    # a name or a subject keeps "In fact ," and its case: "Grace was …" was lower-cased as an imperative
    (["Grace", "was", "happy", "to", "trade", "me", "her", "sweater", "."], 7, ["In", "fact", ",", "Grace"]),
    (["Mark", "has", "5", "apples", ".", "The", "answer", "is", "5", "."], 8, ["In", "fact", ",", "Mark"]),
])
def test_no_in_fact_before_an_imperative(words, mask, first):
    from interpeval.benchmarks.plm.perturb import insert_or_delete
    from interpeval.benchmarks.plm.records import Item

    item = Item("en", "computation", words, mask, [i for i, w in enumerate(words[:mask]) if w[:1].isdigit()],
                "equation_numbers", {})
    partner = insert_or_delete(item)
    assert partner.words[:len(first)] == first
    assert partner.words[partner.mask] == words[mask]


def test_wsc_rationale_holds_what_an_object_is_stopped_from_doing(tmp_path):
    # seed 2626: "Dan stop Bill very compassionate" — without "toying with the injured bird" either name fits
    (rationale,) = _rationales(tmp_path, _schema(
        "Dan had to stop Bill from toying with the injured bird.", "He", "is very compassionate.", ["Dan", "Bill"],
        "A", quote2="is very compassionate"))
    assert {"stop", "toying", "injured", "bird"} <= set(rationale), rationale


@pytest.mark.parametrize("words, start", [
    # seed 2626: "In fact , Many people …" and "In fact , Given that 7 : 2 = x : 8 …" kept their capitals
    (["Many", "people", "start", "to", "read", "Paul's", "books", "."], ["In", "fact", ",", "many"]),
    # ... and a command after its condition takes "So ," (review seed 4141: "In fact , given that … find x")
    (["Given", "that", "7", ":", "2", "=", "x", ":", "8", ",", "find", "x", "."], ["So", ",", "given"]),
])
def test_insertion_lower_cases_a_quantifier_and_a_participle(words, start):
    from interpeval.benchmarks.plm.perturb import insert_or_delete
    from interpeval.benchmarks.plm.records import Item

    item = Item("en", "computation", words, len(words) - 2, [], "equation_numbers", {})
    assert insert_or_delete(item).words[:len(start)] == start


@pytest.mark.parametrize("words, start", [
    # built text of 0593b7a: "In fact , what is the sum of 1 and 1 ?", "In fact , how many 3 digit numbers …"
    (["What", "is", "the", "sum", "of", "1", "and", "1", "?", "The", "answer", "is", "2", "."],
     ["So", ",", "what", "is"]),
    (["How", "many", "3", "digit", "numbers", "can", "be", "made", "?", "The", "answer", "is", "60", "."],
     ["So", ",", "how", "many"]),
    # a wh-word that opens a statement keeps "In fact ,"
    (["What", "they", "wonder", "is", "whether", "Google", "is", "more", "than", "a", "search", "engine", "."],
     ["In", "fact", ",", "what", "they"]),
])
def test_a_question_gets_so_not_in_fact(words, start):
    from interpeval.benchmarks.plm.perturb import insert_or_delete
    from interpeval.benchmarks.plm.records import Item

    item = Item("en", "computation", words, len(words) - 2, [], "equation_numbers", {})
    partner = insert_or_delete(item)
    assert partner.words[:len(start)] == start
    assert partner.words[partner.mask] == words[-2]


@pytest.mark.parametrize("first", ["well", "Well", "okay", "please", "PLEASE", "no"])
def test_no_marker_before_an_interjection(first):
    # review seed 2727: "In fact , well last night while I [was] sleeping …", "In fact , okay our room [was] …"
    from interpeval.benchmarks.plm.perturb import insert_or_delete
    from interpeval.benchmarks.plm.records import Item

    words = [first, "last", "night", "while", "I", "was", "sleeping", ",", "my", "hamster", "escaped", "."]
    assert insert_or_delete(Item("en", "grammar", words, 5, [4, 1, 2], "verb_agreement_time", {})) is None


@pytest.mark.parametrize("words, start", [
    # review seed 4141: "In fact , if n = 7 , what is the value of 3 n + 4", "In fact , three less than twice what
    # number is - 7 ?", "In fact , if 18 % of a number Z is 54 Find the value of Z"
    (["If", "n", "=", "7", ",", "what", "is", "the", "value", "of", "3", "n", "+", "4", "The", "answer", "is", "25",
      "."], ["So", ",", "if"]),
    (["Three", "less", "than", "twice", "what", "number", "is", "-", "7", "?", "The", "answer", "is", "-2", "."],
     ["So", ",", "three"]),
    (["If", "18", "%", "of", "a", "number", "Z", "is", "54", "Find", "the", "value", "of", "Z", "The", "answer", "is",
      "300", "."], ["So", ",", "if"]),
    # a statement keeps "In fact ,"
    (["Mark", "has", "5", "apples", "and", "buys", "3", "more", ".", "The", "answer", "is", "8", "."],
     ["In", "fact", ",", "Mark"]),
])
def test_a_conditional_question_or_command_gets_so(words, start):
    from interpeval.benchmarks.plm.perturb import insert_or_delete
    from interpeval.benchmarks.plm.records import Item

    partner = insert_or_delete(Item("en", "computation", words, len(words) - 2, [], "equation_numbers", {}))
    assert partner.words[:len(start)] == start


def test_no_marker_in_a_title_case_text():
    # review seed 4141: "In fact , if The Divisor Is 4 And The Quotient Is 8 , What Is The Dividend ?"
    from interpeval.benchmarks.plm.perturb import insert_or_delete
    from interpeval.benchmarks.plm.records import Item

    words = ["If", "The", "Divisor", "Is", "4", "And", "The", "Quotient", "Is", "8", ",", "What", "Is", "The",
             "Dividend", "?", "The", "answer", "is", "32", "."]
    assert insert_or_delete(Item("en", "computation", words, 19, [4, 9], "equation_numbers", {})) is None


def test_a_capitalised_adjective_keeps_its_capital_after_the_marker():
    # review seed 4141: "In fact , islamic [Jihad] …" (the tree reads "Islamic" as an adjective)
    from interpeval.benchmarks.plm.perturb import insert_or_delete
    from interpeval.benchmarks.plm.records import Item

    words = ["Islamic", "Jihad", "has", "claimed", "the", "attack", "."]
    # the tree as Item keeps it: (head, deprel, upos, feats) per word
    tree = [(2, "amod", "ADJ", {}), (4, "nsubj", "PROPN", {"Number": "Sing"}), (4, "aux", "AUX", {}),
            (0, "root", "VERB", {}), (6, "det", "DET", {}), (4, "obj", "NOUN", {}), (4, "punct", "PUNCT", {})]
    item = Item("en", "grammar", words, 2, [1], "verb_agreement", {}, tree=tree)
    assert insert_or_delete(item).words[:4] == ["In", "fact", ",", "Islamic"]
    words = ["Good", "food", "is", "rare", "."]
    tree = [(2, "amod", "ADJ", {}), (4, "nsubj", "NOUN", {"Number": "Sing"}), (4, "cop", "AUX", {}),
            (0, "root", "ADJ", {}), (4, "punct", "PUNCT", {})]
    assert insert_or_delete(Item("en", "grammar", words, 2, [1], "verb_agreement", {}, tree=tree)).words[3] == "good"


def test_copa_rationale_holds_no_filler():
    # review seed 4141: "[quickly] [snapped]" — "quickly" does not help give "photographer"
    from interpeval.benchmarks.plm.reasoning import copa_item

    item = copa_item("en", "The photographer got the child to smile.", "effect",
                     "The photographer quickly snapped the child's photo.")  # COPA dev, as shipped
    marked = [item.words[i] for i in item.rationale]
    assert "quickly" not in marked and "snapped" in marked, marked
    assert item.words[item.mask] == "photographer"


@pytest.mark.parametrize("first, upos", [("It", "PRON"), ("He", "PRON"), ("As", "ADP")])
def test_a_function_word_is_lower_cased_whatever_wordnet_writes(first, upos):
    # review: WordNet's first senses of "It" (IT), "He" (helium), "As" (arsenic) are capitalised nouns
    from interpeval.benchmarks.plm.perturb import insert_or_delete
    from interpeval.benchmarks.plm.records import Item

    words = [first, "is", "tough", "to", "make", "money", "today", "."]
    tree = [(2, "nsubj", upos, {"Number": "Sing"}), (2, "cop", "AUX", {}), (-1, "root", "ADJ", {}),
            (4, "mark", "PART", {}), (2, "xcomp", "VERB", {}), (4, "obj", "NOUN", {}), (4, "obl", "NOUN", {}),
            (2, "punct", "PUNCT", {})]
    partner = insert_or_delete(Item("en", "grammar", words, 1, [0, 6], "verb_agreement_time", {}, tree=tree))
    assert partner.words[:4] == ["In", "fact", ",", first.lower()]


def test_copa_an_owners_pronoun_does_not_name_the_other_person():
    # review: "The woman waved her hand" kept the item although "the [friend] waved her hand" fits as well
    from interpeval.benchmarks.plm.reasoning import copa_item

    dropped = copa_item("en", "The woman spotted her friend across the room.", "effect", "The woman waved her hand.")
    assert isinstance(dropped, str) and "both name people" in dropped, dropped
