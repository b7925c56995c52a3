"""``evaluate``: one masked LM × one explainer over a golden file, one store record per instance; resumable.

Per record: the model's top-3 fillings of the masked segment (:meth:`MaskedLMModel.fill_mask`), the explainer's
token scores on the ``sent_token`` words (subword scores shared equally among the words they overlap, REFERENCE
§4.1; the [MASK] token is never part of a rationale), and the top-K rationale with K = ceil(RRL × length): RRL is
the dimension's mean gold rationale length ratio (rationale tokens / tokens other than [MASK]) in the golden file,
length the record's number of tokens other than [MASK]. The rationale is kept in importance order (PaddleNLP).

The run is keyed by (model, explainer and parameters, target, chunk, golden file contents) and driven by
:func:`~interpeval.benchmarks.base.resume`: re-running the same command
after a kill skips the records already stored.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from interpeval import metrics
from interpeval.benchmarks.base import Benchmark, Record, RunKey, resume
from interpeval.benchmarks.plm.inputs import decode, model_input
from interpeval.benchmarks.plm.records import MASK, GoldenRecord, Prediction, read_golden
from interpeval.metrics.prediction import normalise_word
from interpeval.metrics.rationale import rationale_size, select_rationale
from interpeval.store import Store, fingerprint_files

BENCHMARK = "plm_rationale"
TARGETS = ("gold", "predicted")
#: the paper's two explainers: ATT as TrustAI implements it ([MASK] rows as queries, pre-softmax scores summed
#: over heads, last layer) and IG with the [CLS] [PAD] … [SEP] baseline and 100 steps
DEFAULT_EXPLAINERS: dict[str, tuple[str, dict[str, Any]]] = {
    "ATT": ("attention", {"query": "mask", "official": True}),
    "IG": ("integrated_gradients", {"n_steps": 100, "baseline": "pad"}),
}


def rationale_ratios(records: Sequence[GoldenRecord]) -> dict[str, float]:
    """RRL per dimension: the mean of |gold rationale| / (tokens other than [MASK]) over its records."""
    sums: dict[str, list[float]] = defaultdict(list)
    for r in records:
        sums[r.dimension].append(len(r.rationale) / max(len(r.sent_token) - 1, 1))
    return {dim: float(np.mean(v)) for dim, v in sorted(sums.items())}


def limit_records(records: Sequence[GoldenRecord], per_dimension: int | None,
                  unique_only: bool = False, unambiguous_only: bool = False) -> list[GoldenRecord]:
    """The first ``per_dimension`` originals of each dimension with all their partners (pairs stay whole); with
    ``unique_only`` only originals the builder flagged ``unique``, with ``unambiguous_only`` only originals
    without its ``ambiguous_flag`` (see :mod:`~interpeval.benchmarks.plm.unique`)."""
    if per_dimension is None and not unique_only and not unambiguous_only:
        return list(records)
    by_id = {r.sent_id: r for r in records}
    taken: dict[str, int] = defaultdict(int)
    keep: set[int] = set()
    for r in records:
        if unique_only and not (r.meta.get("unique") or {}).get("unique"):
            continue
        if unambiguous_only and r.meta.get("ambiguous_flag"):
            continue
        if r.sample_type == "ori" and (per_dimension is None or taken[r.dimension] < per_dimension):
            taken[r.dimension] += 1
            keep.add(r.sent_id)
            keep.update(rel for rel in r.rel_ids if rel in by_id)
    return [r for r in records if r.sent_id in keep]


def score_record(record: GoldenRecord, scores: np.ndarray, ratio: float,
                 fillings: list[tuple[tuple[int, ...], float]], model: Any) -> dict[str, Any]:
    """The stored output of one record: top-k words, hits, word scores, rationale and its token-F1."""
    lang = record.lang
    words = [decode(model, ids, lang) for ids, _ in fillings]
    gold = normalise_word(record.answers.replace(" ", "") if lang == "zh" else record.answers, lang == "en")
    ranked = [normalise_word(w, lang == "en") for w in words]
    others = [i for i, t in enumerate(record.sent_token) if t != MASK]
    chosen = select_rationale(scores[others], ratio=ratio) if others else np.array([], dtype=int)
    rationale = [others[i] for i in chosen.tolist()]
    return {
        "top_k": words, "log_probs": [round(s, 6) for _, s in fillings], "hit1": float(ranked[:1] == [gold]),
        "hit3": float(gold in ranked[:3]), "word_scores": [float(s) for s in scores], "rationale": rationale,
        "f1": metrics.get("rationale_token_f1_multi")(rationale, record.rationale_ids) if rationale else 0.0,
        "k": len(rationale), "dimension": record.dimension, "lang": lang, "sample_type": record.sample_type,
        "perturbation": record.perturbation, "label": record.label, "ori_id": record.meta.get("ori_id"),
        "unique": (record.meta.get("unique") or {}).get("unique"),
    }


class PLMRationaleRun(Benchmark):
    """One masked LM × one explainer over the records of a golden file (a :class:`Benchmark` for ``resume``)."""

    name = BENCHMARK

    def __init__(self, golden: str | Path, model: Any, explainer: Any, label: str, target: str = "gold",
                 per_dimension: int | None = None, chunk: int = 16, unique_only: bool = False,
                 unambiguous_only: bool = False) -> None:
        if target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS}, got {target!r}")
        if chunk < 1:
            raise ValueError(f"chunk must be >= 1, got {chunk}")
        self.golden, self.model, self.explainer, self.label = Path(golden), model, explainer, label
        self.target, self.per_dimension, self.chunk, self.unique_only = target, per_dimension, chunk, unique_only
        self.unambiguous_only = unambiguous_only
        self.records = limit_records(read_golden(golden), per_dimension, unique_only, unambiguous_only)
        if not self.records:
            raise ValueError(f"{golden}: no records to evaluate (unique_only={unique_only})")
        self.ratios = rationale_ratios(self.records)

    def key(self) -> RunKey:
        config = {"explainer": self.explainer.name, "label": self.label, "params": self.explainer.get_params(),
                  "target": self.target, "rrl": self.ratios, "per_dimension": self.per_dimension,
                  "golden": self.golden.name, "chunk": self.chunk, "unique_only": self.unique_only}
        if self.unambiguous_only:  # only when set, so earlier runs keep their keys
            config["unambiguous_only"] = True
        return RunKey(BENCHMARK, config, self.model.name, fingerprint_files(self.golden))

    def instances(self) -> list[GoldenRecord]:
        return self.records

    def instance_id(self, item: GoldenRecord) -> str:
        return str(item.sent_id)

    def compute(self, items: Sequence[GoldenRecord]) -> list[Record]:
        from interpeval.models.base import Target

        inputs = [model_input(r.sent_token, r.lang, r.answers, self.model) for r in items]
        texts = [text for text, _, _ in inputs]
        fillings = self.model.fill_mask(texts, k=3)
        if self.target == "gold":  # one explainer call per gold segment (the target's token ids)
            groups: dict[tuple[int, ...], list[int]] = defaultdict(list)
            for i, (_, _, gold) in enumerate(inputs):
                groups[gold].append(i)
            attributions: list[Any] = [None] * len(items)
            for gold, rows in groups.items():
                found = self.explainer.explain(self.model, [texts[i] for i in rows],
                                               Target("masked_token_prob", token_ids=gold))
                for i, att in zip(rows, found, strict=True):
                    attributions[i] = att
        else:
            attributions = self.explainer.explain(self.model, texts, Target("masked_token_prob"))
        out = []
        for record, (_, spans, _), att, fill in zip(items, inputs, attributions, fillings, strict=True):
            output = score_record(record, att.to_words(spans), self.ratios[record.dimension], fill, self.model)
            out.append(Record(output, {"top1": output["hit1"], "top3": output["hit3"], "token_f1": output["f1"]}))
        return out

    def summarize(self, outputs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
        """Mean Top-1, Top-3 and token-F1 per dimension and over all records (group ``all``)."""
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in outputs:
            groups[row["dimension"]].append(row)
            groups["all"].append(row)
        return {g: {"top1": float(np.mean([r["hit1"] for r in rows])), "top3": float(np.mean([r["hit3"] for r in rows])),
                    "token_f1": float(np.mean([r["f1"] for r in rows])), "n": float(len(rows))}
                for g, rows in groups.items()}


def evaluate(golden: str | Path, model: Any, explainer: Any, label: str, store: Store, target: str = "gold",
             per_dimension: int | None = None, chunk: int = 16,
             progress: Callable[[int, int], None] | None = None, unique_only: bool = False,
             unambiguous_only: bool = False) -> int:
    """Evaluate ``model`` with ``explainer`` (shown as ``label``) on a golden file; returns the run id."""
    if model.kind != "masked-lm":
        raise ValueError(f"{model.name} is a {model.kind} model; the PLM benchmark needs a masked-lm")
    run = PLMRationaleRun(golden, model, explainer, label, target, per_dimension, chunk, unique_only,
                          unambiguous_only)
    outcome = resume(run, store, progress)
    return int(outcome.run.id)


def predictions(store: Store, run_id: int) -> list[Prediction]:
    """A run's records as TrustAI predict records (for :func:`~interpeval.benchmarks.plm.records.write_predictions`)."""
    out = []
    for row in store.instances(run_id):
        top = row["top_k"]
        out.append(Prediction(int(row["instance_id"]), top[0] if top else "", top, row["rationale"],
                              row["word_scores"]))
    return out


def nearest_rationale(record: GoldenRecord, ratio: float) -> list[int]:
    """A trivial baseline rationale: the K tokens closest to [MASK] (ties: the left one first)."""
    m = record.mask_index
    others = sorted((i for i in range(len(record.sent_token)) if i != m), key=lambda i: (abs(i - m), i))
    return others[:rationale_size(len(others), ratio)]
