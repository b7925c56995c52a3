"""IQS of each method from a study's items and the annotators' answers (REFERENCE §6), with the metric functions of
:mod:`interpeval.metrics.iqs`.

An *item* is one (sample, method): the words, the marked green / red words and the model's output. An *answer*
is one annotator's five answers on one item: (1) the model's output as the annotator guesses it, (2) red words
that should not be red, (3) green words that should not be green, (4) words that should be red, (5) words that
should be green. Feat_H of each class is the shown set corrected by those answers.

Per method: plausibility = mean over answers of the mean over the two classes of Jaccard(Feat_H, Feat_m) (two
empty sets agree); simplicity = mean over samples of 1 / (ln(N_chunk − 9) + 1), N_chunk = marked words;
reproducibility = mean over answers of 1 / (L + 1), L = log loss of the model's probability of the guessed class
(SST-2, QNLI) or |guess − output| (STS-B).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from interpeval import metrics
from interpeval.benchmarks.iqs.tasks import Task
from interpeval.errors import InterpevalError
from interpeval.stats import normal_half_width

QUESTIONS = ("label", "remove_red", "remove_green", "add_red", "add_green")


@dataclass(frozen=True)
class Item:
    """One (sample, method) shown to annotators. ``y_model``: (P(red), P(green)) or the regression output."""

    id: str
    sample_id: str
    method: str
    words: tuple[str, ...]
    green: frozenset[int]
    red: frozenset[int]
    y_model: Any

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Item:
        return cls(str(d["id"]), str(d["sample_id"]), str(d["method"]), tuple(d["words"]),
                   frozenset(int(i) for i in d["green"]), frozenset(int(i) for i in d["red"]), d["y_model"])


@dataclass(frozen=True)
class Answer:
    """One annotator's answers on one item (word indices into ``item.words``)."""

    item_id: str
    annotator: str
    label: str | float
    remove_red: frozenset[int] = frozenset()
    remove_green: frozenset[int] = frozenset()
    add_red: frozenset[int] = frozenset()
    add_green: frozenset[int] = frozenset()
    simulated: bool = False

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Answer:
        return cls(str(d["item_id"]), str(d["annotator"]), d["label"],
                   *(frozenset(int(i) for i in d.get(k) or ()) for k in QUESTIONS[1:]),
                   simulated=bool(d.get("simulated", False)))


def check_answer(task: Task, item: Item, answer: Answer) -> None:
    """Word indices inside the item, removals only of shown words, a label the task knows."""
    where = f"answer of {answer.annotator!r} on item {item.id!r}"
    n = len(item.words)
    for key in QUESTIONS[1:]:
        bad = sorted(i for i in getattr(answer, key) if not 0 <= i < n)
        if bad:
            raise InterpevalError(f"{where}: {key} has word indices {bad} outside 0..{n - 1}")
    if not answer.remove_red <= item.red or not answer.remove_green <= item.green:
        raise InterpevalError(f"{where}: removes words that were not shown in that colour")
    if task.kind == "regression":
        lo, hi = task.score_range or (-math.inf, math.inf)
        if isinstance(answer.label, bool) or not isinstance(answer.label, (int, float)) or not lo <= answer.label <= hi:
            raise InterpevalError(f"{where}: label must be a number in [{lo:g}, {hi:g}], got {answer.label!r}")
    elif answer.label not in task.sides:
        raise InterpevalError(f"{where}: label must be one of {', '.join(task.sides)}, got {answer.label!r}")


def human_sets(task: Task, item: Item, answer: Answer) -> dict[str, set[int]]:
    """Feat_H per class: the shown set corrected by answers 2–5."""
    return {task.red: set((item.red - answer.remove_red) | answer.add_red),
            task.green: set((item.green - answer.remove_green) | answer.add_green)}


def method_sets(task: Task, item: Item) -> dict[str, set[int]]:
    return {task.red: set(item.red), task.green: set(item.green)}


