"""Attribution: word / sentence aggregation (REFERENCE §4.1 equal shares), top-k, storage, display — by hand."""

from __future__ import annotations

import json

import numpy as np
import pytest

from interpeval.explain import Attribution

TEXT = "New York-based"


def _attr(**kw) -> Attribution:
    # [CLS] new york- based [SEP]; "york-" (4, 9) overlaps the words "York" (4, 8) and "-" (8, 9)
    base = dict(text=TEXT, pair=None, tokens=["[CLS]", "new", "york-", "based", "[SEP]"],
                offsets=[(0, 0), (0, 3), (4, 9), (9, 14), (0, 0)], segments=[-1, 0, 0, 0, -1],
                scores=np.array([0.5, 1.0, 2.0, 3.0, 0.7]), target={"name": "class_prob", "index": 1},
                method="test", params={"n": 1}, model="hand")
    base.update(kw)
    return Attribution(**base)


def test_to_words_equal_share_sum():
    a = _attr()
    # New = 1; York = 2/2; - = 2/2; based = 3 (specials never count)
    np.testing.assert_allclose(a.to_words(["New", "York", "-", "based"]), [1.0, 1.0, 1.0, 3.0])
    np.testing.assert_allclose(a.to_words([(0, 3), (4, 8), (8, 9), (9, 14)]), [1.0, 1.0, 1.0, 3.0])
    # default words: whitespace words "New", "York-based" = 2 + 3
    np.testing.assert_allclose(a.to_words(), [1.0, 5.0])
    np.testing.assert_allclose(a.to_words(agg="max"), [1.0, 3.0])
    np.testing.assert_allclose(a.to_words(agg="mean"), [1.0, 2.5])


def test_to_sentences_sum_max_mean_and_empty():
    a = _attr()
    # sentences (0, 6) and (6, 14): "york-" (4, 9) overlaps both, 1 each; the empty span gets 0
    spans = [(0, 6), (6, 14), (14, 14)]
    np.testing.assert_allclose(a.to_sentences(spans, "sum"), [1 + 1, 1 + 3, 0])
    np.testing.assert_allclose(a.to_sentences(spans, "max"), [1, 3, 0])
    np.testing.assert_allclose(a.to_sentences(spans, "mean"), [(1 + 1) / 2, (1 + 3) / 2, 0])
    neg = _attr(scores=np.array([0.0, -1.0, -2.0, -3.0, 0.0]))
    np.testing.assert_allclose(neg.to_sentences([(0, 3), (14, 14)], "max"), [-1, 0])  # max(l, default=0)
    with pytest.raises(ValueError, match="agg must be one of"):
        a.to_sentences(spans, "median")
    with pytest.raises(ValueError, match="span 0"):
        a.to_sentences([(0, 99)])


def test_pair_segment_and_select():
    a = Attribution(text="why ?", pair="because", tokens=["[CLS]", "why", "?", "[SEP]", "because", "[SEP]"],
                    offsets=[(0, 0), (0, 3), (4, 5), (0, 0), (0, 7), (0, 0)], segments=[-1, 0, 0, -1, 1, -1],
                    scores=np.arange(6.0))
    np.testing.assert_allclose(a.to_words(segment=1), [4.0])
    np.testing.assert_allclose(a.to_words(segment=0), [1.0, 2.0])
    ctx = a.select(1)
    assert ctx.tokens == ["because"] and ctx.scores.tolist() == [4.0] and ctx.segments == [1]
    with pytest.raises(ValueError, match="no pair text"):
        Attribution(text="a", pair=None, tokens=["a"], offsets=[(0, 1)], segments=[1], scores=[1.0])


def test_top_k_stable_ties_and_specials():
    a = _attr(scores=np.array([9.0, 2.0, 3.0, 2.0, 9.0]))
    assert a.top_k(3).tolist() == [2, 1, 3]  # tie 2.0: lower index first; specials skipped
    assert a.top_k(2, include_special=True).tolist() == [0, 4]
    assert a.top_k(0).tolist() == []


def test_normalized_l1_and_zero():
    a = _attr(scores=np.array([0.0, 1.0, -3.0, 0.0, 0.0]))
    np.testing.assert_allclose(a.normalized().scores, [0, 0.25, -0.75, 0, 0])
    z = _attr(scores=np.zeros(5))
    assert z.normalized() is z


def test_save_load_round_trip(tmp_path):
    a = _attr(scores=np.array([0.1, 1 / 3, -2e-17, 3.0, 0.7]))
    path = tmp_path / "a.json"
    a.save(path)
    b = Attribution.load(path)
    assert b.tokens == a.tokens and b.offsets == a.offsets and b.segments == a.segments
    assert b.scores.tolist() == a.scores.tolist()  # exact float round trip
    assert (b.target, b.method, b.params, b.model, b.pair) == (a.target, a.method, a.params, a.model, a.pair)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"text": "x"}))
    with pytest.raises(ValueError, match="bad.json: not an Attribution, missing tokens"):
        Attribution.load(bad)
    bad.write_text("{")
    with pytest.raises(ValueError, match="bad.json: line 1"):
        Attribution.load(bad)


def test_validation_names_the_field():
    with pytest.raises(ValueError, match="scores has 2 entries but tokens has 5"):
        _attr(scores=np.array([1.0, 2.0]))


def test_html_and_rich_heatmaps():
    a = _attr(text="New York<b>", tokens=["[CLS]", "new", "york", "<", "b", ">", "[SEP]"],
              offsets=[(0, 0), (0, 3), (4, 8), (8, 9), (9, 10), (10, 11), (0, 0)], segments=[-1, 0, 0, 0, 0, 0, -1],
              scores=np.array([5.0, 1.0, -2.0, 0.0, 0.0, 0.0, 5.0]))
    page = a.html()
    assert "&lt;" in page and "<b>" not in page  # escaped
    assert "background:rgb(128,202,158)" in page  # +1 of max |2| -> half-way from white to green (0,150,60)
    assert "background:rgb(210,30,30)" in page  # -2 = full red
    assert "[CLS]" not in page
    text = a.rich()
    assert text.plain == "New York<b>"
    assert any("rgb(210,30,30)" in str(span.style) for span in text.spans)  # the web app's colours too
