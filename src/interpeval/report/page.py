"""Self-contained HTML reports: tables, figures (embedded as base64 PNG/SVG) and prose sections."""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpeval.report.table import Table

_STYLE = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}ul.provenance{font-size:.85em;color:#555}
figure{margin:1em 0}figcaption{font-size:.9em;color:#444}
"""


@dataclass
class Figure:
    """A saved image file shown in the report with a caption (which should name model, data and method)."""

    path: Path
    caption: str

    def to_html(self) -> str:
        data = Path(self.path).read_bytes()
        mime = "image/svg+xml" if str(self.path).endswith(".svg") else "image/png"
        src = f"data:{mime};base64,{base64.b64encode(data).decode()}"
        return (f'<figure><img src="{src}" style="max-width:100%"><figcaption>{html.escape(self.caption)}'
                "</figcaption></figure>")


Section = tuple[str, list["Table | Figure | str"]]


def save_figure(fig: Any, path: str | Path, dpi: int = 110) -> Path:
    """Write a matplotlib figure (making its folder) and close it, so long runs do not keep figures in memory."""
    import matplotlib.pyplot as plt

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, bbox_inches="tight", dpi=dpi)
    plt.close(fig)
    return path


def write_report(path: str | Path, title: str, sections: list[Section]) -> Path:
    """Write one HTML page; each section is ``(heading, [Table | Figure | paragraph text, ...])``."""
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
             f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>"]
    for heading, items in sections:
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        for item in items:
            parts.append(item.to_html() if isinstance(item, (Table, Figure)) else f"<p>{html.escape(item)}</p>")
    parts.append("</body></html>")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(parts), encoding="utf-8")
    return path
