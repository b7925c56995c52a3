"""Knowledge instances: SQuAD-family questions turned into statements with the answer masked (the paper's §3.2).

English (SQuAD 2.0 dev part, XQuAD en, SQuADShifts new-wiki): wh-questions whose form a rule can turn around —
``wh_subject`` ("Who wrote X?" → "[MASK] wrote X ."), ``wh_be`` ("What is X?" → "X is [MASK] ."), ``wh_do``
("When/Where did X V?" → "X V-ed in [MASK] ."; "What did X V?" → "X V-ed [MASK] ."), with lemminflect for the
verb form. Chinese (CMRC 2018 trial/dev, XQuAD zh): questions keep the word order of the answer, so the wh-phrase
(什么, 谁, 哪里, 多少, 哪一年 …) is replaced by the answer and "？" by "。".
Only short answers (English ≤ 4 words, Chinese ≤ 8 characters) and statements that stand without their paragraph
(:func:`self_contained`) are kept. Rationale (``statement_content``): every content word of the statement — the
names and the relation that retrieve the fact (review round 5: the words also found in the paragraph's sentence
missed names written differently there, "Kublai's", "Beauséjour", and so were not sufficient).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace as dc_replace
from pathlib import Path
from typing import Any

from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.words import (
    en_tokens,
    function_words,
    has_cjk,
    is_en_content,
    is_en_function,
    is_en_plural,
    is_zh_content,
    word_list,
    zh_words,
)
from interpeval.errors import DataError
from interpeval.models.lineage import content_hash

SOURCES = {"en": ("xquad/xquad.en.json", "squad/squad2-dev-part.json", "squad/squadshifts-new_wiki.json"),
           "zh": ("cmrc2018/cmrc2018_trial.json", "cmrc2018/cmrc2018_dev.json", "xquad/xquad.zh.json")}
_BE = {"is", "was", "are", "were"}
_DO = {"did": "VBD", "does": "VBZ", "do": "VBP"}
_AUX = _BE | set(_DO) | {"has", "have", "had", "can", "could", "will", "would", "should", "may", "might", "must"}
#: words that point into the paragraph the question was asked about: without it no reader can resolve them
_EN_CONTEXT_WORDS = {"he", "she", "it", "they", "his", "her", "its", "their", "him", "them", "this", "these",
                     "those", "that", "there"}
#: answers that are not one answer ("between 150,000 and 200,000", "about 40")
#: participles that make "What was X known as …" a passive the statement rule would garble
_PASSIVE_WORDS = {"known", "called", "named", "referred", "considered", "regarded", "used", "located", "based",
                  "described", "defined", "termed", "nicknamed", "titled"}
_VAGUE = {"between", "about", "around", "approximately", "over", "under", "nearly", "almost", "more", "less",
          "some", "several", "many", "various", "roughly"}
#: words that tie a statement to when or where it was asked ("Currently speaker of …", "also", "then")
_EN_TIME_WORDS = {"currently", "now", "today", "recently", "presently", "nowadays", "formerly", "previously", "later",
                  "then", "yet", "still", "also", "again", "current", "recent", "former", "latest", "last", "next"}
#: words that end a lowercase noun phrase after "the"; a name after of/in/at … anchors it ("the airport in Manipur")
_EN_NP_STOP = {"of", "in", "on", "at", "from", "for", "among", "between", "by", "to", "with", "during", "as", "and",
               "or", "is", "was", "are", "were", "has", "have", "had", "that", "which", "who", "into", "after",
               "before", "than", "over", "under", "against"}
_EN_ANCHORS = {"of", "in", "on", "at", "from", "for", "among", "between"}
#: Chinese words that point at an event or time only the paragraph names (比赛: which game? 当时: when?)
_ZH_DEICTIC = ("现任", "現任", "本赛季", "本賽季", "该赛季", "這賽季", "比赛", "比賽", "比分", "当时", "當時", "目前", "现在", "現在", "今年", "去年", "本届", "本屆", "此次",
               "本次", "同年", "次年", "当年", "當年", "这场", "那场")
_ZH_VAGUE = ("超过", "超過", "大约", "大約", "约", "約", "近", "不到", "至少", "多于", "多於")
_ZH_CONTEXT_WORDS = ("他", "她", "它", "其", "该", "該", "这", "這", "此", "那", "本文", "文中", "作者")
#: question words; 什么/什麼 is never matched inside 为什么/為什麼 (why-questions are dropped before)
_ZH_WH = re.compile(r"什么时候|什麼時候|哪一年|哪年|哪一天|哪里|哪裡|哪儿|哪兒|(?<![为為])什[么麼]|多少|"
                    r"哪[个個位些种種家所座国國部本首支只隻条條项項间間]|谁|誰")
#: wh-words that stand before a noun the answer names ("哪所大学" → "北京大学"; "什么颜色" → "红色")
_ZH_WH_DETERMINER = re.compile(r"^(?:什[么麼]|哪.)$")
_ZH_NOT_ONE_ANSWER = re.compile(r"为什么|為什麼|怎么|怎麼|怎样|怎樣|如何|是否|吗|嗎|哪些")

# Relations that give a named subject one answer (review rounds 1–5: statements built from any other relation
# kept a fact that only the paragraph made unique — "[Kawann Short] led the Panthers in sacks" (which season?),
# "[Robert Koch] won the Nobel Prize in 1905", "[Kublai Khan] led the Borjigin clan"). A statement is kept only
# when its relation is one of these (:func:`one_answer_relation`).
#: "[MASK] V-ed <Name>": the agent of a creation or a one-time act
_EN_AGENT_VERBS = {"found", "cofound", "co-found", "write", "invent", "discover", "design", "compose", "paint",
                   "direct", "establish", "coin", "sculpt", "formulate", "author", "assassinate", "patent",
                   "compile", "translate", "pen"}
#: "<Name> V-ed in [year]" / "<Name> was V-ed in [year or place]": a one-time event
_EN_EVENT_VERBS = {"die", "found", "establish", "open", "publish", "release", "sign", "invent", "discover",
                   "complete", "abolish", "dissolve", "collapse", "end", "begin", "start", "abdicate", "launch",
                   "form", "bear", "build", "construct", "create", "incorporate", "assassinate", "crown", "bury",
                   "write", "compose", "paint", "premiere", "debut", "inaugurate", "ratify", "enact", "declare",
                   "headquarter", "locate", "demolish", "destroy", "retire", "marry", "sink", "dedicate"}
#: of those, the events a place answers ("Where was X born / buried / founded?")
_EN_PLACE_EVENTS = {"die", "bear", "bury", "found", "establish", "headquarter", "locate", "sign", "build",
                    "incorporate", "assassinate", "crown", "marry", "sink"}
#: "the <noun> of <Name>" / "<Name>'s <noun>": roles and attributes a thing has one of
_EN_ROLE_NOUNS = {"capital", "founder", "author", "inventor", "designer", "architect", "composer", "creator",
                  "currency", "headquarters", "motto", "nickname", "abbreviation", "acronym", "birthplace",
                  "father", "mother", "successor", "predecessor", "namesake", "anthem", "mascot", "seat",
                  "birthdate", "founding", "sculptor", "painter", "discoverer", "publisher", "writer", "screenwriter",
                  "lyricist", "librettist", "illustrator", "originator"}
#: modifiers that pick one of a set anchored by a name ("the first president of Kenya", "the largest city in Peru")
_EN_ONE_OF = {"first", "last", "final", "largest", "biggest", "smallest", "highest", "tallest", "longest",
              "oldest", "deepest", "earliest", "only", "sole"}
#: a subject that is part of a set ("Some of Luther's works were published in [1520]")
_EN_PART_OF = {"some", "many", "most", "several", "one", "two", "three", "few", "all", "both", "each", "another"}
#: "In what year was …" / "What year did …" ask When; "In what city was …" asks Where
_EN_WH_PHRASES = {("in", "what", "year"): "When", ("in", "which", "year"): "When", ("what", "year"): "When",
                  ("which", "year"): "When", **{(p, w, n): "Where" for p in ("in",) for w in ("what", "which")
                                                 for n in ("city", "country", "town", "state", "province")}}
_EN_MONTHS = ("January|February|March|April|May|June|July|August|September|October|November|December")
#: a year or a month of a year ("in 1998", "in August 1944"; a day would need "on")
_EN_DATE = re.compile(rf"\d{{4}}|(?:{_EN_MONTHS}),? \d{{4}}")
#: Chinese: an event a date answers (before or after the date: "莱索托[1966年]独立", "发生在[1947年]")
_ZH_EVENTS = ("出生", "生于", "诞生", "逝世", "去世", "病逝", "卒于", "成立", "创立", "创办", "创建", "建立", "建于",
              "建成", "落成", "竣工", "开通", "通车", "开业", "开幕", "开馆", "开播", "首播", "出版", "发行", "发表",
              "上映", "独立", "发现", "发明", "签订", "签署", "颁布", "即位", "登基", "称帝", "建国", "灭亡", "解散",
              "废除", "加冕", "首演", "问世", "发生", "爆发", "竣工", "成立于", "始建", "启用", "投入使用", "完工",
              "出生於", "逝於", "建於", "退役", "退休")
#: Chinese roles and attributes a named thing has one of ("中国的首都是[北京]", "香港杜鹃的别称是[白马银花]")
_ZH_ROLES = ("首都", "首府", "省会", "作者", "创始人", "创办人", "创建者", "创立者", "发明者", "发明人", "设计者",
             "设计师", "建筑师", "父亲", "母亲", "别称", "别名", "又称", "简称", "全称", "学名", "原名", "本名",
             "英文名", "中文名", "封地", "祖籍", "国籍", "出生地", "首任", "第一任", "导演", "作曲", "作词", "总部",
             "所在地", "货币", "官方语言", "前身", "继任者", "编剧", "作词者", "作曲者", "原著", "绰号", "外号",
             "谥号", "庙号", "年号", "艺名", "笔名", "俗名", "音译", "产地", "原产地", "首张专辑", "第一张专辑", "首部", "创始者", "发现者", "面积",
             "长度", "全长", "体长", "身高", "高度", "海拔", "深度", "直径", "宽度", "首位", "第一位", "最高峰",
             "最大城市", "首席执行官")
#: "[X]创立了…", "由[X]设计": the agent of a creation
_ZH_AGENT_VERBS = ("创立", "创办", "创建", "建立", "发明", "设计", "编写", "撰写", "执导", "导演", "作曲", "谱写",
                   "发现", "提出", "创作", "写", "著", "作词", "编剧", "绘制", "主持设计", "建造", "修建", "翻译")
#: "位于[X]": where a named thing is
_ZH_PLACE_VERBS = ("位于", "坐落于", "位於", "坐落於", "出生于", "生于", "葬于", "卒于", "逝世于", "成立于",
                   "发源于", "起源于", "出生在", "位在", "隶属于", "原产于", "源于", "产于")
#: the marks of a list or an approximate answer ("阿部宽与大桥望美", "李文杰、刘裕能", "一半以上")
_ZH_NOT_ONE = re.compile(r"[、，,]|与|及|以上|以下|左右|多万|余")
#: verbs and roles whose answer is a place inside places: "西米德兰兹郡位于[英国]" takes 英格兰 as well, "克利希广场位于
#: [法国]" 巴黎, "巫医起源于[《大荒西经》]" 《山海经》 (round 8); only 隶属于 names one organisation
_ZH_NESTED_PLACE = tuple(v for v in _ZH_PLACE_VERBS if v != "隶属于")
_ZH_PLACE_ROLES = ("祖籍", "出生地", "所在地", "总部", "产地", "原产地")
#: a subject that is part of a set: "路德一些最著名的著作是[1520年]发表的" (as English "Some of Luther's works")
_ZH_PART_OF = re.compile(r"一些|部分|许多|其中|之一|有些|多数")
#: characters of transliterated names after the first ("马赛罗", "布拉德利"): one part of a foreign name, shared by
#: many people, unless the full name is given with its middle dot ("伊芳·卡特菲")
_ZH_TRANSLITERATION = set("拉德利斯尔克特尼亚纳多奥维里卡丹萨塞赛罗洛夫基姆伦森默曼顿逊普布格兰恩莫诺蒙托雷乔艾"
                          "比迪杰吉皮佩埃蒂西勒贝伯哈汉沃华柯科瓦茨兹马米梅麦玛菲弗福罗鲁卢路娜娅莎丝妮琳")
#: measures of a kind, not of one thing: "剃刀嘴凤冠雉体长为[89厘米]" — a species' length is a range, 83 or 85 厘米 fit
#: as naturally (independent review, seed 9393)
_ZH_KIND_MEASURES = ("体长",)
#: what is said of a person: with one part of a foreign name the statement names no one in particular
_ZH_PERSON_FACTS = ("退役", "退休", "去世", "逝世", "病逝", "出生", "诞生", "原名", "本名", "艺名", "笔名", "母亲",
                    "父亲", "国籍", "祖籍", "谥号", "绰号", "外号")


def _questions(path: Path) -> list[tuple[str, str, str, int, str, str]]:
    """``(title, qid, question, answer_start, answer, context)`` for every answerable question of a SQuAD file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))["data"]
    except (json.JSONDecodeError, KeyError, TypeError) as err:
        raise DataError(path, None, f"is not a SQuAD-format file ({err})") from None
    out = []
    for a, article in enumerate(data):
        for paragraph in article.get("paragraphs", []):
            for qa in paragraph.get("qas", []):
                if qa.get("is_impossible") or not qa.get("answers"):
                    continue
                ans = qa["answers"][0]
                out.append((article.get("title", str(a)), str(qa["id"]), qa["question"].strip(),
                            int(ans["answer_start"]), ans["text"].strip(), paragraph["context"]))
    return out


