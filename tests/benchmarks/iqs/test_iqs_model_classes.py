"""A classifier whose classes are not the task's two is refused before a study exists (nobody answers for
nothing); a head whose label names give the classes in another order is read by its names."""

from __future__ import annotations

import copy

import httpx
import numpy as np
import pytest
from typer.testing import CliRunner

from interpeval.benchmarks.iqs.explanations import model_outputs
from interpeval.benchmarks.iqs.protocol import sample_protocol
from interpeval.benchmarks.iqs.study import build_study
from interpeval.benchmarks.iqs.tasks import TASKS, load_samples
from interpeval.cli import app
from interpeval.errors import InterpevalError
from interpeval.models import load
from interpeval.models.tiny import tiny_hf
from interpeval.store.studies import Studies


def saved_classifier(folder, labels: list[str], label2id: bool = True) -> str:
    """A tiny random BERT classifier with ``labels`` as its head's label names, saved as a checkpoint folder
    (``label2id=False``: id2label only, as transformers 5 saves a config that sets only that)."""
    hf, tokenizer = tiny_hf("sequence-classification", num_labels=len(labels))
    hf.config.id2label = dict(enumerate(labels))
    if label2id:
        hf.config.label2id = {name: i for i, name in enumerate(labels)}
    hf.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


def test_a_three_class_model_is_refused_before_the_study_is_created(tmp_path):
    model = saved_classifier(tmp_path / "three", ["negative", "neutral", "positive"])
    assert load(model).predict_proba(["fine"]).shape == (1, 3)  # the loader keeps a trained head's classes
    store = tmp_path / "s.sqlite"
    result = CliRunner().invoke(app, ["iqs", "study", "create", "--task", "sst2", "--model", model,
                                      "--per-class", "1", "--methods", "input_x_gradient", "--store", str(store)])
    message = str(result.exception or result.output)
    assert result.exit_code != 0, result.output
    assert f"{model} has 3 classes (negative, neutral, positive)" in message
    assert "sst2 has 2, negative and positive (labels 0 and 1 in the file)" in message
    if store.exists():
        with Studies(store) as studies:
            assert studies.studies() == []


def test_labels_that_do_not_name_the_tasks_classes_are_refused(tmp_path):
    model = load(saved_classifier(tmp_path / "quackie", ["unanswerable", "answerable"]))
    task = TASKS["qnli"]
    samples = sample_protocol(task, load_samples(task), per_side=1, seed=0)
    with pytest.raises(InterpevalError, match=r"labels \(unanswerable, answerable\) do not name qnli's classes "
                                              r"not_entailment and entailment"):
        model_outputs(model, task, samples)


@pytest.mark.parametrize("label2id", [True, False])
def test_named_classes_in_another_order_are_read_by_name(tmp_path, label2id):
    # review: with id2label alone the names passed the class check but the columns came from the file's labels
    model = load(saved_classifier(tmp_path / "swapped", ["POSITIVE", "NEGATIVE"], label2id))
    task = TASKS["sst2"]
    samples = sample_protocol(task, load_samples(task), per_side=1, seed=0)
    probs = model.predict_proba([s.text for s in samples])
    # y_model is (P(red) = P(negative), P(green) = P(positive)): the head's columns 1 and 0
    assert np.allclose(model_outputs(model, task, samples), [[row[1], row[0]] for row in probs])


def test_a_study_whose_model_outputs_do_not_fit_the_task_is_refused_by_the_web_api(server):
    base, store = server
    items, config = build_study("sst2", "tiny-sequence-classification", per_class=1, seed=0,
                                methods={"input_x_gradient": {}})
    three = copy.deepcopy(items)
    three[1]["payload"]["iqs"]["y_model"] = [0.2, 0.3, 0.5]  # what a three-class head would give
    with Studies(store) as studies:
        _, token = studies.add_user("ada", "admin")
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, timeout=30) as client:
        refused = client.post("/api/studies", headers=auth, json={"name": "IQS", "kind": "iqs", "items": three,
                                                                  "config": config})
        assert refused.status_code == 400
        assert ("item 1: iqs.y_model is [0.2, 0.3, 0.5]; a sst2 study needs the model's probabilities of negative "
                "and positive, summing to 1") in refused.text
        with Studies(store) as studies:
            assert studies.studies() == []
        made = client.post("/api/studies", headers=auth, json={"name": "IQS", "kind": "iqs", "items": items,
                                                               "config": config})
        assert made.status_code == 201, made.text
