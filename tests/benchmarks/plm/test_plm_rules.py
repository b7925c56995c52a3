"""The builder's rules on hand-written sentences, including the failures the issue quotes; partners keep the answer;
table numbering and F1^Δ on a hand-made golden/predict pair."""

import pytest

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
    assert en_statement("What does Windows NT protect?", "NTFS")[0] == ["Windows", "NT", "protects", "[MASK]", "."]
    # many fillers fit a common-noun object or subject ("The fossils … lacked [tentacles]")
    assert en_statement("What did the fossils lack?", "tentacles").startswith("knowledge: object answer")
    assert en_statement("What enables Parliament to scrutinize?", "parliamentary procedures").startswith(
        "knowledge: subject answer")
    assert en_statement("What was Old Briton's response?", "ignored the warning") == \
        "knowledge: answer is a verb phrase or starts with a preposition"
    assert isinstance(en_statement("What languages is the word Tin shared among?", "Germanic"), str)
    assert isinstance(en_statement("What is the element called?", "tin"), str)  # verb belongs before the answer
    assert isinstance(en_statement("How many people live there?", "5"), str)
    # the verb is not the last word: "The discharge … go in Europe in the last Ice aged in [MASK] ." is not made
    assert isinstance(en_statement("Where did the discharge from glaciers go in Europe in the last Ice age?",
                                   "Rhine"), str)
    assert en_statement("What was the death toll?", "nearly 200,000") == \
        "knowledge: answer is a range or an approximation"
    # review round 3: "Henry IV known as before taking the throne was [MASK]", "The Siege of Antioch take placed in"
    assert "passive" in en_statement("What was Henry IV known as before taking the throne?", "Henry of Navarre")
    assert "passive" in en_statement("Who was the Revere type lantern named after?", "Paul Revere")
    assert en_statement("When did the Siege of Antioch take place?", "1097") == \
        "knowledge: do-question not ending in its lexical verb"
    assert "indefinite" in en_statement("What is a well-known example of tin lanterns?", "Revere lantern")


def test_chinese_wh_words_never_match_inside_why():
    assert isinstance(zh_statement("他为什么离开北京？", "生病"), str)  # the 什么 inside 为什么
    assert zh_statement("中国的首都是什么？", "北京") == ("中国的首都是", "。", 0)
    # "以什么语言广播" with the answer 华语: the noun 语言 goes, no character of it stays ("以华语言广播")
    assert zh_statement("卫视台是一条以什么语言广播的频道？", "华语") == ("卫视台是一条以", "广播的频道。", 0)
    assert zh_statement("一共擒杀了多少次？", "136次") == ("一共擒杀了", "。", 0)
    assert zh_statement("站房面积有多少平方米？", "4998平方米") == ("站房面积有", "。", 0)  # not "4998平方米平方米"
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
              "copa_repeat", {})
    swapped = transform(zh)
    assert swapped.words[0] == "因为" and swapped.answer == "蒸汽"
    connective = Item("zh", "reasoning", ["水", "煮沸", "了", "，", "所以", "蒸汽", "上升", "。"], 4, [0, 1],
                      "copa_repeat", {})
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


def _conllu(tmp_path, rows):
    """A one-sentence CoNLL-U file from ``(form, upos, feats, head, deprel)`` rows."""
    lines = [f"# text = {' '.join(r[0] for r in rows)}"]
    lines += [f"{i}\t{form}\t_\t{upos}\t_\t{feats}\t{head}\t{deprel}\t_\t_"
              for i, (form, upos, feats, head, deprel) in enumerate(rows, start=1)]
    path = tmp_path / "s.conllu"
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    from interpeval.benchmarks.conllu import read_conllu

    return next(iter(read_conllu(path)))


PRES = "Mood=Ind|Tense=Pres|VerbForm=Fin"


def test_verb_agreement_needs_the_subject_and_a_tense_cue(tmp_path):
    from collections import Counter

    from interpeval.benchmarks.plm.grammar import _verb_agreement

    # "The dogs are hungry and want food ." — plural subject, present fixed by "want"
    rows = [("The", "DET", "Definite=Def|PronType=Art", 2, "det"), ("dogs", "NOUN", "Number=Plur", 4, "nsubj"),
            ("are", "AUX", PRES, 4, "cop"), ("hungry", "ADJ", "Degree=Pos", 0, "root"),
            ("and", "CCONJ", "_", 6, "cc"), ("want", "VERB", PRES, 4, "conj"), ("food", "NOUN", "Number=Sing", 6,
                                                                                   "obj"), (".", "PUNCT", "_", 4, "punct")]
    drops: Counter[str] = Counter()
    ((mask, rationale, rule),) = list(_verb_agreement(_conllu(tmp_path, rows), drops))
    assert (mask, rationale, rule) == (3, [2, 6], "verb_agreement")  # dogs, want ("the" says no number: seed 4141)
    # without "and want food" nothing fixes is/was: dropped with its reason
    alone = rows[:4] + [(".", "PUNCT", "_", 4, "punct")]
    assert list(_verb_agreement(_conllu(tmp_path, alone), drops)) == []
    assert drops["verb_agreement: no other finite verb fixing the tense"] == 1


