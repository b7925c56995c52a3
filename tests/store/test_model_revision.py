"""A stored run is reused only for the same model *content*: retraining or replacing a head under its name makes
a new run (the name alone once served stale ExpMRC answers after `minilm-squad` was replaced)."""

import json

from interpeval.benchmarks.base import Benchmark, Record, RunKey, resume
from interpeval.models.zoo import revision
from interpeval.store import Store


def _artifact(folder, weights: bytes, base: str = "tiny-extractive-qa"):
    folder.mkdir(exist_ok=True)
    (folder / "overlay.json").write_text(json.dumps({"base": base, "kind": "extractive-qa"}))
    (folder / "overlay.safetensors").write_bytes(weights)
    (folder / "card.json").write_text("{}")
    return str(folder)


def test_revision_follows_the_weights_not_the_card(tmp_path):
    name = _artifact(tmp_path / "head", b"one")
    first = revision(name)
    assert len(first) == 16
    (tmp_path / "head" / "card.json").write_text('{"heldout": "re-measured"}')
    assert revision(name) == first
    (tmp_path / "head" / "overlay.safetensors").write_bytes(b"two")
    assert revision(name) != first
    assert revision("tiny-extractive-qa") == "" and revision("org/hub-model") == ""


def test_an_overlay_changes_with_its_base(tmp_path):
    base = _artifact(tmp_path / "base", b"base")
    head = _artifact(tmp_path / "head", b"head", base=base)
    before = revision(head)
    (tmp_path / "base" / "overlay.safetensors").write_bytes(b"retrained base")
    assert revision(head) != before


class Answers(Benchmark):
    def __init__(self, model: str) -> None:
        self.model, self.calls = model, 0

    def key(self) -> RunKey:
        return RunKey("answers", {"n": 2}, self.model, "data")

    def instances(self):
        return ["a", "b"]

    def instance_id(self, item) -> str:
        return item

    def compute(self, items):
        self.calls += len(items)
        return [Record({"answer": item}) for item in items]


def test_a_replaced_model_is_a_new_run_under_the_same_name(tmp_path):
    name = _artifact(tmp_path / "head", b"one")
    with Store(tmp_path / "s.sqlite") as store:
        bench = Answers(name)
        resume(bench, store)
        resume(bench, store)
        assert bench.calls == 2  # same content: reused
        (tmp_path / "head" / "overlay.safetensors").write_bytes(b"retrained")
        resume(bench, store)
        assert bench.calls == 4
        assert len(store.runs("answers")) == 2
