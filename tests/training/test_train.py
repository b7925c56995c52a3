import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.torch import load_file
from typer.testing import CliRunner

from interpeval.errors import DataError, InterpevalError
from interpeval.models import Target, lineage, load, tiny
from interpeval.models.load import apply_overlay
from interpeval.training.artifact import Q4_GROUP, overlay_tensors
from interpeval.training.batching import choice_pair, epoch_batches, word_units
from interpeval.training.examples import (
    ChoiceExample,
    ClassificationExample,
    MLMExample,
    read_squad,
    read_tsv,
)
from interpeval.training.loop import TrainConfig, train
from interpeval.training.scoring import answer_f1, evaluate
from interpeval.training.splits import seeded_split

DATA = Path(__file__).parent / "data" / "sst2-dev-head.tsv"
SQUAD = Path(__file__).parents[2] / "src" / "interpeval" / "data" / "squad" / "squadshifts-reddit.json"


def _sst():
    examples, names = read_tsv(DATA)
    return examples, names


def test_read_tsv_sst2_and_errors(tmp_path):
    examples, names = _sst()
    assert len(examples) == 60 and names == ["0", "1"]
    assert examples[0].text.startswith("it 's a charming") and examples[0].label == 1 and examples[0].pair is None
    bad = tmp_path / "bad.tsv"
    bad.write_text("sentence\tlabel\na fine film\t1\nbroken line\n")
    with pytest.raises(DataError, match=r"bad.tsv:3: 1 fields"):
        read_tsv(bad)
    bad.write_text("text\tscore\nfine\thigh\n")
    with pytest.raises(DataError, match=r"bad.tsv:2: score 'high' is not a number"):
        read_tsv(bad, "regression")


def test_overlay_round_trip_stores_only_top_layer_and_head(tmp_path):
    examples, names = _sst()
    result = train("sequence-classification", "tiny-encoder", examples, tmp_path / "a", TrainConfig(max_steps=3, batch_size=8, train_layers=1), label_names=names, progress=False)
    stored = load_file(str(tmp_path / "a" / "overlay.safetensors"))
    assert stored and all(t.dtype == torch.float16 for t in stored.values())
    assert all(k.startswith(("bert.encoder.layer.1.", "bert.pooler.", "classifier.")) for k in stored)
    assert any(k.startswith("classifier.") for k in stored) and any(".layer.1." in k for k in stored)
    meta = json.loads((tmp_path / "a" / "overlay.json").read_text())
    assert meta["base"] == "tiny-encoder" and meta["train_layers"] == 1
    loaded = load(tmp_path / "a", device="cpu")
    texts = [e.text for e in examples[:6]]
    before = result.model.score_texts(texts, target=Target("class_prob", index=1))
    after = loaded.score_texts(texts, target=Target("class_prob", index=1))
    assert np.allclose(before, after, atol=1e-3)  # fp16 storage
    # the frozen part is the base, untouched; the trained part moved
    base = tiny("sequence-classification")
    assert torch.equal(loaded.hf.bert.encoder.layer[0].output.dense.weight, base.hf.bert.encoder.layer[0].output.dense.weight)
    assert not torch.equal(loaded.hf.bert.encoder.layer[1].output.dense.weight,
                           base.hf.bert.encoder.layer[1].output.dense.weight)
    assert loaded.hf.config.id2label == {0: "0", 1: "1"}
    card = json.loads((tmp_path / "a" / "card.json").read_text())
    assert card["n_train"] == 54 and card["n_eval"] == 6 and 0 <= card["metrics"]["accuracy"] <= 1
    assert (tmp_path / "a" / "MODEL_CARD.md").exists() and not (tmp_path / "a" / "checkpoint.pt").exists()


