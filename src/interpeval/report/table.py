"""A results table that always says which model, data, explainer and parameters produced it."""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REQUIRED_PROVENANCE = ("model", "data")


@dataclass
class Table:
    """``rows`` are sequences aligned with ``columns`` (or dicts keyed by column).

    ``provenance`` must name at least the model and the data; explainer and parameters where they apply.
    Floats are shown with ``digits`` decimals; NaN is shown as ``–``.
    """

    title: str
    columns: list[str]
    rows: list[Any]
    provenance: dict[str, Any]
    digits: int = 2
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        missing = [k for k in REQUIRED_PROVENANCE if not self.provenance.get(k)]
        if missing:
            raise ValueError(f"table {self.title!r}: provenance must name {', '.join(missing)}")
        self.rows = [[row.get(c) for c in self.columns] if isinstance(row, dict) else list(row) for row in self.rows]
        for i, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise ValueError(f"table {self.title!r}: row {i} has {len(row)} cells, expected {len(self.columns)}")

    def _cell(self, value: Any) -> str:
        if isinstance(value, float):
            return "–" if math.isnan(value) else f"{value:.{self.digits}f}"
        return "" if value is None else str(value)

    def _provenance_lines(self) -> list[str]:
        return [f"{k}: {v if isinstance(v, str) else json.dumps(v, default=str, ensure_ascii=False)}" for k, v in self.provenance.items()]

    def to_markdown(self) -> str:
        lines = [f"### {self.title}", ""]
        lines += [f"| {' | '.join(self.columns)} |", f"|{'|'.join('---' for _ in self.columns)}|"]
        lines += [f"| {' | '.join(self._cell(v) for v in row)} |" for row in self.rows]
        lines += [""] + [f"- {line}" for line in self._provenance_lines()] + [f"- {n}" for n in self.notes]
        return "\n".join(lines) + "\n"

    def to_html(self) -> str:
        esc = html.escape
        head = "".join(f"<th>{esc(c)}</th>" for c in self.columns)
        body = "".join("<tr>" + "".join(f"<td>{esc(self._cell(v))}</td>" for v in row) + "</tr>" for row in self.rows)
        prov = "".join(f"<li>{esc(line)}</li>" for line in self._provenance_lines() + self.notes)
        return (f'<section class="table"><h3>{esc(self.title)}</h3><table><thead><tr>{head}</tr></thead>'
                f"<tbody>{body}</tbody></table><ul class=\"provenance\">{prov}</ul></section>")

    def to_records(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]

    def save(self, stem: str | Path) -> list[Path]:
        """Write ``stem.md`` and ``stem.json`` (rows + provenance)."""
        stem = Path(stem)
        stem.parent.mkdir(parents=True, exist_ok=True)
        md, js = stem.with_suffix(".md"), stem.with_suffix(".json")
        md.write_text(self.to_markdown())
        js.write_text(json.dumps({"title": self.title, "provenance": self.provenance, "notes": self.notes,
                                  "rows": self.to_records()}, indent=1, default=str))
        return [md, js]
