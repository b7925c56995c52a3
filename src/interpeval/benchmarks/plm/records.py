"""Instances of the benchmark and the TrustAI golden / predict record files they are stored in.

The builder works on :class:`Item` (words, the masked word, rationale word indices, provenance); a finished item
becomes a :class:`GoldenRecord` in TrustAI's pretrained-LM golden format (REFERENCE §4.5, and the two records
printed in TrustAI's notebook): ``sent_id``, ``sent_text`` with ``[MASK]``, ``sent_token`` (English words, Chinese
characters; the masked answer is one ``[MASK]`` token), ``answers``, ``rationale``, ``rationale_tokens`` and
``rationale_ids`` (``[[alternative, ...]]`` for the one sequence), ``sample_type`` (``ori`` / ``disturb``),
``rel_ids`` (on originals) and ``adv_type`` (on perturbed records). What TrustAI has no field for — language,
dimension, perturbation type, the silver/gold label and the rule that made the rationale, provenance, the
answer-uniqueness flag — lives under one extra key, ``interpeval``, so the files stay readable by TrustAI.

Readers validate every line before any work starts and raise :class:`~interpeval.errors.DataError` naming the file
and line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpeval.errors import DataError
from interpeval.validate import json_objects

MASK = "[MASK]"
LANGS = ("en", "zh")
DIMENSIONS = ("grammar", "semantics", "knowledge", "reasoning", "computation")
#: the paper's three perturbation types: Ins./Del., Rep. and Trans.
PERTURBATIONS = ("ins_del", "replace", "transform")
LABELS = ("silver", "gold")
#: the ``adv_type`` written for each perturbation (TrustAI's own sample says ``敏感-重要词`` for a replacement)
ADV_TYPES = {"ins_del": "insertion/deletion of dispensable words",
             "replace": "replacement of rationale words", "transform": "syntactic transformation"}


@dataclass
class Item:
    """One instance in word form, as the builder makes it.

    ``words[mask]`` is the masked answer; ``rationale`` holds word indices (never ``mask``); ``sep`` joins the
    words into text (``" "`` English, ``""`` Chinese). ``tree`` keeps ``(head, deprel, upos, feats)`` per word for
    UD-built items (heads are word indices, -1 for the root) so perturbations can transform the syntax.
    """

    lang: str
    dimension: str
    words: list[str]
    mask: int
    rationale: list[int]
    rule: str
    provenance: dict[str, Any]
    tree: list[tuple[int, str, str, dict[str, str]]] | None = None
    perturbation: str | None = None
    perturbation_rule: str = ""

    @property
    def answer(self) -> str:
        return self.words[self.mask]

    @property
    def sep(self) -> str:
        return "" if self.lang == "zh" else " "

    def text(self, fill: str | None = None) -> str:
        """The words joined, the answer replaced by ``fill`` (default ``[MASK]``; pass the answer to fill it in)."""
        return self.sep.join(fill if i == self.mask and fill is not None else (MASK if i == self.mask else w)
                             for i, w in enumerate(self.words))


@dataclass
class GoldenRecord:
    """One line of a golden file; ``meta`` is the ``interpeval`` block (absent in TrustAI's own records)."""

    sent_id: int
    sent_text: str
    sent_token: list[str]
    answers: str
    rationale_ids: list[list[int]]
    sample_type: str
    rel_ids: list[int] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    adv_type: str = ""
    line: int = 0

    @property
    def mask_index(self) -> int:
        return self.sent_token.index(MASK)

    @property
    def lang(self) -> str:
        return str(self.meta.get("lang") or ("zh" if any("\u4e00" <= c <= "\u9fff" for c in self.sent_text) else "en"))

    @property
    def dimension(self) -> str:
        return str(self.meta.get("dimension") or "unknown")

    @property
    def perturbation(self) -> str | None:
        """The perturbation type of a disturbed record (``unknown`` in TrustAI's own files), None for originals."""
        if self.sample_type == "ori":
            return None
        return self.meta.get("perturbation") or "unknown"

    @property
    def label(self) -> str:
        """``silver`` (made by a rule) or ``gold`` (checked by a person); TrustAI's own records are gold."""
        return str(self.meta.get("label", "gold"))

    @property
    def rationale(self) -> list[int]:
        """The first (for built records: the only) gold rationale, as token indices."""
        return list(self.rationale_ids[0]) if self.rationale_ids else []

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sent_id": self.sent_id, "sent_text": self.sent_text, "sent_token": self.sent_token,
            "answers": self.answers,
            "rationale": "".join(self.sent_token[i] for i in self.rationale) if self.lang == "zh"
            else " ".join(self.sent_token[i] for i in self.rationale),
            "rationale_tokens": [[[self.sent_token[i] for i in alt] for alt in self.rationale_ids]],
            "rationale_ids": [self.rationale_ids], "sample_type": self.sample_type,
        }
        if self.sample_type == "ori":
            out["rel_ids"] = self.rel_ids
        else:
            out["adv_type"] = self.adv_type
        if self.meta:
            out["interpeval"] = self.meta
        return out


