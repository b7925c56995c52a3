"""What the report and the web app show of QUACKIE (plug-in part ``views``): the Table 2 leaderboard, an instance's
sentences with their scores and the ground truth, and the headline findings."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from interpeval.benchmarks.quackie.data import dataset_path, load_squad
from interpeval.benchmarks.quackie.score import score_run
from interpeval.report.static import _fmt, like_with_like
from interpeval.report.views import _cell, heat_tokens, per_run
from interpeval.stats import mean_ci
from interpeval.store import RunInfo, Store, fingerprint_files

HOW_TO_READ = ("IoU / HPD / SNR ×100 of the top sentence against the ground-truth answer sentence (higher is better); "
               "the Random row is the chance level; [low, high] is a 95 % bootstrap interval over the n questions.")

#: the stored runs the leaderboard stands for (the generic per-run table leaves them out)
COVERS = ("quackie", "quackie-selection", "quackie-gt-check")

#: runs whose instances are no examples for the static report (selection counts, the ground-truth check)
NO_EXAMPLES = ("quackie-selection", "quackie-gt-check")


def quackie_rows(store: Store, info: RunInfo) -> list[dict[str, Any]]:
    """One run's leaderboard rows, one per aggregation: IoU, HPD and SNR ×100 with 95 % bootstrap intervals."""
    label = _label(info)
    return [{"run_id": info.id, "dataset": info.config.get("dataset", ""),
             "classifier": info.config.get("classifier", ""), "method": scored.method,
             **{name: _cell(mean_ci([s[k] for s in scored.samples]), 100)
                for name, k in (("IoU", "iou"), ("HPD", "hpd"), ("SNR", "snr"))}}
            for scored in score_run(store.instances(info.id), label)]


def quackie_leaderboard(store: Store) -> dict[str, Any] | None:
    rows, models = [], set()
    for info in store.runs("quackie"):
        models.add(info.model)
        rows += per_run(store, info, "quackie.leaderboard", lambda info=info: quackie_rows(store, info))
    if not rows:
        return None
    return {"benchmark": "quackie", "title": "QUACKIE leaderboard (Table 2 layout: IoU, HPD, SNR ×100, k = 1)",
            "key_columns": ["dataset", "classifier", "method"], "stats": ["IoU", "HPD", "SNR"], "rows": rows,
            "models": sorted(models), "how": HOW_TO_READ, "baseline": "Random"}


def leaderboards(store: Store, context: dict[str, Any]) -> list[dict[str, Any]]:
    table = quackie_leaderboard(store)
    return [table] if table else []


def findings(table: dict[str, Any], rows: list[dict[str, Any]]) -> list[str]:
    """Per dataset, classifier and n (like with like): the best IoU and the random baseline's."""
    lines = []
    for (dataset, classifier, n), group in like_with_like(rows, "IoU", ("dataset", "classifier")).items():
        base = next((r for r in group if r["method"].lower().startswith("random")), None)
        ranked = [r for r in group if r is not base] or group
        best = max(ranked, key=lambda r: r["IoU"]["value"])
        line = f"{dataset} / {classifier}: best IoU {_fmt(best['IoU'])} by {best['method']}"
        versus = f" vs random {_fmt(base['IoU'])}" if base is not None and base is not best else ""
        among = f" among {len(ranked)} methods" if len(ranked) > 1 else ""
        lines.append(f"{line}{versus}{among} (n={n}).")
    return lines


@lru_cache(maxsize=8)
def _quackie_questions(dataset: str, fingerprint: str) -> dict[str, Any]:
    try:
        path = dataset_path(dataset)
    except (ValueError, FileNotFoundError):
        return {}
    if fingerprint and fingerprint_files(path) != fingerprint:
        return {}
    return {q.id: q for q in load_squad(path)}


def quackie_sentences(info: RunInfo, output: dict[str, Any], agg: str | None = None,
                      others: list[tuple[RunInfo, dict[str, Any]]] = ()) -> dict[str, Any]:
    """The question and its context's sentences with the ground truth marked, scored (of one aggregation) by this
    run and, side by side on one colour scale, by ``others`` (other explainers' runs on the same question):
    ``rows`` of {run_id, label, this, sentences (heat, ``gt``, ``top``)}; ``sentences`` is this run's row."""
    question = _quackie_questions(str(info.config.get("dataset", "")), info.data_fingerprint).get(
        output["instance_id"])
    scores_by_agg = output.get("scores") or {}
    aggs = list(scores_by_agg)
    agg = agg if agg in scores_by_agg else (aggs[0] if aggs else None)
    gt = set(output.get("gt", []))
    if question is None:
        return {"available": False, "aggs": aggs, "agg": agg, "gt": sorted(gt)}
    from interpeval.benchmarks.quackie.build import build_instance  # nltk: seconds, only for an instance page

    texts = list(build_instance(question, official=bool(info.config.get("official"))).sentences)
    scored = []
    for run, out in [(info, output), *others]:
        by_agg = out.get("scores") or {}
        used = agg if agg in by_agg else next(iter(by_agg), None)  # a run without the page's: its own first
        scores = by_agg.get(used) or []
        scored.append((run, used, scores if len(scores) == len(texts) else [math.nan] * len(texts)))
    scale = max((abs(v) for _, _, scores in scored for v in scores if np.isfinite(v)), default=0.0) or None
    rows = []
    for run, used, scores in scored:
        heat = heat_tokens(texts, scores, scale=scale)
        top = int(np.nanargmax(scores)) if np.isfinite(scores).any() else None
        rows.append({"run_id": run.id, "label": _label(run), "this": run.id == info.id, "agg": used,
                     "scored_by": scored_by(used),
                     "sentences": [{**h, "text": t, "gt": i in gt, "top": i == top}
                                   for i, (t, h) in enumerate(zip(texts, heat, strict=True))]})
    return {"available": True, "question": question.question, "title": question.title, "aggs": aggs, "agg": agg,
            "sentences": rows[0]["sentences"], "rows": rows, "scale": scale, "gt": sorted(gt)}


def scored_by(agg: str | None) -> str:
    """How a row's sentence scores were made: the Random baseline draws them, an explainer's token scores are
    aggregated per sentence (``sum``, ``max`` …)."""
    if agg is None:
        return "no scores stored"
    return "random scores (no explainer, nothing aggregated)" if agg == "random" else f"token scores aggregated by {agg}"


def _label(info: RunInfo) -> str:
    method = info.config.get("method") or {}
    return str(method.get("label") or method.get("explainer") or "?") if isinstance(method, dict) else str(method)


def _same_question_runs(store: Store, info: RunInfo, instance_id: str) -> list[tuple[RunInfo, dict[str, Any]]]:
    """Other QUACKIE runs (other explainers) of the same model, classifier, data and setting on this question."""
    same = {k: v for k, v in info.config.items() if k not in ("method", "aggs")}
    found = []
    for other in store.runs("quackie"):
        if other.id == info.id or other.model != info.model or other.data_fingerprint != info.data_fingerprint \
                or {k: v for k, v in other.config.items() if k not in ("method", "aggs")} != same:
            continue
        output = store.instance(other.id, instance_id)
        if output is not None:
            found.append((other, output))
    return found


def instance_view(store: Store, info: RunInfo, output: dict[str, Any], view: dict[str, Any]) -> None:
    """A QUACKIE question's sentences (of the aggregation the page asks for: ``view["options"]["agg"]``)."""
    if info.benchmark == "quackie":
        view["sentences"] = quackie_sentences(info, output, view["options"].get("agg"),
                                              _same_question_runs(store, info, output["instance_id"]))