def _lemma(word: str) -> str | None:
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word.lower()).get("VERB")
    return lemmas[0] if lemmas else None


def _inflect(word: str, tag: str) -> str | None:
    """The ``tag`` form of a verb given as its base form, else None."""
    from lemminflect import getInflection

    if word.lower() in _AUX or _lemma(word) != word.lower():
        return None
    forms = getInflection(word.lower(), tag)
    return forms[0] if forms else None


def _is_finite(word: str) -> bool:
    """A past or third-person present form of a lexical verb ("wrote", "causes"), not an auxiliary, and not a
    word that reads as a plural noun ("What languages is …")."""
    from lemminflect import getAllLemmas, getInflection

    low = word.lower()
    lemma = _lemma(low)
    if low in _AUX or lemma is None or lemma == low:
        return False
    if "NOUN" in getAllLemmas(low) and not low.endswith("ed"):
        return False
    return low in {*getInflection(lemma, "VBD"), *getInflection(lemma, "VBZ")}


def _is_participle_or_preposition(word: str) -> bool:
    from lemminflect import getInflection

    low = word.lower()
    lemma = _lemma(low)
    participle = lemma is not None and lemma != low and low in getInflection(lemma, "VBN")
    return participle or low in {"of", "in", "on", "at", "by", "for", "with", "from", "to", "as", "about", "into",
                                 "after", "before", "over", "under", "through", "during", "against", "between",
                                 "among", "within", "without", "around", "behind", "like"}


