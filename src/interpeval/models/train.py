"""One small fine-tuning loop for every kind, so the project can train the task heads no checkpoint provides.

``train(kind, base, examples, out_dir)`` fine-tunes a zoo encoder (or any directory) on real examples, holds out a
seeded split and scores it, and writes a directory :func:`interpeval.models.load` reads plus ``MODEL_CARD.md`` and
``card.json``. With ``train_layers=N`` only the top N encoder layers and the head train, and the artifact stores
just those tensors (fp16) next to ``overlay.json`` naming the base, so committed artifacts stay a few MB.
A checkpoint in ``out_dir`` makes an interrupted run resumable to the same final weights.
"""

from __future__ import annotations

import csv
import json
import math
import random
import re
import string
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from interpeval.errors import DataError, InterpevalError
from interpeval.models.base import Model
from interpeval.models.load import EVIDENCE_WEIGHTS, OVERLAY_JSON, OVERLAY_WEIGHTS, load

CHECKPOINT = "checkpoint.pt"


@dataclass
class ClassificationExample:
    """A text (or text pair) with a class id (sequence-classification) or a number (regression)."""

    text: str
    label: int | float
    pair: str | None = None


@dataclass
class QAExample:
    """A SQuAD-style question; ``answer_start = -1`` and ``answer_text = ""`` mark an unanswerable one."""

    question: str
    context: str
    answer_start: int
    answer_text: str
    evidence_start: int | None = None
    evidence_text: str | None = None


@dataclass
class ChoiceExample:
    """A multiple-choice item: context, question (``_`` marks a cloze blank), options, gold option index."""

    context: str
    question: str
    options: list[str]
    label: int


@dataclass
class MLMExample:
    """A text for masked-language-model fine-tuning."""

    text: str


EXAMPLE_TYPES: dict[str, type] = {
    "masked-lm": MLMExample, "sequence-classification": ClassificationExample, "regression": ClassificationExample,
    "extractive-qa": QAExample, "multiple-choice": ChoiceExample,
}


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


# ----------------------------------------------------------------------------------------------------- readers
def read_tsv(path: str | Path, kind: str = "sequence-classification") -> tuple[list[ClassificationExample],
                                                                                list[str] | None]:
    """GLUE-style TSV with a header (SST-2 ``sentence,label``; STS-B ``sentence1,sentence2,score``; QNLI
    ``question,sentence,label``) → examples and the label names (None for regression)."""
    path = Path(path)
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    if not rows:
        raise DataError(path, 1, "empty file")
    header = rows[0]
    pairs = [("sentence1", "sentence2"), ("question", "sentence"), ("sentence", None), ("text", None)]
    text_col, pair_col = next(((a, b) for a, b in pairs if a in header and (b is None or b in header)), (None, None))
    label_col = next((c for c in ("label", "score") if c in header), None)
    if text_col is None or label_col is None:
        raise DataError(path, 1, f"header {header} needs a text column (sentence / sentence1+sentence2 / "
                                 "question+sentence / text) and a label or score column")
    raw = []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise DataError(path, line, f"{len(row)} fields, the header has {len(header)}")
        record = dict(zip(header, row, strict=True))
        raw.append((line, record[text_col], record[pair_col] if pair_col else None, record[label_col].strip()))
    if kind == "regression":
        out = []
        for line, text, pair, label in raw:
            try:
                out.append(ClassificationExample(text, float(label), pair))
            except ValueError:
                raise DataError(path, line, f"{label_col} {label!r} is not a number") from None
        return out, None
    names = sorted({label for *_, label in raw})
    index = {name: i for i, name in enumerate(names)}
    if all(name.isdigit() for name in names):  # numeric GLUE labels keep their own ids
        index = {name: int(name) for name in names}
        names = [str(i) for i in range(max(index.values()) + 1)]
    return [ClassificationExample(text, index[label], pair) for _, text, pair, label in raw], names


