"""Round 9 (English knowledge): the support check (the paragraph sentence that holds the answer must state the
statement's relation) and the typed question shapes ("In which city was X born?", "Which architect designed X?"),
each on hand-written questions and paragraphs; the failures are those of the review sheets (seed 9393 and earlier)."""

import json
from collections import Counter

import pytest

from interpeval.benchmarks.plm.knowledge import SOURCES, en_statement, knowledge_items


def _built(tmp_path, qas):
    """The English knowledge statements ``knowledge_items`` builds from ``(question, answer, paragraph)`` triples
    (one SQuAD file; the other sources empty), and the drop counts."""
    paragraphs = [{"context": ctx, "qas": [{"id": str(i), "question": q,
                                            "answers": [{"text": a, "answer_start": ctx.index(a)}]}]}
                  for i, (q, a, ctx) in enumerate(qas)]
    for k, rel in enumerate(SOURCES["en"]):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        data = [{"title": "t", "paragraphs": paragraphs}] if k == 0 else []
        path.write_text(json.dumps({"data": data}), encoding="utf-8")
    drops = Counter()
    items = knowledge_items(tmp_path, "en", drops)
    return [" ".join(it.words) for pool in items.values() for it in pool], drops


_UNSUPPORTED = "the sentence holding the answer does not state the relation"


@pytest.mark.parametrize("question, answer, paragraph", [
    # seed 9393 (group 56): the question asks for an "episode name" the paragraph never calls the score
    ("What was the episode name of Simpson's first Doctor Who score?", "Planet of Giants",
     "Dudley Simpson wrote for television. Simpson's first Doctor Who score was Planet of Giants (1964) and he "
     "went on to write music for many adventures."),
    # seed 9393 (group 50): "first chair" is the question writer's inference from a list of years
    ("Who was the first chair of the IPCC?", "Bert Bolin",
     "The IPCC is chaired by Hoesung Lee. The previous chairs were Rajendra K. Pachauri, elected in May 2002; "
     "Robert Watson in 1997; and Bert Bolin in 1988."),
    # seed 9393 (group 51): "first son" and the names are not in the sentence with the answer
    ("What was the name of Temüjin's wife Börte's first son?", "Jochi",
     "Temüjin married Börte of the Konkirat tribe. She gave birth to a son, Jochi, nine months later."),
    # earlier sheets: "released" is read off a year in brackets
    ("When was the song Fog on the Tyne released?", "1971",
     "Lindisfarne are a folk rock band from Newcastle. Their most famous song, \"Fog on the Tyne\" (1971), was "
     "covered by Paul Gascoigne in 1990."),
    # a place the paragraph names with "at", not "located" (earlier sheets: Stalag XVIII-D)
    ("Where was the German prison camp called Stalag XVIII-D located?", "Maribor",
     "Over 100 POWs were transported from Stalag XVIII-D at Maribor to Ožbalt each morning."),
    # "of Germany" is not "born in Germany"
    ("In what city was Friedrich Ratzel born?", "Karlsruhe",
     "Political geographers such as Friedrich Ratzel of Karlsruhe supported imperialism."),
])
def test_knowledge_drops_a_statement_the_answer_sentence_does_not_state(tmp_path, question, answer, paragraph):
    built, drops = _built(tmp_path, [(question, answer, paragraph)])
    assert built == []
    assert any(_UNSUPPORTED in reason for reason in drops)


@pytest.mark.parametrize("question, answer, paragraph, statement", [
    # a pronoun refers back to the name of an earlier sentence
    ("When did Mongke Khan die?", "1259", "Mongke Khan led a campaign in China. He died in 1259 without a successor.",
     "Mongke Khan died in the year [MASK] ."),
    # the relation as the verb's noun
    ("When was the Muslim Brotherhood founded?", "1928",
     "Roughly contemporaneous with Maududi was the founding of the Muslim Brotherhood in Egypt in 1928.",
     "The Muslim Brotherhood was founded in the year [MASK] ."),
    # a life span states born and died; "Temür" written "Temur" in the question
    ("When was Zhu Shijie born?", "1249", "The mathematician Zhu Shijie (1249–1314) solved simultaneous equations.",
     "Zhu Shijie was born in the year [MASK] ."),
    ("When did Tugh Temur die?", "1332", "After the death of Tugh Temür in 1332, Toghun Temür succeeded to the throne.",
     "Tugh Temur died in the year [MASK] ."),
    # an initial does not end the sentence ("William E. Simon")
    ("Who is the first administrator of the Federal Energy Office?", "William E. Simon",
     "In 1973, Nixon named William E. Simon as the first administrator of the Federal Energy Office.",
     "The first administrator of the Federal Energy Office is [MASK] ."),
    # "The fort" refers back to Fort Coligny
    ("In what year was Fort Coligny destroyed?", "1560",
     "The French built Fort Coligny on an island. The fort was destroyed in 1560 by the Portuguese.",
     "Fort Coligny was destroyed in the year [MASK] ."),
    # founded / established name one event; a qualifier of the name ("in Rotterdam") from elsewhere in the paragraph
    ("When was the FSO Car Factory founded?", "1951", "Cars are made in Warsaw. The FSO Car Factory was established in "
     "1951.", "The FSO Car Factory was founded in the year [MASK] ."),
    ("What year was Feyenoord in Rotterdam founded?", "1908", "Rotterdam has three professional clubs. Feyenoord, "
     "founded in 1908, has won fourteen national titles.", "Feyenoord in Rotterdam was founded in the year [MASK] ."),
])
def test_knowledge_keeps_a_statement_its_answer_sentence_states(tmp_path, question, answer, paragraph, statement):
    built, _ = _built(tmp_path, [(question, answer, paragraph)])
    assert built == [statement.replace("[MASK]", answer)]


