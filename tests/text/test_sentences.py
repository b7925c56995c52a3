"""Expected outputs are NLTK's own documented examples (nltk.tokenize docstrings and the punkt howto)."""

from interpeval.text.sentences import (
    sent_spans,
    sent_tokenize,
    sent_tokenize_simple,
    sent_tokenize_zh,
    word_tokenize,
)

PUNKT_HOWTO = ("Punkt knows that the periods in Mr. Smith and Johann S. Bach\ndo not mark sentence boundaries.  "
               "And sometimes sentences\ncan start with non-capitalized words.  i is a good variable\nname.")


def test_punkt_english_matches_nltk_howto():
    assert sent_tokenize(PUNKT_HOWTO) == [
        "Punkt knows that the periods in Mr. Smith and Johann S. Bach\ndo not mark sentence boundaries.",
        "And sometimes sentences\ncan start with non-capitalized words.",
        "i is a good variable\nname.",
    ]


def test_spans_are_true_offsets():
    spans = sent_spans(PUNKT_HOWTO)
    assert [PUNKT_HOWTO[a:b] for a, b in spans] == sent_tokenize(PUNKT_HOWTO)
    assert spans[1][0] == spans[0][1] + 2  # two spaces between the first two sentences


def test_word_tokenize_matches_nltk_docstring():
    text = "Good muffins cost $3.88\nin New York.  Please buy me\ntwo of them.\n\nThanks."
    assert word_tokenize(text) == ["Good", "muffins", "cost", "$", "3.88", "in", "New", "York", ".", "Please",
                                   "buy", "me", "two", "of", "them", ".", "Thanks", "."]


def test_word_tokenize_splits_sentences_first():
    # Without sentence splitting, the Treebank tokenizer keeps "York." whole inside a line.
    assert word_tokenize("In New York. Then", preserve_line=True)[2] == "York."
    assert word_tokenize("In New York. Then")[2:4] == ["York", "."]


def test_chinese_rules_keep_quotes_and_do_not_split_on_semicolon():
    assert sent_tokenize_zh("你好。我是谁？“对！”他说；好的。") == ["你好。", "我是谁？", "“对！”", "他说；好的。"]
    assert sent_tokenize_zh("没有句号") == ["没有句号"]


def test_simple_english_rule():
    assert sent_tokenize_simple("Dr. No. Yes! Why? ok") == ["Dr.", "No.", "Yes!", "Why?", "ok"]