def test_reflexive_needs_an_antecedent_that_fixes_its_form(tmp_path):
    from collections import Counter

    from interpeval.benchmarks.plm.grammar import _reflexive

    def sentence(subject, upos, feats, reflexive):
        return _conllu(tmp_path, [(subject, upos, feats, 2, "nsubj"), ("hurt", "VERB", "Tense=Past|VerbForm=Fin", 0,
                                                                          "root"),
                                  (reflexive, "PRON", "Reflex=Yes", 2, "obj"), (".", "PUNCT", "_", 2, "punct")])
    drops: Counter[str] = Counter()
    assert list(_reflexive(sentence("She", "PRON", "PronType=Prs", "herself"), drops)) == [
        (3, [1, 2], "reflexive_antecedent")]
    assert list(_reflexive(sentence("Bill", "PROPN", "Number=Sing", "himself"), drops)) == []  # a name: gender
    assert list(_reflexive(sentence("You", "PRON", "PronType=Prs", "yourself"), drops)) == []  # number unknown
    assert drops["reflexive: antecedent does not fix the form (name, 'you', person noun)"] == 2


def test_copa_masks_the_premise_noun_the_causal_link_picks(data_dir):
    from interpeval.benchmarks.plm.reasoning import reasoning_items

    items = {it.text(): it for it in reasoning_items(data_dir, "en")["copa_repeat"]}
    chandelier = items["The chandelier shattered on the floor because the [MASK] dropped from the ceiling ."]
    assert chandelier.answer == "chandelier" and "because" in [chandelier.words[i] for i in chandelier.rationale]
    assert {"chandelier", "floor"} <= {chandelier.words[i] for i in chandelier.rationale}  # both candidates
    assert items["The gardener pulled the weeds , so the [MASK] came out of the soil ."].answer == "weeds"
    # COPA dev 1 ("… because the [sun] was rising"): the premise has no sun, the slot is open (moon, light …)
    assert not any(text.startswith("My body cast a shadow") for text in items)
    zh = {it.text(): it.answer for it in reasoning_items(data_dir, "zh")["copa_repeat"]}
    assert zh == {"那个女孩把钱交给了收银员，所以收银员把找的钱给了那个[MASK]。": "女孩",
                  "这个国家发现了新的土地，所以这个国家殖民了这片[MASK]。": "土地"}  # not "[女人]拒绝了他": 她 fits


@pytest.mark.parametrize(("lang", "premise", "question", "alternative", "reason"), [
    # round 6's open slots: the masked noun was new to the premise, and a synonym or another word fits as well
    ("en", "The farmland needed irrigation.", "effect", "A canal was constructed.", "open slot"),
    ("en", "The scientist conducted an experiment.", "effect", "She discovered a new species.", "open slot"),
    ("en", "The swimmer dove into the water.", "cause", "He wanted to reach the ocean floor.", "open slot"),
    ("zh", "停电了。", "effect", "我拿出了手电筒。", "open slot"),
    ("zh", "那辆车撞上了树。", "cause", "司机遇到了一起事故。", "open slot"),
    # a repeated noun in a bare subject slot: a pronoun fits as naturally (她拒绝了他)
    ("zh", "男人向女人表白了。", "effect", "女人拒绝了他。", "open slot"),
    # the premise names one thing: nothing for the causal link to decide between
    ("en", "The vase broke.", "cause", "The vase fell off the shelf.", "names one thing"),
])
def test_copa_drops_what_the_causal_link_does_not_fix(lang, premise, question, alternative, reason):
    from interpeval.benchmarks.plm.reasoning import copa_item

    assert reason in copa_item(lang, premise, question, alternative)


def test_copa_lower_cases_an_alternative_that_moves_after_the_connective():
    from interpeval.benchmarks.plm.reasoning import copa_item

    item = copa_item("en", "The pond froze over for the winter.", "effect", "People skated on the pond.")
    assert item.text() == "The pond froze over for the winter , so people skated on the [MASK] ."


def test_replacement_never_unties_a_repeated_answer():
    # the premise's copy of the answer is the tie that fixes it: Rep. must not turn 女孩 into 姑娘 there
    from interpeval.benchmarks.plm.reasoning import copa_item

    item = copa_item("zh", "那个女孩把钱交给了收银员。", "effect", "收银员把找的钱给了那个女孩。")
    partner = replace(item)
    assert partner is None or partner.words.count("女孩") == 2
    made_partners = partners(item)
    assert made_partners  # the insertion and the transformation at least: the loop below checks something
    for made in made_partners:
        assert made.answer == "女孩" and "女孩" in made.words[:made.mask]


def test_knowledge_year_statement_inverts_with_its_year():
    made = en_statement("When did Tugh Temur die?", "1332")
    from interpeval.benchmarks.plm.knowledge import en_date_or_place

    words, mask, rule = made
    words[mask] = "1332"
    item = en_date_or_place(Item("en", "knowledge", words, mask, [0, 1, 2], f"{rule}+statement_content", {}))
    assert transform(item).text() == "In the year [MASK] , Tugh Temur died ."
    located = Item("en", "knowledge", ["Stalag", "XVIII-D", "was", "located", "in", "Maribor", "."], 5, [0, 1, 3],
                   "wh_passive+statement_content", {})
    assert en_date_or_place(located) is located and transform(located) is None  # not "In [MASK] , … was located ."


