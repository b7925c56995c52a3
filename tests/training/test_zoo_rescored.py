"""Every shipped head re-scored on a fixed slice of its held-out test, against the figure on its card.

The slice is every j-th example of the test the card names (a systematic sample, the same on every run), scored
by the recipe's own scorer (:func:`~interpeval.training.heldout.score_heldout`), at the card's test length. The card
reports the mean over all n examples; a slice of k has sampling error, bounded here before scoring:

- a mean of per-example values in [0, 1] (accuracy, answer F1) with mean p has variance ≤ p(1 − p), so the slice
  mean lies within z·√(p(1 − p)/k · (n − k)/(n − 1)) of the card's figure (finite-population correction), z = 3.29
  (two-sided 99.9 %);
- masked-token accuracy counts tokens, which cluster by paragraph: the same bound with k = masked tokens / 4
  (a design effect of 4, generous for ~13 masked tokens per paragraph);
- Pearson's r through Fisher's z: atanh(r) has standard error 1/√(k − 3).

A head whose base encoder is not installed (mpnet-squad without ``interpeval[mpnet]``) is skipped, saying so.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from interpeval.benchmarks.quackie.data import SQUAD2_TRAIN_ARTICLES
from interpeval.models import zoo
from interpeval.training.data import TestSet as HeldOutTest
from interpeval.training.heldout import expmrc_span_test, score_heldout, xquad_test
from interpeval.training.recipes import RECIPES

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
Z = 3.29
# head → (held-out test on its card, the figure checked, slice size, the smallest planted card error checked to fail)
# Slices sized for CI (issue 32: this file cost 144 s CPU before, the slowest part of the suite): each is the
# smallest whose bound still excludes the slice score when the card figure is moved by the planted error (towards
# the inside of [0, 1]: +err unless that reaches 1); the test asserts that too, so a bound too wide to fail is a
# failure. QA heads over 512-token contexts are the dearest per example, so their planted error is larger (a
# ±0.15 error would need ~100 CMRC questions: ~5x this file's CPU).
CHECKS = {
    "minilm-sst2": ("sst2-test", "accuracy", 100, 0.15),
    "minilm-qnli": ("qnli-test", "accuracy", 40, 0.15),
    "minilm-quackie-cls": ("squad2-heldout", "accuracy", 100, 0.2),
    "minilm-stsb": ("stsb-test", "pearson", 80, 0.15),
    "minilm-mlm": ("xquad-en-text", "masked_accuracy", 60, 0.15),
    "me5-small-mlm": ("xquad-zh-text", "masked_accuracy", 40, 0.2),
    "minilm-squad": ("xquad-en", "answer_f1", 30, 0.25),
    "mpnet-squad": ("xquad-en", "answer_f1", 30, 0.15),
    "me5-small-cmrc": ("expmrc-cmrc2018", "answer_f1", 20, 0.3),
}

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (DATA / "xquad").is_dir(), reason="needs ../shared/data beside the checkout")]


def test_every_shipped_head_is_checked():
    assert {p.name for p in zoo.artifacts_dir().iterdir() if (p / "card.json").is_file()} == set(CHECKS)


def _test_set(name: str, test_name: str) -> HeldOutTest:
    """The card's test, built as the recipe builds it (QA tests alone: the full QA recipes read minutes of data)."""
    if test_name == "xquad-en":
        return xquad_test(DATA, set(SQUAD2_TRAIN_ARTICLES))
    if test_name == "expmrc-cmrc2018":
        return expmrc_span_test(DATA, "cmrc2018", "zh")
    return RECIPES[name].build(DATA).tests[test_name]


def _bound(metric: str, card_value: float, n: int, k: int, scores: dict[str, float]) -> tuple[float, float]:
    if metric == "pearson":
        half = Z / math.sqrt(k - 3)
        return math.tanh(math.atanh(card_value) - half), math.tanh(math.atanh(card_value) + half)
    if metric == "masked_accuracy":
        n, k = int(scores["masked_tokens"] * n / k), max(1, int(scores["masked_tokens"] / 4))
    fpc = (n - k) / (n - 1) if n > 1 else 0.0
    half = Z * math.sqrt(card_value * (1 - card_value) / k * fpc)
    return card_value - half, card_value + half


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_head_scores_its_card_figure_on_a_slice(name):
    present = {e.name: e.present for e in zoo.available()}
    if not present.get(name):
        pytest.skip(f"{name}: its base encoder is not installed here ({zoo.folder(name)})")
    from interpeval.models import load

    test_name, metric, k, planted = CHECKS[name]
    card = json.loads((zoo.artifacts_dir() / name / "card.json").read_text())
    heldout = card["heldout"][test_name]
    test = _test_set(name, test_name)
    assert len(test.examples) == heldout["n"]  # the same test as the card's
    step = len(test.examples) // k
    part = test.examples[::step][:k]
    model = load(name, device="cpu", batch_size=16, max_length=card.get("test_max_length") or card["max_length"])
    scores = score_heldout(model, card["kind"], test, part)
    low, high = _bound(metric, heldout["metrics"][metric], heldout["n"], len(part), scores)
    assert low <= scores[metric] <= high, (name, metric, scores[metric], heldout["metrics"][metric], (low, high))
    # the same check against a wrong card figure fails: the bound is one that can fail
    figure = heldout["metrics"][metric]
    wrong = figure + planted if figure + planted < 1 else figure - planted
    low, high = _bound(metric, wrong, heldout["n"], len(part), scores)
    assert not low <= scores[metric] <= high, (name, "a card figure off by", planted, "would pass", (low, high))
