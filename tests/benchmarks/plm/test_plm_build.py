"""The builder's rules on real sentences (hand-read trees), perturbations, and a whole build on the slices."""

import json

import pytest

from interpeval.benchmarks.plm.build import (
    TRAINED_TEXTS,
    build,
    exclusion_hashes,
    spread,
    trained_text_hashes,
)
from interpeval.benchmarks.plm.records import Item, read_golden
from interpeval.errors import DataError


def _by_text(items, text):
    found = [it for it in items if it.sep.join(it.words) == text]
    assert found, f"no item for {text!r}"
    return found


def _shown(item):
    """Words with [MASK] in place of the answer, and the rationale words."""
    return item.text(), [item.words[i] for i in item.rationale]


def test_spread_shares_the_limit_and_walks_each_pool_evenly():
    def pool(rule, n):
        return [Item("en", "grammar", [str(i)], 0, [], rule, {}) for i in range(n)]

    chosen = spread({"a": pool("a", 10), "b": pool("b", 1), "c": pool("c", 4)}, 7)
    # b has 1, so a and c share the other 6 three each; a takes items 0, 3, 6 (steps of 10/3), c 0, 1, 2
    assert [(it.rule, it.words[0]) for it in chosen] == [("a", "0"), ("a", "3"), ("a", "6"), ("b", "0"),
                                                         ("c", "0"), ("c", "1"), ("c", "2")]


def test_build_excludes_texts_a_model_trained_on(data_dir, tmp_path):
    trained = tmp_path / "trained.txt"
    trained.write_text("Four months later, we were married.\n", "utf-8")
    summary = build(data_dir, tmp_path / "out", ("en",), per_dimension=50, dimensions=("grammar",),
                    exclude=exclusion_hashes([trained]))
    texts = {r.sent_text for r in read_golden(summary.files["en"])}
    assert not any("Four months later" in t or "four months later" in t for t in texts)


def test_missing_source_is_reported_before_work(tmp_path):
    with pytest.raises(DataError, match="en_ewt-ud-dev.conllu: source file missing"):
        build(tmp_path, tmp_path / "out", ("en",))


def test_trained_texts_are_read_from_a_folder_named_as_the_model_loader_resolves_it(tmp_path, monkeypatch):
    (tmp_path / "my-mlm").mkdir()
    (tmp_path / "my-mlm" / TRAINED_TEXTS).write_text(json.dumps({"text_sha1": ["a1", "b2"]}))
    monkeypatch.chdir(tmp_path)
    assert trained_text_hashes("my-mlm") == {"a1", "b2"}  # a bare relative folder, as `load("my-mlm")` takes it
    assert trained_text_hashes(str(tmp_path / "my-mlm")) == {"a1", "b2"}
    assert trained_text_hashes("no-such-model") == frozenset()  # a hub name records nothing
