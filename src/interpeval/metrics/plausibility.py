"""Plausibility: how well an explanation's rationale matches the words humans marked.

Two originals are reproduced exactly:

* the Baidu fine-grained benchmark (PaddleNLP ``examples/model_interpretation/evaluation/plausibility`` and the TrustAI
  ``Evaluator``; REFERENCE §4.2): set-based token-F1 over word indices with ``pick_max_golden_evid`` for several
  gold rationales, macro-F1 with each code base's own denominator, and TrustAI's IoU-F1;
* ferret 0.5.0 (REFERENCE §5.4): AUPRC as the trapezoid under the precision-recall curve, token-F1 and token-IoU of
  the top-k tokens, with macro or micro aggregation.

Canonical shapes for the Baidu dataset functions: ``preds = {id: [[word ids] per sequence]}`` (the prediction
file's ``rationale`` field) and ``golds = {id: [[alternative gold id lists] per sequence]}`` (TrustAI's
``rationale_ids``); :func:`paddlenlp_golds` converts PaddleNLP golden records to it.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
from sklearn.metrics import auc, average_precision_score, precision_recall_curve

from interpeval.metrics._checks import binary_1d, index_list, non_empty, positive_int, same_length, scores_1d
from interpeval.metrics.base import register

_BAIDU = "Baidu benchmark: PaddleNLP model_interpretation/evaluation/plausibility/eval_{senti,similarity,mrc}.py"
_TRUSTAI = "TrustAI trustai/evaluation/evaluator.py (f0cc490)"
_FERRET = "ferret 0.5.0 evaluators/plausibility_measures.py"

Ids = Sequence[int]


# --- set metrics ------------------------------------------------------------------------------------------


def _f1(pred: set[int], gold: set[int]) -> float:
    tp = len(pred & gold)
    p = tp / len(pred) if pred else 0.0
    r = tp / len(gold) if gold else 0.0
    return 0.0 if p == 0 or r == 0 else 2 * p * r / (p + r)


def _iou(pred: set[int], gold: set[int]) -> float:
    union = pred | gold
    return len(pred & gold) / len(union) if union else 0.0


@register("rationale_token_f1", "plausibility", True, (0.0, 1.0), f"{_BAIDU}; {_TRUSTAI}",
          quirks="0 when either set is empty", needs=("pred", "gold"))
def token_f1(pred: Ids, gold: Ids) -> float:
    """F1 between two sets of word indices; 0 if precision or recall is 0 or either set is empty."""
    return _f1(set(index_list(pred, "pred")), set(index_list(gold, "gold")))


@register("jaccard", "plausibility", True, (0.0, 1.0), "|A ∩ B| / |A ∪ B| (TrustAI calc_iou_f1, IQS §6)",
          quirks="empty union gives the value of `empty` (0 by default, as TrustAI)", needs=("a", "b"))
def jaccard(a: Sequence[Hashable], b: Sequence[Hashable], empty: float = 0.0) -> float:
    """Jaccard similarity of two sets of words or indices; ``empty`` is returned when both sets are empty."""
    for name, v in (("a", a), ("b", b)):
        if isinstance(v, (str, bytes)):
            raise ValueError(f"{name}: expected a collection of items, got a string")
    sa, sb = set(a), set(b)
    union = sa | sb
    return len(sa & sb) / len(union) if union else float(empty)


def pick_max_golden_evid(pred: Ids, golds: Sequence[Ids]) -> tuple[list[int], float]:
    """The gold rationale to score ``pred`` against when annotators gave several, and its F1.

    Exactly PaddleNLP/TrustAI ``pick_max_golden_evid``: first the best single gold (replaced only on a strictly
    greater F1, starting from 0), then for every start s the greedy union of golds s.. that each overlap ``pred``,
    are not yet covered, and strictly raise the union's F1; a union wins if it beats the best so far. When the best
    F1 is 0 the gold is ``[]``. A lone gold is used as it is (TrustAI); this changes no score.
    """
    p = set(index_list(pred, "pred"))
    gold_sets = [index_list(g, f"golds[{i}]") for i, g in enumerate(non_empty(golds, "golds"))]
    if len(gold_sets) == 1:
        return sorted(set(gold_sets[0])), _f1(p, set(gold_sets[0]))
    best: list[int] = []
    best_f1 = 0.0
    for g in gold_sets:
        f1 = _f1(p, set(g))
        if f1 > best_f1:
            best_f1, best = f1, sorted(set(g))
    for start in range(len(gold_sets) - 1):
        union: set[int] = set()
        union_f1 = 0.0
        for g in map(set, gold_sets[start:]):
            if len(union & g) < len(g) and _f1(p, g) > 0:
                new_f1 = _f1(p, union | g)
                if new_f1 > union_f1:
                    union_f1, union = new_f1, union | g
        if union_f1 > best_f1:
            best_f1, best = union_f1, sorted(union)
    if best_f1 == 0:
        return [], 0.0
    return best, best_f1


@register("rationale_token_f1_multi", "plausibility", True, (0.0, 1.0), f"{_BAIDU}; {_TRUSTAI}",
          quirks="several golds: best single or greedy union (pick_max_golden_evid), strict >", needs=("pred", "golds"))
def token_f1_multi(pred: Ids, golds: Sequence[Ids]) -> float:
    """Token-F1 of ``pred`` against the best of several gold rationales (or a greedy union of them)."""
    return pick_max_golden_evid(pred, golds)[1]


# --- Baidu dataset aggregation -----------------------------------------------------------------------------


def _sequences(value: Any, name: str, depth: int) -> list[Any]:
    seqs = non_empty(value, name)
    if depth == 1:
        return [index_list(s, f"{name}[{j}]") for j, s in enumerate(seqs)]
    return [[index_list(g, f"{name}[{j}][{a}]") for a, g in enumerate(non_empty(s, f"{name}[{j}]"))]
            for j, s in enumerate(seqs)]


def _per_instance(preds: Mapping[Any, Any], golds: Mapping[Any, Any], measure: str) -> tuple[list[list[float]], int]:
    """Per found instance, the per-sequence score after gold picking; also the number of sequences."""
    if not isinstance(preds, Mapping):
        raise ValueError(f"preds: expected a mapping id -> rationale per sequence, got {type(preds).__name__}")
    if not isinstance(golds, Mapping) or not golds:
        raise ValueError("golds: expected a non-empty mapping id -> gold alternatives per sequence")
    rows: list[list[float]] = []
    n_seq = None
    for key, pred in preds.items():
        p_seqs = _sequences(pred, f"preds[{key!r}]", 1)
        if n_seq is None:
            n_seq = len(p_seqs)
        elif len(p_seqs) != n_seq:
            raise ValueError(f"preds[{key!r}]: has {len(p_seqs)} sequences, other predictions have {n_seq}")
        if key not in golds:
            continue
        g_seqs = _sequences(golds[key], f"golds[{key!r}]", 2)
        if len(g_seqs) != len(p_seqs):
            raise ValueError(f"golds[{key!r}]: has {len(g_seqs)} sequences, preds[{key!r}] has {len(p_seqs)}")
        row = []
        for p, alts in zip(p_seqs, g_seqs, strict=True):
            gold, f1 = pick_max_golden_evid(p, alts)
            row.append(f1 if measure == "f1" else float(int(_iou(set(p), set(gold)) * 10) >= 5))
        rows.append(row)
    return rows, n_seq or 0


@register("baidu_macro_f1", "plausibility", True, (0.0, 1.0), _BAIDU,
          quirks="denominator is the number of gold records, so a missing prediction counts 0; the original "
                 "prints ×100 with one decimal", needs=("preds", "golds"), level="dataset")
def macro_f1_paddlenlp(preds: Mapping[Any, Any], golds: Mapping[Any, Any]) -> float:
    """Macro token-F1 as PaddleNLP computes it: Σ_i mean-over-sequences F1_i / |golds|.

    Covers the three PaddleNLP scripts: sentiment (one sequence, alternative golds), similarity (two sequences,
    F1 = (F1_query + F1_title)/2) and MRC (one sequence, one gold). Predictions without a gold record are skipped.
    """
    rows, _ = _per_instance(preds, golds, "f1")
    return float(sum(float(np.mean(r)) for r in rows) / len(golds))


@register("trustai_macro_f1", "plausibility", True, (0.0, 1.0), _TRUSTAI,
          quirks="denominator is (#predictions found in the golds) × #sequences, so missing predictions do not count",
          needs=("preds", "golds"), level="dataset")
def macro_f1_trustai(preds: Mapping[Any, Any], golds: Mapping[Any, Any]) -> float:
    """Macro token-F1 as TrustAI ``Evaluator.cal_f1``: Σ_{i,seq} F1 / (found × sequences); 0 if none found."""
    rows, n_seq = _per_instance(preds, golds, "f1")
    return float(sum(map(sum, rows)) / (len(rows) * n_seq)) if rows else 0.0


@register("trustai_iou_f1", "plausibility", True, (0.0, 1.0), _TRUSTAI,
          quirks="a pair matches when int(IoU*10) >= 5; gold picked by F1 (pick_max_golden_evid), not by IoU",
          needs=("preds", "golds"), level="dataset")
def iou_f1_trustai(preds: Mapping[Any, Any], golds: Mapping[Any, Any]) -> float:
    """TrustAI ``calc_iou_f1``: the fraction of (instance, sequence) pairs whose rationale IoU is at least 0.5."""
    rows, n_seq = _per_instance(preds, golds, "iou")
    return float(sum(map(sum, rows)) / (len(rows) * n_seq)) if rows else 0.0


def paddlenlp_golds(records: Sequence[Mapping[str, Any]],
                    task: Literal["senti", "similarity", "mrc"]) -> dict[Any, list[list[list[int]]]]:
    """Convert PaddleNLP golden-file records to the canonical ``{sent_id: [[alternatives] per sequence]}``.

    senti: ``rationales`` is a list of alternative gold lists; similarity: ``rationale_q_idx`` and
    ``rationale_t_idx`` are one gold per side; MRC: ``rationales`` is one flat gold list. Indices may be strings.
    """
    fields = {"senti": ("rationales",), "similarity": ("rationale_q_idx", "rationale_t_idx"), "mrc": ("rationales",)}
    if task not in fields:
        raise ValueError(f"task: must be one of {sorted(fields)}, got {task!r}")
    out: dict[Any, list[list[list[int]]]] = {}
    for i, rec in enumerate(records):
        if not isinstance(rec, Mapping) or "sent_id" not in rec:
            raise ValueError(f"records[{i}]: expected a golden record with 'sent_id'")
        for f in fields[task]:
            if f not in rec:
                raise ValueError(f"records[{i}] (sent_id {rec['sent_id']!r}): missing field {f!r}")
        try:
            if task == "senti":
                seqs = [[[int(y) for y in alt] for alt in rec["rationales"]]]
            else:
                seqs = [[[int(y) for y in rec[f]]] for f in fields[task]]
        except (TypeError, ValueError):
            raise ValueError(f"records[{i}] (sent_id {rec['sent_id']!r}): rationale indices must be integers") from None
        out[rec["sent_id"]] = seqs
    return out


# --- ferret ------------------------------------------------------------------------------------------------


def _rationale_scores(rationale: Any, scores: Any) -> tuple[np.ndarray, np.ndarray]:
    r, s = binary_1d(rationale, "rationale"), scores_1d(scores, "scores")
    same_length(r, s, "rationale", "scores")
    return r, s


def top_k_tokens(scores: Sequence[float] | np.ndarray, k: int = 5, only_pos: bool = True) -> np.ndarray | None:
    """ferret's hard rationale: the indices of the k highest scores, keeping only positive ones with ``only_pos``.

    Returns ``None`` when nothing is selected. ferret sorts with numpy's default (unstable) sort, so its tie order
    is unspecified; a stable sort is used here, which selects the later index among tied scores at the cut.
    """
    s = scores_1d(scores, "scores")
    k = positive_int(k, "k")
    idx = np.argsort(s, kind="stable")[-k:][::-1]
    if only_pos:
        idx = idx[s[idx] > 0]
    return idx if idx.size else None


@register("ferret_auprc", "plausibility", True, (0.0, 1.0), _FERRET,
          quirks="sklearn.metrics.auc(recall, precision) (trapezoid), not average precision; only_pos clips "
                 "negative scores to 0; official=True keeps sklearn's value for a rationale with no positive "
                 "token (recall set to 1, giving 0.5 or so), official=False returns NaN",
          needs=("attribution", "rationale"))
def auprc(rationale: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray, only_pos: bool = True,
          official: bool = True) -> float:
    """Area under the precision-recall curve of the scores against a one-hot human rationale (ferret)."""
    r, s = _rationale_scores(rationale, scores)
    if not r.any() and not official:
        return float("nan")
    if only_pos:
        s = np.maximum(s, 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        precision, recall, _ = precision_recall_curve(r.astype(int), s)
    return float(auc(recall, precision))


@register("average_precision", "plausibility", True, (0.0, 1.0), "sklearn.metrics.average_precision_score",
          quirks="the step-wise alternative to ferret's trapezoid AUPRC; 0 for a rationale with no positive token",
          needs=("attribution", "rationale"))
def average_precision(rationale: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray,
                      only_pos: bool = True) -> float:
    """Average precision (step-wise area, no interpolation) of the scores against a human rationale."""
    r, s = _rationale_scores(rationale, scores)
    if only_pos:
        s = np.maximum(s, 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return float(average_precision_score(r.astype(int), s))


def _counts(rationale: Any, scores: Any, k: int, only_pos: bool) -> tuple[int, int, int]:
    """(true positives, human positives, predicted positives) of the top-k hard rationale."""
    r, s = _rationale_scores(rationale, scores)
    idx = top_k_tokens(s, k, only_pos)
    pred = np.zeros(len(s), dtype=bool)
    if idx is not None:
        pred[idx] = True
    return int(np.count_nonzero(r & pred)), int(np.count_nonzero(r)), int(np.count_nonzero(pred))


def _f1_from_counts(tp: int, pos: int, pred_pos: int, official: bool) -> float:
    if pred_pos == 0:
        return 0.0  # no hard rationale
    if pos == 0:
        return float("nan") if official else 0.0
    p, r = tp / pred_pos, tp / pos
    return 0.0 if p == 0 or r == 0 else 2 * p * r / (p + r)


@register("ferret_token_f1", "plausibility", True, (0.0, 1.0), _FERRET,
          quirks="no hard rationale gives 0; a human rationale with no positive token gives NaN (numpy 0/0) with "
                 "official=True and 0 with official=False", needs=("attribution", "rationale"))
def ferret_token_f1(rationale: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray, k: int = 5,
                    only_pos: bool = True, official: bool = True) -> float:
    """Token-F1 between ferret's top-k hard rationale and the one-hot human rationale."""
    return _f1_from_counts(*_counts(rationale, scores, k, only_pos), official=official)


