"""Round 9's rules for the Chinese cells, each on a failure the independent review of seed 9393 found
(docs/plm-review-9393-zh.tsv) and on sentences the rule must keep. Every failure case fails on main 0593b7a's rules."""

import json
from collections import Counter

import pytest

from interpeval.benchmarks.conllu import read_conllu
from interpeval.benchmarks.plm.computation import SOURCES, computation_items
from interpeval.benchmarks.plm.grammar import _de_particle
from interpeval.benchmarks.plm.knowledge import _item, one_answer_relation
from interpeval.benchmarks.plm.perturb import replace, transform
from interpeval.benchmarks.plm.reasoning import copa_item
from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.words import zh_words


def _statement(before: str, answer: str) -> tuple[list[str], list[str], int]:
    tagged = zh_words(before)
    return [w for w, _ in tagged] + [answer, "。"], [f for _, f in tagged] + ["x", "x"], len(tagged)


@pytest.mark.parametrize(("before", "answer"), [("剃刀嘴凤冠雉体长为", "89厘米"), ("灰凤冠雉的体长是", "91厘米"),
                                                ("加利福尼亚滑银汉鱼的体长是", "15公分")])
def test_chinese_knowledge_drops_the_body_length_of_a_species(before, answer):
    # seed 9393: a species' length is a range (83-89 cm): 83 or 85 厘米 fit as naturally
    words, _, mask = _statement(before, answer)
    assert "measure of a kind" in one_answer_relation("zh", words, mask, "wh_in_situ")


def test_chinese_knowledge_keeps_the_length_of_one_thing():
    words, _, mask = _statement("羗山道的长度是", "4.5公里")
    assert one_answer_relation("zh", words, mask, "wh_in_situ") is None


def test_chinese_knowledge_drops_a_place_that_belongs_somewhere_and_keeps_an_organisation():
    # seed 9393: "在19世纪初，威姆兰隶属于[斯韦阿法院]" — a reader gives 瑞典
    words, _, mask = _statement("在19世纪初，威姆兰隶属于", "斯韦阿法院")
    assert "place inside places" in one_answer_relation("zh", words, mask, "wh_in_situ")
    words, _, mask = _statement("美国特勤局隶属于", "美国国土安全部")
    assert one_answer_relation("zh", words, mask, "wh_in_situ") is None


def test_chinese_knowledge_rationale_holds_its_relation_word():
    # seed 9393: "[广州大学法学院]的前身是<广州大学政法系>" — 前身 (jieba: r) was left out
    words, flags, mask = _statement("广州大学法学院的前身是", "广州大学政法系")
    item = _item("zh", words, mask, flags, "wh_in_situ", {})
    assert "前身" in [words[i] for i in item.rationale]