def test_resume_reaches_the_same_weights(tmp_path):
    examples, names = _sst()
    config = TrainConfig(max_steps=6, batch_size=8, train_layers=1, lr=1e-3)
    kwargs = dict(label_names=names, progress=False)
    train("sequence-classification", "tiny-encoder", examples, tmp_path / "full", config, **kwargs)
    part = train("sequence-classification", "tiny-encoder", examples, tmp_path / "resumed", config, steps_this_run=2,
                 **kwargs)
    assert not part.finished and part.steps == 2 and (tmp_path / "resumed" / "checkpoint.pt").exists()
    done = train("sequence-classification", "tiny-encoder", examples, tmp_path / "resumed", config, **kwargs)
    assert done.finished and done.steps == 6
    full = load_file(str(tmp_path / "full" / "overlay.safetensors"))
    resumed = load_file(str(tmp_path / "resumed" / "overlay.safetensors"))
    assert full.keys() == resumed.keys() and all(torch.equal(full[k], resumed[k]) for k in full)
    again = train("sequence-classification", "tiny-encoder", examples, tmp_path / "resumed", config, **kwargs)
    assert again.metrics == done.metrics and again.model is None  # finished runs are not retrained
    part = train("sequence-classification", "tiny-encoder", examples, tmp_path / "other", config, steps_this_run=1,
                 **kwargs)
    with pytest.raises(InterpevalError, match="different training run"):
        train("sequence-classification", "tiny-encoder", examples, tmp_path / "other", replace(config, lr=1e-4),
              **kwargs)


def test_an_artifact_lists_its_training_and_dev_inputs_and_not_its_held_out_split(tmp_path):
    examples, names = _sst()
    examples, dev = examples[:40], examples[40:44]
    train("sequence-classification", "tiny-encoder", examples, tmp_path / "a",
          TrainConfig(max_steps=1, batch_size=8, eval_fraction=0.25), dev=dev, label_names=names, progress=False)
    seen = lineage.read(str(tmp_path / "a"))
    train_idx, eval_idx = seeded_split(len(examples), 0.25, 0)
    assert all(seen.seen(examples[i].text) for i in train_idx) and all(seen.seen(e.text) for e in dev)
    assert not any(seen.seen(examples[i].text) for i in eval_idx)  # held out: a benchmark may score them
    card = json.loads((tmp_path / "a" / "card.json").read_text())
    assert card["lineage"]["n"] == len(seen.hashes) == len(train_idx) + len(dev)


def test_qa_with_evidence_mc_and_mlm_train_and_load(tmp_path):
    qa = read_squad(SQUAD)[:24]
    for e in qa:  # the answer's sentence region stands in as evidence: a real span of the context
        e.evidence_start, e.evidence_text = e.answer_start, e.context[e.answer_start:e.answer_start + 40]
    result = train("extractive-qa", "tiny-encoder", qa, tmp_path / "qa", TrainConfig(max_steps=2, batch_size=8, train_layers=1), progress=False)
    assert set(result.metrics) == {"answer_f1", "exact_match", "evidence_f1"}
    assert any(k.startswith("evidence_head.") for k in load_file(str(tmp_path / "qa" / "overlay.safetensors")))
    assert load(tmp_path / "qa", device="cpu").evidence_head is not None

    mc = [ChoiceExample(e.context[:80], e.question, [e.answer_text, "none of these", "all"][: 2 + i % 2], 0)
          for i, e in enumerate(qa)]
    assert "accuracy" in train("multiple-choice", "tiny-encoder", mc, tmp_path / "mc", TrainConfig(max_steps=2, batch_size=4), progress=False).metrics
    mlm = [MLMExample(e.context[:200]) for e in qa]
    result = train("masked-lm", "tiny-encoder", mlm, tmp_path / "mlm", TrainConfig(max_steps=2, batch_size=8), progress=False)
    assert {"masked_accuracy", "masked_top3"} <= set(result.metrics)
    stored = load_file(str(tmp_path / "mlm" / "overlay.safetensors"))
    # full fine-tuning stores changes, never the (frozen) word embeddings
    assert not any("word_embeddings" in k for k in stored) and any(k.endswith(".delta") for k in stored)
    assert load(tmp_path / "mlm", device="cpu").kind == "masked-lm"