def item_tokens(item: Item) -> tuple[list[str], list[int]]:
    """``sent_token`` of an item (Chinese words split into characters, the answer one ``[MASK]``) and, per word,
    the index of its first token."""
    tokens: list[str] = []
    starts: list[int] = []
    for i, word in enumerate(item.words):
        starts.append(len(tokens))
        if i == item.mask:
            tokens.append(MASK)
        elif item.lang == "zh":
            tokens.extend(ch for ch in word if not ch.isspace())
        else:
            tokens.append(word)
    return tokens, starts


def to_record(item: Item, sent_id: int, meta: dict[str, Any]) -> GoldenRecord:
    """The golden record of ``item``: rationale words become token indices (all characters of a Chinese word)."""
    tokens, starts = item_tokens(item)
    ends = starts[1:] + [len(tokens)]
    rationale = sorted(t for w in item.rationale for t in range(starts[w], ends[w]))
    text = "".join(tokens) if item.lang == "zh" else " ".join(tokens)
    return GoldenRecord(sent_id, text, tokens, item.answer, [rationale],
                        "ori" if item.perturbation is None else "disturb",
                        adv_type=ADV_TYPES.get(item.perturbation or "", ""), meta=meta)


# ---------------------------------------------------------------------------------------------- reading / writing
def write_jsonl(path: str | os.PathLike[str], rows: Iterable[dict[str, Any]]) -> Path:
    """Write rows as UTF-8 JSON lines (to a temporary file first, so a kill never leaves half a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    tmp.replace(path)
    return path


def write_golden(path: str | os.PathLike[str], records: Sequence[GoldenRecord]) -> Path:
    return write_jsonl(path, (r.to_json() for r in records))




def _int_list(value: Any, path: Path, where: str, what: str) -> list[int]:
    """Indices as ints; TrustAI's sentiment records write them as digit strings, which are accepted."""
    if not isinstance(value, list):
        raise DataError(path, where, f"{what} must be a list of indices")
    out = []
    for v in value:
        if isinstance(v, bool) or not (isinstance(v, int) or (isinstance(v, str) and v.isdigit())):
            raise DataError(path, where, f"{what} holds {v!r}, not an index")
        out.append(int(v))
    return out


def read_golden(path: str | os.PathLike[str]) -> list[GoldenRecord]:
    """Read and validate a golden file (JSON lines); every problem names the file and line."""
    path = Path(path)
    records: list[GoldenRecord] = []
    seen: dict[int, int] = {}
    for number, row in json_objects(path):
        where = f"line {number}"
        missing = [k for k in ("sent_id", "sent_text", "sent_token", "answers", "rationale_ids", "sample_type")
                   if k not in row]
        if missing:
            raise DataError(path, where, f"missing field(s) {', '.join(missing)}")
        sid = row["sent_id"]
        if isinstance(sid, bool) or not isinstance(sid, int):
            raise DataError(path, where, f"sent_id must be an integer, got {sid!r}")
        if sid in seen:
            raise DataError(path, where, f"sent_id {sid} already used on line {seen[sid]}")
        seen[sid] = number
        tokens = row["sent_token"]
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise DataError(path, where, "sent_token must be a list of strings")
        if tokens.count(MASK) != 1:
            raise DataError(path, where, f"sent_token must hold exactly one {MASK}, found {tokens.count(MASK)}")
        if row["sample_type"] not in ("ori", "disturb"):
            raise DataError(path, where, f"sample_type must be 'ori' or 'disturb', got {row['sample_type']!r}")
        if not isinstance(row["answers"], str) or not row["answers"].strip():
            raise DataError(path, where, "answers must be a non-empty string")
        seqs = row["rationale_ids"]
        if not isinstance(seqs, list) or len(seqs) != 1 or not isinstance(seqs[0], list) or not seqs[0]:
            raise DataError(path, where, "rationale_ids must be [[alternative, ...]] for the one sequence")
        alternatives = [_int_list(alt, path, where, "rationale_ids") for alt in seqs[0]]
        for alt in alternatives:
            bad = [i for i in alt if not 0 <= i < len(tokens) or tokens[i] == MASK]
            if bad:
                raise DataError(path, where, f"rationale_ids {bad} are outside sent_token or point at {MASK}")
        rel_ids = row.get("rel_ids", [])
        if row["sample_type"] == "ori":
            rel_ids = _int_list(rel_ids, path, where, "rel_ids")
        meta = row.get("interpeval", {})
        if not isinstance(meta, dict):
            raise DataError(path, where, "the interpeval block must be an object")
        if meta.get("label", "gold") not in LABELS:
            raise DataError(path, where, f"interpeval.label must be one of {LABELS}")
        if meta.get("perturbation") not in (None, *PERTURBATIONS):
            raise DataError(path, where, f"interpeval.perturbation must be one of {PERTURBATIONS}")
        records.append(GoldenRecord(sid, row["sent_text"], tokens, row["answers"], alternatives,
                                    row["sample_type"], rel_ids, meta, str(row.get("adv_type", "")), number))
    if not records:
        raise DataError(path, None, "holds no records")
    kinds = {r.sent_id: r.sample_type for r in records}
    for r in records:
        for rel in r.rel_ids:
            if kinds.get(rel) != "disturb":
                raise DataError(path, f"line {r.line}", f"rel_ids names {rel}, which is not a disturb record here")
    return records


