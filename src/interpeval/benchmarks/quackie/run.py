"""Run QUACKIE: datasets × classifiers × explainers → sentence scores → IoU / HPD / SNR, stored and resumable.

Selection follows the original (REFERENCE §1.1): questions in file order; unanswerable ones, inputs longer than the
explained model's ``max_length`` (counted with its own tokenizer, special tokens included) and questions the model
does not predict as answerable are skipped and counted, so only true positives are explained. Every explainer
returns token scores for the (question, context) pair; the context part is aggregated to sentences with ``sum`` and
``max``, and each instance is recorded in the store as soon as it is done, so a killed run resumes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from interpeval.benchmarks.quackie.baseline import random_sentence_scores
from interpeval.benchmarks.quackie.build import Instance, build_instances
from interpeval.benchmarks.quackie.data import DATASETS, dataset_path, load_squad
from interpeval.benchmarks.quackie.verify import answerable_probability, ground_truth_check, summarize_check
from interpeval.models.base import Target

SPLIT_FILE = "quackie_split.json"
AGGREGATIONS = ("sum", "max")


@dataclass(frozen=True)
class Method:
    """A leaderboard entry: ``label`` (e.g. ``LIME_100``), a registered explainer name and its parameters.

    ``explainer == ""`` is the original's sentence-level ``Random`` baseline (no model call, no aggregation).
    """

    label: str
    explainer: str
    params: dict[str, Any] = field(default_factory=dict, hash=False)

    def config(self) -> dict[str, Any]:
        return {"label": self.label, "explainer": self.explainer, "params": self.params}


RANDOM = Method("Random", "")

#: The QUACKIE leaderboard set (REFERENCE §1.6), each later aggregated with sum and max.
LEADERBOARD: tuple[Method, ...] = (
    RANDOM,
    Method("Gradient", "saliency"),
    Method("IntegratedGradients_50", "integrated_gradients", {"n_steps": 50}),
    Method("SmoothGrad_5", "smoothgrad", {"n_samples": 5}),
    Method("LIME_10", "lime", {"n_samples": 10}),
    Method("LIME_100", "lime", {"n_samples": 100}),
    Method("SHAP_10", "kernel_shap", {"n_samples": 10}),
    Method("SHAP_100", "kernel_shap", {"n_samples": 100}),
)


def parse_method(spec: str) -> Method:
    """``NAME``, ``NAME:key=value,...`` or ``LABEL=NAME:key=value,...``; values are read as JSON when they parse.

    ``Random`` is the sentence-level baseline; any other name must be registered in :mod:`interpeval.explain`
    (plug-ins included).
    """
    label, _, rest = spec.partition("=") if "=" in spec.split(":", 1)[0] else ("", "", spec)
    name, _, args = rest.partition(":")
    name = name.strip()
    if not name:
        raise ValueError(f"method {spec!r}: no explainer name")
    if name == "Random":
        return Method(label or "Random", "")
    params: dict[str, Any] = {}
    for item in filter(None, (a.strip() for a in args.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"method {spec!r}: parameter {item!r} is not key=value")
        try:
            params[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            params[key.strip()] = value
    from interpeval import explain

    explain.get(name)  # fails early with the list of known names
    default = "_".join([name, *(str(v) for v in params.values())])
    return Method(label or default, name, params)


@dataclass(frozen=True)
class Classifier:
    """One of QUACKIE's two classifier kinds: the model to explain and the target that means "answerable".

    ``kind`` is passed to :func:`interpeval.models.load` (None: read from the checkpoint).
    """

    label: str
    model: str
    target: Target
    kind: str | None = None


#: The paper's two kinds, trained here from MiniLM (see SOURCES.md of data/squad and the artifacts' model cards).
CLASSIFIERS: dict[str, Classifier] = {
    "QA": Classifier("QA", "minilm-quackie-qa", Target("p_answer")),
    "Classification": Classifier("Classification", "minilm-quackie-cls", Target("class_prob", index=1)),
}


def model_dir(name: str) -> Path | None:
    """The directory a model name resolves to (zoo name or path), when there is one."""
    from interpeval.models import zoo

    path = zoo.path(name)
    path = Path(path) if path is not None else Path(name).expanduser()
    return path if path.is_dir() else None


def training_articles(name: str) -> tuple[str, ...]:
    """Article titles the model was trained on, from ``quackie_split.json`` next to it (none if absent)."""
    directory = model_dir(name)
    if directory is None or not (directory / SPLIT_FILE).is_file():
        return ()
    return tuple(json.loads((directory / SPLIT_FILE).read_text())["train_articles"])


def too_long(model: Any, instance: Instance) -> bool:
    """QUACKIE rule 1: the encoded (question, context) pair, special tokens included, exceeds ``max_length``."""
    return len(model.tokenizer(instance.question, instance.context)["input_ids"]) > model.max_length


def select_true_positives(model: Any, target: Target, instances: Sequence[Instance],
                          limit: int | None = None) -> tuple[list[Instance], dict[str, int]]:
    """The instances the model predicts as answerable (P > 0.5), in order, stopping at ``limit`` kept.

    Counts ``too_long``, ``not_predicted``, ``scanned`` and ``kept`` (only the scanned prefix is counted).
    """
    kept: list[Instance] = []
    counts = {"too_long": 0, "not_predicted": 0, "scanned": 0, "kept": 0}
    step = max(1, int(model.batch_size))
    for start in range(0, len(instances), step):
        if limit is not None and len(kept) >= limit:
            break
        chunk = []
        for inst in instances[start:start + step]:
            if too_long(model, inst):
                counts["too_long"] += 1
            else:
                chunk.append(inst)
        counts["scanned"] += len(instances[start:start + step])
        if chunk:
            p = answerable_probability(model, target, [i.question for i in chunk], [i.context for i in chunk])
            for inst, prob in zip(chunk, p, strict=True):
                if prob > 0.5:
                    kept.append(inst)
                else:
                    counts["not_predicted"] += 1
    if limit is not None and len(kept) > limit:
        kept = kept[:limit]
    counts["kept"] = len(kept)
    return kept, counts


def make_explainer(method: Method, seed: int) -> Any:
    """Instantiate a registered explainer; stochastic ones get ``seed`` unless the method sets one."""
    from interpeval import explain

    cls = explain.get(method.explainer)
    params = dict(method.params)
    if getattr(cls, "stochastic", False):
        params.setdefault("seed", seed)
    return cls(**params)


def sentence_scores(attribution: Any, instance: Instance, aggs: Sequence[str]) -> dict[str, list[float]]:
    """Context-token scores of one attribution aggregated to the instance's punkt sentences."""
    spans = list(instance.spans)
    return {agg: [float(v) for v in attribution.to_sentences(spans, agg, segment=1)] for agg in aggs}


