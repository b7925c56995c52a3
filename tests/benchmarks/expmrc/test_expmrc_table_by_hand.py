"""The Table 3 files `interpeval expmrc baselines` writes, against values worked out by hand from the same inputs.

No answer model is given (``--qa-model ""``), so the rows are the ones that need none: the gold-answer and
gold-evidence upper bounds, human performance and, on the multiple-choice subset, GA Sent. Every expected cell
below is derived in the comments from the hand-made files of ``conftest.py`` by the official rules (REFERENCE §2.3):
NLTK words, the articles a/an/the and 1-character punctuation dropped, lowercased, bag-of-words F1, the maximum over
the references; a dataset score is 100 × the mean over questions, the overall score the mean of the products.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from interpeval.benchmarks.expmrc.cli import app


def _f1(same: int, pred: int, gold: int) -> float:
    precision, recall = same / pred, same / gold
    return 2 * precision * recall / (precision + recall)


# Passage "Tom lives in Paris. He likes the city. It is big." → S1 [tom lives in paris], S2 [he likes city],
# S3 [it is big].
# q1: answers Paris / Paris / in Paris; evidences E1 = "Tom lives in Paris." [tom lives in paris],
#     E2 = "Tom lives in Paris. He likes the city." [tom lives in paris he likes city] and, added here, a third,
#     E3 = "He likes the city." [he likes city].
# q2: answer "the city"; evidence "likes the city. It is" [likes city it is].
GA_EVIDENCE = {"q1": 1.0,  # S1 holds "Paris" and is E1 itself
               "q2": _f1(2, 3, 4)}  # S2 holds "the city": [he likes city] vs [likes city it is], 2 shared = 4/7
GE_EVIDENCE = {"q1": 1.0,  # the sentences covering E1: S1
               "q2": _f1(4, 6, 4)}  # E covers S2 and S3: [he likes city it is big] vs 4 words, all shared = 4/5
# Human, q1 only (q2 has one answer and one evidence: skipped); annotator k = 0, 1, 2 against the other references.
# Answers: "Paris" vs {Paris, in Paris} = 1 (k = 0, 1); "in Paris" vs {Paris, Paris}: 1 shared of 2 / 1 = 2/3.
# Evidences: E1 vs {E2 (4 shared of 4 / 7: 8/11), E3 (0)} = 8/11; E2 vs {E1: 8/11, E3: 3 shared of 7 / 3 = 3/5} =
# 8/11; E3 vs {E1: 0, E2: 3 shared of 3 / 7 = 3/5} = 3/5. Overall: the mean over k of answer k × evidence k.
HUMAN_ANSWER = (1 + 1 + _f1(1, 2, 1)) / 3
HUMAN_EVIDENCE = (_f1(4, 4, 7) + _f1(4, 7, 4) + _f1(3, 3, 7)) / 3
HUMAN_ALL = (_f1(4, 4, 7) + _f1(4, 7, 4) + _f1(1, 2, 1) * _f1(3, 3, 7)) / 3


def test_table3_files_against_hand_worked_values(tmp_path, span_file, choice_file):
    data = tmp_path / "data"
    squad = json.loads(span_file.read_text())
    squad["data"][0]["paragraphs"][0]["qas"][0]["evidences"].append("He likes the city.")
    for subset, text in (("squad", json.dumps(squad)), ("race", choice_file.read_text())):
        (data / subset).mkdir(parents=True)
        (data / subset / f"expmrc-{subset}-dev.json").write_text(text)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["baselines", "--subsets", "squad,race", "--data-dir", str(data),
                                      "--qa-model", "", "--out", str(out), "--no-store"])
    assert result.exit_code == 0, result.output
    table = json.loads((out / "table3.json").read_text())
    rows = {r["System"]: r for r in table["rows"]}

    ga = rows["GA Sent. (gold answer; upper bound)"]
    ga_evidence = 100 * sum(GA_EVIDENCE.values()) / 2  # 78.57
    assert (ga["SQuAD Ans."], ga["SQuAD Evi."], ga["SQuAD All"]) == pytest.approx((100.0, ga_evidence, ga_evidence))
    ge = rows["GE Sent. (gold answer; upper bound)"]
    assert (ge["SQuAD Ans."], ge["SQuAD Evi."], ge["SQuAD All"]) == pytest.approx((100.0, 90.0, 90.0))
    human = rows["Human (cross-validation over references)"]
    assert (human["SQuAD Ans."], human["SQuAD Evi."], human["SQuAD All"]) == pytest.approx(
        (100 * HUMAN_ANSWER, 100 * HUMAN_EVIDENCE, 100 * HUMAN_ALL))  # 88.89, 68.48, 61.82 (88.89 × 68.48 would be 60.87)

    # RACE+: GA Sent. is the sentence most similar to the gold option. "Paris" → S1 (F1 2/5; 0 elsewhere), "big" →
    # S3 (1/2), "Tom" → S1 (2/5). Labels are the gold ones: answer 1 each. Evidence: S1 = the reference (1), S3 = the
    # reference (1), art2 has no reference evidence (0) → 200/3; overall = the same products.
    assert (ga["RACE+ Ans."], ga["RACE+ Evi."], ga["RACE+ All"]) == pytest.approx((100.0, 200 / 3, 200 / 3))
    # GE Sent. and human performance need reference evidences on every question: art2 has none
    for row in (ge, human):
        assert all(row[f"RACE+ {m}"] is None or row[f"RACE+ {m}"] != row[f"RACE+ {m}"] for m in ("Ans.", "Evi.", "All"))
    # the model rows are left out (no answer model), and the Markdown file shows the same cells at one decimal
    assert not {"PA Sent.", "Pseudo-data training (evidence head)"} & set(rows)
    markdown = (out / "table3.md").read_text()
    ga_line = next(line for line in markdown.splitlines() if line.startswith("| GA Sent."))
    assert [c.strip() for c in ga_line.strip("|").split("|")][1:] == ["100.0", "78.6", "78.6", "100.0", "66.7",
                                                                       "66.7"]
    # what the table says about itself: no answer model on SQuAD, the overlap scorer on RACE+, each file's hash
    from interpeval.store import fingerprint_files

    assert table["provenance"]["model"] == {"SQuAD": "none", "RACE+": "overlap-option-scorer (unsupervised, no model)"}
    assert table["provenance"]["data"] == {
        name: f"expmrc-{subset}-dev.json (sha256 {fingerprint_files(data / subset / f'expmrc-{subset}-dev.json')})"
        for subset, name in (("squad", "SQuAD"), ("race", "RACE+"))}
    assert table["notes"] == [
        "SQuAD: no answer model given, model rows left out",
        "Human: each reference in turn against the others; multiple choice: answer fixed at 100 (multiple choice: "
        "one gold label, no annotator choices released), not measured, so its overall score is the evidence score.",
        "Upper bounds use the gold answer: GA Sent. = sentence of the gold answer (multiple choice: MSS of the gold "
        "option); GE Sent. = sentences covering the first reference evidence."]
    page = (out / "table3.html").read_text()
    assert "<title>ExpMRC baselines</title>" in page and "<h2>Dev sets</h2>" in page
    assert page.count("<tr>") == 1 + len(rows)  # the header and every row of table3.json
    assert sorted(p.name for p in out.iterdir() if p.is_file()) == ["table3.html", "table3.json", "table3.md"]


def test_table3_cells_from_hand_made_scores():
    """``table3`` alone, on scores written by hand: Ans. = 100 × mean answer F1, Evi. = 100 × mean evidence F1,
    All = 100 × mean of the per-question products (or of ``joint`` where human performance sets it)."""
    from interpeval.benchmarks.expmrc.score import Score
    from interpeval.benchmarks.expmrc.tables import table3

    results = {
        ("mss", "squad"): Score("v", {"q1": 1.0, "q2": 0.5}, {"q1": 0.5, "q2": 0.0}),  # 75, 25, (0.5 + 0) / 2 = 25
        ("ga", "squad"): Score("v", {"q1": 1.0, "q2": 1.0}, {"q1": 1.0, "q2": 0.6}),   # 100, 80, 80
        ("ga", "race"): Score("v", {"a": 1.0, "b": 1.0}, {"a": 1.0, "b": 0.0}),        # 100, 50, 50
        # human: All from joint (0.3 + 0.5) / 2 = 40, not 0.9 × 0.4 + 0.7 × 0.6 → 39
        ("human", "squad"): Score("v", {"q1": 0.9, "q2": 0.7}, {"q1": 0.4, "q2": 0.6}, joint={"q1": 0.3, "q2": 0.5}),
        ("human", "race"): Score("v", {"a": 1.0, "b": 1.0}, {"a": 0.5, "b": 0.25}),    # 100 (fixed), 37.5, 37.5
    }
    answerers = {"race": "overlap"}
    data = {"squad": "s.json (sha256 1)", "race": "r.json (sha256 2)", "c3": "unused"}
    table = table3(results, answerers, data, subsets=("squad", "race"), notes=["a note"],
                   kinds={"squad": "span", "race": "choice"})
    assert table.title == "ExpMRC dev results (paper Table 3 layout)"
    assert table.columns == ["System", "SQuAD Ans.", "SQuAD Evi.", "SQuAD All", "RACE+ Ans.", "RACE+ Evi.",
                             "RACE+ All"]
    # systems in SYSTEMS order; MSS w/ Ques., PA Sent., pseudo-data and GE Sent. have no score: left out
    assert [r[0] for r in table.rows] == ["MSS", "GA Sent. (gold answer; upper bound)",
                                          "Human (cross-validation over references)"]
    mss, ga, human = table.rows
    assert mss[1:4] == pytest.approx([75.0, 25.0, 25.0]) and all(v != v for v in mss[4:])
    assert ga[1:] == pytest.approx([100.0, 80.0, 80.0, 100.0, 50.0, 50.0])
    assert human[1:4] == pytest.approx([80.0, 50.0, 40.0])
    assert human[4:] == ["100 (fixed)", pytest.approx(37.5), "37.5 (= Evi.)"]
    markdown = table.to_markdown().splitlines()
    assert markdown[4] == "| MSS | 75.0 | 25.0 | 25.0 | – | – | – |"
    assert markdown[6] == "| Human (cross-validation over references) | 80.0 | 50.0 | 40.0 | 100 (fixed) | 37.5 | 37.5 (= Evi.) |"
    assert table.provenance == {
        "model": {"SQuAD": "none", "RACE+": "overlap"}, "data": {"SQuAD": "s.json (sha256 1)", "RACE+": "r.json (sha256 2)"},
        "scorer": "interpeval expmrc score (official eval_expmrc.py algorithm, official=True)",
        "sentences": "en: split after .!? + whitespace; zh: split after 。！？ and ellipses",
        "similarity": "ExpMRC token F1 (words for English, characters for Chinese)"}
    assert table.notes == ["a note"]
    # without kinds the human row's RACE+ cells are numbers (a span subset's answer score is measured); no notes
    plain = table3(results, answerers, {"squad": "s"}, subsets=("squad", "race"))
    assert plain.rows[2][4:] == pytest.approx([100.0, 37.5, 37.5]) and plain.notes == []
    assert plain.provenance["data"] == {"SQuAD": "s"}


def test_run_table3_with_its_defaults_uses_no_answer_model_and_records_every_run(tmp_path, span_file, choice_file):
    """Called as a library with only paths: no answer model on the span subset (its model rows left out), the
    overlap scorer on the multiple-choice one, every scored (system, subset) pair recorded in the store."""
    from interpeval.benchmarks.expmrc.data import load_dataset
    from interpeval.benchmarks.expmrc.tables import run_baselines, run_table3, zoo_qa_head
    from interpeval.store import Store

    out, store = tmp_path / "out", tmp_path / "s.sqlite"
    written = run_table3({"squad": span_file, "race": choice_file}, out, store_path=store)
    assert written == [out / "table3.md", out / "table3.json", out / "table3.html"]
    rows = {r["System"] for r in json.loads((out / "table3.json").read_text())["rows"]}
    # SQuAD without a model: GA, GE, human; RACE+ with the overlap scorer: MSS, MSS w/ Ques., GA (GE and human
    # need a reference evidence on every question: art2 has none) → 6 runs, 5 distinct rows
    assert rows == {"MSS", "MSS w/ Ques.", "GA Sent. (gold answer; upper bound)",
                    "GE Sent. (gold answer; upper bound)", "Human (cross-validation over references)"}
    with Store(store) as db:
        assert len(db.runs("expmrc")) == 6
    datasets = {"squad": load_dataset(span_file), "race": load_dataset(choice_file)}
    scores, answerers, notes = run_baselines(datasets, tmp_path / "again", store_path=tmp_path / "t.sqlite")
    assert set(scores) == {("ga", "squad"), ("ge", "squad"), ("human", "squad"), ("mss", "race"), ("mss_q", "race"),
                           ("ga", "race")}
    assert answerers == {"race": "overlap-option-scorer (unsupervised, no model)"} and notes == []
    with Store(tmp_path / "t.sqlite") as db:
        assert len(db.runs("expmrc")) == 6
    assert zoo_qa_head("xx") == ""  # no head ships for that language: the model rows are left out


def test_human_row_on_multiple_choice_reads_fixed_and_no_store_writes_nothing(tmp_path, choice_file):
    """On a multiple-choice subset the human answer score is fixed, not measured: the cells say so. Evidence by
    hand: q1's two references [tom lives in paris] and [tom lives in paris he likes city] score F1 8/11 against
    each other, q2's two identical ones 1 → Evi. = 100 × (8/11 + 1) / 2 = 86.36; All = Evi. (answer fixed at 1)."""
    from interpeval.benchmarks.expmrc.tables import run_table3

    raw = json.loads(choice_file.read_text())
    raw["data"] = raw["data"][:1]  # art1 only, two reference evidences per question
    raw["data"][0]["evidences"] = [["Tom lives in Paris.", "Tom lives in Paris. He likes the city."],
                                   ["It is big.", "It is big."]]
    choice = tmp_path / "race.json"
    choice.write_text(json.dumps(raw))
    out, unused = tmp_path / "out", tmp_path / "unused.sqlite"
    run_table3({"race": choice}, out, store_path=unused, use_store=False)
    rows = {r["System"]: r for r in json.loads((out / "table3.json").read_text())["rows"]}
    human = rows["Human (cross-validation over references)"]
    assert [human[f"RACE+ {m}"] for m in ("Ans.", "Evi.", "All")] == [
        "100 (fixed)", pytest.approx(100 * (8 / 11 + 1) / 2), "86.4 (= Evi.)"]
    assert not unused.exists()


