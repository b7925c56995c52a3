"""What the web app and the static report show, computed once from the results store (plain dicts, no HTML).

Both ``interpeval serve`` and ``interpeval report`` render these dicts with the same templates, so a live page and
its static copy always agree. This module knows no benchmark: each benchmark plug-in's ``views`` part
(:mod:`interpeval.plugins`) adds its leaderboards, its facts and panels of an instance page (QUACKIE
sentences, ExpMRC evidence, the masked-LM pair) and its headline findings; runs of no plug-in with per-instance
metrics get the generic per-run leaderboard.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

import interpeval
from interpeval.stats import mean_ci
from interpeval.store import RunInfo, Store

#: how to read the generic per-run leaderboards (each plug-in's ``views`` part says it of its own)
HOW_TO_READ = "Mean of each per-instance metric over the n instances with a 95 % bootstrap interval."


def views_of(run_benchmark: str) -> Any:
    """The ``views`` part of the plug-in whose stored runs carry ``run_benchmark`` (None: no plug-in, or none)."""
    from interpeval.plugins import owner

    plugin = owner(run_benchmark)
    return plugin.part("views") if plugin is not None else None


def plugin_views() -> list[Any]:
    """Every benchmark plug-in's ``views`` part, in plug-in order."""
    from interpeval.plugins import with_part

    return [part for _, part in with_part("views")]


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
                              config.get("explainer"), config.get("system")) if v]
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
    """Run-level metrics, and per metric name the mean, n and 95 % interval of the per-instance values (none for
    an ``evaluate`` run: :func:`evaluate_table` shows its explainer × metric table instead). ExpMRC's per-question
    F1 (0–1) is shown ×100, on the scale of its official run-level scores (a plug-in's ``METRIC_SCALE``)."""
    info = store.get_run(run_id)
    if info.benchmark == "evaluate":
        return []
    scale = getattr(views_of(info.benchmark), "METRIC_SCALE", {}).get(info.benchmark, 1.0)
    unit = f" ×{scale:g}" if scale != 1.0 else ""
    rows = store.metrics(run_id)
    out = [{"group": m["group"], "name": m["name"], "value": m["value"], "n": None, "low": None, "high": None}
           for m in rows if m["instance_id"] == ""]
    per: dict[tuple[str, str], list[float]] = {}
    for m in rows:
        if m["instance_id"] != "" and m["value"] is not None:
            per.setdefault((m["group"], m["name"]), []).append(m["value"])
    for (group, name), values in sorted(per.items()):
        out.append({"group": group, "name": f"mean {name} per instance{unit}", **_cell(mean_ci(values), scale)})
    return out


def evaluate_table(store: Store, run_id: int) -> dict[str, Any] | None:
    """An ``evaluate`` run as explainer × metric: mean, 95 % bootstrap interval and n per cell (as the run stored
    them), the random explainer as the baseline row, and the best explainer per metric (by the metric's declared
    direction, the baseline left out). None for other runs."""
    from interpeval import metrics as registry

    info = store.get_run(run_id)
    if info.benchmark != "evaluate":
        return None
    methods = [(str(m[0]), str(m[1])) for m in info.config.get("methods", []) if isinstance(m, list) and len(m) >= 2]
    cells: dict[tuple[str, str], dict[str, Any]] = {}
    for m in store.metrics(run_id):
        if m["instance_id"] == "" and "/" in m["group"]:
            label, metric = m["group"].rsplit("/", 1)
            cells.setdefault((label, metric), {})[m["name"]] = m["value"]
    names = [n for n in info.config.get("metrics", []) if any((label, n) in cells for label, _ in methods)]
    higher = {}
    for name in names:
        try:
            higher[name] = registry.get(name).info.higher_is_better
        except (KeyError, ValueError):
            higher[name] = True
    rows = []
    for label, explainer in methods:
        row = {"explainer": label, "baseline": explainer == "random", "cells": {}}
        for name in names:
            c = cells.get((label, name), {})
            row["cells"][name] = {"value": _none_nan(c.get("mean")), "low": _none_nan(c.get("ci_low")),
                                  "high": _none_nan(c.get("ci_high")),
                                  "n": None if c.get("n") is None else int(c["n"]), "best": False}
        rows.append(row)
    for name in names:
        ranked = [r for r in rows if not r["baseline"] and math.isfinite(r["cells"][name]["value"])]
        if ranked:
            pick = max if higher[name] else min
            pick(ranked, key=lambda r: r["cells"][name]["value"])["cells"][name]["best"] = True
    return {"metrics": names, "higher": higher, "rows": rows, "model": info.model, "n_inputs": info.n_instances}