def _capitalise(words: list[str]) -> list[str]:
    return [words[0][:1].upper() + words[0][1:], *words[1:]] if words else words


_NAME_JOINERS = {"of", "the", "and", "de", "von", "van", "du", "la", "le", "al", "bin", "&"}


def _named_or_number(answer: str) -> bool:
    """A name ("Henry of Navarre", "Il milione" does not count: every word but joiners capitalised) or a number."""
    words = en_tokens(answer)
    return answer[:1].isdigit() or all(w[:1].isupper() or w.lower() in _NAME_JOINERS or not w[:1].isalpha()
                                       for w in words)


def en_statement(question: str, answer: str) -> tuple[list[str], int, str] | str:
    """``(words, mask index, rule)`` of the statement for an English question, or the reason no rule applies.

    Shapes: "Who/What V-ed X?" → "[MASK] V-ed X ." (``wh_subject``); "Who/What is X?" → "X is [MASK] ."
    (``wh_be``; not when X ends in a participle or preposition: "What is X called?"); "When/Where did X V?" →
    "X V-ed in [MASK] ." (``wh_do``; When only with a year, Where only with a capitalised place); "What did X V?"
    → "X V-ed [MASK] ." (``wh_do``); "In which city was X born?" → "X was born in the city of [MASK] ."
    (``wh_place_typed``); "Which architect designed X?" → "[MASK] designed X ." (``wh_subject_typed``). Every other
    shape (How, Why, Which N is …, What N V …) is left out.
    """
    q = en_tokens(question.rstrip("?").strip())
    place_noun = None
    for phrase, wh in _EN_WH_PHRASES.items():
        if tuple(w.lower() for w in q[:len(phrase)]) == phrase:
            q = [wh, *q[len(phrase):]]
            place_noun = phrase[-1] if phrase[-1] in _EN_PLACE_NOUNS else None
            break
    ans = en_tokens(answer)
    if len(q) < 3 or not ans or len(ans) > 4:
        return "knowledge: answer longer than four words or question too short"
    first, second = q[0].lower(), q[1]
    if "," in q:
        return "knowledge: question with a comma (a clause the statement would garble)"
    if _is_finite(ans[0]) or _is_participle_or_preposition(ans[0]):
        return "knowledge: answer is a verb phrase or starts with a preposition"
    if ans[0].lower() in _VAGUE:
        return "knowledge: answer is a range or an approximation"
    if first in ("who", "what") and second.islower() and _is_finite(second):
        if not _named_or_number(answer):
            return "knowledge: subject answer is not a name or number (many fillers fit)"
        return ["[MASK]", *q[1:], "."], 0, "wh_subject"
    if first in ("who", "what") and second.lower() in _BE:
        rest = q[2:]
        if not (rest[0].lower() in ("the", "a", "an") or rest[0][:1].isupper() or rest[0][:1].isdigit()):
            return "knowledge: 'What is <adjective/adverb> …' (the subject is not a noun phrase: 'Currently speaker')"
        if _is_participle_or_preposition(rest[0]) or _is_finite(rest[0]) or _PASSIVE_WORDS & {w.lower() for w in rest}:
            return "knowledge: 'What is X known as / V-ed by …' (a passive the statement would garble)"
        if {"a", "an"} & {w.lower() for w in rest}:
            return "knowledge: 'What is a …' (an indefinite description has many answers)"
        if not _named_or_number(answer):
            return "knowledge: answer to 'What is X' is not a name or number (a description, many wordings)"
        if _is_participle_or_preposition(rest[-1]):
            return "knowledge: 'What is X V-ed / X of?' (the verb belongs before the answer)"
        return [*_capitalise(rest), second.lower(), "[MASK]", "."], len(rest) + 1, "wh_be"
    if first in ("when", "where") and second.lower() in _BE and len(q) > 3:
        participle = q[-1].lower()
        lemma = _lemma(participle)
        if lemma not in _EN_EVENT_VERBS or not _is_participle_or_preposition(participle) or (
                first == "where" and lemma not in _EN_PLACE_EVENTS):
            return "knowledge: 'When/Where was X V-ed?' with a verb not of a one-time event"
        if first == "when" and not _EN_DATE.fullmatch(answer):
            return "knowledge: 'When' answered by other than a year or a month of a year"
        if first == "where" and not _named_or_number(answer):
            return "knowledge: 'Where' answered by other than a place name"
        subject, adverb = q[2:-1], []
        if subject[-1] in _EN_TIME_ADVERBS:  # "When was the Lijnbaan first opened?": "… was first opened in …"
            subject, adverb = subject[:-1], subject[-1:]
        words = [*_capitalise(subject), second.lower(), *adverb, participle, "in", "[MASK]", "."]
        return _en_typed_place(words, place_noun) if place_noun else (words, len(words) - 2, "wh_passive")
    if first in ("when", "where", "what") and second.lower() in _DO and len(q) > 3:
        from lemminflect import getAllLemmas

        form = _inflect(q[-1], _DO[second.lower()])
        # the lexical verb must be the last word: "Where did the discharge go in Europe in the last Ice age?" has
        # it in the middle — a base-form verb followed by a preposition ("go in")
        inner_verb = any("VERB" in getAllLemmas(w.lower()) and _lemma(w) == w.lower() and w.islower()
                         and (_is_participle_or_preposition(q[k + 1]) or k == len(q) - 2)
                         for k, w in enumerate(q[3:-1], start=3))  # "take place": the verb is not the last word
        if form is None or q[-1].lower() in ("do", "have", "mean") or inner_verb:
            return "knowledge: do-question not ending in its lexical verb"
        words = [*_capitalise(q[2:-1]), form]
        if first == "when" and not _EN_DATE.fullmatch(answer):
            return "knowledge: 'When' answered by other than a year or a month of a year"
        if first == "where" and not answer[:1].isupper():
            return "knowledge: 'Where' answered by other than a place name"
        if first == "what" and not _named_or_number(answer):
            return "knowledge: object answer is not a name or number (many fillers fit)"
        tail = ["in", "[MASK]", "."] if first in ("when", "where") else ["[MASK]", "."]
        if place_noun:
            return _en_typed_place(words + tail, place_noun)
        return words + tail, len(words) + tail.index("[MASK]"), "wh_do"
    if first in ("which", "what") and second.lower() in _EN_AGENT_NOUNS and len(q) > 3:
        return _en_typed_subject(q, answer)
    return "knowledge: question shape without a rule (how, why, which, what + noun …)"


