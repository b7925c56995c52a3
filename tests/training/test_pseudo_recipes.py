"""ExpMRC pseudo-data training recipes (CMRC 2018 and C3 train with silver evidence): what the files share with the
held-out sets, what the builders make of them, and one run of each through the recipe path on a tiny model."""

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest
from safetensors.torch import load_file

from interpeval.errors import DataError
from interpeval.training.chinese import c3_pseudo_examples, chinese_records
from interpeval.training.recipes import RECIPES, run_recipe

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
PSEUDO = DATA / "expmrc" / "pseudo_training_data"
needs_data = pytest.mark.skipif(not (PSEUDO / "train-pseudo-c3.json").is_file(),
                                reason="needs ../shared/data (with ExpMRC's pseudo training data) beside the checkout")


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _paragraphs(path: Path) -> list[tuple[str, str, list[str]]]:
    """(title, context, question ids) of every paragraph of a SQuAD-format file."""
    return [(a.get("title", ""), p["context"], [q["id"] for q in p["qas"]])
            for a in _read(path)["data"] for p in a["paragraphs"]]


def _inside(texts: set[str], others: set[str]) -> set[str]:
    """The texts that occur inside one of ``others`` (a shared paragraph, or one paragraph quoting another)."""
    joined = "\x00".join(others)
    return {t for t in texts if t in joined}


def _is_dev(key: str) -> bool:  # the recipes' dev slice, re-derived here: sha1 % 20 == 4
    return int(hashlib.sha1(key.encode("utf-8")).hexdigest(), 16) % 20 == 4


@needs_data
def test_pseudo_training_files_share_no_article_or_paragraph_with_held_out_sets():
    train = _paragraphs(PSEUDO / "train-pseudo-cmrc2018.json")
    titles, contexts = {t for t, _, _ in train}, {c for _, c, _ in train}
    ids = {i for _, _, qids in train for i in qids}
    for held in ("expmrc/cmrc2018/expmrc-cmrc2018-dev.json", "cmrc2018/cmrc2018_trial.json",
                 "cmrc2018/cmrc2018_dev.json", "xquad/xquad.zh.json"):
        other = _paragraphs(DATA / held)
        other_contexts = {c for _, c, _ in other}
        assert not titles & {t for t, _, _ in other}, held
        assert not ids & {i for _, _, qids in other for i in qids}, held
        assert not _inside(other_contexts, contexts) and not _inside(contexts, other_contexts), held
    # C3 ids are numbered per split (18 ids such as 'm1-4' name different documents in train and dev): documents
    # are compared by their text
    c3_train = {d["article"] for d in _read(PSEUDO / "train-pseudo-c3.json")["data"]}
    c3_dev = {d["article"] for d in _read(DATA / "expmrc" / "c3" / "expmrc-c3-dev.json")["data"]}
    assert not _inside(c3_dev, c3_train) and not _inside(c3_train, c3_dev)


@needs_data
def test_c3_builder_keeps_every_train_question_with_its_silver_evidence():
    prepared = RECIPES["me5-small-c3"].build(DATA)
    docs = _read(PSEUDO / "train-pseudo-c3.json")["data"]
    questions = [(d, j) for d in docs for j in range(len(d["questions"]))]
    assert len(prepared.train) + len(prepared.dev) == len(questions) == 11869
    assert len(prepared.dev) == sum(_is_dev(d["article"]) for d, _ in questions) > 0
    by_question = {(e.context, e.question): e for e in prepared.train + prepared.dev}
    for d, j in questions[::97]:
        e = by_question[(d["article"], d["questions"][j])]
        options = [o for o in d["options"][j] if o]  # the padding to four options is dropped
        assert e.options == options and "ABCD"[e.label] == d["answers"][j]
        assert e.evidence_text == d["evidences"][j][0] == e.context[e.evidence_start:][:len(e.evidence_text)]
    assert {len(e.options) for e in prepared.train} == {2, 3, 4}
    test = prepared.tests["expmrc-c3"]
    assert len(test.examples) == sum(len(d["questions"]) for d in _read(DATA / "expmrc/c3/expmrc-c3-dev.json")["data"])
    assert round(test.baseline["accuracy"], 3) == 0.515  # the overlap scorer, as `interpeval expmrc baselines`
    assert 0 < test.baseline["majority_accuracy"] < 0.5 and 0 < test.baseline["evidence_f1"] < 1


