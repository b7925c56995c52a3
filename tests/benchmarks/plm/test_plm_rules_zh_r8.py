"""Round 8's rules for the Chinese cells and for reasoning and computation, each on the failures the blind review of
seed 5151 found (docs/plm-review-5151-zh.tsv) and on hand-written sentences the rule must keep."""

import json

import pytest

from interpeval.benchmarks.plm.knowledge import _item, one_answer_relation, self_contained, zh_statement
from interpeval.benchmarks.plm.perturb import insert_or_delete, replace, transform
from interpeval.benchmarks.plm.reasoning import copa_item
from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.words import zh_words

GSD = {"source": "ud/UD_Chinese-GSD/zh_gsd-ud-test.conllu"}


def test_chinese_bare_year_keeps_its_unit_outside_the_mask():
    # seed 5151: "《马斯特里赫特条约》是[1992]签署的" lacks 年
    before, after, _ = zh_statement("《马斯特里赫特条约》是哪一年签署的？", "1992")
    assert (before, after) == ("《马斯特里赫特条约》是", "年签署的。")
    assert zh_statement("约瑟夫·普利斯特里在什么时候发现氧气？", "1774")[1] == "年发现氧气。"
    assert zh_statement("莱索托哪一年独立？", "1966年")[1] == "独立。"  # the answer has its 年 already


@pytest.mark.parametrize(("words", "mask"), [
    (["西", "米德兰", "兹", "郡", "位于", "英国", "。"], 5),      # seed 5151: 英格兰 fits as well
    (["克利希", "广场", "位于", "法国", "。"], 3),               # 巴黎 fits as well
    (["楼曾瑞", "的", "祖籍", "是", "上海", "。"], 4),
])
def test_chinese_knowledge_drops_a_place_inside_places(words, mask):
    assert "place inside places" in one_answer_relation("zh", words, mask, "wh_in_situ")


def test_chinese_knowledge_keeps_an_organisation_after_lishuyu_and_a_fief():
    assert one_answer_relation("zh", ["美国", "特勤局", "隶属于", "美国国土安全部", "。"], 3, "wh_in_situ") is None
    assert one_answer_relation("zh", ["朱常浩", "的", "封地", "是", "汉中", "。"], 4, "wh_in_situ") is None


def test_chinese_knowledge_drops_a_shihao_written_with_its_title():
    # seed 5151: 朱椿's 谥号 is 献; 蜀献王 adds the fief and the rank
    assert "谥号" in one_answer_relation("zh", ["朱椿", "的", "谥号", "是", "蜀献王", "。"], 4, "wh_in_situ")
    assert one_answer_relation("zh", ["魏裔介", "的", "谥号", "是", "文毅", "。"], 4, "wh_in_situ") is None


def test_chinese_knowledge_reads_a_count_as_no_year():
    # round 7c: "威尼斯爆发了[22]次瘟疫" passed as a date next to the event 爆发
    assert one_answer_relation("zh", ["威尼斯", "爆发", "了", "22", "次", "瘟疫", "。"], 3, "wh_in_situ")
    assert one_answer_relation("zh", ["约瑟夫·普利斯特里", "在", "1774", "年", "发现", "氧气", "。"], 2,
                               "wh_in_situ") is None


@pytest.mark.parametrize(("words", "mask", "reason"), [
    (["路德", "一些", "最", "著名", "的", "著作", "是", "1520年", "发表", "的", "。"], 7, "part of a set"),
    (["马赛罗", "是", "2007年", "退役", "的", "。"], 2, "one part of a foreign name"),
    (["布拉德利", "在", "2005年", "宣布", "退役", "。"], 2, "one part of a foreign name"),
])
def test_chinese_knowledge_drops_subjects_that_name_no_one_thing(words, mask, reason):
    assert reason in self_contained("zh", words, mask)


@pytest.mark.parametrize(("words", "mask"), [
    (["伊芳·卡特菲", "的", "第一", "张", "唱片", "是", "在", "1998年", "发行", "的", "。"], 7),  # the full name
    (["苏镜宇", "的", "原名", "叫", "苏博", "。"], 4),                                      # a Chinese name
    (["莱索托", "1966年", "独立", "。"], 1),                                               # a country
])
def test_chinese_knowledge_keeps_full_and_chinese_names(words, mask):
    assert self_contained("zh", words, mask) is None


def test_chinese_knowledge_rationale_keeps_a_character_jieba_splits_off_a_name():
    # seed 5151: "福斯否洛斯" lost 否 (tagged zg) from the rationale
    tagged = zh_words("福斯否洛斯的别名是")
    words = [w for w, _ in tagged] + ["厄俄斯福洛斯", "。"]
    flags = [f for _, f in tagged] + ["x", "x"]
    item = _item("zh", words, len(tagged), flags, "wh_in_situ", {})
    assert "".join(words[i] for i in item.rationale).startswith("福斯否洛斯")


