"""Every benchmark, run twice on the same store: the second run makes no model pass and stores nothing new.

Model passes are counted at ``Model.forward`` (every adapter's scoring, prediction and explainer path goes through
it); stored work is counted as instances in the store.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from interpeval.benchmarks.base import Benchmark, Record, RunKey, resume
from interpeval.store import Store

CONTEXT = "Paris is big. It has a river. The river is the Seine."


def _stored(db):
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM instances").fetchone()[0]


def _twice(run, db, passes):
    """Run, then rerun; the rerun's model passes and new stored instances (both must be 0), and both results."""
    first = run()
    stored, before = _stored(db), passes["n"]
    assert before > 0 and stored > 0
    second = run()
    return passes["n"] - before, _stored(db) - stored, first, second


def test_quackie(tmp_path, passes):
    from interpeval.benchmarks.quackie.run import Classifier, parse_method, run_quackie
    from interpeval.models.base import Target

    qas = [{"id": f"q{i}", "question": q, "answers": [{"text": a, "answer_start": s}]}
           for i, (q, a, s) in enumerate([("Which city?", "Paris", 0), ("Which river?", "Seine", 47)])]
    squad = tmp_path / "hand.json"
    squad.write_text(json.dumps({"version": "v2.0", "data": [{"title": "Hand", "paragraphs": [
        {"context": CONTEXT, "qas": qas}]}]}))
    tiny = Classifier("Tiny", "tiny-sequence-classification", Target("class_prob"))
    methods = [parse_method("gradient"), parse_method("lime:n_samples=6")]
    db = tmp_path / "s.sqlite"

    def run():
        with Store(db) as store:
            return run_quackie([str(squad)], [tiny], methods, store=store, official=True, log=lambda _: None)

    new_passes, new_rows, first, second = _twice(run, db, passes)
    assert (new_passes, new_rows) == (0, 0)
    assert first.rows == second.rows and first.selection == second.selection and first.checks == second.checks


def test_expmrc(tmp_path, passes):
    from interpeval.benchmarks.expmrc.tables import run_table3

    passage = "Tom lives in Paris. He likes the city. It is big."
    span_file = tmp_path / "span.json"
    span_file.write_text(json.dumps({"version": "expmrc-squad-handmade", "data": [{"title": "t", "paragraphs": [
        {"context": passage, "qas": [
            {"id": "q1", "question": "Where does Tom live?",
             "answers": [{"text": "Paris", "answer_start": 13}, {"text": "in Paris", "answer_start": 10}],
             "evidences": ["Tom lives in Paris.", "Tom lives in Paris. He likes the city."]},
            {"id": "q2", "question": "What does he like?",
             "answers": [{"text": "the city", "answer_start": 29}, {"text": "the city", "answer_start": 29}],
             "evidences": ["He likes the city.", "likes the city. It is"]}]}]}]}))
    db = tmp_path / "s.sqlite"

    def run():
        run_table3({"squad": span_file}, tmp_path / "out", qa_model="tiny-extractive-qa", store_path=db)
        return json.loads((tmp_path / "out" / "table3.json").read_text())

    new_passes, new_rows, first, second = _twice(run, db, passes)
    assert (new_passes, new_rows) == (0, 0)
    assert first == second


def test_probing(tmp_path, passes):
    from interpeval.benchmarks.probing.grid import ProbingGrid
    from interpeval.benchmarks.probing.ud import UDConverter

    tasks = tmp_path / "tasks"
    UDConverter().convert([str(Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "ud" / "UD_Turkish-IMST")], tasks)
    for path in tasks.glob("*.csv"):
        if path.name != "tr_imst_no_sorting_Number.csv":
            path.unlink()
    db = tmp_path / "s.sqlite"

    def run():
        return ProbingGrid([tasks], model="tiny-encoder", cache_dir=tmp_path / "cache", store=db,
                           aggregations=("avg",), probe_params={"epochs": 2}).run()

    new_passes, new_rows, first, second = _twice(run, db, passes)
    assert (new_passes, new_rows) == (0, 0)
    assert second["units"] == 0 and second["run_id"] == first["run_id"]


def test_attribute_and_evaluate(tmp_path, passes):
    from interpeval import explain
    from interpeval.benchmarks.attribute import AttributeLines
    from interpeval.evaluate import evaluate
    from interpeval.models import load

    model = load("tiny-sequence-classification")
    lines = [("1", "a fine film"), ("2", "dull and long"), ("3", "it works")]
    db = tmp_path / "s.sqlite"

    def run():
        with Store(db) as store:
            bench = AttributeLines(model, explain.get("integrated_gradients")(n_steps=4), "integrated_gradients",
                                   lines, "lines.txt", "fp", chunk=2)
            attributed = resume(bench, store)
            evaluated = evaluate(model, [t for _, t in lines], ["gradient", "lime:n_samples=8"], ["faithfulness"],
                                 store=store, chunk=2)
            return attributed.outputs, evaluated.aggregate, evaluated.computed

    new_passes, new_rows, first, second = _twice(run, db, passes)
    assert (new_passes, new_rows) == (0, 0)
    assert first[:2] == second[:2] and (first[2], second[2]) == (3, 0)


class _Counting(Benchmark):
    """Squares numbers; stops once the outputs hold ``stop`` odd squares."""

    def __init__(self, n, chunk, stop=None, extra=None):
        self.n, self.chunk, self.stop, self.extra = n, chunk, stop, extra or {}
        self.calls: list[list[int]] = []

    def key(self):
        return RunKey("counting", {"n": self.n, **self.extra})

    def instances(self):
        return list(range(self.n))

    def instance_id(self, item):
        return str(item)

    def compute(self, items):
        self.calls.append(list(items))
        return [Record({"square": i * i}, {"odd": float(i % 2)}) for i in items]

    def summarize(self, outputs):
        return {"": {"total": float(sum(o["square"] for o in outputs))}}

    def enough(self, outputs):
        return self.stop is not None and sum(o["square"] % 2 for o in outputs) >= self.stop


def test_resume_reads_once_fills_gaps_and_stops_early(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        partial = _Counting(7, chunk=3, stop=2)
        out = resume(partial, store)
        assert partial.calls == [[0, 1, 2], [3, 4, 5]]  # the second odd square (9) is in the second chunk
        assert [o["square"] for o in out.outputs] == [0, 1, 4, 9, 16, 25] and out.run.metrics()["total"] == 55
        run = store.run("counting", {"n": 7})
        store._conn.execute("DELETE FROM instances WHERE run_id = ? AND instance_id = '1'", (run.id,))
        full = _Counting(7, chunk=3)
        out = resume(full, store)
        assert full.calls == [[1], [6]]  # only the gaps, in order; stored items are not recomputed
        assert [o["square"] for o in out.outputs] == [i * i for i in range(7)] and out.computed == 2
        again = _Counting(7, chunk=3)
        assert resume(again, store).computed == 0 and again.calls == []
        other = _Counting(7, chunk=3, extra={"chunk": 3})  # a result-changing option is a new run
        assert resume(other, store).run.id != run.id
