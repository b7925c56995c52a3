"""docs/metrics.md carries a table generated from the registry; it must match the code."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from interpeval.metrics import base, names, register
from interpeval.metrics.catalogue import BEGIN, END, _bound, _cell, main, markdown_table, render

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


def test_cells_bounds_and_a_range_open_on_both_sides(monkeypatch):
    assert _cell("a|b\nc") == "a\\|b c"  # a pipe would split the cell, a newline the row
    assert _bound(float("-inf")) == "−∞" and _bound(float("inf")) == "∞" and _bound(0.5) == "0.5"
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))  # the real registry stays as it is
    register("test_only_open", "quality", True, (float("-inf"), float("inf")), "s", needs=("a",))(lambda a: 0.0)
    assert "| `test_only_open` | quality | a | instance | higher is better | (−∞, ∞) | s | — |" in markdown_table()


def test_render_keeps_later_copies_of_the_markers_and_needs_both(tmp_path, monkeypatch):
    # only the first BEGIN … first END is replaced; a document quoting the markers again later keeps that text
    doc = f"intro\n{BEGIN}\nOLD\n{END}\nmid {BEGIN} {END}\noutro\n"
    out = render(doc)
    assert out.startswith(f"intro\n{BEGIN}\n| metric |") and out.endswith(f"{END}\nmid {BEGIN} {END}\noutro\n")
    assert "OLD" not in out
    with pytest.raises(ValueError, match="^document: the markers"):
        render(f"{BEGIN} but no end")
    # no argument: docs/metrics.md of the working directory; from the command line: sys.argv's first argument
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "metrics.md").write_text(f"{BEGIN}\nOLD\n{END}\n", encoding="utf-8")
    (tmp_path / "other.md").write_text(f"{BEGIN}\nOLD\n{END}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main([]) == 0 and "OLD" not in (tmp_path / "docs" / "metrics.md").read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["catalogue", "other.md"])
    assert main() == 0 and "OLD" not in (tmp_path / "other.md").read_text(encoding="utf-8")