def test_computation_keeps_problems_of_at_most_two_operators():
    from interpeval.benchmarks.plm.computation import operators

    assert operators("x=5+3*2") == 2 and operators("x=(5+3)*2-1") == 3 and operators("x = -3 + 4") == 1


def test_build_excludes_every_zoo_mlm_training_text_by_default(data_dir, tmp_path, monkeypatch):
    """No item shares a paragraph with a zoo masked LM's training text, whatever --model says (here: none)."""
    from interpeval.benchmarks.plm import build as build_module
    from interpeval.benchmarks.plm.knowledge import knowledge_items
    from interpeval.benchmarks.plm.records import read_golden

    every = knowledge_items(data_dir, "en")
    trained = {it.provenance["text_sha1"] for pool in every.values() for it in pool}
    assert trained  # the test slice has knowledge candidates to exclude
    monkeypatch.setattr(build_module, "zoo_trained_hashes", lambda: frozenset(trained))
    summary = build_module.build(data_dir, tmp_path / "zoo", ("en",), dimensions=("knowledge",))
    assert summary.excluded["en"]["knowledge"] == sum(map(len, every.values()))
    assert summary.counts["en"]["knowledge"]["originals"] == 0
    kept = build_module.build(data_dir, tmp_path / "all", ("en",), dimensions=("knowledge",), exclude_zoo=False)
    assert kept.counts["en"]["knowledge"]["originals"] == sum(map(len, every.values()))
    assert all(r.meta["provenance"]["text_sha1"] in trained for r in read_golden(kept.files["en"]))


def test_review_sheet_samples_per_language_and_dimension_with_partners(tmp_path):
    from interpeval.benchmarks.plm.review import sample, write_sheet

    records = []
    for lang in ("en", "zh"):  # both files count sent_id from 0: partners must come from their own language
        for n in range(3):
            ori = _rec(2 * n, ["The", "dog", "[MASK]", "big", "."], [1], "ori", rel=(2 * n + 1,))
            dis = _rec(2 * n + 1, ["In", "fact", "the", "dog", "[MASK]", "big", "."], [3], "disturb", "ins_del",
                       2 * n)
            for r in (ori, dis):
                r.meta["lang"] = lang
            records += [ori, dis]
    groups = sample(records, 2, seed=7)
    assert [g[0].lang for g in groups] == ["en", "en", "zh", "zh"]
    assert all(len(g) == 2 and g[1].lang == g[0].lang and g[1].sent_id in g[0].rel_ids for g in groups)
    assert [g[0].sent_id for g in sample(records, 2, seed=7)] == [g[0].sent_id for g in groups]  # seeded
    tsv, page = write_sheet(groups, tmp_path)
    rows = tsv.read_text(encoding="utf-8").splitlines()
    assert len(rows) == 1 + 8 and rows[1].split("\t")[7] == "The [dog] <is> big ."
    assert "<mark>dog</mark>" in page.read_text(encoding="utf-8")


def test_figure1_sweeps_the_extracted_rationale_ratio_by_hand():
    from interpeval.benchmarks.plm.tables import RATIO_STEPS, RunResult, figure_data

    tokens = ["a", "b", "[MASK]", "c", "d"]
    ori = _rec(0, tokens, [0], "ori", rel=(1,))
    dis = _rec(1, tokens, [0], "disturb", "ins_del", 0)
    scores = [0.9, 0.1, 0.0, 0.5, 0.2]  # importance order of the 4 scored tokens: a, c, d, b
    outputs = {0: {"word_scores": scores}, 1: {"word_scores": scores}}
    data = figure_data([RunResult("en", "m", "ATT", "attention", {}, "gold", 1, outputs)], [ori, dis])
    series = data["m ATT grammar"]
    f1 = dict(zip(RATIO_STEPS, series["f1"], strict=True))
    # K = ceil(ratio x 4): 0.1 -> {a}: F1 1; 0.3 -> {a, c}: P 1/2, R 1, F1 2/3; 0.9 -> all 4: P 1/4, F1 2/5
    assert f1[0.1] == 1.0 and abs(f1[0.3] - 2 / 3) < 1e-9 and abs(f1[0.9] - 0.4) < 1e-9
    assert series["map"] == [1.0] * len(RATIO_STEPS) and series["pairs"] == 1  # identical pair: MAP 1 everywhere


