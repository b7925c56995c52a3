"""Round 9c (English semantics): WSC rationales after the outside reviews of seeds 4141 and 8181, read strictly
("the marked words alone let a person give the answer, and hold no filler"). Each failure below is a real schema of
WSC285 and fails on the round-9 rule; the last tests hold rationales the new rule must leave as they were."""

import pytest
from test_plm_rules_sem_r9 import _rationales, _schema


def _twins(txt1, pron, txt2s, answers, correct):
    """A schema and its twin (the same text but for its ending, the other answer); the first is the one judged."""
    other = "B" if correct == "A" else "A"
    return [_schema(txt1, pron, txt2, answers, c, quote2=txt2.rstrip(".")) for txt2, c in
            zip(txt2s, (correct, other), strict=True)]


@pytest.mark.parametrize("txt1, pron, txt2s, answers, correct, needed, left_out", [
    # seed 8181: "ball table made steel" — which one crashed through which is not said; "right", "large" decide nothing
    ("The large ball crashed right through the table because", "it", ["was made of steel.", "was made of styrofoam."],
     ["The large ball", "the table"], "A", ["ball", "crashed", "through", "table", "steel"], ["right", "large"]),
    # seed 8181: "journalists stars very persistent" — lacks who interviewed whom; "very" is filler
    ("The journalists interviewed the stars of the new movie.", "They",
     ["were very persistent, so the interview lasted for a long time.",
      "were very cooperative, so the interview lasted for a long time."],
     ["The journalists", "the stars"], "A", ["journalists", "interviewed", "stars", "persistent"],
     ["very", "movie"]),
    # seed 8181: "Fred great-grandfather is remarkable man" — who is alive, who is remembered, is not said
    ("Fred is the only man still alive who remembers my great-grandfather.", "He",
     ["is a remarkable man.", "was a remarkable man."], ["Fred", "my great-grandfather"], "A",
     ["Fred", "alive", "remembers", "great-grandfather", "is"], []),
    # seed 8181: "sponsors bill got to town hall full of opponents very much minority" — fillers
    ("When the sponsors of the bill got to the town hall, they were surprised to find that the room was full of "
     "opponents.", "They", ["were very much in the minority.", "were very much in the majority."],
     ["the sponsors", "opponents"], "A", ["sponsors", "full", "opponents", "minority"],
     ["bill", "town", "hall", "very", "much"]),
    # seed 8181: "John jogging through park saw man juggling watermelons very impressed" — "through park", "very"
    ("John was jogging through the park when he saw a man juggling watermelons.", "He",
     ["was very impressed.", "was very impressive."], ["John", "a man"], "A",
     ["John", "saw", "man", "juggling", "watermelons", "impressed"], ["through", "park", "very"]),
    # seed 4141: "judges chatbots stupid" — lacks "couldn't figure out" (the subject follows a fronted phrase)
    ("At the Loebner competition the judges couldn't figure out which respondents were the chatbots because", "they",
     ["were so stupid.", "were so advanced."], ["the judges", "the chatbots"], "A",
     ["judges", "couldn't", "figure", "out", "chatbots", "stupid"], ["Loebner", "competition"]),
    # WSC 174 / 52 (read after the rule for things): a place name and a time, and the subject's own phrase, are settings
    ("Archaeologists have concluded that humans lived in Laputa 20,000 years ago.", "They",
     ["hunted for evidence on the river banks.", "hunted for deer on the river banks."],
     ["Archaeologists", "humans"], "A", ["Archaeologists", "concluded", "humans", "lived", "evidence"],
     ["in", "Laputa", "20,000", "years", "ago"]),
    ("The painting in Mark's living room shows an oak tree.", "It",
     ["is to the right of the bookcase.", "is to the right of a house."], ["The painting", "the oak tree"], "A",
     ["painting", "shows", "tree", "bookcase"], ["Mark's", "living", "room", "the"]),
])
def test_wsc_rationale_holds_the_predicate_and_no_filler(tmp_path, txt1, pron, txt2s, answers, correct, needed,
                                                         left_out):
    rationale = _rationales(tmp_path, *_twins(txt1, pron, txt2s, answers, correct))[0]
    assert set(needed) <= set(rationale), rationale
    assert not set(left_out) & set(rationale), rationale


