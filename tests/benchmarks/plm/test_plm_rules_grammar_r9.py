"""Round 9 (English grammar): the rules whose masked word the marked words fix — tense from a time expression,
"there [is/are]", "than", the second "as", correlative pairs — each on hand-written sentences it must keep and
sentences it must drop (with the reason counted)."""

from collections import Counter

import pytest

from interpeval.benchmarks.conllu import Sentence
from interpeval.benchmarks.plm.grammar import _as_as, _comparative_than, _correlative, _verb_agreement
from interpeval.benchmarks.plm.perturb import partners
from interpeval.benchmarks.plm.words import ud_item

PRES = {"VerbForm": "Fin", "Tense": "Pres", "Mood": "Ind"}
PAST = {"VerbForm": "Fin", "Tense": "Past", "Mood": "Ind"}
SING, PLUR = {"Number": "Sing"}, {"Number": "Plur"}


def _sentence(rows):
    """A UD sentence from ``(form, upos, feats, head, deprel)`` rows (ids from 1)."""
    words = [(i, form, upos, feats, head, deprel, True) for i, (form, upos, feats, head, deprel) in
             enumerate(rows, 1)]
    children = [[] for _ in range(len(words) + 1)]
    for wid, *_rest, head, _deprel, _space in words:
        children[head].append(wid)
    return Sentence(1, {}, words, children, [0] * (len(words) + 1))


def _run(rule, rows):
    drops = Counter()
    return list(rule(_sentence(rows), drops)), drops


def _hungry(verb, feats, *tail):
    """"The dogs <verb> hungry <tail> ." with the copula masked (id 3)."""
    rows = [("The", "DET", {}, 2, "det"), ("dogs", "NOUN", PLUR, 4, "nsubj"), (verb, "AUX", feats, 4, "cop"),
            ("hungry", "ADJ", {}, 0, "root"), *tail]
    return [*rows, (".", "PUNCT", {}, 4, "punct")]


def test_time_expression_fixes_the_tense_where_no_other_verb_does():
    found, _ = _run(_verb_agreement, _hungry("were", PAST, ("yesterday", "NOUN", SING, 4, "obl:unmarked")))
    assert found == [(3, [2, 5], "verb_agreement_time")]  # dogs … yesterday ("The" says no number, seed 4141)
    ago = _hungry("were", PAST, ("two", "NUM", {}, 6, "nummod"), ("years", "NOUN", PLUR, 4, "obl:unmarked"),
                  ("ago", "ADV", {}, 6, "advmod"))
    assert _run(_verb_agreement, ago)[0] == [(3, [2, 6, 7], "verb_agreement_time")]
    last = _hungry("were", PAST, ("last", "ADJ", {}, 6, "amod"), ("week", "NOUN", SING, 4, "obl:unmarked"))
    assert _run(_verb_agreement, last)[0] == [(3, [2, 5, 6], "verb_agreement_time")]
    now = _hungry("are", PRES, ("now", "ADV", {}, 4, "advmod"))
    assert _run(_verb_agreement, now)[0] == [(3, [2, 5], "verb_agreement_time")]
    # "The dogs were hungry in 1990 ." — a year after "in" alone
    year = _hungry("were", PAST, ("in", "ADP", {}, 6, "case"), ("1990", "NUM", {}, 4, "obl"))
    assert _run(_verb_agreement, year)[0] == [(3, [2, 5, 6], "verb_agreement_time")]


