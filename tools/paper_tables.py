"""Transcribe the papers' published tables from PAPER-TABLES.md into the bundled JSON that
:func:`interpeval.paper.published` reads (``src/interpeval/data/paper/<paper>.json``).

PAPER-TABLES.md holds each paper as a ``## Pn — NAME`` section and each table as a ``### Table N…`` subsection whose
numbers sit in a fenced block (or a Markdown table). The printed headers are partly garbled, the numbers are not, so
the column names (and, where a table prints the same row labels twice, the block names) come from :data:`SPECS`; the
row labels and every number come from the text. Three layouts are read:

* ``pipe`` — ``a | b | c`` lines; a line without numbers is a header (skipped) or, with ``groups``, a group name
  prefixed to the labels below it; a repeated header starts the next block (``blocks`` names them);
* ``tsv`` — tab-separated lines, the same rules (a cell ``0.93 / 0.90`` is two numbers);
* ``stream`` — QUACKIE's flattened Tables 4–6: ``Interpreter aggregation samples`` then one number per column.

A cell ``0.7527 (0.0191)`` is two numbers (IQS Table 2's mean and std). With ``panels`` a table printed in parts
with different columns (ExpMRC Table 3: SQuAD / CMRC 2018, then RACE+ / C3) starts the next part at each header line
that opens like the first; each part's rows are named ``label, PANEL`` and hold None in the other parts' columns.
A section without ``### Table`` subsections whose own heading names one (``## P3 — ExpMRC Table 3 …``) is that table.

    python tools/paper_tables.py quackie [--docs ../shared/docs/PAPER-TABLES.md] [--check]

writes ``src/interpeval/data/paper/quackie.json`` (``--check``: compare instead, exit 1 on any difference). To add a
paper, add its section's tables to :data:`SPECS` (layout and column names) and run the script.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT.parent / "shared" / "docs" / "PAPER-TABLES.md"
BUNDLE = ROOT / "src" / "interpeval" / "data" / "paper"

_QUACKIE_DATASETS = ["SQuAD", "New Wiki", "NYT", "Reddit", "Amazon"]
_QUACKIE_CELLS = [f"{d} {c}" for d in _QUACKIE_DATASETS for c in ("Classif", "QA")]
_EXPMRC_PARTS = [f"{split} {score}" for split in ("dev", "test") for score in ("Ans.", "Evi.", "All")]


def _columns(names: list[str], parts: list[str]) -> list[str]:
    return [f"{n} {p}" for n in names for p in parts]


#: per paper: the section heading's tag, the reference, and per table number its layout and column names
SPECS: dict[str, dict[str, Any]] = {
    "expmrc": {
        "section": "P3",
        "reference": "Cui et al. 2022, ExpMRC: Explainability Evaluation for Machine Reading Comprehension (Heliyon)",
        "tables": {"3": {"layout": "pipe", "groups": True, "panels": [
            {"name": "SQuAD / CMRC 2018", "columns": _columns(["SQuAD", "CMRC 2018"], _EXPMRC_PARTS)},
            {"name": "RACE+ / C3", "columns": _columns(["RACE+", "C3"], _EXPMRC_PARTS)}]}},
    },
    "iqs": {
        "section": "P4",
        "reference": "Xie, Vosoughi & Hassanpour 2023, Interpretation Quality Score for Measuring the Quality of "
                     "Interpretability Methods (arXiv 2205.12254)",
        "tables": {
            "1": {"layout": "tsv", "groups": True,
                  "columns": ["Plausibility", "Simplicity", "Reproducibility", "IQS"]},
            "2": {"layout": "tsv", "columns": _columns(["SST2", "STSB", "QNLI"], ["mean", "std"])},
        },
    },
    "quackie": {
        "section": "P1",
        "reference": "Rychener et al. 2020, QUACKIE: A NLP Classification Task With Ground Truth Explanations "
                     "(arXiv 2012.13190)",
        "tables": {
            "2": {"layout": "pipe", "columns": _QUACKIE_DATASETS,
                  "blocks": ["answer sentence removed", "answer sentence only"]},
            "3": {"layout": "pipe", "columns": _QUACKIE_DATASETS},
            "4": {"layout": "stream", "columns": _QUACKIE_CELLS},
            "5": {"layout": "stream", "columns": _QUACKIE_CELLS},
            "6": {"layout": "stream", "columns": _QUACKIE_CELLS},
        },
    },
}

_NUMBER = re.compile(r"^[(]?[-+−]?\d[\d,]*(\.\d+)?[)]?$")


def number(token: str) -> float | None:
    """``'1,365'`` → 1365.0, ``'-0.70'`` → -0.7, ``'(+0.3)'`` → 0.3; None for anything that is not a number."""
    token = token.strip()
    if not _NUMBER.match(token):
        return None
    return float(token.strip("()").replace(",", "").replace("−", "-"))


def sections(text: str, tag: str) -> dict[str, tuple[str, str]]:
    """``{table number: (title, body)}`` of the ``## {tag} …`` section."""
    match = re.search(rf"^## {re.escape(tag)}\b.*?$(.*?)(?=^## |\Z)", text, re.M | re.S)
    if match is None:
        raise KeyError(f"no section '## {tag}' in PAPER-TABLES.md")
    out: dict[str, tuple[str, str]] = {}
    for part in re.split(r"^### ", match.group(1), flags=re.M)[1:]:
        heading, _, body = part.partition("\n")
        found = re.match(r"Table (\w+)", heading)
        if found:
            out[found.group(1)] = (re.sub(r"^Table \w+( \([^)]*\))?:\s*", "", heading).strip(), body)
    whole = re.search(rf"^## {re.escape(tag)}\b.*?Table (\w+)\s*(.*)$", text, re.M)
    if not out and whole:
        out[whole.group(1)] = (whole.group(2).strip("() "), match.group(1))
    return out


