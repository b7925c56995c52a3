"""Run QUACKIE: datasets × classifiers × explainers → sentence scores → IoU / HPD / SNR, stored and resumable.

Selection follows the original (REFERENCE §1.1): questions in file order; unanswerable ones, inputs longer than the
explained model's ``max_length`` (counted with its own tokenizer, special tokens included) and questions the model
does not predict as answerable are skipped and counted, so only true positives are explained. Every explainer
returns token scores for the (question, context) pair; the context part is aggregated to sentences with ``sum`` and
``max``, and each instance is recorded in the store as soon as it is done, so a killed run resumes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpeval.benchmarks.base import Benchmark, Record, RunKey, resume
from interpeval.benchmarks.quackie.baseline import random_sentence_scores
from interpeval.benchmarks.quackie.build import Instance, build_instances
from interpeval.benchmarks.quackie.data import DATASETS, dataset_path, load_squad
from interpeval.benchmarks.quackie.score import leaderboard_name, score_run
from interpeval.benchmarks.quackie.verify import answerable_probability, ground_truth_check, summarize_check
from interpeval.models import lineage
from interpeval.models.base import Target

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

    def key_config(self) -> dict[str, Any]:
        """:meth:`config` as a run key stores it: a method that draws per input adds its draw rule to its params."""
        if not self.explainer:
            return self.config()
        from interpeval.explain import key_params

        return {**self.config(), "params": key_params(self.explainer, self.params)}


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
    """An explainer spec ``[LABEL=]NAME[:key=value,...]`` (:mod:`interpeval.explain.spec`); ``Random`` is the
    sentence-level baseline. Without a label a method is named ``NAME_value_value...`` (``lime_10``)."""
    from interpeval.explain.spec import parse

    parsed = parse(spec, known=False)
    if parsed.name == "Random":
        return Method(parsed.label or "Random", "")
    parse(parsed.body)  # an unknown name fails here, with the list of known ones
    default = "_".join([parsed.name, *(str(v) for v in parsed.params.values())])
    return Method(parsed.label or default, parsed.name, dict(parsed.params))


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
    "QA": Classifier("QA", "minilm-squad", Target("p_answer")),
    "Classification": Classifier("Classification", "minilm-quackie-cls", Target("class_prob", index=1)),
}


def too_long(model: Any, instance: Instance) -> bool:
    """QUACKIE rule 1: the encoded (question, context) pair, special tokens included, exceeds ``max_length``."""
    return len(model.tokenizer(instance.question, instance.context)["input_ids"]) > model.max_length


class Selection(Benchmark):
    """QUACKIE's sample selection as a stored run: per instance, ``too_long`` or the answerable probability.

    Scanning stops once ``limit`` instances are kept; a rerun (or a larger ``limit``) reuses every stored verdict.
    """

    def __init__(self, model: Any, model_name: str, target: Target, instances: Sequence[Instance],
                 base: dict[str, Any], fingerprint: str, limit: int | None = None) -> None:
        self.model = model
        self.model_name = model_name
        self.target = target
        self.items = list(instances)
        self.base = base
        self.fingerprint = fingerprint
        self.limit = limit
        self.chunk = max(1, int(model.batch_size))

    def key(self) -> RunKey:
        config = {k: v for k, v in self.base.items() if k not in ("limit", "seed")}
        return RunKey("quackie-selection", config, self.model_name, self.fingerprint)

    def instances(self) -> list[Instance]:
        return self.items

    def compute(self, items: Sequence[Instance]) -> list[Record]:
        short = [i for i in items if not too_long(self.model, i)]
        p = answerable_probability(self.model, self.target, [i.question for i in short],
                                   [i.context for i in short]) if short else []
        probability = {i.id: float(v) for i, v in zip(short, p, strict=True)}
        return [Record({"too_long": i.id not in probability, "p_answerable": probability.get(i.id)}) for i in items]

    def enough(self, outputs: list[dict[str, Any]]) -> bool:
        return self.limit is not None and sum(is_kept(o) for o in outputs) >= self.limit


def is_kept(output: dict[str, Any]) -> bool:
    """Whether a question's selection verdict makes it a true positive: not truncated, and answerable (p > 0.5)."""
    return not output["too_long"] and output["p_answerable"] > 0.5