#: "In which city was X born?": the noun says the answer's kind, so "X was born in the city of [MASK]" takes no year
#: (round 9; "country" reads badly in that frame and stays with the place rule of :func:`en_date_or_place`)
_EN_PLACE_NOUNS = {"city", "town", "state", "province"}
#: "Which architect designed X?": nouns that say the answer is a person or an organisation that can be an agent
_EN_PERSON_NOUNS = {"person", "man", "woman", "architect", "author", "writer", "poet", "novelist", "composer",
                    "painter", "artist", "sculptor", "scientist", "physicist", "chemist", "mathematician", "engineer",
                    "inventor", "explorer", "philosopher", "economist", "king", "queen", "emperor", "pope",
                    "president", "director", "designer", "playwright", "historian", "astronomer", "monk"}
_EN_AGENT_NOUNS = _EN_PERSON_NOUNS | {"company", "firm", "organization", "organisation", "band", "studio"}


def _en_typed_place(words: list[str], noun: str) -> tuple[list[str], int, str]:
    """"X was born in [MASK] ." of a question that named the place's kind → "X was born in the city of [MASK] ."."""
    m = words.index("[MASK]")
    out = [*words[:m], "the", noun, "of", *words[m:]]
    return out, m + 3, "wh_place_typed"


def _en_typed_subject(q: list[str], answer: str) -> tuple[list[str], int, str] | str:
    """"Which/What <agent noun> V-ed X?" → "[MASK] V-ed X ." (``wh_subject_typed``, round 9): the noun says the
    answer is a person or an organisation; the answer must be a name of that kind (a person by at least two
    words; an organisation by a name), and the relation is checked as ``wh_subject``'s (an act of creation)."""
    noun, verb = q[1].lower(), q[2]
    if not (verb.islower() and _is_finite(verb)):
        return "knowledge: 'Which <noun> …' not followed by its verb ('Which architect was …')"
    if not _named_or_number(answer) or answer[:1].isdigit():
        return "knowledge: subject answer is not a name or number (many fillers fit)"
    if noun in _EN_PERSON_NOUNS and len(en_tokens(answer)) < 2:
        return "knowledge: 'Which <person noun>' answered by one word (a surname alone: who is that?)"
    return ["[MASK]", *q[2:], "."], 0, "wh_subject_typed"


def zh_statement(question: str, answer: str) -> tuple[str, str, int] | str:
    """``(text before, text after, 0)`` around the masked answer for a Chinese question (the wh-word replaced in
    place; a noun after 什么/哪所 … that the answer names is dropped), or the reason no rule applies."""
    q = question.strip().rstrip("？?").strip()
    if _ZH_NOT_ONE_ANSWER.search(q):
        return "knowledge: why/how/yes-no/list question"
    found = list(_ZH_WH.finditer(q))
    if len(found) != 1 or not 1 <= len(answer) <= 8:
        return "knowledge: not one wh-word, or answer longer than eight characters"
    if found[0].group() in ("多少", "几", "幾") and not re.search(r"[\d零一二三四五六七八九十百千万萬两兩]", answer):
        return "knowledge: a how-many question answered without a number"
    m = found[0]
    after = q[m.end():]
    if re.fullmatch(r"\d{3,4}", answer) and ("年" in m.group() or "时候" in m.group()) and not after.startswith("年"):
        after = "年" + after  # "是[1992]签署的" lacks 年 (round 8): the year keeps its unit outside the mask
    numeric = m.group() in ("多少", "几", "幾") or bool(re.search(r"\d", answer))
    for n in (4, 3, 2, 1):  # "多少次擒杀" with the answer "136次", "有多少平方米" with "4998平方米", "1920年代年代"
        if numeric and len(answer) > n and after[:n] == answer[-n:] and not answer[-n:].isdigit():
            after = after[n:]
            break
    else:
        if _ZH_WH_DETERMINER.match(m.group()) and after:
            word, flag = zh_words(after)[0]
            if flag.startswith("n") and after.startswith(word):
                after = after[len(word):]
    return q[:m.start()], after + "。", 0


def _unanchored_the(words: list[str], mask: int) -> bool:
    """Whether the statement has a definite "the X" of lowercase words that no name anchors ("during the war",
    "the committee established by Seaman"): only the paragraph says which X. Anchored: "the X of/in/among … Name",
    "the X [MASK]", a capitalised word right after "the"."""
    for i, w in enumerate(words):
        if w.lower() != "the" or i == mask:
            continue
        k = i + 1
        while k < len(words) and k != mask and words[k].isalpha() and words[k].islower() and words[k] not in _EN_NP_STOP:
            k += 1
        if k == i + 1:  # "the Baltic", "the [MASK]"
            continue
        nxt = words[k] if k < len(words) else ""
        if k == mask or nxt[:1].isupper() or nxt.endswith(("'s", "’s")):
            continue
        if nxt in _EN_ANCHORS and k + 1 < len(words):
            j = k + 1  # "of Name" anchors; "of the Y" is anchored when that "the Y" is (checked in its own turn)
            if j == mask or words[j][:1].isupper() or words[j][:1].isdigit() or words[j] == "the":
                continue
        return True
    return False


def self_contained(lang: str, words: list[str], mask: int) -> str | None:
    """Why a statement would still need its paragraph (the reason of the drop), or None: the answer is repeated
    outside the mask, a time-relative word, an unanchored "the X", a lowercase answer ("the British"); in Chinese
    an event or time only the paragraph names (比赛, 当时 …), a 被 passive turned from a question, a described
    answer (…的…)."""
    answer = words[mask]
    sep = "" if lang == "zh" else " "
    rest = sep.join(w for i, w in enumerate(words) if i != mask)
    if lang == "en":
        if re.search(r"\b" + re.escape(answer.lower()) + r"\b", rest.lower()):
            return "knowledge: the answer is repeated in the statement"
        if not (answer[:1].isupper() or answer[:1].isdigit()):
            return "knowledge: answer starts lowercase (not a name: 'the British')"
        if any(w.lower() == v.lower() and w.isalpha() for w, v in zip(words, words[1:], strict=False)):
            return "knowledge: a word repeated ('The the …': the source question is garbled)"
        if "'" in words or "’" in words:
            return "knowledge: a possessive split from its word (\"1751 ' s\")"
        if re.fullmatch(r"[\d,.]+", answer) and not re.fullmatch(r"1\d{3}|20\d{2}", answer) and not any(
                re.fullmatch(r"1\d{3}|20\d{2}", w) for w in words):
            return "knowledge: a count or statistic without its year (it changes over time)"
        if any(w.lower() in _EN_TIME_WORDS for i, w in enumerate(words) if i != mask):
            return "knowledge: time-relative or discourse word (currently, also, then …)"
        if _unanchored_the(words, mask):
            return "knowledge: 'the X' that no name anchors (the war, the committee …)"
        return None
    if answer in rest:
        return "knowledge: the answer is repeated in the statement"
    if any(d in rest for d in _ZH_DEICTIC):
        return "knowledge: an event or time only the paragraph names (比赛, 当时, 目前 …)"
    if "被" in rest:
        return "knowledge: 被 passive turned from a question (its word order garbles the fact)"
    if "的" in re.sub(r"《[^》]*》", "", answer):
        return "knowledge: answer is a description (…的…), not a name"
    if _ZH_PART_OF.search(rest):
        return "knowledge: a subject that is part of a set (一些, 部分 …: which of them?)"
    if _zh_partial_foreign_name(words, mask):
        return "knowledge: a person named by one part of a foreign name (布拉德利, 马赛罗: which one?)"
    return None