def _none_nan(value: Any) -> float:
    return math.nan if value is None else float(value)


# token heatmaps ---------------------------------------------------------------------------------------------

def heat_tokens(tokens: Sequence[str], scores: Sequence[float], segments: Sequence[int] | None = None,
                hide_special: bool = True, scale: float | None = None) -> list[dict[str, Any]]:
    """Tokens with a signed colour (the convention of :mod:`interpeval.text.colours`: green for, red against the
    target), opacity ∝ |score| / ``scale`` (default: the largest |score| of these tokens)."""
    from interpeval.text.colours import NEGATIVE_RGB, POSITIVE_RGB

    keep = [i for i in range(len(tokens)) if not (hide_special and segments is not None and segments[i] == -1)]
    top = scale or max((abs(v) for v in _finite(scores[i] for i in keep)), default=0.0) or 1.0
    out = []
    for i in keep:
        score = float(scores[i]) if scores[i] is not None else math.nan
        alpha = 0.0 if not math.isfinite(score) else min(1.0, abs(score) / top)
        colour = ",".join(map(str, POSITIVE_RGB if score >= 0 else NEGATIVE_RGB))
        text = str(tokens[i])
        out.append({"index": i, "text": text[2:] if text.startswith("##") else text, "joined": text.startswith("##"),
                    "score": score, "style": f"background-color: rgba({colour},{alpha:.3f})",
                    "segment": None if segments is None else segments[i]})
    return out


def _finite(values: Iterable[Any]) -> list[float]:
    return [float(v) for v in values if isinstance(v, (int, float)) and math.isfinite(float(v))]


#: (words field, scores field) pairs that hold a stored explanation: an Attribution, an IQS explanation, a
#: masked-LM record (whose words may be rebuilt from its golden file)
_SCORED = (("tokens", "scores"), ("words", "scores"), ("sent_token", "word_scores"), ("tokens", "word_scores"),
           ("words", "word_scores"))


def scored_words(output: dict[str, Any], words: Sequence[str] | None = None) -> dict[str, Any] | None:
    """``{words, scores, segments}`` of an explanation stored in ``output`` (``words``: when it stored none)."""
    for words_key, scores_key in _SCORED:
        found, scores = output.get(words_key, words), output.get(scores_key)
        if isinstance(found, list) and isinstance(scores, list) and found and len(found) == len(scores) \
                and all(s is None or isinstance(s, (int, float)) for s in scores):
            segments = output.get("segments")
            return {"words": [str(w) for w in found], "scores": scores,
                    "segments": segments if isinstance(segments, list) and len(segments) == len(found) else None}
    return None


def explanations_in(output: dict[str, Any], label: str = "", words: Sequence[str] | None = None
                    ) -> list[dict[str, Any]]:
    """Every explanation in an instance output: the output itself (an Attribution, an IQS explanation, a masked-LM
    record) or its dict fields (e.g. the ``explanations`` of an ``evaluate`` record, one per explainer, with that
    explainer's metric ``values``)."""
    found = scored_words(output, words)
    if found is not None:
        method = output.get("method") or label
        params = output.get("params") or {}
        text = ", ".join(f"{k}={v}" for k, v in params.items() if v is not None) if isinstance(params, dict) else ""
        return [{**found, "label": " ".join(x for x in (str(method), text) if x), "target": output.get("target"),
                 "rationale": output.get("rationale") if isinstance(output.get("rationale"), list) else None}]
    out = []
    values = output.get("values") if isinstance(output.get("values"), dict) else {}
    for key, value in output.items():
        if isinstance(value, dict) and key != "values":
            for e in explanations_in(value, key if key != "explanations" else "", words):
                if isinstance(values.get(e["label"]), dict):
                    e["metrics"] = values[e["label"]]
                out.append(e)
    return out


