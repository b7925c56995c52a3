import numpy as np
import pytest
import torch

from interpeval.benchmarks.probing.encode import LayerCache, aggregate
from interpeval.models import tiny

TEXTS = ["a short one", "a much longer sentence with many more words than the first one has", "mid length text"]


@pytest.fixture(scope="module")
def model():
    return tiny("encoder")


class CountingModel:
    """Wraps the tiny encoder and counts how many sentences reach ``hidden_states``."""

    def __init__(self, inner):
        self.inner, self.seen = inner, 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def hidden_states(self, texts, **kwargs):
        self.seen += len(texts)
        return self.inner.hidden_states(texts, **kwargs)


def test_each_sentence_is_encoded_once_and_reused(tmp_path, model):
    counting = CountingModel(model)
    cache = LayerCache(tmp_path, "tiny")
    assert cache.encode(counting, TEXTS + TEXTS[:1], ["avg", "cls"]) == 3
    assert cache.encode(counting, TEXTS, ["avg", "cls"]) == 0
    assert cache.encode(counting, TEXTS + ["new text"], ["avg"]) == 1
    assert counting.seen == 4
    avg = cache.get(TEXTS[::-1], "avg")
    n_layers = model.hf.config.num_hidden_layers
    assert avg.shape == (3, n_layers, model.hf.config.hidden_size) and not np.isnan(avg).any()
    with pytest.raises(ValueError, match="caches"):
        cache.missing(TEXTS, ["sum"])


def test_a_head_retrained_under_the_same_name_is_encoded_again(tmp_path, model):
    head = tmp_path / "my-head"  # a model folder: its files are what the cache is keyed by, with its name
    head.mkdir()
    (head / "overlay.safetensors").write_bytes(b"first weights")
    counting = CountingModel(model)
    assert LayerCache(tmp_path / "cache", str(head)).encode(counting, TEXTS, ["avg"]) == 3
    assert LayerCache(tmp_path / "cache", str(head)).encode(counting, TEXTS, ["avg"]) == 0  # same head: reused
    (head / "card.json").write_text("{}")  # a description changes nothing the head computes
    assert LayerCache(tmp_path / "cache", str(head)).encode(counting, TEXTS, ["avg"]) == 0
    (head / "overlay.safetensors").write_bytes(b"retrained weights")
    assert LayerCache(tmp_path / "cache", str(head)).encode(counting, TEXTS, ["avg"]) == 3  # no stale vectors
    assert counting.seen == 6


def test_masked_aggregation_does_not_depend_on_the_batch(tmp_path, model):
    together = LayerCache(tmp_path / "a", "tiny")
    together.encode(model, TEXTS, ["avg", "last", "sum", "cls"])
    alone = LayerCache(tmp_path / "b", "tiny")
    for text in TEXTS:
        alone.encode(model, [text], ["avg", "last", "sum", "cls"])
    for agg in ("avg", "last", "sum", "cls"):
        np.testing.assert_allclose(together.get(TEXTS, agg), alone.get(TEXTS, agg), atol=1e-5)


def test_official_aggregation_includes_padding(tmp_path, model):
    official = LayerCache(tmp_path, "tiny", official=True)
    official.encode(model, TEXTS, ["avg", "last"])
    default = LayerCache(tmp_path, "tiny")
    default.encode(model, TEXTS, ["avg", "last"])
    longest = 1  # the longest text has no padding: both modes agree on it, and differ on the short one
    np.testing.assert_allclose(official.get(TEXTS, "avg")[longest], default.get(TEXTS, "avg")[longest], atol=1e-5)
    assert not np.allclose(official.get(TEXTS, "avg")[0], default.get(TEXTS, "avg")[0], atol=1e-3)
    assert not np.allclose(official.get(TEXTS, "last")[0], default.get(TEXTS, "last")[0], atol=1e-3)


def test_aggregate_by_hand():
    hidden = torch.arange(12, dtype=torch.float32).reshape(1, 3, 4).repeat(2, 1, 1)
    mask = torch.tensor([[1, 1, 0], [1, 1, 1]])
    assert aggregate(hidden, mask, "avg")[0].tolist() == [2.0, 3.0, 4.0, 5.0]  # mean of rows 0 and 1
    assert aggregate(hidden, mask, "avg", official=True)[0].tolist() == [4.0, 5.0, 6.0, 7.0]  # rows 0..2
    assert aggregate(hidden, mask, "last")[0].tolist() == [4.0, 5.0, 6.0, 7.0]
    assert aggregate(hidden, mask, "last", official=True)[0].tolist() == [8.0, 9.0, 10.0, 11.0]
    assert aggregate(hidden, mask, "sum")[1].tolist() == [12.0, 15.0, 18.0, 21.0]
    assert aggregate(hidden, mask, "cls")[0].tolist() == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(ValueError, match="unknown aggregation"):
        aggregate(hidden, mask, "max")


def test_official_drops_texts_longer_than_the_model_limit(tmp_path, model):
    long_text = " ".join(["word"] * (model.max_length + 5))
    cache = LayerCache(tmp_path, "tiny", official=True)
    cache.encode(model, [TEXTS[0], long_text], ["cls"])
    vectors = cache.get([TEXTS[0], long_text], "cls")
    assert not np.isnan(vectors[0]).any() and np.isnan(vectors[1]).all()