def test_chinese_insertion_follows_the_script_of_most_characters():
    # seed 5151: one 於 made "生濑胜久跃於戏剧圈…" traditional, and it got 其實
    simplified = Item("zh", "knowledge", ["生濑胜久", "跃於", "戏剧圈", "时候", "的", "艺名", "叫", "「枪魔栗三助」", "。"],
                      7, [0, 2, 5, 6], "wh_in_situ", {})
    assert insert_or_delete(simplified).words[:2] == ["其实", "，"]
    traditional = Item("zh", "knowledge", ["南京", "官話", "曾經", "是", "中國", "的", "官方", "語言", "。"], 5, [4, 7],
                       "de_particle", {})
    assert insert_or_delete(traditional).words[:2] == ["其實", "，"]


def test_chinese_clause_swap_adds_no_second_cause():
    # seed 5151: "由於X，所以Y。" became "因为由於X，所以Y。"
    words = ["由於", "隆也", "的", "壽命", "差不多", "已", "到", "盡頭", "，", "所以", "他", "希望", "看到", "結束", "。"]
    assert transform(Item("zh", "grammar", words, 2, [1, 3], "de_particle", GSD)) is None
    plain = ["隆也", "的", "壽命", "差不多", "已", "到", "盡頭", "，", "所以", "他", "希望", "看到", "結束", "。"]
    swapped = transform(Item("zh", "grammar", plain, 1, [0, 2], "de_particle", GSD))
    assert swapped.words[0] == "因為"  # the sentence's own script


def test_chinese_synonyms_in_one_sense_only_and_never_opposite():
    from interpeval.benchmarks.plm.synonyms import zh_synonyms

    # cnsyn's sets hold related words and antonyms: 地方/地面, 思想/思维, 计划/规划, 高潮/低潮, 英国/法国
    assert "地面" not in zh_synonyms("地方", "n")
    assert "思维" not in zh_synonyms("思想", "n")
    assert "规划" not in zh_synonyms("计划", "n")
    assert "低潮" not in zh_synonyms("高潮", "n")
    assert zh_synonyms("英国", "ns") == []
    assert "夏季" in zh_synonyms("夏天", "t")  # a word read in one sense keeps its synonym


def test_traditional_sentences_get_no_synonym():
    # round 8: looked up through OpenCC, cnsyn gave GSD 27 Rep. partners, 7 of them not synonyms in context
    # (方位 → 方向, 政變 → 兵變, 焚燒 → 燃燒): below the 90 % target, so traditional sentences stay without Rep.
    item = Item("zh", "grammar", ["有", "乾燥", "的", "夏天", "和", "潮濕", "的", "冬天", "。"], 2, [1, 3],
                "de_particle", GSD)
    assert replace(item) is None
    simplified = Item("zh", "reasoning", ["有", "干燥", "的", "夏天", "，", "所以", "冬天", "很", "冷", "。"], 3,
                      [1, 5, 6], "copa_repeat", {})
    assert replace(simplified).words[1] == "干燥"  # the simplified sentence's words still get one


def test_copa_reads_nouns_after_possessives_and_modifiers():
    # round 8: "the grape juice", "the woman's ring", "my sleeping friend" were read as open slots
    juice = copa_item("en", "The grape juice fermented.", "effect", "The juice turned to wine.")
    assert juice.words[juice.mask] == "juice"
    ring = copa_item("en", "The woman's ring slipped off in the shower.", "effect", "The ring went down the drain.")
    assert ring.words[ring.mask] == "ring"
    friend = copa_item("en", "The woman tolerated her friend's difficult behavior.", "cause",
                       "The woman knew her friend was going through a hard time.")
    assert friend.words[friend.mask] == "woman"  # never the pronoun "her" (which lemminflect also reads as a noun)
    assert isinstance(copa_item("en", "The man turned on the faucet.", "effect", "Water flowed from the spout."), str)
    # seed 6263: "so his friend got [sick]" — an adjective read as a noun across the verb "got"
    sick = copa_item("en", "The sick child coughed on his friend.", "effect", "His friend got sick.")
    assert isinstance(sick, str) or sick.words[sick.mask] != "sick"


