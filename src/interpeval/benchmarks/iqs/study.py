"""An IQS study in the store (:mod:`interpeval.store.studies`, kind ``iqs``): creation and reading answers back.

One item per (sample, method), in a seeded random order so that no annotator sees one method in a block. The
payload holds what the study page shows (words, their colour, the legend, the five questions) and, under
``"iqs"``, what scoring needs (method, the model's output, marked words, word scores). The method's name is
never shown. The study's config records the task, model, protocol, marking rule, explainer parameters and costs.

Simulated answers are stored like human ones but carry ``"simulated": {...}`` in the answer and come from users
named ``simulated-<k>``; scoring keeps them apart (:func:`interpeval.benchmarks.iqs.score.select_answers`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from interpeval.benchmarks.iqs.explanations import PAPER_METHODS, Explanation, model_outputs
from interpeval.benchmarks.iqs.marking import Marking
from interpeval.benchmarks.iqs.protocol import protocol_info, sample_protocol, untrained
from interpeval.benchmarks.iqs.score import Answer, Item
from interpeval.benchmarks.iqs.studies import KIND
from interpeval.benchmarks.iqs.tasks import Sample, Task, default_path, get_task, load_samples
from interpeval.errors import InterpevalError
from interpeval.store.studies import Studies

SIMULATED_PREFIX = "simulated-"
#: STS-B's question 1 options: the score range in steps of 0.5
STSB_OPTIONS = [f"{v / 2:g}" for v in range(11)]


def questions(task: Task) -> list[dict[str, Any]]:
    """The paper's five questions (REFERENCE §6) in the web app's question format."""
    options = STSB_OPTIONS if task.kind == "regression" else list(task.sides)
    return [
        {"id": "label", "text": task.question, "type": "choice", "options": options},
        {"id": "remove_red", "text": "Which RED words should not be red?", "type": "words", "among": "red"},
        {"id": "remove_green", "text": "Which GREEN words should not be green?", "type": "words", "among": "green"},
        {"id": "add_red", "text": "Which words that are not red should be red?", "type": "words",
         "among": "not-red"},
        {"id": "add_green", "text": "Which words that are not green should be green?", "type": "words",
         "among": "not-green"},
    ]


def legend(task: Task) -> dict[str, str]:
    what = "the similarity score" if task.kind == "regression" else "the prediction"
    return {"green": f"pushes {what} towards {task.green.replace('_', ' ')}",
            "red": f"pushes {what} towards {task.red.replace('_', ' ')}"}


def item_payload(task: Task, sample: Sample, explanation: Explanation, marks: dict[str, list[int]],
                 y_model: Any) -> dict[str, Any]:
    colours = [""] * len(explanation.words)
    for i in marks["green"]:
        colours[i] = "green"
    for i in marks["red"]:
        colours[i] = "red"
    return {
        "text": sample.text if sample.pair is None else f"{sample.text} ‖ {sample.pair}",
        "words": explanation.words, "segments": explanation.segments, "marks": colours,
        "legend": legend(task), "questions": questions(task),
        "iqs": {"sample_id": sample.id, "method": explanation.method, "y_model": y_model,
                "green": marks["green"], "red": marks["red"], "scores": explanation.scores, "gold": sample.label},
    }


def build_study(task_name: str, model_name: str, *, data: str | None = None, per_class: int = 25, seed: int = 0,
                methods: Mapping[str, Mapping[str, Any]] | None = None, marking: Marking | None = None,
                device: str = "auto", batch_size: int = 32, store: str | os.PathLike[str] | None = None
                ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Sample, run the model and the explainers, mark words: ``(items, config)`` ready for the store.

    Every explanation is recorded in a run ``iqs-explanations`` of ``store`` (an in-memory store without one) as
    soon as it is done, so an interrupted creation with the same arguments and store resumes from there.
    """
    from interpeval.benchmarks.iqs.explanations import check_methods, explain_resumable
    from interpeval.models import load, say_truncated
    from interpeval.store import Store, fingerprint_files

    task = get_task(task_name)
    methods = dict(PAPER_METHODS if methods is None else methods)
    check_methods(methods)
    marking = marking or Marking()
    pool, note = untrained(model_name, load_samples(task, data))
    chosen = sample_protocol(task, pool, per_class, seed)
    model = load(model_name, device=device, batch_size=batch_size)
    say_truncated(model, [s.text for s in chosen], [s.pair or "" for s in chosen] if any(s.pair for s in chosen) else None)
    outputs = model_outputs(model, task, chosen)
    source = str(data) if data else f"interpeval/data/iqs/{default_path(task).name} (vendored)"
    with Store(store if store is not None else ":memory:") as results:  # without one: the same path, in memory
        explanations, costs = explain_resumable(results, model, task, chosen, methods, chunk=batch_size,
                                                config={"task": task.name, "data": source}, model_name=model_name,
                                                fingerprint=fingerprint_files(data or default_path(task)))
    by_id = {s.id: (s, y) for s, y in zip(chosen, outputs, strict=True)}
    items = []
    for e in explanations:
        sample, y_model = by_id[e.sample_id]
        items.append({"key": f"{e.sample_id}|{e.method}",
                      "payload": item_payload(task, sample, e, marking.mark(e.scores), y_model)})
    order = np.random.default_rng(seed).permutation(len(items))
    items = [items[i] for i in order]
    config = {"iqs": {
        "task": task.name, "model": model_name, "model_kind": model.kind,
        "protocol": protocol_info(task, per_class, seed, note, source),
        "methods": {name: explanations_params(explanations, name) for name in methods},
        "marking": marking.to_dict(), "cost_s": costs, "n_samples": len(chosen),
        "target": (f"P({task.green})" if model.kind != "regression" else "regression output"
                   + ("" if task.kind == "regression" else f" as P({task.green}), thresholded at 0.5")),
    }}
    return items, config


