"""ExpMRC token F1: every quirk of REFERENCE §2.3 with hand-derived values."""

import pytest

from interpeval import metrics
from interpeval.metrics.mrc import (
    SP_CHARS,
    expmrc_all_f1,
    expmrc_ans_f1,
    expmrc_choice_match,
    expmrc_evi_f1,
    expmrc_f1,
    mixed_segmentation,
    normalize_tokens,
    token_f1,
)


def test_registered_in_answer_family():
    assert {"expmrc_f1", "expmrc_choice_match", "expmrc_all_f1", "expmrc_ans_f1", "expmrc_evi_f1"} <= set(
        metrics.names("answer"))
    assert metrics.get("expmrc_f1").info.value_range == (0.0, 1.0)


def test_sp_chars_as_original():
    assert len(SP_CHARS) == 33 and "……" in SP_CHARS and "‘" not in SP_CHARS and "\\" in SP_CHARS


def test_cjk_and_special_characters_are_single_tokens():
    # 北 京 are basic CJK; '-' is special; the ASCII run between goes through NLTK as one word.
    assert mixed_segmentation("  北京-abc  ") == ["北", "京", "-", "abc"]
    assert mixed_segmentation("state-of-the-art") == ["state", "-", "of", "-", "the", "-", "art"]
    # '-' and 'the' dropped by normalisation
    assert normalize_tokens(mixed_segmentation("state-of-the-art")) == ["state", "of", "art"]


def test_article_drop_is_case_sensitive():
    # gold "the cat" -> [cat]; pred "The cat" -> [the, cat] ('The' survives, then is lowercased):
    # same = 1, P = 1/2, R = 1, F1 = 2/3.
    assert expmrc_f1(["the cat"], "The cat") == pytest.approx(2 / 3)
    assert expmrc_f1(["the cat"], "The cat", official=False) == 1.0
    assert normalize_tokens(["A", "a", "an", "An"]) == ["a", "an"]


def test_two_char_ellipsis_never_matches():
    # '…' is neither CJK nor a 1-char SP_CHARS entry, so "……" reaches NLTK, which has no rule for U+2026 and keeps
    # it as one 2-char token; only 1-char tokens count as punctuation, so it survives:
    # gold [好], pred [好, ……]: same = 1, P = 1/2, R = 1, F1 = 2/3.
    assert mixed_segmentation("好……") == ["好", "……"]
    assert expmrc_f1(["好"], "好……") == pytest.approx(2 / 3)
    assert expmrc_f1(["好"], "好……", official=False) == 1.0
    # glued to English words, the ellipsis stays inside the NLTK token
    assert mixed_segmentation("wait……ok") == ["wait……ok"]


def test_left_single_quote_is_not_special():
    # '‘' is not in SP_CHARS nor string.punctuation; '’' is. pred -> [‘, quoted, word], gold -> [quoted, word]:
    # P = 2/3, R = 1, F1 = 0.8.
    assert expmrc_f1(["quoted word"], "‘quoted’ word") == pytest.approx(0.8)
    assert expmrc_f1(["quoted word"], "‘quoted’ word", official=False) == 1.0


def test_only_one_char_punctuation_is_dropped():
    # NLTK turns "..." into one token '...', which is 3 chars and so survives; "“Hi,”" loses “ , ”.
    assert normalize_tokens(mixed_segmentation("“Hi,” ok...")) == ["hi", "ok", "..."]
    assert normalize_tokens(mixed_segmentation("“Hi,” ok...", official=False), official=False) == ["hi", "ok"]


def test_chinese_punctuation_and_characters():
    # 。 and ， are dropped: both sides are [北, 京]
    assert expmrc_f1(["北京。"], "北京，") == 1.0
    # bag of characters: gold 4 chars, pred 2 of them: P = 1, R = 1/2, F1 = 2/3
    assert expmrc_f1(["北京大学"], "北京") == pytest.approx(2 / 3)
    # “ ” and ： are special and dropped
    assert expmrc_f1(["他说：“好”"], "他说好") == 1.0


