import numpy as np
import pytest
import torch
from sklearn.metrics import f1_score

from interpeval.benchmarks.probing.mdl import online_codelength
from interpeval.benchmarks.probing.probes import LayerwiseProbe, _weighted_f1_layers


def data(n, seed=0):
    """Layer 0 carries the label linearly, layer 1 is noise."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    signal = rng.normal(size=(n, 8)).astype(np.float32)
    signal[np.arange(n), y] += 4.0
    return np.stack([signal, rng.normal(size=(n, 8)).astype(np.float32)]), y


@pytest.mark.parametrize("kind", ["logreg", "mlp"])
def test_probes_find_the_layer_that_encodes_the_label(kind):
    x, y = data(600)
    probe = LayerwiseProbe(kind, seed=1).fit(x[:, :400], y[:400], x[:, 400:500], y[400:500])
    acc = (probe.predict(x[:, 500:]) == y[500:]).mean(1)
    assert acc[0] > 0.9 and acc[1] < 0.6


def test_official_steps_only_after_odd_batches_or_the_last():
    # 320 rows / 64 = 5 batches: steps after i = 1, 3 and the last (4) → 3 per epoch, 10 epochs → 30.
    x, y = data(320)
    assert LayerwiseProbe("logreg", official=True).fit(x, y).steps_ == 30
    # 256 rows = 4 batches: i = 1 and 3 (also the last) → 2 per epoch → 20; the default steps every batch.
    assert LayerwiseProbe("logreg", official=True).fit(x[:, :256], y[:256]).steps_ == 20
    assert LayerwiseProbe("logreg", epochs=10).fit(x[:, :256], y[:256]).steps_ == 40


def test_official_logreg_outputs_are_sigmoids():
    x, y = data(128)
    scores = LayerwiseProbe("logreg", official=True).fit(x, y).decision_function(x)
    assert scores.min() > 0 and scores.max() < 1


def test_seeded_training_is_deterministic():
    x, y = data(300)
    a = LayerwiseProbe("mlp", seed=3).fit(x, y, x, y).decision_function(x)
    b = LayerwiseProbe("mlp", seed=3).fit(x, y, x, y).decision_function(x)
    np.testing.assert_array_equal(a, b)
    assert torch.get_num_threads() >= 1


def test_vectorised_weighted_f1_matches_sklearn():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 4, 50)
    pred = rng.integers(0, 5, (3, 50))
    expected = [f1_score(y, p, average="weighted", zero_division=0) for p in pred]
    np.testing.assert_allclose(_weighted_f1_layers(pred, y), expected)


def test_online_code_is_shorter_where_the_label_is_encoded():
    x, y = data(300)
    bits, uniform = online_codelength(x, y, 3, seed=0, min_steps=60)
    assert uniform == pytest.approx(300 * np.log2(3))
    assert bits[0] < 0.8 * uniform < bits[1]
