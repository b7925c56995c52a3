"""The static report: the web app's views rendered into one self-contained HTML file (plotly.js inlined).

Leaderboards (sortable, CSV download), the probing dashboard (its filters run in the page), the runs list and a
few instances of every run (heatmaps and the panels of each benchmark plug-in) — with an optional summary on top
that the main job fills in (what ran, data, models, wall time, headline findings).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from interpeval.report import views
from interpeval.store import Store

EXAMPLES_PER_RUN = 3


def write_static_report(store_path: str | Path | None, out: str | Path, run_ids: Iterable[int] | None = None,
                        title: str = "interpeval report", summary: dict[str, Any] | None = None,
                        tasks_dir: str | Path | None = None, examples: int = EXAMPLES_PER_RUN) -> Path:
    """Write ``out`` (one HTML file) for the given runs (all runs of the store by default)."""
    from interpeval.report.render import render

    with Store(store_path) as store:
        wanted = None if run_ids is None else {int(r) for r in run_ids}
        if wanted is not None:
            for run_id in wanted:
                store.get_run(run_id)  # a clear KeyError for a wrong id
        runs = [r for r in views.list_runs(store) if wanted is None or r["id"] in wanted]
        subset = _SubsetStore(store, {r["id"] for r in runs}) if wanted is not None else store
        tables = views.leaderboards(subset, tasks_dir)
        probing = views.probing_rows(store, run_ids=[r["id"] for r in runs if r["benchmark"] == "probing"],
                                     tasks_dir=tasks_dir)
        shown = {}
        no_examples = {run for part in views.plugin_views() for run in getattr(part, "NO_EXAMPLES", ())}
        for run in runs:
            if run["benchmark"] in no_examples:
                continue
            ids = views.instance_ids(store, run["id"])[:examples]
            shown[run["id"]] = [views.instance_view(store, run["id"], iid) for iid in ids]
    html = render("report.html", static=True, needs_plotly=bool(probing), title=title, summary=summary,
                  tables=tables, csv={t["benchmark"]: views.leaderboard_csv(t) for t in tables},
                  probing_rows=views.jsonable(probing), runs=runs, examples=shown, user=None, csrf="")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    return out


class _SubsetStore:
    """A read view of a store restricted to some runs (what the leaderboards of a chosen set of runs read)."""

    def __init__(self, store: Store, run_ids: set[int]) -> None:
        self._store, self._ids = store, run_ids
        self.path = store.path

    def runs(self, benchmark: str | None = None) -> list[Any]:
        return [r for r in self._store.runs(benchmark) if r.id in self._ids]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def headline_findings(tables: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Per benchmark, a few sentences a reader should take away (best and baseline rows, with intervals), comparing
    like with like (:func:`like_with_like`, :func:`is_reference`): the ``findings`` of the plug-in whose leaderboard
    it is (its views part ``COVERS`` the table's runs), else the best run of each n of the generic table."""
    findings: dict[str, list[str]] = {}
    for table in tables:
        stat = table["stats"][0]
        rows = [r for r in table["rows"] if isinstance(r[stat]["value"], (int, float))
                and not math.isnan(r[stat]["value"])]
        if not rows:
            continue
        part = views.views_of(table["benchmark"])
        if table["benchmark"] in getattr(part, "COVERS", ()) and hasattr(part, "findings"):
            lines = part.findings(table, rows)
        else:
            lines = []
            for (n,), group in like_with_like([r for r in rows if not is_reference(r)], stat, ()).items():
                best = max(group, key=lambda r: r[stat]["value"])
                lines.append(f"highest mean {stat}: {_fmt(best[stat], 3)} ({best.get('run', '')}, model "
                             f"{best['model']}, n={n}).")
        findings[table["title"]] = lines
    return findings


#: words in a row's system or method name that mark a reference point, never a system to rank
REFERENCE_WORDS = ("upper bound", "human")


