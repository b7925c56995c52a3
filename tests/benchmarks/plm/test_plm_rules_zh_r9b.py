"""Round 9b's rules for the Chinese cells, each on a failure the outside review of seed 4242 found
(/work/runs/s39/rev/zh-judged-4242.tsv, quoted in docs/plm.md) and on items a rule must keep. Every failure case fails on
main ccdb0eb's rules."""

import json
from collections import Counter

import pytest

from interpeval.benchmarks.conllu import read_conllu
from interpeval.benchmarks.plm.computation import SOURCES, computation_items
from interpeval.benchmarks.plm.grammar import _de_particle
from interpeval.benchmarks.plm.perturb import insert_or_delete
from interpeval.benchmarks.plm.reasoning import copa_item
from interpeval.benchmarks.plm.records import Item


def _conllu(tmp_path, rows: list[tuple[str, str, int, str]]):
    """A one-sentence CoNLL-U file from (form, upos, head, deprel) rows, parsed."""
    lines = ["# sent_id = t-1", "# text = " + "".join(r[0] for r in rows)]
    lines += [f"{i}\t{f}\t{f}\t{u}\t_\t_\t{h}\t{d}\t_\tSpaceAfter=No" for i, (f, u, h, d) in enumerate(rows, 1)]
    path = tmp_path / "gsd.conllu"
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    return next(iter(read_conllu(path)))


# GSD dev-s6, test-s177, test-s433 (trimmed to the words the rule reads)
_NUMERAL = [("數百萬", "NUM", 4, "nummod"), ("的", "PART", 1, "case"), ("巧克力", "NOUN", 4, "compound"),
            ("棒", "PART", 6, "nsubj:pass"), ("被", "AUX", 6, "aux:pass"), ("撤下", "VERB", 0, "root"),
            ("櫃檯", "NOUN", 6, "obj"), ("。", "PUNCT", 6, "punct")]
_PROPER = [("中國", "PROPN", 5, "nmod"), ("的", "PART", 1, "case"), ("塔什庫爾干塔吉克", "PROPN", 5, "nmod"),
           ("自治", "VERB", 5, "compound"), ("縣", "PART", 6, "nsubj"), ("有", "VERB", 0, "root"),
           ("波斯人", "NOUN", 6, "obj"), ("。", "PUNCT", 6, "punct")]
_TITLE = [("她", "PRON", 2, "nsubj"), ("擔任", "VERB", 0, "root"), ("芝加哥", "PROPN", 6, "nmod"),
          ("大學", "NOUN", 6, "nmod"), ("法", "NOUN", 6, "nmod"), ("學院", "NOUN", 8, "nmod"),
          ("的", "PART", 6, "case"), ("教授", "NOUN", 2, "obj"), ("。", "PUNCT", 2, "punct")]
# seed 4242, accepted: a pronoun possessor, a relative clause, a noun before a noun that is no title
_PRONOUN = [("他", "PRON", 4, "det"), ("的", "PART", 1, "case"), ("統治", "NOUN", 4, "nmod"),
            ("時間", "NOUN", 5, "nsubj"), ("長", "VERB", 0, "root"), ("。", "PUNCT", 5, "punct")]
_RELATIVE = [("回到", "VERB", 4, "acl:relcl"), ("羅馬", "PROPN", 1, "obj"), ("的", "SCONJ", 1, "mark:rel"),
             ("卡里努斯", "PROPN", 5, "nsubj"), ("出手", "VERB", 0, "root"), ("。", "PUNCT", 5, "punct")]
_NOUN = [("冒險", "NOUN", 2, "nmod"), ("遊戲", "NOUN", 4, "nmod"), ("的", "PART", 2, "case"),
         ("分支", "NOUN", 5, "nsubj"), ("多", "VERB", 0, "root"), ("。", "PUNCT", 5, "punct")]


@pytest.mark.parametrize(("rows", "reason"), [
    (_NUMERAL, "numeral modifier"),   # 數百萬[根]巧克力棒
    (_PROPER, "proper-noun modifier"),  # 中國[新疆]塔什庫爾干塔吉克自治縣
    (_TITLE, "noun before a title"),  # 法學院[副]教授
])
def test_de_is_no_item_where_another_word_fits_its_slot(tmp_path, rows, reason):
    drops = Counter()
    found = [f for f in _de_particle(_conllu(tmp_path, rows), drops) if rows[f[0] - 1][0] == "的"]
    assert found == []
    assert any(reason in key for key in drops)


