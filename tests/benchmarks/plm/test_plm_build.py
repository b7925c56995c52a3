"""The builder's rules on real sentences (hand-read trees), perturbations, and a whole build on the slices."""

import json

import pytest

from interpeval.benchmarks.plm.build import build, exclusion_hashes, spread
from interpeval.benchmarks.plm.records import Item, read_golden
from interpeval.errors import DataError
from interpeval.models import lineage


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
    (tmp_path / "my-mlm" / lineage.LINEAGE).write_text(json.dumps({"sha1": ["a1", "b2"]}))
    monkeypatch.chdir(tmp_path)
    assert lineage.read("my-mlm").hashes == {"a1", "b2"}  # a bare relative folder, as `load("my-mlm")` takes it
    assert lineage.read(str(tmp_path / "my-mlm")).hashes == {"a1", "b2"}
    assert lineage.read("no-such-model").hashes == frozenset()  # a hub name records nothing


def _record(lang, dimension, text, mask, rationale, rule, perturbation=None):
    """A hand-made record: English words split at spaces, Chinese characters one by one."""
    from interpeval.benchmarks.plm.records import to_record

    words = list(text) if lang == "zh" else text.split(" ")
    item = Item(lang, dimension, words, mask, rationale, rule, {}, perturbation=perturbation)
    return to_record(item, 0, {"lang": lang, "dimension": dimension, "rule": rule, "perturbation": perturbation})


def test_ambiguous_flag_needs_a_confident_other_answer_that_fits_the_rule():
    from interpeval.benchmarks.plm.unique import ambiguous_reason

    verb = _record("en", "grammar", "The dogs were barking and they were loud .", 6, [1, 2, 5], "verb_agreement")
    # the model is sure of "are", another form of be the rule chooses among, and "were" is not in its top 5
    reason = ambiguous_reason(verb, [("are", 0.7), ("seem", 0.1), ("got", 0.05)], 5, 0.3, "m")
    assert reason and "'are' fits the rule verb_agreement" in reason and "gold 'were' not in its top 5" in reason
    assert ambiguous_reason(verb, [("are", 0.7), ("were", 0.2)], 5, 0.3, "m") is None  # gold among the top k
    assert ambiguous_reason(verb, [("seem", 0.7), ("are", 0.2)], 5, 0.3, "m") is None  # "seem": not the rule's kind
    assert ambiguous_reason(verb, [("are", 0.2)], 5, 0.3, "m") is None  # not confident

    fact = _record("en", "knowledge", "The Eiffel Tower is in Paris .", 5, [1, 2], "wh_be+statement_content")
    assert "'London' fits" in ambiguous_reason(fact, [("London", 0.5)], 5, 0.3, "m")
    assert ambiguous_reason(fact, [("town", 0.5)], 5, 0.3, "m") is None  # an English fact's answer is a name
    assert ambiguous_reason(fact, [("paris", 0.5)], 5, 0.3, "m") is None  # the gold, lower-cased by the model
    wsc = _record("en", "semantics", "The trophy does not fit in the suitcase because the [X] is too big .",
                  10, [1, 7, 13], "wsc_referent")
    wsc.answers = "trophy"
    assert "'suitcase' fits" in ambiguous_reason(wsc, [("suitcase", 0.6)], 5, 0.3, "m")  # the other candidate
    assert ambiguous_reason(wsc, [("bag", 0.6)], 5, 0.3, "m") is None
    math = _record("en", "computation", "3 plus 4 makes 7 .", 3, [0, 1, 2], "equation_numbers")
    assert "'12' fits" in ambiguous_reason(math, [("12", 0.9)], 5, 0.3, "m")
    clf = _record("zh", "grammar", "三本书", 1, [0, 2], "classifier")
    assert "'张' fits" in ambiguous_reason(clf, [("张", 0.8)], 5, 0.3, "m")
    assert ambiguous_reason(clf, [("个", 0.8)], 5, 0.3, "m") is None  # the generic 个 is never a rule's answer
    assert ambiguous_reason(clf, [("的", 0.8)], 5, 0.3, "m") is None


def test_uniqueness_check_is_one_batched_pass_and_flags_originals_only(tiny_mlm):
    from interpeval.benchmarks.plm.unique import check

    ori = _record("en", "reasoning", "The man broke his toe because he dropped a hammer .", 9, [1, 2, 4],
                  "copa_repeat")
    part = _record("en", "reasoning", "In fact , the man broke his toe because he dropped a hammer .", 12,
                   [4, 5], "copa_repeat", "ins_del")
    other = _record("en", "grammar", "The dogs were barking .", 2, [1], "verb_agreement")
    calls = []
    fill = tiny_mlm.fill_mask

    class Counting:
        def __getattr__(self, name):
            return getattr(tiny_mlm, name)

        def fill_mask(self, texts, k=3):
            calls.append(len(texts))
            return fill(texts, k)

    flagged = check([ori, part, other], Counting(), k=3, confident=0.0)
    assert calls == [3]  # one pass over the batch, not one per record
    assert {"top_k", "unique", "p_top1"} <= set(part.meta["unique"]) and len(ori.meta["unique"]["top_k"]) == 3
    assert "ambiguous_flag" not in part.meta  # partners carry the model's answers, originals the flag
    assert flagged == sum(bool(r.meta["ambiguous_flag"]) for r in (ori, other))
    assert all(("ambiguous_reason" in r.meta) == r.meta["ambiguous_flag"] for r in (ori, other))


def test_unambiguous_only_keeps_unflagged_originals_with_their_partners():
    from interpeval.benchmarks.plm.run import limit_records

    a = _record("en", "grammar", "It [X] .", 1, [0], "verb_agreement")
    b = _record("en", "grammar", "They [X] .", 1, [0], "verb_agreement")
    b_ins = _record("en", "grammar", "In fact they [X] .", 3, [2], "verb_agreement", "ins_del")
    a.sent_id, b.sent_id, b_ins.sent_id, b.rel_ids = 0, 1, 2, [2]
    a.meta["ambiguous_flag"], b.meta["ambiguous_flag"] = True, False
    assert [r.sent_id for r in limit_records([a, b, b_ins], None, unambiguous_only=True)] == [1, 2]