def test_time_expression_that_does_not_fix_the_tense_is_dropped():
    # nothing times "The dogs [are] hungry ." (were fits as well)
    found, drops = _run(_verb_agreement, _hungry("are", PRES))
    assert found == [] and drops["verb_agreement: no other finite verb fixing the tense"] == 1
    # "The dogs were now hungry": a narrative past with a present adverb — is/are would fit the cue, not the text
    found, drops = _run(_verb_agreement, _hungry("were", PAST, ("now", "ADV", {}, 4, "advmod")))
    assert found == [] and any(r.startswith("verb_agreement_time: the time expression names the other") for r in drops)
    # "just now" means a moment ago, "in the last year" goes with a perfect, "last time" is no past stretch
    for tail in ([("just", "ADV", {}, 6, "advmod"), ("now", "ADV", {}, 4, "advmod")],
                 [("in", "ADP", {}, 8, "case"), ("the", "DET", {}, 8, "det"), ("last", "ADJ", {}, 8, "amod"),
                  ("year", "NOUN", SING, 4, "obl")],
                 [("last", "ADJ", {}, 6, "amod"), ("time", "NOUN", SING, 4, "obl:unmarked")]):
        assert _run(_verb_agreement, _hungry("were", PAST, *tail))[0] == []
    # "today": "Today [is/was] a great day" — both fit, so it is no cue
    assert _run(_verb_agreement, _hungry("are", PRES, ("today", "NOUN", SING, 4, "obl:unmarked")))[0] == []
    # a perfect "for the last seven years" reaches now: has/have, never had
    perfect = [("We", "PRON", PLUR, 3, "nsubj"), ("have", "AUX", PRES, 3, "aux"), ("used", "VERB", {}, 0, "root"),
               ("it", "PRON", SING, 3, "obj"), ("for", "ADP", {}, 8, "case"), ("the", "DET", {}, 8, "det"),
               ("last", "ADJ", {}, 8, "amod"), ("years", "NOUN", PLUR, 3, "obl"), (".", "PUNCT", {}, 3, "punct")]
    assert _run(_verb_agreement, perfect)[0] == [(2, [1, 5, 7, 8], "verb_agreement_time")]


def _there(verb, feats, noun, number, *tail):
    """"There <verb> two <noun> <tail> ." (verb id 2, noun id 4)."""
    rows = [("There", "PRON", {}, 2, "expl"), (verb, "VERB", feats, 0, "root"), ("two", "NUM", {}, 4, "nummod"),
            (noun, "NOUN", number, 2, "nsubj"), *tail]
    return [*rows, (".", "PUNCT", {}, 2, "punct")]


def test_there_takes_its_number_from_the_noun_after_it():
    tail = (("and", "CCONJ", {}, 7, "cc"), ("they", "PRON", PLUR, 7, "nsubj"), ("bark", "VERB", PRES, 2, "conj"))
    found, _ = _run(_verb_agreement, _there("are", PRES, "dogs", PLUR, *tail))
    assert found == [(2, [1, 3, 4, 7], "verb_agreement_there")]  # There … two dogs … bark
    now = _there("are", PRES, "dogs", PLUR, ("now", "ADV", {}, 2, "advmod"))
    assert _run(_verb_agreement, now)[0] == [(2, [1, 3, 4, 5], "verb_agreement_there")]


def test_there_is_dropped_where_the_noun_does_not_fix_the_verb():
    tail = (("and", "CCONJ", {}, 7, "cc"), ("they", "PRON", PLUR, 7, "nsubj"), ("bark", "VERB", PRES, 2, "conj"))
    # the source's own disagreement: "there is also attractions"
    found, drops = _run(_verb_agreement, _there("is", PRES, "attractions", PLUR, *tail))
    assert found == [] and any("does not agree with the noun" in r for r in drops)
    # "There [is] a cat and a dog": is and are both fit
    rows = [("There", "PRON", {}, 2, "expl"), ("is", "VERB", PRES, 0, "root"), ("a", "DET", {}, 4, "det"),
            ("cat", "NOUN", SING, 2, "nsubj"), ("and", "CCONJ", {}, 7, "cc"), ("a", "DET", {}, 7, "det"),
            ("dog", "NOUN", SING, 4, "conj"), ("now", "ADV", {}, 2, "advmod"), (".", "PUNCT", {}, 2, "punct")]
    found, drops = _run(_verb_agreement, rows)
    assert found == [] and any("two things after 'there'" in r for r in drops)
    # without a tense cue: "There [are] two dogs ." (were fits)
    assert _run(_verb_agreement, _there("are", PRES, "dogs", PLUR))[0] == []


TALLER = [("John", "PROPN", SING, 3, "nsubj"), ("is", "AUX", PRES, 3, "cop"),
          ("taller", "ADJ", {"Degree": "Cmp"}, 0, "root"), ("than", "ADP", {}, 5, "case"),
          ("Mary", "PROPN", SING, 3, "obl"), (".", "PUNCT", {}, 3, "punct")]


