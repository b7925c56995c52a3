"""What the web app and the static report show, computed once from the results store (plain dicts, no HTML).

Both ``interpeval serve`` and ``interpeval report`` render these dicts with the same templates, so a live page and
its static copy always agree. Benchmark-specific views (QUACKIE sentences, ExpMRC evidence, probing layers) read
the benchmark's own stored outputs; texts that a run did not store (QUACKIE sentences, ExpMRC contexts) are rebuilt
from the vendored data file the run's fingerprint names, and are left out when that file is not the one it ran on.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from interpeval.store import RunInfo, Store

HOW_TO_READ = {
    "quackie": "IoU / HPD / SNR ×100 of the top sentence against the ground-truth answer sentence (higher is better); "
               "the Random row is the chance level; [low, high] is a 95 % bootstrap interval over the n questions.",
    "expmrc": "F1 ×100 of the answer (ANS), the evidence sentence (EVI) and both at once (ALL, per question "
              "answer F1 × evidence F1); 95 % bootstrap intervals over the n questions; 'gold' rows are upper bounds.",
    "probing": "Test accuracy of a probe at its best layer; 'control' is the same probe on shuffled labels and "
               "selectivity = accuracy − control; 'majority' always answers the most frequent label; "
               "[low, high] is a 95 % Wilson interval over the n test sentences.",
    "other": "Mean of each per-instance metric over the n instances with a 95 % bootstrap interval.",
}


def jsonable(value: Any) -> Any:
    """The same data with NaN and infinities as None, so that browsers' JSON.parse accepts it."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


# runs ---------------------------------------------------------------------------------------------------------

def run_summary(info: RunInfo) -> dict[str, Any]:
    """One row of the runs list."""
    config = info.config
    label = _method_label(config)
    return {"id": info.id, "benchmark": info.benchmark, "model": info.model or "–", "status": info.status,
            "n": info.n_instances, "elapsed_s": round(info.elapsed_s, 1), "created_at": info.created_at,
            "label": label, "config": config, "data": info.data_fingerprint, "code": info.code_version}


def _method_label(config: dict[str, Any]) -> str:
    method = config.get("method")
    if isinstance(method, dict):
        method = method.get("label") or method.get("explainer") or method.get("name")
    parts = [str(v) for v in (config.get("dataset"), config.get("subset"), config.get("classifier"), method,
                              config.get("system")) if v]
    return " · ".join(parts)


def list_runs(store: Store, benchmark: str | None = None, model: str | None = None, status: str | None = None,
              query: str | None = None) -> list[dict[str, Any]]:
    """The runs list, filtered by benchmark, model, status and a free-text query over the config."""
    rows = []
    for info in store.runs(benchmark or None):
        if model and info.model != model or status and info.status != status:
            continue
        row = run_summary(info)
        if query and query.lower() not in json.dumps([row["label"], info.config, info.model]).lower():
            continue
        rows.append(row)
    return rows


def run_metrics(store: Store, run_id: int) -> list[dict[str, Any]]:
    """Run-level metrics, and per metric name the mean, n and 95 % interval of the per-instance values."""
    rows = store.metrics(run_id)
    out = [{"group": m["group"], "name": m["name"], "value": m["value"], "n": None, "low": None, "high": None}
           for m in rows if m["instance_id"] == ""]
    per: dict[tuple[str, str], list[float]] = {}
    for m in rows:
        if m["instance_id"] != "" and m["value"] is not None:
            per.setdefault((m["group"], m["name"]), []).append(m["value"])
    for (group, name), values in sorted(per.items()):
        out.append({"group": group, "name": f"mean {name} per instance", **mean_ci(values)})
    return out


def mean_ci(values: Sequence[float], seed: int = 0) -> dict[str, Any]:
    """``{value, n, low, high}``: the mean of the finite values and its 95 % percentile-bootstrap interval."""
    from interpeval.evaluate.aggregate import bootstrap_ci

    arr = np.asarray([v for v in values if v is not None], dtype=float)
    arr = arr[np.isfinite(arr)]
    if arr.size == 0:
        return {"value": math.nan, "n": 0, "low": math.nan, "high": math.nan}
    low, high = bootstrap_ci(arr, seed=seed)
    return {"value": float(arr.mean()), "n": int(arr.size), "low": low, "high": high}


