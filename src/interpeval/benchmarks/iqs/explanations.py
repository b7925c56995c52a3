"""The paper's six explainers on the protocol's samples, through the explainer registry, at the word level.

Every method explains the same scalar: the probability of the task's green class (SST-2 positive, QNLI
entailment) or the regression output (STS-B similarity), as the paper's regression heads did. A positive word
score supports the green class, a negative one the red class. Token scores become whitespace-word scores with the
equal-share rule (:meth:`Attribution.to_words`); a pair input (STS-B, QNLI) lists the text's words, then the pair's.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from interpeval.benchmarks.base import Benchmark, Record, RunKey, resume
from interpeval.benchmarks.iqs.tasks import Sample, Task
from interpeval.errors import InterpevalError
from interpeval.models.base import Model, Target
from interpeval.store import Store

#: REFERENCE §6: LIME with 3000 samples and Lasso alpha 3e-4, Kernel SHAP with the same configuration, DeepLIFT with
#: a zero baseline, IG with 50 steps and a zero baseline (Captum defaults otherwise).
PAPER_METHODS: dict[str, dict[str, Any]] = {
    "input_x_gradient": {},
    "guided_backprop": {},
    "lime": {"n_samples": 3000, "regression": "lasso", "alpha": 3e-4},
    "kernel_shap": {"n_samples": 3000, "regression": "lasso", "alpha": 3e-4},
    "deeplift": {"baseline": "zero"},
    "integrated_gradients": {"n_steps": 50, "baseline": "zero"},
}

METHOD_TITLES = {"input_x_gradient": "Input×Gradient", "guided_backprop": "Guided Backprop", "lime": "LIME",
                 "kernel_shap": "Kernel SHAP", "deeplift": "DeepLIFT", "integrated_gradients": "Integrated Gradients"}


@dataclass
class Explanation:
    """One method's word scores for one sample; ``segments[i]`` is 0 (text) or 1 (pair) for word i."""

    sample_id: str
    method: str
    words: list[str]
    segments: list[int]
    scores: list[float]
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def label_names(model: Model) -> list[str]:
    """The classifier's label names in output order (transformers names an unnamed head ``LABEL_<k>``)."""
    id2label = getattr(model.hf.config, "id2label", None) or {}
    return [str(id2label[k]) for k in sorted(id2label, key=int)]


def _names_classes(names: Sequence[str]) -> bool:
    """Whether a head's label names say what its classes are (not ``LABEL_<k>`` nor the index itself)."""
    return any(name not in (f"LABEL_{i}", str(i)) for i, name in enumerate(names))


def class_index(model: Model, task: Task, side: str) -> int:
    """The model's output index for a task class: by the model's label names (the file's label or the class
    name), else the file's numeric label, else the position among the sorted label names (the convention of
    ``interpeval train``)."""
    raw = task.raw_labels[task.sides.index(side)]
    # id2label, as check_classes reads it: a head saved with id2label only has label2id null (transformers 5)
    names = {str(k).lower(): int(v) for k, v in (getattr(model.hf.config, "label2id", None) or {}).items()}
    names.update({str(name).lower(): int(k) for k, name in (getattr(model.hf.config, "id2label", None) or {}).items()})
    for name in (raw.lower(), side.lower()):
        if name in names:
            return names[name]
    if raw.isdigit():
        return int(raw)
    return sorted(task.raw_labels).index(raw)


def check_classes(model: Model, task: Task) -> None:
    """Fail before anyone answers when the classifier's classes are not the task's two: reproducibility is the
    log loss of the model's probabilities over the task's classes, the ones annotators choose from (REFERENCE
    §6), and the paper defines no mapping of other classes onto them."""
    names = label_names(model)
    sides = f"{task.red} and {task.green}" + (f" (labels {' and '.join(task.raw_labels)} in the file)"
                                               if task.raw_labels != task.sides else "")
    if len(names) != len(task.sides):
        raise InterpevalError(f"{model.name} has {len(names)} classes ({', '.join(names)}); {task.name} has "
                              f"{len(task.sides)}, {sides}: IQS needs a head for exactly the task's classes")
    if _names_classes(names):
        known = {n.lower() for n in names}
        missing = [side for side, raw in zip(task.sides, task.raw_labels, strict=True)
                   if side.lower() not in known and raw.lower() not in known]
        if missing:
            raise InterpevalError(f"{model.name}'s labels ({', '.join(names)}) do not name {task.name}'s class"
                                  f"{'es' if len(missing) > 1 else ''} {' and '.join(missing)}; the task's classes "
                                  f"are {sides}")


def task_target(model: Model, task: Task) -> Target:
    """What every method explains: P(green class) for a classifier, the output of a regression model (for a
    classification task, the paper's setting: a regression head whose output in [0, 1] is P(green class),
    thresholded at 0.5)."""
    if model.kind == "regression":
        return Target("regression")
    if task.kind == "regression" or model.kind != "sequence-classification":
        needed = "" if task.kind == "regression" else " or a sequence-classification model"
        raise InterpevalError(f"{task.name} needs a regression model{needed}; {model.name} is a {model.kind} model")
    check_classes(model, task)
    return Target("class_prob", class_index(model, task, task.green))