def test_than_is_fixed_by_its_comparative_and_standard():
    assert _run(_comparative_than, TALLER)[0] == [(4, [3, 5], "comparative_than")]
    # "more than 60 countries": "than" fixed to "more", the standard is the number "more" modifies
    more = [("from", "ADP", {}, 5, "case"), ("more", "ADJ", {"Degree": "Cmp"}, 4, "advmod"),
            ("than", "ADP", {}, 2, "fixed"), ("60", "NUM", {}, 5, "nummod"), ("countries", "NOUN", PLUR, 0, "root")]
    assert _run(_comparative_than, more)[0] == [(3, [2, 4], "comparative_than")]
    # "much more knowledgeable than myself": the "more" that makes the comparative is marked too
    periphrastic = [("more", "ADV", {}, 2, "advmod"), ("knowledgeable", "ADJ", {"Degree": "Pos"}, 0, "root"),
                    ("than", "ADP", {}, 4, "case"), ("myself", "PRON", SING, 2, "obl")]
    assert _run(_comparative_than, periphrastic)[0] == [(3, [1, 2, 4], "comparative_than")]


def test_than_without_a_comparative_is_dropped():
    # "John is tall than Mary" (no degree): nothing before it asks for "than"
    plain = [(f, u, {"Degree": "Pos"} if f == "tall" else feats, h, d)
             for f, u, feats, h, d in [("John", "PROPN", SING, 3, "nsubj"), ("is", "AUX", PRES, 3, "cop"),
                                       ("tall", "ADJ", {}, 0, "root"), ("than", "ADP", {}, 5, "case"),
                                       ("Mary", "PROPN", SING, 3, "obl")]]
    found, drops = _run(_comparative_than, plain)
    assert found == [] and any(r.startswith("comparative_than: no comparative") for r in drops)
    # "I did n't fought is it good or not than ." — a "than" that marks nothing
    stray = [("good", "ADJ", {}, 0, "root"), ("or", "CCONJ", {}, 3, "cc"), ("not", "PART", {}, 1, "conj"),
             ("than", "ADV", {}, 1, "advmod")]
    found, drops = _run(_comparative_than, stray)
    assert found == [] and any("not the marker" in r for r in drops)


def test_second_as_is_fixed_by_the_first():
    big = [("it", "PRON", SING, 4, "nsubj"), ("was", "AUX", PAST, 4, "cop"), ("as", "ADV", {}, 4, "advmod"),
           ("big", "ADJ", {"Degree": "Pos"}, 0, "root"), ("as", "ADP", {}, 7, "case"), ("a", "DET", {}, 7, "det"),
           ("rat", "NOUN", SING, 4, "obl"), (".", "PUNCT", {}, 4, "punct")]
    assert _run(_as_as, big)[0] == [(5, [3, 4], "as_as")]
    well = [("rude", "ADJ", {}, 0, "root"), ("as", "ADV", {}, 5, "cc"), ("well", "ADV", {}, 2, "fixed"),
            ("as", "ADP", {}, 2, "fixed"), ("dishonest", "ADJ", {}, 1, "conj")]
    assert _run(_as_as, well)[0] == [(4, [2, 3], "as_as")]
    such = [("groups", "NOUN", PLUR, 0, "root"), ("such", "ADJ", {}, 4, "case"), ("as", "ADP", {}, 2, "fixed"),
            ("Hamas", "PROPN", SING, 1, "nmod")]
    assert _run(_as_as, such)[0] == [(3, [2], "as_as")]
    # "Please ask Stinson as well ." — one "as", nothing to pair it with
    alone = [("ask", "VERB", {}, 0, "root"), ("Stinson", "PROPN", SING, 1, "obj"), ("as", "ADV", {}, 1, "advmod"),
             ("well", "ADV", {}, 3, "fixed"), (".", "PUNCT", {}, 1, "punct")]
    assert _run(_as_as, alone)[0] == []
    # "as popular as …" where the first "as" grades a noun: dropped with its reason
    noun = [("as", "ADV", {}, 2, "advmod"), ("hoot", "NOUN", SING, 0, "root"), ("as", "ADP", {}, 4, "case"),
            ("Yahoo", "PROPN", SING, 2, "obl")]
    found, drops = _run(_as_as, noun)
    assert found == [] and any(r.startswith("as_as: the first 'as'") for r in drops)


def _pair(first, second, conj="or"):
    """"he is <first> fined <conj> sent" with the first word as cc:preconj of "fined"."""
    return [("he", "PRON", SING, 4, "nsubj:pass"), ("is", "AUX", PRES, 4, "aux:pass"),
            (first, "CCONJ", {}, 4, "cc:preconj"), ("fined", "VERB", {}, 0, "root"), (conj, "CCONJ", {}, 6, "cc"),
            (second, "VERB", {}, 4, "conj")]