@pytest.mark.parametrize(("words", "answer", "reason"), [
    # the round-4 review's knowledge originals that still needed their paragraph
    ("[A] won the power struggle between Tito's Partisans and the chetniks .", "Tito's Partisans", "repeated"),
    ("[A] gave limited assistance to Yugoslavia during the war .", "the British", "lowercase"),
    ("Kenya gave limited assistance to Yugoslavia during the war .", None, "'the X' that no name anchors"),
    ("[A] led the committee established by Seaman .", "Nicholas E. Golovin", "'the X' that no name anchors"),
    ("Today the speaker of the Scottish Parliament is [A] .", "Tricia Marwick", "time-relative"),
    # round 5b: a statistic whose year only the paragraph gives, a possessive split from its year
    ("The population of the Greater Los Angeles Area is [A] .", "17,786,419", "without its year"),
    ("The number of Class 1 Muslim officers was [A] .", "51", "without its year"),
    ("[A] wrote of the Savery water pump in 1751 ' s Philosophical Transactions .", "John Smeaton", "possessive"),
])
def test_knowledge_drops_statements_that_need_their_paragraph(words, answer, reason):
    from interpeval.benchmarks.plm.knowledge import self_contained

    tokens = words.split(" ")
    mask = tokens.index("[A]") if "[A]" in tokens else 0
    if answer:
        tokens[mask] = answer
    assert reason in self_contained("en", tokens, mask)


@pytest.mark.parametrize("words", [
    "The name of the international airport in Manipur is [A] .",  # anchored by "in Manipur"
    "The most eastern latitude of The Baltic Sea is [A] .",
    "[A] appoints the board of the European Central Bank .",
    "The name of the first Doctor Who serial is [A] .",
    "The Spanish Civil War started in [A] .",
])
def test_knowledge_keeps_self_contained_statements(words):
    from interpeval.benchmarks.plm.knowledge import self_contained

    tokens = words.split(" ")
    mask = tokens.index("[A]")
    tokens[mask] = "Xavier"
    assert self_contained("en", tokens, mask) is None


def test_knowledge_question_shapes_that_leave_an_adjective_or_adverb_subject_are_dropped():
    assert "not a noun phrase" in en_statement("Who is currently speaker of the Scottish Parliament?", "Tricia Marwick")
    assert "not a noun phrase" in en_statement(
        "What is responsible for constraining P according to the time hierarchy theorem?", "EXPTIME")


@pytest.mark.parametrize(("words", "mask", "reason"), [
    (["玛丽·麦特琳", "担任", "了", "比赛", "的", "美国", "手语", "翻译", "。"], 0, "比赛"),  # which game?
    (["当", "丹佛", "把", "比分", "提高", "到", "24-10", "时", "，", "比赛", "还", "剩", "3 分 08 秒", "时间", "。"], 12,
     "比赛"),
    (["斯莱布尼尔", "被", "赠送", "了", "奥丁", "。"], 4, "被"),
    (["《暴政的假面游行》", "为了", "抗议", "不公正的权力形式", "而", "写", "的", "。"], 3, "description"),
    (["维多利亚州议会", "可以", "修订", "维多利亚州议会", "宪法", "。"], 0, "repeated"),
])
def test_chinese_knowledge_drops_statements_that_need_their_paragraph(words, mask, reason):
    from interpeval.benchmarks.plm.knowledge import self_contained

    assert reason in self_contained("zh", words, mask)
    assert self_contained("zh", ["吴三桂", "协", "清军", "入关", "后", "获得", "的", "封地", "是", "云南", "。"], 9) is None


def test_knowledge_rationale_holds_every_content_word_of_the_statement():
    from interpeval.benchmarks.plm.knowledge import _item

    # round 5: the evidence-sentence overlap lost "Kublai's" (the paragraph writes "Kublai"), so the rationale
    # "sect Tibetan Buddhism" did not say whose favourite sect
    words = ["Kublai's", "first", "capital", "in", "Mongolia", "was", "Karakorum", "."]
    item = _item("en", words, 6, None, "wh_be", {})
    assert [words[i] for i in item.rationale] == ["Kublai's", "first", "capital", "Mongolia"]
    assert item.rule == "wh_be+statement_content"


def test_chinese_replacement_never_renames_a_named_thing():
    from interpeval.benchmarks.plm.perturb import replace
    from interpeval.benchmarks.plm.records import Item

    # round 5: 莫洛托夫计划 → 莫洛托夫规划 renamed the Molotov Plan
    item = Item("zh", "knowledge", ["莫洛托夫", "计划", "发生", "在", "1947年", "。"], 4, [0, 1, 2], "wh_in_situ", {})
    partner = replace(item)
    assert partner is None or partner.words[:2] == ["莫洛托夫", "计划"]


def _en_knowledge(question, answer):
    """The statement an English question becomes, or the reason it is dropped (rules and gates alike)."""
    from interpeval.benchmarks.plm.knowledge import _item, en_date_or_place

    made = en_statement(question, answer)
    if isinstance(made, str):
        return made
    words, mask, rule = made
    words[mask] = answer
    item = _item("en", words, mask, None, rule, {})
    item = item if isinstance(item, str) else en_date_or_place(item)
    return item if isinstance(item, str) else " ".join(item.words)