def test_a_head_fine_tuned_from_another_kinds_encoder(tmp_path):
    """A QA artifact loaded as a classifier keeps its trained encoder under a new head; a classifier trained from it
    is stored against it (chained overlays) and reloads to the weights it ended with."""
    qa = read_squad(SQUAD)[:16]
    train("extractive-qa", "tiny-encoder", qa, tmp_path / "qa", TrainConfig(max_steps=2, batch_size=8), progress=False)
    trained_qa = load(tmp_path / "qa", device="cpu")
    with pytest.warns(UserWarning, match="extractive-qa model loaded as sequence-classification"):
        as_cls = load(tmp_path / "qa", kind="sequence-classification", num_labels=2, device="cpu")
    qa_state = trained_qa.hf.base_model.state_dict()
    for name, tensor in as_cls.hf.base_model.state_dict().items():
        if name in qa_state:  # the pooler is new: QA models have none
            torch.testing.assert_close(tensor, qa_state[name])
    examples = [ClassificationExample(e.question, i % 2, e.context[:120]) for i, e in enumerate(qa)]
    with pytest.warns(UserWarning, match="new, randomly initialised head"):
        result = train("sequence-classification", str(tmp_path / "qa"), examples, tmp_path / "cls", TrainConfig(max_steps=2, batch_size=8, eval_fraction=0), progress=False)
    assert json.loads((tmp_path / "cls" / "overlay.json").read_text())["base"] == str(tmp_path / "qa")
    reloaded = load(tmp_path / "cls", device="cpu")
    for name, tensor in result.model.hf.state_dict().items():
        torch.testing.assert_close(reloaded.hf.state_dict()[name], tensor, atol=0.02, rtol=0.02)  # int8 changes


def test_multiple_choice_accuracy_batches_items_by_option_count():
    qa = read_squad(SQUAD)[:10]
    mc = [ChoiceExample(e.context[:80], e.question, [e.answer_text, "none of these", "all", "some"][: 2 + i % 3],
                        i % 2) for i, e in enumerate(qa)]
    model = tiny("multiple-choice", batch_size=4)
    one_by_one = [int(model.predict([e.context], [[choice_pair(e.question, o) for o in e.options]])[0]) == e.label
                  for e in mc]
    assert evaluate(model, "multiple-choice", mc)["accuracy"] == pytest.approx(np.mean(one_by_one))


def test_int8_changes_reload_the_trained_weights(tmp_path):
    """A matrix's change is stored as int8 per row: reloaded weights are within half a step of the trained ones."""
    base = {"w": torch.randn(64, 128), "b": torch.randn(64)}
    trained = {"w": base["w"] + 0.01 * torch.randn(64, 128), "b": base["b"] + 0.1}
    params = [(k, torch.nn.Parameter(v)) for k, v in trained.items()] + [("head", torch.nn.Parameter(torch.ones(3)))]
    stored = overlay_tensors(params, base)
    assert stored["w.q8"].dtype == torch.int8 and stored["w.q8scale"].shape == (64,)
    assert stored["b.delta"].dtype == torch.float16 and torch.equal(stored["head"], torch.ones(3).half())
    merged = apply_overlay(stored, base)
    step = (trained["w"] - base["w"]).abs().amax(1, keepdim=True) / 127
    assert ((merged["w"] - trained["w"]).abs() <= step / 2 + 1e-6).all()
    assert torch.allclose(merged["b"], trained["b"], atol=1e-3) and "head" in merged


def test_int4_changes_reload_within_half_a_group_step():
    """With ``bits=4`` two changes share a byte and each group of Q4_GROUP columns one scale (max |change| / 7):
    every reloaded weight is within half its group's step."""
    base = {"w": torch.randn(32, 2 * Q4_GROUP)}
    change = 0.01 * torch.randn(32, 2 * Q4_GROUP)
    change[3, :Q4_GROUP] *= 50  # one loud group must not coarsen its neighbours
    stored = overlay_tensors([("w", torch.nn.Parameter(base["w"] + change))], base, bits=4)
    assert stored["w.q4"].dtype == torch.uint8 and stored["w.q4"].shape == (32, Q4_GROUP)
    assert stored["w.q4scale"].shape == (32, 2)
    step = change.reshape(32, 2, Q4_GROUP).abs().amax(2) / 7
    error = (apply_overlay(stored, base)["w"] - base["w"] - change).abs().reshape(32, 2, Q4_GROUP).amax(2)
    assert (error <= step / 2 + 1e-3 * step + 1e-6).all()
    assert error[4, 0] < step[3, 0] / 20