def test_correlative_pairs_keep_their_partner():
    assert _run(_correlative, _pair("either", "sent"))[0] == [(5, [3, 4, 6], "correlative")]
    assert _run(_correlative, _pair("neither", "sent", "nor"))[0] == [(5, [3, 4, 6], "correlative")]
    assert _run(_correlative, _pair("both", "sent", "and"))[0] == [(5, [3, 4, 6], "correlative")]
    between = [("war", "NOUN", SING, 0, "root"), ("between", "ADP", {}, 3, "case"),
               ("Microsoft", "PROPN", SING, 1, "nmod"), ("and", "CCONJ", {}, 5, "cc"),
               ("Google", "PROPN", SING, 3, "conj")]
    assert _run(_correlative, between)[0] == [(4, [2, 3, 5], "correlative")]


def test_correlative_pairs_that_do_not_fix_the_word_are_dropped():
    # "Neither me or my son": the text's conjunction is not the pair's
    found, drops = _run(_correlative, _pair("neither", "sent", "or"))
    assert found == [] and any("not the pair's" in r for r in drops)
    # "between ADHD , LD , [and] control subjects": a list — "or" fits
    listed = [("between", "ADP", {}, 2, "case"), ("ADHD", "PROPN", SING, 0, "root"), (",", "PUNCT", {}, 4, "punct"),
              ("LD", "PROPN", SING, 2, "conj"), (",", "PUNCT", {}, 7, "punct"), ("and", "CCONJ", {}, 7, "cc"),
              ("subjects", "NOUN", PLUR, 2, "conj")]
    found, drops = _run(_correlative, listed)
    assert found == [] and any("more than two conjuncts" in r for r in drops)
    # a plain "and" with no first word is no item
    plain = [("fined", "VERB", {}, 0, "root"), ("and", "CCONJ", {}, 3, "cc"), ("sent", "VERB", {}, 1, "conj")]
    assert _run(_correlative, plain)[0] == []


def test_partners_of_the_new_rules_keep_the_answer_and_the_partner_words():
    sentence = _sentence(TALLER)
    ((mask, rationale, rule),) = list(_comparative_than(sentence, Counter()))
    item = ud_item(sentence, "en", "grammar", mask, rationale, rule, {})
    made = partners(item)
    assert made, "an insertion partner at least"
    for partner in made:
        assert partner.answer == "than" and partner.rule == "comparative_than"
        assert [partner.words[i] for i in partner.rationale] == ["taller", "Mary"]


def test_verb_agreement_marks_a_determiner_only_where_it_says_the_number():
    # review seed 4141: "[The] [haircut] … [were]", "[there] … [no] [male] … [are]": "the" / "no" fix nothing
    these = [("These", "DET", {}, 2, "det"), ("dogs", "NOUN", PLUR, 4, "nsubj"), ("were", "AUX", PAST, 4, "cop"),
             ("hungry", "ADJ", {}, 0, "root"), ("yesterday", "NOUN", SING, 4, "obl:unmarked"),
             (".", "PUNCT", {}, 4, "punct")]
    assert _run(_verb_agreement, these)[0] == [(3, [1, 2, 5], "verb_agreement_time")]


def test_verb_agreement_drops_a_lexical_have():
    # review seed 4141: "I [have] a Kodak camera …" — got, own, bought fit as well
    rows = [("I", "PRON", {"Number": "Sing", "Person": "1"}, 2, "nsubj"), ("have", "VERB", PRES, 0, "root"),
            ("a", "DET", {}, 4, "det"), ("camera", "NOUN", SING, 2, "obj"), ("now", "ADV", {}, 2, "advmod"),
            (".", "PUNCT", {}, 2, "punct")]
    found, drops = _run(_verb_agreement, rows)
    assert found == []
    assert any("lexical have/do" in reason for reason in drops), drops