def reproducibility_of(task: Task, item: Item, answer: Answer) -> float:
    """1 / (L + 1) of one answer."""
    if task.kind == "regression":
        return metrics.get("iqs_reproducibility").over_dataset([float(answer.label)], [float(item.y_model)], loss="mae")
    return metrics.get("iqs_reproducibility").over_dataset([task.sides.index(str(answer.label))], [item.y_model],
                                                          loss="log")


def mean_ci(values: Sequence[float]) -> dict[str, float]:
    """Mean, 95 % normal interval half-width (1.96 · sd / √n, 0 for n = 1) and n."""
    v = np.asarray(values, dtype=float)
    return {"mean": float(v.mean()), "ci95": normal_half_width(v), "n": len(v)}


@dataclass
class MethodScore:
    method: str
    plausibility: dict[str, float]
    plausibility_per_class: dict[str, float]
    simplicity: dict[str, float]
    reproducibility: dict[str, float]
    n_chunks: float
    iqs: float = 0.0
    grid: dict[str, float] = field(default_factory=dict)
    rank: int = 0
    grid_rank: int = 0


def simplicity_by_method(items: Sequence[Item]) -> dict[str, dict[str, Any]]:
    """Per method: simplicity (mean over its samples, with interval) and the mean N_chunk (marked words)."""
    out: dict[str, dict[str, Any]] = {}
    iqs_simplicity = metrics.get("iqs_simplicity")
    for method in dict.fromkeys(it.method for it in items):
        chunks = [len(it.green | it.red) for it in items if it.method == method]
        out[method] = {"simplicity": mean_ci([iqs_simplicity(n) for n in chunks]), "n_chunks": float(np.mean(chunks))}
    return out


def select_answers(answers: Iterable[Answer], simulated: bool) -> list[Answer]:
    """Only human answers (``simulated=False``) or only simulated ones: the two never mix in one score."""
    chosen = [a for a in answers if a.simulated == simulated]
    if not chosen:
        what = "simulated" if simulated else "human"
        raise InterpevalError(f"no {what} answers in this study" + ("" if simulated else
                              " (simulated answers are scored only with --simulated-annotator, and labelled as such)"))
    return chosen


def score_methods(task: Task, items: Sequence[Item], answers: Sequence[Answer],
                  weights: tuple[float, float, float] = (1 / 3, 1 / 3, 1 / 3)) -> list[MethodScore]:
    """Every method's terms, IQS at ``weights`` (Table 1), the 66-triple mean/std (Table 2) and both ranks."""
    by_id = {it.id: it for it in items}
    per_method: dict[str, list[tuple[Item, Answer]]] = defaultdict(list)
    for answer in answers:
        if answer.item_id not in by_id:
            raise InterpevalError(f"answer of {answer.annotator!r} names unknown item {answer.item_id!r}")
        item = by_id[answer.item_id]
        check_answer(task, item, answer)
        per_method[item.method].append((item, answer))
    methods = list(dict.fromkeys(it.method for it in items))
    iqs, iqs_plausibility, jaccard = metrics.get("iqs"), metrics.get("iqs_plausibility"), metrics.get("jaccard")
    scores = []
    for method in methods:
        pairs = per_method.get(method)
        if not pairs:
            raise InterpevalError(f"method {method!r} has no answers yet")
        simple = simplicity_by_method(items)[method]
        plaus = [iqs_plausibility(human_sets(task, it, a), method_sets(task, it)) for it, a in pairs]
        per_class = {c: float(np.mean([jaccard(list(human_sets(task, it, a)[c]), list(method_sets(task, it)[c]),
                                               empty=1.0) for it, a in pairs])) for c in task.sides}
        score = MethodScore(method, mean_ci(plaus), per_class, simple["simplicity"],
                            mean_ci([reproducibility_of(task, it, a) for it, a in pairs]), simple["n_chunks"])
        terms = (score.plausibility["mean"], score.simplicity["mean"], score.reproducibility["mean"])
        score.iqs = iqs(*terms, weights=weights)
        score.grid = iqs_grid(*terms)
        scores.append(score)
    for key, attr in ((lambda s: s.iqs, "rank"), (lambda s: s.grid["mean"], "grid_rank")):
        for rank, s in enumerate(sorted(scores, key=lambda s: -key(s)), start=1):
            setattr(s, attr, rank)
    return scores


