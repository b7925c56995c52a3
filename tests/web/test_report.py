"""The static report: the same views as the app, in one self-contained file; the CLI and the suite summary."""

import json
import re

import pytest
from typer.testing import CliRunner

from interpeval.cli import app
from interpeval.report.static import suite_summary, write_static_report


def test_report_is_self_contained_and_escaped(seeded, tmp_path):
    path, ids = seeded
    page = write_static_report(path, tmp_path / "r.html", examples=4).read_text(encoding="utf-8")
    assert not re.search(r"<script[^>]+src=|<link[^>]+href=\"http", page)  # nothing fetched: plotly is inlined
    assert "Plotly" in page and len(page) > 3_000_000
    assert "<script>document.title" not in page and "&lt;script&gt;document.title" in page
    csv = json.loads(re.search(r'<script type="application/json" id="csv-data">(.*?)</script>', page, re.S).group(1))
    assert set(csv) == {"quackie", "expmrc", "probing", "plm_rationale", "evaluate"}
    assert csv["probing"].splitlines()[0].startswith("model,language,category,aggregation,probe,layer,accuracy")
    for run_id in ids.values():
        assert f'href="#run-{run_id}"' in page


def test_report_cli_selects_runs_and_names_a_wrong_id(seeded, tmp_path):
    path, ids = seeded
    out = tmp_path / "one.html"
    result = CliRunner().invoke(app, ["report", str(ids["expmrc"]), "--store", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert 'id="board-expmrc"' in page and 'id="board-quackie"' not in page and 'id="probing-dashboard"' not in page
    bad = CliRunner().invoke(app, ["report", "999", "--store", str(path), "--out", str(tmp_path / "x.html")])
    assert bad.exit_code != 0 and "999" in str(bad.exception)


def test_suite_summary_findings(seeded, tmp_path):
    path, _ = seeded
    steps = [{"title": "probing", "command": "interpeval probing run x", "seconds": 12.0}]
    summary = suite_summary(path, steps, 12.5, ["probing/report/report.html"])
    findings = {k.split(":")[0].split(" ")[0]: v for k, v in summary["findings"].items()}
    # seeded probing accuracy 0.5 + 0.1·layer + 0.05 (en) − 0.1 (Tense): best en Number 0.85 at layer 3 of n=50
    assert findings["Probing"][0].startswith("4 tasks probed; best: en Number 0.850 [")
    assert findings["Probing"][0].endswith("at layer 3 (n=50).")
    assert findings["Probing"][1] == "mean selectivity (accuracy − control) at the best layer: 0.275."
    # the seeded gold-answer run (model "gold") is a reference point, never the best system: that is one of the two
    # systems on the tiny answer model's outputs
    best, references = findings["ExpMRC"]
    assert best.startswith("squad: best overall F1") and ("by MSS (" in best or "by Pseudo-data training" in best)
    assert references.startswith("squad references") and "gold answer, alternating evidence" in references
    assert any("tiny-sequence-classification" in m for m in summary["models"])
    page = write_static_report(path, tmp_path / "index.html", summary=summary).read_text(encoding="utf-8")
    assert "interpeval probing run x" in page and 'href="probing/report/report.html"' in page
    # five tables (evaluate's explainer × metric, one generic: plm_rationale) and the dashboard
    assert page.count("How to read this") == 6


@pytest.mark.parametrize("table", ["quackie", "expmrc"])
def test_report_tables_carry_n_and_intervals(seeded, tmp_path, table):
    path, _ = seeded
    page = write_static_report(path, tmp_path / "r.html").read_text(encoding="utf-8")
    board = re.search(rf'<section class="board" id="board-{table}">(.*?)</section>', page, re.S).group(1)
    assert re.search(r'<span class="ci">\[[\d.]+, [\d.]+\]</span>', board) and "<th>n</th>" in board


def test_index_opens_with_every_reproduced_paper(seeded, tmp_path):
    """The reports `interpeval reproduce` wrote are read back and shown first: findings of every paper, then its
    tables (published cell beside ours), in the plug-ins' order."""
    from interpeval.paper import Cell, Finding, PaperReport, PaperTable, Row
    from interpeval.report.reproduce import write_reproduction

    path, _ = seeded
    folder = tmp_path / "reproduce"
    for paper, verdict in (("probing", "cannot be tested here"), ("plm", "does not hold")):
        table = PaperTable("9", "Interpretability (en)", ["Grammar F1"],
                           [Row("RoBERTa-base + ATT · ours m", {"Grammar F1": Cell(0.55, 0.31, 0.2, 0.4, 12)},
                                "model: ours m")])
        write_reproduction(PaperReport(paper, f"{paper} paper", "quick", [table],
                                       [Finding(f"{paper} claim", verdict, "ATT − IG −0.1 (n=12)")]), folder)
    summary = suite_summary(path, [], 1.0, [], reproduced=folder)
    assert [p["paper"] for p in summary["papers"]] == ["plm", "probing"]
    page = write_static_report(path, tmp_path / "index.html", summary=summary).read_text(encoding="utf-8")
    body = page[page.index("<h1>"):]
    assert body.index('id="papers"') < body.index('id="summary"') < body.index('id="leaderboards"')
    assert body.index("plm claim") < body.index("probing claim") < body.index("id='reproduce-plm'")
    assert "<b>does not hold</b>" in body and "0.55" in body and "0.31" in body and "n=12" in body
