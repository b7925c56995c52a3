import io

import pytest

from interpeval.benchmarks.expmrc import views
from interpeval.benchmarks.expmrc.data import (
    dev_path,
    load_dataset,
    load_predictions,
    sample_submission_path,
)
from interpeval.benchmarks.expmrc.score import evaluate

# One real question per subset with the official sample submission's prediction, F1s worked by hand by REFERENCE
# §2.3–2.4: tokens = nltk words, or single characters for CJK; a token "a"/"an"/"the" (case-sensitive) and a 1-char
# punctuation token (incl. SP_CHARS such as 、：。) are dropped; F1 = 2PR/(P+R) on token multisets, max over refs;
# multiple choice: answer 1 iff the label equals the gold one.
HAND_WORKED = [
    # squad: "Nature" vs "the journal Nature" -> [nature] vs [journal, nature]: P 1, R 1/2 -> 2/3.
    # evidence "Nature calling for changes to the IPCC." -> [nature, calling, for, changes, to, ipcc] (6; "the" and
    # "." dropped); the reference sentence has 40 nltk tokens, less 2 ",", 3 "the", 1 "." = 34 (the two "–" stay),
    # holding all 6: P 1, R 6/34 -> F1 = (12/34) / (40/34) = 3/10; all = 2/3 × 3/10 = 1/5
    ("squad", "572951f16aef051400154ccf", 2 / 3, 3 / 10),
    # cmrc2018: "马来西亚、印度尼西亚两国" -> 11 characters (、 dropped) vs "印度尼西亚" (5), all 5 shared (西 once):
    # P 5/11, R 1 -> 10/16 = 5/8. Evidence: 35 characters (、 。 dropped); the 2nd reference is "海牙国际法庭就" (7)
    # + the prediction -> 42 characters holding all 35: P 1, R 5/6 -> 10/11 (the 1st reference adds "2002" and 年:
    # R 35/44, lower); all = 5/8 × 10/11 = 25/44
    ("cmrc2018", "DEV_78_QUERY_2", 5 / 8, 10 / 11),
    # race: "B" = gold "B" -> 1. Evidence "When the game started all of us ran to the grass." -> 9 tokens (two "the",
    # "." dropped); reference: 23 nltk tokens over two sentences, less 2 "." = 21 ("The" is kept: the article test is
    # case-sensitive); shared: game, to -> P 2/9, R 2/21 -> F1 = (8/189) / (60/189) = 2/15; all = 2/15
    ("race", "00237b13-3", 1.0, 2 / 15),
    # c3: "A" != gold "D" -> 0. Evidence "误区一：感冒是小病。" -> 8 characters (：。 dropped) vs "误区二：感冒是由于寒冷造成的。"
    # -> 13; shared 误 区 感 冒 是 = 5: P 5/8, R 5/13 -> 50/105 = 10/21; all = 0 × 10/21 = 0
    ("c3", "m12-218-0", 0.0, 10 / 21),
]


@pytest.mark.parametrize(("subset", "qid", "answer_f1", "evidence_f1"), HAND_WORKED)
def test_question_scores_of_real_predictions_by_hand(subset, qid, answer_f1, evidence_f1):
    dataset = load_dataset(dev_path(subset))
    predictions = load_predictions(sample_submission_path(subset))
    question, pred = next(q for q in dataset.questions if q.qid == qid), predictions[qid]
    shown = views.question_scores(question, {"answer": pred.answer, "evidence": pred.evidence})
    assert shown == {"answer F1": pytest.approx(answer_f1), "evidence F1": pytest.approx(evidence_f1),
                     "all (answer × evidence)": pytest.approx(answer_f1 * evidence_f1)}
    # the official scorer's per-question values of the whole file agree on this question
    score = evaluate(dataset, predictions, stderr=io.StringIO())
    assert (score.answer[qid], score.evidence[qid]) == pytest.approx((answer_f1, evidence_f1))


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