def test_rank_r_changes_reload_as_the_best_rank_r_approximation():
    """``rank=r`` stores a matrix change as two SVD factors: a change of rank ≤ r comes back (up to int8 steps), a
    fuller one as its best rank-r approximation (Eckart–Young: the error is the dropped singular values); a matrix
    whose factors would not be smaller keeps the plain storage."""
    torch.manual_seed(0)
    base = {"w": torch.randn(256, 192), "wide": torch.randn(16, 1000)}
    low = 0.01 * torch.randn(256, 20) @ torch.randn(20, 192)
    full = 0.01 * torch.randn(256, 192)
    for change, exact in ((low, True), (full, False)):
        params = [("w", torch.nn.Parameter(base["w"] + change)), ("wide", torch.nn.Parameter(base["wide"] + 0.1))]
        stored = overlay_tensors(params, base, rank=32)
        assert set(stored) == {"w.lowrank_left.q8", "w.lowrank_left.q8scale", "w.lowrank_right.q8",
                               "w.lowrank_right.q8scale", "wide.q8", "wide.q8scale"}
        assert stored["w.lowrank_left.q8"].shape == (256, 32) and stored["w.lowrank_right.q8"].shape == (32, 192)
        error = torch.linalg.norm(apply_overlay(stored, base)["w"] - base["w"] - change)
        optimum = torch.linalg.svdvals(change)[32:].square().sum().sqrt()
        assert error <= optimum + 0.01 * torch.linalg.norm(change)
        assert (error < 0.01 * torch.linalg.norm(change)) == exact


def test_unknown_delta_bits_is_refused_before_training(tmp_path):
    with pytest.raises(ValueError, match="delta_bits must be 8 or 4"):
        train("sequence-classification", "tiny-sequence-classification", [ClassificationExample("a", 0)], tmp_path, TrainConfig(delta_bits=2))
    with pytest.raises(ValueError, match="delta_rank must be a positive whole number"):
        train("sequence-classification", "tiny-sequence-classification", [ClassificationExample("a", 0)], tmp_path, TrainConfig(delta_rank=0))
    assert not any(tmp_path.iterdir())


def test_warm_start_continues_from_an_artifact_and_stores_changes_against_the_base(tmp_path):
    examples, names = _sst()
    kwargs = dict(label_names=names, progress=False)
    train("sequence-classification", "tiny-encoder", examples, tmp_path / "a", TrainConfig(max_steps=3, lr=1e-3,
                                                                                           batch_size=8), **kwargs)
    a = load(tmp_path / "a", device="cpu")
    # lr 0: the warm-started run keeps the weights it started from, so it must reload as the first artifact
    train("sequence-classification", "tiny-encoder", examples, tmp_path / "same", TrainConfig(max_steps=1, lr=0.0, batch_size=8, init=str(tmp_path / "a")), **kwargs)
    same = load(tmp_path / "same", device="cpu")
    for name, value in a.hf.state_dict().items():
        assert torch.allclose(same.hf.state_dict()[name], value, atol=1e-6), name
    longer = train("sequence-classification", "tiny-encoder", examples, tmp_path / "b", TrainConfig(max_steps=2, lr=1e-3, batch_size=8, init=str(tmp_path / "a")), **kwargs)
    b = load(tmp_path / "b", device="cpu")
    assert json.loads((tmp_path / "b" / "overlay.json").read_text())["base"] == "tiny-encoder"
    moved = (b.hf.bert.encoder.layer[0].output.dense.weight - a.hf.bert.encoder.layer[0].output.dense.weight).detach()
    assert float(moved.abs().max()) > 0
    card = json.loads((tmp_path / "b" / "card.json").read_text())
    assert card["init"]["from"] == "a" and card["init"]["steps"] == 3 and card["steps"] == 2
    assert "warm start from `a`" in (tmp_path / "b" / "MODEL_CARD.md").read_text()
    again = train("sequence-classification", "tiny-encoder", examples, tmp_path / "b", TrainConfig(max_steps=2, lr=1e-3, batch_size=8, init=str(tmp_path / "a")), **kwargs)
    assert again.model is None and again.metrics == longer.metrics  # finished: not retrained


