"""Round 8 (English): the rules written for the failures of the blind review of seed 5150 (and those of rounds
7–7c that were still open), each on hand-written sentences that reproduce a failure."""

import re
from collections import Counter

import pytest

from interpeval.benchmarks.conllu import Sentence
from interpeval.benchmarks.plm.grammar import _verb_agreement
from interpeval.benchmarks.plm.knowledge import en_one_referent
from interpeval.benchmarks.plm.perturb import insert_or_delete, replace, transform
from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.semantics import WSC, wsc_items
from interpeval.benchmarks.plm.synonyms import en_synonyms

PRES = {"VerbForm": "Fin", "Tense": "Pres", "Mood": "Ind"}


def _sentence(rows):
    children = [[] for _ in range(len(rows) + 1)]
    for wid, *_rest, head, _deprel, _space in rows:
        children[head].append(wid)
    return Sentence(1, {}, rows, children, [0, *[r[4] for r in rows]])


def test_verb_agreement_drops_a_complement_clause_the_main_verb_does_not_time():
    # seed 5150: "it seems that Hamas [has] its own agenda" — "had" fits as well after a present "seems" (here with
    # a copula: a lexical "has" is dropped earlier, seed 4141)
    seems = [(1, "it", "PRON", {"Number": "Sing"}, 2, "expl", True), (2, "seems", "VERB", PRES, 0, "root", True),
             (3, "that", "SCONJ", {}, 6, "mark", True), (4, "Hamas", "PROPN", {"Number": "Sing"}, 6, "nsubj", True),
             (5, "is", "AUX", PRES, 6, "cop", True), (6, "ready", "ADJ", {}, 2, "ccomp", False)]
    # "It looks like the war [is] brewing" — a comparison clause after "looks like"
    looks = [(1, "It", "PRON", {"Number": "Sing"}, 2, "nsubj", True), (2, "looks", "VERB", PRES, 0, "root", True),
             (3, "like", "SCONJ", {}, 7, "mark", True), (4, "the", "DET", {}, 5, "det", True),
             (5, "war", "NOUN", {"Number": "Sing"}, 7, "nsubj", True), (6, "is", "AUX", PRES, 7, "aux", True),
             (7, "brewing", "VERB", {"VerbForm": "Part"}, 2, "advcl", False)]
    for rows in (seems, looks):
        drops = Counter()
        assert list(_verb_agreement(_sentence(rows), drops)) == []
        assert any("complement clause" in reason for reason in drops)
    # a verb another main clause times is kept: "Their selection [is] top notch and the service is quick"
    kept = [(1, "selection", "NOUN", {"Number": "Sing"}, 3, "nsubj", True), (2, "is", "AUX", PRES, 3, "cop", True),
            (3, "notch", "NOUN", {"Number": "Sing"}, 0, "root", True), (4, "and", "CCONJ", {}, 7, "cc", True),
            (5, "service", "NOUN", {"Number": "Sing"}, 7, "nsubj", True), (6, "is", "AUX", PRES, 7, "cop", True),
            (7, "knowledgeable", "ADJ", {}, 3, "conj", False)]
    assert [w for w, _, _ in _verb_agreement(_sentence(kept), Counter())] == [2, 6]


def _tree_item(words, tree, mask, rationale):
    return Item("en", "grammar", words, mask, rationale, "verb_agreement", {}, tree)


def test_no_passive_of_a_personal_subject_or_of_a_subject_two_verbs_share():
    past = {"VerbForm": "Fin", "Tense": "Past"}
    # seed 5150: "I use them … and always get compliments" -> "They are used by me … and always get compliments"
    words = ["I", "use", "them", "and", "get", "compliments", "."]
    tree = [(1, "nsubj", "PRON", {}), (-1, "root", "VERB", PRES), (1, "obj", "PRON", {"Number": "Plur"}),
            (4, "cc", "CCONJ", {}), (1, "conj", "VERB", PRES), (4, "obj", "NOUN", {}), (1, "punct", "PUNCT", {})]
    assert transform(_tree_item(words, tree, 5, [4])) is None
    # "We tried 4 styles" -> "4 styles was tried by us"; a third-person subject still gets its passive
    tree = [(1, "nsubj", "PRON", {}), (-1, "root", "VERB", past), (1, "obj", "NOUN", {"Number": "Plur"}),
            (1, "punct", "PUNCT", {})]
    assert transform(_tree_item(["We", "tried", "donuts", "."], tree, 2, [0])) is None
    tree = [(1, "nsubj", "NOUN", {}), (-1, "root", "VERB", past), (1, "obj", "NOUN", {"Number": "Plur"}),
            (4, "case", "ADP", {}), (1, "obl", "PROPN", {}), (1, "punct", "PUNCT", {})]
    made = transform(_tree_item(["Critics", "tried", "donuts", "on", "Monday", "."], tree, 4, [3]))
    assert made is not None and made.words == ["Donuts", "were", "tried", "by", "critics", "on", "Monday", "."]


