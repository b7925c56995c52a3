"""The fine-tuning loop, one for every kind: the project trains the task heads no checkpoint provides.

``train(kind, base, examples, out_dir, TrainConfig(...))`` fine-tunes a zoo encoder (or any directory) on real
examples, holds out a seeded split and scores it, and writes a directory :func:`interpeval.models.load` reads plus
``MODEL_CARD.md``, ``card.json`` and ``lineage.json`` (:mod:`interpeval.models.lineage`: what it trained on). With
``train_layers=N`` only the top N encoder layers and the head train. A checkpoint in ``out_dir`` makes an
interrupted run resumable to the same final weights.

Training resumes from its own checkpoint, not through :func:`interpeval.benchmarks.base.resume`: that path stores
records of independent items, while a training step depends on every step before it (optimizer, scheduler and RNG
state), so its unit of work is the whole run and its record the checkpoint file, checked against the run's
fingerprint just as ``resume`` checks a run key.
"""

from __future__ import annotations

import io
import json
import math
import random
import re
import shutil
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from interpeval.errors import InterpevalError
from interpeval.models import lineage, zoo
from interpeval.models.base import Model
from interpeval.models.kinds import EVIDENCE_KINDS
from interpeval.models.load import OVERLAY_JSON, load
from interpeval.training.artifact import (
    CHECKPOINT,
    STAGING,
    publish,
    save_artifact,
    storage_label,
    write_whole,
)
from interpeval.training.batching import epoch_batches, example_length, make_batch, masked_logits
from interpeval.training.cards import init_summary, model_card
from interpeval.training.examples import EXAMPLE_TYPES, example_lineage, lineage_summary
from interpeval.training.scoring import PRIMARY_METRIC, evaluate
from interpeval.training.splits import seeded_split


@dataclass
class TrainResult:
    """What a (possibly partial) run did; ``metrics`` are on the held-out split, empty until finished.

    ``model`` is the trained model as it was in memory before saving (None when resumed from a finished run).
    """

    out_dir: Path
    finished: bool
    steps: int
    n_train: int
    n_eval: int
    metrics: dict[str, float] = field(default_factory=dict)
    wall_time_s: float = 0.0
    model: Model | None = None


@dataclass(frozen=True)
class TrainConfig:
    """How a head trains: the settings ``interpeval train`` takes as options and a recipe as ``--set KEY=VALUE``.

    ``eval_fraction`` of the examples (seeded) is held out and scored at the end; ``eval_every`` steps (default:
    each epoch) the dev examples, if any, select the best weights. ``delta_bits`` (8 or 4) and ``delta_rank`` say
    how the artifact stores what changed; ``init`` names an artifact to warm-start from; ``save_every`` steps a
    checkpoint is written.
    """

    seed: int = 0
    epochs: int = 1
    max_steps: int | None = None
    lr: float = 5e-5
    batch_size: int = 16
    eval_fraction: float = 0.1
    train_layers: int | None = None
    evidence_lambda: float = 0.1
    max_length: int = 128
    eval_every: int | None = None
    delta_bits: int = 8
    delta_rank: int | None = None
    init: str | None = None
    save_every: int = 50

    def __post_init__(self) -> None:
        if self.delta_bits not in (4, 8):
            raise ValueError(f"delta_bits must be 8 or 4, not {self.delta_bits!r}")
        if self.delta_rank is not None and (not isinstance(self.delta_rank, int) or self.delta_rank < 1):
            raise ValueError(f"delta_rank must be a positive whole number or None, not {self.delta_rank!r}")


@dataclass(frozen=True)
class About:
    """What the card says of a run: its data, the command that reproduces it, a description, extra card fields,
    and its lineage when the caller knows it better than the examples do (masked-LM chunks cut from paragraphs)."""

    data: str = ""
    command: str = ""
    description: str = ""
    extra: dict[str, Any] | None = None
    lineage: dict[str, Any] | None = None


