"""A small real store for the web and report tests: every view gets real outputs, written through the store API.

- ``attribute`` runs: two real explainers (saliency, input × gradient) on the tiny classifier over 3 real SST-2
  sentences and one hostile text (``<script>``), recorded as the CLI records them;
- a ``quackie`` run over the first answerable questions of the vendored SQuAD part (sentence scores from the
  Random baseline, the ground truth from the real builder);
- an ``expmrc`` run over vendored SQuAD-ExpMRC dev questions scored by the official scorer, and an answer model's
  stored outputs (``expmrc-answers``, the tiny extractive-QA model with an evidence head) with two systems on them;
- a ``probing`` run with experiments in the grid's output shape for 2 languages × 2 categories × 3 layers;
- a real masked-LM (``plm_rationale``) run of the tiny masked LM with saliency over a golden file written beside the
  store (an original and its perturbed twin), which stores no words: the pages rebuild them from that file;
- a real ``evaluate`` run (gradient, input × gradient and the random baseline; the faithfulness metrics) over the
  same 3 SST-2 sentences;
- real IQS explanation runs (three explainers, the tiny classifier, one SST-2 test sentence per class) and the IQS
  study built from them (``ids["iqs_study"]``).
"""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pytest

HOSTILE = "<script>document.title='pwned'</script> great <b>film</b>"


def _sst2_lines() -> list[str]:
    rows = (resources.files("interpeval") / "data" / "sentences" / "sst2-dev-20.tsv").read_text().splitlines()[1:]
    return [r.split("\t")[0] for r in rows[:3]]


def seed_store(path: Path) -> dict[str, int]:
    from interpeval import explain
    from interpeval.benchmarks.quackie.baseline import random_sentence_scores
    from interpeval.benchmarks.quackie.build import build_instances
    from interpeval.benchmarks.quackie.data import dataset_path, load_squad
    from interpeval.models import load
    from interpeval.models.base import Target
    from interpeval.store import Store, fingerprint_files

    ids: dict[str, int] = {}
    texts = [*_sst2_lines(), HOSTILE]
    model = load("tiny-sequence-classification")
    with Store(path) as store:
        for method in ("saliency", "input_x_gradient"):
            run = store.run("attribute", {"method": method, "params": {}, "target": "class_prob"},
                            model="tiny-sequence-classification", data_fingerprint="sst2-dev-3+hostile")
            for i, attribution in enumerate(explain.get(method)().explain(model, texts, Target("class_prob"))):
                run.record(f"line-{i + 1}", attribution.to_dict(), {"sum": float(attribution.scores.sum())})
            run.finish()
            ids[method] = run.id

        squad = dataset_path("SQuAD")
        instances, _ = build_instances(load_squad(squad))
        run = store.run("quackie", {"dataset": "SQuAD", "classifier": "cls", "official": False, "seed": 0,
                                    "method": {"label": "Random", "explainer": ""}, "aggs": ["sum"]},
                        model="tiny-sequence-classification", data_fingerprint=fingerprint_files(squad))
        for inst in instances[:6]:
            scores = random_sentence_scores(len(inst.sentences), 0, inst.id).tolist()
            run.record(inst.id, {"index": inst.index, "n_sentences": len(inst.sentences), "gt": list(inst.gt),
                                 "scores": {"random": scores}})
        run.finish()
        ids["quackie"] = run.id

        ids["expmrc"] = expmrc_gold_run(store, 5, lambda i: i % 2 == 1, 40, "gold-answer-first",
                                        "gold answer, alternating evidence")
        ids.update(_expmrc_model_runs(store, path.parent))

        # the two TrustAI golden records (original id 0, perturbed id 100) as the masked-LM benchmark stores them
        run = store.run("plm_rationale", {"explainer": "saliency", "golden": "trustai.json"}, model="tiny-masked-lm",
                        data_fingerprint="trustai-notebook")
        for sent_id, first in ((0, ["迈", "向"]), (100, ["走", "进"])):
            tokens = [*first, "充", "满", "希", "望", "的", "[MASK]", "世", "纪"]
            run.record(str(sent_id), {"sent_token": tokens, "word_scores": [0.9, 0.8, 0.1, -0.2, 0.0, 0.1, 0.3, 0.0,
                                                                            0.7, 0.6],
                                      "rationale": [0, 1, 8, 9], "top_k": ["新", "二", "一"], "f1": 1.0,
                                      "sample_type": "ori" if sent_id == 0 else "disturb",
                                      "ori_id": None if sent_id == 0 else 0, "perturbation": "敏感-重要词"},
                       {"token_f1": 1.0})
        run.finish()
        ids["plm"] = run.id

        run = store.run("probing", {"layers": "all", "aggregations": ["avg"], "probes": ["logreg"],
                                    "control": True}, model="tiny-encoder", data_fingerprint="ud-sample")
        for language in ("en", "ru"):
            for category in ("Number", "Tense"):
                for layer in (1, 2, 3):
                    acc = 0.5 + 0.1 * layer + (0.05 if language == "en" else 0) - (0.1 if category == "Tense" else 0)
                    control = 0.5
                    task = f"{language}_ewt_no_sorting_{category}"
                    run.record(f"{task}|avg|logreg|{layer}",
                               {"task": task, "language": language, "category": category, "aggregation": "avg",
                                "probe": "logreg", "layer": layer, "classes": ["A", "B"],
                                "sizes": {"tr": 80, "va": 20, "te": 50}, "dropped": {}, "accuracy": acc,
                                "weighted_f1": acc, "control_accuracy": control, "selectivity": acc - control},
                               {"accuracy": acc})
        run.finish()
        ids["probing"] = run.id
        ids["plm_real"] = _plm_run(store, path.parent)
        from interpeval.evaluate.engine import evaluate

        ids["evaluate"] = evaluate(model, _sst2_lines(), ["gradient", "input_x_gradient", "random"], ["faithfulness"],
                                   store=store, data="sst2-dev-3").run_id
    ids.update(_iqs_runs(path))
    return ids