def _zh_partial_foreign_name(words: list[str], mask: int) -> bool:
    """Whether a statement about a person names them by one part of a transliterated name ("马赛罗是[2007年]退役的",
    "布拉德利在[2005年]宣布退役"): the name opens the statement, has no middle dot, and every character after the
    first is a transliteration character."""
    if mask == 0:
        return False
    head = re.match(r"[\u4e00-\u9fff]{2,5}?(?=的|是|在|于|於|从|曾|宣布|出生|去世|逝世|退役|退休)", "".join(words[:mask]))
    rest = "".join(w for i, w in enumerate(words) if i != mask)
    return bool(head and all(c in _ZH_TRANSLITERATION for c in head.group()[1:])
                and any(f in rest for f in _ZH_PERSON_FACTS))


def _anchored(words: list[str], k: int, after: tuple[str, ...]) -> bool:
    """Whether the noun phrase around word ``k`` is tied to a name: "<Name>'s … k" before it, or "of / in / for
    (the) <Name>" after it."""
    j = k + 1
    while j < len(words) and words[j].islower() and words[j] not in _EN_NP_STOP:
        j += 1  # the rest of the noun ("first president", "largest city")
    if j + 1 < len(words) and words[j] in after:
        name = j + 2 if words[j + 1] == "the" and j + 2 < len(words) else j + 1
        if words[name][:1].isupper() or words[name][:1].isdigit():
            return True
    return any(w.endswith(("'s", "’s")) and w[:1].isupper() for w in words[:k])


def one_answer_relation(lang: str, words: list[str], mask: int, rule: str) -> str | None:
    """Why the statement's relation leaves a named subject more than one answer (the reason of the drop), or None.

    English: "[MASK] V-ed <Name>" with V an act of creation (``_EN_AGENT_VERBS``: wrote, founded, invented …);
    "X V-ed in [MASK]" / "X was V-ed in [MASK]" with V a one-time event (``_EN_EVENT_VERBS``: died, was born,
    was founded …); "X is [MASK]" with X a role or attribute a thing has one of (``_EN_ROLE_NOUNS``: the capital of,
    the founder of …) or one picked out of a named set ("the first president of Kenya"). Chinese: a date next to
    an event word (``_ZH_EVENTS``), a role before 是/为/叫 (``_ZH_ROLES``), an agent before a creation verb
    (``_ZH_AGENT_VERBS``) or a place after 位于 … (``_ZH_PLACE_VERBS``)."""
    no = "knowledge: relation with more than one answer for its subject (led, won, played …)"
    if lang == "en":
        low = [w.lower() for w in words]
        if " and " in f" {words[mask]} " or re.search(r"\d\s*[–-]\s*\d", words[mask]):
            return "knowledge: a list or a score as the answer ('Switzerland and the Netherlands', '20–18')"
        if low[0] in _EN_PART_OF and mask != 0:
            return "knowledge: a subject that is part of a set ('Some of Luther's works')"
        if rule == "wh_passive":
            return None  # its verb was checked on the question (``en_statement``)
        if rule == "wh_place_typed":  # "X died / was born in the city of [MASK]": a place event
            return None if _lemma(low[mask - 5]) in _EN_PLACE_EVENTS else no
        if rule.startswith("wh_subject"):
            named_object = any(w[:1].isupper() for w in words[2:])
            return None if _lemma(low[1]) in _EN_AGENT_VERBS and named_object else no
        if rule == "wh_do":
            if mask < 2 or low[mask - 1] != "in":
                return "knowledge: 'What did X V?' (a thing done has many objects)"
            lemma = _lemma(low[mask - 2])
            place = not _EN_DATE.fullmatch(words[mask])
            return None if lemma in (_EN_PLACE_EVENTS if place else _EN_EVENT_VERBS) else no
        subject = words[:mask - 1]
        for k, w in enumerate(subject):
            if (w.lower() in _EN_ROLE_NOUNS and _anchored(subject, k, ("of", "for"))
                    or w.lower() in _EN_ONE_OF and _anchored(subject, k, ("of", "in", "for"))):
                return None
        return "knowledge: 'X is [MASK]' with X not a role or attribute a named thing has one of"
    answer = words[mask]
    before, after = "".join(words[:mask]), "".join(words[mask + 1:]).rstrip("。")
    if _ZH_NOT_ONE.search(answer) or "（" in before + after or "(" in before + after:
        return "knowledge: a list, an approximation or a parenthesis"
    # a bare number is a year only with its 年 after it or three or four digits ("威尼斯爆发了[22]次瘟疫" is a count)
    date = re.fullmatch(r"(?:公元前?)?\d{1,4}年(?:\d{1,2}月)?(?:\d{1,2}日)?|\d{3,4}|[一二三四五六七八九十〇零]{2,4}年",
                        answer) and not re.match(r"[次个個名人位件座场場届屆]", after)
    if date and (any(e in before[-6:] for e in _ZH_EVENTS) or any(e in after[:8] for e in _ZH_EVENTS)):
        return None
    role = re.search(r"(" + "|".join(_ZH_ROLES) + r")(?:是|为|為|叫|叫做|名为|称为|有|达|約|约)?$", before)
    if not date and (before.endswith(_ZH_NESTED_PLACE) or role and role.group(1) in _ZH_PLACE_ROLES):
        return "knowledge: a place inside places (位于[英国]: 英格兰 fits as well)"
    if role and role.group(1) in _ZH_KIND_MEASURES:
        return "knowledge: a measure of a kind (体长 of a species is a range: 83 or 85 厘米 fit as well)"
    if not date and _zh_place_belongs(words, mask):
        return "knowledge: a place inside places (位于[英国]: 英格兰 fits as well)"
    if role and role.group(1) == "谥号" and re.search(r"[王帝公侯]$", answer) and len(answer) > 2:
        return "knowledge: a 谥号 written with its title (蜀献王: the 谥号 is 献)"
    if not date and role:
        return None
    if not date and before.endswith(_ZH_PLACE_VERBS):
        return None
    if mask == 0 and after.startswith(_ZH_AGENT_VERBS) or before.endswith("由") and after.startswith(_ZH_AGENT_VERBS):
        return None
    return "knowledge: relation with more than one answer for its subject (领导, 获得, 有 …)"


def _zh_place_belongs(words: list[str], mask: int) -> bool:
    """Whether a place is said to belong somewhere ("威姆兰隶属于[斯韦阿法院]"): a place belongs to a country, a
    province and a court district at once, so a reader gives 瑞典 (seed 9393); an organisation's 隶属于 names one
    body ("美国特勤局隶属于[美国国土安全部]")."""
    if mask == 0 or words[mask - 1] != "隶属于":
        return False
    subject = zh_words("".join(words[:mask - 1]).split("，")[-1])
    return bool(subject) and subject[-1][1].startswith("ns")  # 美国|特勤|局 ends in an organisation's word


def _inside_zh_name(words: list[str], flags: list[str], i: int, mask: int) -> bool:
    """Whether word ``i`` is a lone character of a name jieba split apart: a CJK character, not a function word,
    next to a name-tagged word (nr, ns, nt, nz)."""
    if len(words[i]) != 1 or not has_cjk(words[i]) or words[i] in function_words("zh"):
        return False
    return any(0 <= j < len(words) and j != mask and flags[j].startswith(("nr", "ns", "nt", "nz"))
               for j in (i - 1, i + 1))