# UD English-EWT dev, as shipped (sent "The food is fresh and taste great."): "taste" carries Typo=Yes
_TYPO_SENTENCE = """# text = The food is fresh and taste great.
1\tThe\tthe\tDET\tDT\tDefinite=Def|PronType=Art\t2\tdet\t2:det\t_
2\tfood\tfood\tNOUN\tNN\tNumber=Sing\t4\tnsubj\t4:nsubj|6:nsubj|7:nsubj:xsubj\t_
3\tis\tbe\tAUX\tVBZ\tMood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin\t4\tcop\t4:cop\t_
4\tfresh\tfresh\tADJ\tJJ\tDegree=Pos\t0\troot\t0:root\t_
5\tand\tand\tCCONJ\tCC\t_\t6\tcc\t6:cc\t_
6\ttaste\ttaste\tVERB\tVBP\tMood=Ind|Number=Plur|Person=3|Tense=Pres|Typo=Yes|VerbForm=Fin\t4\tconj\t4:conj:and\tCorrectForm=tastes|CorrectNumber=Sing
7\tgreat\tgreat\tADJ\tJJ\tDegree=Pos\t6\txcomp\t6:xcomp\tSpaceAfter=No
8\t.\t.\tPUNCT\t.\t_\t4\tpunct\t4:punct\t_

"""


@pytest.mark.parametrize("typo", [True, False])
def test_a_typo_the_treebank_marks_in_a_rationale_word_drops_the_item(tmp_path, typo):
    # review seed 4141: "The food <is> fresh and [taste] great" — the tense cue is the source's own slip
    from interpeval.benchmarks.plm.grammar import SOURCES, grammar_items

    text = _TYPO_SENTENCE if typo else _TYPO_SENTENCE.replace("Typo=Yes|", "")
    for rel in SOURCES["en"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text if rel.endswith("dev.conllu") else "# text = Thanks .\n1\tThanks\tthanks"
                                    "\tNOUN\tNNS\t_\t0\troot\t0:root\t_\n2\t.\t.\tPUNCT\t.\t_\t1\tpunct\t1:punct\t_\n\n",
                                    encoding="utf-8")
    drops = Counter()
    items = grammar_items(tmp_path, "en", drops).get("verb_agreement", [])
    if typo:
        assert items == [] and drops["grammar: the treebank marks a typo in the masked word or a rationale word"] == 1
    else:
        assert [(i.words[i.mask], [i.words[r] for r in i.rationale]) for i in items] == [("is", ["food", "taste"])]


def test_verb_agreement_drops_a_verb_that_disagrees_with_its_subjects_number():
    # review seed 8181 (EWT): "the Viet [Minh] <were> in control" — a name read as a group; "was" fits as well
    rows = [("the", "DET", {}, 3, "det"), ("Viet", "PROPN", SING, 3, "compound"), ("Minh", "PROPN", SING, 6, "nsubj"),
            ("were", "AUX", PAST, 6, "cop"), ("in", "ADP", {}, 6, "case"), ("control", "NOUN", SING, 0, "root"),
            ("yesterday", "NOUN", SING, 6, "obl:unmarked"), (".", "PUNCT", {}, 6, "punct")]
    found, drops = _run(_verb_agreement, rows)
    assert found == [] and any("does not agree with its subject" in r for r in drops), drops
    # the same sentence with "was" (agreeing) is an item
    agreeing = [r if r[0] != "were" else ("was", "AUX", PAST, 6, "cop") for r in rows]
    assert _run(_verb_agreement, agreeing)[0] == [(4, [3, 7], "verb_agreement_time")]


def test_verb_agreement_drops_be_to_with_an_infinitive():
    # review seed 8181 (EWT): "Your pledge <is> to be made electronically" — has / needs fit as well
    rows = [("Your", "PRON", {"Poss": "Yes"}, 2, "nmod:poss"), ("pledge", "NOUN", SING, 6, "nsubj:pass"),
            ("is", "AUX", PRES, 6, "aux"), ("to", "PART", {}, 6, "mark"), ("be", "AUX", {"VerbForm": "Inf"}, 6,
                                                                           "aux:pass"),
            ("made", "VERB", {"VerbForm": "Part"}, 0, "root"), ("now", "ADV", {}, 6, "advmod"),
            (".", "PUNCT", {}, 6, "punct")]
    found, drops = _run(_verb_agreement, rows)
    assert found == [] and any("'be to'" in r for r in drops), drops


def test_no_marker_before_a_linking_adverb():
    # review seed 8181: "In fact , also more often than not …"
    from interpeval.benchmarks.plm.records import Item

    words = ["Also", "more", "often", "than", "not", "the", "staff", "is", "rude", "."]
    assert partners(Item("en", "grammar", words, 3, [1, 2], "comparative_than", {})) == [] or all(
        p.words[:3] != ["In", "fact", ","] for p in partners(Item("en", "grammar", words, 3, [1, 2],
                                                                  "comparative_than", {})))