def expmrc_gold_run(store, n: int, wrong: Callable[[int], bool], cut: int, system: str, label: str) -> int:
    """An ``expmrc`` run of the gold answers on the first ``n`` SQuAD-ExpMRC dev questions, scored per question by
    the official scorer; the evidence is the gold one except where ``wrong(i)`` (i from 0), where it is the
    passage's first ``cut`` characters. Also used by tests/fixtures/make_store_v3.py."""
    from interpeval.benchmarks.expmrc.data import Prediction, dev_path, load_dataset
    from interpeval.benchmarks.expmrc.score import evaluate
    from interpeval.store import fingerprint_files

    dataset = load_dataset(dev_path("squad"))
    questions = dataset.questions[:n]
    predictions = {q.qid: Prediction(q.answers[0], q.context[:cut] if wrong(i) else (q.evidences or ("",))[0])
                   for i, q in enumerate(questions)}
    result = evaluate(dataset, predictions, stderr=io.StringIO())  # the official scorer, per question
    run = store.run("expmrc", {"system": system, "label": label, "subset": "squad", "official": True},
                    model="gold", data_fingerprint=fingerprint_files(dataset.path))
    for q in questions:
        answer, evidence = result.answer[q.qid], result.evidence[q.qid]
        run.record(q.qid, {"answer": predictions[q.qid].answer, "evidence": predictions[q.qid].evidence},
                   {"answer": answer, "evidence": evidence, "all": answer * evidence})
    run.finish()
    return run.id


