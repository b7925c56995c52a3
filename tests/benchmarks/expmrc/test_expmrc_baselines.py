import io

import pytest

from interpeval.benchmarks.expmrc.baselines import (
    Answer,
    ga,
    ge,
    mss,
    mss_q,
    overlap_choice,
    pa,
    sentence_spans,
)
from interpeval.benchmarks.expmrc.data import load_dataset, load_predictions
from interpeval.benchmarks.expmrc.run import SYSTEMS, ModelOutput, run_systems
from interpeval.benchmarks.expmrc.score import evaluate
from interpeval.store import Store

S1, S2, S3 = "Tom lives in Paris.", "He likes the city.", "It is big."
PASSAGE = f"{S1} {S2} {S3}"  # the passage of the conftest files


def test_sentence_spans_en_and_zh():
    assert sentence_spans(PASSAGE, "en") == [(0, 19), (20, 38), (39, 49)]
    # 。 and ！ end sentences, the closing ” stays with its sentence, ； does not split
    assert sentence_spans("他说：“来了。”她走了；好！再见", "zh") == [(0, 8), (8, 14), (14, 16)]


def test_selectors(span_file):
    q1, q2 = load_dataset(span_file).questions
    spans = sentence_spans(PASSAGE, "en")
    # PA: the sentence containing the predicted answer's offset
    assert pa(q2, Answer("the city", start=PASSAGE.index("the city")), spans) == S2
    # MSS: [city] vs S2 [he likes city]: same 1, P 1/3... F1 1/2; other sentences 0
    assert mss(q2, Answer("city"), spans) == S2
    # MSS w/ Ques.: "What does he like? big" -> [what does he like ? big]... '?' dropped -> [what, does, he, like, big]
    # vs S3 [it, is, big]: 1 common; vs S2 [he, likes, city]: 1 common ('he'); F1 S3 = 2*(1/5*1/3)/(1/5+1/3) = 1/4,
    # S2 also 1/4 -> tie -> the earlier sentence S2
    assert mss_q(q2, Answer("big"), spans) == S2
    # GA: the sentence of the gold answer (q1: Paris at 13); GE: sentences covering evidence 1 ("likes the city. It is")
    assert ga(q1, Answer("x"), spans) == S1
    assert ge(q2, Answer("x"), spans) == f"{S2} {S3}"


def test_choice_selectors_and_overlap_scorer(choice_file):
    q0, q1, _ = load_dataset(choice_file).questions
    spans = sentence_spans(PASSAGE, "en")
    # "Where? Paris" -> [where, paris] vs S1 [tom, lives, in, paris]: 1 common, P 1/2, R 1/4 -> 1/3; "Rome" -> 0
    chosen = overlap_choice(q0, spans)
    assert (chosen.label, chosen.text) == ("A", "Paris")
    # "How big? <option>": every option shares 'big' (from the question) with S3 -> 1/3 each -> tie -> first
    assert overlap_choice(q1, spans).label == "A"
    # MSS of the chosen option text; GA = MSS of the gold option ("big": [big] vs S3 -> 1/2)
    assert mss(q0, chosen, spans) == S1 and ga(q1, Answer("x"), spans) == S3
    with pytest.raises(ValueError, match="needs a span answer"):
        pa(q0, chosen, spans)


def test_run_systems_writes_predictions_and_store(tmp_path, span_file, choice_file):
    span, choice = load_dataset(span_file), load_dataset(choice_file)

    def outputs_for(dataset):
        if dataset.kind == "choice":
            return None
        # a fixed "model": answers Paris / city, with an evidence head that returns S1 / nothing
        return {"q1": ModelOutput(Answer("Paris", start=13), S1), "q2": ModelOutput(Answer("city", start=33), "")}

    with Store(tmp_path / "r.sqlite") as store:
        results = run_systems({"squad": span, "race": choice}, {"squad": "fixed"}, outputs_for, tmp_path / "out",
                              store)
        runs = store.runs("expmrc")
        assert len(runs) == len(results)
        pseudo = next(r for r in runs if r.config["system"] == "pseudo")
        assert (pseudo.model, pseudo.status, pseudo.n_instances) == ("fixed", "finished", 2)
    # choice subset without an answerer, where one article has no evidences: only GA Sent.
    assert {k for k, s in results if s == "race"} == {"ga"}
    assert {k for k, s in results if s == "squad"} == {s.key for s in SYSTEMS}
    # the evidence-head row: q1 answer 1, evidence S1 = reference 1 -> 1; q2 answer [city] = [city] -> 1, empty
    # evidence -> 0.  ALL 50, ANS 100, EVI 50; and the written file re-scores to the same numbers
    pseudo_score = results[("pseudo", "squad")]
    assert (pseudo_score.all_f1, pseudo_score.ans_f1, pseudo_score.evi_f1) == (50.0, 100.0, 50.0)
    rescored = evaluate(span, load_predictions(tmp_path / "out" / "squad" / "pseudo.json"), stderr=io.StringIO())
    assert rescored.official("f") == pseudo_score.official("f")