def test_insertion_skips_a_text_that_opens_with_an_exclamation():
    # seed 5150: "In fact , Look ! There is a shark …"
    item = Item("en", "semantics", ["Look", "!", "The", "duck", "had", "better", "go", "."], 3, [3, 5], "wsc_referent",
                {})
    assert insert_or_delete(item) is None


def _wsc(tmp_path, txt1, pron, txt2, answers, correct, quote2):
    schema = (f"<schema><text><txt1>{txt1}</txt1><pron>{pron}</pron><txt2>{txt2}</txt2></text><quote><quote1>"
              f"</quote1><pron>{pron}</pron><quote2>{quote2}</quote2></quote><answers>"
              + "".join(f"<answer>{a}</answer>" for a in answers)
              + f"</answers><correctAnswer>{correct}</correctAnswer></schema>")
    path = tmp_path / WSC
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"<collection>{schema}</collection>")
    drops = Counter()
    return wsc_items(tmp_path, drops), drops


def test_wsc_keeps_a_named_owner_before_the_masked_head(tmp_path):
    # round 7c: "[Pam's parents] were furious" (They fits) -> "Pam's [parents] were furious"
    items, _ = _wsc(tmp_path, "Pam's parents came home and found her with her boyfriend, Paul.", "They",
                    "were furious about it.", ["Pam's parents", "Paul and Pam"], "A", "were furious")
    assert len(items) == 1 and items[0].words[items[0].mask - 1:items[0].mask + 2] == ["Pam's", "parents", "were"]
    assert items[0].answer == "parents"
    # candidates told apart by their owner: the owner is the answer, so masking "drawing" says nothing
    items, drops = _wsc(tmp_path, "Sam's drawing was hung just above Tina's and", "it", "did look much better.",
                        ["Sam's drawing", "Tina's"], "A", "did look much better")
    assert items == [] and any("differ by their owner" in r for r in drops)


def test_wsc_takes_a_demonstrative_as_a_determiner(tmp_path):
    # seed 5150: "[that duck] had better get away" -> "The [duck] had better get away"
    items, _ = _wsc(tmp_path, "Look! There is a shark swimming right below that duck!", "It",
                    "had better get away to safety fast!", ["the shark", "that duck"], "B", "had better get away")
    assert len(items) == 1 and items[0].answer == "duck" and items[0].words[items[0].mask - 1] == "The"


@pytest.mark.parametrize(("txt1", "pron", "txt2", "answers", "correct", "reason"), [
    # seed 5150 / round 7c: a bare phrase written for "it" / "they"
    ('The user changed his password from "GrWQWu8JyC" to "willow-towered Canopy Huntertropic wrestles" as', "it",
     "was easy to remember.", ["GrWQWu8JyC", "willow-towered Canopy Huntertropic wrestles"], "B", "bare phrase"),
    ("I tried to paint an orchard, with lemons in the lemon trees, but", "they", "came out looking like poles.",
     ["lemons", "lemon trees"], "B", "bare phrase"),
    ("Sam and Amy are in love, but Amy's parents are unhappy about it, because", "they", "are fifteen.",
     ["Sam and Amy", "Amy's parents"], "A", "two things"),
    # round 7c: "The [tellers] was immediately taken to the hospital"
    ("The customer walked into the bank and stabbed one of the tellers.", "He", "was immediately taken away.",
     ["The customer", "the tellers"], "B", "head word is plural"),
    # round 7b / seed 5150: "because the [tree] was cooler" (the spot under it)
    ("The dog moved to a spot under the tree, because", "it", "was cooler.", ["the dog", "a spot under the tree"],
     "B", "not its last word"),
    # "even though the [him] is 30 years younger"
    ("Joe's uncle can still beat him at tennis, even though", "he", "is 30 years younger.", ["him", "Joe's uncle"],
     "A", "a pronoun"),
])
def test_wsc_drops_referents_that_read_badly_as_a_noun(tmp_path, txt1, pron, txt2, answers, correct, reason):
    items, drops = _wsc(tmp_path, txt1, pron, txt2, answers, correct, txt2.rstrip("."))
    assert items == [] and any(reason in r for r in drops), drops