def _en_name(word: str) -> bool:
    """A proper name: capitalised and not an English common word ("Warsaw", "Jin", "IPCC", "Apollo"; not
    "University", "Library", "Summer"), an acronym, or with a digit. (Three capitalised words in a row, "the
    Federal Energy Office", also name one thing.)"""
    from lemminflect import getAllLemmas

    bare = re.sub(r"['’]s$", "", word)
    return bool(bare[:1].isupper() and (sum(c.isupper() for c in bare) >= 2 or any(c.isdigit() for c in bare) or
                                        not is_en_function(bare) and not getAllLemmas(bare.lower())))


def _item(lang: str, words: list[str], mask: int, flags: list[str] | None, rule: str,
          prov: dict[str, Any]) -> Item | str:
    why = self_contained(lang, words, mask) or one_answer_relation(lang, words, mask, rule)
    if why:
        return why
    if lang == "en":
        if any(w.lower() in _EN_CONTEXT_WORDS for i, w in enumerate(words) if i != mask):
            return "knowledge: statement refers to its paragraph (he, it, this …)"
        if not any(w[:1].isupper() for i, w in enumerate(words) if i not in (0, mask)):
            return "knowledge: statement names no entity (no capitalised word)"
        capitalised = "".join("C" if w[:1].isupper() and i != mask else " " for i, w in enumerate(words))
        if not any(_en_name(w) for i, w in enumerate(words) if i != mask) and "CCC" not in capitalised[1:]:
            return ("knowledge: an entity named only by common words ('the University Library', 'the Summer "
                    "Theatre': which one?)")
        content = [i for i, w in enumerate(words) if i != mask and is_en_content(w)]
    else:
        if any(c in w for i, w in enumerate(words) if i != mask for c in _ZH_CONTEXT_WORDS):
            return "knowledge: statement refers to its paragraph (他, 该, 这 …)"
        if not any(f.startswith(("nr", "ns", "nt", "nz", "eng")) or "《" in words[i]
                   for i, f in enumerate(flags or []) if i != mask):
            return "knowledge: statement names no entity (no name, place, organisation or title)"
        answer = words[mask]
        if answer.startswith(_ZH_VAGUE) or not (re.search(r"[\dA-Za-z《]", answer) or any(
                f.startswith(("nr", "ns", "nt", "nz", "m", "t")) for _, f in zh_words(answer))):
            return "knowledge: answer is not a name, number, date or title (many wordings)"
        # a character jieba does not know (x) is part of a name ("羗|山道"): the rationale needs it to say which;
        # so is a single character jieba splits off inside a name ("西|米德兰|兹|郡", "福斯|否|洛斯"; round 8)
        tags = flags or []
        titled = {i for i in range(len(words)) if "".join(words[:i]).count("《") > "".join(words[:i]).count("》")}
        content = [i for i, f in enumerate(tags) if i != mask and (
            is_zh_content(words[i], f) or f == "x" and has_cjk(words[i]) or _inside_zh_name(words, tags, i, mask)
            or i in titled and has_cjk(words[i])  # every word of a title: 《暴政的假面游行》 (round 8)
            or words[i] in _ZH_ROLES)]  # the relation, whatever jieba's tag: 前身 is tagged r (seed 9393)
    if not content:
        return "knowledge: statement without content words"
    return Item(lang, "knowledge", words, mask, content, f"{rule}+statement_content", prov)


#: adverbs that stand between "was" and its participle ("was first opened", not "The Lijnbaan first was opened")
_EN_TIME_ADVERBS = {"first", "originally", "initially", "officially", "formally", "finally", "eventually", "last"}
#: verbs whose "in [MASK]" takes only a place ("was located in"); after other event verbs a year fits as well
_EN_PLACE_ONLY = {"locate", "headquarter", "situate", "base"}


def en_date_or_place(item: Item) -> Item | str:
    """An English event statement whose "in [MASK]" only one kind of answer fits, or why none: "X died in [MASK]"
    takes a year and a place alike ("Yesun Temur died in [Shangdu]" / 1328), so a year answer is asked as "in the
    year [MASK]"; a place answer is kept only after a verb that takes no date ("was located in"); a month of a
    year ("began in [March 2011]") is dropped."""
    words, m = item.words, item.mask
    if m < 2 or words[m - 1] != "in" or not item.rule.startswith(("wh_do", "wh_passive")):
        return item
    if re.fullmatch(r"\d{4}", words[m]):
        shifted = [i + 2 if i >= m else i for i in item.rationale]
        return dc_replace(item, words=[*words[:m], "the", "year", *words[m:]], mask=m + 2,
                          rationale=sorted([*shifted, m + 1]))
    if _EN_DATE.fullmatch(words[m]):
        return "knowledge: a month of a year after 'in' (a place fits the slot as well)"
    if _lemma(words[m - 2].lower()) not in _EN_PLACE_ONLY:
        return "knowledge: a place after an event's 'in' (a year fits the slot as well: 'died in [Shangdu]')"
    return item


#: Chinese dynasty names borne by several dynasties (the Jin of 266 and of 1115, the Liu Song and the Song …): "the
#: Jin dynasty began in [MASK]" has two answers unless a qualifier (Later, Northern …) says which (round 8)
_EN_SHARED_DYNASTIES = {"zhou", "qin", "han", "wei", "jin", "song", "qi", "liang", "chen", "zhao", "yan", "tang", "chu",
                        "wu", "shu", "xia", "liao"}
_EN_DYNASTY_QUALIFIERS = {"northern", "southern", "eastern", "western", "later", "former", "early", "late", "cao",
                          "liu", "shu", "wu", "jurchen"}
#: ship prefixes: a ship's name is given to ship after ship (HMS Dreadnought of 1875, 1906, 1960)
_EN_SHIP_PREFIXES = {"HMS", "USS", "SS", "HMAS", "HMCS", "RMS", "HMT"}
_EN_NEGATIONS = {"not", "never", "n't", "no"}
#: capitalised words of an institution's name that say nothing of which monarchy's it is ("the Imperial Library
#: Directorate": which empire's?)
_EN_RANK_WORDS = {"imperial", "royal", "regal", "papal"}
#: agreements named after the city they were signed in: a city gives its name to many (Helsinki 1974 and 1992,
#: Lisbon 1668 and 2007, Amsterdam 1717 and 1997)
_EN_AGREEMENTS = {"treaty", "convention", "agreement", "accord", "accords", "protocol", "pact", "declaration"}


def _demonym(word: str) -> bool:
    """A nationality or people's adjective ("French", "European", "Ottoman"): a name that ends like one."""
    return _en_name(word) and not word.isupper() and word.lower().endswith(("an", "ish", "ese", "ic", "ch"))


def _city(word: str) -> bool:
    """A place name an agreement can be named after ("Helsinki", "Lisbon"; not "European", "ECSC")."""
    return _en_name(word) and not word.isupper() and not _demonym(word)


def _en_subject(words: list[str], mask: int) -> list[str]:
    """The words before the statement's verb ("The Jin dynasty" of "The Jin dynasty began in …"); empty when the
    answer is the subject."""
    for k, w in enumerate(words):
        if k == mask:
            return []
        if w.lower() in _BE or w.islower() and _lemma(w) in _EN_EVENT_VERBS | _EN_AGENT_VERBS:
            return words[:k]
    return []


