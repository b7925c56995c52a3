"""The ``mpnet-mlm`` recipe's path on a tiny MPNet: an encoder-only checkpoint (as all-mpnet-base-v2 ships, no
vocabulary head) gets a new head tied to its input embeddings, trains a few steps through ``run_recipe`` and is
scored on its held-out text next to the unigram baseline. The real run is a GPU job."""

import dataclasses
import json

import pytest

from interpeval.training import recipes
from interpeval.training.data import Prepared
from interpeval.training.data import TestSet as HeldOutTest
from interpeval.training.english import build_mlm_en
from interpeval.training.examples import MLMExample

TEXTS = ["the river flows through the old town and past the mill", "a bird sat on the wall of the garden",
         "the king of france lived in paris for many years", "the ship sailed from london to new york in spring"]


@pytest.fixture
def tiny_mpnet_encoder(tmp_path, one_torch_thread):
    import torch
    from transformers import AutoTokenizer, MPNetConfig, MPNetModel

    from interpeval.models.tiny import tokenizer_dir

    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir()))
    config = MPNetConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                         intermediate_size=64, max_position_embeddings=130, pad_token_id=tokenizer.pad_token_id)
    torch.manual_seed(0)
    model = MPNetModel(config)
    model.config.architectures = ["MPNetModel"]  # what a sentence-transformers checkpoint declares
    folder = tmp_path / "tiny-mpnet"
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_mpnet_mlm_recipe_is_ready_for_a_gpu_session():
    recipe = recipes.RECIPES["mpnet-mlm"]
    assert (recipe.kind, recipe.base, recipe.build) == ("masked-lm", "mpnet-base", build_mlm_en)
    assert recipe.served() == ["en"]


@pytest.mark.filterwarnings("ignore:.*no trained masked-lm head")
def test_a_few_steps_on_a_tiny_mpnet_through_the_recipe_path(tiny_mpnet_encoder, tmp_path, monkeypatch):
    from interpeval.models import load

    examples = [MLMExample(t) for t in TEXTS * 2]
    prepared = Prepared(examples, examples[:2], {"held-out": HeldOutTest(
        [MLMExample(t) for t in TEXTS[:2]], "two sentences", "unigram", {})}, {"text": "hand-written"})
    tiny = dataclasses.replace(recipes.RECIPES["mpnet-mlm"], base=str(tiny_mpnet_encoder),
                               build=lambda root: prepared,
                               settings={"max_steps": 3, "lr": 1e-3, "batch_size": 4, "max_length": 32,
                                         "eval_every": 3})
    monkeypatch.setitem(recipes.RECIPES, "mpnet-mlm", tiny)
    out = tmp_path / "mpnet-mlm"
    done = recipes.run_recipe("mpnet-mlm", tmp_path, out, device="cpu")
    assert done["steps"] == 3
    scores = done["heldout"]["held-out"]
    assert set(scores["metrics"]) >= {"masked_accuracy"} and set(scores["baseline"]) == {"masked_accuracy",
                                                                                          "masked_top3"}
    model = load(out, kind="masked-lm", device="cpu")
    assert type(model.hf).__name__ == "MPNetForMaskedLM"
    # the new vocabulary head is tied to the input embeddings
    assert model.hf.lm_head.decoder.weight.data_ptr() == model.hf.get_input_embeddings().weight.data_ptr()
    assert json.loads((out / "card.json").read_text())["heldout"]["held-out"]["n"] == 2
    assert len(model.fill_mask([f"the king of {model.tokenizer.mask_token} lived in paris"], k=3)[0]) == 3
