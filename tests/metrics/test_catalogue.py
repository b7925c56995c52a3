"""docs/metrics.md carries a table generated from the registry; it must match the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpeval.metrics import names
from interpeval.metrics.catalogue import BEGIN, END, main, markdown_table, render

DOC = Path(__file__).resolve().parents[2] / "docs" / "metrics.md"


def test_docs_table_is_current():
    text = DOC.read_text(encoding="utf-8")
    assert render(text) == text, "docs/metrics.md is stale: run python -m interpeval.metrics.catalogue docs/metrics.md"


def test_table_lists_every_metric_once():
    table = markdown_table()
    for name in names():
        assert table.count(f"| `{name}` |") == 1
    assert "| `quackie_snr` | localisation | gt, pred_binary | instance | higher is better | [0, ∞) |" in table
    assert "| `baidu_macro_f1` | plausibility | preds, golds | dataset |" in table


def test_render_needs_markers():
    with pytest.raises(ValueError, match="document: the markers"):
        render("no table here")


def test_main_rewrites_file(tmp_path):
    doc = tmp_path / "m.md"
    doc.write_text(f"intro\n{BEGIN}\nOLD-TABLE-XYZ\n{END}\noutro\n", encoding="utf-8")
    assert main([str(doc)]) == 0
    out = doc.read_text(encoding="utf-8")
    assert "OLD-TABLE-XYZ" not in out and out.startswith("intro\n") and out.endswith("outro\n")
    assert "`quackie_iou`" in out