def _expmrc_model_runs(store, folder: Path) -> dict[str, int]:
    """An answer model's stored outputs (``expmrc-answers``: the tiny extractive-QA model with an evidence head on 4
    SQuAD-ExpMRC dev questions) and two systems scored on them (MSS; the evidence head), as ``expmrc baselines``
    records them."""
    import dataclasses

    from interpeval.benchmarks.expmrc.data import dev_path, load_dataset
    from interpeval.benchmarks.expmrc.run import SYSTEMS, run_systems, stored_outputs
    from interpeval.models import tiny

    full = load_dataset(dev_path("squad"))
    dataset = dataclasses.replace(full, questions=full.questions[:4])
    model = tiny("extractive-qa", evidence_head=True)
    outputs = stored_outputs(model, model.name, dataset, store)
    run_systems({"squad": dataset}, {"squad": model.name}, lambda d: outputs, folder / "expmrc-out", store,
                systems=tuple(s for s in SYSTEMS if s.key in ("mss", "pseudo")))
    (answers,) = store.runs("expmrc-answers")
    return {"expmrc_answers": answers.id, **{f"expmrc_{info.config['system']}": info.id
                                             for info in store.runs("expmrc") if info.model == model.name}}


PLM_GOLDEN = [("the capital of france is [MASK] .", [1, 3]), ("the capital city of france is [MASK] .", [1, 2, 4])]
IQS_METHODS = {"input_x_gradient": {}, "guided_backprop": {}, "deeplift": {"baseline": "zero"}}


def _plm_run(store, folder: Path) -> int:
    from interpeval.benchmarks.plm.records import GoldenRecord, write_golden
    from interpeval.benchmarks.plm.run import evaluate
    from interpeval.explain import get
    from interpeval.models import tiny

    records = []
    for sid, (text, rationale) in enumerate(PLM_GOLDEN):
        meta = {"lang": "en", "dimension": "knowledge", "perturbation": "ins_del" if sid else None,
                "label": "silver", "ori_id": 0 if sid else None}
        records.append(GoldenRecord(sid, text, text.split(), "paris", [rationale], "disturb" if sid else "ori",
                                    [] if sid else [1], meta))
    golden = write_golden(folder / "plm-en.golden.jsonl", records)
    return evaluate(golden, tiny("masked-lm"), get("saliency")(), "Saliency", store)


def _iqs_runs(path: Path) -> dict[str, int]:
    from interpeval.benchmarks.iqs.study import build_study
    from interpeval.store import Store
    from interpeval.store.studies import Studies

    items, config = build_study("sst2", "tiny-sequence-classification", per_class=1, methods=IQS_METHODS, store=path)
    with Studies(path) as studies:
        admin, _ = studies.add_user("iqs-seed-admin", "admin")
        study = studies.create_study("IQS (seeded)", "iqs", items, config, created_by=admin.id)
    with Store(path) as store:
        runs = {f"iqs_{info.config['method']}": info.id for info in store.runs("iqs-explanations")}
    return {**runs, "iqs_study": study.id}


@pytest.fixture(scope="session")
def seeded(tmp_path_factory) -> tuple[Path, dict[str, int]]:
    path = tmp_path_factory.mktemp("web") / "results.sqlite"
    return path, seed_store(path)


@pytest.fixture
def quackie_pair(seeded, tmp_path):
    """A copy of the seeded store with a second QUACKIE run beside the Random one: "Gradient" (same model,
    classifier, data and settings) scoring every question's sentences 0, 1, 2 … by ``sum`` (the last one top) and
    0, −1, −2 … by ``max``. Returns the copy's path, the Random run's RunInfo, the Gradient run's id and the
    Random run's outputs."""
    import sqlite3

    from interpeval.store import Store

    path, ids = seeded
    copy = tmp_path / "quackie-pair.sqlite"
    with sqlite3.connect(path) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    with Store(copy) as store:
        info = store.get_run(ids["quackie"])
        outputs = store.instances(info.id)
        gradient = store.run("quackie", {**info.config, "method": {"label": "Gradient", "explainer": "saliency"}},
                             model=info.model, data_fingerprint=info.data_fingerprint)
        for out in outputs:  # a real run's shape: one score per sentence and aggregation
            n = out["n_sentences"]
            gradient.record(out["instance_id"], {**out, "scores": {"sum": [float(i) for i in range(n)],
                                                                   "max": [float(-i) for i in range(n)]}})
    return copy, info, gradient.id, outputs