def wilson(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (accuracy over n test items)."""
    if n <= 0:
        return math.nan, math.nan
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


# token heatmaps ---------------------------------------------------------------------------------------------

def heat_tokens(tokens: Sequence[str], scores: Sequence[float], segments: Sequence[int] | None = None,
                hide_special: bool = True) -> list[dict[str, Any]]:
    """Tokens with a signed colour: green for positive, red for negative, opacity ∝ |score| / max |score|."""
    keep = [i for i in range(len(tokens)) if not (hide_special and segments is not None and segments[i] == -1)]
    values = [float(scores[i]) for i in keep if scores[i] is not None and math.isfinite(float(scores[i]))]
    top = max((abs(v) for v in values), default=0.0) or 1.0
    out = []
    for i in keep:
        score = float(scores[i]) if scores[i] is not None else math.nan
        alpha = 0.0 if not math.isfinite(score) else min(1.0, abs(score) / top)
        colour = "0,150,60" if score >= 0 else "210,30,30"
        text = str(tokens[i])
        out.append({"text": text[2:] if text.startswith("##") else text, "joined": text.startswith("##"),
                    "score": score, "style": f"background-color: rgba({colour},{alpha:.3f})",
                    "segment": None if segments is None else segments[i]})
    return out


def heatmaps_in(output: dict[str, Any], label: str = "") -> list[dict[str, Any]]:
    """Every token heatmap in an instance output: the output itself (an Attribution) or its dict fields
    (e.g. ``original`` / ``perturbed`` in the masked-LM benchmark)."""
    found = []
    if isinstance(output.get("tokens"), list) and isinstance(output.get("scores"), list) \
            and len(output["tokens"]) == len(output["scores"]):
        method = output.get("method") or label
        params = output.get("params") or {}
        found.append({"label": " ".join(x for x in (label, str(method) if method != label else "",
                                                    ", ".join(f"{k}={v}" for k, v in params.items())) if x),
                      "tokens": heat_tokens(output["tokens"], output["scores"], output.get("segments")),
                      "target": output.get("target")})
        return found
    for key, value in output.items():
        if isinstance(value, dict):
            found += heatmaps_in(value, f"{label} {key}".strip())
    return found


# instances ---------------------------------------------------------------------------------------------------

def instance_ids(store: Store, run_id: int) -> list[str]:
    return [row["instance_id"] for row in store.instances(run_id)]


def instance(store: Store, run_id: int, instance_id: str) -> dict[str, Any] | None:
    return next((row for row in store.instances(run_id) if row["instance_id"] == instance_id), None)


def instance_view(store: Store, run_id: int, instance_id: str, agg: str | None = None) -> dict[str, Any]:
    """Everything the instance page shows: heatmaps (with the same input under other explainers side by side),
    QUACKIE sentences with the ground truth marked, ExpMRC evidence highlighted, per-instance metrics."""
    info = store.get_run(run_id)
    output = instance(store, run_id, instance_id)
    if output is None:
        raise KeyError(f"run {run_id} has no instance {instance_id!r}")
    metrics = [m for m in store.metrics(run_id) if m["instance_id"] == instance_id]
    view: dict[str, Any] = {"run": run_summary(info), "instance_id": instance_id, "metrics": metrics,
                            "heatmaps": heatmaps_in(output), "output": output}
    if view["heatmaps"]:
        view["side_by_side"] = _other_explainers(store, info, instance_id)
    if info.benchmark == "quackie":
        view["sentences"] = quackie_sentences(info, output, agg)
    elif info.benchmark == "expmrc":
        view["evidence"] = expmrc_evidence(info, output)
    elif "word_scores" in output:
        view["pair"] = original_and_perturbed(store, run_id, output)
    return view


def _word_heat(output: dict[str, Any] | None, label: str) -> dict[str, Any] | None:
    """A masked-LM record's word scores as a heatmap, its rationale words marked (needs the stored words)."""
    if output is None:
        return None
    tokens, scores = output.get("sent_token") or output.get("tokens"), output.get("word_scores")
    if not tokens or not scores or len(tokens) != len(scores):
        return {"label": label, "instance_id": output["instance_id"], "tokens": [], "scores": scores or []}
    heat = heat_tokens(tokens, scores)
    for i in output.get("rationale", []):
        heat[i]["rationale"] = True
    return {"label": label, "instance_id": output["instance_id"], "tokens": heat,
            "top_k": output.get("top_k", [])[:3], "f1": output.get("f1")}


def original_and_perturbed(store: Store, run_id: int, output: dict[str, Any]) -> list[dict[str, Any]]:
    """The masked-LM benchmark's pair: the original record and its perturbed twins (or the reverse)."""
    rows = store.instances(run_id)
    if output.get("sample_type") == "ori":
        twins = [r for r in rows if str(r.get("ori_id")) == output["instance_id"] and r is not output]
        pair = [_word_heat(output, "original")] + [_word_heat(t, f"perturbed ({t.get('perturbation') or '?'})")
                                                   for t in twins]
    else:
        original = next((r for r in rows if r["instance_id"] == str(output.get("ori_id"))), None)
        pair = [_word_heat(original, "original"),
                _word_heat(output, f"perturbed ({output.get('perturbation') or '?'})")]
    return [p for p in pair if p is not None]


def _other_explainers(store: Store, info: RunInfo, instance_id: str) -> list[dict[str, Any]]:
    """The same input (same benchmark, model and data) explained by other runs: one heatmap per run."""
    rows = []
    for other in store.runs(info.benchmark):
        if other.id == info.id or other.data_fingerprint != info.data_fingerprint or other.model != info.model:
            continue
        output = instance(store, other.id, instance_id)
        if output is not None:
            for heat in heatmaps_in(output):
                rows.append({"run_id": other.id, **heat})
    return rows


@lru_cache(maxsize=8)
def _quackie_questions(dataset: str, fingerprint: str) -> dict[str, Any]:
    from interpeval.benchmarks.quackie.data import dataset_path, load_squad
    from interpeval.store import fingerprint_files

    try:
        path = dataset_path(dataset)
    except (ValueError, FileNotFoundError):
        return {}
    if fingerprint and fingerprint_files(path) != fingerprint:
        return {}
    return {q.id: q for q in load_squad(path)}


def quackie_sentences(info: RunInfo, output: dict[str, Any], agg: str | None = None) -> dict[str, Any]:
    """The question and its context's sentences with scores (of one aggregation) and the ground truth marked."""
    from interpeval.benchmarks.quackie.build import build_instance

    question = _quackie_questions(str(info.config.get("dataset", "")), info.data_fingerprint).get(
        output["instance_id"])
    scores_by_agg = output.get("scores") or {}
    aggs = list(scores_by_agg)
    agg = agg if agg in scores_by_agg else (aggs[0] if aggs else None)
    scores = scores_by_agg.get(agg, []) if agg else []
    gt = set(output.get("gt", []))
    if question is None:
        return {"available": False, "aggs": aggs, "agg": agg, "gt": sorted(gt)}
    built = build_instance(question, official=bool(info.config.get("official")))
    texts = list(built.sentences)
    heat = heat_tokens(texts, scores if len(scores) == len(texts) else [math.nan] * len(texts))
    top = int(np.nanargmax(scores)) if len(scores) == len(texts) and np.isfinite(scores).any() else None
    sentences = [{**h, "text": t, "gt": i in gt, "top": i == top} for i, (t, h) in enumerate(zip(texts, heat,
                                                                                                 strict=True))]
    return {"available": True, "question": question.question, "title": question.title, "aggs": aggs, "agg": agg,
            "sentences": sentences, "gt": sorted(gt)}


@lru_cache(maxsize=8)
def _expmrc_questions(subset: str, fingerprint: str) -> dict[str, Any]:
    from interpeval.benchmarks.expmrc.data import dev_path, load_dataset
    from interpeval.store import fingerprint_files

    try:
        path = dev_path(subset)
    except ValueError:
        return {}
    if not path.is_file() or fingerprint and fingerprint_files(path) != fingerprint:
        return {}
    return {q.qid: q for q in load_dataset(path).questions}


def highlight(text: str, spans: Iterable[tuple[int, int, str]]) -> list[dict[str, str]]:
    """Split ``text`` into pieces tagged with the classes of the (start, end, class) spans covering them."""
    cuts = {0, len(text)}
    spans = [(s, e, c) for s, e, c in spans if 0 <= s < e <= len(text)]
    for s, e, _ in spans:
        cuts.update((s, e))
    points = sorted(cuts)
    return [{"text": text[a:b], "cls": " ".join(sorted({c for s, e, c in spans if s <= a and b <= e}))}
            for a, b in zip(points, points[1:], strict=False)]


def _find_all(text: str, needle: str, cls: str) -> list[tuple[int, int, str]]:
    needle = (needle or "").strip()
    start = text.find(needle) if needle else -1
    return [] if start < 0 else [(start, start + len(needle), cls)]


def expmrc_evidence(info: RunInfo, output: dict[str, Any]) -> dict[str, Any]:
    """The passage with the gold evidence and the predicted evidence (and answer) highlighted."""
    question = _expmrc_questions(str(info.config.get("subset", "")), info.data_fingerprint).get(output["instance_id"])
    predicted = {"answer": output.get("answer"), "evidence": output.get("evidence")}
    if question is None:
        return {"available": False, **predicted}
    spans = [s for ev in (question.evidences or ()) for s in _find_all(question.context, ev, "gold")]
    spans += _find_all(question.context, str(predicted["evidence"] or ""), "pred")
    return {"available": True, "question": question.question, "answers": list(question.answers),
            "options": list(question.options), "pieces": highlight(question.context, spans),
            "gold_evidence": list(question.evidences or ()), **predicted}


# leaderboards ----------------------------------------------------------------------------------------------

def held_out(model: str) -> str | None:
    """The model card's held-out scores, as one line, for trained zoo heads."""
    from interpeval.models.zoo import artifacts_dir

    card = artifacts_dir() / model / "card.json"
    if not model or not card.is_file():
        return None
    data = json.loads(card.read_text())
    scores = ", ".join(f"{k} {v:.3f}" for k, v in (data.get("metrics") or {}).items() if isinstance(v, (int, float)))
    return f"{model}: held-out {scores} (n={data.get('n_eval', '?')}; {data.get('data', '')})" if scores else None


def _cell(stats: dict[str, Any], scale: float = 1.0) -> dict[str, Any]:
    return {"value": stats["value"] * scale, "low": stats["low"] * scale, "high": stats["high"] * scale,
            "n": stats["n"]}


def quackie_leaderboard(store: Store) -> dict[str, Any] | None:
    from interpeval.benchmarks.quackie.run import score_outputs

    rows, models = [], set()
    for info in store.runs("quackie"):
        per_agg = score_outputs(store.instances(info.id))
        method = info.config.get("method") or {}
        label = method.get("label") or method.get("explainer") or "?" if isinstance(method, dict) else str(method)
        models.add(info.model)
        for agg, samples in per_agg.items():
            name = label if agg == "random" else f"{label}_{agg}"
            rows.append({"run_id": info.id, "dataset": info.config.get("dataset", ""),
                         "classifier": info.config.get("classifier", ""), "method": name,
                         **{name: _cell(mean_ci([s[k] for s in samples]), 100)
                            for name, k in (("IoU", "iou"), ("HPD", "hpd"), ("SNR", "snr"))}})
    if not rows:
        return None
    return {"benchmark": "quackie", "title": "QUACKIE leaderboard (Table 2 layout: IoU, HPD, SNR ×100, k = 1)",
            "key_columns": ["dataset", "classifier", "method"], "stats": ["IoU", "HPD", "SNR"], "rows": rows,
            "models": sorted(models), "how": HOW_TO_READ["quackie"], "baseline": "Random"}


def expmrc_leaderboard(store: Store) -> dict[str, Any] | None:
    rows, models = [], set()
    for info in store.runs("expmrc"):
        per: dict[str, list[float]] = {}
        for m in store.metrics(info.id):
            if m["instance_id"] != "" and m["value"] is not None:
                per.setdefault(m["name"], []).append(m["value"])
        models.add(info.model)
        rows.append({"run_id": info.id, "subset": info.config.get("subset", ""),
                     "system": info.config.get("label") or info.config.get("system", ""), "model": info.model,
                     **{name: _cell(mean_ci(per.get(key, [])), 100)
                        for name, key in (("ANS", "answer"), ("EVI", "evidence"), ("ALL", "all"))}})
    if not rows:
        return None
    return {"benchmark": "expmrc", "title": "ExpMRC Table 3 layout: answer, evidence and overall F1 ×100",
            "key_columns": ["subset", "system", "model"], "stats": ["ANS", "EVI", "ALL"], "rows": rows,
            "models": sorted(m for m in models if m != "gold"), "how": HOW_TO_READ["expmrc"], "baseline": ""}


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
            "models": sorted({k[0] for k in best}), "how": HOW_TO_READ["probing"], "baseline": "majority"}