@pytest.mark.slow
@needs_data
def test_cmrc_pseudo_builder_trains_on_cmrc_train_and_the_clean_trial_dev():
    prepared = RECIPES["me5-small-cmrc-pseudo"].build(DATA)
    silver = [(c, q) for a in _read(PSEUDO / "train-pseudo-cmrc2018.json")["data"] for p in a["paragraphs"]
              for c, q in [(p["context"], qa) for qa in p["qas"]]]
    clean, _ = chinese_records(DATA)
    contexts = [c for c, _ in silver] + [r["context"] for r in clean]
    assert len(prepared.train) + len(prepared.dev) == len(silver) + len(clean) == 10142 + 2775
    assert len(prepared.dev) == sum(_is_dev(c) for c in contexts) > 0
    examples = {(e.context, e.question): e for e in prepared.train + prepared.dev}
    for context, qa in silver[::53]:
        e = examples[(context, qa["question"])]
        assert e.evidence_text == qa["evidences"][0] and context.find(e.evidence_text) == e.evidence_start
    # every answer sits at its offset (the 21 + 7 one-character-off offsets of the files are moved)
    assert all(e.context[e.answer_start:e.answer_start + len(e.answer_text)] == e.answer_text
               for e in examples.values())
    for test, file in (("expmrc-cmrc2018", "expmrc/cmrc2018/expmrc-cmrc2018-dev.json"), ("xquad-zh", "xquad/xquad.zh.json")):
        assert len(prepared.tests[test].examples) == sum(len(qids) for *_, qids in _paragraphs(DATA / file))
    xquad = prepared.tests["xquad-zh"].examples
    assert not {e.context for e in xquad} & {e.context for e in examples.values()}


def test_c3_reader_names_the_bad_record(tmp_path):
    bad = tmp_path / "train-pseudo-c3.json"
    doc = {"id": "m1-1", "article": "他今天去了北京。", "questions": ["他去了哪里?"], "options": [["北京", "上海", ""]],
           "answers": ["C"], "evidences": [["他今天去了北京。"]]}
    bad.write_text(json.dumps({"version": "1.0", "data": [doc]}))
    with pytest.raises(DataError, match=r"data\[0\] \(id 'm1-1'\) question 0: answer 'C' is not one of the 2"):
        c3_pseudo_examples(bad, set())
    bad.write_text(json.dumps({"version": "1.0", "data": [{**doc, "answers": []}]}))
    with pytest.raises(DataError, match="one entry per question"):
        c3_pseudo_examples(bad, set())
    bad.write_text(json.dumps({"version": "1.0", "data": [{**doc, "answers": ["A"]}]}))
    (example,) = [e for _, e in c3_pseudo_examples(bad, set())]
    assert example.options == ["北京", "上海"] and example.evidence_start == 0
    assert c3_pseudo_examples(bad, {doc["article"]}) == []  # a held-out document is never trained on


def _small_root(root: Path) -> Path:
    """The files the two recipes read, each cut to its first entries: the real builders on little data."""
    keep = {"expmrc/cmrc2018/expmrc-cmrc2018-dev.json": 3, "cmrc2018/cmrc2018_trial.json": 2,
            "cmrc2018/cmrc2018_dev.json": 2, "xquad/xquad.zh.json": 1, "expmrc/c3/expmrc-c3-dev.json": 6,
            "expmrc/pseudo_training_data/train-pseudo-cmrc2018.json": 40,
            "expmrc/pseudo_training_data/train-pseudo-c3.json": 60}
    for name, n in keep.items():
        raw = _read(DATA / name)
        data = raw["data"][:n]
        if name.startswith("xquad"):
            data = [{**data[0], "paragraphs": data[0]["paragraphs"][:2]}]
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(json.dumps({**raw, "data": data}, ensure_ascii=False), encoding="utf-8")
    return root


@needs_data
@pytest.mark.parametrize("name, test_name", [("me5-small-cmrc-pseudo", "expmrc-cmrc2018"),
                                             ("me5-small-c3", "expmrc-c3")])
def test_pseudo_recipe_runs_end_to_end_and_resumes(tmp_path, monkeypatch, name, test_name):
    monkeypatch.setitem(RECIPES, name, dataclasses.replace(RECIPES[name], base="tiny-encoder"))
    root, out = _small_root(tmp_path / "data"), tmp_path / name
    settings = {"max_steps": 3, "batch_size": 4, "max_length": 128, "eval_every": 2}
    part = run_recipe(name, root, out, device="cpu", overrides={**settings, "steps_this_run": 1})
    assert part["finished"] is False and part["steps"] == 1 and (out / "checkpoint.pt").is_file()
    assert not (out / "card.json").exists()
    done = run_recipe(name, root, out, device="cpu", overrides=settings)  # resumes from the checkpoint
    assert done["steps"] == 3 and not (out / "checkpoint.pt").exists()
    card = json.loads((out / "card.json").read_text())
    assert card["evidence_lambda"] == 0.1 and card["steps"] == 3  # the paper's λ, the recipe's default
    heldout = card["heldout"][test_name]
    assert {"evidence_f1", "all_f1", "mss_q_evidence_f1"} <= set(heldout["metrics"]) and heldout["baseline"]
    assert heldout["n"] == len(RECIPES[name].build(root).tests[test_name].examples)
    assert "pseudo_training_data" in "".join(card["split"]) and (out / "MODEL_CARD.md").is_file()
    assert any(k.startswith("evidence_head.") for k in load_file(str(out / "overlay.safetensors")))