@pytest.fixture(scope="session")
def seed_facts() -> dict[str, object]:
    """What the seeded runs were made from, for tests to derive their expectations."""
    return {"plm_golden": PLM_GOLDEN, "iqs_methods": IQS_METHODS}


@pytest.fixture
def study_with_annotators():
    """``make(path, name, annotators, items)``: see :func:`_study_with_annotators`."""
    return _study_with_annotators


def _study_with_annotators(path: Path, name: str, annotators: int, items: int) -> tuple[int, str, list]:
    """A generic study of ``items`` sentences with ``annotators`` annotators, each assigned every item: the study id,
    the admin's token and, per annotator, ``(user, token, assignment ids)`` (load and crash tests)."""
    from interpeval.store.studies import Studies

    with Studies(path) as studies:
        admin, admin_token = studies.add_user("admin", "admin")
        study = studies.create_study(name, "generic", [{"key": f"item-{i}", "payload": {"text": f"sentence {i}"}}
                                                       for i in range(items)], created_by=admin.id)
        people = []
        for n in range(annotators):
            user, token = studies.add_user(f"annotator-{n}", "annotator")
            people.append((user, token, [a.id for a in studies.assign(study.id, user.id)]))
    return study.id, admin_token, people


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def server_class() -> type:
    return Server


@pytest.fixture
def server():
    """``server(store, *options)`` starts ``interpeval serve``; every server started is stopped afterwards."""
    started = []

    def start(store: Path, *extra: str) -> Server:
        started.append(Server(store, *extra))
        return started[-1]

    yield start
    for s in started:
        s.stop()


class Server:
    """``interpeval serve`` in a subprocess on a free loopback port, stopped at the end."""

    def __init__(self, store: Path, *extra: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        cli = [sys.executable, "-c", "from interpeval.cli import main; main()"]
        self.log = store.with_name(f"serve-{self.port}.log")
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen([*cli, "serve", "--store", str(store), "--port", str(self.port), *extra],
                                         stdout=log, stderr=subprocess.STDOUT, text=True)
        import httpx

        deadline = time.time() + 90  # a start takes seconds, but tens of them on a loaded 2-core machine
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            try:
                if httpx.get(self.url + "/api/runs", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not start in 90 s")

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()



@pytest.fixture
def reproduce_toy(monkeypatch):
    """``reproduce_toy(store, out)``: ``interpeval reproduce toy`` into ``store``, returning the PaperReport it wrote
    to ``out``. The toy plug-in (tests/fixtures/toy_bench, with a reproduction of a paper made up for the tests) is
    found through INTERPEVAL_BENCHMARKS, the CLI rebuilt around it."""
    import json

    from typer.testing import CliRunner

    from interpeval import cli
    from interpeval import plugins as plugin
    from interpeval.paper import PaperReport

    fixtures = str(Path(__file__).resolve().parents[1] / "fixtures")
    monkeypatch.syspath_prepend(fixtures)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [fixtures, os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv(plugin.ENV_VARIABLE, "toy_bench:PLUGIN")  # for a server started here too
    monkeypatch.setattr(plugin, "_plugins", None)
    monkeypatch.setattr(cli, "_app", None)

    def reproduce(store: Path, out: Path) -> PaperReport:
        result = CliRunner().invoke(cli.app, ["reproduce", "toy", "--store", str(store), "--out", str(out)])
        assert result.exit_code == 0, result.output
        return PaperReport.from_json(json.loads((out / "reproduce-toy.json").read_text(encoding="utf-8")))

    yield reproduce
    plugin.reset()
