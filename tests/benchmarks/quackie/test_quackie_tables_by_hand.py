"""QUACKIE's output files from a hand-made result: what a user reads in results.json, the three tables and the report.

The result below is written by hand (no model runs), so every expected cell, file and caption is known without
calling the code: the cells are the row values at the table's digits (2 for the leaderboard, 3 for the ground-truth
check), NaN is "–" in Markdown and null in results.json.
"""

from __future__ import annotations

import json
import math

import pytest

from interpeval.benchmarks.quackie.run import QuackieResult
from interpeval.benchmarks.quackie.tables import (
    check_table,
    leaderboard_table,
    results_json,
    selection_table,
    write_outputs,
)

NAN = math.nan


def _row(ds, clf, method, iou, hpd, snr, n, fails, no_snr):
    return {"dataset": ds, "classifier": clf, "method": method, "IoU": iou, "HPD": hpd, "SNR": snr,
            "info": f"hand; n={n}", "n": n, "fails": fails, "no_snr": no_snr}


def _selection(ds, clf, model, kept):
    return {"dataset": ds, "classifier": clf, "model": model, "questions": 10, "unanswerable": 2, "trained_on": 1,
            "scanned": 6, "too_long": 1, "not_predicted": 2, "kept": kept}


@pytest.fixture
def result():
    # five dataset × classifier pairs; sorted by (classifier, dataset): bioasq, hotpot, squad2, trivia / Cls, newsqa / QA
    rows = [_row("squad2", "Cls", "Random", 20.0, 50.0, NAN, 3, 0, 3),
            _row("squad2", "Cls", "IG_sum", 200 / 3, 250 / 3, 150.0, 3, 1, 0),
            _row("squad2", "Cls", "IG_max", 100.0, 100.0, NAN, 3, 0, 3),
            _row("newsqa", "QA", "IG_sum", 0.0, 12.5, 7.25, 4, 0, 1),
            _row("bioasq", "Cls", "Random", NAN, NAN, NAN, 0, 0, 0),
            _row("trivia", "Cls", "Random", 1.0, 2.0, 3.0, 1, 0, 0),
            _row("hotpot", "Cls", "Random", 4.0, 5.0, 6.0, 1, 0, 0)]
    # bioasq's classifier has another model than squad2's: a caption must name its own pair's model
    selection = [_selection("squad2", "Cls", "m-cls", 3), _selection("newsqa", "QA", "m-qa", 4),
                 _selection("bioasq", "Cls", "m-bio", 0), _selection("trivia", "Cls", "m-cls", 1),
                 _selection("hotpot", "Cls", "m-cls", 1)]
    checks = [{"dataset": "squad2", "classifier": "Cls", "model": "m-cls", "n": 3, "p_full": 0.9, "p_without_gt": 0.4,
               "p_only_gt": 0.8, "delta_without_gt": -0.5, "delta_only_gt": -0.1, "positive_without_gt": 0.0}]
    config = {"datasets": ["squad2", "newsqa", "bioasq"], "methods": [{"label": "Random"}, {"label": "IG"}],
              "aggs": ["sum", "max"], "limit": 5, "official": False, "seed": 3, "chunk": 4}
    return QuackieResult(rows, selection, checks, config, skipped_methods=["LIME on QA (extractive-qa unsupported)",
                                                                           "SHAP on QA (extractive-qa unsupported)"])


LEADERBOARD_NOTES = [
    "IoU, HPD, SNR = 100 × NaN-ignoring mean over explained samples at k=1 (QUACKIE analyze); SNR is s²/n² on the "
    "top-1 binarised scores; 'fails' = samples with NaN IoU, 'no_snr' = samples with NaN SNR.",
    "Random = the original's sentence-level random permutation (seeded per sample).",
    "not run (model kind unsupported): LIME on QA (extractive-qa unsupported); SHAP on QA (extractive-qa unsupported)"]
PARAMETERS = {"aggs": ["sum", "max"], "limit": 5, "official": False, "seed": 3}  # chunk and datasets left out


