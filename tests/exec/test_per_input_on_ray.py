"""Per-input work on a real local Ray cluster (2 workers): the stored values equal the local executor's, a worker
killed mid-run loses nothing, and a run interrupted at the driver resumes by sending only the missing chunks.

Every test compares against the same computation in this process (the local executor), not against fixed numbers.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
from pathlib import Path

import pytest

from interpeval.benchmarks.base import resume
from interpeval.exec import RayExecutor, using
from interpeval.store import Store

pytestmark = pytest.mark.slow
PLM_DATA = Path(__file__).resolve().parents[1] / "benchmarks" / "plm" / "data"
CONTEXT = "Paris is big. It has a river. The river is the Seine. Many people visit it."
TEXTS = ["a fine film", "dull and long", "it works well enough", "not my kind of story", "great", "bad acting"]


@pytest.fixture(scope="module")
def workers(ray_cluster):
    """Two Ray workers for the whole module (they keep running between runs, as within one command)."""
    with RayExecutor(workers=2) as executor:
        yield executor


@pytest.fixture(scope="module")
def tiny_classifier():
    from interpeval.models import load

    return load("tiny-sequence-classification", device="cpu")


def _stored(path: Path, benchmark: str | None = None, drop: tuple[str, ...] = ()) -> dict:
    """Every run's instances by (benchmark, config), without the fields in ``drop`` (wall times)."""
    with Store(path) as store:
        return {(r.benchmark, json.dumps(r.config, sort_keys=True)): [
                    {k: v for k, v in row.items() if k not in drop} for row in store.instances(r.id)]
                for r in store.runs(benchmark)}


def _on_both(run, tmp_path: Path, executor: RayExecutor):
    """``run(store)`` locally and with ``executor`` (2 Ray workers), each on a fresh store; both stores' paths."""
    paths = tmp_path / "local.sqlite", tmp_path / "ray.sqlite"
    with Store(paths[0]) as store:
        run(store)
    sent = executor.chunks_sent
    with using(executor), Store(paths[1]) as store:
        run(store)
    assert executor.chunks_sent > sent  # the work went to the workers
    return paths


def test_evaluate_on_ray_equals_local(tmp_path, workers, tiny_classifier):
    from interpeval.evaluate import evaluate

    results = []

    def run(store):
        results.append(evaluate(tiny_classifier, TEXTS, ["gradient", "lime:n_samples=8"], ["faithfulness"],
                                store=store, chunk=2))

    local, ray = _on_both(run, tmp_path, workers)
    assert _stored(local) == _stored(ray) and _stored(local)
    assert results[0].aggregate == results[1].aggregate
    # the pass counts made on the workers reach the driver's result
    assert (results[1].passes, results[1].requests) == (results[0].passes, results[0].requests) != (0, 0)
    assert set(results[1].timings) == set(results[0].timings)


def test_quackie_run_on_ray_equals_local(tmp_path, workers):
    from interpeval.benchmarks.quackie.run import Classifier, parse_method, run_quackie
    from interpeval.models.base import Target

    qas = [{"id": f"q{i}", "question": q, "answers": [{"text": a, "answer_start": CONTEXT.index(a)}]}
           for i, (q, a) in enumerate([("Which city?", "Paris"), ("Which river?", "Seine"), ("Who visits?", "Many"),
                                       ("Is it big?", "big")])]
    squad = tmp_path / "hand.json"
    squad.write_text(json.dumps({"version": "v2.0", "data": [{"title": "Hand", "paragraphs": [
        {"context": CONTEXT, "qas": qas}]}]}))
    tiny = Classifier("Tiny", "tiny-sequence-classification", Target("class_prob"))
    methods = [parse_method("gradient"), parse_method("integrated_gradients:n_steps=4"),
               parse_method("lime:n_samples=6")]
    rows = []

    def run(store):
        rows.append(run_quackie([str(squad)], [tiny], methods, store=store, chunk=1, device="cpu",
                                log=lambda _: None).rows)

    local, ray = _on_both(run, tmp_path, workers)
    assert _stored(local) == _stored(ray) and _stored(local, "quackie")
    assert rows[0] == rows[1]


def test_plm_run_on_ray_equals_local(tmp_path, workers):
    from interpeval.benchmarks.plm.build import build
    from interpeval.benchmarks.plm.run import evaluate
    from interpeval.explain import get
    from interpeval.models import tiny

    golden = build(PLM_DATA, tmp_path / "data", ("en",), per_dimension=1,
                   dimensions=("semantics", "computation")).files["en"]
    model = tiny("masked-lm")
    ig = get("integrated_gradients")(n_steps=4, baseline="pad")
    local, ray = _on_both(lambda store: evaluate(golden, model, ig, "IG", store, chunk=2), tmp_path,
                         workers)
    assert _stored(local) == _stored(ray) and _stored(local)