def test_knowledge_drops_a_founding_year_when_the_sentence_gives_a_second_start(tmp_path):
    # seed 9393 (groups 49, 58): the support check keeps these (the paragraph states the dates), but a reader gives
    # 1666 / 1600: the brewery had an earlier name, the company a charter the following year
    built, drops = _built(tmp_path, [
        ("When was the Old Truman Brewery founded?", "1724",
         "The Old Truman Brewery, then known as the Black Eagle Brewery, was founded in 1724."),
        ("When was the British East India Company established?", "1599",
         "In 1599 the British East India Company was established and was chartered in the following year."),
        ("When was the Muslim Brotherhood founded?", "1928", "The Muslim Brotherhood was founded in 1928 in Egypt."),
    ])
    assert built == ["The Muslim Brotherhood was founded in the year 1928 ."]
    assert drops["knowledge: a founding year where the sentence gives a second start (chartered the following "
                 "year, then known as …)"] == 2


@pytest.mark.parametrize("question, answer, statement", [
    ("In which city was Frédéric Chopin born?", "Warsaw", "Frédéric Chopin was born in the city of [MASK] ."),
    ("In what city did Zhu Shijie die?", "Yangzhou", "Zhu Shijie died in the city of [MASK] ."),
    ("In what state was the first insurance company in the US founded?", "South Carolina",
     "The first insurance company in the US was founded in the state of [MASK] ."),
    ("Which architect designed the Scottish Parliament building?", "Enric Miralles",
     "[MASK] designed the Scottish Parliament building ."),
    ("What company developed NT OS/2?", "Microsoft", "[MASK] developed NT OS / 2 ."),
])
def test_typed_question_shapes_turn_into_statements(question, answer, statement):
    made = en_statement(question, answer)
    assert not isinstance(made, str), made
    words, mask, rule = made
    assert rule in ("wh_place_typed", "wh_subject_typed")
    assert " ".join(words) == statement and words[mask] == "[MASK]"


@pytest.mark.parametrize("question, answer, reason", [
    ("What band is considered by many to be the first black metal group?", "Venom", "not followed by its verb"),
    ("Which president added $100 billion to the deficit?", "Obama", "answered by one word"),
    ("Which artist utilized shallow-relief?", "Italian Renaissance sculptor Donatello", "not a name"),
    ("In what city is the Ali Forney center?", "New York City", "not of a one-time event"),
    ("In which state do towns form the primary unit of local government?", "New England",
     "do-question not ending in its lexical verb"),
])
def test_typed_question_shapes_refuse(question, answer, reason):
    made = en_statement(question, answer)
    assert isinstance(made, str) and reason in made


@pytest.mark.parametrize("question, answer, paragraph, statement", [
    ("In which city was Frédéric Chopin born?", "Żelazowa Wola",
     "Frédéric Chopin was born in Żelazowa Wola, west of Warsaw.", "Frédéric Chopin was born in the city of [MASK] ."),
    ("Which architect designed the Scottish Parliament building?", "Enric Miralles",
     "The Scottish Parliament building was designed by Spanish architect Enric Miralles.",
     "[MASK] designed the Scottish Parliament building ."),
])
def test_typed_shapes_pass_the_whole_rule_chain(tmp_path, question, answer, paragraph, statement):
    built, _ = _built(tmp_path, [(question, answer, paragraph)])
    assert built == [statement.replace("[MASK]", answer)]


@pytest.mark.parametrize("question, answer, paragraph, reason", [
    # a typed subject whose verb is not an act of creation: a president serves many years
    ("Which president served in 2004?", "George W. Bush", "George W. Bush served as president in 2004.",
     "relation with more than one answer"),
    # a typed place whose verb is not a place event
    ("In what city did Harold Wilson speak?", "Leeds", "In 1964 Harold Wilson spoke in Leeds.",
     "relation with more than one answer"),
])
def test_typed_shapes_keep_the_one_answer_relation_rule(tmp_path, question, answer, paragraph, reason):
    built, drops = _built(tmp_path, [(question, answer, paragraph)])
    assert built == [] and any(reason in r for r in drops)
