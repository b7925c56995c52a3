"""What the report and the web app show of probing (plug-in part ``views``): the best-layer leaderboard, the
dashboard's rows (one per experiment) and the headline findings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from interpeval.benchmarks.probing.plots import load_families
from interpeval.benchmarks.probing.senteval import read_task, task_files
from interpeval.report.static import _fmt
from interpeval.report.views import _plain
from interpeval.stats import wilson
from interpeval.store import Store

HOW_TO_READ = ("Test accuracy of a probe at its best layer; 'control' is the same probe on shuffled labels and "
               "selectivity = accuracy − control; 'majority' always answers the most frequent label; "
               "[low, high] is a 95 % Wilson interval over the n test sentences.")

#: the stored runs the leaderboard stands for (the generic per-run table leaves them out)
COVERS = ("probing",)

#: runs whose instances are no examples for the static report (a probing run's are its grid's cells)
NO_EXAMPLES = ("probing",)


def probing_rows(store: Store, run_ids: Iterable[int] | None = None,
                 tasks_dir: str | Path | None = None) -> list[dict[str, Any]]:
    """One row per probing experiment (task × aggregation × probe × layer) of every (or the given) probing run,
    with the language's family and, when the task files are at hand, the majority-class test accuracy."""
    families = load_families()
    wanted = None if run_ids is None else set(run_ids)
    majority = _majority_by_task(tasks_dir)
    rows = []
    for info in store.runs("probing"):
        if wanted is not None and info.id not in wanted:
            continue
        for out in store.instances(info.id):
            if "layer" not in out or "accuracy" not in out:
                continue
            family = families.get(out.get("language", ""), {})
            rows.append({"run_id": info.id, "model": info.model, "task": out.get("task", ""),
                         "language": out.get("language", ""), "category": out.get("category", ""),
                         "family": family.get("family", "?"), "language_name": family.get("language", ""),
                         "aggregation": out.get("aggregation", ""), "probe": out.get("probe", ""),
                         "layer": int(out["layer"]), "accuracy": out.get("accuracy"),
                         "control_accuracy": out.get("control_accuracy"), "selectivity": out.get("selectivity"),
                         "majority": out.get("majority_accuracy", majority.get(out.get("task", ""))),
                         "n_test": (out.get("sizes") or {}).get("te")})
    return rows


def _majority_by_task(tasks_dir: str | Path | None) -> dict[str, float]:
    if tasks_dir is None or not Path(tasks_dir).is_dir():
        return {}
    out = {}
    try:
        paths = task_files([tasks_dir])
    except ValueError:  # a folder without task files: no baselines to add
        return {}
    for path in paths:
        task = read_task(path)
        train, test = Counter(task.labels["tr"]), task.labels["te"]
        if train and test:
            label = train.most_common(1)[0][0]  # the majority of training labels, scored on the test part
            out[task.name] = sum(y == label for y in test) / len(test)
    return out


def probing_leaderboard(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Best layer per (model, task, aggregation, probe) with Wilson intervals and the majority baseline."""
    best: dict[tuple[Any, ...], dict[str, Any]] = {}
    for r in rows:
        key = (r["model"], r["language"], r["category"], r["aggregation"], r["probe"])
        if key not in best or (r["accuracy"] or 0) > (best[key]["accuracy"] or 0):
            best[key] = r
    if not best:
        return None
    table = []
    for (model, language, category, agg, probe), r in sorted(best.items()):
        n = int(r.get("n_test") or 0)
        low, high = wilson((r["accuracy"] or 0) * n, n)
        table.append({"run_id": r["run_id"], "model": model, "language": language, "category": category,
                      "aggregation": agg, "probe": probe, "layer": r["layer"],
                      "accuracy": {"value": r["accuracy"], "low": low, "high": high, "n": n},
                      "control": _plain(r.get("control_accuracy")), "selectivity": _plain(r.get("selectivity")),
                      "majority": _plain(r.get("majority"))})
    return {"benchmark": "probing", "title": "Probing: best layer per task (accuracy with 95 % Wilson interval)",
            "key_columns": ["model", "language", "category", "aggregation", "probe", "layer"],
            "stats": ["accuracy", "control", "selectivity", "majority"], "rows": table,
            "models": sorted({k[0] for k in best}), "how": HOW_TO_READ, "baseline": "majority"}


def leaderboards(store: Store, context: dict[str, Any]) -> list[dict[str, Any]]:
    table = probing_leaderboard(probing_rows(store, tasks_dir=context.get("tasks_dir")))
    return [table] if table else []


def findings(table: dict[str, Any], rows: list[dict[str, Any]]) -> list[str]:
    """How many tasks were probed, the best one, how many beat the majority baseline, the mean selectivity."""
    above = [r for r in rows if r["majority"]["value"] == r["majority"]["value"]
             and r["accuracy"]["low"] > r["majority"]["value"]]
    with_majority = [r for r in rows if r["majority"]["value"] == r["majority"]["value"]]
    best = max(rows, key=lambda r: r["accuracy"]["value"])
    lines = [f"{len(rows)} tasks probed; best: {best['language']} {best['category']} "
             f"{_fmt(best['accuracy'], 3)} at layer {best['layer']} (n={best['accuracy']['n']})."]
    if with_majority:
        lines.append(f"{len(above)} of {len(with_majority)} tasks beat the majority baseline with the whole "
                     "95 % interval above it.")
    selective = [r for r in rows if r["selectivity"]["value"] == r["selectivity"]["value"]]
    if selective:
        mean = sum(r["selectivity"]["value"] for r in selective) / len(selective)
        lines.append(f"mean selectivity (accuracy − control) at the best layer: {mean:.3f}.")
    return lines
