"""QUACKIE localisation metrics: does the explanation point at the sentence that holds the answer?

Exact to ``QAExperimenter.analyze`` in axa-rev-research/quackie (REFERENCE §1.4): the per-sentence scores are first
binarised to the top-k (ties all selected), the ground-truth sentence vector is the one of several annotator GTs with
the best IoU, and IoU, HPD and SNR are computed *on the binarised vector*. The ``*_continuous`` metrics compute HPD and
SNR on the raw scores instead, which is what the QUACKIE paper's definitions describe; they are reported separately
because they are not comparable to the leaderboard.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from interpeval.metrics._checks import binary_1d, non_empty, positive_int, same_length, scores_1d
from interpeval.metrics.base import register

_SOURCE = "QUACKIE qa_experimenters.py (axa-rev-research/quackie 8f63fed)"


def binarize_top_k(scores: Sequence[float] | np.ndarray, k: int = 1) -> np.ndarray:
    """Select the top-``k`` sentences as QUACKIE does: every score tied with the k-th is selected too.

    With ``len(scores) <= k`` every sentence is selected. Returns a bool array.
    """
    pred = scores_1d(scores, "scores")
    k = positive_int(k, "k")
    if len(pred) <= k:
        return np.ones(len(pred), dtype=bool)
    kth = np.partition(pred, -k)[-k]
    return pred >= kth


def _gt(gt: Any, name: str = "gt") -> np.ndarray:
    mask = binary_1d(gt, name)
    if not mask.any():
        raise ValueError(f"{name}: marks no sentence (a ground truth needs at least one 1)")
    return mask


def _iou(gt: np.ndarray, pred: np.ndarray) -> float:
    union = np.count_nonzero(gt | pred)
    return float(np.count_nonzero(gt & pred) / union) if union else 0.0


def _hpd(gt: np.ndarray, values: np.ndarray) -> float:
    detected = values >= values[gt].min()
    return float(np.count_nonzero(gt & detected) / np.count_nonzero(detected))


def _snr(gt: np.ndarray, values: np.ndarray) -> float:
    noise = values[~gt]
    if noise.size == 0:
        return float("nan")
    n = float(np.std(noise))
    if n == 0.0:
        return float("nan")
    s = float(values[gt].mean() - noise.mean())
    return s * s / (n * n)


@register("quackie_iou", "localisation", True, (0.0, 1.0), _SOURCE,
          quirks="computed on the top-k binarisation (ties all selected), not on raw scores")
def iou(gt: Sequence[int] | np.ndarray, pred_binary: Sequence[int] | np.ndarray) -> float:
    """Intersection over union of the GT sentence set and the selected set (``sklearn.jaccard_score``)."""
    g, p = _gt(gt), binary_1d(pred_binary, "pred_binary")
    same_length(g, p, "gt", "pred_binary")
    return _iou(g, p)


@register("quackie_hpd", "localisation", True, (0.0, 1.0), _SOURCE,
          quirks="computed on the binarised prediction: HPD = |selected ∩ GT| / |selected| if the GT is selected, "
                 "else |GT| / N")
def hpd(gt: Sequence[int] | np.ndarray, pred_binary: Sequence[int] | np.ndarray) -> float:
    """Highest precision for detection: precision when thresholding at the lowest GT score.

    It asks how many non-answer sentences an analyst must read before every GT sentence is found.
    """
    g, p = _gt(gt), binary_1d(pred_binary, "pred_binary")
    same_length(g, p, "gt", "pred_binary")
    return _hpd(g, p.astype(float))


@register("quackie_snr", "localisation", True, (0.0, float("inf")), _SOURCE,
          quirks="s²/n² (a plain squared ratio: not dB, no square root, sign lost) on the binarised prediction; "
                 "n is the population std (ddof=0); NaN when n == 0 or no non-GT sentence exists")
def snr(gt: Sequence[int] | np.ndarray, pred_binary: Sequence[int] | np.ndarray) -> float:
    """Signal-to-noise ratio: (mean GT score − mean other score)² / var(other scores)."""
    g, p = _gt(gt), binary_1d(pred_binary, "pred_binary")
    same_length(g, p, "gt", "pred_binary")
    return _snr(g, p.astype(float))


@register("quackie_hpd_continuous", "localisation", True, (0.0, 1.0),
          "QUACKIE paper (arXiv 2012.13190) definition on raw scores",
          quirks="not the leaderboard number: the official code binarises first (use quackie_hpd)")
def hpd_continuous(gt: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray) -> float:
    """HPD on the raw sentence scores: ties with the lowest GT score count as detected."""
    g, s = _gt(gt), scores_1d(scores, "scores")
    same_length(g, s, "gt", "scores")
    return _hpd(g, s)


@register("quackie_snr_continuous", "localisation", True, (0.0, float("inf")),
          "QUACKIE paper (arXiv 2012.13190) definition on raw scores",
          quirks="not the leaderboard number: the official code binarises first (use quackie_snr); "
                 "s²/n² with population std, NaN when n == 0 or no non-GT sentence exists")
def snr_continuous(gt: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray) -> float:
    """SNR on the raw sentence scores; invariant to positive scaling of the scores."""
    g, s = _gt(gt), scores_1d(scores, "scores")
    same_length(g, s, "gt", "scores")
    return _snr(g, s)


def quackie_scores(scores: Sequence[float] | np.ndarray, gts: Sequence[Sequence[int]] | np.ndarray, k: int = 1,
                   continuous: bool = False) -> dict[str, float]:
    """IoU, HPD and SNR of one sample exactly as ``QAExperimenter.analyze`` computes them.

    ``gts`` holds one 0/1 vector per gold answer start (SQuAD has several annotators); the GT with the best IoU
    against the top-k selection is used, the first on ties. If ``scores`` has another length than the GTs (an
    interpreter that returned the wrong number of sentences) all three are NaN: QUACKIE counts this as a fail.
    ``continuous=True`` computes HPD and SNR on the raw scores (GT still picked by IoU of the top-k selection).
    """
    gt_list = non_empty(gts, "gts")
    if all(np.ndim(v) == 0 for v in gt_list):  # a single GT vector was passed
        gt_list = [gt_list]
    masks = [_gt(v, f"gts[{i}]") for i, v in enumerate(gt_list)]
    if len({len(m) for m in masks}) != 1:
        raise ValueError(f"gts: the GT vectors differ in length ({sorted({len(m) for m in masks})})")
    raw = scores_1d(scores, "scores", allow_empty=True)
    if len(raw) != len(masks[0]):
        return {"iou": float("nan"), "hpd": float("nan"), "snr": float("nan")}
    pred = binarize_top_k(raw, k)
    ious = [_iou(m, pred) for m in masks]
    best = int(np.argmax(ious))
    gt = masks[best]
    values = raw if continuous else pred.astype(float)
    return {"iou": ious[best], "hpd": _hpd(gt, values), "snr": _snr(gt, values)}


def aggregate_quackie(per_sample: Sequence[dict[str, float]]) -> dict[str, float]:
    """Dataset summary as in QUACKIE: NaN-ignoring mean and population std, plus the NaN counts.

    ``fails`` counts samples whose IoU is NaN (wrong length), ``no_snr`` those whose SNR is NaN.
    """
    rows = non_empty(per_sample, "per_sample")
    cols: dict[str, list[float]] = {"iou": [], "hpd": [], "snr": []}
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ValueError(f"per_sample[{i}]: expected a dict with iou, hpd, snr, got {type(row).__name__}")
        for key, col in cols.items():
            if key not in row:
                raise ValueError(f"per_sample[{i}]: missing key {key!r}")
            try:
                col.append(float(row[key]))
            except (TypeError, ValueError):
                raise ValueError(f"per_sample[{i}][{key!r}]: {row[key]!r} is not a number") from None
    out: dict[str, float] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns give NaN, as in the original
        for key, col in cols.items():
            arr = np.asarray(col)
            out[f"mean_{key}"] = float(np.nanmean(arr))
            out[f"std_{key}"] = float(np.nanstd(arr))
    out["fails"] = int(np.isnan(cols["iou"]).sum())
    out["no_snr"] = int(np.isnan(cols["snr"]).sum())
    out["n"] = len(rows)
    return out