def test_leaderboard_markdown_cell_by_cell(result):
    table = leaderboard_table(result, "hand data")
    assert table.to_markdown() == "\n".join([
        "### QUACKIE leaderboard", "",
        "| dataset | classifier | method | IoU | HPD | SNR | n | fails | no_snr |",
        "|---|---|---|---|---|---|---|---|---|",
        "| squad2 | Cls | Random | 20.00 | 50.00 | – | 3 | 0 | 3 |",
        "| squad2 | Cls | IG_sum | 66.67 | 83.33 | 150.00 | 3 | 1 | 0 |",
        "| squad2 | Cls | IG_max | 100.00 | 100.00 | – | 3 | 0 | 3 |",
        "| newsqa | QA | IG_sum | 0.00 | 12.50 | 7.25 | 4 | 0 | 1 |",
        "| bioasq | Cls | Random | – | – | – | 0 | 0 | 0 |",
        "| trivia | Cls | Random | 1.00 | 2.00 | 3.00 | 1 | 0 | 0 |",
        "| hotpot | Cls | Random | 4.00 | 5.00 | 6.00 | 1 | 0 | 0 |", "",
        "- model: m-bio, m-cls, m-qa",  # each model once, sorted
        "- data: hand data", "- explainer: Random, IG",
        "- parameters: " + json.dumps(PARAMETERS),
        *[f"- {n}" for n in LEADERBOARD_NOTES]]) + "\n"
    result.skipped_methods = []
    assert leaderboard_table(result).notes == LEADERBOARD_NOTES[:2]
    assert leaderboard_table(result).provenance["data"] == "vendored SQuAD-format subsets"
    result.config = {}  # a result without a configuration: no explainer named, every parameter unknown
    assert leaderboard_table(result).provenance == {"model": "m-bio, m-cls, m-qa",
                                                    "data": "vendored SQuAD-format subsets", "explainer": "",
                                                    "parameters": dict.fromkeys(("aggs", "limit", "official", "seed"))}


def test_parameters_name_the_draw_rule_of_each_method_that_draws(result):
    # LIME and SmoothGrad draw per input: LIME keeps the default rule (draws="tokens"), SmoothGrad was run with
    # draws="seed"; Gradient (saliency) and the original's sentence-level Random (no registered explainer) draw nothing
    result.config["methods"] = [{"label": "Random", "explainer": "", "params": {}},
                                {"label": "Gradient", "explainer": "saliency", "params": {}},
                                {"label": "LIME_10", "explainer": "lime", "params": {"n_samples": 10}},
                                {"label": "SmoothGrad_5", "explainer": "smoothgrad",
                                 "params": {"n_samples": 5, "draws": "seed"}}]
    draws = {"LIME_10": "tokens", "SmoothGrad_5": "seed"}
    for table in (leaderboard_table(result), selection_table(result), check_table(result)):
        assert table.provenance["parameters"] == {**PARAMETERS, "draws": draws}
        assert "- parameters: " + json.dumps({**PARAMETERS, "draws": draws}) in table.to_markdown()


def test_selection_and_check_tables(result):
    sel = selection_table(result)
    assert sel.title == "QUACKIE sample selection (true positives only)"
    assert sel.columns == ["dataset", "classifier", "questions", "unanswerable", "trained_on", "scanned", "too_long",
                           "not_predicted", "kept"]
    assert sel.rows == [[ds, clf, 10, 2, 1, 6, 1, 2, kept] for ds, clf, kept in
                        (("squad2", "Cls", 3), ("newsqa", "QA", 4), ("bioasq", "Cls", 0), ("trivia", "Cls", 1),
                         ("hotpot", "Cls", 1))]
    assert sel.provenance == {"model": "m-bio, m-cls, m-qa", "data": "vendored SQuAD-format subsets",
                              "explainer": "Random, IG", "parameters": PARAMETERS}
    assert sel.notes == ["too_long / not_predicted are counted over the scanned prefix (scanning stops at --limit)."]

    check = check_table(result)
    assert check.title == "Ground-truth verification (probability change)"
    # the row has no positive_only_gt: a NaN cell ("–"), three decimals
    assert check.to_markdown().splitlines()[2:5] == [
        "| dataset | classifier | n | p_full | p_without_gt | p_only_gt | delta_without_gt | delta_only_gt | "
        "positive_without_gt | positive_only_gt |",
        "|---|---|---|---|---|---|---|---|---|---|",
        "| squad2 | Cls | 3 | 0.900 | 0.400 | 0.800 | -0.500 | -0.100 | 0.000 | – |"]
    assert check.provenance["model"] == "m-cls" and check.provenance["data"] == "vendored SQuAD-format subsets"
    assert check.notes == ["Mean P(answerable) over the explained true positives; the GT sentence is the one named "
                           "by most gold answers; sentences are re-joined with one space."]
    result.checks, result.selection = [], []
    assert check_table(result).provenance["model"] == "-" and check_table(result).rows == []
    assert selection_table(result).provenance["model"] == "-"