def test_a_warm_start_of_a_warm_start_names_every_run_it_continues(tmp_path, monkeypatch):
    from interpeval.models import zoo

    examples, names = _sst()
    kwargs = dict(label_names=names, progress=False)
    train("sequence-classification", "tiny-encoder", examples, tmp_path / "a", TrainConfig(max_steps=3, batch_size=8, lr=1e-3), **kwargs)
    train("sequence-classification", "tiny-encoder", examples, tmp_path / "b", TrainConfig(max_steps=2, batch_size=8, lr=1e-3, init=str(tmp_path / "a")), **kwargs)
    train("sequence-classification", "tiny-encoder", examples, tmp_path / "c", TrainConfig(max_steps=1, batch_size=8, lr=1e-3, init=str(tmp_path / "b")), **kwargs)
    card = json.loads((tmp_path / "c" / "card.json").read_text())
    assert [stage["from"] for stage in zoo.init_chain(card)] == ["a", "b"]
    warm = [line for line in (tmp_path / "c" / "MODEL_CARD.md").read_text().splitlines() if "warm start" in line]
    assert len(warm) == 2 and "from `a`" in warm[0] and "(3 steps" in warm[0] and "from `b`" in warm[1]
    monkeypatch.setattr(zoo, "artifacts_dir", lambda: tmp_path)
    row = next(line for line in zoo.heldout_table().splitlines() if line.startswith("| `c`"))
    assert "3 + 2 + 1 steps" in row  # every run's steps, the first-trained first


def test_warm_start_from_a_wrong_artifact_is_refused_before_training(tmp_path):
    examples, names = _sst()
    train("sequence-classification", "tiny-encoder", examples, tmp_path / "a", TrainConfig(max_steps=1, batch_size=8), label_names=names, progress=False)
    with pytest.raises(InterpevalError, match="is a sequence-classification model trained from 'tiny-encoder'"):
        train("regression", "tiny-encoder", [], tmp_path / "r", TrainConfig(init=str(tmp_path / "a")))
    with pytest.raises(InterpevalError, match="changed every layer; train_layers=1 would drop those changes"):
        train("sequence-classification", "tiny-encoder", examples, tmp_path / "t", TrainConfig(init=str(tmp_path / "a"), train_layers=1))
    with pytest.raises(InterpevalError, match="no trained artifact there"):
        train("sequence-classification", "tiny-encoder", examples, tmp_path / "c", TrainConfig(init=str(tmp_path / "none")))
    assert not any((tmp_path / name).exists() for name in ("r", "t", "c"))


def test_requantize_tool_keeps_heads_and_metadata(tmp_path):
    from safetensors import safe_open
    from safetensors.torch import save_file

    sys.path.insert(0, str(Path(__file__).parents[2] / "tools"))
    from requantize_overlay import requantize

    base = {"w": torch.randn(64, Q4_GROUP)}
    trained = base["w"] + 0.01 * torch.randn(64, Q4_GROUP)
    params = [("w", torch.nn.Parameter(trained)), ("head", torch.nn.Parameter(torch.arange(3.0)))]
    save_file(overlay_tensors(params, base), str(tmp_path / "overlay.safetensors"), metadata={"kind": "x"})
    (tmp_path / "overlay.json").write_text(json.dumps({"base": "b", "storage": "int8"}))
    requantize(tmp_path, 4)
    with safe_open(str(tmp_path / "overlay.safetensors"), "pt") as handle:
        assert handle.metadata() == {"kind": "x"}
        stored = {k: handle.get_tensor(k) for k in handle.keys()}  # noqa: SIM118
    assert set(stored) == {"w.q4", "w.q4scale", "head"} and torch.equal(stored["head"], torch.arange(3.0).half())
    assert (apply_overlay(stored, base)["w"] - trained).abs().max() < 0.01
    assert json.loads((tmp_path / "overlay.json").read_text())["storage"].startswith("int4")


