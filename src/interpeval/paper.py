"""Paper-vs-ours reproduction results: what ``interpeval reproduce PAPER`` returns, whatever the paper.

A :class:`PaperReport` holds the paper's tables with our number beside every published cell, and the paper's
qualitative findings, each with a verdict and the numbers that decide it. Benchmarks build these (their plug-in's
``reproduce`` part); :mod:`interpeval.report` renders them as Markdown, JSON and HTML. The published numbers come
from the bundled copy of the papers' tables (``interpeval/data/paper/``), never typed into code.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

Verdict = Literal["holds", "does not hold", "cannot be tested here"]
VERDICTS: tuple[str, ...] = ("holds", "does not hold", "cannot be tested here")


@dataclass
class Cell:
    """One published number and ours: ``ours`` with its 95 % interval [low, high] over ``n`` items (None where we
    could not measure it); ``paper`` None where the paper prints nothing for this cell."""

    paper: float | None
    ours: float | None = None
    low: float | None = None
    high: float | None = None
    n: int | None = None


@dataclass
class Row:
    """One table row: its label (the paper's), the cells by column, and why ours differs (model, data, sample)."""

    label: str
    cells: dict[str, Cell]
    differs: str = ""


@dataclass
class PaperTable:
    """One of the paper's tables (``number`` as the paper numbers it), ours beside it."""

    number: str
    title: str
    columns: list[str]
    rows: list[Row]
    ours_model: str = ""
    ours_data: str = ""
    explainer: str = ""
    notes: str = ""


@dataclass
class Finding:
    """One qualitative finding of the paper, stated once, with its verdict on our numbers and the evidence."""

    claim: str
    verdict: Verdict
    evidence: str

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict {self.verdict!r}: choose from {', '.join(VERDICTS)}")


@dataclass
class PaperReport:
    """Everything ``interpeval reproduce PAPER`` writes for one paper."""

    paper: str
    reference: str
    profile: str
    tables: list[PaperTable] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PaperReport:
        """The report back from :meth:`to_json`'s dict (e.g. a written ``reproduce-PAPER.json``)."""
        tables = [PaperTable(**{**t, "rows": [Row(r["label"], {c: Cell(**v) for c, v in r["cells"].items()},
                                                   r.get("differs", "")) for r in t["rows"]]})
                  for t in data.get("tables", [])]
        return cls(data["paper"], data["reference"], data["profile"], tables,
                   [Finding(**f) for f in data.get("findings", [])], float(data.get("seconds") or 0.0))


@dataclass
class ReproduceContext:
    """What a benchmark's ``reproduce`` gets: the profile (``quick`` or ``paper``), the output folder, the store
    path, the executor name (``local``, ``ray``, …) and the data folder (None: the bundled data)."""

    profile: str
    out: Path
    store: Path
    executor: str = "local"
    data_dir: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def published(paper: str) -> dict[str, Any]:
    """The bundled published numbers of ``paper`` (``interpeval/data/paper/<paper>.json``, transcribed from the
    papers' tables): ``{"reference": str, "tables": {number: {"title": str, "columns": [str], "rows": {label:
    {column: number or null}}}}}``."""
    source = resources.files("interpeval") / "data" / "paper" / f"{paper}.json"
    if not source.is_file():
        raise KeyError(f"no published numbers bundled for paper {paper!r}")
    return json.loads(source.read_text(encoding="utf-8"))


def reproduce_step(paper: str, title: str, out: Path, store: Path, profile: str = "quick") -> Any:
    """The main job's step that reproduces ``paper``: ``interpeval reproduce PAPER --profile PROFILE`` writing under
    ``out/reproduce`` into the suite's store (a :class:`~interpeval.plugins.SuiteStep`)."""
    from interpeval.plugins import SuiteStep

    return SuiteStep(f"Reproduce {title} ({profile} profile): paper vs ours, findings",
                     ["reproduce", paper, "--profile", profile, "--out", str(out / "reproduce"), "--store",
                      str(store)])
