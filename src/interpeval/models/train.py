"""One small fine-tuning loop for every kind, so the project can train the task heads no checkpoint provides.

``train(kind, base, examples, out_dir)`` fine-tunes a zoo encoder (or any directory) on real examples, holds out a
seeded split and scores it, and writes a directory :func:`interpeval.models.load` reads plus ``MODEL_CARD.md`` and
``card.json``. With ``train_layers=N`` only the top N encoder layers and the head train, and the artifact stores
just those tensors (fp16) next to ``overlay.json`` naming the base, so committed artifacts stay a few MB.
A checkpoint in ``out_dir`` makes an interrupted run resumable to the same final weights.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import random
import re
import shutil
import string
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from interpeval.errors import DataError, InterpevalError
from interpeval.models import zoo
from interpeval.models.base import Model
from interpeval.models.kinds import EVIDENCE_KINDS
from interpeval.models.load import OVERLAY_JSON, OVERLAY_WEIGHTS, load

CHECKPOINT = "checkpoint.pt"
#: where the final artifact is written before it is moved into the output folder
STAGING = ".artifact.partial"
#: columns that share one scale in an int4-stored change
Q4_GROUP = 64


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
    """A multiple-choice item: context, question (``_`` marks a cloze blank), options, gold option index, and
    optionally an evidence span of the context (character start and text) for the evidence head."""

    context: str
    question: str
    options: list[str]
    label: int
    evidence_start: int | None = None
    evidence_text: str | None = None


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
                if not isinstance(qa.get("is_impossible", False), bool):
                    raise DataError(path, qa.get("id", ""), f"'is_impossible' must be true or false, got "
                                                            f"{qa['is_impossible']!r}")
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
    return _segment_span(enc.sequence_ids(row), enc["offset_mapping"][row], 1, start, text)


def _segment_span(seq: Sequence[int | None], offsets: Sequence[tuple[int, int]], segment: int, start: int | None,
                  text: str | None) -> tuple[int, int]:
    """Token span of the char span ``start`` + ``text`` of sequence ``segment``, or (0, 0) when absent or truncated
    away."""
    if start is None or start < 0 or not text:
        return 0, 0
    end = start + len(text)
    inside = [i for i, s in enumerate(seq) if s == segment and offsets[i][1] > start and offsets[i][0] < end]
    return (inside[0], inside[-1]) if inside else (0, 0)


def _choice_evidence(enc: Any, b: int, example: ChoiceExample) -> tuple[int, int]:
    """Token span of a choice item's evidence in its context (segment 0), the same in every choice's row, or (0, 0)
    when a row truncated part of it away (the evidence head reads the rows' average)."""
    start, text = example.evidence_start, example.evidence_text or ""
    spans = set()
    for seq, offsets in zip(enc["sequence_ids"][b], enc["offset_mapping"][b], strict=True):
        first, last = _segment_span(seq, offsets, 0, start, text)
        whole = (first, last) != (0, 0) and offsets[last][1] >= (start or 0) + len(text)
        spans.add((first, last) if whole else (0, 0))
    return spans.pop() if len(spans) == 1 else (0, 0)


def _evidence_targets(spans: Sequence[tuple[int, int]], device: torch.device) -> dict[str, torch.Tensor]:
    """The evidence head's targets: start and end positions, and which rows have an evidence span to learn."""
    return {"evidence_start": torch.tensor([s for s, _ in spans], device=device),
            "evidence_end": torch.tensor([t for _, t in spans], device=device),
            "evidence_keep": torch.tensor([span != (0, 0) for span in spans], device=device)}


def _is_cjk(token: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in token)


def word_units(enc: Any, row: int, tokens: Sequence[str]) -> list[list[int]]:
    """Token positions grouped into whole words (special tokens and padding left out).

    Words are the tokenizer's pre-tokenized words; a token with CJK characters is a word of its own, since
    Chinese text has no spaces and a pre-tokenized "word" would be a whole clause.
    """
    words = enc.word_ids(row)
    units: list[list[int]] = []
    previous = None
    for pos, word in enumerate(words):
        if word is None or (enc.sequence_ids(row)[pos] is None):
            previous = None
            continue
        if units and word == previous and not _is_cjk(tokens[pos]) and not _is_cjk(tokens[units[-1][-1]]):
            units[-1].append(pos)
        else:
            units.append([pos])
        previous = word
    return units


def _mask_words(model: Model, enc: Any, generator: torch.Generator, rate: float = 0.15
                ) -> tuple[torch.Tensor, torch.Tensor]:
    """Whole-word masking: ``rate`` of the words of each row are predicted (all their tokens); of the predicted
    tokens 80% → [MASK], 10% → a random token, 10% kept. Labels are -100 everywhere else."""
    ids = enc["input_ids"].cpu().clone()
    labels = torch.full_like(ids, -100)
    for row in range(ids.shape[0]):
        units = word_units(enc, row, model.tokenizer.convert_ids_to_tokens(ids[row].tolist()))
        if not units:
            continue
        count = max(1, int(round(rate * len(units))))
        for unit in torch.randperm(len(units), generator=generator)[:count].tolist():
            labels[row, units[unit]] = ids[row, units[unit]]
    chosen = labels != -100
    roll = torch.rand(ids.shape, generator=generator)
    ids[chosen & (roll < 0.8)] = model.tokenizer.mask_token_id
    rand = chosen & (roll >= 0.8) & (roll < 0.9)
    ids[rand] = torch.randint(len(model.tokenizer), ids.shape, generator=generator)[rand]
    return ids, labels


def _batch(model: Model, kind: str, examples: Sequence[Any], generator: torch.Generator | None = None) -> dict:
    """Model inputs plus the training targets of a batch of examples (padded to its longest item)."""
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
        out = {"inputs": enc, "labels": torch.tensor([e.label for e in examples], device=model.device),
               "valid": valid}
        if any(e.evidence_text for e in examples):
            out.update(_evidence_targets([_choice_evidence(enc, b, e) for b, e in enumerate(examples)], model.device))
        return out
    if kind == "extractive-qa":
        enc = model.tokenize([e.question for e in examples], [e.context for e in examples])
        spans = [_char_to_tokens(enc, i, e.answer_start, e.answer_text) for i, e in enumerate(examples)]
        # an answer cut off by truncation would teach "no answer": such rows are left out of the loss
        keep = [e.answer_start < 0 or span != (0, 0) for e, span in zip(examples, spans, strict=True)]
        out = {"inputs": enc, "start": torch.tensor([s for s, _ in spans], device=model.device),
               "end": torch.tensor([t for _, t in spans], device=model.device),
               "keep": torch.tensor(keep, device=model.device)}
        if any(e.evidence_text for e in examples):
            out.update(_evidence_targets([_char_to_tokens(enc, i, e.evidence_start if e.evidence_start is not None
                                                          else -1, e.evidence_text or "")
                                          for i, e in enumerate(examples)], model.device))
        return out
    enc = model.tokenize([e.text for e in examples])
    ids, labels = _mask_words(model, enc, generator or torch.Generator().manual_seed(0))
    enc["input_ids"] = ids.to(model.device)
    return {"inputs": enc, "labels": labels.to(model.device)}


def masked_logits(model: Model, inputs: dict[str, Any], positions: torch.Tensor) -> torch.Tensor:
    """Vocabulary logits at the ``positions`` mask only: the head never runs on the other tokens, which matters
    for a 250k-piece vocabulary (multilingual-e5)."""
    from interpeval.models.base import MODEL_INPUTS

    model_inputs = {k: inputs[k] for k in MODEL_INPUTS if k != "inputs_embeds" and inputs.get(k) is not None}
    hidden = model.hf.base_model(**model_inputs).last_hidden_state
    return model.lm_head()(hidden[positions])


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


# ----------------------------------------------------------------------------------------------------- scoring
def _normalize_answer(text: str) -> str:
    """SQuAD's official answer normalisation: lower case, no punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in set(string.punctuation))
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", text).split())


def _answer_f1(gold: str, pred: str) -> float:
    """SQuAD token F1 (the official ``evaluate-v2.0.py``: both empty → 1, one empty → 0); with Chinese on either
    side the tokens are CMRC's (each CJK character alone, ExpMRC's normalisation), so a partly right Chinese answer
    scores above 0 as in the CMRC 2018 scorer."""
    from interpeval.metrics.mrc import CJK, mixed_segmentation, normalize_tokens, token_f1

    if CJK.search(gold) or CJK.search(pred):
        return token_f1(normalize_tokens(mixed_segmentation(gold)), normalize_tokens(mixed_segmentation(pred)))
    return token_f1(_normalize_answer(gold).split(), _normalize_answer(pred).split())


def predict_examples(model: Model, examples: Sequence[ClassificationExample]) -> np.ndarray:
    """The model's predictions for classification / regression examples (text pairs when they have them)."""
    pairs = [e.pair for e in examples]
    return model.predict([e.text for e in examples], None if all(p is None for p in pairs) else pairs)