# what one input was: text, gold, prediction --------------------------------------------------------------------

def instance_facts(store: Store, info: RunInfo, output: dict[str, Any]) -> dict[str, Any]:
    """The input, the gold answer or label, the model's prediction and its probability, as far as the run stored
    them or its data file (named by the run's fingerprint) gives them back."""
    facts: dict[str, Any] = {"text": output.get("text") if isinstance(output.get("text"), str) else None,
                             "pair": output.get("pair") if isinstance(output.get("pair"), str) else None,
                             "gold": None, "prediction": None, "probability": None, "correct": None,
                             "words": None, "gold_rationale": None}
    fill = getattr(views_of(info.benchmark), "instance_facts", None)
    if fill is not None:
        fill(store, info, output, facts)
    elif isinstance(output.get("target"), (list, dict, str)):
        facts["prediction"] = output["target"]
    return facts


# instances ---------------------------------------------------------------------------------------------------

def instance_ids(store: Store, run_id: int) -> list[str]:
    return [row["instance_id"] for row in store.instances(run_id)]


def instance(store: Store, run_id: int, instance_id: str) -> dict[str, Any] | None:
    return store.instance(run_id, instance_id)


def instance_view(store: Store, run_id: int, instance_id: str, agg: str | None = None) -> dict[str, Any]:
    """Everything the instance page shows: the input, gold and prediction; every explainer run on this input (this
    run's and those of other runs of the same benchmark, model and data) side by side on one colour scale, with
    the rationale or ground truth marked and each one's metrics; the per-instance metrics; and the panels of the
    run's benchmark plug-in (its ``instance_view``, which reads the page's options, e.g. QUACKIE's ``agg``)."""
    info = store.get_run(run_id)
    output = instance(store, run_id, instance_id)
    if output is None:
        raise KeyError(f"run {run_id} has no instance {instance_id!r}")
    metrics = [m for m in store.metrics(run_id, instance_id)]
    facts = instance_facts(store, info, output)
    view: dict[str, Any] = {"run": run_summary(info), "instance_id": instance_id, "metrics": metrics,
                            "facts": facts, "output": output}
    own = [{**e, "run_id": info.id, "this": True, "label": e["label"] or _explainer_of(info.config),
            "metrics": e.get("metrics") or {m["name"]: m["value"] for m in metrics}}
           for e in explanations_in(output, words=facts["words"])]
    if own:
        own += _other_explainers(store, info, instance_id, facts["words"])
    view["explanations"], view["scale"] = _on_one_scale(own, facts.get("gold_rationale"))
    panels = getattr(views_of(info.benchmark), "instance_view", None)
    if panels is not None:
        view["options"] = {"agg": agg}
        panels(store, info, output, view)
        del view["options"]
    return view


def _on_one_scale(explanations: list[dict[str, Any]], gold: Sequence[int] | None) -> tuple[list[dict[str, Any]],
                                                                                              float]:
    """Heatmaps of every explanation with one colour scale (the largest |score| of them all), the gold rationale
    (boxed) and each explanation's own rationale (underlined) marked."""
    scale = max((abs(v) for e in explanations for v in _finite(s for s, seg in zip(
        e["scores"], e["segments"] or [0] * len(e["scores"]), strict=True) if seg != -1)), default=0.0) or 1.0
    gold_set = set(gold or ())
    out = []
    for e in explanations:
        tokens = heat_tokens(e["words"], e["scores"], e["segments"], scale=scale)
        mine = set(e.get("rationale") or ())
        for t in tokens:
            t["gold"], t["rationale"] = t["index"] in gold_set, t["index"] in mine
        out.append({k: v for k, v in e.items() if k not in ("words", "scores", "segments")} | {"tokens": tokens})
    return out, scale