def _plain(value: Any) -> dict[str, Any]:
    return {"value": math.nan if value is None else float(value), "low": math.nan, "high": math.nan, "n": None}


def generic_leaderboards(store: Store, skip: Iterable[str]) -> list[dict[str, Any]]:
    """Every other benchmark with per-instance metrics: one row per run, the mean of each metric."""
    skip = set(skip)
    by_benchmark: dict[str, list[dict[str, Any]]] = {}
    names: dict[str, set[str]] = {}
    for info in store.runs():
        if info.benchmark in skip:
            continue
        per: dict[str, list[float]] = {}
        for m in store.metrics(info.id):
            if m["instance_id"] != "" and m["value"] is not None:
                per.setdefault(f"{m['group']}/{m['name']}" if m["group"] else m["name"], []).append(m["value"])
        if not per:
            continue
        names.setdefault(info.benchmark, set()).update(per)
        by_benchmark.setdefault(info.benchmark, []).append(
            {"run_id": info.id, "model": info.model, "run": _method_label(info.config) or f"run {info.id}",
             **{k: _cell(mean_ci(v)) for k, v in per.items()}})
    out = []
    for benchmark, rows in by_benchmark.items():
        stats = sorted(names[benchmark])
        for row in rows:
            for s in stats:
                row.setdefault(s, _plain(None))
        out.append({"benchmark": benchmark, "title": f"{benchmark}: mean per-instance metrics per run",
                    "key_columns": ["model", "run"], "stats": stats, "rows": rows,
                    "models": sorted({r["model"] for r in rows}), "how": HOW_TO_READ["other"], "baseline": ""})
    return out


