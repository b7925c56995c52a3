import io
import json

import pytest
from typer.testing import CliRunner

from interpeval.benchmarks.expmrc.cli import app
from interpeval.benchmarks.expmrc.data import (
    Prediction,
    dev_path,
    load_dataset,
    load_predictions,
    sample_submission_path,
)
from interpeval.benchmarks.expmrc.human import human_performance
from interpeval.benchmarks.expmrc.score import check_coverage, evaluate
from interpeval.errors import DataError


def test_missing_prediction_counts_as_zero(span_file):
    # q1: answer "Paris city" -> [paris, city] vs [paris]: P 1/2, R 1 -> 2/3; vs [in, paris]: 1/2, 1/2 -> 1/2.
    # evidence "Tom lives in Paris" -> [tom, lives, in, paris] equals ref 1 after dropping '.', F1 = 1.
    # q2 unanswered: 0, 0.  ALL = 100 * (2/3 * 1 + 0) / 2, ANS = 100 * (2/3) / 2, EVI = 100 * 1 / 2.
    err = io.StringIO()
    score = evaluate(load_dataset(span_file), {"q1": Prediction("Paris city", "Tom lives in Paris")}, stderr=err)
    assert err.getvalue() == "Unanswered question: q2\n"
    assert score.official("p.json") == {"ALL_F1": "33.333", "ANS_F1": "33.333", "EVI_F1": "50.000", "TOTAL": 2,
                                        "SKIP": 1, "VERSION": "expmrc-squad-handmade", "FILE": "p.json"}


def test_span_answer_is_stringified_and_evidence_empty(span_file):
    # q1: answer 0 -> "0" -> [0] vs [paris]: 0.  q2: answer "the city" -> [city] = ref: 1; empty evidence -> 0.
    score = evaluate(load_dataset(span_file), {"q1": Prediction(0, "Tom lives in Paris."),
                                               "q2": Prediction("the city", "")}, stderr=io.StringIO())
    assert score.answer == {"q1": 0.0, "q2": 1.0}
    assert score.evidence == {"q1": 1.0, "q2": 0.0}
    assert score.all_f1 == 0.0 and score.ans_f1 == 50.0 and score.evi_f1 == 50.0


def test_multiple_choice_exact_label_and_missing_evidences(choice_file):
    # art1-0: 'a' != 'A' -> 0, evidence exact -> 1; art1-1: 'C' -> 1, empty evidence -> 0;
    # art2-0: 'A' -> 1 but the article has no evidences -> 0.  ALL 0, ANS 200/3, EVI 100/3.
    preds = {"art1-0": Prediction("a", "Tom lives in Paris."), "art1-1": Prediction("C", ""),
             "art2-0": Prediction("A", "Tom lives in Paris.")}
    score = evaluate(load_dataset(choice_file), preds)
    assert score.official("x")["ALL_F1"] == "0.000"
    assert score.ans_f1 == pytest.approx(200 / 3) and score.evi_f1 == pytest.approx(100 / 3)
    assert score.official("x")["TOTAL"] == 3


def test_cli_prints_the_official_line(tmp_path, span_file):
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps({"q1": {"answer": "Paris city", "evidence": "Tom lives in Paris"}}))
    result = CliRunner().invoke(app, ["score", str(span_file), str(pred)])
    assert result.exit_code == 0, result.output
    line = json.dumps({"ALL_F1": "33.333", "ANS_F1": "33.333", "EVI_F1": "50.000", "TOTAL": 2, "SKIP": 1,
                       "VERSION": "expmrc-squad-handmade", "FILE": str(pred)})
    assert result.stdout.strip().splitlines()[-1] == line


def test_unofficial_switch_changes_quirky_cases(span_file):
    # "The city" keeps 'the' officially: [the, city] vs [city] -> 2/3; unofficially 1.
    preds = {"q1": Prediction("Paris", "x"), "q2": Prediction("The city", "x")}
    assert evaluate(load_dataset(span_file), preds).answer["q2"] == pytest.approx(2 / 3)
    assert evaluate(load_dataset(span_file), preds, official=False).answer["q2"] == 1.0


# Pinned by running the original algorithm: these are the numbers the official eval_expmrc.py prints on the
# official sample submissions (checked with the original script and real nltk.word_tokenize + NLTK's English
# punkt parameters; see the ExpMRC section of the project report).
SAMPLE_SCORES = {
    "squad": ("71.701", "92.892", "76.756", 501),
    "cmrc2018": ("53.084", "83.377", "62.605", 515),
    "race": ("32.624", "68.984", "44.129", 561),
    "c3": ("49.973", "75.248", "63.303", 505),
}