@dataclass
class Prediction:
    """One line of a predict file: the model's top-k fillings and one explainer's rationale (token indices)."""

    id: int
    pred_label: str
    top_k: list[str]
    rationale: list[int]
    word_scores: list[float]
    rationale_tokens: list[str] = field(default_factory=list)
    line: int = 0

    def to_json(self, tokens: Sequence[str]) -> dict[str, Any]:
        rest = [i for i in range(len(tokens)) if i not in set(self.rationale) and tokens[i] != MASK]
        return {"id": self.id, "pred_label": self.pred_label, "top_k": self.top_k,
                "rationale": [self.rationale], "rationale_tokens": [[tokens[i] for i in self.rationale]],
                "non_rationale": [rest], "non_rationale_tokens": [[tokens[i] for i in rest]],
                "word_scores": [self.word_scores]}


def write_predictions(path: str | os.PathLike[str], predictions: Sequence[Prediction],
                      golden: Sequence[GoldenRecord]) -> Path:
    tokens = {g.sent_id: g.sent_token for g in golden}
    return write_jsonl(path, (p.to_json(tokens[p.id]) for p in predictions))


def read_predictions(path: str | os.PathLike[str], golden: Sequence[GoldenRecord] | None = None) -> list[Prediction]:
    """Read and validate a predict file; with ``golden`` the ids and indices are checked against it too."""
    path = Path(path)
    lengths = {g.sent_id: len(g.sent_token) for g in golden or ()}
    out: list[Prediction] = []
    seen: set[int] = set()
    for number, row in json_objects(path):
        where = f"line {number}"
        missing = [k for k in ("id", "pred_label", "rationale") if k not in row]
        if missing:
            raise DataError(path, where, f"missing field(s) {', '.join(missing)}")
        pid = row["id"]
        if isinstance(pid, bool) or not isinstance(pid, int):
            raise DataError(path, where, f"id must be an integer, got {pid!r}")
        if pid in seen:
            raise DataError(path, where, f"id {pid} appears twice")
        seen.add(pid)
        if golden is not None and pid not in lengths:
            raise DataError(path, where, f"id {pid} is not in the golden file")
        seqs = row["rationale"]
        if not isinstance(seqs, list) or len(seqs) != 1:
            raise DataError(path, where, "rationale must be [[ids]] for the one sequence")
        rationale = _int_list(seqs[0], path, where, "rationale")
        if pid in lengths and any(not 0 <= i < lengths[pid] for i in rationale):
            raise DataError(path, where, f"rationale ids outside the {lengths[pid]} tokens of record {pid}")
        top_k = row.get("top_k", [row["pred_label"]])
        scores = row.get("word_scores", [[]])
        if not isinstance(top_k, list) or not isinstance(scores, list) or len(scores) != 1:
            raise DataError(path, where, "top_k must be a list and word_scores [[scores]]")
        out.append(Prediction(pid, str(row["pred_label"]), [str(t) for t in top_k], rationale,
                              [float(s) for s in scores[0]], list(row.get("rationale_tokens", [[]])[0]), number))
    if not out:
        raise DataError(path, None, "holds no predictions")
    return out