def test_english_synonym_is_as_frequent_as_the_word_it_replaces():
    # round 7 / 7c / seed 5150's partners: "desire", "attempt", "straightaway", "metropolis", "savage"
    for word, pos, rare in (("want", "VERB", "desire"), ("try", "VERB", "attempt"), ("city", "NOUN", "metropolis"),
                            ("immediately", "ADV", "straightaway"), ("cruel", "ADJ", "savage"),
                            ("resist", "VERB", "withstand"), ("hide", "VERB", "conceal")):
        assert rare not in en_synonyms(word, pos), word
    assert "store" in en_synonyms("shop", "NOUN") and "yell" in en_synonyms("scream", "VERB")


def test_english_replacement_keeps_a_noun_compound():
    # round 7c: "this kebab shop is one of the best" -> "this kebab store"
    tail = [(-1, "root", "NOUN", {}), (4, "case", "ADP", {}), (4, "det", "DET", {}), (-1, "nmod", "ADJ", {}),
            (-1, "punct", "PUNCT", {})]
    tree = [(2, "det", "DET", {}), (2, "compound", "NOUN", {}), (4, "nsubj", "NOUN", {}), (4, "cop", "AUX", PRES),
            *[(h if h < 0 else h + 3, *rest) for h, *rest in tail]]
    words = ["this", "kebab", "shop", "is", "one", "of", "the", "best", "."]
    assert replace(Item("en", "grammar", words, 3, [0, 2], "verb_agreement", {}, tree)) is None
    bare = Item("en", "grammar", [words[0], *words[2:]], 2, [0, 1], "verb_agreement", {},
                [tree[0], (3, "nsubj", "NOUN", {}), *[(h if h < 0 else h + 2, *rest) for h, *rest in tail]])
    assert replace(bare).words[1] == "store"


def _statement(text, rule):
    """An item of ``text`` whose answer is written in brackets: "[Wang Zhen] wrote the Nong Shu ." """
    before, answer, after = re.split(r"\[(.+)\]", text)
    words = [*before.split(), answer, *after.split()]
    return Item("en", "knowledge", words, len(before.split()), [1], f"{rule}+statement_content", {})


@pytest.mark.parametrize(("text", "rule", "context", "reason"), [
    ("The Jin dynasty began in the year [1115] .", "wh_do", "", "dynasty name"),
    ("HMS Dreadnought was launched in the year [1905] .", "wh_passive", "", "ship's name"),
    ("The FIS was founded in the year [1989] .", "wh_passive", "", "acronym alone"),
    ("John Gallagher was born in the year [1919] .", "wh_passive", "John Gallagher (1919–1980)", "common given name"),
    ("The largest Huguenot Society is located in [Texas] .", "wh_passive", "", "superlative"),
    ("The nickname for the Delta in the Netherlands is [Rhine Delta] .", "wh_be", "", "repeats a word"),
    ("[Nafzger] compiled the surviving Apollo 11 data .", "wh_subject", "", "surname alone"),
    ("The only region in Europe not conquered by the Germanic tribes was [Iberia] .", "wh_be", "", "negated"),
    ("Otto von Bismarck was born in the year [1862] .", "wh_passive", "Chancellor Otto von Bismarck (1862–90)",
     "birth or death year"),
    ("The Imperial Library Directorate was established in the year [1273] .", "wh_passive", "", "Imperial"),
    ("The Helsinki Convention was signed in the year [1992] .", "wh_passive", "", "named after a city"),
    ("The Treaty of Amsterdam was created in the year [1997] .", "wh_passive", "", "named after a city"),
    ("The Germanic tribes were originally located in [Scandinavia] .", "wh_passive", "", "a group"),
    ("[Matthew Murray] designed Salamanca .", "wh_subject", "", "single word"),
    ("The French colony in modern Brazil was founded in the year [1555] .", "wh_passive", "", "nationality"),
    ("The capital of the Ottoman empire was [Istanbul] .", "wh_be", "", "capital of an empire"),
    ("[Pittard Sullivan] designed ABC's 1998 new graphic design .", "wh_subject", "", "time-relative"),
])
def test_knowledge_drops_names_several_things_bear_and_claims_a_reader_would_not_give(text, rule, context, reason):
    why = en_one_referent(_statement(text, rule), context)
    assert why is not None and reason in why, why