def explain_instances(model: Any, target: Target, method: Method, instances: Sequence[Instance],
                      aggs: Sequence[str], seed: int = 0) -> list[dict[str, list[float]]]:
    """Per instance, ``{agg: sentence scores}`` (``{"random": permutation}`` for the Random baseline)."""
    if not method.explainer:
        return [{"random": random_sentence_scores(len(i.sentences), seed, i.id).tolist()} for i in instances]
    explainer = make_explainer(method, seed)
    attributions = explainer.explain(model, [i.question for i in instances], target,
                                     pairs=[i.context for i in instances])
    return [sentence_scores(a, inst, aggs) for a, inst in zip(attributions, instances, strict=True)]


def score_outputs(outputs: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, float]]]:
    """Per aggregation, the per-instance IoU / HPD / SNR of stored outputs (``{"scores": {agg: ...}, "gt"}``)."""
    from interpeval.metrics.localisation import quackie_scores

    per_agg: dict[str, list[dict[str, float]]] = {}
    for out in outputs:
        n = out["n_sentences"]
        gts = [np.eye(n, dtype=int)[j] for j in out["gt"]]
        for agg, scores in out["scores"].items():
            per_agg.setdefault(agg, []).append(quackie_scores(np.asarray(scores, dtype=float), gts, k=1))
    return per_agg