def read_squad(path: str | Path) -> list[QAExample]:
    """SQuAD 1.1/2.0 JSON → one example per question (first gold answer; unanswerable → ``answer_start=-1``)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))["data"]
    except (json.JSONDecodeError, KeyError, TypeError) as err:
        raise DataError(path, "", f"not SQuAD JSON ({err})") from None
    out = []
    for article in data:
        for paragraph in article.get("paragraphs", []):
            context = paragraph["context"]
            for qa in paragraph.get("qas", []):
                answers = qa.get("answers") or []
                if qa.get("is_impossible") or not answers:
                    out.append(QAExample(qa["question"], context, -1, ""))
                    continue
                start, text = int(answers[0]["answer_start"]), answers[0]["text"]
                if context[start:start + len(text)] != text:
                    raise DataError(path, qa.get("id", ""), f"answer {text!r} is not at offset {start} of the context")
                out.append(QAExample(qa["question"], context, start, text))
    return out


def read_jsonl(path: str | Path, kind: str) -> list[Any]:
    """JSON lines whose keys are the fields of the kind's example dataclass."""
    path = Path(path)
    cls = EXAMPLE_TYPES[kind]
    out = []
    for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not text.strip():
            continue
        try:
            out.append(cls(**json.loads(text)))
        except (json.JSONDecodeError, TypeError) as err:
            raise DataError(path, line, f"not a {cls.__name__} record ({err})") from None
    return out


def read_examples(kind: str, path: str | Path) -> tuple[list[Any], list[str] | None]:
    """Examples for ``kind`` from a file, by extension: ``.tsv`` (GLUE), ``.json`` (SQuAD), ``.jsonl``, ``.txt``
    (masked-lm, one text per line). Returns the examples and the label names when the file defines them."""
    path = Path(path)
    if not path.is_file():
        raise InterpevalError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix == ".tsv" and kind in ("sequence-classification", "regression"):
        return read_tsv(path, kind)
    if suffix == ".json" and kind == "extractive-qa":
        return read_squad(path), None
    if suffix == ".jsonl":
        return read_jsonl(path, kind), None
    if suffix == ".txt" and kind == "masked-lm":
        return [MLMExample(t) for t in path.read_text(encoding="utf-8").splitlines() if t.strip()], None
    raise InterpevalError(f"{path}: cannot read {suffix or 'this'} files for {kind}; use .tsv (classification, "
                          "regression), SQuAD .json (extractive-qa), .txt (masked-lm) or .jsonl")


# ----------------------------------------------------------------------------------------------------- batches
def choice_pair(question: str, option: str) -> str:
    """The second segment of a choice: the option fills the cloze blank ``_`` or follows the question."""
    return question.replace("_", option) if "_" in question else f"{question} {option}".strip()


def _char_to_tokens(enc: Any, row: int, start: int, text: str) -> tuple[int, int]:
    """Token span of a context char span, or (0, 0) (the [CLS] null answer) when absent or truncated away."""
    if start < 0 or not text:
        return 0, 0
    end = start + len(text)
    seq, offsets = enc.sequence_ids(row), enc["offset_mapping"][row]
    inside = [i for i, s in enumerate(seq) if s == 1 and offsets[i][1] > start and offsets[i][0] < end]
    return (inside[0], inside[-1]) if inside else (0, 0)