def _explainer_of(config: dict[str, Any]) -> str:
    """The explainer a run's config names (its label, else its name), else the run's one-line label."""
    return str(config.get("label") or config.get("explainer") or _method_label(config))


def _other_explainers(store: Store, info: RunInfo, instance_id: str, words: Sequence[str] | None
                      ) -> list[dict[str, Any]]:
    """The same input (same benchmark, model and data) explained by other runs, each with its own metrics."""
    rows = []
    for other in store.runs(info.benchmark):
        if other.id == info.id or other.data_fingerprint != info.data_fingerprint or other.model != info.model:
            continue
        output = instance(store, other.id, instance_id)
        if output is None:
            continue
        metrics = {m["name"]: m["value"] for m in store.metrics(other.id, instance_id)}
        for e in explanations_in(output, words=words):
            rows.append({**e, "run_id": other.id, "this": False, "label": e["label"] or _explainer_of(other.config),
                         "metrics": e.get("metrics") or metrics})
    return rows


def instance_table(store: Store, run_id: int, sort: str = "", descending: bool = False, query: str = ""
                   ) -> dict[str, Any]:
    """Every instance of a run with its per-instance metric values (and, for ``evaluate`` runs, how much the
    explainers disagree: 1 − the mean Spearman ρ of their scores), worst first by the main metric, filtered by a
    text query over id and values (``metric<0.5``-style queries keep rows with that metric below / above a bar)."""
    values: dict[str, dict[str, float | None]] = {}
    for m in store.metrics(run_id):
        if m["instance_id"] != "":
            name = f"{m['group']}/{m['name']}" if m["group"] else m["name"]
            values.setdefault(m["instance_id"], {})[name] = m["value"]
    ids = instance_ids(store, run_id)
    columns = sorted({name for row in values.values() for name in row})
    if store.get_run(run_id).benchmark == "evaluate":
        for row in store.instances(run_id):
            disagreement = explainer_disagreement(explanations_in(row))
            if disagreement is not None:
                values.setdefault(row["instance_id"], {})["explainer disagreement"] = disagreement
        columns += ["explainer disagreement"] if any("explainer disagreement" in v for v in values.values()) else []
    main = next((c for c in _MAIN_METRICS if c in columns), columns[0] if columns else "")
    sort = sort if sort in columns or sort == "id" else main
    rows = [{"id": i, "values": values.get(i, {})} for i in ids]
    rows = [r for r in rows if _matches(r, query)]
    if sort and sort != "id":
        present = [r for r in rows if isinstance(r["values"].get(sort), (int, float))]
        missing = [r for r in rows if not isinstance(r["values"].get(sort), (int, float))]
        rows = sorted(present, key=lambda r: r["values"][sort], reverse=descending) + missing
    elif descending:
        rows = rows[::-1]
    return {"columns": columns, "rows": rows, "sort": sort, "descending": descending, "query": query,
            "main": main, "total": len(ids)}


#: the metric a run's instances are ranked by first (lowest = worst first), when the run has it
_MAIN_METRICS = ("token_f1", "all", "evidence", "f1", "iou", "top1", "accuracy")


def _matches(row: dict[str, Any], query: str) -> bool:
    query = query.strip()
    if not query:
        return True
    for op in ("<=", ">=", "<", ">", "="):
        name, found, bar = query.partition(op)
        if found and name.strip() in row["values"]:
            try:
                limit = float(bar)
            except ValueError:
                break
            value = row["values"][name.strip()]
            if not isinstance(value, (int, float)):
                return False
            return {"<=": value <= limit, ">=": value >= limit, "<": value < limit, ">": value > limit,
                    "=": value == limit}[op]
    return query.lower() in row["id"].lower()


def explainer_disagreement(explanations: Sequence[dict[str, Any]]) -> float | None:
    """1 − the mean pairwise Spearman ρ of the explainers' scores on one input (None for fewer than two)."""
    ranks = []
    for e in explanations:
        scores = np.asarray([math.nan if s is None else float(s) for s in e["scores"]], dtype=float)
        if e["segments"] is not None:
            scores = scores[np.asarray(e["segments"]) != -1]
        ranks.append(np.argsort(np.argsort(scores)).astype(float))
    rhos = [float(np.corrcoef(a, b)[0, 1]) for i, a in enumerate(ranks) for b in ranks[i + 1:]
            if len(a) == len(b) and len(a) > 1 and a.std() > 0 and b.std() > 0]
    return 1.0 - float(np.mean(rhos)) if rhos else None


