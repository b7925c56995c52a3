"""The masked-LM paper's published numbers bundled in data/paper/plm.json equal ../shared/docs/PAPER-TABLES.md.

The check reads the Markdown independently of how the JSON was made: for every row of every P0 table, the numbers
printed on the row's line (changes in parentheses left out) are, in order, the JSON row's non-null cells in column
order. Table 11's Perturbed row is printed with 8 of 15 cells; each placed cell must equal Original + its printed
change, so a cell in the wrong column fails.
"""

import re
from pathlib import Path

import pytest

from interpeval.paper import published

TABLES = Path(__file__).resolve().parents[3].parent / "shared" / "docs" / "PAPER-TABLES.md"


def _p0_blocks() -> dict[str, list[str]]:
    if not TABLES.is_file():
        pytest.skip(f"{TABLES} is absent (the shared docs are not beside this checkout)")
    section = TABLES.read_text(encoding="utf-8").split("## P0")[1].split("\n## ")[0]
    return {m.group(1): m.group(2).strip("\n").splitlines()
            for m in re.finditer(r"### Table (\d+):.*?\n```\n(.*?)```", section, re.S)}


def _numbers(text: str) -> list[float]:
    text = re.sub(r"\([+-]?\d+(\.\d+)?\)", "", text)
    return [float(x.replace(",", "")) for x in re.findall(r"\d[\d,]*(?:\.\d+)?", text)]


def test_every_published_plm_number_equals_paper_tables():
    blocks = _p0_blocks()
    bundled = published("plm")["tables"]
    assert sorted(bundled, key=int) == sorted(blocks, key=int) == [str(n) for n in range(3, 12)]
    checked = 0
    for number, table in bundled.items():
        lines = {line.split("\t")[0]: line for line in blocks[number]}
        for label, cells in table["rows"].items():
            assert label in lines, f"Table {number}: row {label!r} is not in PAPER-TABLES.md"
            assert list(cells) == table["columns"], f"Table {number} {label}: cells not in column order"
            printed = _numbers(lines[label][len(label):])
            ours = [v for v in cells.values() if v is not None]
            assert ours == printed, f"Table {number} row {label!r}"
            checked += len(ours)
    assert checked == 4 * 5 + 2 * (8 * 15 + 8 * 20 + 15 + 5 * 6) + 15 + 8


def test_table11_perturbed_cells_sit_where_the_printed_change_puts_them():
    blocks = _p0_blocks()
    rows = published("plm")["tables"]["11"]["rows"]
    line = next(x for x in blocks["11"] if x.startswith("Perturbed"))
    changes = [float(d) for d in re.findall(r"\(([+-]?\d+\.\d)\)", line)]
    placed = [(c, v) for c, v in rows["Perturbed"].items() if v is not None]
    assert len(placed) == len(changes) == 8
    for (column, value), change in zip(placed, changes, strict=True):
        assert round(rows["Original"][column] + change, 1) == value, column


def test_table6_changes_row_is_perturbed_minus_original():
    line = _p0_blocks()["6"][-1]
    rows = published("plm")["tables"]["6"]["rows"]
    changes = [float(d) for d in re.findall(r"\(([+-]?\d+\.\d)\)", line)]
    assert changes == [round(rows["Perturbed"][c] - rows["Original"][c], 1) + 0.0 for c in rows["Original"]]