def _mask_tokens(model: Model, input_ids: torch.Tensor, special: torch.Tensor,
                 generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """BERT masking: 15% of real tokens are predicted; of those 80% → [MASK], 10% → random, 10% kept."""
    ids = input_ids.clone()
    chosen = (torch.rand(ids.shape, generator=generator) < 0.15) & ~special
    labels = torch.where(chosen, ids, torch.full_like(ids, -100))
    roll = torch.rand(ids.shape, generator=generator)
    ids[chosen & (roll < 0.8)] = model.tokenizer.mask_token_id
    rand = chosen & (roll >= 0.8) & (roll < 0.9)
    ids[rand] = torch.randint(len(model.tokenizer), ids.shape, generator=generator)[rand]
    return ids, labels


def _batch(model: Model, kind: str, examples: Sequence[Any], generator: torch.Generator | None = None) -> dict:
    """Model inputs plus the training targets of a batch of examples."""
    if kind in ("sequence-classification", "regression"):
        pairs = [e.pair for e in examples]
        enc = model.tokenize([e.text for e in examples], None if all(p is None for p in pairs) else pairs)
        dtype = torch.float32 if kind == "regression" else torch.long
        return {"inputs": enc, "labels": torch.tensor([e.label for e in examples], dtype=dtype, device=model.device)}
    if kind == "multiple-choice":
        n = max(len(e.options) for e in examples)
        options = [[choice_pair(e.question, o) for o in e.options] + [""] * (n - len(e.options)) for e in examples]
        enc = model.tokenize([e.context for e in examples], options)
        valid = torch.tensor([[i < len(e.options) for i in range(n)] for e in examples], device=model.device)
        return {"inputs": enc, "labels": torch.tensor([e.label for e in examples], device=model.device),
                "valid": valid}
    if kind == "extractive-qa":
        enc = model.tokenize([e.question for e in examples], [e.context for e in examples])
        spans = [_char_to_tokens(enc, i, e.answer_start, e.answer_text) for i, e in enumerate(examples)]
        out = {"inputs": enc, "start": torch.tensor([s for s, _ in spans], device=model.device),
               "end": torch.tensor([t for _, t in spans], device=model.device)}
        if any(e.evidence_text for e in examples):
            ev = [_char_to_tokens(enc, i, e.evidence_start if e.evidence_start is not None else -1,
                                  e.evidence_text or "") for i, e in enumerate(examples)]
            out["evidence_start"] = torch.tensor([s for s, _ in ev], device=model.device)
            out["evidence_end"] = torch.tensor([t for _, t in ev], device=model.device)
        return out
    enc = model.tokenize([e.text for e in examples])
    special = torch.tensor([model.tokenizer.get_special_tokens_mask(row, already_has_special_tokens=True)
                            for row in enc["input_ids"].tolist()], dtype=torch.bool)
    ids, labels = _mask_tokens(model, enc["input_ids"].cpu(), special | (enc["attention_mask"].cpu() == 0),
                               generator or torch.Generator().manual_seed(0))
    enc["input_ids"] = ids.to(model.device)
    return {"inputs": enc, "labels": labels.to(model.device)}


def _loss(model: Model, kind: str, batch: dict, evidence_lambda: float) -> torch.Tensor:
    """Cross-entropy (MSE for regression); QA: mean of start/end CE + λ · the same on the evidence head."""
    out = model.forward(batch["inputs"])
    ce = torch.nn.functional.cross_entropy
    if kind == "regression":
        return torch.nn.functional.mse_loss(out.logits[:, 0].float(), batch["labels"])
    if kind == "sequence-classification":
        return ce(out.logits.float(), batch["labels"])
    if kind == "multiple-choice":
        return ce(out.logits.float().masked_fill(~batch["valid"], float("-inf")), batch["labels"])
    if kind == "masked-lm":
        return ce(out.logits.float().view(-1, out.logits.shape[-1]), batch["labels"].view(-1), ignore_index=-100)
    loss = (ce(out.start_logits.float(), batch["start"]) + ce(out.end_logits.float(), batch["end"])) / 2
    if "evidence_start" in batch and model.evidence_head is not None:
        evidence = (ce(out["evidence_start_logits"].float(), batch["evidence_start"])
                    + ce(out["evidence_end_logits"].float(), batch["evidence_end"])) / 2
        loss = loss + evidence_lambda * evidence
    return loss


# ----------------------------------------------------------------------------------------------------- scoring
def _normalize_answer(text: str) -> str:
    """SQuAD's official answer normalisation: lower case, no punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in set(string.punctuation))
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", text).split())


def _answer_f1(gold: str, pred: str) -> float:
    """SQuAD token F1 (the official ``evaluate-v2.0.py``: both empty → 1, one empty → 0)."""
    g, p = _normalize_answer(gold).split(), _normalize_answer(pred).split()
    if not g or not p:
        return float(g == p)
    same = sum((Counter(g) & Counter(p)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(p), same / len(g)
    return 2 * precision * recall / (precision + recall)


def evaluate(model: Model, kind: str, examples: Sequence[Any], seed: int = 0) -> dict[str, float]:
    """Held-out scores: accuracy (+ macro F1), MSE (+ Pearson r), answer F1 / EM, or masked-token accuracy."""
    if not examples:
        return {}
    if kind == "sequence-classification":
        from sklearn.metrics import f1_score

        pairs = [e.pair for e in examples]
        pred = model.predict([e.text for e in examples], None if all(p is None for p in pairs) else pairs)
        gold = np.array([e.label for e in examples])
        return {"accuracy": float((pred == gold).mean()), "macro_f1": float(f1_score(gold, pred, average="macro"))}
    if kind == "regression":
        pairs = [e.pair for e in examples]
        pred = model.predict([e.text for e in examples], None if all(p is None for p in pairs) else pairs)
        gold = np.array([e.label for e in examples], dtype=float)
        r = float(np.corrcoef(pred, gold)[0, 1]) if len(gold) > 1 and pred.std() > 0 else 0.0
        return {"mse": float(((pred - gold) ** 2).mean()), "pearson": r}
    if kind == "multiple-choice":
        correct = []
        for e in examples:  # one item at a time: option counts may differ between items
            pred = model.predict([e.context], [[choice_pair(e.question, o) for o in e.options]])[0]
            correct.append(int(pred) == e.label)
        return {"accuracy": float(np.mean(correct))}
    if kind == "extractive-qa":
        preds = model.predict([e.question for e in examples], [e.context for e in examples])
        has_null = any(e.answer_start < 0 for e in examples)
        texts = [("" if has_null and p["p_answer"] < 0.5 else p["text"]) for p in preds]
        f1 = [_answer_f1(e.answer_text, t) for e, t in zip(examples, texts, strict=True)]
        em = [float(_normalize_answer(e.answer_text) == _normalize_answer(t)) for e, t in zip(examples, texts,
                                                                                               strict=True)]
        scores = {"answer_f1": float(np.mean(f1)), "exact_match": float(np.mean(em))}
        if model.evidence_head is not None and any(e.evidence_text for e in examples):
            ev = [_answer_f1(e.evidence_text or "", p["evidence"]["text"]) for e, p in zip(examples, preds,
                                                                                          strict=True)]
            scores["evidence_f1"] = float(np.mean(ev))
        return scores
    generator = torch.Generator().manual_seed(seed)
    hits = total = 0
    with torch.no_grad():
        for start in range(0, len(examples), model.batch_size):
            batch = _batch(model, kind, examples[start:start + model.batch_size], generator)
            pred = model.forward(batch["inputs"]).logits.argmax(-1)
            chosen = batch["labels"] != -100
            hits += int((pred[chosen] == batch["labels"][chosen]).sum())
            total += int(chosen.sum())
    return {"masked_accuracy": hits / max(total, 1)}


# ----------------------------------------------------------------------------------------------------- training
def _trainable(model: Model, train_layers: int | None) -> list[tuple[str, torch.nn.Parameter]]:
    """Freeze embeddings and all but the top ``train_layers`` encoder layers; return the trainable parameters
    (HF names; the evidence head as ``evidence_head.*``)."""
    n_layers = model.hf.config.num_hidden_layers
    if train_layers is not None and not 0 <= train_layers <= n_layers:
        raise ValueError(f"train_layers={train_layers}: the base has {n_layers} layers")
    lowest = 0 if train_layers is None else n_layers - train_layers
    params = []
    for name, param in model.hf.named_parameters():
        layer = re.search(r"\.layer\.(\d+)\.", name)
        frozen = train_layers is not None and (".embeddings." in f".{name}" or
                                              (layer is not None and int(layer.group(1)) < lowest))
        param.requires_grad_(not frozen)
        if not frozen:
            params.append((name, param))
    head = getattr(model, "evidence_head", None)
    if head is not None:
        params += [(f"evidence_head.{n}", p) for n, p in head.named_parameters()]
    return params


def _split(n: int, eval_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    order = np.random.RandomState(seed).permutation(n)
    n_eval = int(round(n * eval_fraction))
    return order[n_eval:], order[:n_eval]


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


def train(kind: str, base: str, examples: Sequence[Any], out_dir: str | Path, *, seed: int = 0, epochs: int = 1,
          max_steps: int | None = None, lr: float = 5e-5, batch_size: int = 16, eval_fraction: float = 0.1,
          train_layers: int | None = None, evidence_lambda: float = 0.1, max_length: int = 128,
          device: str = "auto", label_names: Sequence[str] | None = None, data: str = "", command: str = "",
          description: str = "", save_every: int = 50, steps_this_run: int | None = None,
          progress: bool = True) -> TrainResult:
    """Fine-tune ``base`` as ``kind`` on ``examples`` and write a loadable artifact to ``out_dir``.

    The held-out split (``eval_fraction``, seeded) is never trained on; its scores go into the card. Re-running
    the same call resumes from ``out_dir/checkpoint.pt`` (written every ``save_every`` steps, when
    ``steps_this_run`` steps are done, and on Ctrl-C) and reaches the same final weights as an uninterrupted
    run; re-running a finished call returns its result without training again.
    """
    if kind not in EXAMPLE_TYPES:
        raise ValueError(f"cannot train kind {kind!r}; trainable kinds: {', '.join(EXAMPLE_TYPES)}")
    examples = list(examples)
    wrong = next((i for i, e in enumerate(examples) if not isinstance(e, EXAMPLE_TYPES[kind])), None)
    if wrong is not None:
        raise ValueError(f"examples[{wrong}] is a {type(examples[wrong]).__name__}, {kind} needs "
                         f"{EXAMPLE_TYPES[kind].__name__}")
    train_idx, eval_idx = _split(len(examples), eval_fraction, seed)
    if len(train_idx) == 0:
        raise ValueError(f"no training examples left ({len(examples)} examples, eval_fraction={eval_fraction})")
    out = Path(out_dir)
    num_labels = None
    if kind == "sequence-classification":
        num_labels = max(len(label_names or []), max(int(e.label) for e in examples) + 1)
    steps_per_epoch = math.ceil(len(train_idx) / batch_size)
    total = max_steps if max_steps is not None else epochs * steps_per_epoch
    fingerprint = {"kind": kind, "base": str(base), "n_examples": len(examples), "seed": seed, "lr": lr,
                   "batch_size": batch_size, "total_steps": total, "eval_fraction": eval_fraction,
                   "train_layers": train_layers, "evidence_lambda": evidence_lambda, "max_length": max_length,
                   "data": data}
    card_path = out / "card.json"
    if card_path.exists() and not (out / CHECKPOINT).exists():
        card = json.loads(card_path.read_text())
        if card.get("fingerprint") == fingerprint:
            return TrainResult(out, True, card["steps"], card["n_train"], card["n_eval"], card["metrics"],
                               card["wall_time_s"])

    model = load(base, kind=kind, device=device, batch_size=batch_size, max_length=max_length,
                 num_labels=num_labels)
    if kind == "extractive-qa" and model.evidence_head is None and any(e.evidence_text for e in examples):
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            model.evidence_head = torch.nn.Linear(model.hf.config.hidden_size, 2).to(model.device)
    params = _trainable(model, train_layers)
    optimizer = torch.optim.AdamW([p for _, p in params], lr=lr, weight_decay=0.01)
    warmup = max(1, int(0.06 * total))
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup))))

    step, elapsed = 0, 0.0
    torch.manual_seed(seed)
    if (out / CHECKPOINT).exists():
        state = torch.load(out / CHECKPOINT, map_location=model.device, weights_only=False)
        if state["fingerprint"] != fingerprint:
            raise InterpevalError(f"{out / CHECKPOINT} belongs to a different training run; use another out_dir "
                                  "or delete the checkpoint")
        named = dict(params)
        for name, tensor in state["params"].items():
            named[name].data.copy_(tensor)
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        _set_rng_state(state["rng"])
        step, elapsed = state["step"], state["elapsed"]

    def save_checkpoint() -> None:
        out.mkdir(parents=True, exist_ok=True)
        torch.save({"fingerprint": fingerprint, "step": step, "elapsed": elapsed + time.perf_counter() - started,
                    "params": {n: p.detach().cpu() for n, p in params}, "optimizer": optimizer.state_dict(),
                    "scheduler": scheduler.state_dict(), "rng": _rng_state()}, out / CHECKPOINT)

    started = time.perf_counter()
    first = step
    model.hf.train()
    if model.kind == "extractive-qa" and model.evidence_head is not None:
        model.evidence_head.train()
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                   TextColumn("loss {task.fields[loss]:.4f}"), TimeRemainingColumn(), disable=not progress)
    try:
        with bar:
            task = bar.add_task(f"train {kind}", total=total, completed=step, loss=float("nan"))
            while step < total:
                epoch, within = divmod(step, steps_per_epoch)
                order = torch.randperm(len(train_idx), generator=torch.Generator().manual_seed(seed * 1000 + epoch))
                chosen = order[within * batch_size:(within + 1) * batch_size].tolist()
                batch = _batch(model, kind, [examples[train_idx[i]] for i in chosen],
                               torch.Generator().manual_seed(seed * 1_000_003 + step))
                loss = _loss(model, kind, batch, evidence_lambda)
                loss.backward()
                torch.nn.utils.clip_grad_norm_([p for _, p in params], 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad(set_to_none=True)
                step += 1
                bar.update(task, completed=step, loss=loss.item())
                if step < total and (step % save_every == 0 or step - first == steps_this_run):
                    save_checkpoint()
                if step < total and step - first == steps_this_run:
                    return TrainResult(out, False, step, len(train_idx), len(eval_idx),
                                       wall_time_s=elapsed + time.perf_counter() - started)
    except KeyboardInterrupt:
        save_checkpoint()
        raise
    wall = elapsed + time.perf_counter() - started
    _save_artifact(model, out, base, kind, params, train_layers, label_names, num_labels)
    trained = load(out, device=model.device, batch_size=batch_size, max_length=max_length)
    metrics = evaluate(trained, kind, [examples[i] for i in eval_idx], seed)
    card = {"name": out.name, "kind": kind, "base": str(base), "data": data, "description": description,
            "n_train": len(train_idx), "n_eval": len(eval_idx), "eval_fraction": eval_fraction,
            "metrics": metrics, "steps": step, "epochs": step / steps_per_epoch, "seed": seed, "lr": lr,
            "batch_size": batch_size, "max_length": max_length, "train_layers": train_layers,
            "evidence_lambda": evidence_lambda if kind == "extractive-qa" else None, "device": str(model.device),
            "wall_time_s": round(wall, 1), "command": command or "interpeval.models.train.train(...)",
            "fingerprint": fingerprint}
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    (out / "MODEL_CARD.md").write_text(_model_card(card))
    (out / CHECKPOINT).unlink(missing_ok=True)
    return TrainResult(out, True, step, len(train_idx), len(eval_idx), metrics, round(wall, 1), model)


def _save_artifact(model: Model, out: Path, base: str, kind: str, params: list[tuple[str, torch.nn.Parameter]],
                   train_layers: int | None, label_names: Sequence[str] | None, num_labels: int | None) -> None:
    """Full HF directory, or (``train_layers``) ``overlay.json`` + the trained tensors only, in fp16."""
    from safetensors.torch import save_file

    out.mkdir(parents=True, exist_ok=True)
    model.hf.eval()
    id2label = {i: name for i, name in enumerate(label_names)} if label_names else None
    if id2label:
        model.hf.config.id2label = id2label
        model.hf.config.label2id = {v: k for k, v in id2label.items()}
    if train_layers is None:
        model.hf.save_pretrained(out)
        model.tokenizer.save_pretrained(out)
        head = getattr(model, "evidence_head", None)
        if head is not None:
            save_file({k: v.detach().cpu().contiguous() for k, v in head.state_dict().items()},
                      str(out / EVIDENCE_WEIGHTS))
        return
    tensors = {n: p.detach().to("cpu", torch.float16).contiguous() for n, p in params}
    save_file(tensors, str(out / OVERLAY_WEIGHTS), metadata={"base": str(base), "kind": kind})
    meta = {"format": "interpeval-overlay-1", "base": str(base), "kind": kind, "train_layers": train_layers,
            "num_labels": num_labels, "dtype": "float16"}
    if id2label:
        meta["id2label"] = {str(k): v for k, v in id2label.items()}
    (out / OVERLAY_JSON).write_text(json.dumps(meta, indent=2) + "\n")


def _model_card(card: dict[str, Any]) -> str:
    metrics = ", ".join(f"{k} = {v:.4f}" for k, v in card["metrics"].items()) or "(no held-out split)"
    layers = "all layers" if card["train_layers"] is None else f"top {card['train_layers']} layers + head"
    lines = [
        f"# {card['name']}", "", card["description"] or f"A {card['kind']} model fine-tuned by interpeval.", "",
        f"- kind: `{card['kind']}`; base: `{card['base']}` ({layers} trained)",
        f"- data: {card['data'] or '(in-memory examples)'}",
        f"- split: {card['n_train']} train / {card['n_eval']} held-out (eval_fraction {card['eval_fraction']}, "
        f"seed {card['seed']})",
        f"- held-out: {metrics}",
        f"- training: {card['steps']} steps ({card['epochs']:.2f} epochs), batch {card['batch_size']}, "
        f"lr {card['lr']}, max_length {card['max_length']}, on {card['device']}, {card['wall_time_s']} s",
        f"- command: `{card['command']}`", "",
    ]
    return "\n".join(lines)


__all__ = ["ChoiceExample", "ClassificationExample", "MLMExample", "QAExample", "TrainResult", "evaluate", "read_examples", "read_jsonl", "read_squad", "read_tsv", "train"]
