"""Each explainer against its definition on a model small enough to work out by hand.

The model (known weights, no randomness) reads the real MiniLM tokenizer's ids and computes

    e_t = E[id_t] ∈ R²                      (the "embedding layer": the module explainers attribute to)
    h_t = ReLU(U e_t + b)                   (an nn.ReLU module: Guided Backprop's and DeepLIFT's rule apply)
    y   = ReLU(Σ_t m_t v·h_t + c)           (m = attention mask; another nn.ReLU module)

with E[good] = (2, 0), E[bad] = (0, 1), E[film] = (1, 0.5) and every other row 0 ([CLS], [SEP], [PAD]), U = [[1, 1],
[1, −1]], b = (−0.5, 0), v = (1, −1), c = 0.1. On "good bad film": pre-activations U e + b are good (1.5, 2), bad
(0.5, −1), film (1, 0.5); word contributions v·h are −0.5, 0.5, 0.5 and y = 0.6 (outer ReLU active). Every expected
value below is computed from these numbers by each method's definition, in numpy, never through Captum.
"""

from __future__ import annotations

import itertools
import math
from types import SimpleNamespace

import numpy as np
import pytest
import torch

import interpeval.explain as explain
from interpeval.models import Target
from interpeval.models.kinds import RegressionModel
from interpeval.models.tiny import tokenizer_dir

WORDS = {"good": (2.0, 0.0), "bad": (0.0, 1.0), "film": (1.0, 0.5)}
U = np.array([[1.0, 1.0], [1.0, -1.0]])
B = np.array([-0.5, 0.0])
V = np.array([1.0, -1.0])
C = 0.1
TEXT = "good bad film"


class _Hand(torch.nn.Module):
    def __init__(self, tokenizer) -> None:
        super().__init__()
        self.config = SimpleNamespace(model_type="hand")
        self.embeddings = torch.nn.Embedding(len(tokenizer), 2)
        self.inner = torch.nn.Linear(2, 2)
        self.inner_relu = torch.nn.ReLU()
        self.outer_relu = torch.nn.ReLU()
        with torch.no_grad():
            self.embeddings.weight.zero_()
            for word, vec in WORDS.items():
                self.embeddings.weight[tokenizer.convert_tokens_to_ids(word)] = torch.tensor(vec)
            self.inner.weight.copy_(torch.tensor(U))
            self.inner.bias.copy_(torch.tensor(B))

    @property
    def base_model(self) -> torch.nn.Module:  # where Model.embedding_layer() looks for ``embeddings``
        return self

    def forward(self, input_ids=None, attention_mask=None, token_type_ids=None, position_ids=None,
                inputs_embeds=None):
        e = self.embeddings(input_ids) if inputs_embeds is None else inputs_embeds
        h = self.inner_relu(self.inner(e))
        contributions = h @ torch.tensor(V, dtype=h.dtype)
        z = (contributions * attention_mask.to(h.dtype)).sum(-1) + C
        return SimpleNamespace(logits=self.outer_relu(z)[:, None])


@pytest.fixture(scope="module")
def model():
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir()))
    return RegressionModel(_Hand(tokenizer).eval(), tokenizer, "hand-made")


def _relu(x):
    return np.maximum(x, 0.0)


def _grad(e: np.ndarray, guided: bool = False) -> np.ndarray:
    """∂y/∂e_t with the outer ReLU active: Uᵀ (v ⊙ 1[Ue+b > 0]); guided: negative gradients zeroed at each ReLU."""
    upstream = _relu(V) if guided else V  # the outer ReLU passes 1 (≥ 0); at the inner ReLU v's −1 is clamped
    return U.T @ (upstream * (U @ e + B > 0))


def _explain(model, name, **params):
    (a,) = explain.get(name)(**params).explain(model, TEXT, Target("regression"))
    assert a.tokens == ["[CLS]", "good", "bad", "film", "[SEP]"]
    return a.scores


EMB = [np.zeros(2), *(np.array(WORDS[w]) for w in TEXT.split()), np.zeros(2)]


def test_the_hand_model_gives_the_hand_value(model):
    assert model.score_texts([TEXT])[0] == pytest.approx(0.6)


def test_gradient_and_saliency(model):
    expected = np.array([_grad(e).sum() for e in EMB])
    # good: both units on → Uᵀv = (0, 2) → 2; bad: unit 1 only → (1, 1) → 2; film: both → 2; specials: U·0+b =
    # (−0.5, 0) → no unit on → 0
    np.testing.assert_allclose(expected, [0, 2, 2, 2, 0])
    np.testing.assert_allclose(_explain(model, "gradient"), expected, atol=1e-6)
    np.testing.assert_allclose(_explain(model, "saliency"), [np.abs(_grad(e)).sum() for e in EMB], atol=1e-6)


def test_input_x_gradient(model):
    expected = np.array([(e * _grad(e)).sum() for e in EMB])
    np.testing.assert_allclose(expected, [0, 0, 1, 1, 0])  # good: (2,0)·(0,2); bad: (0,1)·(1,1); film: (1,.5)·(0,2)
    np.testing.assert_allclose(_explain(model, "input_x_gradient"), expected, atol=1e-6)


