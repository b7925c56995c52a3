"""QUACKIE's scoring of stored outputs, in one place: the run's rows, its stored run metrics and the report's
leaderboard all call :func:`score_run`.

Per question the procedure is ``QAExperimenter.analyze`` of axa-rev-research/quackie (REFERENCE §1.4): the sentence
scores are binarised to the top-k (ties all selected), the ground truth with the best IoU among the annotators' is
picked, and the registered metrics ``quackie_iou`` / ``quackie_hpd`` / ``quackie_snr`` (or the ``*_continuous``
ones on the raw scores) give the three numbers. A dataset is summarised as the original prints it.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from interpeval import metrics
from interpeval.metrics._checks import marked_1d, non_empty, positive_int, scores_1d


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
    masks = [marked_1d(v, f"gts[{i}]") for i, v in enumerate(gt_list)]
    if len({len(m) for m in masks}) != 1:
        raise ValueError(f"gts: the GT vectors differ in length ({sorted({len(m) for m in masks})})")
    raw = scores_1d(scores, "scores", allow_empty=True)
    if len(raw) != len(masks[0]):
        return {"iou": float("nan"), "hpd": float("nan"), "snr": float("nan")}
    pred = binarize_top_k(raw, k)
    iou = metrics.get("quackie_iou")
    ious = [iou(m, pred) for m in masks]
    best = int(np.argmax(ious))
    gt = masks[best]
    suffix, values = ("_continuous", raw) if continuous else ("", pred)
    return {"iou": ious[best], "hpd": metrics.get(f"quackie_hpd{suffix}")(gt, values),
            "snr": metrics.get(f"quackie_snr{suffix}")(gt, values)}


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


def leaderboard_name(label: str, agg: str) -> str:
    """The leaderboard's method name: the label alone for the Random baseline, else ``label_agg``."""
    return label if agg == "random" else f"{label}_{agg}"


@dataclass(frozen=True)
class Scored:
    """One aggregation of one method's stored outputs: per-question IoU / HPD / SNR and their summary."""

    agg: str
    method: str
    samples: list[dict[str, float]]
    summary: dict[str, float]


def score_run(outputs: Iterable[dict[str, Any]], label: str = "") -> list[Scored]:
    """Score a ``quackie`` run's stored outputs (``{"n_sentences", "gt", "scores": {agg: sentence scores}}``), one
    :class:`Scored` per aggregation in stored order; ``label`` names the method on the leaderboard (k = 1)."""
    per_agg: dict[str, list[dict[str, float]]] = {}
    for out in outputs:
        n = out["n_sentences"]
        gts = [np.eye(n, dtype=int)[j] for j in out["gt"]]
        for agg, scores in out["scores"].items():
            per_agg.setdefault(agg, []).append(quackie_scores(np.asarray(scores, dtype=float), gts, k=1))
    return [Scored(agg, leaderboard_name(label, agg), samples, aggregate_quackie(samples))
            for agg, samples in per_agg.items()]