@pytest.mark.parametrize(("question", "answer", "statement"), [
    # each accepted shape, converted as tested here
    ("Who founded the Muslim Brotherhood?", "Hassan al Banna", "Hassan al Banna founded the Muslim Brotherhood ."),
    ("In what year was the Muslim Brotherhood founded?", "1928",
     "The Muslim Brotherhood was founded in the year 1928 ."),
    ("What year did Tugh Temur die?", "1332", "Tugh Temur died in the year 1332 ."),
    ("When was the Lijnbaan first opened?", "1953", "The Lijnbaan was first opened in the year 1953 ."),
    ("Where was Stalag XVIII-D located?", "Maribor", "Stalag XVIII-D was located in Maribor ."),
    ("Who was the first administrator of the Federal Energy Office?", "William E. Simon",
     "The first administrator of the Federal Energy Office was William E. Simon ."),
    ("What was the capital of the Ottoman empire?", "Istanbul", "The capital of the Ottoman empire was Istanbul ."),
])
def test_knowledge_accepts_one_answer_relations(question, answer, statement):
    assert _en_knowledge(question, answer) == statement


@pytest.mark.parametrize(("question", "answer", "reason"), [
    # round 5b and this round's sample: relations a named subject has many answers for (which season? which prize?)
    ("Who led the Panthers in sacks?", "Kawann Short", "more than one answer"),
    ("Who won the Nobel Prize in 1905?", "Robert Koch", "more than one answer"),
    ("Who led the Mongolian Borjigin clan?", "Kublai Khan", "more than one answer"),
    ("What was the name of the Florida Huguenot colony?", "Fort Caroline", "not a role"),
    ("Who was the famous Huguenot theologian and writer in London?", "Andrew Lortie", "not a role"),
    ("What is the Mongolian name for the original place of the Genghis Khan mausoleum?", "Edsen Khoroo",
     "not a role"),
    ("What does Windows NT protect?", "NTFS", "many objects"),
    # garbled, partial, list or score answers
    ("What were the first two destinations of Huguenot emigres?", "Switzerland and the Netherlands", "a list"),
    ("What was the final score of the AFC Championship Game?", "20–18", "a score"),
    ("When were some of Luther's best-known works published?", "1520", "part of a set"),
    ("When was the the White House office building completed?", "1898", "repeated"),
    ("When was the National Highway Designated Act signed?", "November 28, 1995", "year or a month"),
    # this round: "in [MASK]" after an event takes a year and a place alike ("Yesun Temur died in [Shangdu]": 1328)
    ("Where did Yesun Temur die?", "Shangdu", "a year fits the slot as well"),
    ("Where was Tamara de Lempicka born?", "Warsaw", "a year fits the slot as well"),
    ("When did the Syrian Civil War begin?", "March 2011", "a place fits the slot as well"),
    # an entity named only by common words: which University Library, which Summer Theatre?
    ("When was the University Library founded?", "1816", "only by common words"),
    ("Where was the Summer Theatre located?", "Saxon Garden", "only by common words"),
    ("When was Otto von Bismarck appointed?", "1862", "one-time event"),
])
def test_knowledge_drops_relations_and_answers_that_are_not_one(question, answer, reason):
    assert reason in _en_knowledge(question, answer)


@pytest.mark.parametrize(("words", "mask"), [
    (["莱索托", "1966年", "独立", "。"], 1),                         # a date next to its event
    (["香港", "杜鹃", "的", "别称", "是", "白马银花", "。"], 5),        # a role before 是
    (["美国", "特勤局", "隶属于", "美国国土安全部", "。"], 3),          # an organisation after 隶属于 (a place
    # after 位于 is dropped since round 8: test_plm_rules_zh_r8.py)
    (["詹姆斯·麦肯锡", "创立", "了", "麦肯锡", "公司", "。"], 0),       # the agent of a creation
])
def test_chinese_knowledge_keeps_one_answer_relations(words, mask):
    from interpeval.benchmarks.plm.knowledge import one_answer_relation

    assert one_answer_relation("zh", words, mask, "wh_in_situ") is None


@pytest.mark.parametrize(("words", "mask", "reason"), [
    (["短䲟", "会", "随着", "寄主体色", "而", "改变", "颜色", "。"], 3, "more than one answer"),
    (["女神卡卡", "唱", "了", "国歌", "。"], 3, "more than one answer"),
    (["《白之春》", "的", "导演", "是", "阿部宽与大桥望美", "。"], 4, "a list"),      # a list answer
    (["刘德一", "拜", "了", "李文杰、刘裕能", "当", "老师", "。"], 3, "a list"),
    (["亚马逊", "雨林", "占", "地球", "雨林", "的", "一半以上", "。"], 6, "approximation"),
    (["阿波罗", "太空服", "中", "包含", "水冷内衣", "的", "内衣", "（", "如果", "有", "的话", "）", "。"], 4,
     "parenthesis"),
    # "…的名字是" matched only a character of a role: garbled statements came in
    (["提出", "解释", "人", "的", "名字", "是", "伊本·西那", "。"], 6, "more than one answer"),
])
def test_chinese_knowledge_drops_relations_that_are_not_one(words, mask, reason):
    from interpeval.benchmarks.plm.knowledge import one_answer_relation

    assert reason in one_answer_relation("zh", words, mask, "wh_in_situ")