def test_each_subset_gets_the_answer_model_of_its_kind_and_language(tmp_path, span_file, choice_file):
    """A multiple-choice subset without --mc-model (listed first) still leaves the span subset its QA model; a
    given --mc-model is loaded as a multiple-choice model; the answer models' outputs are kept in the store; a
    Chinese subset without --qa-model-zh gets no answer model (the default is none)."""
    from interpeval.benchmarks.expmrc.data import load_dataset
    from interpeval.benchmarks.expmrc.tables import run_baselines, run_table3
    from interpeval.store import Store

    datasets = {"race": load_dataset(choice_file), "squad": load_dataset(span_file)}
    store = tmp_path / "s.sqlite"
    _, answerers, _ = run_baselines(datasets, tmp_path / "a", qa_model="tiny-extractive-qa", store_path=store)
    assert answerers == {"race": "overlap-option-scorer (unsupervised, no model)", "squad": "tiny-extractive-qa"}
    with Store(store) as db:
        assert [(r.benchmark, r.model) for r in db.runs("expmrc-answers")] == [("expmrc-answers", "tiny-extractive-qa")]
    raw = json.loads(choice_file.read_text())  # two options per question: the model batches questions together
    raw["data"][0]["options"][1], raw["data"][0]["answers"][1] = ["small", "big"], "B"
    two = tmp_path / "two.json"
    two.write_text(json.dumps(raw))
    scores, answerers, _ = run_baselines({"race": load_dataset(two)}, tmp_path / "b", mc_model="tiny-multiple-choice",
                                         use_store=False)
    assert answerers == {"race": "tiny-multiple-choice"} and ("mss", "race") in scores

    zh = tmp_path / "cmrc.json"
    zh.write_text(span_file.read_text().replace("expmrc-squad", "expmrc-cmrc2018"))
    assert load_dataset(zh).language == "zh"
    assert run_baselines({"cmrc2018": load_dataset(zh)}, tmp_path / "c", use_store=False)[1] == {}
    run_table3({"cmrc2018": zh}, tmp_path / "d", use_store=False)
    notes = json.loads((tmp_path / "d" / "table3.json").read_text())["notes"]
    assert notes[0] == "CMRC 2018: no answer model given, model rows left out"