def test_empty_rules():
    assert token_f1([], []) == 1.0
    assert token_f1(["x"], []) == 0.0
    assert token_f1([], ["x"]) == 0.0
    assert expmrc_f1(["some evidence"], "") == 0.0
    # both sides normalise to nothing: F1 = 1
    assert expmrc_f1(["。"], "，") == 1.0
    assert expmrc_f1(["the"], "a") == 1.0
    # no overlap
    assert expmrc_f1(["cat"], "dog") == 0.0


def test_max_over_references_and_multiset_counts():
    # ref 1: [cat] vs [cat, cat]: same 1, P 1/2, R 1 -> 2/3; ref 2: [cat, cat] -> 1
    assert expmrc_f1(["cat", "cat cat"], "cat cat") == 1.0
    assert expmrc_f1(["cat"], "cat cat") == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="references is empty"):
        expmrc_f1([], "cat")
    with pytest.raises(ValueError, match="single string"):
        expmrc_f1("cat", "cat")


def test_prediction_is_stringified():
    assert expmrc_f1(["1853"], 1853) == 1.0


def test_choice_match_is_exact():
    assert expmrc_choice_match("A", "A") == 1.0
    assert expmrc_choice_match("A", "a") == 0.0
    assert expmrc_choice_match("A", 0) == 0.0


def test_aggregates_mean_of_products():
    # products: 1*0.5, 0.5*1, 0*1 -> sum 1.0 -> 100/3; answers 1.5/3 -> 50; evidences 2.5/3
    a, e = [1.0, 0.5, 0.0], [0.5, 1.0, 1.0]
    assert expmrc_all_f1(a, e) == pytest.approx(100 / 3)
    assert expmrc_ans_f1(a) == pytest.approx(50.0)
    assert expmrc_evi_f1(e) == pytest.approx(250 / 3)
    with pytest.raises(ValueError, match="answer_scores has 3"):
        expmrc_all_f1(a, e[:2])
    with pytest.raises(ValueError, match="empty"):
        expmrc_ans_f1([])


def test_the_fixed_mode_splits_at_the_ellipsis_and_drops_capitalised_articles():
    # official=False adds "…" to the split characters: each one is a token alone, words around it NLTK-tokenised
    assert mixed_segmentation("a…b", official=False) == ["a", "…", "b"]
    # the fixed mode lowercases before the article test: "The" goes like "the"; punctuation-only tokens go too
    assert normalize_tokens(["The", "Cat", "…"], official=False) == ["cat"]


@pytest.mark.parametrize(("references", "message"), [
    ("gold", r"^references must be a list of strings, got a single string$"),
    ([], r"^references is empty: the maximum over references is undefined$"),
])
def test_bad_references_are_named(references, message):
    with pytest.raises(ValueError, match=message):
        expmrc_f1(references, "x")


def test_aggregates_by_hand_with_a_sum_other_than_one_and_named_inputs():
    # products 1·1 and 1·0.5 → 100 × 1.5 / 2 = 75 (a sum of 1, as above, cannot tell 100·s/n from 100/s/n)
    assert expmrc_all_f1([1.0, 1.0], [1.0, 0.5]) == pytest.approx(75.0)
    assert expmrc_ans_f1([1.0, 0.5]) == pytest.approx(75.0) and expmrc_evi_f1([0.5, 0.25]) == pytest.approx(37.5)
    for call, name in ((lambda: expmrc_all_f1([], [1.0]), "answer_scores"),
                       (lambda: expmrc_all_f1([1.0], []), "evidence_scores"),
                       (lambda: expmrc_ans_f1([]), "answer_scores"), (lambda: expmrc_evi_f1([]), "evidence_scores")):
        with pytest.raises(ValueError, match=rf"^{name} is empty: the original divides by the number of questions$"):
            call()


def test_the_fixed_mode_reaches_both_the_references_and_the_prediction():
    # official=False: "…" splits and is dropped as punctuation, "The" is dropped as an article — on either side
    assert expmrc_f1(["a … b"], "a…b", official=False) == 1.0
    assert expmrc_f1(["a…b"], "a … b", official=False) == 1.0
    assert expmrc_f1(["The cat"], "the cat", official=False) == 1.0
    assert expmrc_f1(["The cat"], "the cat") == pytest.approx(2 / 3)  # official: [the, cat] vs [cat]
    assert expmrc_f1(["a…b"], "a…b") == 1.0  # official: the same single token on both sides
