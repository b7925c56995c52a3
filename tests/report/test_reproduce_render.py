"""The reproduction renderer on a hand-built PaperReport: every published cell, our number with its interval and n,
every row's "differs because" and every finding's verdict appear in the Markdown, the JSON and the HTML."""

from __future__ import annotations

import json
import math

import pytest

from interpeval.paper import Cell, Finding, PaperReport, PaperTable, Row
from interpeval.report.reproduce import (
    reproduce_fragment,
    reproduce_page,
    to_markdown,
    write_reproduction,
)


@pytest.fixture
def report() -> PaperReport:
    table = PaperTable("4", "IoU ×100", ["SQuAD QA", "NYT QA", "Amazon QA"], [
        Row("Saliency sum", {"SQuAD QA": Cell(91.12, 88.4, 84.25, 92.5, 200),
                             "NYT QA": Cell(88.46),  # not measured
                             "Amazon QA": Cell(85.91, math.nan, math.nan, math.nan, 0)},
            differs="model — a <MiniLM> head vs ALBERT | sample — n 200"),
        Row("Random", {"SQuAD QA": Cell(25.38, 21.03, 17.5, 24.6, 314), "NYT QA": Cell(None, 3.5, 1.25, 6.0, 9),
                       "Amazon QA": Cell(-0.7, -0.62, -0.66, -0.58, 40)}, differs="sentence counts differ"),
    ], ours_model="QA: minilm-squad", ours_data="3 held-out articles", explainer="saliency", notes="k = 1")
    findings = [Finding("White-box beats LIME.", "holds", "88.4 vs 60.1"),
                Finding("SmoothGrad ≈ Saliency.", "does not hold", "diff +9.0 [6.0, 12.0]"),
                Finding("NYT behaves like New Wiki.", "cannot be tested here", "NYT is not available")]
    return PaperReport("toy", "Someone et al. 2020", "quick", [table], findings, seconds=12.3)


def test_markdown_shows_every_cell_row_and_verdict(report):
    md = to_markdown(report)
    for paper, ours in (("91.12", "88.4 [84.2, 92.5] n=200"), ("25.38", "21.0 [17.5, 24.6] n=314"),
                        ("-0.7", "-0.62 [-0.66, -0.58] n=40"), ("–", "3.50 [1.25, 6.00] n=9")):
        assert f"{paper} → {ours}" in md
    assert "88.46 → —" in md and "85.91 → —" in md  # published but not measured: shown, not dropped
    assert "a <MiniLM> head vs ALBERT \\| sample — n 200" in md  # a pipe in text does not break the table
    assert "- ours: model: QA: minilm-squad" in md and "- data: 3 held-out articles" in md
    for verdict, claim in (("holds", "White-box"), ("does not hold", "SmoothGrad"), ("cannot be tested here", "NYT")):
        assert f"**{verdict}** — {claim}" in md
    header = next(line for line in md.splitlines() if line.startswith("| row"))
    body = [line for line in md.splitlines() if line.startswith("| Saliency") or line.startswith("| Random")]
    assert all(line.count(" | ") == header.count(" | ") for line in body)


def test_html_fragment_and_page(report):
    fragment = reproduce_fragment(report)
    assert fragment.startswith("<section class='reproduce' id='reproduce-toy'>") and fragment.endswith("</section>")
    assert "<html" not in fragment
    for text in ("91.12", "88.4", "[84.2, 92.5] n=200", "88.46", "25.38", "21.0", "[17.5, 24.6] n=314", "-0.62"):
        assert text in fragment
    assert "a &lt;MiniLM&gt; head" in fragment and "<MiniLM>" not in fragment
    for css in ("holds", "does-not-hold", "cannot-be-tested-here"):
        assert f"class='verdict {css}'" in fragment
    page = reproduce_page(report)
    assert page.startswith("<!doctype html>") and fragment in page


def test_json_is_plain_and_complete(tmp_path, report):
    paths = write_reproduction(report, tmp_path / "out")
    assert sorted(p.name for p in paths.values()) == ["reproduce-toy.html", "reproduce-toy.json", "reproduce-toy.md"]
    doc = json.loads(paths["json"].read_text())  # strict JSON: NaN written as null
    cells = doc["tables"][0]["rows"][0]["cells"]
    assert cells["SQuAD QA"] == {"paper": 91.12, "ours": 88.4, "low": 84.25, "high": 92.5, "n": 200}
    assert cells["Amazon QA"]["ours"] is None and cells["NYT QA"]["ours"] is None
    assert [f["verdict"] for f in doc["findings"]] == ["holds", "does not hold", "cannot be tested here"]