def test_length_buckets_cover_every_example_once_and_group_lengths():
    lengths = list(range(1000))
    batches = epoch_batches(lengths, 10, seed=3, epoch=0, pool=5)
    flat = sorted(i for b in batches for i in b)
    assert flat == lengths and len(batches) == 100
    # 10 consecutive of 50 sorted uniform draws span about 10/51 of the range (≈ 196); a random batch of 10
    # spans about 9/11 of it (≈ 818)
    assert np.mean([max(b) - min(b) for b in batches]) < 300
    assert batches == epoch_batches(lengths, 10, seed=3, epoch=0, pool=5)  # seeded: resumable
    assert batches != epoch_batches(lengths, 10, seed=3, epoch=1, pool=5)


def test_whole_word_units_keep_word_pieces_together():
    model = load("tiny-masked-lm", device="cpu")
    enc = model.tokenize(["unbelievably tokenized words"])
    tokens = model.tokenizer.convert_ids_to_tokens(enc["input_ids"][0].tolist())
    units = word_units(enc, 0, tokens)
    words = [" ".join(tokens[p] for p in unit) for unit in units]
    assert len(units) == 3 and all(not tokens[u[0]].startswith("##") for u in units), words
    assert sum(len(u) for u in units) == len(tokens) - 2  # every token but [CLS]/[SEP]


def test_dev_selection_keeps_the_best_step(tmp_path):
    examples, names = _sst()
    result = train("sequence-classification", "tiny-encoder", examples[:40], tmp_path / "sel", TrainConfig(max_steps=6, batch_size=8, eval_fraction=0, eval_every=2, lr=1e-3), dev=examples[40:], label_names=names, progress=False)
    card = json.loads((tmp_path / "sel" / "card.json").read_text())
    history = card["selection"]["history"]
    assert [h["step"] for h in history] == [2, 4, 6]
    assert card["selection"]["best_score"] == max(h["accuracy"] for h in history)
    assert result.finished and "model selection" in (tmp_path / "sel" / "MODEL_CARD.md").read_text()


def test_wrong_example_type_is_named():
    with pytest.raises(ValueError, match=r"examples\[0\] is a MLMExample"):
        train("extractive-qa", "tiny-encoder", [MLMExample("x")], "unused", progress=False)
    with pytest.raises(ValueError, match="train_layers=5"):
        train("masked-lm", "tiny-encoder", [MLMExample("a b")] * 4, "unused", TrainConfig(train_layers=5), progress=False)


def test_answer_f1_is_squad_official():
    # gold "the Eiffel Tower" → [eiffel, tower]; pred "Eiffel tower in Paris" → [eiffel, tower, in, paris]:
    # overlap 2, precision 2/4, recall 2/2 → F1 = 2·0.5·1/1.5 = 2/3
    assert answer_f1("the Eiffel Tower", "Eiffel tower in Paris") == pytest.approx(2 / 3)
    assert answer_f1("", "") == 1.0 and answer_f1("", "x") == 0.0


def test_answer_f1_counts_chinese_characters():
    # gold 北京大学 → 4 characters, pred 北京。 → [北, 京] (。 is punctuation): overlap 2, precision 1, recall 1/2
    # → F1 = 2/3 (whitespace tokens would make it 0: one token each, different)
    assert answer_f1("北京大学", "北京。") == pytest.approx(2 / 3)
    # mixed text: gold [1998, 年] vs pred [1998] → precision 1, recall 1/2 → 2/3
    assert answer_f1("1998年", "1998") == pytest.approx(2 / 3)


