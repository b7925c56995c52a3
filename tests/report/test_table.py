import math

import pytest

from interpeval.report import Table, write_report


def test_table_requires_provenance_and_aligned_rows():
    with pytest.raises(ValueError, match="provenance must name model"):
        Table("t", ["a"], [[1]], {"data": "d"})
    with pytest.raises(ValueError, match="row 0 has 2 cells"):
        Table("t", ["a"], [[1, 2]], {"model": "m", "data": "d"})


def test_markdown_and_html_render_values_and_provenance(tmp_path):
    table = Table("Scores", ["method", "IoU"], [["ig", 0.123], {"method": "lime", "IoU": math.nan}],
                  {"model": "minilm", "data": "squad", "explainer": "ig", "params": {"steps": 50}})
    md = table.to_markdown()
    assert "| ig | 0.12 |" in md and "| lime | – |" in md
    assert '- params: {"steps": 50}' in md
    page = write_report(tmp_path / "r.html", "Report", [("Section", [table, "A <b>note</b>."])])
    text = page.read_text()
    assert "<td>0.12</td>" in text and "A &lt;b&gt;note&lt;/b&gt;." in text and "model: minilm" in text
    md_path, json_path = table.save(tmp_path / "scores")
    assert md_path.read_text() == md and '"IoU": 0.123' in json_path.read_text()