@pytest.mark.parametrize(("text", "rule", "context"), [
    ("Mongke Khan died in the year [1259] .", "wh_do", "After the death of Möngke in 1259"),
    ("Zhu Shijie was born in the year [1249] .", "wh_passive", "The mathematician Zhu Shijie (1249–1314) solved"),
    ("The colony of New South Wales was founded in the year [1788] .", "wh_passive", ""),
    ("The European Convention on Human Rights was established in the year [1950] .", "wh_passive", ""),
    ("The ECSC agreement was established in the year [1951] .", "wh_passive", ""),
    ("The Later Jin dynasty began in the year [1616] .", "wh_do", ""),
    ("The first chair of the IPCC was [Bert Bolin] .", "wh_be", ""),
    ("[Wang Zhen] wrote the Nong Shu .", "wh_subject", ""),
    ("The German prison camp called Stalag XVIII-D was located in [Maribor] .", "wh_passive", ""),
])
def test_knowledge_keeps_statements_that_name_one_thing(text, rule, context):
    assert en_one_referent(_statement(text, rule), context) is None


def test_verb_agreement_takes_its_tense_from_neither_a_relative_clause_nor_a_perfect():
    past_ok = {"VerbForm": "Part", "Tense": "Past"}
    # seed 6262: "We [are] staying next to the airport which is located …" — "were" fits as well
    relative = [(1, "We", "PRON", {"Number": "Plur"}, 3, "nsubj", True), (2, "are", "AUX", PRES, 3, "aux", True),
                (3, "staying", "VERB", {"VerbForm": "Part"}, 0, "root", True),
                (4, "near", "ADP", {}, 5, "case", True), (5, "airport", "NOUN", {"Number": "Sing"}, 3, "obl", True),
                (6, "which", "PRON", {"PronType": "Rel"}, 8, "nsubj:pass", True), (7, "is", "AUX", PRES, 8, "aux:pass",
                                                                                   True),
                (8, "located", "VERB", past_ok, 5, "acl:relcl", False)]
    # "the bartender [is] the rudest person I have ever met" — "was" fits as naturally
    perfect = [(1, "bartender", "NOUN", {"Number": "Sing"}, 3, "nsubj", True), (2, "is", "AUX", PRES, 3, "cop", True),
               (3, "person", "NOUN", {"Number": "Sing"}, 0, "root", True), (4, "I", "PRON", {"Number": "Sing"}, 6,
                                                                           "nsubj", True),
               (5, "have", "AUX", PRES, 6, "aux", True), (6, "met", "VERB", past_ok, 3, "acl:relcl", False)]
    # seed 6262: "It is true that Google [has] been …" — an extraposed clause; "had" fits as well
    extraposed = [(1, "It", "PRON", {"Number": "Sing"}, 3, "expl", True), (2, "is", "AUX", PRES, 3, "cop", True),
                  (3, "true", "ADJ", {}, 0, "root", True), (4, "that", "SCONJ", {}, 7, "mark", True),
                  (5, "Google", "PROPN", {"Number": "Sing"}, 7, "nsubj", True), (6, "has", "AUX", PRES, 7, "aux", True),
                  (7, "been", "AUX", {"VerbForm": "Part"}, 3, "csubj", False)]
    for rows, masked, reason in ((relative, 2, "tense only from"),
                                 (perfect, 2, "tense only from"), (extraposed, 6, "complement clause")):
        drops = Counter()
        assert masked not in [w for w, _, _ in _verb_agreement(_sentence(rows), drops)]
        assert any(reason in r for r in drops), drops


def test_insertion_keeps_an_all_capitals_opening():
    # seed 6262: "PLEASE NOTE : Your pledge is …" -> "In fact , please NOTE : …"; since seed 2727 a courtesy word
    # gets no marker at all ("In fact , PLEASE NOTE" is not English either), while other capitals are kept
    item = Item("en", "grammar", ["PLEASE", "NOTE", ":", "Your", "pledge", "is", "due", "."], 5, [4], "verb_agreement",
                {})
    assert insert_or_delete(item) is None
    item = Item("en", "grammar", ["NASA", "said", "the", "probes", "are", "fine", "."], 4, [3], "verb_agreement", {})
    assert insert_or_delete(item).words[:4] == ["In", "fact", ",", "NASA"]