def select_true_positives(model: Any, target: Target, instances: Sequence[Instance], limit: int | None = None, *,
                          store: Any = None, model_name: str = "", base: dict[str, Any] | None = None,
                          fingerprint: str = "") -> tuple[list[Instance], dict[str, int]]:
    """The instances the model predicts as answerable (P > 0.5), in order, stopping at ``limit`` kept.

    Counts ``too_long``, ``not_predicted``, ``scanned`` and ``kept`` over the scanned prefix (up to the instance
    that reached ``limit``). The verdicts are stored in ``store`` (run ``quackie-selection``; without one, an
    in-memory store) and reused.
    """
    from interpeval.store import Store

    bench = Selection(model, model_name or model.name, target, instances, base or {"max_length": model.max_length},
                      fingerprint, limit)
    outputs = resume(bench, store if store is not None else Store(":memory:")).outputs
    by_id = {i.id: i for i in instances}
    kept: list[Instance] = []
    counts = {"too_long": 0, "not_predicted": 0, "scanned": 0, "kept": 0}
    for out in outputs:
        if limit is not None and len(kept) >= limit:
            break
        counts["scanned"] += 1
        if out["too_long"]:
            counts["too_long"] += 1
        elif is_kept(out):
            kept.append(by_id[out["instance_id"]])
        else:
            counts["not_predicted"] += 1
    counts["kept"] = len(kept)
    return kept, counts


#: what ``official`` adds to a method's parameters where the explainer takes them (REFERENCE §1.6): the question is
#: held fixed and only the context attributed, and LIME keeps its library default of 10 features
OFFICIAL_PARAMS = {"segment": 1, "num_features": 10}


def make_explainer(method: Method, seed: int, official: bool = False) -> Any:
    """Instantiate a registered explainer; stochastic ones get ``seed`` unless the method sets one.

    With ``official`` the explainers that accept them get :data:`OFFICIAL_PARAMS` (unless the method sets them).
    """
    import inspect

    from interpeval import explain

    params = dict(method.params)
    if official:
        accepted = inspect.signature(explain.get(method.explainer).__init__).parameters
        params.update({k: v for k, v in OFFICIAL_PARAMS.items() if k in accepted and k not in params})
    return explain.build(method.explainer, params, seed)


def sentence_scores(attribution: Any, instance: Instance, aggs: Sequence[str]) -> dict[str, list[float]]:
    """Context-token scores of one attribution aggregated to the instance's punkt sentences."""
    spans = list(instance.spans)
    return {agg: [float(v) for v in attribution.to_sentences(spans, agg, segment=1)] for agg in aggs}


def explain_instances(model: Any, target: Target, method: Method, instances: Sequence[Instance],
                      aggs: Sequence[str], seed: int = 0, official: bool = False) -> list[dict[str, list[float]]]:
    """Per instance, ``{agg: sentence scores}`` (``{"random": permutation}`` for the Random baseline)."""
    if not method.explainer:
        return [{"random": random_sentence_scores(len(i.sentences), seed, i.id).tolist()} for i in instances]
    explainer = make_explainer(method, seed, official)
    attributions = explainer.explain(model, [i.question for i in instances], target,
                                     pairs=[i.context for i in instances])
    return [sentence_scores(a, inst, aggs) for a, inst in zip(attributions, instances, strict=True)]


@dataclass
class QuackieResult:
    """Everything a report needs: leaderboard rows, selection counts and ground-truth checks."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    selection: list[dict[str, Any]] = field(default_factory=list)
    checks: list[dict[str, Any]] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    skipped_methods: list[str] = field(default_factory=list)


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
    ground-truth offset walk and the originals' explainer setup (:data:`OFFICIAL_PARAMS`: question fixed, context
    attributed; LIME with 10 features); ``chunk`` questions go to one explainer call; ``store`` (a :class:`interpeval.store.Store`) receives one run per dataset ×
    classifier × method, resumed when the same command is run again.
    """
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
        trained = lineage.read(model_name)
        for ds in datasets:
            instances, skipped = build_instances(questions[ds], official, trained)
            fingerprint = fingerprint_files(paths[ds])
            base = {"dataset": ds, "classifier": clf_label, "target": [clf.target.name, clf.target.index],
                    "official": official, "limit": limit, "seed": seed, "max_length": model.max_length}
            kept, counts = select_true_positives(model, clf.target, instances, limit, store=store,
                                                 model_name=model_name, base=base, fingerprint=fingerprint)
            selection = {"dataset": ds, "classifier": clf_label, "model": model_name, "questions": len(questions[ds]),
                         **skipped, **counts}
            result.selection.append(selection)
            log(f"[{ds} / {clf_label}] {len(questions[ds])} questions, {skipped['unanswerable']} unanswerable, "
                f"{skipped['trained_on']} the model trained on, {counts['too_long']} too long, "
                f"{counts['not_predicted']} not predicted answerable (of {counts['scanned']} scanned) → "
                f"{len(kept)} explained")
            if check and kept:
                rows = resume(GroundTruthCheck(model, model_name, clf.target, kept, base, fingerprint), store).outputs
                result.checks.append({"dataset": ds, "classifier": clf_label, "model": model_name,
                                      **summarize_check([r["check"] for r in rows])})
            for method in methods:
                if not supports(model, method):
                    result.skipped_methods.append(f"{method.label} on {clf_label} ({model.kind} unsupported)")
                    continue
                bench = Explanations(model, model_name, clf.target, kept, base, fingerprint, method, aggs, chunk,
                                     selection)
                scored = score_run(resume(bench, store).outputs, method.label)
                for s in scored:
                    result.rows.append(_row(ds, clf_label, s.method, s.summary, model_name))
                for agg in [] if scored else ["random"] if not method.explainer else aggs:  # nothing explained
                    result.rows.append(_row(ds, clf_label, leaderboard_name(method.label, agg), _EMPTY, model_name))
                log(f"[{ds} / {clf_label}] {method.label}: " + ", ".join(
                    f"{s.agg} IoU {100 * s.summary['mean_iou']:.1f}" for s in scored))
    return result


