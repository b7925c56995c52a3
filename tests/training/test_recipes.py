"""Zoo recipes: the splits keep every evaluated paragraph out of training (checked on the real shared data)."""

import json
import shutil
from pathlib import Path

import pytest

from interpeval.benchmarks.quackie.data import SQUAD2_TRAIN_ARTICLES
from interpeval.models import lineage
from interpeval.models.zoo import shipped_head, shipped_heads
from interpeval.text.ptb import detokenize_ptb
from interpeval.training.chinese import chinese_records
from interpeval.training.data import _pseudo_evidence
from interpeval.training.recipes import RECIPES, prepared_lineage
from interpeval.training.splits import bucket, part_of

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_data = pytest.mark.skipif(not (DATA / "squad").is_dir(), reason="needs ../shared/data beside the checkout")


def _contexts(path: Path) -> set[str]:
    return {p["context"] for a in json.loads(path.read_text())["data"] for p in a["paragraphs"]}


def test_split_rules_are_stable_hashes():
    # sha1("new_wiki/Ant") etc. are fixed numbers: the split is the same on every machine and Python version
    assert [bucket(k) for k in ("a", "b", "c")] == [int(__import__("hashlib").sha1(k.encode()).hexdigest(), 16) % 20
                                                    for k in ("a", "b", "c")]
    assert {part_of(str(i)) for i in range(200)} == {"train", "dev", "test"}


def test_ptb_detokenisation():
    assert detokenize_ptb("they wo n't sit still -lrb- really -rrb- , do n't they ?") == \
        "they won't sit still (really), don't they?"


@needs_data
def test_answerability_split_never_trains_on_evaluated_paragraphs():
    prepared = RECIPES["minilm-quackie-cls"].build(DATA)
    trained = {e.pair for e in prepared.train}
    evaluated = (_contexts(DATA / "xquad" / "xquad.en.json") - _contexts_of_titles(SQUAD2_TRAIN_ARTICLES)) \
        | _contexts(DATA / "expmrc" / "squad" / "expmrc-squad-dev.json")
    package = Path(__file__).resolve().parents[2] / "src" / "interpeval" / "data" / "squad"
    for sample in package.glob("*.json"):
        evaluated |= _contexts(sample)
    # silver negatives shorten contexts; what matters is that no evaluated paragraph is a training context
    assert not trained & evaluated
    test = prepared.tests["squad2-heldout"]
    assert {0, 1} == {e.label for e in test.examples} and test.baseline["balanced_accuracy"] == 0.5
    # its lineage lists every paragraph of the SQuAD 2.0 training articles and none that a benchmark evaluates
    record = prepared_lineage(prepared)
    hashes = set(record["sha1"])
    assert {lineage.content_hash(c) for c in _contexts_of_titles(SQUAD2_TRAIN_ARTICLES) - evaluated} <= hashes
    assert not {lineage.content_hash(c) for c in evaluated} & hashes


def _contexts_of_titles(titles) -> set[str]:
    data = json.loads((DATA / "squad" / "squad2-dev-part.json").read_text())["data"]
    return {p["context"] for a in data if a["title"] in titles for p in a["paragraphs"]}


@needs_data
def test_chinese_qa_leaves_out_every_expmrc_paragraph():
    records, banned = chinese_records(DATA)
    expmrc = _contexts(DATA / "expmrc" / "cmrc2018" / "expmrc-cmrc2018-dev.json")
    assert banned == expmrc and not {r["context"] for r in records} & expmrc
    assert len(records) == 2775  # SOURCES.md: trial + the dev questions sharing no paragraph with ExpMRC
    r = next(r for r in records if len(r["context"]) > 200)
    start, evidence = _pseudo_evidence(r["question"], r["context"], *r["answers"][0], "zh")
    assert evidence and r["context"][start:start + len(evidence)] == evidence


@needs_data
def test_sst2_uses_the_standard_splits():
    prepared = RECIPES["minilm-sst2"].build(DATA)
    assert (len(prepared.train), len(prepared.dev), len(prepared.tests["sst2-test"].examples)) == (6920, 872, 1821)


@needs_data
def test_masked_lm_recipes_record_the_paragraphs_they_trained_on(tmp_path):
    from interpeval.benchmarks.plm import knowledge

    record = prepared_lineage(RECIPES["me5-small-mlm"].build(DATA))
    (tmp_path / lineage.LINEAGE).write_text(json.dumps(record))
    hashes = lineage.read(str(tmp_path)).hashes
    records, _ = chinese_records(DATA)
    assert {lineage.content_hash(r["context"]) for r in records} <= hashes
    assert not {lineage.content_hash(c) for c in _contexts(DATA / "xquad" / "xquad.zh.json")} & hashes
    # the masked-LM benchmark's Chinese knowledge items from those paragraphs are the ones a build skips
    items = [it for pool in knowledge.knowledge_items(DATA, "zh").values() for it in pool]
    kept = [it for it in items if it.provenance["text_sha1"] not in hashes]
    assert 0 < len(kept) < len(items)
    assert {it.provenance["source"] for it in items if it not in kept} == {"cmrc2018/cmrc2018_trial.json",
                                                                          "cmrc2018/cmrc2018_dev.json"}


@needs_data
def test_qnli_test_rows_share_no_question_or_sentence_with_training():
    prepared = RECIPES["minilm-qnli"].build(DATA)
    test = prepared.tests["qnli-test"].examples
    trained_texts = {e.text for e in prepared.train} | {e.pair for e in prepared.train}
    assert not ({e.text for e in test} | {e.pair for e in test}) & trained_texts
    assert 0.3 < len(test) / 5463 < 0.37 and prepared.dev  # about a third of the 5,463 dev rows; a dev part


def test_linked_groups_join_rows_through_shared_texts():
    from interpeval.training.splits import linked_groups

    groups = linked_groups([("q1", "s1"), ("q2", "s1"), ("q2", "s2"), ("q3", "s3")])
    assert groups[0] == groups[1] == groups[2] != groups[3]


def test_shipped_heads_serve_a_language_own_base_first(tmp_path, monkeypatch):
    from interpeval.errors import InterpevalError
    from interpeval.models import zoo

    monkeypatch.setattr(zoo, "artifacts_dir", lambda: tmp_path)
    for name in ("me5-small-mlm", "minilm-mlm", "me5-small-c3"):  # the cards their recipes write
        recipe = RECIPES[name]
        (tmp_path / name).mkdir()
        (tmp_path / name / "overlay.json").write_text(json.dumps({"kind": recipe.kind, "base": recipe.base}))
        (tmp_path / name / "card.json").write_text(json.dumps({"kind": recipe.kind, "base": recipe.base,
                                                               "languages": recipe.served()}))
    assert shipped_heads("masked-lm", "en") == ["minilm-mlm", "me5-small-mlm"]  # me5-small-mlm trains on English too
    assert shipped_heads("masked-lm", "zh") == ["me5-small-mlm"]
    assert shipped_heads("masked-lm") == ["me5-small-mlm", "minilm-mlm"]
    assert shipped_head("multiple-choice", "zh") == "me5-small-c3"
    with pytest.raises(InterpevalError, match="no trained multiple-choice head for 'en'"):  # Chinese-only: not English
        shipped_heads("multiple-choice", "en")
    shutil.rmtree(tmp_path / "minilm-mlm")
    assert shipped_head("masked-lm", "en") == "me5-small-mlm"