def _cells(line: str, layout: str) -> list[str]:
    if layout == "pipe":
        return [c.strip() for c in line.strip().strip("|").split("|")]
    return [c.strip() for c in line.split("\t")]


def _grid(body: str, spec: dict[str, Any], layout: str) -> dict[str, dict[str, float | None]]:
    """Rows of a ``pipe`` or ``tsv`` block: the first header line (no numbers) and each repeat of it start a block;
    with ``groups`` a one-cell line without numbers names the group of the rows below it."""
    panels, blocks = spec.get("panels"), spec.get("blocks")
    columns = [c for p in panels for c in p["columns"]] if panels else spec["columns"]
    rows: dict[str, dict[str, float | None]] = {}
    block, group, first_header = 0, "", None
    first_cell = ""
    for line in body.strip().strip("`").splitlines():
        if not line.strip() or set(line.strip()) <= set("|-` "):
            continue
        values: list[float] = []
        label: list[str] = []
        for cell in (c for c in _cells(line, layout) if c):
            parts = [number(p) for p in re.split(r"\s*/\s*|\s+", cell)]
            if all(p is not None for p in parts):
                values += parts  # type: ignore[arg-type]
            else:
                label.append(cell)
        if not values:
            key = " ".join(label)
            if first_header is None:
                first_header, first_cell = key, label[0]
            elif key == first_header or (panels and label[0] == first_cell):
                block, group = block + 1, ""
            elif spec.get("groups") and len(label) == 1:
                group = key
            continue
        name = " ".join(x for x in (group, " ".join(label)) if x)
        if panels:
            if block >= len(panels):
                raise ValueError(f"row {name!r}: part {block + 1} but only {len(panels)} panels")
            panel = panels[block]
            if len(values) != len(panel["columns"]):
                raise ValueError(f"row {name!r}: {len(values)} numbers for {len(panel['columns'])} columns")
            name = f"{name}, {panel['name']}"
            if name in rows:
                raise ValueError(f"row {name!r} occurs twice")
            rows[name] = {c: None for c in columns} | dict(zip(panel["columns"], values, strict=True))
            continue
        if len(values) != len(columns):
            raise ValueError(f"row {name!r}: {len(values)} numbers for {len(columns)} columns")
        if blocks:
            if block >= len(blocks):
                raise ValueError(f"row {name!r}: block {block + 1} but only {len(blocks)} block names")
            name = f"{name}, {blocks[block]}"
        if name in rows:
            raise ValueError(f"row {name!r} occurs twice")
        rows[name] = dict(zip(columns, values, strict=True))
    return rows