@pytest.mark.parametrize("rows", [_PRONOUN, _RELATIVE, _NOUN])
def test_de_stays_an_item_after_a_pronoun_a_relative_clause_or_a_plain_noun(tmp_path, rows):
    de = [i for i, row in enumerate(rows, 1) if row[0] == "的"]
    assert [m for m, _, _ in _de_particle(_conllu(tmp_path, rows), Counter())] == de


@pytest.mark.parametrize("opening", ["另一方面，", "同樣，", "也就是說，"])
def test_no_in_fact_before_a_sentence_initial_discourse_connective(opening):
    # seed 4242: "其實，另一方面，…", "其實，同樣，…", "其實，也就是說，…" stack two markers
    words = {"另一方面，": ["另", "一", "方面", "，"], "同樣，": ["同樣", "，"],
             "也就是說，": ["也就是說", "，"]}[opening] + ["他", "的", "時間", "很", "長", "。"]
    mask = words.index("的")
    item = Item("zh", "grammar", words, mask, [mask - 1, mask + 1], "de_particle", {"source": "ud/x.conllu"})
    made = insert_or_delete(item)
    assert made is None or not "".join(made.words).startswith(("其實", "其实"))


def test_in_fact_still_opens_a_plain_sentence():
    words = ["他", "的", "時間", "很", "長", "。"]
    made = insert_or_delete(Item("zh", "grammar", words, 1, [0, 2], "de_particle", {"source": "ud/x.conllu"}))
    assert made is not None and made.words[:2] == ["其實", "，"]