def test_guided_backprop_zeroes_negative_gradients_at_each_relu(model):
    expected = np.array([_grad(e, guided=True).sum() for e in EMB])
    # only unit 1 (v = +1) passes back: good (1,1) → 2, bad → 2, film → 2; the plain gradient has unit 2's −1 too
    np.testing.assert_allclose(_explain(model, "guided_backprop"), expected, atol=1e-6)
    bad_only = explain.get("guided_backprop")().explain(model, "bad", Target("regression"))[0].scores
    np.testing.assert_allclose(bad_only, [0, 2, 0], atol=1e-6)


def test_deeplift_rescale_rule(model):
    # baseline "zero": every id 0 → e' = 0, pre' = b, z' = c = 0.1 (outer ReLU active on both sides: multiplier 1).
    # Inner ReLU rescale multiplier per unit: (ReLU(pre) − ReLU(pre')) / (pre − pre').
    def multipliers(e):
        pre, ref = U @ e + B, B
        with np.errstate(invalid="ignore", divide="ignore"):
            m = (_relu(pre) - _relu(ref)) / (pre - ref)
        return np.where(np.isclose(pre, ref), (pre > 0).astype(float), m)

    expected = np.array([(e * (U.T @ (V * multipliers(e)))).sum() for e in EMB])
    # good: m = (1.5/2, 2/2) = (.75, 1) → Uᵀ(.75, −1) = (−.25, 1.75) · (2, 0) = −0.5; bad: m = (.5/1, 0) → (.5, .5)·(0,1)
    # = 0.5; film: m = (1/1.5, 1) → (−1/3, 5/3)·(1, .5) = 0.5
    np.testing.assert_allclose(expected, [0, -0.5, 0.5, 0.5, 0], atol=1e-12)
    scores = _explain(model, "deeplift", baseline="zero")
    np.testing.assert_allclose(scores, expected, atol=1e-6)
    assert scores.sum() == pytest.approx(0.6 - 0.1)  # summation to delta: y(x) − y(baseline)


def test_smoothgrad_is_the_mean_saliency_over_its_noisy_copies(model):
    noisy: list[torch.Tensor] = []  # the noisy embedding outputs, as the model's inner layer receives them
    hook = model.hf.inner.register_forward_pre_hook(lambda m, args: noisy.append(args[0].detach().clone()))
    try:
        scores = _explain(model, "smoothgrad", n_samples=4, stdevs=0.3, seed=7)
    finally:
        hook.remove()
    copies = torch.cat([x for x in noisy if x.shape[1] == 5]).numpy()  # the noise tunnel's batch: [4, 5, 2]
    assert copies.shape == (4, 5, 2)
    noise = copies - np.array(EMB)
    assert not np.allclose(noise[0], noise[1]) and 0.15 < noise.std() < 0.45  # stdevs = 0.3, 40 draws
    # the noise can switch the outer ReLU off (then every gradient of that copy is 0) as well as inner units
    outer = [sum(V @ _relu(U @ e + B) for e in copy) + C > 0 for copy in copies]
    expected = np.mean([[outer[k] * np.abs(_grad(copies[k, t])).sum() for t in range(5)] for k in range(4)], axis=0)
    assert 0 < sum(outer) < 4 and len(set(np.round(expected, 6))) > 1
    np.testing.assert_allclose(scores, expected, atol=1e-5)


def _shapley(value, players: int) -> np.ndarray:
    """φ_i = Σ_{S ⊆ N∖{i}} |S|!(n−|S|−1)!/n! (v(S ∪ {i}) − v(S)), by enumeration."""
    phi = np.zeros(players)
    for i in range(players):
        others = [j for j in range(players) if j != i]
        for size in range(players):
            for subset in itertools.combinations(others, size):
                weight = math.factorial(size) * math.factorial(players - size - 1) / math.factorial(players)
                phi[i] += weight * (value({*subset, i}) - value(set(subset)))
    return phi


def test_kernel_shap_recovers_exact_shapley_values(model):
    contribution = [V @ _relu(U @ np.array(WORDS[w]) + B) for w in TEXT.split()]  # −0.5, 0.5, 0.5

    def value(present: set[int]) -> float:  # a removed word is left out of attention; specials contribute 0
        return float(_relu(sum(contribution[i] for i in present) + C))

    exact = _shapley(value, 3)
    # v: ∅ .1, {good} 0 (clipped), {bad} .6, {film} .6, {good,bad} .1, {good,film} .1, {bad,film} 1.1, all .6
    np.testing.assert_allclose(exact.sum(), value({0, 1, 2}) - value(set()))
    assert not np.allclose(exact, [contribution[i] for i in range(3)])  # the clipping makes the game non-additive
    scores = _explain(model, "kernel_shap", n_samples=3000, seed=0)
    words = scores[1:4]
    # Captum samples coalitions (with repeats) from the Shapley kernel and fits a weighted regression: with 3000
    # samples of the 6 proper coalitions (equal kernel weight for 3 players) it lands within sampling noise
    np.testing.assert_allclose(words, exact, atol=0.03)
    assert words.sum() == pytest.approx(exact.sum(), abs=1e-3)  # empty and full coalitions are pinned