def test_chinese_knowledge_drops_the_current_office_holder():
    from interpeval.benchmarks.plm.knowledge import self_contained

    # "IPCC现任主席是[李会晟]": 现任 ties the fact to when the paragraph was written
    assert "paragraph names" in self_contained("zh", ["IPCC", "现任", "主席", "是", "李会晟", "。"], 4)


def test_replacement_takes_words_read_in_one_sense_only():
    from interpeval.benchmarks.plm.synonyms import en_synonyms

    # a verb whose most frequent sense dominates its tagged uses is replaced, inflected like the original
    # (round 8: and at least as frequent, so "bought" → "purchased" is out, "screamed" → "yelled" in)
    item = _item(["The", "woman", "won", "the", "lottery", ",", "so", "she", "screamed", "."], 4, [1, 2, 8],
                 dimension="reasoning", rule="copa_repeat")
    partner = replace(item)
    assert partner is not None and partner.words[8] == "yelled" and recheck(item, partner) is None
    # first senses that mislead are never taken: "lonely" → "lone", "complaint" → "ailment", "moved" → "traveled"
    assert "lone" not in en_synonyms("lonely", "ADJ") and "ailment" not in en_synonyms("complaint", "NOUN")
    assert en_synonyms("move", "VERB") == []
    # a verb with a particle is a phrasal verb: "turned off" is not "sour off"
    phrasal = _item(["The", "man", "turned", "off", "the", "light", "."], 5, [1, 2], dimension="reasoning",
                    rule="copa_repeat")
    assert replace(phrasal) is None or replace(phrasal).words[2] == "turned"


def test_chinese_replacement_never_splits_a_compound():
    # this round's sample: 黄金|鱼 (jieba split the fish's name) became 金子鱼
    item = Item("zh", "computation", ["养鱼池", "里", "有", "140", "条", "黄金", "鱼", "，", "答案", "是", "185", "。"], 10,
                [5, 6], "equation_numbers", {})
    partner = replace(item)
    assert partner is None or partner.words[5] == "黄金"


def test_wsc_drops_a_referent_that_is_one_of_a_group(tmp_path):
    from collections import Counter

    from interpeval.benchmarks.plm.semantics import wsc_items

    xml = ("<collection><schema><text><txt1>The customer walked into the bank and stabbed one of the tellers. "
           "</txt1><pron>He</pron><txt2>was immediately taken to the hospital.</txt2></text><quote><quote1>"
           "</quote1><pron>He</pron><quote2>was immediately taken to the hospital</quote2></quote><answers>"
           "<answer>the customer</answer><answer>one of the tellers</answer></answers><correctAnswer>B"
           "</correctAnswer></schema></collection>")
    path = tmp_path / "plm_rationale" / "wsc" / "WSCollection.xml"
    path.parent.mkdir(parents=True)
    path.write_text(xml)
    drops = Counter()
    assert wsc_items(tmp_path, drops) == []  # not "The tellers was immediately taken to the hospital"
    assert any("one of a group" in reason for reason in drops)


def test_insertion_lower_cases_an_imperative_but_not_a_name():
    # this round's sample: "In fact , Think of a number , half it …" (a casing slip)
    think = Item("en", "computation", ["Think", "of", "a", "number", ",", "half", "it", ".", "The", "answer", "is", "18",
                                       "."], 11, [5], "equation_numbers", {})
    # round 9: no "In fact ," before an imperative at all ("Please think of a number …")
    assert insert_or_delete(think).words[:4] == ["Please", "think", "of", "a"]
    bill = _item(["Bill", "passed", "the", "plate", "to", "John", "because", "the", "[MASK]", "was", "full", "."], 8,
                 [0, 5, 10])
    assert insert_or_delete(bill).words[3] == "Bill"


def _computation_source(tmp_path, rows):
    import json

    folder = tmp_path / "plm_rationale" / "mwp"
    for name in ("alg514", "dolphin1878"):
        for part in ("trainset", "validset", "testset"):
            (folder / name).mkdir(parents=True, exist_ok=True)
            (folder / name / f"{part}.json").write_text(json.dumps(rows if part == "trainset" else []))
    return tmp_path


def test_computation_drops_a_ratio_across_units_and_marks_operation_words(tmp_path):
    from collections import Counter

    from interpeval.benchmarks.plm.computation import computation_items

    # round 6: Dolphin's "the ratio of 28 days to 4 weeks" has the answer 7 (it is 1: the units were not converted)
    rows = [{"id": 1, "original_text": "find the ratio of 28 days to 4 weeks .", "equation": "x=28/4", "ans": [7.0]},
            {"id": 2, "original_text": "find the ratio of 12 apples to 4 apples .", "equation": "x=12/4", "ans": [3.0]},
            {"id": 3, "original_text": "A number doubled is 14 . What is the number ?", "equation": "x=14/2",
             "ans": [7.0]},
            {"id": 4, "original_text": "Evaluate 3 x + 7 when x = 5 .", "equation": "x=3*5+7", "ans": [22.0]}]
    drops = Counter()
    items = computation_items(_computation_source(tmp_path, rows), "en", drops)["mwp_answer"]
    assert drops["computation: a ratio of quantities in two units (the source's answer ignores the conversion)"] == 2
    assert [it.answer for it in items] == ["3", "7", "22"] * 2
    assert "doubled" in [items[1].words[i] for i in items[1].rationale]  # round 6: the operation word was missing
    assert {"+", "="} <= {items[2].words[i] for i in items[2].rationale}  # round 7: "3 x 7 when x 5" says nothing


