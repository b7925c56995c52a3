"""Reading the inputs of ``interpeval evaluate``: plain text, TSV or JSON lines, checked before any work starts."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from interpeval.errors import DataError
from interpeval.evaluate.engine import Input
from interpeval.validate import read_text

TEXT_COLUMNS = ("text", "sentence")


def _rationale(path: Path, where: str, text: str, value: object) -> tuple[int, ...] | None:
    """A word-level rationale: a list of 0/1 or a string of space-separated 0/1, one per whitespace word."""
    if value is None or value == "":
        return None
    items = value.split() if isinstance(value, str) else value
    if not isinstance(items, list) or any(str(v) not in ("0", "1") for v in items):
        raise DataError(path, where, "rationale must be 0/1 values, one per whitespace word of the text")
    n_words = len(re.findall(r"\S+", text))
    if len(items) != n_words:
        raise DataError(path, where, f"rationale has {len(items)} values but the text has {n_words} words")
    return tuple(int(v) for v in items)


def read_inputs(path: str | Path) -> list[Input]:
    """Inputs from ``.txt`` (one per non-empty line), ``.tsv`` (a ``text`` or ``sentence`` column, optional
    ``id``, ``rationale`` and ``partner``) or ``.jsonl`` (objects with ``text``, optional ``id``, ``rationale`` and
    ``partner``, a perturbed version of the text for the consistency metrics)."""
    path = Path(path)
    raw = read_text(path)
    items: list[Input] = []
    suffix = path.suffix.lower()
    if suffix == ".tsv":
        reader = csv.DictReader(raw.splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE)
        rows = [(reader.line_num, row) for row in reader]  # line_num: the file's line, blank lines counted
        header = reader.fieldnames or []
        column = next((c for c in TEXT_COLUMNS if c in header), None)
        if rows and column is None:
            raise DataError(path, "line 1", f"needs a header with a {' or '.join(TEXT_COLUMNS)} column")
        for n, row in rows:
            if None in row or None in row.values():  # csv puts extra fields under None, missing ones are None
                fields = sum(v is not None for k, v in row.items() if k is not None) + len(row.get(None) or ())
                raise DataError(path, f"line {n}", f"{fields} tab-separated fields, the header has {len(header)}")
            text = (row.get(column) or "").strip()
            if text:
                items.append(Input(row.get("id") or str(n), text,
                                   _rationale(path, f"line {n}", text, row.get("rationale")),
                                   (row.get("partner") or "").strip() or None))
    elif suffix == ".jsonl":
        for n, line in enumerate(raw.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                raise DataError(path, f"line {n}", f"is not JSON ({err.msg})") from None
            if not isinstance(record, dict) or not isinstance(record.get("text"), str) or not record["text"].strip():
                raise DataError(path, f"line {n}", "needs an object with a non-empty string 'text'")
            partner = record.get("partner")
            if partner is not None and (not isinstance(partner, str) or not partner.strip()):
                raise DataError(path, f"line {n}", "'partner' must be a non-empty string (the perturbed text)")
            items.append(Input(str(record.get("id", n)), record["text"],
                               _rationale(path, f"line {n}", record["text"], record.get("rationale")), partner))
    else:
        items = [Input(str(n), line.strip()) for n, line in enumerate(raw.splitlines(), start=1) if line.strip()]
    if not items:
        raise DataError(path, None, "has no input to evaluate")
    ids = [i.id for i in items]
    if len(set(ids)) != len(ids):
        raise DataError(path, None, f"id {next(i for i in ids if ids.count(i) > 1)!r} occurs twice")
    return items