def test_verb_agreement_drops_a_relative_clause_and_a_cue_inside_a_complement():
    past_ok = {"VerbForm": "Part", "Tense": "Past"}
    # seed 7474: "They do n't know anything but the hype they [are] told" — "were told" fits as well
    relative = [(1, "They", "PRON", {"Number": "Plur"}, 3, "nsubj", True), (2, "do", "AUX", PRES, 3, "aux", True),
                (3, "know", "VERB", {"VerbForm": "Inf"}, 0, "root", True),
                (4, "hype", "NOUN", {"Number": "Sing"}, 3, "obj", True),
                (5, "they", "PRON", {"Number": "Plur"}, 7, "nsubj:pass", True),
                (6, "are", "AUX", PRES, 7, "aux:pass", True), (7, "told", "VERB", past_ok, 4, "acl:relcl", False)]
    # seed 7474: "Google [is] resisting … to reveal what users are searching for" — "was resisting" fits as well
    inside = [(1, "Google", "PROPN", {"Number": "Sing"}, 3, "nsubj", True), (2, "is", "AUX", PRES, 3, "aux", True),
              (3, "resisting", "VERB", {"VerbForm": "Part"}, 0, "root", True),
              (4, "reveal", "VERB", {"VerbForm": "Inf"}, 3, "xcomp", True),
              (5, "users", "NOUN", {"Number": "Plur"}, 7, "nsubj", True), (6, "are", "AUX", PRES, 7, "aux", True),
              (7, "searching", "VERB", {"VerbForm": "Part"}, 4, "ccomp", False)]
    for rows, masked, reason in ((relative, 6, "relative clause"), (inside, 2, "tense only from")):
        drops = Counter()
        assert masked not in [w for w, _, _ in _verb_agreement(_sentence(rows), drops)]
        assert any(reason in r for r in drops), drops


def test_insertion_goes_inside_an_opening_quotation():
    # seed 7474: 'In fact , " We were all American citizens …'
    item = Item("en", "grammar", ['"', "We", "were", "citizens", "and", "there", "was", "no", "way", "."], 2, [1, 6],
                "verb_agreement", {})
    assert insert_or_delete(item).words[:6] == ['"', "In", "fact", ",", "we", "were"]


def test_a_birth_year_answer_with_regex_characters_is_read_as_text():
    """The answer goes into the year-span pattern as text: "1850s)" must not be read as a pattern (it raised
    ``re.error: unbalanced parenthesis``), and "12.9" must not match "1249" by its dot."""
    why = en_one_referent(_statement("Zhu Shijie was born in the year [1850s)] .", "wh_passive"), "")
    assert why is not None and "birth or death year" in why
    why = en_one_referent(_statement("Zhu Shijie was born in the year [12.9] .", "wh_passive"),
                          "The mathematician Zhu Shijie (1249–1314) solved")
    assert why is not None and "birth or death year" in why


_GOODMAN = """<schema><text><txt1>Sam Goodman's biography of the Spartan general Xenophanes conveys a vivid sense of the
difficulties</txt1><pron> he </pron><txt2>faced in his {word}.</txt2></text>
<quote><quote1>the difficulties</quote1><pron>he</pron><quote2>faced</quote2></quote>
<answers><answer>Goodman</answer><answer>Xenophanes</answer></answers>
<correctAnswer>{answer}</correctAnswer></schema>"""


def test_wsc_rationale_holds_the_words_that_tell_the_twin_schemas_apart(tmp_path):
    """The quote of both twins is "the difficulties he faced": without "research" / "childhood" both rationales were
    "Goodman's Xenophanes difficulties faced" for two different answers (independent review, seed 9393)."""
    from collections import Counter

    from interpeval.benchmarks.plm.semantics import WSC, wsc_items

    path = tmp_path / WSC
    path.parent.mkdir(parents=True)
    path.write_text("<collection>" + _GOODMAN.format(word="research", answer="A")
                    + _GOODMAN.format(word="childhood", answer="B") + "</collection>", encoding="utf-8")
    research, childhood = wsc_items(tmp_path, Counter())
    assert [research.words[i] for i in research.rationale] == ["Goodman's", "biography", "of", "Xenophanes",
                                                                "difficulties", "faced", "research"]  # round 9
    assert [childhood.words[i] for i in childhood.rationale][-1] == "childhood"
    assert (research.words[research.mask], childhood.words[childhood.mask]) == ("Goodman", "Xenophanes")
