"""The builder's rules on hand-written sentences, including the failures the issue quotes; partners keep the answer;
table numbering and F1^Δ on a hand-made golden/predict pair."""

from interpeval.benchmarks.plm.grammar import classifier_for
from interpeval.benchmarks.plm.knowledge import en_statement, zh_statement
from interpeval.benchmarks.plm.perturb import insert_or_delete, partners, recheck, replace, transform
from interpeval.benchmarks.plm.records import GoldenRecord, Item
from interpeval.benchmarks.plm.tables import TABLE_NUMBERS, f1_delta
from interpeval.benchmarks.plm.words import is_en_content


def _item(words, mask, rationale, dimension="semantics", rule="wsc_referent", lang="en"):
    return Item(lang, dimension, words, mask, rationale, rule, {})


def test_function_words_keep_cue_words():
    # scikit-learn's stop list drops "full", "off", "first" and "bill"; the task's list keeps them
    assert all(is_en_content(w) for w in ("full", "off", "first", "Bill", "empty"))
    assert not any(is_en_content(w) for w in ("the", "was", "because", "he"))


def test_question_shapes_become_statements():
    assert en_statement("Who wrote Hamlet?", "Shakespeare")[:2] == (["[MASK]", "wrote", "Hamlet", "."], 0)
    assert en_statement("What is the capital of France?", "Paris")[:2] == (
        ["The", "capital", "of", "France", "is", "[MASK]", "."], 5)
    assert en_statement("When did Tesla die?", "1943")[0] == ["Tesla", "died", "in", "[MASK]", "."]
    # the failure: "[MASK] Windows NT protect ." — a do-question is never read as a subject question
    assert isinstance(en_statement("What does Windows NT protect?", "memory"), list) is False
    assert en_statement("What does Windows NT protect?", "memory")[0] == ["Windows", "NT", "protects", "[MASK]",
                                                                         "."]
    assert isinstance(en_statement("What languages is the word Tin shared among?", "Germanic"), str)
    assert isinstance(en_statement("What is the element called?", "tin"), str)  # verb belongs before the answer
    assert isinstance(en_statement("How many people live there?", "5"), str)


def test_chinese_wh_words_never_match_inside_why():
    assert isinstance(zh_statement("他为什么离开北京？", "生病"), str)  # the 什么 inside 为什么
    assert zh_statement("中国的首都是什么？", "北京") == ("中国的首都是", "。", 0)
    before, after, _ = zh_statement("这朵花是什么颜色？", "红色")
    assert (before, after) == ("这朵花是", "。")  # the noun the answer names is dropped


def test_classifier_lexicon_fixes_one_classifier():
    assert classifier_for("書") == {"本"} and classifier_for("北京大學") == {"所"}
    assert classifier_for("人") == set()  # 個/位/名: not one answer
    assert classifier_for("中心") == set()  # 心 alone matches only the whole noun


def test_deletion_never_breaks_a_phrase_and_names_keep_case():
    words = ["On", "the", "other", "hand", ",", "Bill", "passed", "the", "plate", "to", "John", "because", "John", "was", "full", "."]
    item = _item(words, 12, [5, 9, 14])
    partner = insert_or_delete(item)
    assert "other" in partner.words and partner.perturbation_rule == "insert_discourse_marker"
    assert partner.words[:4] == ["In", "fact", ",", "on"]  # a function word at the start is lower-cased
    bill = insert_or_delete(_item(["Bill", "passed", "the", "plate", "to", "John", "because", "John", "was", "full", "."], 7, [0, 5, 9]))
    assert "Bill" in bill.words  # the "bill"
    very = insert_or_delete(_item(["The", "man", "was", "very", "tired", "so", "the", "man", "slept", "."], 7, [1, 4]))
    assert very.words == ["The", "man", "was", "tired", "so", "the", "man", "slept", "."] and very.answer == "man"