def test_computation_reads_a_leading_decimal_point_and_asks_which_of_two_unknowns(tmp_path):
    from collections import Counter

    from interpeval.benchmarks.plm.computation import computation_items

    # seed 6263: "If . 4 % of a quantity is 2.4" (answer 600 read as wrong), "what is the number" of two numbers
    rows = [{"text": "If .4% of a quantity is 2.4, find the total quantity.", "equations": ["unkn: q",
             "equ: 0.4/100*q = 2.4"], "ans": "600", "ans_simple": [600]},
            {"text": "one number is 5 times another number. the sum of the two numbers is 270. what is the number",
             "equations": ["unkn: x", "equ: x=5*y", "equ: x+y=270"], "ans": "225", "ans_simple": [225]},
            {"text": "The sum of two numbers is 52. The larger number is three times the smaller number. Find the "
                     "larger number", "equations": ["unkn: x", "equ: x=3*y", "equ: x+y=52"], "ans": "39",
             "ans_simple": [39]},
            {"text": "three more than five times a number is less than 18. Find the largest integer for which this is "
                     "true.", "equations": ["unkn: x", "equ: 5*x+3<18"], "ans": "4", "ans_simple": [4]}]
    _write_mwp(tmp_path, "en", [])
    from interpeval.benchmarks.plm.computation import SOURCES

    (tmp_path / SOURCES["en"][3]).write_text(json.dumps(rows), encoding="utf-8")
    drops = Counter()
    items = computation_items(tmp_path, "en", drops)["mwp_answer"]
    assert [it.answer for it in items] == ["600", "39"]
    assert items[0].words[:4] == ["If", "0.4", "%", "of"]
    assert any("does not say which" in reason for reason in drops)
    assert any("an inequality" in reason for reason in drops)  # seed 7474: 5x + 3 < 18 answered 4


def _write_mwp(tmp_path, lang, rows):
    from interpeval.benchmarks.plm.computation import SOURCES

    for rel in SOURCES[lang]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("[]", encoding="utf-8")
    (tmp_path / SOURCES[lang][0]).write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")


def test_computation_drops_a_difference_without_its_order(tmp_path):
    from collections import Counter

    from interpeval.benchmarks.plm.computation import computation_items

    # seed 5151: "Five times a number is equal to another number. Their difference is 52." gives 13 or -65
    rows = [{"original_text": "Five times a number is equal to another number . Their difference is 52 . Find the "
                              "smaller number .", "equation": "x=(52)/(1-5)", "ans": -13},
            {"original_text": "The sum of two numbers is 56 . Their difference is 22 . Find the larger number .",
             "equation": "x=(56+22)/2", "ans": 39}]
    _write_mwp(tmp_path, "en", rows)
    drops = Counter()
    items = computation_items(tmp_path, "en", drops)["mwp_answer"]
    assert [it.answer for it in items] == ["39"]
    assert any("difference of two unknowns" in reason for reason in drops)


def test_computation_rationale_says_what_each_number_is(tmp_path):
    from interpeval.benchmarks.plm.computation import computation_items

    # seed 5151: "除数是12，商是7，余数是11" without 除数 / 余数 leaves 89 or 95; "下车259人，上车284人" without the verbs
    rows = [{"id": "1", "original_text": "除数是12，商是7，余数是11，被除数=．", "segmented_text":
             "除数 是 12 ， 商 是 7 ， 余数 是 11 ， 被除数 = ．", "equation": "x=12*7+11", "ans": "95"},
            {"id": "2", "original_text": "车上有乘客1563人，到济南站下车259人，上车284人，这时车上有多少人？",
             "segmented_text": "车上 有 乘客 1563 人 ， 到 济南站 下车 259 人 ， 上车 284 人 ， 这时 车上 有 多少 人 ？",
             "equation": "x=1563-259+284", "ans": "1588"}]
    _write_mwp(tmp_path, "zh", rows)
    divide, bus = computation_items(tmp_path, "zh")["mwp_answer"]
    assert {"除数", "余数", "商", "被除数"} <= {divide.words[i] for i in divide.rationale}
    assert {"下车", "上车", "乘客"} <= {bus.words[i] for i in bus.rationale}


def test_chinese_knowledge_round8_second_sample():
    # seed 6263: "巫医起源于[《大荒西经》]" (《山海经》 fits as well), a title cut in the rationale, a company renamed by Rep.
    assert "place inside places" in one_answer_relation("zh", ["巫医", "起源于", "《大荒西经》", "。"], 2, "wh_in_situ")
    tagged = zh_words("写了诗歌《暴政的假面游行》。")
    words = ["珀西·雪莱"] + [w for w, _ in tagged]
    item = _item("zh", words, 0, ["x"] + [f for _, f in tagged], "wh_in_situ", {})
    assert "假面" in "".join(words[i] for i in item.rationale)
    company = zh_words("上海东方明珠新媒体股份有限公司成立于")
    words = [w for w, _ in company] + ["1992年", "。"]
    item = Item("zh", "knowledge", words, len(company), [i for i in range(len(company))], "wh_in_situ", {})
    partner = replace(item)
    assert partner is None or "".join(partner.words).startswith("上海东方明珠新媒体股份有限公司")


def test_no_bei_passive_of_such_as():
    # seed 6263: "知名的孤立語言如蘇美爾語…" became "蘇美爾語…等被知名的孤立語言如。"
    from interpeval.benchmarks.plm.perturb import _ZH_STATIVE

    assert {"如", "例如", "比如"} <= _ZH_STATIVE
