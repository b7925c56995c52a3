"""The builder's rules on real sentences (hand-read trees), perturbations, and a whole build on the slices."""

import json

import pytest

from interpeval.benchmarks.plm import computation, grammar, knowledge, reasoning, semantics
from interpeval.benchmarks.plm.build import (
    TRAINED_TEXTS,
    build,
    exclusion_hashes,
    spread,
    trained_text_hashes,
)
from interpeval.benchmarks.plm.perturb import insert_or_delete, transform
from interpeval.benchmarks.plm.records import Item, read_golden
from interpeval.errors import DataError


def _by_text(items, text):
    found = [it for it in items if it.sep.join(it.words) == text]
    assert found, f"no item for {text!r}"
    return found


def _shown(item):
    """Words with [MASK] in place of the answer, and the rationale words."""
    return item.text(), [item.words[i] for i in item.rationale]


def test_english_grammar_rules_read_the_tree(data_dir):
    pools = grammar.grammar_items(data_dir, "en")
    # EWT dev: "were" is aux of "married" whose nsubj is "we" -> the agreement cue is "we"
    (were,) = [it for it in _by_text(pools["verb_agreement"], "Four months later , we were married .")]
    assert (were.answer, _shown(were)[1]) == ("were", ["we"])
    # "this" (det) marks the number of "response"
    (response,) = _by_text(pools["noun_number"], "Darin Fisher wrote this response on January 25 , 2005 :")
    assert (response.answer, _shown(response)[1]) == ("response", ["this"])
    # "Themselves" is bound by the relative pronoun "that", whose antecedent is the noun "Books"
    (refl,) = pools["reflexive_antecedent"]
    assert (refl.answer, _shown(refl)[1]) == ("Themselves", ["Books"])
    assert refl.provenance["source"].endswith("en_ewt-ud-dev.conllu") and refl.provenance["line"] == 52  # the block starts at its "# newdoc" line


def test_chinese_grammar_rules_read_the_tree(data_dir):
    pools = grammar.grammar_items(data_dir, "zh")
    # 名 is clf of the numeral 1000, whose head is the noun 哈瑞迪
    (clf,) = _by_text(pools["classifier"], "目前至少有1000名哈瑞迪自願入伍。")
    assert (clf.answer, _shown(clf)[1]) == ("名", ["1000", "哈瑞迪"])
    # 的 (case) marks 街, which modifies 公司
    (de,) = _by_text(pools["de_particle"], "華爾街的公司反對政府的監督與管制。")
    assert (de.answer, _shown(de)[1]) == ("的", ["街", "公司"])


def test_perturbations_map_answer_and_rationale(data_dir):
    en = grammar.grammar_items(data_dir, "en")
    (response,) = _by_text(en["noun_number"], "Darin Fisher wrote this response on January 25 , 2005 :")
    passive = transform(response)
    assert (passive.text(), _shown(passive)[1]) == (
        "This [MASK] was written by Darin Fisher on January 25 , 2005 :", ["This"])
    assert passive.perturbation_rule == "active_to_passive"
    (have,) = _by_text(en["verb_agreement"], "I really have n't thought about writing a book .")
    deleted = insert_or_delete(have)  # "really" is a leaf advmod, neither answer nor rationale
    assert (deleted.text(), deleted.perturbation_rule) == ("I [MASK] n't thought about writing a book .",
                                                          "delete_leaf_modifier")
    (were,) = _by_text(en["verb_agreement"], "Four months later , we were married .")
    inserted = insert_or_delete(were)  # no dispensable leaf: a discourse marker goes in front
    assert inserted.text() == "In fact , four months later , we [MASK] married ." and _shown(inserted)[1] == ["we"]
    zh = grammar.grammar_items(data_dir, "zh")
    (de,) = _by_text(zh["de_particle"], "華爾街的公司反對政府的監督與管制。")
    bei = transform(de)
    assert (bei.text(), _shown(bei)[1]) == ("政府的監督與管制被華爾街[MASK]公司反對。", ["街", "公司"])