def classification_scores(pred: Sequence[int], gold: Sequence[int], balanced: bool = False) -> dict[str, float]:
    """Accuracy and macro F1 (and, asked for, balanced accuracy: the mean recall over the gold classes)."""
    from sklearn.metrics import f1_score

    pred, gold = np.asarray(pred), np.asarray(gold)
    scores = {"accuracy": float((pred == gold).mean()), "macro_f1": float(f1_score(gold, pred, average="macro"))}
    if balanced:
        scores["balanced_accuracy"] = float(np.mean([(pred[gold == c] == c).mean() for c in np.unique(gold)]))
    return scores


def evaluate(model: Model, kind: str, examples: Sequence[Any], seed: int = 0) -> dict[str, float]:
    """Held-out scores: accuracy (+ macro F1), MSE (+ Pearson r), answer F1 / EM, or masked-token accuracy."""
    if not examples:
        return {}
    if kind == "sequence-classification":
        return classification_scores(predict_examples(model, examples), [e.label for e in examples])
    if kind == "regression":
        pred = predict_examples(model, examples)
        gold = np.array([e.label for e in examples], dtype=float)
        r = float(np.corrcoef(pred, gold)[0, 1]) if len(gold) > 1 and pred.std() > 0 else 0.0
        return {"mse": float(((pred - gold) ** 2).mean()), "pearson": r}
    if kind == "multiple-choice":
        correct = 0
        by_size: dict[int, list[Any]] = {}
        for e in examples:  # a batch needs one number of options: items are grouped by it
            by_size.setdefault(len(e.options), []).append(e)
        with_evidence = model.evidence_head is not None and any(e.evidence_text for e in examples)
        evidence: list[float] = []
        for group in by_size.values():
            texts, options = [e.context for e in group], [[choice_pair(e.question, o) for o in e.options] for e in group]
            if with_evidence:
                preds = model.predict_evidence(texts, options)
                pred = [p["choice"] for p in preds]
                evidence += [_answer_f1(e.evidence_text or "", p["evidence"]["text"]) for e, p in zip(group, preds,
                                                                                                     strict=True)]
            else:
                pred = model.predict(texts, options)
            correct += sum(int(p) == e.label for p, e in zip(pred, group, strict=True))
        return {"accuracy": correct / len(examples), **({"evidence_f1": float(np.mean(evidence))} if evidence else {})}
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
    top1 = top3 = total = 0
    with torch.no_grad():
        for start in range(0, len(examples), model.batch_size):
            batch = _batch(model, kind, examples[start:start + model.batch_size], generator)
            chosen = batch["labels"] != -100
            best = masked_logits(model, batch["inputs"], chosen).topk(3, dim=-1).indices
            gold = batch["labels"][chosen][:, None]
            top1 += int((best[:, :1] == gold).sum())
            top3 += int((best == gold).any(-1).sum())
            total += int(chosen.sum())
    return {"masked_accuracy": top1 / max(total, 1), "masked_top3": top3 / max(total, 1), "masked_tokens": total}