#: the summary of a method that had nothing to explain: the row exists, with NaN and n = 0
_EMPTY = {"mean_iou": math.nan, "mean_hpd": math.nan, "mean_snr": math.nan, "n": 0, "fails": 0, "no_snr": 0}


def supports(model: Any, method: Method) -> bool:
    """Whether the method's explainer handles this model's kind (the Random baseline handles every kind)."""
    if not method.explainer:
        return True
    from interpeval import explain

    kinds = getattr(explain.get(method.explainer), "kinds", None)
    return not kinds or model.kind in kinds


def _instance_output(inst: Instance, out: dict[str, Any]) -> dict[str, Any]:
    return {"index": inst.index, "n_sentences": len(inst.sentences), "gt": list(inst.gt), **out}


class GroundTruthCheck(Benchmark):
    """Run ``quackie-gt-check``: does removing the GT sentence lower P(answerable) more than another sentence?"""

    def __init__(self, model: Any, model_name: str, target: Target, kept: Sequence[Instance], base: dict[str, Any],
                 fingerprint: str) -> None:
        self.model, self.model_name, self.target = model, model_name, target
        self.kept, self.base, self.fingerprint = list(kept), base, fingerprint
        self.chunk = min(len(self.kept), 64) or 1  # batch-invariant; stored every 64 so a kill loses little

    def key(self) -> RunKey:
        return RunKey("quackie-gt-check", self.base, self.model_name, self.fingerprint)

    def instances(self) -> list[Instance]:
        return self.kept

    def compute(self, items: Sequence[Instance]) -> list[Record]:
        return [Record(_instance_output(inst, {"check": r}))
                for inst, r in zip(items, ground_truth_check(self.model, self.target, items), strict=True)]


class Explanations(Benchmark):
    """Run ``quackie``: one method's sentence scores for the kept instances; IoU / HPD / SNR as run metrics.

    ``chunk`` (questions per explainer call) and the model's ``batch_size`` are part of the key: batching changes
    padding and so the last bits of the gradient sums (chunk 1 vs 8 differ by ~1e-9).
    """

    def __init__(self, model: Any, model_name: str, target: Target, kept: Sequence[Instance], base: dict[str, Any],
                 fingerprint: str, method: Method, aggs: Sequence[str], chunk: int,
                 selection: dict[str, Any]) -> None:
        self.model, self.model_name, self.target = model, model_name, target
        self.kept, self.base, self.fingerprint = list(kept), base, fingerprint
        self.method, self.aggs, self.chunk, self.selection = method, list(aggs), max(1, int(chunk)), selection

    def key(self) -> RunKey:
        config = {**self.base, "method": self.method.key_config(), "aggs": self.aggs, "chunk": self.chunk,
                  "batch_size": self.model.batch_size}
        return RunKey("quackie", config, self.model_name, self.fingerprint)

    def instances(self) -> list[Instance]:
        return self.kept

    def compute(self, items: Sequence[Instance]) -> list[Record]:
        scores = explain_instances(self.model, self.target, self.method, items, self.aggs, self.base["seed"],
                                   official=self.base["official"])
        return [Record(_instance_output(inst, {"scores": s})) for inst, s in zip(items, scores, strict=True)]

    def summarize(self, outputs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
        out: dict[str, dict[str, float]] = {s.agg: s.summary for s in score_run(outputs)}
        out["selection"] = {k: float(v) for k, v in self.selection.items() if isinstance(v, int)}
        return out


def _row(dataset: str, classifier: str, method: str, summary: dict[str, float], model: str) -> dict[str, Any]:
    """A row in the official ``results.json`` schema (×100, k=1), plus the counts the original also printed."""
    return {"dataset": dataset, "classifier": classifier, "method": method,
            "IoU": 100 * summary["mean_iou"], "HPD": 100 * summary["mean_hpd"], "SNR": 100 * summary["mean_snr"],
            "info": f"interpeval; model {model}; n={summary['n']}, fails={summary['fails']}, "
                    f"no_snr={summary['no_snr']}",
            "n": summary["n"], "fails": summary["fails"], "no_snr": summary["no_snr"]}