def leaderboards(store: Store, tasks_dir: str | Path | None = None) -> list[dict[str, Any]]:
    """Every benchmark's table with n and intervals, each with its models' held-out scores."""
    tables = [quackie_leaderboard(store), expmrc_leaderboard(store),
              probing_leaderboard(probing_rows(store, tasks_dir=tasks_dir))]
    tables = [t for t in tables if t] + generic_leaderboards(
        store, skip=("quackie", "expmrc", "probing", "quackie-selection", "quackie-gt-check", "attribute"))
    for table in tables:
        table["held_out"] = [line for line in (held_out(m) for m in table["models"]) if line]
    return tables


def leaderboard_csv(table: dict[str, Any]) -> str:
    """One leaderboard as CSV: key columns, then value, low, high and n of every statistic."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer)
    header = list(table["key_columns"])
    for stat in table["stats"]:
        header += [stat, f"{stat}_low", f"{stat}_high", f"{stat}_n"]
    writer.writerow(header)
    for row in table["rows"]:
        line = [row.get(k, "") for k in table["key_columns"]]
        for stat in table["stats"]:
            cell = row[stat]
            line += [_num(cell["value"]), _num(cell["low"]), _num(cell["high"]), "" if cell["n"] is None else cell["n"]]
        writer.writerow(line)
    return buffer.getvalue()


def _num(value: Any) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.6g}"


# probing -------------------------------------------------------------------------------------------------------

def probing_rows(store: Store, run_ids: Iterable[int] | None = None,
                 tasks_dir: str | Path | None = None) -> list[dict[str, Any]]:
    """One row per probing experiment (task × aggregation × probe × layer) of every (or the given) probing run,
    with the language's family and, when the task files are at hand, the majority-class test accuracy."""
    from interpeval.benchmarks.probing.plots import load_families

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
    from collections import Counter

    from interpeval.benchmarks.probing.senteval import read_task, task_files

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