def _write_math23k(tmp_path, rows):
    for rel in SOURCES["zh"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("[]", encoding="utf-8")
    (tmp_path / SOURCES["zh"][0]).write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")


def _marked(tmp_path, text: str, segmented: str, equation: str, answer: str) -> list[str]:
    _write_math23k(tmp_path, [{"id": "1", "original_text": text, "segmented_text": segmented, "equation": equation,
                               "ans": answer}])
    item = computation_items(tmp_path, "zh", Counter())["mwp_answer"][0]
    return [item.words[i] for i in item.rationale]


def test_computation_marks_only_numbers_the_equation_uses(tmp_path):
    # seed 4242: 慢车长1034米 is not used (182 ÷ (20 − 18) = 91); 2010年 is a year, not a count
    marked = _marked(tmp_path, "快车长182米，每秒行20米，慢车长1034米，每秒行18米．快车几秒可越过慢车？",
                     "快车 长 182 米 ， 每秒 行 20 米 ， 慢车 长 1034 米 ， 每秒 行 18 米 ． 快车 几秒 可 越过 慢车 ？",
                     "x=182/(20-18)", "91")
    assert {"182", "20", "18"} <= set(marked) and "1034" not in marked
    marked = _marked(tmp_path, "2010年世界杯共有8个组，每组4个队，一共有736名运动员．每个队有多少名运动员？",
                     "2010 年 世界杯 共有 8 个 组 ， 每组 4 个 队 ， 一共 有 736 名 运动员 ． 每个 队 有 多少 名 运动员 ？",
                     "x=736/(8*4)", "23")
    assert "2010" not in marked and {"8", "4", "736"} <= set(marked)


def test_computation_marks_a_percentage_the_equation_writes_as_a_fraction(tmp_path):
    marked = _marked(tmp_path, "计划30天完成，前4天完成了任务的20%，可以提前多少天完成？",
                     "计划 30 天 完成 ， 前 4 天 完成 了 任务 的 20% ， 可以 提前 多少 天 完成 ？", "x=30-4/0.2", "10")
    assert "20%" in marked


def test_computation_marks_a_condition_that_changes_the_answer(tmp_path):
    # seed 4242: "如果两端都放花" (44 ÷ 4 + 1 = 12; without it 11) was left out
    marked = _marked(tmp_path, "学校在一条44米长的走廊里，每隔4米放一盆花，如果两端都放花，要放多少盆花？",
                     "学校 在 一条 44 米长 的 走廊 里 ， 每隔 4 米 放 一盆 花 ， 如果 两端 都 放花 ， 要 放 多少 盆花 ？",
                     "x=44/4+1", "12")
    assert {"如果", "两端", "放花"} <= set(marked)


def test_computation_marks_no_lone_conjunction_or_question_word(tmp_path):
    # seed 4242: "某杀虫剂[和]水混合" and "[问]小明妈妈每月工资" marked function words alone
    marked = _marked(tmp_path, "某杀虫剂和水混合，杀虫剂与水的比值是(1/150)．现有4千克杀虫剂，问需要用多少千克水？",
                     "某 杀虫剂 和 水 混合 ， 杀虫剂 与 水 的 比值 是 (1/150) ． 现有 4 千克 杀虫剂 ， 问 需要 用 多少 千克 水 ？",
                     "x=4/(1/150)", "600")
    assert "和" not in marked and "问" not in marked and "(1/150)" in marked
    marked = _marked(tmp_path, "两个数的和是20，其中一个数是8，另一个数是多少？",
                     "两个 数 的 和 是 20 ， 其中 一个 数 是 8 ， 另 一个 数 是 多少 ？", "x=20-8", "12")
    assert "和" in marked  # a sum stays marked


def test_reasoning_rationale_marks_a_negation_and_a_verb_jieba_tags_as_a_preposition():
    # seed 4242: "因为这个<男孩>不[喜][欢]…" (不 left out reverses the cause); "立法机关通过了该<法案>" (通过: jieba p)
    item = copa_item("zh", "这个男孩恶意地捉弄了他的新同学。", "cause", "这个男孩不喜欢这个新同学。")
    assert isinstance(item, Item) and "不" in [item.words[i] for i in item.rationale]
    item = copa_item("zh", "游说者说服立法机关支持该法案。", "effect", "立法机关通过了该法案。")
    assert isinstance(item, Item) and "通过" in [item.words[i] for i in item.rationale]


def test_no_in_fact_before_xiangfan_de():
    # seed 5353 (this round's own sample): "其實，相反的只會說吉大港語的人聽不懂" stacks two markers
    words = ["相反", "的", "只", "會", "說", "吉大港語", "的", "人", "聽不懂", "。"]
    assert insert_or_delete(Item("zh", "grammar", words, 6, [4, 7], "de_particle", {"source": "ud/x.conllu"})) is None


def test_computation_keeps_a_one_the_equation_leaves_out(tmp_path):
    # seed 5353: "8个篮球和[1]个足球" — x=(500-60)/8 writes no × 1, but the rationale needs how many footballs
    marked = _marked(tmp_path, "毕老师为学校购买了8个篮球和1个足球，共花去500元．已知足球的单价是60元，篮球的单价=多少元？",
                     "毕 老师 为 学校 购买 了 8 个 篮球 和 1 个 足球 ， 共 花 去 500 元 ． 已知 足球 的 单价 是 60 元 ， 篮球 的 单价 = 多少 元 ？",
                     "x=(500-60)/8", "55")
    assert "1" in marked


@pytest.mark.parametrize("premise, alternative, swapped", [
    # outside review seed 8282: "因为他抓住了…，所以老师…" — the pronoun now comes before its noun: no swap
    ("那个女人用冷水冲洗着她的手指。", "她的手指在烤面包机上烫到了。", False),  # XCOPA zh val idx 19
    # no pronoun in the cause: the swap stays
    ("我裤子口袋里的钥匙不见了。", "这个口袋上有一个洞。", True),
])
def test_no_clause_swap_that_moves_a_pronoun_before_its_noun(premise, alternative, swapped):
    from interpeval.benchmarks.plm.perturb import partners
    from interpeval.benchmarks.plm.reasoning import copa_item

    item = copa_item("zh", premise, "cause", alternative)
    assert not isinstance(item, str), item
    assert any(p.words[0] == "因为" for p in partners(item)) is swapped


def test_computation_condition_words_do_not_match_ruogan():
    # review: 若 matched 若干 ("some"), so "把一个圆柱体平均分成若干份切开" was marked as a condition
    from interpeval.benchmarks.plm.computation import _zh_clauses_with

    words = ["把", "一个", "圆柱体", "平均", "分成", "若干", "份", "切开", "，", "若", "表面积", "增加", "20"]
    assert _zh_clauses_with(words, ("如果", "若")) == set(range(9, 13))


def test_reasoning_rationale_marks_no_classifier_or_light_word():
    # outside review seed 9898: 一张, 来 (来吹捧), 起来, 时 (走动时), 有着 marked as if they decided the answer
    from interpeval.benchmarks.plm.reasoning import copa_item

    item = copa_item("zh", "那个女人递给她的妹妹一张纸巾。", "cause", "她的妹妹哭了起来。")  # XCOPA zh, as shipped
    marked = {item.words[i] for i in item.rationale}
    assert not marked & {"一张", "一", "张", "起来"}, marked
    assert {"递给", "纸巾", "哭"} <= marked, marked
    item = copa_item("zh", "那个女人用奉承的话来吹捧她的朋友。", "cause", "她想请她的朋友帮个忙。")
    marked = {item.words[i] for i in item.rationale}
    assert "来" not in marked and "吹捧" in marked, marked
