import io

import pytest

from interpeval.benchmarks.expmrc import views
from interpeval.benchmarks.expmrc.data import (
    SUBSETS,
    dev_path,
    load_dataset,
    load_predictions,
    sample_submission_path,
)
from interpeval.benchmarks.expmrc.score import evaluate


@pytest.mark.parametrize("subset", SUBSETS)
def test_an_answer_runs_question_scores_are_the_official_scorers_per_question_scores(subset):
    dataset = load_dataset(dev_path(subset))
    predictions = load_predictions(sample_submission_path(subset))
    score = evaluate(dataset, predictions, stderr=io.StringIO())
    checked = 0
    for q in dataset.questions:
        if q.qid not in predictions:
            continue
        pred = predictions[q.qid]
        shown = views.question_scores(q, {"answer": pred.answer, "evidence": pred.evidence})
        assert shown["answer F1"] == score.answer[q.qid]
        assert shown["evidence F1"] == (None if q.evidences is None else score.evidence[q.qid])
        checked += 1
    assert checked > 0


def test_question_scores_hand_worked_and_none_without_evidence(span_file, choice_file):
    q1 = load_dataset(span_file).questions[0]
    # "Paris city" -> [paris, city] vs [paris]: P 1/2, R 1 -> 2/3 (the best reference); no evidence predicted.
    assert views.question_scores(q1, {"answer": "Paris city", "evidence": None}) == {
        "answer F1": pytest.approx(2 / 3), "evidence F1": None, "all (answer × evidence)": None}
    # evidence "Tom lives in Paris" equals reference 1 once '.' is dropped: 1; all = 2/3 × 1
    assert views.question_scores(q1, {"answer": "Paris city", "evidence": "Tom lives in Paris"})[
        "all (answer × evidence)"] == pytest.approx(2 / 3)
    art2 = load_dataset(choice_file).questions[2]  # multiple choice, no reference evidence in the file
    assert views.question_scores(art2, {"answer": "A", "evidence": "Tom"}) == {
        "answer F1": 1.0, "evidence F1": None, "all (answer × evidence)": None}