#: the held-out score that picks the best checkpoint on the dev split
PRIMARY_METRIC = {"sequence-classification": "accuracy", "regression": "pearson", "extractive-qa": "answer_f1",
                  "multiple-choice": "accuracy", "masked-lm": "masked_accuracy"}


# ----------------------------------------------------------------------------------------------------- training
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


def seeded_split(n: int, eval_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(train, eval)`` indices of ``train(..., eval_fraction, seed)``: benchmarks re-derive which rows a head saw."""
    order = np.random.RandomState(seed).permutation(n)
    n_eval = int(round(n * eval_fraction))
    return order[n_eval:], order[:n_eval]


def _length(example: Any) -> int:
    """A cheap proxy of an example's token count (characters), for length-bucketed batches."""
    if isinstance(example, ChoiceExample):
        return len(example.context) + max(len(choice_pair(example.question, o)) for o in example.options)
    if isinstance(example, QAExample):
        return len(example.question) + len(example.context)
    if isinstance(example, ClassificationExample):
        return len(example.text) + len(example.pair or "")
    return len(example.text)


def epoch_batches(lengths: Sequence[int], batch_size: int, seed: int, epoch: int, pool: int = 50
                  ) -> list[list[int]]:
    """A seeded shuffle into batches of similar length: shuffle, sort each run of ``pool`` batches by length,
    cut, shuffle the batches. Padding shrinks to a few tokens a row; every index appears once per epoch."""
    rng = np.random.RandomState(seed * 1000 + epoch)
    order = rng.permutation(len(lengths)).tolist()
    batches: list[list[int]] = []
    for start in range(0, len(order), batch_size * pool):
        chunk = sorted(order[start:start + batch_size * pool], key=lambda i: lengths[i])
        batches += [chunk[k:k + batch_size] for k in range(0, len(chunk), batch_size)]
    rng.shuffle(batches)
    return batches


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


def train(kind: str, base: str, examples: Sequence[Any], out_dir: str | Path, *, seed: int = 0, epochs: int = 1,
          max_steps: int | None = None, lr: float = 5e-5, batch_size: int = 16, eval_fraction: float = 0.1,
          train_layers: int | None = None, evidence_lambda: float = 0.1, max_length: int = 128,
          device: str = "auto", label_names: Sequence[str] | None = None, data: str = "", command: str = "",
          description: str = "", save_every: int = 50, steps_this_run: int | None = None,
          progress: bool = True, dev: Sequence[Any] | None = None, eval_every: int | None = None,
          card_extra: dict[str, Any] | None = None, delta_bits: int = 8, delta_rank: int | None = None,
          init: str | None = None) -> TrainResult:
    """Fine-tune ``base`` as ``kind`` on ``examples`` and write a loadable artifact to ``out_dir``.

    The held-out split (``eval_fraction``, seeded) is never trained on; its scores go into the card. With ``dev``
    examples the model is scored on them every ``eval_every`` steps (default: each epoch) and the best-scoring
    weights are the ones saved (model selection). Batches are length-bucketed and padded to their longest item.
    The artifact stores only what training changed, relative to the base: int8 (``delta_bits=4``: int4) changes
    of matrices, fp16 for the rest, full values for new heads; ``delta_rank=r`` stores each matrix change as its
    best rank-r approximation (two factors, quantized the same way), for encoders whose full change is too big to ship. Re-running the same call resumes from
    ``out_dir/checkpoint.pt`` (written every ``save_every`` steps, when ``steps_this_run`` steps are done, and on
    Ctrl-C) and reaches the same final weights as an uninterrupted run; re-running a finished call returns its
    result without training again. ``init`` (an artifact trained from ``base`` as ``kind``) warm-starts from its
    weights with a new schedule, to train a finished run longer; the changes are still stored relative to ``base``.
    """
    if kind not in EXAMPLE_TYPES:
        raise ValueError(f"cannot train kind {kind!r}; trainable kinds: {', '.join(EXAMPLE_TYPES)}")
    if delta_bits not in (4, 8):
        raise ValueError(f"delta_bits must be 8 or 4, not {delta_bits!r}")
    if delta_rank is not None and (not isinstance(delta_rank, int) or delta_rank < 1):
        raise ValueError(f"delta_rank must be a positive whole number or None, not {delta_rank!r}")
    if init is not None:
        check_init(init, kind, base, train_layers)
    examples = list(examples)
    dev = list(dev or [])
    wrong = next((i for i, e in enumerate(examples + dev) if not isinstance(e, EXAMPLE_TYPES[kind])), None)
    if wrong is not None:
        bad = (examples + dev)[wrong]
        where = f"examples[{wrong}]" if wrong < len(examples) else f"dev[{wrong - len(examples)}]"
        raise ValueError(f"{where} is a {type(bad).__name__}, {kind} needs {EXAMPLE_TYPES[kind].__name__}")
    train_idx, eval_idx = seeded_split(len(examples), eval_fraction, seed)
    if len(train_idx) == 0:
        raise ValueError(f"no training examples left ({len(examples)} examples, eval_fraction={eval_fraction})")
    out = Path(out_dir)
    num_labels = None
    if kind == "sequence-classification":
        num_labels = max(len(label_names or []), max(int(e.label) for e in examples) + 1)
    steps_per_epoch = math.ceil(len(train_idx) / batch_size)
    total = max_steps if max_steps is not None else epochs * steps_per_epoch
    eval_every = eval_every or steps_per_epoch
    fingerprint = {"kind": kind, "base": str(base), "n_examples": len(examples), "seed": seed, "lr": lr,
                   "batch_size": batch_size, "total_steps": total, "eval_fraction": eval_fraction,
                   "train_layers": train_layers, "evidence_lambda": evidence_lambda, "max_length": max_length,
                   "data": data, "n_dev": len(dev), "eval_every": eval_every if dev else None}
    if init is not None:
        fingerprint["init"] = zoo.revision(init)
    card_path = out / "card.json"
    if card_path.exists() and not (out / CHECKPOINT).exists():
        card = json.loads(card_path.read_text())
        if card.get("fingerprint") == fingerprint:
            return TrainResult(out, True, card["steps"], card["n_train"], card["n_eval"], card["metrics"],
                               card["wall_time_s"])

    model = load(init or base, kind=kind, device=device, batch_size=batch_size, max_length=max_length,
                 num_labels=num_labels)
    if kind in EVIDENCE_KINDS and model.evidence_head is None and any(e.evidence_text for e in examples):
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            model.evidence_head = torch.nn.Linear(model.hf.config.hidden_size, 2).to(model.device)
    params = _trainable(model, train_layers)
    prefix = f"{model.hf.base_model_prefix}."
    reference = model.hf
    if init is not None:  # the base's own weights, which the stored changes are relative to (its head is unused)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reference = load(base, kind=kind, device="cpu", num_labels=num_labels).hf
    trained_names = {n for n, _ in params}
    base_state = {n: p.detach().to("cpu", copy=True) for n, p in reference.named_parameters()
                  if n.startswith(prefix) and n in trained_names}
    optimizer = torch.optim.AdamW([p for _, p in params], lr=lr, weight_decay=0.01)
    warmup = max(1, int(0.06 * total))
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup))))
    lengths = [_length(examples[i]) for i in train_idx]
    primary = PRIMARY_METRIC[kind]

    step, elapsed = 0, 0.0
    best: dict[str, Any] = {"score": None, "step": None, "params": None, "history": []}
    torch.manual_seed(seed)
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
            score = evaluate(model, kind, dev, seed).get(primary, float("nan"))
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
                chosen = epoch_batches(lengths, batch_size, seed, epoch)[within]
                batch = _batch(model, kind, [examples[train_idx[i]] for i in chosen],
                               torch.Generator().manual_seed(seed * 1_000_003 + step))
                with _autocast(model.device):
                    loss = _loss(model, kind, batch, evidence_lambda)
                loss.backward()
                torch.nn.utils.clip_grad_norm_([p for _, p in params], 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad(set_to_none=True)
                step += 1
                bar.update(task, completed=step, loss=loss.item())
                if dev and (step % eval_every == 0 or step == total):
                    select()
                if step < total and (step % save_every == 0 or step - first == steps_this_run):
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
    _save_artifact(model, staging, base, kind, params, base_state, train_layers, label_names, num_labels,
                   delta_bits, delta_rank)
    trained = load(staging, device=model.device, batch_size=batch_size, max_length=max_length)
    metrics = evaluate(trained, kind, [examples[i] for i in eval_idx], seed) if len(eval_idx) else {}
    card = {"name": out.name, "kind": kind, "base": str(base), "data": data, "description": description,
            "n_train": len(train_idx), "n_eval": len(eval_idx), "eval_fraction": eval_fraction,
            "metrics": metrics, "steps": step, "epochs": step / steps_per_epoch, "seed": seed, "lr": lr,
            "batch_size": batch_size, "max_length": max_length, "train_layers": train_layers,
            "evidence_lambda": evidence_lambda if kind in EVIDENCE_KINDS else None, "device": str(model.device),
            "wall_time_s": round(wall, 1), "command": command or "interpeval.models.train.train(...)",
            "storage": storage_label(delta_bits, delta_rank),
            "selection": {"n_dev": len(dev), "metric": primary, "best_step": best["step"],
                          "best_score": best["score"], "history": best["history"]} if dev else None,
            **({"init": _init_summary(init)} if init is not None else {}),
            **(card_extra or {}), "fingerprint": fingerprint}
    write_whole(staging / "MODEL_CARD.md", model_card(card).encode(), "the model card")
    write_whole(staging / card_path.name, (json.dumps(card, indent=2, ensure_ascii=False) + "\n").encode(), "the card")
    _publish(staging, out, last=card_path.name)
    (out / CHECKPOINT).unlink(missing_ok=True)
    return TrainResult(out, True, step, len(train_idx), len(eval_idx), metrics, round(wall, 1), model)


def write_whole(path: Path, data: bytes, what: str) -> None:
    """Write ``data`` to ``path`` and flush it to disk; a failed write (a full disk) removes the partial file and
    is one clear error naming the path, and the training resumes from its last checkpoint once space is back."""
    try:
        with open(path, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as err:
        path.unlink(missing_ok=True)
        raise InterpevalError(f"{path}: cannot write {what}: {err.strerror or err}; free space and run the same "
                              "command again to resume") from None


def _publish(staging: Path, out: Path, last: str) -> None:
    """Move every file of ``staging`` into ``out`` (each rename atomic, ``last`` after the others: a card names a
    finished artifact), then remove ``staging``. Until then the checkpoint stays, so a kill here resumes."""
    for file in sorted(staging.iterdir(), key=lambda f: f.name == last):
        os.replace(file, out / file.name)
    staging.rmdir()


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


def _init_summary(init: str) -> dict[str, Any]:
    """What the card says of a warm start: the artifact and how it was trained (its steps, wall time, command, and
    its own ``init`` when it was a warm start too)."""
    card_file = zoo.folder(init) / "card.json"
    card = json.loads(card_file.read_text()) if card_file.is_file() else {}
    return {"from": Path(init).name,
            **{k: card[k] for k in ("steps", "wall_time_s", "command", "lr", "init") if k in card}}


def quantized_change(name: str, delta: torch.Tensor, bits: int = 8, rank: int | None = None
                     ) -> dict[str, torch.Tensor]:
    """How an artifact stores the change ``delta`` of base tensor ``name`` (read back by
    :func:`interpeval.models.load.overlay_changes`): a matrix in int8 with one fp16 scale per row, or with
    ``bits=4`` two int4 values per byte with one fp16 scale per group of :data:`Q4_GROUP` columns (half the size,
    for the 12-layer encoders); anything else in fp16. With ``rank`` a matrix that its rank-r factors store in
    less space is stored as them (``name.lowrank_left`` [rows, r] @ ``name.lowrank_right`` [r, columns], from
    the SVD, the singular values split evenly between the two), each quantized as above."""
    delta = delta.to("cpu", torch.float32)
    if rank is not None and delta.dim() == 2 and rank * sum(delta.shape) < delta.numel():
        u, s, vh = torch.linalg.svd(delta, full_matrices=False)
        root = s[:rank].sqrt()
        return {**quantized_change(f"{name}.lowrank_left", u[:, :rank] * root, bits),
                **quantized_change(f"{name}.lowrank_right", root[:, None] * vh[:rank], bits)}
    if delta.dim() != 2 or delta.numel() < 4096 or (bits == 4 and delta.shape[1] % Q4_GROUP):
        return {f"{name}.delta": delta.to(torch.float16).contiguous()}
    if bits == 8:
        scale = (delta.abs().amax(dim=1) / 127).clamp_min(1e-12)
        return {f"{name}.q8": torch.round(delta / scale[:, None]).clamp(-127, 127).to(torch.int8).contiguous(),
                f"{name}.q8scale": scale.contiguous()}
    if bits != 4:
        raise ValueError(f"delta_bits must be 8 or 4, not {bits!r}")
    groups = delta.reshape(delta.shape[0], -1, Q4_GROUP)
    scale = (groups.abs().amax(dim=2) / 7).clamp_min(1e-8).to(torch.float16)
    # shifted to 1..15 before the cast: a negative float has no defined uint8 value
    levels = (torch.round(groups / scale.float()[:, :, None]).clamp(-7, 7) + 8).to(torch.uint8).reshape(delta.shape)
    return {f"{name}.q4": (levels[:, 0::2] | (levels[:, 1::2] << 4)).contiguous(), f"{name}.q4scale": scale.contiguous()}


def overlay_tensors(params: Sequence[tuple[str, torch.nn.Parameter]], base_state: dict[str, torch.Tensor],
                    bits: int = 8, rank: int | None = None) -> dict[str, torch.Tensor]:
    """What an artifact stores: for a base tensor its :func:`quantized_change`, for a new tensor (a head) its
    value in fp16."""
    out: dict[str, torch.Tensor] = {}
    for name, param in params:
        value = param.detach().to("cpu", torch.float32)
        if name in base_state:
            out.update(quantized_change(name, value - base_state[name].float(), bits, rank))
        else:
            out[name] = value.to(torch.float16).contiguous()
    return out


def _save_artifact(model: Model, out: Path, base: str, kind: str, params: list[tuple[str, torch.nn.Parameter]],
                   base_state: dict[str, torch.Tensor], train_layers: int | None,
                   label_names: Sequence[str] | None, num_labels: int | None, bits: int = 8,
                   rank: int | None = None) -> None:
    """``overlay.json`` naming the base + ``overlay.safetensors`` with what training changed."""
    from safetensors.torch import save

    out.mkdir(parents=True, exist_ok=True)
    model.hf.eval()
    id2label = {i: name for i, name in enumerate(label_names)} if label_names else None
    write_whole(out / OVERLAY_WEIGHTS, save(overlay_tensors(params, base_state, bits, rank),
                                            metadata={"base": str(base), "kind": kind}), "the trained weights")
    meta = {"format": "interpeval-overlay-2", "base": str(base), "kind": kind, "train_layers": train_layers,
            "num_labels": num_labels, "storage": storage_label(bits, rank)}
    if id2label:
        meta["id2label"] = {str(k): v for k, v in id2label.items()}
    write_whole(out / OVERLAY_JSON, (json.dumps(meta, indent=2) + "\n").encode(), "the artifact's description")


def storage_label(bits: int, rank: int | None = None) -> str:
    """How ``overlay.json`` describes an artifact's storage."""
    per = "row" if bits == 8 else f"{Q4_GROUP}-column group"
    changes = f"rank-{rank} SVD factors of matrix changes, in int{bits}" if rank else f"int{bits} changes"
    return f"{changes} with one scale per {per} for matrices, fp16 otherwise"


def _scores(metrics: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {v:.4f}" if isinstance(v, float) else f"{k} = {v}" for k, v in metrics.items())


def _init_lines(card: dict[str, Any]) -> list[str]:
    return [f"- warm start from `{init['from']}`, trained before by `{init.get('command', '?')}` "
            f"({init.get('steps', '?')} steps, lr {init.get('lr', '?')}, {init.get('wall_time_s', '?')} s): "
            "the next steps continue it with a new schedule" for init in zoo.init_chain(card)]


def model_card(card: dict[str, Any]) -> str:
    """``MODEL_CARD.md`` from ``card.json``: base, data and split, selection, held-out scores next to the trivial
    baseline, training cost and the command that reproduces it."""
    layers = "every layer and the head trained, word embeddings frozen" if card["train_layers"] is None else \
        f"top {card['train_layers']} layers + head trained"
    lines = [
        f"# {card['name']}", "", card["description"] or f"A {card['kind']} model fine-tuned by interpeval.", "",
        f"- kind: `{card['kind']}`; base: `{card['base']}` ({layers})",
        f"- data: {card['data'] or '(in-memory examples)'}",
        f"- split: {card['n_train']} train / {card['n_eval']} held-out (eval_fraction {card['eval_fraction']}, "
        f"seed {card['seed']})",
    ]
    if card.get("metrics"):
        lines.append(f"- seeded eval split of the examples ({card['n_eval']}; held out from training only as far as "
                     f"the examples are independent): {_scores(card['metrics'])}")
    selection = card.get("selection")
    if selection:
        lines.append(f"- model selection: {selection['metric']} on {selection['n_dev']} dev examples, best at step "
                     f"{selection['best_step']} ({selection['best_score']:.4f})"
                     + (f"; {selection['note']}" if selection.get("note") else ""))
    for name, test in (card.get("heldout") or {}).items():
        lines.append(f"- held-out **{name}** (n = {test['n']}; {test['what']}): {_scores(test['metrics'])}; "
                     f"trivial baseline ({test['baseline_name']}): {_scores(test['baseline'])}")
    if card.get("heldout") and card.get("test_max_length"):
        lines.append(f"- held-out tests scored with inputs of up to {card['test_max_length']} tokens")
    split = card.get("split")
    if split:
        lines.append("- exact split (files relative to the data folder):")
        lines += [f"  - {key}: {value}" for key, value in split.items()]
    lines += [
        f"- training: {card['steps']} steps ({card['epochs']:.2f} epochs), batch {card['batch_size']}, "
        f"lr {card['lr']}, max_length {card['max_length']}, on {card['device']}, {card['wall_time_s']} s",
        f"- command: `{card['command']}`",
        *_init_lines(card),
        *([f"- stored as {card['storage']}"] if card.get("storage") else []), "",
    ]
    return "\n".join(lines)


__all__ = ["PRIMARY_METRIC", "ChoiceExample", "check_init", "classification_scores", "predict_examples", "ClassificationExample", "MLMExample", "QAExample", "TrainResult",
           "epoch_batches", "evaluate", "masked_logits", "model_card", "Q4_GROUP", "overlay_tensors", "quantized_change", "read_examples",
           "read_jsonl", "read_squad", "read_tsv", "seeded_split", "train", "word_units"]