def highlight(text: str, spans: Iterable[tuple[int, int, str]]) -> list[dict[str, str]]:
    """Split ``text`` into pieces tagged with the classes of the (start, end, class) spans covering them."""
    cuts = {0, len(text)}
    spans = [(s, e, c) for s, e, c in spans if 0 <= s < e <= len(text)]
    for s, e, _ in spans:
        cuts.update((s, e))
    points = sorted(cuts)
    return [{"text": text[a:b], "cls": " ".join(sorted({c for s, e, c in spans if s <= a and b <= e}))}
            for a, b in zip(points, points[1:], strict=False)]


# leaderboards ----------------------------------------------------------------------------------------------

def per_run(store: Store, run: RunInfo, name: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` of one run (JSON: e.g. its leaderboard rows with their bootstrap intervals), computed once per
    revision of the run and version of the code, and kept in the store: a leaderboard recomputed after a server
    start or another run's write reads every other run's part back instead of scoring it again."""
    code = code_fingerprint()
    found, value = store.run_view(run, name, code)
    if found:
        return value
    value = compute()
    store.keep_run_view(run, name, code, value)
    return value


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of interpeval's source files and of the package of every plug-in's views (a benchmark outside
    interpeval), with numpy's version (its generator and quantiles make the bootstrap intervals): what a kept view
    was computed by, so that changed code computes it again."""
    files = set(Path(__file__).resolve().parents[1].rglob("*.py"))
    for part in plugin_views():
        module = part if isinstance(part, ModuleType) else sys.modules.get(getattr(part, "__module__", ""))
        source = getattr(module, "__file__", None)
        if source:
            files.update(Path(source).resolve().parent.rglob("*.py"))
    digest = hashlib.sha256(f"{interpeval.__version__} numpy {np.__version__}".encode())
    for path in sorted(files):
        digest.update(str(path.name).encode() + path.read_bytes())
    return digest.hexdigest()[:16]


def held_out(model: str) -> str | None:
    """The model card's held-out scores, as one line, for trained zoo heads: every held-out test of the card (what,
    n, scores, the trivial baseline's), or the card's older single ``metrics`` block."""
    from importlib import resources

    # models.zoo.artifacts_dir(), without importing interpeval.models (its package imports torch: seconds)
    card = Path(str(resources.files("interpeval"))) / "models" / "artifacts" / model / "card.json"
    if not model or not card.is_file():
        return None
    data = json.loads(card.read_text())

    def scores(metrics: dict[str, Any]) -> str:
        return ", ".join(f"{k} {v:.3f}" for k, v in metrics.items() if isinstance(v, (int, float)))

    tests = [f"{test.get('what', name)}: {scores(test.get('metrics') or {})} (n={test.get('n', '?')}"
             + (f"; {test['baseline_name']}: {scores(test['baseline'])}" if test.get("baseline") else "") + ")"
             for name, test in (data.get("heldout") or {}).items() if scores(test.get("metrics") or {})]
    if tests:
        return f"{model}: held out — " + "; ".join(tests)
    old = scores(data.get("metrics") or {})
    return f"{model}: held-out {old} (n={data.get('n_eval', '?')}; {data.get('data', '')})" if old else None


def _cell(stats: dict[str, Any], scale: float = 1.0) -> dict[str, Any]:
    return {"value": stats["value"] * scale, "low": stats["low"] * scale, "high": stats["high"] * scale,
            "n": stats["n"]}


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
        cells = per_run(store, info, "generic.leaderboard", lambda info=info: mean_cells(store, info.id))
        if not cells:
            continue
        names.setdefault(info.benchmark, set()).update(cells)
        by_benchmark.setdefault(info.benchmark, []).append(
            {"run_id": info.id, "model": info.model, "run": _method_label(info.config) or f"run {info.id}", **cells})
    out = []
    for benchmark, rows in by_benchmark.items():
        stats = sorted(names[benchmark])
        for row in rows:
            for s in stats:
                row.setdefault(s, _plain(None))
        out.append({"benchmark": benchmark, "title": f"{benchmark}: mean per-instance metrics per run",
                    "key_columns": ["model", "run"], "stats": stats, "rows": rows,
                    "models": sorted({r["model"] for r in rows}), "how": HOW_TO_READ, "baseline": ""})
    return out


def mean_cells(store: Store, run_id: int, scale: float = 1.0) -> dict[str, dict[str, Any]]:
    """Per metric (``group/name``) of a run: the mean of its per-instance values, n and 95 % bootstrap interval,
    each ×``scale``."""
    per: dict[str, list[float]] = {}
    for m in store.metrics(run_id):
        if m["instance_id"] != "" and m["value"] is not None:
            per.setdefault(f"{m['group']}/{m['name']}" if m["group"] else m["name"], []).append(m["value"])
    return {k: _cell(mean_ci(v), scale) for k, v in per.items()}


def evaluate_leaderboard(store: Store) -> dict[str, Any] | None:
    """Every ``evaluate`` run as explainer rows (one per run and explainer) × metric columns."""
    rows, stats, models = [], [], set()
    for info in store.runs("evaluate"):
        table = evaluate_table(store, info.id)
        if not table:
            continue
        models.add(info.model)
        stats += [m for m in table["metrics"] if m not in stats]
        for r in table["rows"]:
            rows.append({"run_id": info.id, "model": info.model, "explainer": r["explainer"] +
                         (" (random baseline)" if r["baseline"] else ""), **r["cells"]})
    if not rows:
        return None
    for row in rows:
        for s in stats:
            row.setdefault(s, _plain(None))
    return {"benchmark": "evaluate", "title": "evaluate: explainer × metric (mean per input, 95 % bootstrap interval)",
            "key_columns": ["model", "explainer"], "stats": stats, "rows": rows, "models": sorted(models),
            "how": HOW_TO_READ + " ★ marks the best explainer of a run per metric (the random baseline "
                                          "left out).", "baseline": "random baseline"}


def leaderboards(store: Store, tasks_dir: str | Path | None = None) -> list[dict[str, Any]]:
    """Every benchmark's table with n and intervals, each with its models' held-out scores."""
    parts = plugin_views()
    context = {"tasks_dir": tasks_dir}
    tables = [t for part in parts if hasattr(part, "leaderboards") for t in part.leaderboards(store, context)]
    tables += [t for t in (evaluate_leaderboard(store),) if t]
    tables += generic_leaderboards(store, skip=(*(run for part in parts for run in getattr(part, "COVERS", ())),
                                                "attribute", "evaluate"))
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
    """The probing dashboard's rows (the web app's /probing page, the static report's dashboard), one per
    experiment: computed by the probing plug-in's views part (none when it is not installed)."""
    from interpeval.plugins import get

    try:
        part = get("probing").part("views")
    except KeyError:
        return []
    return part.probing_rows(store, run_ids, tasks_dir)


def paper_reports(store: Store) -> list[dict[str, Any]]:
    """Every paper reproduced into this store (``interpeval reproduce PAPER``): paper, profile, when, the runs it was
    built from, how many findings have each verdict, and the report as HTML by the report's own renderer."""
    from interpeval.paper import VERDICTS, PaperReport
    from interpeval.report.reproduce import reproduce_fragment

    shown = []
    for kept in store.paper_reports():
        report = PaperReport.from_json(kept["report"])
        verdicts = {v: sum(f.verdict == v for f in report.findings) for v in VERDICTS}
        shown.append({"paper": kept["paper"], "profile": kept["profile"], "created_at": kept["created_at"],
                      "run_ids": kept["run_ids"], "verdicts": verdicts, "n_tables": len(report.tables),
                      "html": reproduce_fragment(report)})
    return shown