def test_semantics_knowledge_reasoning_computation_from_real_records(data_dir):
    wsc = semantics.wsc_items(data_dir)
    assert [it.text() for it in wsc][2] == ("The trophy doesn't fit into the brown suitcase because the [MASK] is "
                                            "too large .")
    # candidates' head words and the quote's content word decide the referent
    assert (wsc[2].answer, _shown(wsc[2])[1]) == ("trophy", ["trophy", "suitcase", "large"])
    assert knowledge.en_statement("Who led the Panthers in sacks?", "Kawann Short") == (
        ["[MASK]", "led", "the", "Panthers", "in", "sacks", "."], 0, "wh_subject")
    assert knowledge.en_statement("What is the Norse leader?", "Rollo")[0][-3:] == ["is", "[MASK]", "."]
    assert knowledge.en_statement("How many sacks did he have?", "11") is None
    assert knowledge.zh_statement("黑豹队的防守丢了多少分？", "308") == ("黑豹队的防守丢了", "分。", 0)
    # the measure word after the wh-word is already part of the answer "136 次"
    assert knowledge.zh_statement("贾里德在职业生涯中有多少次擒杀？", "136 次") == ("贾里德在职业生涯中有", "擒杀。", 0)
    (copa,) = [it for it in reasoning.reasoning_items(data_dir, "zh")["copa_connective"]
               if it.provenance["line"] == 1 and "val" in it.provenance["source"]]
    # XCOPA zh val line 1: effect question, label 1 -> choice2, joined with 所以
    assert copa.text() == "那人打开水龙头，[MASK]水从水龙头喷口流出。" and copa.answer == "所以"
    swapped = transform([it for it in reasoning.reasoning_items(data_dir, "zh")["copa_connective"]
                         if it.answer == "因为"][0])
    assert swapped.text() == "[MASK]它很易碎，所以该物品用气泡包装纸包着。"
    (m23k,) = [it for it in computation.computation_items(data_dir, "zh")["mwp_answer"]
               if it.provenance["id"] == "22203"]
    # x=280/(1/4)*(3/4): the three numbers of the equation are the rationale; the answer 840 is masked
    assert m23k.answer == "840" and _shown(m23k)[1] == ["280kg", "(1/4)kg", "(3/4)"]


def test_spread_shares_the_limit_and_walks_each_pool_evenly():
    def pool(rule, n):
        return [Item("en", "grammar", [str(i)], 0, [], rule, {}) for i in range(n)]

    chosen = spread({"a": pool("a", 10), "b": pool("b", 1), "c": pool("c", 4)}, 7)
    # b has 1, so a and c share the other 6 three each; a takes items 0, 3, 6 (steps of 10/3), c 0, 1, 2
    assert [(it.rule, it.words[0]) for it in chosen] == [("a", "0"), ("a", "3"), ("a", "6"), ("b", "0"),
                                                         ("c", "0"), ("c", "1"), ("c", "2")]


def test_build_writes_silver_records_each_original_with_partners(data_dir, tmp_path, tiny_mlm):
    summary = build(data_dir, tmp_path, ("en", "zh"), per_dimension=3, models={"en": tiny_mlm})
    assert summary.unavailable == {"en/reasoning": "XCOPA has no English and English COPA is not among the sources"}
    records = read_golden(summary.files["en"])
    originals = [r for r in records if r.sample_type == "ori"]
    assert len(originals) == 12  # 3 per dimension, four English dimensions
    assert all(r.rel_ids for r in originals)
    assert all(r.label == "silver" and r.meta["rule"] and r.meta["provenance"]["source"] for r in records)
    assert all(r.meta["unique"]["model"] == tiny_mlm.name for r in records)  # the English model flags uniqueness
    for ori in originals:
        for rel in ori.rel_ids:
            partner = next(r for r in records if r.sent_id == rel)
            assert partner.meta["ori_id"] == ori.sent_id and partner.answers == ori.answers
    zh = read_golden(summary.files["zh"])
    assert {r.dimension for r in zh} == {"grammar", "semantics", "knowledge", "reasoning", "computation"}
    assert all("unique" not in r.meta for r in zh)  # no Chinese model was given
    counts = json.loads((tmp_path / "build-summary.jsonl").read_text())["counts"]
    assert counts["zh"]["reasoning"]["transform"] == 3  # every COPA item has its clause swap


def test_build_excludes_texts_a_model_trained_on(data_dir, tmp_path):
    trained = tmp_path / "trained.txt"
    trained.write_text("Four months later, we were married.\n", "utf-8")
    summary = build(data_dir, tmp_path / "out", ("en",), per_dimension=50, dimensions=("grammar",),
                    exclude=exclusion_hashes([trained]))
    texts = {r.sent_text for r in read_golden(summary.files["en"])}
    assert not any("Four months later" in t or "four months later" in t for t in texts)
    assert any("Darin Fisher" in t for t in texts)
    assert summary.excluded["en"]["grammar"] >= 1


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
