"""What a trained head saw (lineage.json): one hash for every benchmark, a head's base included, shipped with every
head and consistent with its card."""

import json

from interpeval.models import lineage, zoo


def test_content_hash_ignores_case_spacing_and_ptb_tokenisation():
    assert lineage.content_hash("They wo n't  go -lrb- really -rrb- .") == lineage.content_hash("they won't go (really).")
    assert lineage.content_hash("a", "b") != lineage.content_hash("a b") != lineage.content_hash("a")


def test_every_shipped_head_lists_what_it_trained_on_and_its_card_says_what_was_hashed():
    heads = [p for p in zoo.artifacts_dir().iterdir() if (p / "card.json").is_file()]
    assert heads
    for folder in heads:
        record = json.loads((folder / lineage.LINEAGE).read_text())
        card = json.loads((folder / "card.json").read_text())
        assert record["format"] == lineage.FORMAT and len(record["sha1"]) > 100, folder.name
        assert card["lineage"] == {"file": lineage.LINEAGE, "what": record["what"], "n": len(record["sha1"])}
        assert f"{len(record['sha1'])} content hashes in `lineage.json`" in (folder / "MODEL_CARD.md").read_text()
        assert card["languages"], folder.name  # what zoo.shipped_heads reads
        # one list per head: the three older mechanisms are gone
        assert not {"trained_inputs.json", "trained_texts.json", "quackie_split.json"} & {
            p.name for p in folder.iterdir()}


def test_a_head_trained_from_another_zoo_head_has_seen_that_heads_texts_too():
    own = set(json.loads((zoo.artifacts_dir() / "minilm-quackie-cls" / lineage.LINEAGE).read_text())["sha1"])
    squad = lineage.read("minilm-squad").hashes
    classifier = lineage.read("minilm-quackie-cls")
    assert classifier.hashes == own | squad and squad - own  # the QA head's paragraphs, through overlay.json base
    assert "and its base minilm-squad's" in classifier.what


def test_a_model_that_records_nothing_drops_nothing_and_says_so():
    seen = lineage.read("tiny-sequence-classification")
    assert seen.drop(["a", "b"], lambda t: t) == (["a", "b"], 0)
    assert "records no training data" in seen.note(0)


def test_drop_counts_what_a_model_saw(tmp_path, capsys):
    (tmp_path / lineage.LINEAGE).write_text(json.dumps(lineage.record(["Seen text.", ("q", "p")], "test")))
    seen = lineage.read(str(tmp_path))
    kept, dropped = seen.drop([("seen  TEXT.", None), ("q", "p"), ("q", None), ("new", None)], lambda r: r)
    assert kept == [("q", None), ("new", None)] and dropped == 2
    assert lineage.say_trained(str(tmp_path), ["seen text.", "other"]) == 1
    assert "1 of 2 inputs are ones" in capsys.readouterr().err