def en_one_referent(item: Item, context: str) -> str | None:
    """Why an English statement names something several things are called, or rests on a claim a reader would not
    give, so that its answer is not one (the reason of the drop), or None (round 8; the knowledge failures of rounds
    6–7c): a dynasty name several dynasties bore, a ship's name, an acronym alone, a person named by a common given
    name and a surname, a superlative with no name to say of what ("the largest Huguenot Society"), an answer that
    repeats a word of the statement ("the nickname for the Delta … is [Rhine Delta]"), a surname alone as the
    answer, a negated relation, and a birth or death year the paragraph does not give as one (a term of office,
    "Otto von Bismarck (1862–90)")."""
    words, m = item.words, item.mask
    answer = words[m]
    subject = [] if item.rule.startswith("wh_be") else _en_subject(words, m)  # wh_be: one_answer_relation
    low = [w.lower() for w in words]
    for k, w in enumerate(low):
        if (w in _EN_SHARED_DYNASTIES and k + 1 < len(low) and low[k + 1] in ("dynasty", "empire", "kingdom")
                and (k == 0 or low[k - 1] not in _EN_DYNASTY_QUALIFIERS)):
            return "knowledge: a dynasty name several dynasties bore ('the Jin dynasty': 266 or 1115?)"
    if any(w in _EN_SHIP_PREFIXES for i, w in enumerate(words) if i != m):
        return "knowledge: a ship's name (given to ship after ship: HMS Dreadnought)"
    bare = [w for w in subject if w.lower() != "the"]
    if len(bare) == 1 and re.fullmatch(r"[A-Z]{2,5}", bare[0]):
        return "knowledge: an acronym alone names the subject ('The FIS': several organisations)"
    ranked = [w for i, w in enumerate(words) if i != m and w[:1].isupper() and w.lower() in _EN_RANK_WORDS]
    named = [w for i, w in enumerate(words) if i != m and _en_name(w) and w.lower() not in _EN_RANK_WORDS]
    if ranked and not named:
        return "knowledge: an institution named by common words and 'Imperial' / 'Royal' ('the Imperial Library Directorate': which empire's?)"
    cities = [k for k, w in enumerate(low) if w in _EN_AGREEMENTS and k != m]
    if any(k >= 1 and _city(words[k - 1]) or k + 2 < len(words) and low[k + 1] == "of" and _city(words[k + 2])
           and k + 2 != m for k in cities):
        return "knowledge: an agreement named after a city (Helsinki 1974 and 1992, Lisbon 1668 and 2007)"
    if "new" in words:  # "ABC's 1998 new graphic design": new when? (not "New South Wales")
        return "knowledge: time-relative or discourse word (currently, also, then …)"
    if subject and subject[-1].islower() and is_en_plural(subject[-1]):
        return "knowledge: a group as the subject ('the Germanic tribes were located in …': a group has many places)"
    if (len(subject) > 2 and subject[0] == "The" and _demonym(subject[1]) and subject[2].islower()
            and not is_en_function(subject[2]) and not {"called", "named"} & set(low)):
        return "knowledge: a thing described by a nationality and a kind ('the French colony in …'), not named"
    if "capital" in low and {"empire", "dynasty", "kingdom", "caliphate"} & set(low):
        return "knowledge: the capital of an empire or dynasty (it moved: Bursa, Edirne, Constantinople / Istanbul)"
    if item.rule.startswith("wh_subject") and len(words) == 4 and words[2][:1].isupper():
        return "knowledge: a single word names the thing made ('designed [Salamanca]': a city, a locomotive?)"
    if len(bare) == 2 and bare[0].lower() in word_list("given_names_en") and bare[1][:1].isupper():
        return "knowledge: a person named by a common given name and a surname ('John Gallagher': which one?)"
    for k, w in enumerate(subject):
        if w.lower() in _EN_ONE_OF and not _anchored(subject, k, ("of", "in", "for")):
            return "knowledge: a superlative with no name saying of what ('the largest Huguenot Society')"
    answer_words = {w.lower() for w in en_tokens(answer) if len(w) > 2 and w.lower() not in _NAME_JOINERS}
    if answer_words & {w for i, w in enumerate(low) if i != m}:
        return "knowledge: the answer repeats a word of the statement ('the Delta … is [Rhine Delta]')"
    if item.rule.startswith("wh_subject") and len(en_tokens(answer)) == 1:
        return "knowledge: a surname alone as the agent ('[Nafzger] compiled …': who is that?)"
    if _EN_NEGATIONS & set(low):
        return "knowledge: a negated relation ('the only region … not conquered by …': the source's claim)"
    verb = _lemma(low[m - 4]) if m >= 4 and low[m - 3:m] == ["in", "the", "year"] else None
    if verb in ("bear", "die") and not (re.search(r"\b(?:born|birth|died|death|dead)\b", context) or re.search(
            rf"\(\s*(?:{re.escape(answer)}\s*[–-]\s*\d{{4}}|\d{{4}}\s*[–-]\s*{re.escape(answer)})\s*\)", context)):
        return "knowledge: a birth or death year the paragraph gives only as a span of another kind ('(1862–90)')"
    return None


#: nouns of the event and agent verbs: "the founding of X in 1788", "the death of Tugh Temür in 1332", "the Ming
#: founder Zhu Yuanzhang" state the relation of "X was founded", "X died", "[MASK] founded X" (round 9)
_EN_NOMINALS = {"die": ("death", "dead"), "bear": ("birth",), "found": ("founder", "foundation", "founding"),
                "establish": ("establishment",), "abolish": ("abolition",), "publish": ("publication", "publisher"),
                "complete": ("completion",), "create": ("creation", "creator"), "construct": ("construction",),
                "destroy": ("destruction",), "dissolve": ("dissolution",), "inaugurate": ("inauguration",),
                "sign": ("signing", "signature"), "invent": ("invention", "inventor"),
                "discover": ("discovery", "discoverer"), "design": ("designer",), "compose": ("composer",),
                "assassinate": ("assassination", "assassin"), "crown": ("coronation",), "marry": ("marriage",),
                "abdicate": ("abdication",), "form": ("formation",), "incorporate": ("incorporation",),
                "ratify": ("ratification",), "enact": ("enactment",), "declare": ("declaration",),
                "demolish": ("demolition",), "retire": ("retirement",), "bury": ("burial",),
                "dedicate": ("dedication",), "open": ("opening",), "begin": ("beginning",), "paint": ("painter",),
                "direct": ("director",), "translate": ("translation", "translator"), "write": ("writer",),
                "compile": ("compilation", "compiler"), "launch": ("launch",), "release": ("release",)}
#: verbs of one event, the start of an organisation: a question may ask "founded" of "was established" (round 9)
_EN_FOUNDING = {"found", "establish", "start", "create"}
#: words that refer back to a name in an earlier sentence ("He died in 1259", "The fort was destroyed in 1560")
_EN_BACK_REFERENCES = {"he", "she", "it", "they", "his", "her", "its", "their"}
#: words the statement frames put before the answer ("in the year [MASK]", "in the city of [MASK]")
_EN_FRAME_NOUNS = {"year"} | _EN_PLACE_NOUNS
_EN_ABBREVIATION_END = re.compile(r"(?:\b[A-Z]|\bMr|\bMrs|\bDr|\bSt|\bJr|\bSr|\bNo|\bvs|\bU\.S|\bc)\.$")