def is_reference(row: dict[str, Any]) -> bool:
    """An upper bound or a human row (model ``gold``, or "upper bound" / "human" in its name): shown for reference,
    never picked as the best system."""
    name = " ".join(str(row.get(k, "")) for k in ("system", "method", "run")).lower()
    return row.get("model") == "gold" or any(word in name for word in REFERENCE_WORDS)


def like_with_like(rows: list[dict[str, Any]], stat: str, keys: tuple[str, ...]
                   ) -> dict[tuple[Any, ...], list[dict[str, Any]]]:
    """Rows grouped by ``keys`` and by their n on ``stat``: a headline ranks rows only within one group, so a row
    measured on 3 items is never "best" next to rows measured on 20. Keys keep their first appearance's order; within
    one key the groups go by n, largest first."""
    grouped: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    first: dict[tuple[Any, ...], int] = {}
    for row in rows:
        key = tuple(row[k] for k in keys)
        first.setdefault(key, len(first))
        grouped.setdefault((*key, row[stat]["n"]), []).append(row)
    return dict(sorted(grouped.items(), key=lambda item: (first[item[0][:-1]], -(item[0][-1] or 0))))


def _groups(rows: list[dict[str, Any]], keys: tuple[str, ...]) -> dict[tuple[Any, ...], list[dict[str, Any]]]:
    out: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(tuple(row[k] for k in keys), []).append(row)
    return out


def _fmt(cell: dict[str, Any], digits: int = 1) -> str:
    value, low, high = cell["value"], cell["low"], cell["high"]
    if low == low and low is not None:
        return f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"
    return f"{value:.{digits}f}"


def reproductions(folder: str | Path | None) -> list[dict[str, Any]]:
    """The paper-vs-ours reports ``interpeval reproduce`` wrote into ``folder`` (``reproduce-PAPER.json``), in the
    plug-ins' order: paper, profile, findings and the report's HTML fragment."""
    from interpeval.paper import PaperReport
    from interpeval.plugins import plugins
    from interpeval.report.reproduce import reproduce_fragment

    if folder is None or not Path(folder).is_dir():
        return []
    order = {p.name: i for i, p in enumerate(plugins())}
    reports = [PaperReport.from_json(json.loads(path.read_text(encoding="utf-8")))
               for path in Path(folder).glob("reproduce-*.json")]
    reports.sort(key=lambda r: (order.get(r.paper, len(order)), r.paper))
    return [{"paper": r.paper, "reference": r.reference, "profile": r.profile, "findings": r.findings,
             "fragment": reproduce_fragment(r)} for r in reports]


def suite_summary(store_path: str | Path, steps: list[dict[str, Any]], wall_s: float,
                  links: list[str], tasks_dir: str | Path | None = None,
                  reproduced: str | Path | None = None) -> dict[str, Any]:
    """The summary block of the main job's index page: the papers reproduced (from ``reproduced``, the folder of
    the ``interpeval reproduce`` steps), steps with their commands and times, the data and models behind the stored
    runs (with held-out scores of trained heads), and the headline findings."""
    import datetime as dt
    import os

    with Store(store_path) as store:
        infos = store.runs()
        tables = views.leaderboards(store, tasks_dir)
    data: dict[str, set[str]] = {}
    for info in infos:
        what = [str(info.config[k]) for k in ("dataset", "subset") if info.config.get(k)]
        data.setdefault(info.benchmark, set()).add(" ".join(what) or f"data {info.data_fingerprint or '–'}")
    models = []
    for name in sorted({i.model for i in infos if i.model and i.model != "gold"}):
        models.append(views.held_out(name) or name)
    cores = os.cpu_count() or 0
    return {"intro": f"Run on {dt.datetime.now():%Y-%m-%d %H:%M} with {cores} CPU cores; {len(infos)} runs in "
                     f"{Path(store_path).name}. Every number below names its model, data and n; intervals are 95 %.",
            "steps": steps, "wall_s": wall_s,
            "data": [f"{benchmark}: {', '.join(sorted(values))}" for benchmark, values in sorted(data.items())],
            "models": models, "findings": headline_findings(tables), "links": links,
            "papers": reproductions(reproduced)}