@register("ferret_token_iou", "plausibility", True, (0.0, 1.0), _FERRET, quirks="no hard rationale gives 0",
          needs=("attribution", "rationale"))
def ferret_token_iou(rationale: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray, k: int = 5,
                     only_pos: bool = True) -> float:
    """Token-IoU between ferret's top-k hard rationale and the human rationale (0 if the union is empty)."""
    tp, pos, pred_pos = _counts(rationale, scores, k, only_pos)
    if pred_pos == 0:
        return 0.0
    union = pos + pred_pos - tp
    return tp / union if union else 0.0


@register("ferret_token_f1_dataset", "plausibility", True, (0.0, 1.0), _FERRET + " (accumulate_result)",
          quirks="macro (default) is the mean of instance F1, so a NaN instance makes it NaN with official=True",
          needs=("rationales", "scores"), level="dataset")
def ferret_token_f1_dataset(rationales: Sequence[Sequence[int]], scores: Sequence[Sequence[float]], k: int = 5,
                            only_pos: bool = True, average: Literal["macro", "micro"] = "macro",
                            official: bool = True) -> float:
    """Token-F1 over a dataset: macro = mean of instance F1, micro = F1 of the summed counts."""
    rs, ss = non_empty(rationales, "rationales"), non_empty(scores, "scores")
    if len(rs) != len(ss):
        raise ValueError(f"rationales and scores differ in length ({len(rs)} != {len(ss)})")
    if average not in ("macro", "micro"):
        raise ValueError(f"average: must be 'macro' or 'micro', got {average!r}")
    counts = []
    for i, (r, s) in enumerate(zip(rs, ss, strict=True)):
        try:
            counts.append(_counts(r, s, k, only_pos))
        except ValueError as exc:
            raise ValueError(f"instance {i}: {exc}") from None
    if average == "macro":
        return float(np.mean([_f1_from_counts(*c, official=official) for c in counts]))
    tp, pos, pred_pos = (sum(c[j] for c in counts) for j in range(3))
    return _f1_from_counts(tp, pos, pred_pos, official=official)
