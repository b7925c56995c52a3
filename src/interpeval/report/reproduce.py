"""Render a :class:`~interpeval.paper.PaperReport` (any paper's) as Markdown, JSON and HTML.

Every published cell is shown as *paper → ours [95 % interval] n*, every row with why ours differs, every table with
the model, data and explainer ours used, and every finding with its verdict and the numbers that decide it. The HTML
comes as a fragment (:func:`reproduce_fragment`, for the main job's index page) and as a full page.
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path
from typing import Any

from interpeval.paper import Cell, PaperReport, PaperTable
from interpeval.report.page import _STYLE

CELL_LEGEND = "each cell: paper → ours [95 % interval] n (— where ours was not measured)"


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def paper_number(value: float | None) -> str:
    """A published number as the paper printed it (shortest form; "–" where the paper prints nothing)."""
    return "–" if value is None else f"{value:g}"


def our_number(value: float | None) -> str:
    """Ours at the paper's precision: two decimals below 10, one above."""
    if not _finite(value):
        return "—"
    return f"{value:.2f}" if abs(value) < 10 else f"{value:.1f}"  # type: ignore[arg-type]


def cell_parts(cell: Cell) -> tuple[str, str, str]:
    """(paper, ours, "[low, high] n=N") of one cell as text."""
    interval = ""
    if _finite(cell.ours):
        if _finite(cell.low) and _finite(cell.high):
            interval = f"[{our_number(cell.low)}, {our_number(cell.high)}]"
        interval = f"{interval} n={cell.n}" if cell.n is not None else interval
    return paper_number(cell.paper), our_number(cell.ours), interval.strip()


def cell_text(cell: Cell) -> str:
    paper, ours, interval = cell_parts(cell)
    return f"{paper} → {ours}" + (f" {interval}" if interval else "")


def _about(table: PaperTable) -> list[tuple[str, str]]:
    return [(k, v) for k, v in (("ours: model", table.ours_model), ("data", table.ours_data),
                                ("explainer", table.explainer), ("notes", table.notes)) if v]


def to_markdown(report: PaperReport) -> str:
    """The report as Markdown: one section per table, then the findings."""
    lines = [f"# Reproduction: {report.paper}", "", f"Paper: {report.reference}", "",
             f"Profile `{report.profile}`; {report.seconds:.0f} s. {CELL_LEGEND}.", ""]
    for table in report.tables:
        lines += [f"## Table {table.number}: {table.title}", ""]
        lines += [f"- {k}: {v}" for k, v in _about(table)] + [""]
        lines.append("| " + " | ".join(["row", *table.columns, "differs because"]) + " |")
        lines.append("|" + "---|" * (len(table.columns) + 2))
        for row in table.rows:
            cells = [cell_text(row.cells[c]) if c in row.cells else "" for c in table.columns]
            lines.append("| " + " | ".join(_md(x) for x in [row.label, *cells, row.differs]) + " |")
        lines.append("")
    lines += ["## Findings", ""]
    for finding in report.findings:
        lines.append(f"- **{finding.verdict}** — {_md(finding.claim)} {_md(finding.evidence)}")
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def to_json(report: PaperReport) -> dict[str, Any]:
    """The report as plain JSON (NaN and infinities become null)."""
    def clean(value: Any) -> Any:
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    return clean(report.to_json())


_FRAGMENT_STYLE = """
.reproduce table{border-collapse:collapse;margin:.5em 0;font-size:.85em}
.reproduce td,.reproduce th{border:1px solid #ccc;padding:.2em .45em;text-align:right;vertical-align:top}
.reproduce th{background:#f3f3f3}.reproduce td:first-child,.reproduce td.differs{text-align:left}
.reproduce .paper{color:#555}.reproduce .ours{font-weight:600}.reproduce .ci{color:#666;font-size:.85em}
.reproduce .verdict{font-weight:700;padding:0 .3em;border-radius:3px}
.reproduce .holds{background:#d8f0d8}.reproduce .does-not-hold{background:#f6d5d5}
.reproduce .cannot-be-tested-here{background:#eee}.reproduce ul.about{font-size:.85em;color:#555}
"""


def _cell_html(cell: Cell | None) -> str:
    if cell is None:
        return "<td></td>"
    paper, ours, interval = (html.escape(x) for x in cell_parts(cell))
    return (f"<td><span class='paper'>{paper}</span> → <span class='ours'>{ours}</span>"
            + (f"<br><span class='ci'>{interval}</span>" if interval else "") + "</td>")


def reproduce_fragment(report: PaperReport) -> str:
    """The report as one ``<section>`` (with its own scoped style) that another page can embed."""
    e = html.escape
    parts = [f"<section class='reproduce' id='reproduce-{e(report.paper)}'><style>{_FRAGMENT_STYLE}</style>",
             f"<h2>Reproduction: {e(report.paper)}</h2><p>{e(report.reference)}. Profile <code>{e(report.profile)}"
             f"</code>; {report.seconds:.0f} s. {e(CELL_LEGEND)}.</p>"]
    for table in report.tables:
        parts.append(f"<h3>Table {e(table.number)}: {e(table.title)}</h3><ul class='about'>"
                     + "".join(f"<li>{e(k)}: {e(v)}</li>" for k, v in _about(table)) + "</ul>")
        parts.append("<table><tr>" + "".join(f"<th>{e(c)}</th>" for c in ["row", *table.columns, "differs because"])
                     + "</tr>")
        for row in table.rows:
            parts.append(f"<tr><td>{e(row.label)}</td>" + "".join(_cell_html(row.cells.get(c))
                                                                   for c in table.columns)
                         + f"<td class='differs'>{e(row.differs)}</td></tr>")
        parts.append("</table>")
    parts.append("<h3>Findings</h3><ul class='findings'>")
    for finding in report.findings:
        css = finding.verdict.replace(" ", "-")
        parts.append(f"<li><span class='verdict {css}'>{e(finding.verdict)}</span> {e(finding.claim)} "
                     f"<span class='evidence'>{e(finding.evidence)}</span></li>")
    parts.append("</ul></section>")
    return "".join(parts)


def reproduce_page(report: PaperReport) -> str:
    """The report as a full HTML page."""
    title = html.escape(f"Reproduction: {report.paper}")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title><style>{_STYLE}</style>"
            f"</head><body>{reproduce_fragment(report)}</body></html>\n")


def write_reproduction(report: PaperReport, out: str | Path) -> dict[str, Path]:
    """Write ``reproduce-<paper>.md``, ``.json`` and ``.html`` into ``out``; returns the paths by suffix."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / f"reproduce-{report.paper}"
    paths = {"md": stem.with_suffix(".md"), "json": stem.with_suffix(".json"), "html": stem.with_suffix(".html")}
    paths["md"].write_text(to_markdown(report), encoding="utf-8")
    paths["json"].write_text(json.dumps(to_json(report), indent=1, allow_nan=False, ensure_ascii=False) + "\n",
                             encoding="utf-8")
    paths["html"].write_text(reproduce_page(report), encoding="utf-8")
    return paths