def test_computation_drops_an_unknown_in_a_denominator(tmp_path):
    from collections import Counter

    from interpeval.benchmarks.plm.computation import computation_items

    # this round's sample: "the sum of a number and ten times its reciprocal equals seven" — x + 10/x = 7: 2 and 5
    rows = [{"id": 1, "original_text": "the sum of a number and ten times its reciprocal equals seven ? What is this "
             "number ?", "equation": "m+10.0/m=7.0", "ans": [2.0]}]
    drops = Counter()
    assert not any(computation_items(_computation_source(tmp_path, rows), "en", drops).values())
    assert drops["computation: a square or an unknown in a denominator (a quadratic has two answers)"] == 2


def test_verb_agreement_drops_do_support():
    from collections import Counter

    from interpeval.benchmarks.conllu import Sentence
    from interpeval.benchmarks.plm.grammar import _verb_agreement

    # this round's sample: "The new NCL Epic [does] sound amazing , although I have n't sailed on her yet ." —
    # would / must / could fill the slot as well
    rows = [(1, "Epic", "PROPN", {"Number": "Sing"}, 3, "nsubj", True),
            (2, "does", "AUX", {"VerbForm": "Fin", "Tense": "Pres"}, 3, "aux", True),
            (3, "sound", "VERB", {"VerbForm": "Inf"}, 0, "root", True),
            (4, "have", "AUX", {"VerbForm": "Fin", "Tense": "Pres"}, 3, "aux", False)]
    drops = Counter()
    sentence = Sentence(1, {}, rows, [[3], [], [], [1, 2, 4], []], [0, 2, 2, 1, 2])
    assert 2 not in [wid for wid, _, _ in _verb_agreement(sentence, drops)]  # "does" is never masked
    assert any("do-support" in reason for reason in drops)


def test_chinese_rep_keeps_the_script_and_the_name():
    # this round's sample: 他們的思想 → 思维 (a simplified word in a traditional sentence); 羗山道 → 羗山路 (a road renamed)
    trad = Item("zh", "grammar", ["他們", "的", "思想", "在", "看來", "。"], 1, [0, 2], "de_particle", {})
    assert replace(trad) is None
    road = Item("zh", "knowledge", ["羗", "山道", "的", "长度", "是", "4.5公里", "。"], 5, [0, 1, 3], "wh_in_situ", {})
    assert replace(road) is None or replace(road).words[1] == "山道"


def test_chinese_knowledge_rationale_keeps_a_rare_character_of_a_name():
    from interpeval.benchmarks.plm.knowledge import _item

    words = ["羗", "山道", "的", "长度", "是", "4.5公里", "。"]
    item = _item("zh", words, 5, ["x", "n", "uj", "ns", "v", "x", "x"], "wh_in_situ", {})
    assert [words[i] for i in item.rationale] == ["羗", "山道", "长度"]


def test_chinese_insertion_keeps_the_script_and_says_in_fact_once():
    # round 7: "其实，" went into every traditional-script GSD sentence, and before 事實上
    traditional = _item(["異端", "裁判所", "的", "正式", "名稱", "為", "最高", "法庭", "。"], 2, [1, 4],
                        dimension="grammar", rule="de_particle", lang="zh")
    assert insert_or_delete(traditional).words[:2] == ["其實", "，"]
    simplified = _item(["印度", "空间", "研究", "组织", "创建", "于", "1972年", "。"], 6, [0, 1, 4],
                       dimension="knowledge", rule="wh_in_situ+statement_content", lang="zh")
    assert insert_or_delete(simplified).words[:2] == ["其实", "，"]
    in_fact = _item(["事實上", "，", "團購", "網站", "的", "產品", "原價", "很", "高", "。"], 4, [3, 6],
                    dimension="grammar", rule="de_particle", lang="zh")
    assert insert_or_delete(in_fact) is None


def test_chinese_deletion_keeps_degree_adverbs_before_an_adjective():
    # round 7: "我的办公室很吵" -> "我的办公室吵" and "描述非常分歧" -> "描述分歧" read unfinished
    item = _item(["大楼", "在", "建设", "，", "所以", "我", "的", "办公室", "很", "吵", "。"], 7, [0, 2, 4, 9],
                 dimension="reasoning", rule="copa_repeat", lang="zh")
    assert insert_or_delete(item).words == ["其实", "，", *item.words]
    gsd = Item("zh", "grammar", ["關於", "銅人", "的", "具體", "描述", "非常", "分歧", "。"], 2, [1, 4], "de_particle",
               {"source": "ud/UD_Chinese-GSD/zh_gsd-ud-dev.conllu"})
    assert insert_or_delete(gsd).words[:2] == ["其實", "，"]