def _write_math23k(tmp_path, rows):
    for rel in SOURCES["zh"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("[]", encoding="utf-8")
    (tmp_path / SOURCES["zh"][0]).write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")


def test_computation_drops_a_discount_whose_equation_divides_by_the_rate(tmp_path):
    # seed 9393: a shoe at 0.8 and 40 元 off costs 200; Math23K's equation 40/0.8 and answer 50 ignore "off"
    shoe = {"id": "2410", "original_text": "一双皮鞋打0.8后降了40元，这双皮鞋原价多少元？",
            "segmented_text": "一 双 皮鞋 打 0.8 后 降 了 40 元 ， 这 双 皮鞋 原价 多少 元 ？", "equation": "x=40/0.8",
            "ans": "50"}
    coat = {"id": "12777", "original_text": "一件衣服打0.85后便宜了60元，这件衣服的原价=多少元？",
            "segmented_text": "一 件 衣服 打 0.85 后 便宜 了 60 元 ， 这件 衣服 的 原价 = 多少 元 ？",
            "equation": "x=60/(1-0.85)", "ans": "400"}
    _write_math23k(tmp_path, [shoe, coat])
    drops = Counter()
    items = computation_items(tmp_path, "zh", drops)["mwp_answer"]
    assert [it.answer for it in items] == ["400"]
    assert any("a discount and the amount it takes off" in reason for reason in drops)


def _problem(text: str, answer: str, dimension: str = "computation") -> Item:
    words = [*text.split(), "答案", "是", answer, "。"]
    mask = len(words) - 2
    return Item("zh", dimension, words, mask, [i for i in range(mask - 2) if words[i] not in "，．？"],
                "equation_numbers", {"source": "plm_rationale/mwp/math23k/testset.json"})


def test_chinese_synonym_never_replaces_the_modifier_of_a_compound():
    # seed 9393: "冰雪 竞赛" → "雪花竞赛" (snowflake competition)
    item = _problem("冰雪节 期间 ， 其余 的 分 31 个 小分队 为 冰 赛 演出 和 冰雪 竞赛 服务 ．", "8")
    partner = replace(item)
    assert partner is None or "冰雪" in partner.words[partner.words.index("服务") - 2:]


def test_chinese_synonym_doubles_no_neighbouring_character():
    # seed 9393: "20 阶 楼梯" → "20阶阶梯"
    item = _problem("每层 有 20 阶 楼梯 ， 李老师 家住 15 楼 ， 他 从 一楼 到 家 共 走 了 多少 阶 ？", "280")
    partner = replace(item)
    assert partner is None or "阶阶" not in "".join(partner.words)


def test_chinese_synonym_keeps_the_name_of_a_thing_said_twice():
    # round 8 census: "一根绳子，…这根[绳索]长多少米": the second mention renamed the rope
    item = _problem("一 根 绳子 ， 剪 去 (1/2) 后 ， 短 了 5 米 ． 这根 绳子 长 多少 米 ？", "10")
    partner = replace(item)
    assert partner is None or partner.words.count("绳子") == 2


_GSD_DE = """# sent_id = dev-s295
# text = 關於精靈之眼的介紹，將在下方『魔法』條目中會詳以敘述。
1	關於	關於	ADP	IN	_	6	case	_	SpaceAfter=No
2	精靈	精靈	NOUN	NN	_	4	nmod	_	SpaceAfter=No
3	之	之	PART	DEC	Case=Gen	2	case	_	SpaceAfter=No
4	眼	眼	NOUN	NN	_	6	nmod	_	SpaceAfter=No
5	的	的	PART	DEC	Case=Gen	6	case	_	SpaceAfter=No
6	介紹	介紹	NOUN	NN	_	19	nsubj	_	SpaceAfter=No
7	，	，	PUNCT	,	_	6	punct	_	SpaceAfter=No
8	將	將	ADV	RB	_	19	advmod	_	SpaceAfter=No
9	在	在	ADP	IN	_	14	case	_	SpaceAfter=No
10	下方	下方	NOUN	NN	_	14	nmod	_	SpaceAfter=No
11	『	『	PUNCT	``	_	12	punct	_	SpaceAfter=No
12	魔法	魔法	NOUN	NN	_	14	nmod	_	SpaceAfter=No
13	』	』	PUNCT	''	_	12	punct	_	SpaceAfter=No
14	條目	條目	NOUN	NN	_	19	obl	_	SpaceAfter=No
15	中	中	ADP	IN	_	14	case	_	SpaceAfter=No
16	會	會	AUX	MD	_	19	aux	_	SpaceAfter=No
17	詳	詳	ADJ	JJ	_	19	advmod	_	SpaceAfter=No
18	以	以	SCONJ	RB	_	19	mark	_	SpaceAfter=No
19	敘述	敘述	VERB	VV	_	0	root	_	SpaceAfter=No
20	。	。	PUNCT	.	_	19	punct	_	SpaceAfter=No

"""


def test_de_rationale_marks_the_modifier_when_the_tree_attaches_de_to_the_word_after_it(tmp_path):
    # seed 9393: "關於精靈之眼<的>[介紹]…詳以[敘述]" — the rationale marked the far verb 敘述
    path = tmp_path / "gsd.conllu"
    path.write_text(_GSD_DE, encoding="utf-8")
    sentence = next(iter(read_conllu(path)))
    found = list(_de_particle(sentence, Counter()))
    assert found == [(5, [4, 6], "de_particle")]  # 眼 and 介紹


def _svo(verb: str, obj_tail: list[str]) -> Item:
    words = ["他們", verb, "了", "噴氣", "的", "轟炸機", *obj_tail, "。"]
    tree = [(1, "nsubj", "PRON", {}), (-1, "root", "VERB", {}), (1, "aux", "AUX", {}), (5, "nmod", "NOUN", {}),
            (3, "case", "PART", {}), (1, "obj", "NOUN", {}),
            *[(1, "dep", "NOUN", {}) for _ in obj_tail], (1, "punct", "PUNCT", {})]  # GSD: the note hangs on the verb
    return Item("zh", "grammar", words, 4, [3, 5], "de_particle", {"source": "ud/UD_Chinese-GSD/x.conllu"}, tree)


@pytest.mark.parametrize(("verb", "tail", "passive"), [
    ("研發", [], False),            # seed 9393: "…轟炸機被他們研發了" reads badly
    ("爆發", [], False),            # main 0593b7a: "大瘟疫被準噶爾汗國爆發"
    ("擔任", [], False),            # "教授被她擔任"
    ("擊落", ["（", "獾", "）"], False),  # the object's parenthesis would follow the verb
    ("擊落", [], True),             # "噴氣的轟炸機被他們擊落了"
])
def test_bei_passive_only_for_a_verb_that_affects_its_object(verb, tail, passive):
    made = transform(_svo(verb, tail))
    assert (made is not None and made.words[:5] == ["噴氣", "的", "轟炸機", "被", "他們"]) == passive


def test_reasoning_drops_a_noun_after_a_bare_demonstrative():
    # seed 9393 (and 6263): "我把水果忘在桌子上了，所以苍蝇挤满了那[水果]" — 桌子 fits as well
    assert "bare 那/这" in copa_item("zh", "我把水果忘在桌子上了。", "effect", "苍蝇挤满了那水果。")
    kept = copa_item("zh", "这个国家发现了新的土地。", "effect", "这个国家殖民了这片土地。")
    assert isinstance(kept, Item) and kept.answer == "土地"  # 片 chooses 土地 over 国家


def test_computation_rationale_holds_the_clause_that_asks(tmp_path):
    # seed 2929: "小方至少要摸出多少只袜子，才能保证…" — the asking clause sits before the last comma and was left out
    socks = {"id": "1", "original_text": "盒子里有5只红袜子和4只白袜子，小方至少要摸出多少只袜子，才能保证有两只颜色不同的袜子．",
             "segmented_text": "盒子 里 有 5 只 红 袜子 和 4 只 白 袜子 ， 小方 至少 要 摸出 多少 只 袜子 ， 才能 保证 有 两只 "
                               "颜色 不同 的 袜子 ．", "equation": "x=5+1", "ans": "6"}
    _write_math23k(tmp_path, [socks])
    item = computation_items(tmp_path, "zh", Counter())["mwp_answer"][0]
    assert {"摸出", "多少"} <= {item.words[i] for i in item.rationale}


_GSD_ADVERBIAL_DE = """# sent_id = dev-s301
# text = 相反的只會說吉大港語的人聽不懂孟加拉語。
1	相反	相反	ADJ	JJ	_	11	advmod	_	SpaceAfter=No
2	的	的	SCONJ	DEV	_	1	mark:adv	_	SpaceAfter=No
3	只	只	ADV	RB	_	5	advmod	_	SpaceAfter=No
4	會	會	AUX	MD	_	5	aux	_	SpaceAfter=No
5	說	說	VERB	VV	_	10	acl:relcl	_	SpaceAfter=No
6	吉大	吉大	PROPN	NNP	_	7	compound	_	SpaceAfter=No
7	港	港	PART	SFN	_	8	compound	_	SpaceAfter=No
8	語	語	PART	SFN	_	5	obj	_	SpaceAfter=No
9	的	的	SCONJ	DEC	_	5	mark:rel	_	SpaceAfter=No
10	人	人	NOUN	NN	_	11	nsubj	_	SpaceAfter=No
11	聽	聽	VERB	VV	_	0	root	_	SpaceAfter=No
12	不懂	不懂	VERB	VV	_	11	compound:vv	_	SpaceAfter=No
13	孟加拉語	孟加拉語	PROPN	NNP	_	11	obj	_	SpaceAfter=No
14	。	。	PUNCT	.	_	11	punct	_	SpaceAfter=No

"""


def test_de_as_an_adverbial_marker_is_no_item(tmp_path):
    # seed 2929: "[相反]<的>只會說吉大港語的人[聽]不懂" — 地 fits as well; the relative 的 (word 9) stays an item
    path = tmp_path / "gsd.conllu"
    path.write_text(_GSD_ADVERBIAL_DE, encoding="utf-8")
    drops = Counter()
    found = list(_de_particle(next(iter(read_conllu(path))), drops))
    assert [mask for mask, _, _ in found] == [9]
    assert drops["de_particle: 的 marking an adverbial (地 fits as well)"] == 1