def trivial_baseline(task: Task, items: Sequence[Item], answers: Sequence[Answer]) -> dict[str, float]:
    """An explanation that marks no word, read by an annotator who always gives one constant answer (the model's
    most frequent class, or its mean output): the floor every method should beat."""
    by_id = {it.id: it for it in items}
    pairs = [(by_id[a.item_id], a) for a in answers]
    empty = {c: set() for c in task.sides}
    iqs, iqs_plausibility = metrics.get("iqs"), metrics.get("iqs_plausibility")
    plaus = float(np.mean([iqs_plausibility(human_sets(task, it, a), empty) for it, a in pairs]))
    if task.kind == "regression":
        guess: str | float = float(np.mean([float(it.y_model) for it, _ in pairs]))
    else:
        votes = [task.sides[int(np.argmax(it.y_model))] for it, _ in pairs]
        guess = max(task.sides, key=votes.count)
    repro = float(np.mean([reproducibility_of(task, it, Answer(it.id, "constant", guess)) for it, _ in pairs]))
    return {"plausibility": plaus, "simplicity": 1.0, "reproducibility": repro,
            "iqs": iqs(plaus, 1.0, repro), "grid_mean": iqs_grid(plaus, 1.0, repro)["mean"],
            "grid_std": iqs_grid(plaus, 1.0, repro)["std"], "constant_answer": guess}


def agreement(task: Task, items: Sequence[Item], answers: Sequence[Answer]) -> dict[str, float]:
    """Agreement between annotators of the same item: the share of annotator pairs that give the same class to
    question 1 (STS-B: the same side of the threshold) and the mean pairwise Jaccard of their Feat_H (mean over
    the two classes, two empty sets agree)."""
    by_id = {it.id: it for it in items}
    jaccard = metrics.get("jaccard")
    grouped: dict[str, list[Answer]] = defaultdict(list)
    for a in answers:
        grouped[a.item_id].append(a)
    same, words = [], []
    for item_id, group in grouped.items():
        item = by_id[item_id]
        for a, b in combinations(group, 2):
            same.append(float(task.side_of(a.label) == task.side_of(b.label)) if task.kind == "regression"
                        else float(a.label == b.label))
            ha, hb = human_sets(task, item, a), human_sets(task, item, b)
            words.append(float(np.mean([jaccard(list(ha[c]), list(hb[c]), empty=1.0) for c in task.sides])))
    if not same:
        return {"label_agreement": float("nan"), "word_agreement": float("nan"), "pairs": 0,
                "items": len(grouped)}
    return {"label_agreement": float(np.mean(same)), "word_agreement": float(np.mean(words)), "pairs": len(same),
            "items": sum(len(g) > 1 for g in grouped.values())}


def weight_grid(steps: int = 10) -> list[tuple[float, float, float]]:
    """All (a1, a2, a3) with a_i in {0, 1/steps, ..., 1} summing to 1: 66 triples for steps = 10 (Table 2)."""
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 1:
        raise ValueError(f"steps: must be an integer >= 1, got {steps!r}")
    return [(i / steps, j / steps, (steps - i - j) / steps) for i in range(steps + 1) for j in range(steps + 1 - i)]


def iqs_grid(plausibility: float, simplicity: float, reproducibility: float, steps: int = 10) -> dict[str, float]:
    """Mean and (population) std of IQS over the weight grid, as the paper's Table 2 reports them."""
    iqs = metrics.get("iqs")
    values = [iqs(plausibility, simplicity, reproducibility, w) for w in weight_grid(steps)]
    return {"mean": float(np.mean(values)), "std": float(np.std(values)), "n": len(values)}