def _masked_ce(logits: torch.Tensor, target: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    losses = torch.nn.functional.cross_entropy(logits.float(), target, reduction="none")
    return (losses * keep).sum() / keep.sum().clamp_min(1)


def _loss(model: Model, kind: str, batch: dict, evidence_lambda: float) -> torch.Tensor:
    """Cross-entropy (MSE for regression); masked-lm only at the masked tokens; QA: mean of start/end CE over
    the rows whose answer survived truncation; QA and multiple choice + λ · the mean start/end CE of the evidence
    head over the rows whose evidence survived truncation (ExpMRC's pseudo-data training)."""
    ce = torch.nn.functional.cross_entropy
    if kind == "masked-lm":
        chosen = batch["labels"] != -100
        return ce(masked_logits(model, batch["inputs"], chosen).float(), batch["labels"][chosen])
    out = model.forward(batch["inputs"])
    if kind == "regression":
        return torch.nn.functional.mse_loss(out.logits[:, 0].float(), batch["labels"])
    if kind == "sequence-classification":
        return ce(out.logits.float(), batch["labels"])
    if kind == "multiple-choice":
        loss = ce(out.logits.float().masked_fill(~batch["valid"], float("-inf")), batch["labels"])
    else:
        keep = batch["keep"].float()
        loss = (_masked_ce(out.start_logits, batch["start"], keep)
                + _masked_ce(out.end_logits, batch["end"], keep)) / 2
    if "evidence_start" in batch and getattr(model, "evidence_head", None) is not None:
        ev_keep = batch["evidence_keep"].float()
        evidence = (_masked_ce(out["evidence_start_logits"], batch["evidence_start"], ev_keep)
                    + _masked_ce(out["evidence_end_logits"], batch["evidence_end"], ev_keep)) / 2
        loss = loss + evidence_lambda * evidence
    return loss



def _trainable(model: Model, train_layers: int | None) -> list[tuple[str, torch.nn.Parameter]]:
    """The parameters that train, by HF name (the evidence head as ``evidence_head.*``).

    The word embeddings never train: they are most of a small encoder's weights (and of a 250k-piece
    multilingual one's), so keeping them lets an artifact store only what changed. ``train_layers=N`` also freezes
    all embeddings and every encoder layer below the top N; None trains every layer (full fine-tuning).
    """
    n_layers = model.hf.config.num_hidden_layers
    if train_layers is not None and not 0 <= train_layers <= n_layers:
        raise ValueError(f"train_layers={train_layers}: the base has {n_layers} layers")
    lowest = 0 if train_layers is None else n_layers - train_layers
    word_embeddings = model.hf.get_input_embeddings().weight
    params = []
    for name, param in model.hf.named_parameters():
        layer = re.search(r"\.layer\.(\d+)\.", name)
        frozen = param is word_embeddings or (train_layers is not None and (
            ".embeddings." in f".{name}" or (layer is not None and int(layer.group(1)) < lowest)))
        param.requires_grad_(not frozen)
        if not frozen:
            params.append((name, param))
    head = getattr(model, "evidence_head", None)
    if head is not None:
        params += [(f"evidence_head.{n}", p) for n, p in head.named_parameters()]
    return params



def _rng_state() -> dict[str, Any]:
    state = {"torch": torch.get_rng_state(), "python": random.getstate(), "numpy": np.random.get_state()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def _set_rng_state(state: dict[str, Any]) -> None:
    torch.set_rng_state(state["torch"])
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def _autocast(device: torch.device) -> Any:
    """bf16 autocast on a GPU (about twice as fast, same results within noise); full precision on a CPU."""
    import contextlib

    if device.type == "cuda":
        return torch.autocast("cuda", dtype=torch.bfloat16)
    return contextlib.nullcontext()


def train(kind: str, base: str, examples: Sequence[Any], out_dir: str | Path, config: TrainConfig = TrainConfig(), *,
          dev: Sequence[Any] | None = None, label_names: Sequence[str] | None = None, about: About = About(),
          device: str = "auto", steps_this_run: int | None = None, progress: bool = True) -> TrainResult:
    """Fine-tune ``base`` as ``kind`` on ``examples`` and write a loadable artifact to ``out_dir``.

    The held-out split (``config.eval_fraction``, seeded) is never trained on; its scores go into the card. With
    ``dev`` examples the model is scored on them every ``config.eval_every`` steps (default: each epoch) and the
    best-scoring weights are the ones saved (model selection). Batches are length-bucketed and padded to their
    longest item. The artifact stores only what training changed, relative to the base: int8 (``delta_bits=4``:
    int4) changes of matrices, fp16 for the rest, full values for new heads; ``delta_rank=r`` stores each matrix
    change as its best rank-r approximation, for encoders whose full change is too big to ship. Next to it,
    ``lineage.json`` lists what the head trained and was selected on (``about.lineage``, else every training and
    dev example's inputs). Re-running the same call resumes from ``out_dir/checkpoint.pt`` (written every
    ``config.save_every`` steps, when ``steps_this_run`` steps are done, and on Ctrl-C) and reaches the same final
    weights as an uninterrupted run; re-running a finished call returns its result without training again.
    ``config.init`` (an artifact trained from ``base`` as ``kind``) warm-starts from its weights with a new
    schedule; the changes are still stored relative to ``base``.
    """
    if kind not in EXAMPLE_TYPES:
        raise ValueError(f"cannot train kind {kind!r}; trainable kinds: {', '.join(EXAMPLE_TYPES)}")
    if config.init is not None:
        check_init(config.init, kind, base, config.train_layers)
    examples = list(examples)
    dev = list(dev or [])
    wrong = next((i for i, e in enumerate(examples + dev) if not isinstance(e, EXAMPLE_TYPES[kind])), None)
    if wrong is not None:
        bad = (examples + dev)[wrong]
        where = f"examples[{wrong}]" if wrong < len(examples) else f"dev[{wrong - len(examples)}]"
        raise ValueError(f"{where} is a {type(bad).__name__}, {kind} needs {EXAMPLE_TYPES[kind].__name__}")
    train_idx, eval_idx = seeded_split(len(examples), config.eval_fraction, config.seed)
    if len(train_idx) == 0:
        raise ValueError(f"no training examples left ({len(examples)} examples, eval_fraction={config.eval_fraction})")
    out = Path(out_dir)
    num_labels = None
    if kind == "sequence-classification":
        num_labels = max(len(label_names or []), max(int(e.label) for e in examples) + 1)
    steps_per_epoch = math.ceil(len(train_idx) / config.batch_size)
    total = config.max_steps if config.max_steps is not None else config.epochs * steps_per_epoch
    eval_every = config.eval_every or steps_per_epoch
    fingerprint = {"kind": kind, "base": str(base), "n_examples": len(examples), "seed": config.seed, "lr": config.lr,
                   "batch_size": config.batch_size, "total_steps": total, "eval_fraction": config.eval_fraction,
                   "train_layers": config.train_layers, "evidence_lambda": config.evidence_lambda, "max_length": config.max_length,
                   "data": about.data, "n_dev": len(dev), "eval_every": eval_every if dev else None}
    if config.init is not None:
        fingerprint["init"] = zoo.revision(config.init)
    card_path = out / "card.json"
    if card_path.exists() and not (out / CHECKPOINT).exists():
        card = json.loads(card_path.read_text())
        if card.get("fingerprint") == fingerprint:
            return TrainResult(out, True, card["steps"], card["n_train"], card["n_eval"], card["metrics"],
                               card["wall_time_s"])

    model = load(config.init or base, kind=kind, device=device, batch_size=config.batch_size, max_length=config.max_length,
                 num_labels=num_labels)
    if kind in EVIDENCE_KINDS and model.evidence_head is None and any(e.evidence_text for e in examples):
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(config.seed)
            model.evidence_head = torch.nn.Linear(model.hf.config.hidden_size, 2).to(model.device)
    params = _trainable(model, config.train_layers)
    prefix = f"{model.hf.base_model_prefix}."
    reference = model.hf
    if config.init is not None:  # the base's own weights, which the stored changes are relative to (its head is unused)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reference = load(base, kind=kind, device="cpu", num_labels=num_labels).hf
    trained_names = {n for n, _ in params}
    base_state = {n: p.detach().to("cpu", copy=True) for n, p in reference.named_parameters()
                  if n.startswith(prefix) and n in trained_names}
    optimizer = torch.optim.AdamW([p for _, p in params], lr=config.lr, weight_decay=0.01)
    warmup = max(1, int(0.06 * total))
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup))))
    lengths = [example_length(examples[i]) for i in train_idx]
    primary = PRIMARY_METRIC[kind]

    step, elapsed = 0, 0.0
    best: dict[str, Any] = {"score": None, "step": None, "params": None, "history": []}
    torch.manual_seed(config.seed)
    if (out / CHECKPOINT).exists():
        state = torch.load(out / CHECKPOINT, map_location="cpu", weights_only=False)
        if state["fingerprint"] != fingerprint:
            raise InterpevalError(f"{out / CHECKPOINT} belongs to a different training run; use another out_dir "
                                  "or delete the checkpoint")
        named = dict(params)
        for name, tensor in state["params"].items():
            named[name].data.copy_(tensor)
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        _set_rng_state(state["rng"])
        step, elapsed, best = state["step"], state["elapsed"], state["best"]

    def save_checkpoint() -> None:
        out.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        torch.save({"fingerprint": fingerprint, "step": step, "elapsed": elapsed + time.perf_counter() - started,
                    "params": {n: p.detach().cpu() for n, p in params}, "optimizer": optimizer.state_dict(),
                    "scheduler": scheduler.state_dict(), "rng": _rng_state(), "best": best}, buffer)
        tmp = out / f".{CHECKPOINT}.tmp"
        write_whole(tmp, buffer.getvalue(), "the checkpoint (the previous one is kept)")
        tmp.replace(out / CHECKPOINT)  # a kill while writing leaves the previous checkpoint intact

    def select() -> None:
        """Score the dev split; keep a copy of the weights when they are the best so far."""
        model.hf.eval()
        with _autocast(model.device):
            score = evaluate(model, kind, dev, config.seed).get(primary, float("nan"))
        model.hf.train()
        best["history"].append({"step": step, primary: score})
        if best["score"] is None or score > best["score"]:
            best.update(score=score, step=step, params={n: p.detach().cpu().clone() for n, p in params})

    started = time.perf_counter()
    first = step
    model.hf.train()
    if getattr(model, "evidence_head", None) is not None:
        model.evidence_head.train()
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                   TextColumn("loss {task.fields[loss]:.4f}"), TimeRemainingColumn(), disable=not progress)
    try:
        with bar:
            task = bar.add_task(f"train {kind}", total=total, completed=step, loss=float("nan"))
            while step < total:
                epoch, within = divmod(step, steps_per_epoch)
                chosen = epoch_batches(lengths, config.batch_size, config.seed, epoch)[within]
                batch = make_batch(model, kind, [examples[train_idx[i]] for i in chosen],
                               torch.Generator().manual_seed(config.seed * 1_000_003 + step))
                with _autocast(model.device):
                    loss = _loss(model, kind, batch, config.evidence_lambda)
                loss.backward()
                torch.nn.utils.clip_grad_norm_([p for _, p in params], 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad(set_to_none=True)
                step += 1
                bar.update(task, completed=step, loss=loss.item())
                if dev and (step % eval_every == 0 or step == total):
                    select()
                if step < total and (step % config.save_every == 0 or step - first == steps_this_run):
                    save_checkpoint()
                if step < total and step - first == steps_this_run:
                    return TrainResult(out, False, step, len(train_idx), len(eval_idx),
                                       wall_time_s=elapsed + time.perf_counter() - started)
    except KeyboardInterrupt:
        save_checkpoint()
        raise
    wall = elapsed + time.perf_counter() - started
    if best["params"] is not None:
        named = dict(params)
        for name, tensor in best["params"].items():
            named[name].data.copy_(tensor)
    staging = out / STAGING  # the artifact is built here and moved into out whole (a kill leaves no half of it)
    if staging.exists():
        shutil.rmtree(staging)
    save_artifact(model, staging, base, kind, params, base_state, config.train_layers, label_names, num_labels,
                   config.delta_bits, config.delta_rank)
    trained = load(staging, device=model.device, batch_size=config.batch_size, max_length=config.max_length)
    metrics = evaluate(trained, kind, [examples[i] for i in eval_idx], config.seed) if len(eval_idx) else {}
    card = {"name": out.name, "kind": kind, "base": str(base), "data": about.data, "description": about.description,
            "n_train": len(train_idx), "n_eval": len(eval_idx), "eval_fraction": config.eval_fraction,
            "metrics": metrics, "steps": step, "epochs": step / steps_per_epoch, "seed": config.seed, "lr": config.lr,
            "batch_size": config.batch_size, "max_length": config.max_length, "train_layers": config.train_layers,
            "evidence_lambda": config.evidence_lambda if kind in EVIDENCE_KINDS else None, "device": str(model.device),
            "wall_time_s": round(wall, 1), "command": about.command or "interpeval.training.loop.train(...)",
            "storage": storage_label(config.delta_bits, config.delta_rank),
            "selection": {"n_dev": len(dev), "metric": primary, "best_step": best["step"],
                          "best_score": best["score"], "history": best["history"]} if dev else None,
            **({"init": init_summary(config.init)} if config.init is not None else {}),
            **(about.extra or {}), "fingerprint": fingerprint}
    trained_on = about.lineage or example_lineage([examples[i] for i in train_idx] + dev)
    write_whole(staging / lineage.LINEAGE, (json.dumps(trained_on, indent=1) + "\n").encode(), "the lineage")
    card["lineage"] = lineage_summary(trained_on)
    write_whole(staging / "MODEL_CARD.md", model_card(card).encode(), "the model card")
    write_whole(staging / card_path.name, (json.dumps(card, indent=2, ensure_ascii=False) + "\n").encode(), "the card")
    publish(staging, out, last=card_path.name)
    (out / CHECKPOINT).unlink(missing_ok=True)
    return TrainResult(out, True, step, len(train_idx), len(eval_idx), metrics, round(wall, 1), model)



def check_init(init: str, kind: str, base: str, train_layers: int | None = None) -> None:
    """A warm start must come from an artifact of the same kind trained from the same base (its changes are
    stored relative to that base), and must train every layer it changed (only trained tensors are stored)."""
    meta_file = zoo.folder(init) / OVERLAY_JSON
    if not meta_file.is_file():
        raise InterpevalError(f"init {init!r}: no trained artifact there ({meta_file} is missing)")
    meta = json.loads(meta_file.read_text())
    if meta.get("kind") != kind or meta.get("base") != str(base):
        raise InterpevalError(f"init {init!r} is a {meta.get('kind')} model trained from {meta.get('base')!r}; "
                              f"this run trains {kind} from {base!r}")
    changed = meta.get("train_layers")
    if train_layers is not None and (changed is None or changed > train_layers):
        raise InterpevalError(f"init {init!r} changed {'every layer' if changed is None else f'{changed} layers'}; "
                              f"train_layers={train_layers} would drop those changes (train at least as many)")
