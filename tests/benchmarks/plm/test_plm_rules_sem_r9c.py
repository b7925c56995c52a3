"""Round 9d (English semantics): WSC rationales after the outside review of seed 9797 (13/20 by the strict reading:
"the marked words alone let a person give the answer, and hold no filler"). Each case is a real schema of WSC285
with its twin, and fails on main deb6b01's rule."""

import pytest
from test_plm_rules_sem_r9 import _rationales
from test_plm_rules_sem_r9b import _twins


@pytest.mark.parametrize("txt1, pron, txt2s, answers, correct, needed, left_out", [
    # "started at 4" is filler (the other time is unmarked); "meeting … train … short" decides
    ("My meeting started at 4:00 and I needed to catch the train at 4:30, so there wasn't much time. Luckily,",
     "it", ["was short, so it worked out.", "was delayed, so it worked out."], ["the meeting", "the train"], "A",
     ["meeting", "catch", "train", "short"], ["started", "at", "4"]),
    # "walked into bank" and "one of" are filler; "customer stabbed tellers … taken police station" decides
    ("The customer walked into the bank and stabbed one of the tellers.", "He",
     ["was immediately taken to the police station.", "was immediately taken to the hospital."],
     ["the customer", "the tellers"], "A", ["customer", "stabbed", "tellers", "taken"],
     ["walked", "into", "bank", "one", "of"]),
    # the cue "no answer" was unmarked
    ("Jane knocked on Susan's door, but there was no answer.", "She", ["was disappointed.", "was out."],
     ["Jane", "Susan"], "A", ["Jane", "knocked", "Susan's", "no", "answer", "disappointed"], []),
    # "made sure to" is filler; "help" (what "given" refers to) was unmarked
    ("Joan made sure to thank Susan for all the help", "she", ["had given.", "had received."],
     ["Joan", "Susan"], "B", ["Joan", "thank", "Susan", "help", "given"], ["made", "sure", "to"]),
    # "to" is filler; the subject "Bob" and the cue "on time" of the conditional were unmarked
    ("Adam can't leave work here until Bob arrives to replace him. If Bob had left home for work on time,", "he",
     ["would be gone by this time.", "would be here by this time."], ["Adam", "Bob"], "A",
     ["Adam", "can't", "leave", "Bob", "arrives", "replace", "on", "time", "gone"], ["to"]),
    # "only", "man" (twice) and "remarkable" are filler: the twin differs only by "is" / "was"
    ("Fred is the only man still alive who remembers my great-grandfather.", "He",
     ["is a remarkable man.", "was a remarkable man."], ["Fred", "my great-grandfather"], "A",
     ["Fred", "alive", "remembers", "great-grandfather", "is"], ["only", "man", "remarkable"]),
])
def test_wsc_rationales_after_the_review_of_seed_9797(tmp_path, txt1, pron, txt2s, answers, correct, needed,
                                                      left_out):
    rationale = _rationales(tmp_path, *_twins(txt1, pron, txt2s, answers, correct))[0]
    assert set(needed) <= set(rationale), rationale
    assert not set(left_out) & set(rationale), rationale


def test_the_bob_of_the_conditional_is_marked(tmp_path):
    """Both mentions of Bob count: the second is the subject of the clause whose "on time" decides."""
    rationale = _rationales(tmp_path, *_twins(
        "Adam can't leave work here until Bob arrives to replace him. If Bob had left home for work on time,", "he",
        ["would be gone by this time.", "would be here by this time."], ["Adam", "Bob"], "A"))[0]
    assert rationale.count("Bob") == 2, rationale



def test_no_deletion_of_very_before_much():
    # outside review seed 1357: "The sponsors were very much in the minority" -> "… were much in the minority"
    from interpeval.benchmarks.plm.perturb import insert_or_delete
    from interpeval.benchmarks.plm.records import Item

    words = ["The", "sponsors", "were", "very", "much", "in", "the", "minority", "."]
    partner = insert_or_delete(Item("en", "semantics", words, 1, [1, 7], "wsc_referent", {}))
    assert partner is None or "very" in partner.words