@pytest.mark.parametrize("subset", sorted(SAMPLE_SCORES))
def test_official_sample_submissions(subset):
    path = str(sample_submission_path(subset))
    got = evaluate(load_dataset(dev_path(subset)), load_predictions(path)).official(path)
    assert (got["ALL_F1"], got["ANS_F1"], got["EVI_F1"], got["TOTAL"], got["SKIP"]) == (*SAMPLE_SCORES[subset], 0)


def test_human_cross_validation(span_file):
    # q1 (n = min(3 answers, 2 evidences) = 2): answers "Paris" vs the others -> 1 both times;
    # evidence 1 [tom lives in paris] vs evidence 2 [tom lives in paris he likes city]: P 1, R 4/7 -> 8/11, and
    # symmetrically 8/11.  q2 has one evidence -> skipped.  ALL = EVI = 800/11, ANS = 100.
    score = human_performance(load_dataset(span_file))
    assert score.skipped == ["q2"]
    assert score.ans_f1 == 100.0
    assert score.evi_f1 == pytest.approx(800 / 11) and score.all_f1 == pytest.approx(800 / 11)


def test_check_coverage_names_the_wrong_file_and_warns_about_foreign_ids(span_file, capsys):
    """A file that answers none of the questions is the wrong file (an error, or with ``lenient`` a warning and 0
    everywhere); ids that are not questions are ignored with a warning naming the first."""
    dataset, answer = load_dataset(span_file), Prediction("Paris", "")
    err = io.StringIO()
    with pytest.raises(DataError) as caught:
        check_coverage(dataset, {"x1": answer, "x2": answer}, "p.json", stderr=err)
    assert str(caught.value) == (f"p.json:question x1: none of its 2 question ids is a question of {dataset.path} "
                                 "(wrong data file? --official scores it as the original does: 0 everywhere)")
    assert err.getvalue() == ""
    check_coverage(dataset, {"q1": answer, "x": answer}, "p.json")  # warnings go to stderr by default
    assert "1 of 2 predictions are not questions" in capsys.readouterr().err
    check_coverage(dataset, {"x1": answer, "x2": answer}, "p.json", lenient=True, stderr=err)
    assert err.getvalue().splitlines() == [
        f"warning: p.json: answers none of the 2 questions of {dataset.path}; scored as the official scorer does: "
        "0 everywhere, every question counted in SKIP",
        f"warning: p.json: 2 of 2 predictions are not questions of {dataset.path} and are ignored (first: 'x1')"]
    err = io.StringIO()
    check_coverage(dataset, {"q1": answer, "x": answer}, "p.json", stderr=err)
    assert err.getvalue() == (f"warning: p.json: 1 of 2 predictions are not questions of {dataset.path} and are "
                              "ignored (first: 'x')\n")
    err = io.StringIO()
    check_coverage(dataset, {}, "p.json", stderr=err)  # an empty file: nothing foreign, everything unanswered
    assert err.getvalue().startswith("warning: p.json: answers none of the 2 questions") and err.getvalue().count(
        "\n") == 1


def test_the_official_line_is_the_original_json_dumps(span_file):
    # both answered: q1 "Paris" = 1, evidence E1 = 1; q2 "city" = 1, evidence "He likes the city." [he likes city]
    # vs [likes city it is]: 2 shared, P 2/3, R 1/2 → 4/7. ANS 100, EVI (1 + 4/7) / 2 = 78.571, ALL the same.
    score = evaluate(load_dataset(span_file), {"q1": Prediction("Paris", "Tom lives in Paris."),
                                               "q2": Prediction("city", "He likes the city.")})
    assert score.official_line("预测.json") == (
        '{"ALL_F1": "78.571", "ANS_F1": "100.000", "EVI_F1": "78.571", "TOTAL": 2, "SKIP": 0, '
        '"VERSION": "expmrc-squad-handmade", "FILE": "\\u9884\\u6d4b.json"}')


def test_an_unanswered_first_question_is_listed_and_the_rest_still_scored(span_file):
    # q1 unanswered (0, 0, listed in SKIP by id); q2 "city" = [city] = the reference: 1; evidence "The city" against
    # "likes the city. It is": official, "The" survives as "the" ([the city], 1 of 2 vs 1 of 4 → 1/3); with the
    # quirks off it is dropped ([city]: 1 of 1 vs 1 of 4 → 2/5)
    dataset = load_dataset(span_file)
    for official, evidence in ((True, 1 / 3), (False, 2 / 5)):
        score = evaluate(dataset, {"q2": Prediction("city", "The city")}, official=official, stderr=io.StringIO())
        assert score.skipped == ["q1"] and score.answer == {"q1": 0.0, "q2": 1.0}
        assert score.evidence == {"q1": 0.0, "q2": pytest.approx(evidence)}