def _en_sentence_at(context: str, start: int) -> tuple[str, str]:
    """``(text before, sentence)`` of the paragraph sentence holding character ``start`` (a sentence ends at . ! ?
    before a capital, a digit or a quote, not after an initial: "William E. Simon")."""
    begin = 0
    for m in re.finditer(r"(?<=[.!?])[\"”)]?\s+(?=[\"“(]?[A-Z0-9])", context):
        if _EN_ABBREVIATION_END.search(context[begin:m.start()]):
            continue
        if m.end() > start:
            return context[:begin], context[begin:m.start()]
        begin = m.end()
    return context[:begin], context[begin:]


def _en_forms(word: str) -> set[str]:
    """A word's lower-case, accent-folded forms and lemmas ("Temür" → temur; "died" → die; "A's" → a)."""
    import unicodedata

    from lemminflect import getAllLemmas

    bare = re.sub(r"['’]s$", "", word)
    folded = "".join(c for c in unicodedata.normalize("NFKD", bare) if not unicodedata.combining(c)).lower()
    forms = {folded}
    for lemmas in getAllLemmas(folded).values():
        forms.update(lemmas)
    return forms


def en_supported(item: Item, context: str, start: int) -> str | None:
    """Why the paragraph sentence that holds the answer does not state the statement's relation (the reason of the
    drop), or None (round 9, issue 26): every content word of the statement — the subject's name and the relation's
    verb or role — must occur in that sentence, by lemma (a verb's noun counts: "the founding of"; a life span
    "Zhu Shijie (1249–1314)" states born and died; founded, established, started and created name one
    event). A name may stand in an earlier sentence when this one refers back to it ("He died in 1259", "The fort
    was destroyed in 1560"), and a qualifier of a name the sentence gives may stand anywhere in the paragraph
    ("Feyenoord in Rotterdam": the sentence says "Feyenoord, founded in 1908"). Otherwise the question asked for an
    inference or a paraphrase ("Simpson's first Doctor Who score was Planet of Giants" → "the episode name of …"),
    and the statement is the question writer's claim, not the source's."""
    words, m = item.words, item.mask
    before, sentence = _en_sentence_at(context, start)
    tokens = en_tokens(sentence)
    here = set().union(*(_en_forms(t) for t in tokens)) if tokens else set()
    paragraph = set().union(*(_en_forms(t) for t in en_tokens(context)))
    earlier = set().union(*(_en_forms(t) for t in en_tokens(before))) if before else set()
    lowered = [t.lower() for t in tokens]
    back = any(t in _EN_BACK_REFERENCES for t in lowered)
    span = re.search(r"\(\s*\d{3,4}\s*[–-]\s*\d{3,4}\s*\)", sentence)
    names = [i for i in item.rationale if i != m and words[i][:1].isupper()]
    named_here = any(_en_forms(words[i]) & here for i in names)
    for i in item.rationale:
        w = words[i]
        if i == m or m - 4 <= i < m and w.lower() in _EN_FRAME_NOUNS:
            continue
        forms = _en_forms(w)
        verb = _lemma(w) if w.islower() else None
        forms.update(_EN_NOMINALS.get(verb or "", ()))
        if verb in _EN_FOUNDING:  # "founded" asked of "was established in 1951": the same event
            forms.update(*(_EN_NOMINALS.get(v, ()) for v in _EN_FOUNDING), _EN_FOUNDING)
        if forms & here or verb in ("bear", "die") and span:
            continue
        anaphor = back or any(t == "the" and k + 1 < len(lowered) and lowered[k + 1] in {x.lower() for x in words}
                              for k, t in enumerate(lowered))
        if w[:1].isupper() and (anaphor and forms & earlier or named_here and forms & paragraph):
            continue  # a name of an earlier sentence, or a qualifier the paragraph gives ("Feyenoord in Rotterdam")
        return ("knowledge: the sentence holding the answer does not state the relation (the question asked for "
                "an inference or a paraphrase: the question writer's claim)")
    return None


#: founding verbs, and the words by which a paragraph gives the founded thing a second start or an earlier name
_EN_START_VERBS = {"found", "establish", "form", "create", "start", "begin", "open"}
_EN_SECOND_START = re.compile(r"\b(?:charter(?:ed)?|incorporated|re-?founded|re-?established|renamed|then known as|"
                              r"formerly|originally (?:known|called|named)|following year|next year|predecessor)\b",
                              re.IGNORECASE)


def en_one_start(item: Item, context: str, start: int) -> str | None:
    """Why a founding year is not one (the reason of the drop), or None (round 9; seed 9393's East India Company
    "1599" and Old Truman Brewery "1724"): the sentence that holds the year also gives the thing a second start —
    a charter the following year, an earlier name ("then known as the Black Eagle Brewery") — so a reader gives
    another year (1600, 1666) as rightly."""
    words, m = item.words, item.mask
    if not (re.fullmatch(r"\d{4}", words[m]) and item.rule.startswith(("wh_do", "wh_passive"))):
        return None
    if not any(w.islower() and _lemma(w) in _EN_START_VERBS for w in words[:m]):
        return None
    if _EN_SECOND_START.search(_en_sentence_at(context, start)[1]):
        return ("knowledge: a founding year where the sentence gives a second start (chartered the following year, "
                "then known as …)")
    return None


def knowledge_items(data_dir: Path, lang: str, drops: Counter[str] | None = None) -> dict[str, list[Item]]:
    drops = Counter() if drops is None else drops
    out: dict[str, list[Item]] = {}
    seen: set[str] = set()
    for rel in SOURCES[lang]:
        for title, qid, question, start, answer, context in _questions(data_dir / rel):
            prov = {"source": rel, "qid": qid, "title": title, "text_sha1": content_hash(context)}
            if lang == "en":
                answer = answer.rstrip(".,;:")
                made = en_statement(question, answer)
                if isinstance(made, str):
                    drops[made] += 1
                    continue
                words, mask, rule = made
                words[mask] = answer
                item = _item(lang, words, mask, None, rule, prov)
                item = item if isinstance(item, str) else en_supported(item, context, start) or item
                item = item if isinstance(item, str) else en_one_start(item, context, start) or item
                item = item if isinstance(item, str) else en_date_or_place(item)
                item = item if isinstance(item, str) else en_one_referent(item, context) or item
            else:
                answer = answer.strip().rstrip("。，．.,；;")
                made_zh = zh_statement(question, answer)
                if isinstance(made_zh, str):
                    drops[made_zh] += 1
                    continue
                before, after, _ = made_zh
                left, right = zh_words(before), zh_words(after)
                words = [w for w, _ in left] + [answer] + [w for w, _ in right]
                flags = [f for _, f in left] + ["x"] + [f for _, f in right]
                rule = "wh_in_situ"
                item = _item(lang, words, len(left), flags, rule, prov)
            if isinstance(item, str):
                drops[item] += 1
                continue
            key = " ".join(item.words)
            if key in seen:  # the same question asked in two sources (XQuAD repeats SQuAD)
                drops["knowledge: same statement from another source"] += 1
                continue
            seen.add(key)
            out.setdefault(rule, []).append(item)
    return out
