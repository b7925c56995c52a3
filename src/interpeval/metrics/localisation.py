"""QUACKIE localisation metrics: does the explanation point at the sentence that holds the answer?

Exact to ``QAExperimenter.analyze`` in axa-rev-research/quackie (REFERENCE §1.4): the per-sentence scores are first
binarised to the top-k (ties all selected), the ground-truth sentence vector is the one of several annotator GTs with
the best IoU, and IoU, HPD and SNR are computed *on the binarised vector*. The ``*_continuous`` metrics compute HPD and
SNR on the raw scores instead, which is what the QUACKIE paper's definitions describe; they are reported separately
because they are not comparable to the leaderboard. QUACKIE's own procedure (top-k binarisation, the GT picked among
several, the dataset summary) lives with the benchmark: :mod:`interpeval.benchmarks.quackie.score`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from interpeval.metrics._checks import binary_1d, marked_1d, same_length, scores_1d
from interpeval.metrics.base import register

_SOURCE = "QUACKIE qa_experimenters.py (axa-rev-research/quackie 8f63fed)"


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
          quirks="computed on the top-k binarisation (ties all selected), not on raw scores",
          needs=("gt", "pred_binary"))
def iou(gt: Sequence[int] | np.ndarray, pred_binary: Sequence[int] | np.ndarray) -> float:
    """Intersection over union of the GT sentence set and the selected set (``sklearn.jaccard_score``)."""
    g, p = marked_1d(gt, "gt"), binary_1d(pred_binary, "pred_binary")
    same_length(g, p, "gt", "pred_binary")
    return _iou(g, p)


@register("quackie_hpd", "localisation", True, (0.0, 1.0), _SOURCE,
          quirks="computed on the binarised prediction: HPD = |selected ∩ GT| / |selected| if the GT is selected, "
                 "else |GT| / N", needs=("gt", "pred_binary"))
def hpd(gt: Sequence[int] | np.ndarray, pred_binary: Sequence[int] | np.ndarray) -> float:
    """Highest precision for detection: precision when thresholding at the lowest GT score.

    It asks how many non-answer sentences an analyst must read before every GT sentence is found.
    """
    g, p = marked_1d(gt, "gt"), binary_1d(pred_binary, "pred_binary")
    same_length(g, p, "gt", "pred_binary")
    return _hpd(g, p.astype(float))


@register("quackie_snr", "localisation", True, (0.0, float("inf")), _SOURCE,
          quirks="s²/n² (a plain squared ratio: not dB, no square root, sign lost) on the binarised prediction; "
                 "n is the population std (ddof=0); NaN when n == 0 or no non-GT sentence exists",
          needs=("gt", "pred_binary"))
def snr(gt: Sequence[int] | np.ndarray, pred_binary: Sequence[int] | np.ndarray) -> float:
    """Signal-to-noise ratio: (mean GT score − mean other score)² / var(other scores)."""
    g, p = marked_1d(gt, "gt"), binary_1d(pred_binary, "pred_binary")
    same_length(g, p, "gt", "pred_binary")
    return _snr(g, p.astype(float))


@register("quackie_hpd_continuous", "localisation", True, (0.0, 1.0),
          "QUACKIE paper (arXiv 2012.13190) definition on raw scores",
          quirks="not the leaderboard number: the official code binarises first (use quackie_hpd)",
          needs=("gt", "scores"))
def hpd_continuous(gt: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray) -> float:
    """HPD on the raw sentence scores: ties with the lowest GT score count as detected."""
    g, s = marked_1d(gt, "gt"), scores_1d(scores, "scores")
    same_length(g, s, "gt", "scores")
    return _hpd(g, s)


@register("quackie_snr_continuous", "localisation", True, (0.0, float("inf")),
          "QUACKIE paper (arXiv 2012.13190) definition on raw scores",
          quirks="not the leaderboard number: the official code binarises first (use quackie_snr); "
                 "s²/n² with population std, NaN when n == 0 or no non-GT sentence exists", needs=("gt", "scores"))
def snr_continuous(gt: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray) -> float:
    """SNR on the raw sentence scores; invariant to positive scaling of the scores."""
    g, s = marked_1d(gt, "gt"), scores_1d(scores, "scores")
    same_length(g, s, "gt", "scores")
    return _snr(g, s)