def test_chinese_gsd_sentence_is_traditional_without_a_listed_character():
    # round 7: "儘管他的錢幣…" has none of the listed traditional-only characters but comes from GSD
    gsd = Item("zh", "grammar", ["儘管", "他", "的", "錢幣", "象徵", "意味", "雄厚", "。"], 2, [1, 3], "de_particle",
               {"source": "ud/UD_Chinese-GSD/zh_gsd-ud-test.conllu"})
    assert insert_or_delete(gsd).words[:2] == ["其實", "，"]


def test_wsc_drops_a_referent_named_one(tmp_path):
    from collections import Counter

    from interpeval.benchmarks.plm.semantics import WSC, wsc_items

    # round 7: "we rescued the [ones]", "He will be moving into the [one] on Thursday"
    schema = ("<schema><text><txt1>Joe has sold his house and bought a new one a few miles away. He will be moving "
              "into</txt1><pron>it</pron><txt2>on Thursday.</txt2></text><quote><quote1>moving into</quote1>"
              "</quote><answers><answer>the old house</answer><answer>the new one</answer></answers>"
              "<correctAnswer>B</correctAnswer></schema>")
    path = tmp_path / WSC
    path.parent.mkdir(parents=True)
    path.write_text(f"<collection>{schema}</collection>")
    drops = Counter()
    assert wsc_items(tmp_path, drops) == []
    assert drops["wsc: the referent's head word is 'one' (the [MASK] would read 'the one')"] == 1


def test_insertion_keeps_a_wsc_candidate_capitalised():
    # round 7: "In fact , frank was upset with Tom …"
    words = ["Frank", "was", "upset", "with", "Tom", "because", "the", "toaster", "Tom", "had", "sold", "him",
             "didn't", "work", "."]
    item = _item(words, 8, [0, 4, 10])
    assert insert_or_delete(item).words[3] == "Frank"
    assert transform(item) is None or "Frank" in transform(item).words


def test_english_replacement_never_renames_a_named_thing():
    # round 7: "The Maastricht treaty" -> "The Maastricht pact"
    words = ["The", "Maastricht", "treaty", "was", "signed", "in", "the", "year", "1992", "."]
    item = _item(words, 8, [1, 2, 4, 7], dimension="knowledge", rule="wh_passive+statement_content")
    partner = replace(item)
    assert partner is None or partner.words[2] == "treaty"
    after_i = _item(["I", "screamed", "because", "the", "spider", "bit", "me", "."], 4, [0, 1], dimension="reasoning",
                    rule="copa_repeat")
    assert replace(after_i).words[1] == "yelled"  # "I" is not a name


@pytest.mark.parametrize(("verb", "passive"), [("打破", True), ("進行", False), ("參加", False), ("認識", False)])
def test_bei_passive_only_for_an_affected_object(verb, passive):
    # round 7: "裝修工程被南洋酒店進行了", "儀式被宮崎滔天參加了" are not Chinese; "花瓶被酒店打破了" is
    words = ["酒店", verb, "了", "大", "的", "花瓶", "。"]
    tree = [(1, "nsubj", "NOUN", {}), (-1, "root", "VERB", {}), (1, "aux", "AUX", {}), (5, "amod", "ADJ", {}),
            (3, "mark", "PART", {}), (1, "obj", "NOUN", {}), (1, "punct", "PUNCT", {})]
    item = Item("zh", "grammar", words, 4, [3, 5], "de_particle", {"source": "ud/UD_Chinese-GSD/x.conllu"}, tree)
    made = transform(item)
    assert (made is not None and made.words[:5] == ["大", "的", "花瓶", "被", "酒店"]) == passive


def test_verb_agreement_drops_reported_speech():
    from collections import Counter

    from interpeval.benchmarks.conllu import Sentence
    from interpeval.benchmarks.plm.grammar import _verb_agreement

    # round 7: "The Center said Rita [was] extremely dangerous ." — "is" fits as well after "said"
    past = {"VerbForm": "Fin", "Tense": "Past", "Mood": "Ind"}
    rows = [(1, "Center", "PROPN", {"Number": "Sing"}, 2, "nsubj", True), (2, "said", "VERB", past, 0, "root", True),
            (3, "Rita", "PROPN", {"Number": "Sing"}, 5, "nsubj", True), (4, "was", "AUX", past, 5, "cop", True),
            (5, "dangerous", "ADJ", {}, 2, "ccomp", False)]
    drops = Counter()
    sentence = Sentence(1, {}, rows, [[2], [], [1, 5], [], [], [3, 4]], [0, 2, 1, 3, 3, 2])
    assert list(_verb_agreement(sentence, drops)) == []
    assert any("reported speech" in reason for reason in drops)


def test_deleting_the_first_word_capitalises_the_next():
    # round 7: "Truly a moment that speaks for itself ." -> "a moment …"
    item = _item(["Truly", "a", "moment", "that", "speaks", "for", "itself", "."], 6, [2, 4], dimension="grammar",
                 rule="reflexive_antecedent")
    assert insert_or_delete(item).words[:2] == ["A", "moment"]
