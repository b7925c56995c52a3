"""The evaluation engine: model × inputs × explainers × metrics → a per-input table and an aggregate, stored as a run.

Per chunk of inputs: the target of each input is fixed once on the unperturbed input (one batched pass, whose
probabilities are kept), every explainer explains the chunk, then every applicable metric scores every explanation
through :class:`~interpeval.metrics.base.Evidence`. Perturbation metrics re-query the model through
:class:`~interpeval.evaluate.passes.SharedPasses`, so a text several metrics or explainers need is scored once.
Erasure metrics remove the model's subword tokens (special tokens excluded) and decode the rest, as ferret does.
A human rationale is given per whitespace word (0/1) and mapped to the words' tokens.

Each input is one record of the run ``evaluate`` (keyed by explainers with their parameters, metrics, options,
target, chunk, the model's batch size, the model and the inputs' content), so a rerun resumes and recomputes nothing
it stored.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from interpeval.benchmarks.base import Benchmark, Record, RunKey, resume
from interpeval.evaluate.passes import SharedPasses, id_decoder, token_ids
from interpeval.stats import bootstrap_ci

#: metric sets by name; ``ferret`` is ferret's default evaluators (plausibility ones only where a rationale exists)
PRESETS: dict[str, tuple[str, ...]] = {
    "ferret": ("ferret_aopc_compr", "ferret_aopc_suff", "ferret_taucorr_loo", "ferret_auprc", "ferret_token_f1",
               "ferret_token_iou"),
    "faithfulness": ("ferret_aopc_compr", "ferret_aopc_suff", "ferret_taucorr_loo"),
    "plausibility": ("ferret_auprc", "ferret_token_f1", "ferret_token_iou"),
}
BENCHMARK = "evaluate"
#: the row of the metrics that score the input's human rationale itself (ERASER comprehensiveness / sufficiency)
HUMAN = "human rationale"
#: model kinds whose inputs are single texts with one scalar target, which erasure metrics can re-query
KINDS = ("sequence-classification", "regression")


@dataclass(frozen=True)
class Input:
    """One input to explain: an id, the text and, optionally, a human rationale (0/1 per whitespace word) and a
    perturbed ``partner`` text (explained for the same target; consistency metrics compare the two)."""

    id: str
    text: str
    rationale: tuple[int, ...] | None = None
    partner: str | None = None


@dataclass(frozen=True)
class Method:
    """An explainer to evaluate: a label for the tables, its registered name and its parameters."""

    label: str
    explainer: str
    params: dict[str, Any] = field(default_factory=dict, hash=False)


def parse_method(spec: str) -> Method:
    """An explainer spec ``[LABEL=]NAME[:key=value,...]`` (:mod:`interpeval.explain.spec`); without a label the
    tables name it by the spec itself."""
    from interpeval.explain.spec import parse

    parsed = parse(spec)
    return Method(parsed.label or spec.strip(), parsed.name, dict(parsed.params))


def resolve_metrics(specs: Sequence[str]) -> list[str]:
    """Metric names from names and presets (:data:`PRESETS`, or ``all``: every registered metric that scores single
    explanations), deduplicated. A metric that scores a given rationale (it needs the tokens, a rationale and the
    model, but no attribution) is accepted by name: it scores each input's human rationale, row :data:`HUMAN`."""
    from interpeval import metrics

    out: list[str] = []
    for spec in specs:
        names = ([n for n in metrics.names() if metrics.get(n).per_explanation] if spec == "all"
                 else PRESETS.get(spec, (spec,)))
        for name in names:
            metric = metrics.get(name)
            if not metric.uses_evidence:
                raise ValueError(f"metric {name!r} does not score single explanations (needs "
                                 f"{', '.join(metric.info.needs)}; score it with interpeval metrics score); "
                                 "per-explanation metrics: "
                                 + ", ".join(n for n in metrics.names() if metrics.get(n).per_explanation))
            if name not in out:
                out.append(name)
    return out


def word_rationale_to_tokens(text: str, offsets: Sequence[tuple[int, int]], segments: Sequence[int],
                             rationale: Sequence[int]) -> np.ndarray:
    """0/1 per text token: 1 when the whitespace word its first character falls in is marked."""
    words = [m.span() for m in re.finditer(r"\S+", text)]
    if len(rationale) != len(words):
        raise ValueError(f"rationale has {len(rationale)} values but the text has {len(words)} words: {text[:60]!r}")
    out = []
    for (start, _end), seg in zip(offsets, segments, strict=True):
        if seg != 0:
            continue
        word = next((i for i, (s, e) in enumerate(words) if s <= start < e), None)
        out.append(int(word is not None and rationale[word] == 1))
    return np.array(out, dtype=int)