def test_iqs_explanations_on_ray_equal_local(tmp_path, workers, tiny_classifier):
    from interpeval.benchmarks.iqs.explanations import explain_resumable
    from interpeval.benchmarks.iqs.protocol import sample_protocol
    from interpeval.benchmarks.iqs.tasks import TASKS, load_samples

    task = TASKS["sst2"]
    samples = sample_protocol(task, load_samples(task), per_side=2, seed=0)
    methods = {"input_x_gradient": {}, "lime": {"n_samples": 20, "regression": "lasso", "alpha": 3e-4}}
    local, ray = _on_both(lambda store: explain_resumable(store, tiny_classifier, task, samples, methods, chunk=2),
                          tmp_path, workers)
    assert _stored(local, drop=("cost_s",)) == _stored(ray, drop=("cost_s",))  # cost_s: measured wall time
    assert len(_stored(local)) == 2


def _attribute_lines(model, n: int, chunk: int, method: str = "integrated_gradients", params: dict | None = None,
                     texts: list[str] = TEXTS):
    from interpeval import explain
    from interpeval.benchmarks.attribute import AttributeLines

    lines = [(str(i), f"{texts[i % len(texts)]} number {i}") for i in range(n)]
    return AttributeLines(model, explain.build(method, params or {"n_steps": 48}, 0), method, lines,
                          "lines.txt", "fp", chunk=chunk)


#: 120 words: LIME-100's surrogate fit is large enough that OpenBLAS splits it over the driver's 2 threads (a Ray
#: worker has 1), which moved the last bits of every score before the fit was held to one BLAS thread
LONG = " ".join(f"{TEXTS[k % len(TEXTS)].split()[0]} {k}" for k in range(60))


@pytest.mark.parametrize(("method", "params"), [("lime", {"n_samples": 100}), ("kernel_shap", {"n_samples": 30})])
def test_lime_and_kernel_shap_on_ray_equal_local_bit_for_bit_whatever_the_chunks(tmp_path, workers, tiny_classifier,
                                                                                  method, params):
    texts = [*TEXTS[:2], LONG]
    with Store(tmp_path / "local.sqlite") as store:
        expected = resume(_attribute_lines(tiny_classifier, 3, 1, method, params, texts), store).outputs
    with Store(tmp_path / "ray.sqlite") as store:
        for chunk in (1, 2):  # chunk 2: one worker explains two inputs in one call, the other one
            sent = workers.chunks_sent
            outcome = resume(_attribute_lines(tiny_classifier, 3, chunk, method, params, texts), store, None,
                             workers)
            assert workers.chunks_sent - sent == -(-3 // chunk)
            assert outcome.outputs == expected


def _count(path: Path) -> tuple[int, int]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT COUNT(*), COUNT(DISTINCT instance_id) FROM instances").fetchone()


def test_a_worker_killed_mid_run_loses_nothing(tmp_path, workers, tiny_classifier):
    with Store(tmp_path / "local.sqlite") as store:
        expected = resume(_attribute_lines(tiny_classifier, 10, 1), store).outputs
    executor, sent, replaced = workers, workers.chunks_sent, workers.replaced
    killed = []

    def kill_a_worker(done, total):
        if not killed:  # after the first chunk is stored, the other chunks are queued on both workers
            killed.append(executor.worker_pids()[0])
            os.kill(killed[0], signal.SIGKILL)

    with Store(tmp_path / "ray.sqlite") as store:
        outcome = resume(_attribute_lines(tiny_classifier, 10, 1), store, kill_a_worker, executor)
    assert killed and executor.replaced == replaced + 1 and killed[0] not in executor.worker_pids()
    assert executor.chunks_sent - sent > 10  # the dead worker's chunks were sent again
    assert _count(tmp_path / "ray.sqlite") == (10, 10)  # every input stored exactly once
    assert outcome.outputs == expected  # values unchanged


def test_an_interrupted_run_sends_only_the_missing_chunks(tmp_path, workers, tiny_classifier):
    with Store(tmp_path / "local.sqlite") as store:
        expected = resume(_attribute_lines(tiny_classifier, 8, 2), store).outputs

    def interrupt(done, total):
        if done >= 4:
            raise KeyboardInterrupt  # Ctrl-C at the driver after two chunks of two lines are stored

    with Store(tmp_path / "ray.sqlite") as store:
        with pytest.raises(KeyboardInterrupt):
            resume(_attribute_lines(tiny_classifier, 8, 2), store, interrupt, workers)
        assert _count(tmp_path / "ray.sqlite") == (4, 4) and store.runs()[0].status == "failed"
        sent = workers.chunks_sent
        outcome = resume(_attribute_lines(tiny_classifier, 8, 2), store, None, workers)
        assert workers.chunks_sent - sent == 2  # lines 5-8: two chunks; the stored ones are not sent again
        assert outcome.computed == 4 and store.runs()[0].status == "finished"
    assert outcome.outputs == expected



def test_a_worker_starts_with_the_drivers_mkl_mode(monkeypatch):
    """A Ray worker is a fresh process whose MKL mode must be the driver's, or small matrix products differ in the
    last bit between them (docs/cluster.md): the actor is declared with the driver's value (here one unlike the
    package's default) in its runtime environment."""
    declared = {}

    class DeclaringRay:
        def remote(self, **options):
            declared.update(options)
            return lambda cls: type("Actor", (), {"remote": staticmethod(lambda *args: None)})

    monkeypatch.setenv("MKL_CBWR", "AUTO")
    RayExecutor(workers=1)._new_worker(DeclaringRay())
    assert declared["runtime_env"] == {"env_vars": {"MKL_CBWR": "AUTO"}}