def test_clause_swap_adds_no_connective_that_gives_the_answer():
    zh = Item("zh", "reasoning", ["水", "煮沸", "了", "，", "所以", "蒸汽", "从", "锅", "上升", "。"], 5, [0, 1, 4, 8],
              "copa_content", {})
    swapped = transform(zh)
    assert swapped.words[0] == "因为" and swapped.answer == "蒸汽"
    connective = Item("zh", "reasoning", ["水", "煮沸", "了", "，", "所以", "蒸汽", "上升", "。"], 4, [0, 1],
                      "copa_content", {})
    assert transform(connective) is None  # the answer is the connective: no swap can keep it hidden
    en = _item(["The", "man", "couldn't", "lift", "his", "son", "because", "the", "son", "was", "so", "heavy", "."], 9, [1, 5, 12])
    assert " ".join(transform(en).words) == "Because the son was so heavy , the man couldn't lift his son ."


def test_replacement_keeps_the_answer_and_never_numbers():
    item = _item(["The", "trophy", "did", "not", "fit", "in", "the", "suitcase", "because", "the", "trophy", "was", "too", "big", "."], 10, [13])
    partner = replace(item)
    assert partner is not None and partner.answer == "trophy" and partner.words[13] == "large"
    problem = Item("en", "computation", ["Twice", "a", "number", "increased", "by", "5", "is", "17", ".", "The", "answer", "is", "6", "."], 11,
                   [0, 5, 7], "equation_numbers", {})
    assert replace(problem) is None  # "Twice", "5", "17": number words are never replaced
    for p in partners(item):
        assert recheck(item, p) is None and p.answer == item.answer


def test_recheck_rejects_a_changed_number_or_lost_name():
    problem = Item("en", "computation", ["Tom", "has", "5", "apples", "and", "eats", "twice", "as", "many", ".", "The", "answer", "is", "10", "."],
                   13, [2, 6], "equation_numbers", {})
    six = Item("en", "computation", ["Tom", "has", "5", "apples", "and", "eats", "six", "as", "many", ".", "The", "answer", "is", "10", "."], 13,
               [2, 6], "equation_numbers", {}, perturbation="replace")
    assert recheck(problem, six) == "numbers changed"  # the "twice" -> "six" with the answer kept
    lower = Item("en", "computation", ["tom", "has", "5", "apples", "and", "eats", "twice", "as", "many", ".", "The", "answer", "is", "10", "."],
                 13, [2, 6], "equation_numbers", {}, perturbation="ins_del")
    assert recheck(_item(["In", "fact", "Tom", "has", "5", "apples", ".", "The", "answer", "is", "5", "."], 10, [4]),
                   _item(["In", "fact", "tom", "has", "5", "apples", ".", "The", "answer", "is", "5", "."], 10, [4])) == \
        "a name lost or lower-cased"
    assert lower.answer == problem.answer


def _rec(sid, tokens, rationale, sample_type, perturbation=None, ori=None, rel=()):
    meta = {"lang": "en", "dimension": "grammar", "perturbation": perturbation}
    if ori is not None:
        meta["ori_id"] = ori
    return GoldenRecord(sid, " ".join(tokens), tokens, "is", [rationale], sample_type, list(rel), meta)


def test_tables_numbered_as_the_paper_and_f1_delta_by_hand():
    # Chinese is Tables 4-7, English 8-11 (prediction, interpretability, prediction per type, rationale per type)
    assert TABLE_NUMBERS["zh"] == (4, 5, 6, 7) and TABLE_NUMBERS["en"] == (8, 9, 11, 10)
    ori = _rec(0, ["The", "dog", "[MASK]", "big", "."], [1], "ori", rel=(1, 2))
    ins = _rec(1, ["In", "fact", "the", "dog", "[MASK]", "big", "."], [3], "disturb", "ins_del", 0)
    rep = _rec(2, ["The", "hound", "[MASK]", "big", "."], [1], "disturb", "replace", 0)
    by_id = {r.sent_id: r for r in (ori, ins, rep)}
    # token-F1 per record as stored by a run: the original 1.0, its Ins./Del. partner 0.5, its Rep. partner 0.25
    outputs = {0: {"f1": 1.0}, 1: {"f1": 0.5}, 2: {"f1": 0.25}}
    assert f1_delta([ins], by_id, outputs) == 0.5  # 1.0 - 0.5
    assert f1_delta([ins, rep], by_id, outputs) == 1.0 - (0.5 + 0.25) / 2
    assert f1_delta([ins], by_id, {1: {"f1": 0.5}}) != f1_delta([ins], by_id, {1: {"f1": 0.5}})  # nan: no original