class Evaluation(Benchmark):
    """The ``evaluate`` benchmark: one record per input with every method's scores and metric values."""

    name = BENCHMARK

    def __init__(self, model: Any, inputs: Sequence[Input], methods: Sequence[Method], metrics: Sequence[str],
                 target: Any = None, options: dict[str, dict[str, Any]] | None = None, chunk: int = 8,
                 seed: int = 0) -> None:
        self.model = model
        self.inputs = list(inputs)
        self.methods = list(methods)
        self.metrics = list(metrics)
        self.target = target
        self.options = options or {}
        self.chunk = chunk
        self.seed = seed
        self.passes: SharedPasses | None = None
        #: seconds spent per explainer (``explain/<label>``) and in the metrics (``evaluate``): wall-clock, and the
        #: process's CPU time under ``cpu:`` (fairer on a shared machine)
        self.timings: dict[str, float] = {}

    # ---------------------------------------------------------------------------------------- Benchmark protocol
    def key(self) -> RunKey:
        from interpeval.explain import key_params

        digest = hashlib.sha256(json.dumps([[i.id, i.text, i.rationale, i.partner] for i in self.inputs]).encode())
        target = None if self.target is None else [self.target.name, self.target.index]
        config = {"methods": [[m.label, m.explainer, key_params(m.explainer, m.params)] for m in self.methods],
                  "metrics": self.metrics,
                  "options": self.options, "target": target, "chunk": self.chunk, "seed": self.seed,
                  "batch_size": self.model.batch_size}
        return RunKey(BENCHMARK, config, self.model.name, digest.hexdigest()[:16])

    def instances(self) -> list[Input]:
        return self.inputs

    def compute(self, items: Sequence[Input]) -> list[Record]:
        from interpeval import metrics as registry
        from interpeval.explain import build
        from interpeval.explain.base import resolve_targets
        from interpeval.models.base import Target

        model = self.model
        passes = self.passes = self.passes or SharedPasses(model)
        passes.values.clear()  # texts are shared within an input, not across chunks: keep the cache small
        started = _clock()
        texts = [i.text for i in items]
        target = self.target or model.default_target()
        if model.kind == "sequence-classification" and target.name == "class_prob":
            probs = model.predict_proba(texts)
            targets = [Target("class_prob", int(np.argmax(p)) if target.index is None else target.index)
                       for p in probs]
            for text, t, p in zip(texts, targets, probs, strict=True):
                passes.seed(t, text, p[t.index])
        else:
            targets = resolve_targets(model, texts, None, target, model.batch_size)
        started = self._add("evaluate", started)  # the unperturbed pass: p0 of every metric
        explanations: dict[str, list[Any]] = {m.label: [None] * (len(items) + sum(i.partner is not None
                                                                                  for i in items))
                                              for m in self.methods}
        # partners are explained with their originals, for the original's target
        partners = [i for i, item in enumerate(items) if item.partner is not None]
        all_texts = texts + [items[i].partner for i in partners]
        all_targets = targets + [targets[i] for i in partners]
        for method in self.methods:
            explainer = build(method.explainer, method.params, self.seed)
            groups: dict[Any, list[int]] = {}
            for i, t in enumerate(all_targets):
                groups.setdefault(t, []).append(i)
            for t, idx in groups.items():
                for i, attribution in zip(idx, explainer.explain(model, [all_texts[i] for i in idx], t), strict=True):
                    explanations[method.label][i] = attribution
            started = self._add(f"explain/{method.label}", started)
        partner_of = {i: len(items) + n for n, i in enumerate(partners)}
        evidences: list[dict[str, Any]] = []
        for row, item in enumerate(items):
            per_method = {}
            for method in self.methods:
                a = explanations[method.label][row]
                rationale = None if item.rationale is None else word_rationale_to_tokens(
                    item.text, a.offsets, a.segments, item.rationale)
                partner = None
                if row in partner_of:
                    p = explanations[method.label][partner_of[row]]
                    partner = registry.Evidence(tokens=token_ids(model, _text_part(p.tokens, p.segments)),
                                                scores=np.array(_text_part(p.scores, p.segments)))
                per_method[method.label] = (a, rationale, partner)
            evidences.append(per_method)
        metric_fns = [registry.get(n) for n in self.metrics]
        rationale_fns = [m for m in metric_fns if not m.per_explanation]

        def score_all(replay: bool) -> list[dict[str, dict[str, float]]]:
            values = []
            for row, item in enumerate(items):
                decode = id_decoder(model, item.text)
                fn = (passes.replayer if replay else passes.recorder)(targets[row], decode)
                out: dict[str, dict[str, float]] = {}
                for label, (a, rationale, partner) in evidences[row].items():
                    ev = registry.Evidence(tokens=token_ids(model, _text_part(a.tokens, a.segments)),
                                           scores=np.array(_text_part(a.scores, a.segments)), rationale=rationale,
                                           score_fn=fn, partner=partner, full_text=item.text)
                    out[label] = {}
                    for metric in metric_fns:
                        if metric.applies_to(ev):
                            with warnings.catch_warnings():
                                warnings.simplefilter("ignore", RuntimeWarning)
                                out[label][metric.name] = float(metric.evaluate(ev, **self.options.get(metric.name,
                                                                                                      {})))
                first, human, _ = next(iter(evidences[row].values()))
                if rationale_fns and human is not None:  # the same tokens under every explainer
                    ev = registry.Evidence(tokens=token_ids(model, _text_part(first.tokens, first.segments)),
                                           scores=np.zeros(len(human)), rationale=human, score_fn=fn,
                                           full_text=item.text)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        out[HUMAN] = {m.name: float(m.evaluate(ev, **self.options.get(m.name, {})))
                                      for m in rationale_fns}
                values.append(out)
            return values

        score_all(replay=False)
        passes.run()
        values = score_all(replay=True)
        self._add("evaluate", started)
        records = []
        for row, item in enumerate(items):
            output = {"text": item.text, "target": [targets[row].name, targets[row].index],
                      "explanations": {label: {"tokens": evidences[row][label][0].tokens,
                                               "scores": np.asarray(evidences[row][label][0].scores).tolist()}
                                       for label in evidences[row]},
                      "values": values[row]}
            flat = {f"{label}/{name}": v for label, vals in values[row].items() for name, v in vals.items()}
            records.append(Record(output, flat))
        return records

    def counters(self) -> dict[str, float]:
        """The running totals :meth:`compute` adds to: model rows scored for the metrics, rows asked for, timings
        (a remote worker returns what a chunk added; :meth:`add_counters` adds it on the driver)."""
        passes = self.passes
        return {"passes": passes.passes if passes else 0, "requests": passes.requests if passes else 0,
                **self.timings}

    def add_counters(self, delta: dict[str, float]) -> None:
        passes = self.passes = self.passes or SharedPasses(self.model)
        passes.passes += int(delta.get("passes", 0))
        passes.requests += int(delta.get("requests", 0))
        for key, value in delta.items():
            if key not in ("passes", "requests"):
                self.timings[key] = self.timings.get(key, 0.0) + value

    def _add(self, key: str, started: tuple[float, float]) -> tuple[float, float]:
        """Add the time since ``started`` to ``key`` (wall) and ``cpu:key``; returns the new start."""
        now = _clock()
        for name, delta in ((key, now[0] - started[0]), (f"cpu:{key}", now[1] - started[1])):
            self.timings[name] = self.timings.get(name, 0.0) + delta
        return now

    def summarize(self, outputs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
        out: dict[str, dict[str, float]] = {}
        for row in aggregate(outputs, self.methods, self.metrics):
            out[f"{row['method']}/{row['metric']}"] = {k: row[k] for k in ("mean", "ci_low", "ci_high", "n", "nan")}
        return out


def _text_part(values: Sequence[Any], segments: Sequence[int]) -> list[Any]:
    """The entries of the text's own tokens (segment 0: no [CLS], [SEP] or padding)."""
    return [v for v, seg in zip(values, segments, strict=True) if seg == 0]


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def per_input_rows(outputs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per input × method × metric: ``id, text, method, metric, value``."""
    return [{"id": o["instance_id"], "text": o["text"], "method": label, "metric": name, "value": value}
            for o in outputs for label, vals in o["values"].items() for name, value in vals.items()]


def aggregate(outputs: Sequence[dict[str, Any]], methods: Sequence[Method], metrics: Sequence[str],
              seed: int = 0) -> list[dict[str, Any]]:
    """Per method × metric: mean over inputs (NaN values left out and counted), n and a 95 % bootstrap interval;
    the metrics of the human rationale last (row :data:`HUMAN`)."""
    rows = []
    for label in [m.label for m in methods] + [HUMAN]:
        for name in metrics:
            values = np.array([o["values"].get(label, {}).get(name, np.nan) for o in outputs], dtype=float)
            asked = sum(name in o["values"].get(label, {}) for o in outputs)
            if asked == 0:
                continue  # the metric did not apply (e.g. a plausibility metric without rationales)
            finite = values[np.isfinite(values)]
            low, high = bootstrap_ci(finite, seed=seed)
            rows.append({"method": label, "metric": name, "mean": float(finite.mean()) if finite.size else
                         float("nan"), "ci_low": low, "ci_high": high, "n": int(finite.size),
                         "nan": int(asked - finite.size)})
    return rows


@dataclass
class Result:
    """What :func:`evaluate` returns: the stored run, its per-input rows, the aggregate and the pass counts."""

    run_id: int
    per_input: list[dict[str, Any]]
    aggregate: list[dict[str, Any]]
    provenance: dict[str, Any]
    computed: int
    passes: int = 0
    requests: int = 0
    timings: dict[str, float] = field(default_factory=dict)

    def tables(self) -> list[Any]:
        """The aggregate and per-input tables, with provenance (model, data, explainers, parameters, n)."""
        from interpeval.report import Table

        agg = Table("Explanation quality (mean over inputs, 95 % bootstrap interval)",
                    ["method", "metric", "mean", "ci_low", "ci_high", "n", "nan"], self.aggregate,
                    self.provenance, digits=3)
        per = Table("Per input", ["id", "method", "metric", "value"], self.per_input, self.provenance, digits=3)
        return [agg, per]


def evaluate(model: Any, inputs: Sequence[Input | str], explainers: Sequence[str | Method],
             metrics: Sequence[str] = ("ferret",), *, target: Any = None, store: Any = None, chunk: int = 8,
             seed: int = 0, options: dict[str, dict[str, Any]] | None = None, data: str = "texts",
             progress: Any = None) -> Result:
    """Explain every input with every explainer and score every explanation with every applicable metric.

    ``model``: a loaded :class:`~interpeval.models.Model` or a zoo name / directory; ``inputs``: texts or
    :class:`Input` (with an optional word-level rationale); ``explainers``: ``NAME[:key=value,...]`` specs or
    :class:`Method`; ``metrics``: metric names or presets (:data:`PRESETS`); ``options``: per-metric keyword
    options (e.g. ``{"ferret_token_f1": {"official": False}}``); ``store``: a :class:`~interpeval.store.Store`
    (default: the user's). Returns the per-input rows, the aggregate with n and 95 % bootstrap intervals, and
    the number of model rows scored for the metrics (``passes``) against the texts they asked for (``requests``).
    """
    from interpeval.models import load
    from interpeval.store import Store

    if isinstance(model, str):
        model = load(model)
    if model.kind not in KINDS:
        raise ValueError(f"evaluate explains single texts of {' or '.join(KINDS)} models; {model.name} is a "
                         f"{model.kind} model (use its benchmark: quackie, expmrc, …)")
    items = [i if isinstance(i, Input) else Input(str(n), i) for n, i in enumerate(inputs)]
    if not items:
        raise ValueError("inputs is empty")
    methods = [m if isinstance(m, Method) else parse_method(m) for m in explainers]
    if not methods:
        raise ValueError("explainers is empty")
    names = resolve_metrics(metrics)
    from interpeval.explain import key_params

    bench = Evaluation(model, items, methods, names, target, options, chunk, seed)
    db = store if store is not None else Store()
    outcome = resume(bench, db, progress)
    provenance = {"model": model.name, "data": f"{data} ({len(items)} inputs)",
                  "explainers": {m.label: {"name": m.explainer, **key_params(m.explainer, m.params)} for m in methods},
                  "metrics": names, "options": options or {}, "run": outcome.run.id}
    passes = bench.passes
    return Result(outcome.run.id, per_input_rows(outcome.outputs), aggregate(outcome.outputs, methods, names),
                  provenance, outcome.computed, passes.passes if passes else 0, passes.requests if passes else 0,
                  bench.timings)
