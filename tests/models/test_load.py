import numpy as np
import pytest
import torch

from interpeval.errors import InterpevalError
from interpeval.models import Target, available, load, tiny
from interpeval.models.load import resolve_device


@pytest.mark.parametrize("kind", ["sequence-classification", "regression", "extractive-qa", "masked-lm"])
def test_local_dir_round_trip_infers_kind(tmp_path, kind):
    model = tiny(kind, seed=1)
    model.hf.save_pretrained(tmp_path)
    model.tokenizer.save_pretrained(tmp_path)
    loaded = load(tmp_path, device="cpu")
    assert loaded.kind == kind and loaded.name == str(tmp_path)
    texts, pairs = ["who won the cup ?"], ["the home team won it ."]
    target = Target(model.targets[0])
    assert np.allclose(loaded.score_texts(texts, pairs, target), model.score_texts(texts, pairs, target), atol=1e-6)


def test_encoder_dir_as_task_kind_warns_and_is_seeded(tmp_path):
    enc = tiny("encoder")
    enc.hf.save_pretrained(tmp_path)
    enc.tokenizer.save_pretrained(tmp_path)
    with pytest.warns(UserWarning, match="randomly initialised"):
        a = load(tmp_path, kind="sequence-classification", device="cpu", num_labels=3)
    with pytest.warns(UserWarning):
        b = load(tmp_path, kind="sequence-classification", device="cpu", num_labels=3)
    assert a.hf.config.num_labels == 3
    assert np.array_equal(a.predict_proba(["x y"]), b.predict_proba(["x y"]))


def test_hub_id_offline_is_one_clear_line(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(InterpevalError) as err:
        load("interpeval-nonexistent/model-xyz", device="cpu")
    message = str(err.value)
    assert "\n" not in message and "hub" in message and "interpeval-nonexistent/model-xyz" in message


def test_bad_local_paths(tmp_path):
    with pytest.raises(InterpevalError, match="no such directory"):
        load(str(tmp_path / "missing"), device="cpu")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InterpevalError, match="neither config.json"):
        load(tmp_path / "empty", device="cpu")
    with pytest.raises(ValueError, match="unknown kind"):
        load("tiny-encoder", kind="nope")


def test_tiny_zoo_names_dtype_and_batch_size():
    model = load("tiny-extractive-qa", device="cpu", dtype="bfloat16", batch_size=3, max_length=64)
    assert model.kind == "extractive-qa" and model.batch_size == 3 and model.max_length == 64
    assert model.hf.dtype == torch.bfloat16
    assert model.score_texts(["q ?"], ["c ."], Target("p_answer")).dtype == np.float32


def test_auto_device_falls_back_to_cpu_without_accelerators(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    assert resolve_device("auto") == torch.device("cpu")


def test_available_lists_the_zoo():
    names = {e.name: e for e in available()}
    assert {"minilm", "me5-small", "mpnet-base", "tiny-encoder", "tiny-extractive-qa"} <= set(names)
    assert names["tiny-masked-lm"].kind == "masked-lm" and names["tiny-masked-lm"].present


def test_a_head_is_present_only_when_the_base_it_overlays_is_installed(tmp_path, monkeypatch):
    """A head on an encoder whose packages are missing (or on such a head) cannot load: ``interpeval models``
    must not list it as present."""
    import json

    from interpeval.models import mpnet, zoo

    for name, base in (("a-head", "tiny-encoder"), ("b-head", "mpnet-base"), ("c-head", "b-head"),
                       ("d-head", "/some/local/folder")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "overlay.json").write_text(json.dumps({"base": base, "kind": "extractive-qa"}))
    monkeypatch.setattr(zoo, "artifacts_dir", lambda: tmp_path)
    monkeypatch.setattr(mpnet, "parts", lambda: None)
    names = {e.name: e for e in available()}
    assert [names[n].present for n in ("a-head", "b-head", "c-head", "d-head")] == [True, False, False, True]
    assert "'mpnet-base' is not installed" in names["b-head"].where


@pytest.mark.slow
def test_minilm_loads_as_encoder_and_classifier():
    enc = load("minilm", device="cpu")
    assert enc.kind == "encoder" and enc.hf.config.num_hidden_layers == 6
    emb = enc.predict(["A man is eating food.", "A man is eating a piece of bread.", "The sky is blue."])
    assert emb[0] @ emb[1] > emb[0] @ emb[2]  # a real sentence encoder, not noise
    with pytest.warns(UserWarning, match="randomly initialised"):
        load("minilm", kind="sequence-classification", device="cpu")