@dataclass
class QuackieResult:
    """Everything a report needs: leaderboard rows, selection counts and ground-truth checks."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    selection: list[dict[str, Any]] = field(default_factory=list)
    checks: list[dict[str, Any]] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    skipped_methods: list[str] = field(default_factory=list)


def leaderboard_label(method: Method, agg: str) -> str:
    return method.label if agg == "random" else f"{method.label}_{agg}"


def run_quackie(datasets: Sequence[str] = tuple(DATASETS),
                classifiers: Sequence[str | Classifier] = tuple(CLASSIFIERS),
                methods: Sequence[Method] = LEADERBOARD, aggs: Sequence[str] = AGGREGATIONS, *,
                limit: int | None = None, official: bool = False, data_dir: str | Path | None = None,
                store: Any = None, seed: int = 0, batch_size: int = 32, device: str = "auto",
                max_length: int | None = None, models: dict[str, str] | None = None, chunk: int = 4,
                check: bool = True,
                log: Callable[[str], None] = print) -> QuackieResult:
    """Run the benchmark and return its leaderboard rows (one per dataset × classifier × method × aggregation).

    ``classifiers`` are labels of :data:`CLASSIFIERS` or :class:`Classifier` objects (any model and target);
    ``models`` maps a classifier label to another model (zoo name or directory) than the shipped one;
    ``limit`` caps the true positives explained per dataset and classifier; ``max_length`` overrides the model's
    input limit (default: its tokenizer's, at most 512 as in the original); ``official`` uses the original
    ground-truth offset walk; ``store`` (a :class:`interpeval.store.Store`) receives one run per dataset ×
    classifier × method, resumed when the same command is run again.
    """
    from interpeval.metrics.localisation import aggregate_quackie
    from interpeval.models import load
    from interpeval.store import Store, fingerprint_files

    unknown = [c for c in classifiers if isinstance(c, str) and c not in CLASSIFIERS]
    if unknown:
        raise ValueError(f"unknown classifier {unknown[0]!r}; use {', '.join(CLASSIFIERS)}")
    clfs = [CLASSIFIERS[c] if isinstance(c, str) else c for c in classifiers]
    bad_aggs = [a for a in aggs if a not in ("sum", "max", "mean")]
    if bad_aggs or not aggs:
        raise ValueError(f"aggs must be a non-empty subset of sum, max, mean; got {list(aggs)}")
    store = store if store is not None else Store()
    result = QuackieResult(config={"datasets": list(datasets), "classifiers": [c.label for c in clfs],
                                   "methods": [m.config() for m in methods], "aggs": list(aggs), "limit": limit,
                                   "official": official, "seed": seed})
    paths = {name: dataset_path(name, data_dir) for name in datasets}
    questions = {name: load_squad(path) for name, path in paths.items()}
    for clf in clfs:
        clf_label = clf.label
        model_name = (models or {}).get(clf_label, clf.model)
        model = load(model_name, kind=clf.kind, device=device, batch_size=batch_size, max_length=max_length)
        model.check_target(clf.target)
        trained_on = training_articles(model_name)
        for ds in datasets:
            instances, skipped = build_instances(questions[ds], official, exclude_articles=trained_on)
            kept, counts = select_true_positives(model, clf.target, instances, limit)
            selection = {"dataset": ds, "classifier": clf_label, "model": model_name, "questions": len(questions[ds]),
                         **skipped, **counts}
            result.selection.append(selection)
            log(f"[{ds} / {clf_label}] {len(questions[ds])} questions, {skipped['unanswerable']} unanswerable, "
                f"{skipped['trained_on']} from training articles, {counts['too_long']} too long, "
                f"{counts['not_predicted']} not predicted answerable (of {counts['scanned']} scanned) → "
                f"{len(kept)} explained")
            base = {"dataset": ds, "classifier": clf_label, "target": [clf.target.name, clf.target.index],
                    "official": official, "limit": limit, "seed": seed, "max_length": model.max_length}
            pair = _Pair(store, model, model_name, clf, base, fingerprint_files(paths[ds]), kept)
            if check and kept:
                result.checks.append({"dataset": ds, "classifier": clf_label, "model": model_name,
                                      **summarize_check(pair.check())})
            for method in methods:
                if not pair.supports(method):
                    result.skipped_methods.append(f"{method.label} on {clf_label} ({model.kind} unsupported)")
                    continue
                per_agg = pair.explain(method, aggs, seed, chunk, selection)
                for agg in per_agg or (["random"] if not method.explainer else aggs):
                    summary = aggregate_quackie(per_agg[agg]) if per_agg else _EMPTY
                    result.rows.append(_row(ds, clf_label, leaderboard_label(method, agg), summary, model_name))
                log(f"[{ds} / {clf_label}] {method.label}: " + ", ".join(
                    f"{agg} IoU {100 * aggregate_quackie(v)['mean_iou']:.1f}" for agg, v in per_agg.items()))
    return result


#: the summary of a method that had nothing to explain: the row exists, with NaN and n = 0
_EMPTY = {"mean_iou": math.nan, "mean_hpd": math.nan, "mean_snr": math.nan, "n": 0, "fails": 0, "no_snr": 0}


@dataclass
class _Pair:
    """One dataset × classifier: its kept instances, and one store run per method (plus the GT check)."""

    store: Any
    model: Any
    model_name: str
    clf: Classifier
    base: dict[str, Any]
    fingerprint: str
    kept: list[Instance]

    def supports(self, method: Method) -> bool:
        if not method.explainer:
            return True
        from interpeval import explain

        kinds = getattr(explain.get(method.explainer), "kinds", None)
        return not kinds or self.model.kind in kinds

    def check(self) -> list[dict[str, float]]:
        run = self.store.run("quackie-gt-check", self.base, self.model_name, self.fingerprint)
        rows = _stored(run, self.kept, self._check_part, len(self.kept))
        run.finish()
        return [r["check"] for r in rows]

    def _check_part(self, part: Sequence[Instance]) -> list[dict[str, Any]]:
        return [{"check": r} for r in ground_truth_check(self.model, self.clf.target, part)]

    def explain(self, method: Method, aggs: Sequence[str], seed: int, chunk: int,
                selection: dict[str, Any]) -> dict[str, list[dict[str, float]]]:
        """Explain the kept instances not yet in the store; per aggregation, the per-sample metrics of all."""
        from interpeval.metrics.localisation import aggregate_quackie

        run = self.store.run("quackie", {**self.base, "method": method.config(), "aggs": list(aggs)},
                             self.model_name, self.fingerprint)

        def work(part: Sequence[Instance]) -> list[dict[str, Any]]:
            return [{"scores": s} for s in explain_instances(self.model, self.clf.target, method, part, aggs, seed)]

        per_agg = score_outputs(_stored(run, self.kept, work, chunk))
        for agg, per_sample in per_agg.items():
            run.add_metrics(aggregate_quackie(per_sample), group=agg)
        run.add_metrics({k: float(v) for k, v in selection.items() if isinstance(v, int)}, group="selection")
        run.finish()
        return per_agg


def _stored(run: Any, instances: Sequence[Instance], work: Callable[[Sequence[Instance]], list[dict[str, Any]]],
            chunk: int) -> list[dict[str, Any]]:
    """Compute ``work`` for the instances the run has not recorded yet (in chunks) and return all outputs."""
    done = run.done_ids()
    todo = [i for i in instances if i.id not in done]
    for start in range(0, len(todo), max(1, chunk)):
        part = todo[start:start + chunk]
        for inst, out in zip(part, work(part), strict=True):
            run.record(inst.id, {"index": inst.index, "n_sentences": len(inst.sentences), "gt": list(inst.gt), **out})
    wanted = {i.id for i in instances}
    return [o for o in run.store.instances(run.id) if o["instance_id"] in wanted]


def _row(dataset: str, classifier: str, method: str, summary: dict[str, float], model: str) -> dict[str, Any]:
    """A row in the official ``results.json`` schema (×100, k=1), plus the counts the original also printed."""
    return {"dataset": dataset, "classifier": classifier, "method": method,
            "IoU": 100 * summary["mean_iou"], "HPD": 100 * summary["mean_hpd"], "SNR": 100 * summary["mean_snr"],
            "info": f"interpeval; model {model}; n={summary['n']}, fails={summary['fails']}, "
                    f"no_snr={summary['no_snr']}",
            "n": summary["n"], "fails": summary["fails"], "no_snr": summary["no_snr"]}