def explanations_params(explanations: list[Explanation], method: str) -> dict[str, Any]:
    """The explainer's full parameters as it recorded them."""
    return next((e.params for e in explanations if e.method == method), {})


def create(studies: Studies, name: str, items: list[dict[str, Any]], config: dict[str, Any],
           created_by: int | None = None) -> int:
    """Put a built study in the store; returns its id."""
    return studies.create_study(name, KIND, items, config=config, created_by=created_by).id


def iqs_config(studies: Studies, study_id: int) -> dict[str, Any]:
    try:
        study = studies.study(study_id)
    except KeyError:
        raise InterpevalError(f"no study {study_id} in {studies.path} (`interpeval iqs study list` shows them)") from None
    if study.kind != KIND or "iqs" not in study.config:
        raise InterpevalError(f"study {study_id} ({study.name!r}) is a {study.kind} study, not an IQS study")
    return study.config["iqs"]


def load_items(studies: Studies, study_id: int) -> list[Item]:
    """The study's items as :class:`~interpeval.benchmarks.iqs.score.Item` (id = the item's key)."""
    out = []
    for item in studies.items(study_id):
        p = item.payload["iqs"]
        out.append(Item.from_dict({"id": item.key, "sample_id": p["sample_id"], "method": p["method"],
                                   "words": item.payload["words"], "green": p["green"], "red": p["red"],
                                   "y_model": p["y_model"]}))
    return out


def load_answers(studies: Studies, study_id: int) -> list[Answer]:
    """Every final annotation, human or simulated (a ``simulated-`` user or a ``simulated`` field)."""
    task = get_task(iqs_config(studies, study_id)["task"])
    out = []
    for record in studies.export(study_id):
        for given in record["answers"]:
            if given["task"] != "annotate" or not given["final"] or not given["answer"]:
                continue
            answer = given["answer"]
            values = dict(answer.get("answers", {}))
            label = values.get("label")
            if task.kind == "regression" and label is not None:
                label = float(label)
            simulated = bool(answer.get("simulated")) or given["user"].startswith(SIMULATED_PREFIX)
            out.append(Answer.from_dict({"item_id": record["key"], "annotator": given["user"], "label": label,
                                         **{k: values.get(k) for k in
                                            ("remove_red", "remove_green", "add_red", "add_green")},
                                         "simulated": simulated}))
    return out


def simulate(studies: Studies, study_id: int, annotators: int = 3, kind: str = "model-output", noise: float = 0.1,
             reference: str = "integrated_gradients", top_k: int = 3, seed: int = 0) -> list[str]:
    """Let ``annotators`` simulated users (``simulated-1`` …) answer every item they have not answered yet;
    returns their names. For tests and demos only: the answers are stored marked ``simulated``."""
    from interpeval.benchmarks.iqs.simulated import simulated_answer

    task = get_task(iqs_config(studies, study_id)["task"])
    items = studies.items(study_id)
    ref = {it.payload["iqs"]["sample_id"]: it.payload["iqs"]["scores"] for it in items
           if it.payload["iqs"]["method"] == reference}
    payloads = {it.id: it.payload for it in items}
    existing = {u.name: u for u in studies.users()}
    names = []
    for k in range(1, annotators + 1):
        name = f"{SIMULATED_PREFIX}{k}"
        user = existing[name] if name in existing else studies.add_user(name, "annotator")[0]
        names.append(name)
        for a in studies.assign(study_id, user.id):
            if a.final:
                continue
            payload = payloads[a.item_id]
            scores = ref.get(payload["iqs"]["sample_id"], payload["iqs"]["scores"])
            answer = simulated_answer(task, payload, scores, seed=seed * 1000 + k * 100_003 + a.item_id,
                                      noise=noise, top_k=top_k, kind=kind)
            studies.save(user.id, a.id, answer)
    return names


def score_studies(studies: Studies, study_ids: list[int], simulated: bool = False) -> list[Any]:
    """:class:`~interpeval.benchmarks.iqs.tables.IQSResult` of each study (human answers, or only simulated)."""
    from interpeval.benchmarks.iqs.tables import score_study

    return [score_study(iqs_config(studies, sid), load_items(studies, sid), load_answers(studies, sid), simulated)
            for sid in study_ids]