def _stream(body: str, spec: dict[str, Any]) -> dict[str, dict[str, float | None]]:
    """QUACKIE's flattened tables: after the header (which ends with one Classif/QA per column), rows of
    ``[interpreter] [aggregation] [samples] value×columns``, each part kept from the row above when left out."""
    columns = spec["columns"]
    tokens = body.strip().strip("`").split()
    seen = 0
    while seen < len(columns):
        seen += tokens.pop(0) in ("Classif", "QA")
    rows: dict[str, dict[str, float | None]] = {}
    name: list[str] = []
    agg = samples = ""
    previous_word = False
    while tokens:
        token = tokens[0]
        value = number(token)
        if value is not None and "." in token:
            values = [number(tokens.pop(0)) if tokens else None for _ in columns]
            label = " ".join(x for x in (*name, agg, samples) if x and x != "-")
            if any(v is None for v in values):
                raise ValueError(f"row {label!r}: fewer than {len(columns)} numbers")
            if label in rows:
                raise ValueError(f"row {label!r} occurs twice")
            rows[label] = dict(zip(columns, values, strict=True))
        elif token in ("sum", "max"):
            agg, samples = token, ""
        elif token == "-":
            agg, samples = (agg, "-") if agg else ("-", "")
        elif value is not None:
            samples = token
        else:
            name = [*name, token.rstrip("†")] if previous_word else [token.rstrip("†")]
            agg = samples = ""
        previous_word = value is None and token not in ("sum", "max", "-")
        if value is None or "." not in token:
            tokens.pop(0)
    return rows


def transcribe(paper: str, text: str) -> dict[str, Any]:
    """The bundled-JSON document of ``paper`` from the text of PAPER-TABLES.md."""
    spec = SPECS[paper]
    found = sections(text, spec["section"])
    tables: dict[str, Any] = {}
    for number_, table in spec["tables"].items():
        if number_ not in found:
            raise KeyError(f"{paper}: no '### Table {number_}' in section {spec['section']}")
        title, body = found[number_]
        try:
            rows = _stream(body, table) if table["layout"] == "stream" else _grid(body, table, table["layout"])
        except ValueError as err:
            raise ValueError(f"{paper} Table {number_}: {err}") from None
        columns = [c for p in table["panels"] for c in p["columns"]] if "panels" in table else table["columns"]
        tables[number_] = {"title": title, "columns": list(columns), "rows": rows}
    return {"reference": spec["reference"], "source": "PAPER-TABLES.md, transcribed by tools/paper_tables.py",
            "tables": tables}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paper", choices=sorted(SPECS))
    parser.add_argument("--docs", type=Path, default=DOCS, help="PAPER-TABLES.md")
    parser.add_argument("--check", action="store_true", help="compare with the bundled file instead of writing it")
    args = parser.parse_args(argv)
    doc = transcribe(args.paper, args.docs.read_text(encoding="utf-8"))
    target = BUNDLE / f"{args.paper}.json"
    if args.check:
        same = target.is_file() and json.loads(target.read_text(encoding="utf-8")) == doc
        print(f"{target}: {'up to date' if same else 'differs from ' + str(args.docs)}")
        return 0 if same else 1
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    counts = {n: len(t["rows"]) for n, t in doc["tables"].items()}
    print(f"wrote {target}: rows per table {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