def model_outputs(model: Model, task: Task, samples: list[Sample]) -> list[Any]:
    """Per sample: the model's probabilities of (red class, green class), or its regression output."""
    texts, pairs = [s.text for s in samples], _pairs(samples)
    task_target(model, task)
    if model.kind == "regression":
        values = [float(v) for v in model.predict(texts, pairs)]
        if task.kind == "regression":
            return values
        return [[1.0 - p, p] for p in np.clip(values, 0.0, 1.0).tolist()]
    probs = model.predict_proba(texts, pairs)
    cols = [class_index(model, task, side) for side in task.sides]
    return [[float(row[c]) for c in cols] for row in probs]


def _pairs(samples: list[Sample]) -> list[str] | None:
    pairs = [s.pair for s in samples]
    return None if all(p is None for p in pairs) else [p or "" for p in pairs]


def check_methods(methods: Mapping[str, Mapping[str, Any]]) -> None:
    """Fail before any work when a method is unknown or one of its parameters does not fit it."""
    from interpeval.explain.spec import ExplainerSpec, SpecError, check

    for name, params in methods.items():
        try:
            check(ExplainerSpec(name, params))
        except SpecError as err:
            raise InterpevalError(str(err)) from None


def explain_samples(model: Model, task: Task, samples: list[Sample],
                    methods: Mapping[str, Mapping[str, Any]] = PAPER_METHODS
                    ) -> tuple[list[Explanation], dict[str, float]]:
    """Word-level explanations of every sample by every method, and each method's wall time in seconds."""
    from interpeval.explain import registry

    check_methods(methods)
    target = task_target(model, task)
    texts, pairs = [s.text for s in samples], _pairs(samples)
    out: list[Explanation] = []
    costs: dict[str, float] = {}
    for name, params in methods.items():
        explainer = registry.get(name)(**params)
        start = time.perf_counter()
        attributions = explainer.explain(model, texts, target, pairs)
        costs[name] = time.perf_counter() - start
        for sample, attribution in zip(samples, attributions, strict=True):
            words, segments, scores = [], [], []
            for segment, text in ((0, sample.text), (1, sample.pair)):
                if text is None:
                    continue
                words += text.split()
                segments += [segment] * len(text.split())
                scores += attribution.to_words(segment=segment).tolist()
            out.append(Explanation(sample.id, name, words, segments, [float(v) for v in np.asarray(scores)],
                                   attribution.params))
    return out, costs


class MethodExplanations(Benchmark):
    """One method's explanations of the protocol's samples as a stored run, so that a killed study creation resumes
    where it stopped (LIME and Kernel SHAP with 3000 perturbations take minutes per sample on a CPU): methods that
    call the model once per row are explained one sample per chunk, the others ``chunk`` samples at a time."""

    name = "iqs-explanations"

    def __init__(self, model: Model, task: Task, samples: Sequence[Sample], method: str, params: Mapping[str, Any],
                 config: Mapping[str, Any], model_name: str, fingerprint: str, chunk: int = 8) -> None:
        from interpeval.explain import registry

        self.model, self.task, self.samples, self.method, self.params = model, task, list(samples), method, params
        self.config, self.model_name, self.fingerprint = dict(config), model_name, fingerprint
        self.chunk = 1 if registry.get(method).rows_per_call == 1 else max(1, int(chunk))

    def key(self) -> RunKey:
        from interpeval.explain import key_params

        config = {**self.config, "samples": [s.id for s in self.samples], "method": self.method,
                  "params": key_params(self.method, self.params), "chunk": self.chunk,
                  "batch_size": self.model.batch_size}
        return RunKey(self.name, config, self.model_name, self.fingerprint)

    def instances(self) -> list[Sample]:
        return self.samples

    def compute(self, items: Sequence[Sample]) -> list[Record]:
        explanations, cost = explain_samples(self.model, self.task, list(items), {self.method: self.params})
        return [Record({**e.to_dict(), "cost_s": cost[self.method] / len(items)}) for e in explanations]


def explain_resumable(store: Store, model: Model, task: Task, samples: list[Sample],
                      methods: Mapping[str, Mapping[str, Any]] = PAPER_METHODS, chunk: int = 8,
                      config: Mapping[str, Any] | None = None, model_name: str = "", fingerprint: str = ""
                      ) -> tuple[list[Explanation], dict[str, float]]:
    """:func:`explain_samples` through one resumable stored run per method (:class:`MethodExplanations`, keyed by
    ``config`` + the method); the cost of a method is the sum of the wall times recorded for its samples."""
    check_methods(methods)
    out: list[Explanation] = []
    costs: dict[str, float] = {}
    for name, params in methods.items():
        outcome = resume(MethodExplanations(model, task, samples, name, params, config or {},
                                            model_name or model.name, fingerprint, chunk), store)
        for record in outcome.outputs:
            out.append(Explanation(record["sample_id"], name, record["words"], record["segments"],
                                   record["scores"], record["params"]))
            costs[name] = costs.get(name, 0.0) + float(record["cost_s"])
    return out, costs