def test_wsc_rationale_holds_a_manner_cue_and_no_setting(tmp_path):
    # seed 8181: "Alice tried stop daughter barking at party behaving" — "strangely" (the cue) was dropped as an
    # -ly filler, "at the party" is a setting
    (rationale,) = _rationales(tmp_path, _schema(
        "Alice tried frantically to stop her daughter from barking at the party, leaving us to wonder why", "she",
        "was behaving so strangely.", ["Alice", "daughter"], "B", quote2="was behaving so strangely"))
    assert {"stop", "daughter", "barking", "behaving", "strangely"} <= set(rationale), rationale
    assert not {"at", "party", "frantically"} & set(rationale), rationale


def test_wsc_rationale_holds_the_candidates_own_words_without_a_twin(tmp_path):
    # seed 8181: "book table broke" — the twin is "the butterfly wing" (other candidates), so "heavy" was never found
    # as a difference; the candidate as written ("the heavy book") and "on" decide
    rationales = _rationales(
        tmp_path,
        _schema("I put the butterfly wing on the table and", "it", "broke.", ["the butterfly wing", "the table"], "A",
                quote2="broke"),
        _schema("I put the heavy book on the table and", "it", "broke.", ["the heavy book", "the table"], "B",
                quote2="broke"))
    assert rationales[1] == ["put", "heavy", "book", "on", "table", "broke"], rationales[1]
    assert {"butterfly", "wing", "on", "table"} <= set(rationales[0]), rationales[0]


def test_wsc_twin_is_the_closest_neighbour_not_any_with_the_same_candidates(tmp_path):
    # WSC 106-108: "John was doing research in the library …" took "John was jogging through the park …" (the next
    # schema, also John / a man, other answer) as its twin and so marked all its words as differences
    rationales = _rationales(tmp_path, *[
        _schema("John was doing research in the library when he heard a man humming and whistling.", "He",
                f"was very {cue}.", ["John", "a man"], correct, quote2=f"was very {cue}")
        for cue, correct in (("annoyed", "A"), ("annoying", "B"))],
        _schema("John was jogging through the park when he saw a man juggling watermelons.", "He",
                "was very impressed.", ["John", "a man"], "A", quote2="was very impressed"))
    assert rationales[1] == ["John", "doing", "research", "heard", "man", "humming", "whistling", "annoying"]


@pytest.mark.parametrize("txt1, pron, txt2, answers, correct, expected", [
    # rationales the strict readers accepted: the new rule leaves them as they were
    ("Bill passed the half-empty plate to John because", "he", "was full.", ["Bill", "John"], "A",
     ["Bill", "passed", "half-empty", "plate", "to", "John", "full"]),
    ("Susan knows all about Ann's personal problems because", "she", "is nosy.", ["Susan", "Ann"], "A",
     ["Susan", "knows", "all", "about", "Ann's", "personal", "problems", "nosy"]),
    ("Sid explained his theory to Mark but", "he", "couldn't convince him.", ["Sid", "Mark"], "A",
     ["Sid", "explained", "theory", "to", "Mark", "couldn't", "convince"]),
    # an infinitive is no setting: "buy groceries" stays; its "to" is no longer marked (round 9d: the outside
    # review of seed 9797 called the "to" of "arrives to replace" filler)
    ("Fred watched TV while George went out to buy groceries. After an hour", "he", "got back.",
     ["Fred", "George"], "B", ["Fred", "watched", "TV", "George", "went", "out", "buy", "groceries", "got",
                                "back"]),
    # a phrase whose noun is a living thing is no setting (only "very" goes)
    ("Dan had to stop Bill from toying with the injured bird.", "He", "is very cruel.", ["Dan", "Bill"], "B",
     ["Dan", "stop", "Bill", "toying", "with", "injured", "bird", "cruel"]),
])
def test_wsc_rationales_the_reviews_accepted_stay(tmp_path, txt1, pron, txt2, answers, correct, expected):
    (rationale,) = _rationales(tmp_path, _schema(txt1, pron, txt2, answers, correct, quote2=txt2.rstrip(".")))
    assert rationale == expected


@pytest.mark.parametrize("first, expected", [("Archaeologists", "archaeologists"), ("Frank", "Frank"),
                                             ("Goodman", "Goodman")])
def test_insertion_lower_cases_a_common_noun_candidate_but_not_a_name(first, expected):
    # outside review seed 9797: "In fact , Archaeologists have concluded …"; names keep their capital
    from interpeval.benchmarks.plm.perturb import insert_or_delete
    from interpeval.benchmarks.plm.records import Item

    words = [first, "have", "concluded", "that", "the", "[MASK]", "hunted", "."]
    words[5] = "humans"
    item = Item("en", "semantics", words, 5, [0, 2, 5, 6], "wsc_referent", {})
    assert insert_or_delete(item).words[:4] == ["In", "fact", ",", expected]