def test_results_json_is_the_official_schema_with_null_for_nan(result):
    rows = results_json(result)
    assert rows[0] == {"dataset": "squad2", "classifier": "Cls", "method": "Random", "IoU": 20.0, "HPD": 50.0,
                       "SNR": None, "info": "hand; n=3"}
    assert [r["SNR"] for r in rows] == [None, 150.0, None, 7.25, None, 3.0, 6.0]
    assert rows[4]["IoU"] is None and rows[3]["IoU"] == 0.0


def test_write_outputs_files_and_report(result, tmp_path):
    out = tmp_path / "new" / "out"  # parents made as needed
    paths = write_outputs(result, out, "hand data", wall_s=12.4)
    assert paths == {"results": out / "results.json", "report": out / "report.html"}
    assert json.loads(paths["results"].read_text()) == results_json(result)
    for stem, title in (("leaderboard", "QUACKIE leaderboard"),
                        ("selection", "QUACKIE sample selection (true positives only)"),
                        ("gt_check", "Ground-truth verification (probability change)")):
        saved = json.loads((out / f"{stem}.json").read_text())
        assert saved["title"] == title and saved["provenance"]["data"] == "hand data"
        assert (out / f"{stem}.md").read_text().startswith(f"### {title}\n")
    assert json.loads((out / "leaderboard.json").read_text())["rows"][1]["IoU"] == pytest.approx(200 / 3)
    assert sorted(p.name for p in (out / "figures").iterdir()) == [
        "bioasq_Cls.png", "hotpot_Cls.png", "newsqa_QA.png", "squad2_Cls.png", "trivia_Cls.png"]
    html = paths["report"].read_text()
    headings = ["<h1>QUACKIE results</h1>", "<h2>Leaderboard</h2>", "<h2>Figures</h2>", "<h2>Sample selection</h2>",
                "<h2>Ground-truth verification</h2>", "<h2>Run</h2>"]
    assert [html.index(h) for h in headings] == sorted(html.index(h) for h in headings)
    # each section holds its own table
    assert "<h3>QUACKIE leaderboard</h3>" in html[html.index(headings[1]):html.index(headings[2])]
    assert "<h3>QUACKIE sample selection" in html[html.index(headings[3]):html.index(headings[4])]
    assert "<h3>Ground-truth verification" in html[html.index(headings[4]):html.index(headings[5])]
    captions = [f"IoU / HPD / SNR per method (sum vs max) on {ds}, {clf} classifier ({model})"
                for ds, clf, model in (("bioasq", "Cls", "m-bio"), ("hotpot", "Cls", "m-cls"), ("squad2", "Cls", "m-cls"),
                                       ("trivia", "Cls", "m-cls"), ("newsqa", "QA", "m-qa"))]
    at = [html.index(f"<figcaption>{c}</figcaption>") for c in captions]
    assert at == sorted(at) and html.count("data:image/png;base64") == 5
    assert f"<p>Wall time 12 s. Configuration: {json.dumps(result.config)}</p>".replace('"', "&quot;") in html
    # written again into the same folder (a rerun), without a wall time or a data name
    again = write_outputs(result, out)
    assert "<h2>Run</h2>" not in again["report"].read_text()
    assert json.loads((out / "selection.json").read_text())["provenance"]["data"] == "vendored SQuAD-format subsets"