def test_cli_train_and_models(tmp_path):
    import typer

    from interpeval.cli import models as models_cli
    from interpeval.cli import train as train_cli

    app = typer.Typer()
    app.add_typer(train_cli.app, name="train")
    app.add_typer(models_cli.app, name="models")
    runner = CliRunner()
    out = tmp_path / "cls"
    result = runner.invoke(app, ["train", "sequence-classification", "--base", "tiny-encoder", "--data", str(DATA),
                                 "--out", str(out), "--train-layers", "1", "--max-steps", "2", "--batch-size", "8"])
    assert result.exit_code == 0, result.output
    assert "accuracy=" in result.output and (out / "overlay.json").exists()
    assert "sequence-classification" in json.loads((out / "card.json").read_text())["command"]
    listing = runner.invoke(app, ["models"], terminal_width=200)
    assert listing.exit_code == 0 and "tiny-extractive-qa" in listing.output and "minilm" in listing.output
    cards = runner.invoke(app, ["models", "--cards"])
    assert cards.exit_code == 0, cards.output
    from interpeval.models.zoo import artifacts_dir

    for card_file in artifacts_dir().glob("*/card.json"):  # one row per held-out test, numbers as in the card
        card = json.loads(card_file.read_text())
        rows = [line for line in cards.output.splitlines() if line.startswith(f"| `{card['name']}`")]
        assert len(rows) == max(1, len(card.get("heldout", {})))
        if "init" in card:  # a warm-started head counts the steps of the run it continued
            assert all(f"{card['init']['steps']} + {card['steps']} steps" in row for row in rows)
        for test in card.get("heldout", {}).values():
            primary = next(v for v in test["metrics"].values() if isinstance(v, float))
            assert any(f"({test['n']})" in row and f"{primary:.3f}" in row for row in rows)


def test_choice_evidence_head_targets_loss_and_prediction():
    """ExpMRC's multiple-choice evidence head: targets are the evidence's context tokens (the same in every choice's
    row, dropped when truncation cuts them), the loss adds λ × the mean start/end CE, and the predicted evidence is
    a span of the context."""
    from interpeval.training.batching import make_batch
    from interpeval.training.loop import _loss

    context = "the cat sat on the mat. the dog ran in the park. a bird sang."
    evidence = "the dog ran in the park."
    examples = [ChoiceExample(context, "who ran?", ["the dog", "the cat", "a bird"], 0, context.index(evidence),
                              evidence),
                ChoiceExample(context, "who sang?", ["a bird", "the cat"], 0, context.index("a bird"), "a bird sang.")]
    model = tiny("multiple-choice", evidence_head=True)
    batch = make_batch(model, "multiple-choice", examples)
    for b, e in enumerate(examples):
        start, end = int(batch["evidence_start"][b]), int(batch["evidence_end"][b])
        for offsets in batch["inputs"]["offset_mapping"][b]:
            assert context[offsets[start][0]:offsets[end][1]] == e.evidence_text
    assert batch["evidence_keep"].tolist() == [True, True]
    model.max_length = 16  # the evidence of the first item no longer fits: not learnt from
    assert make_batch(model, "multiple-choice", examples[:1])["evidence_keep"].tolist() == [False]
    model.max_length = 128

    with torch.no_grad():
        out = model.forward(batch["inputs"])
        ce = torch.nn.functional.cross_entropy
        evidence_ce = (ce(out["evidence_start_logits"], batch["evidence_start"])
                       + ce(out["evidence_end_logits"], batch["evidence_end"])) / 2
        plain, weighted = (_loss(model, "multiple-choice", batch, lam) for lam in (0.0, 0.3))
    torch.testing.assert_close(weighted - plain, 0.3 * evidence_ce)

    preds = model.predict_evidence([e.context for e in examples],
                                   [[choice_pair(e.question, o) for o in e.options[:2]] for e in examples])
    for p in preds:
        ev = p["evidence"]
        assert p["choice"] in (0, 1) and ev["text"] and context[ev["start"]:ev["end"]] == ev["text"]


def test_a_multiple_choice_model_predicts_items_with_different_option_counts_in_one_call():
    """C3's questions have two to four options; one ``predict`` call over them keeps the input order and equals
    predicting each item alone (a batch of mixed option counts was refused)."""
    qa = read_squad(SQUAD)[:9]
    texts = [e.context[:80] for e in qa]
    pairs = [[f"{e.question} {o}" for o in [e.answer_text, "none of these", "all", "some"][: 2 + i % 3]]
             for i, e in enumerate(qa)]
    model = tiny("multiple-choice", batch_size=4)
    alone = [int(model.predict([t], [p])[0]) for t, p in zip(texts, pairs, strict=True)]
    assert model.predict(texts, pairs).tolist() == alone
    with_evidence = tiny("multiple-choice", batch_size=4, evidence_head=True)
    evidence_alone = [with_evidence.predict_evidence([t], [p])[0] for t, p in zip(texts, pairs, strict=True)]
    assert with_evidence.predict_evidence(texts, pairs) == evidence_alone
