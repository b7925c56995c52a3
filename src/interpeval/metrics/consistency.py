"""Consistency: does an explanation stay the same when the input changes in a way that should not matter?

* MAP (Baidu benchmark, REFERENCE §4.3): mean average precision of the disturbed text's rationale tokens against
  the original's, per (original, disturbed) pair and over a dataset;
* PCC (Ding & Koehn 2021, REFERENCE §4.6): Pearson correlation of position-aligned saliency vectors;
* PCC for the pretrained-LM rationale benchmark: the two texts are token-aligned, a deleted or inserted token is
  paired with a virtual token of score 0, and only pairs whose correlation is significant (p < alpha) are counted;
  MAP* is reported on the same pairs.
"""

from __future__ import annotations

import difflib
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats

from interpeval.metrics._checks import non_empty, same_length, scores_1d
from interpeval.metrics.base import register
from interpeval.metrics.rationale import select_rationale

_MAP_SOURCE = "PaddleNLP evaluation/consistency/cal_map.py::_calc_MAP_by_bin_paper == TrustAI _calc_map_by_bin"
_DK_SOURCE = "Ding & Koehn 2021, shuoyangd/tarsius scripts/faithfulness (b9c46eb)"


def _tokens(value: Any, name: str) -> list[str]:
    if isinstance(value, (str, bytes)):
        raise ValueError(f"{name}: expected a list of tokens, got a string")
    try:
        return [str(t) for t in value]
    except TypeError:
        raise ValueError(f"{name}: expected a list of tokens, got {type(value).__name__}") from None


def _map(ori: list[str], dis: list[str]) -> float:
    if not dis:
        return 0.0
    total = 0.0
    for i in range(1, len(dis) + 1):
        prefix = set(ori[:i])
        total += sum(1 for t in dis[:i] if t in prefix) / i
    return total / len(dis)


@register("rationale_map", "consistency", True, (0.0, 1.0), _MAP_SOURCE,
          quirks="membership by token string, repeats count each time; an empty disturbed list gives 0; "
                 "PaddleNLP ranks the list by importance, TrustAI by position (see map_dataset)",
          needs=("ori_tokens", "dis_tokens"))
def map_pair(ori_tokens: Sequence[str], dis_tokens: Sequence[str]) -> float:
    """MAP(o, d) = 1/|d| Σ_i (1/i) Σ_{t ∈ d[:i]} 1[t ∈ o[:i]] over the two ranked rationale token lists."""
    return _map(_tokens(ori_tokens, "ori_tokens"), _tokens(dis_tokens, "dis_tokens"))


@register("rationale_map_dataset", "consistency", True, (0.0, 1.0), _MAP_SOURCE,
          quirks="Σ pair MAP / #gold records of sample_type 'disturb' (missing disturbed predictions count 0); "
                 "averaged over sequences; the original prints ×100 with one decimal; 0 without disturbed records",
          needs=("preds", "golds"), level="dataset")
def map_dataset(preds: Mapping[Any, Sequence[Sequence[str]]], golds: Mapping[Any, Mapping[str, Any]]) -> float:
    """Dataset MAP: every predicted original paired with each of its ``rel_ids`` that was predicted.

    ``preds`` maps id → rationale tokens per sequence (PaddleNLP ``rationale_token``: top-K in importance order;
    TrustAI ``rationale_tokens``: top-5 in position order — build them with :func:`select_rationale`). ``golds``
    maps id → the gold record (``sample_type`` and, for originals, ``rel_ids``).
    """
    if not isinstance(preds, Mapping) or not isinstance(golds, Mapping):
        raise ValueError("preds, golds: expected mappings id -> record")
    for key, rec in golds.items():
        if not isinstance(rec, Mapping) or rec.get("sample_type") not in ("ori", "disturb"):
            raise ValueError(f"golds[{key!r}]: needs sample_type 'ori' or 'disturb'")
        if rec["sample_type"] == "ori" and not isinstance(rec.get("rel_ids", []), Sequence):
            raise ValueError(f"golds[{key!r}]: rel_ids must be a list of ids")
    n_disturb = sum(rec["sample_type"] == "disturb" for rec in golds.values())
    if n_disturb == 0:
        return 0.0
    seqs = {key: [_tokens(s, f"preds[{key!r}][{j}]") for j, s in enumerate(non_empty(v, f"preds[{key!r}]"))]
            for key, v in preds.items()}
    lengths = {len(v) for v in seqs.values()}
    if len(lengths) > 1:
        raise ValueError(f"preds: instances have different numbers of sequences ({sorted(lengths)})")
    n_seq = lengths.pop() if lengths else 1
    total = 0.0
    for key, ori in seqs.items():
        if key not in golds:
            raise ValueError(f"preds[{key!r}]: id not found in golds")
        if golds[key]["sample_type"] != "ori":
            continue
        for rel in golds[key].get("rel_ids", []):
            if rel in seqs:
                total += sum(_map(ori[j], seqs[rel][j]) for j in range(n_seq)) / n_seq
    return total / n_disturb


# --- Ding & Koehn PCC ------------------------------------------------------------------------------------


def clamp_small(scores: Sequence[float] | np.ndarray, rel: float = 0.01) -> np.ndarray:
    """Set scores whose magnitude is below ``rel`` × max|s| to 0 (Ding & Koehn's noise floor)."""
    s = scores_1d(scores, "scores").copy()
    s[np.abs(s) < rel * np.abs(s).max()] = 0.0
    return s


def _pearson(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    if len(a) < 2:
        return float("nan"), float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant input: scipy warns and returns NaN, which we keep
        res = stats.pearsonr(a, b)
    return float(res[0]), float(res[1])


@register("pcc_ding_koehn", "consistency", True, (-1.0, 1.0), _DK_SOURCE,
          quirks="scores below 1% of max|s| are zeroed first; the p-value is ignored; a constant vector gives NaN",
          needs=("a", "b"))
def pcc_ding_koehn(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Pearson r of two position-aligned saliency vectors after clamping small values to 0."""
    x, y = clamp_small(scores_1d(a, "a")), clamp_small(scores_1d(b, "b"))
    same_length(x, y, "a", "b")
    return _pearson(x, y)[0]


@register("pcc_ding_koehn_mean", "consistency", True, (-1.0, 1.0), _DK_SOURCE,
          quirks="returns {pcc, pairs, skipped}: pairs of unequal length are skipped and counted; NaN propagates",
          needs=("pairs",), level="dataset")
def pcc_ding_koehn_mean(pairs: Sequence[tuple[Sequence[float], Sequence[float]]]) -> dict[str, float]:
    """Mean PCC over saliency pairs as Ding & Koehn: pairs of unequal length are skipped and counted.

    Returns ``pcc`` (mean r; NaN propagates, NaN too if no pair is usable), ``pairs`` (used) and ``skipped``.
    """
    rs, skipped = [], 0
    for i, pair in enumerate(non_empty(pairs, "pairs")):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"pairs[{i}]: expected a pair (a, b) of score vectors")
        a, b = scores_1d(pair[0], f"pairs[{i}][0]"), scores_1d(pair[1], f"pairs[{i}][1]")
        if len(a) != len(b):
            skipped += 1
            continue
        rs.append(_pearson(clamp_small(a), clamp_small(b))[0])
    return {"pcc": float(np.mean(rs)) if rs else float("nan"), "pairs": len(rs), "skipped": skipped}


def pcc_groups(groups: Sequence[Sequence[Sequence[float]]]) -> dict[str, float]:
    """Ding & Koehn input faithfulness: in each template group the first vector is the reference."""
    pairs = []
    for i, group in enumerate(non_empty(groups, "groups")):
        members = non_empty(group, f"groups[{i}]")
        pairs.extend((members[0], other) for other in members[1:])
    if not pairs:
        raise ValueError("groups: no group has more than one member, so there is nothing to correlate")
    return pcc_ding_koehn_mean(pairs)


# --- PLM-benchmark PCC with token alignment ----------------------------------------------------------------


def align_tokens(ori_tokens: Sequence[str], dis_tokens: Sequence[str]) -> list[tuple[int | None, int | None]]:
    """Align two token lists (difflib matching blocks): ``(i, j)`` pairs, ``(i, None)`` deleted, ``(None, j)`` inserted.

    A replaced block is paired position by position; the longer side's rest counts as deleted or inserted.
    """
    o, d = _tokens(ori_tokens, "ori_tokens"), _tokens(dis_tokens, "dis_tokens")
    out: list[tuple[int | None, int | None]] = []
    for _, i1, i2, j1, j2 in difflib.SequenceMatcher(a=o, b=d, autojunk=False).get_opcodes():
        n = min(i2 - i1, j2 - j1)
        out.extend((i1 + t, j1 + t) for t in range(n))
        out.extend((i, None) for i in range(i1 + n, i2))
        out.extend((None, j) for j in range(j1 + n, j2))
    return out


def aligned_scores(ori_tokens: Sequence[str], ori_scores: Sequence[float] | np.ndarray, dis_tokens: Sequence[str],
                   dis_scores: Sequence[float] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two score vectors over the token alignment, with 0 for the virtual partner of a deleted/inserted token.
    Tokens may be any iterable of tokens (read once), as in every consistency metric."""
    o, d = _tokens(ori_tokens, "ori_tokens"), _tokens(dis_tokens, "dis_tokens")
    a, b = scores_1d(ori_scores, "ori_scores"), scores_1d(dis_scores, "dis_scores")
    same_length(o, a, "ori_tokens", "ori_scores")
    same_length(d, b, "dis_tokens", "dis_scores")
    pairs = align_tokens(o, d)
    x = np.array([a[i] if i is not None else 0.0 for i, _ in pairs])
    y = np.array([b[j] if j is not None else 0.0 for _, j in pairs])
    return x, y


@register("pcc_aligned", "consistency", True, (-1.0, 1.0), "pretrained-LM rationale benchmark (PCC over aligned tokens)",
          quirks="deleted/inserted tokens meet a virtual token of score 0; NaN for a constant vector or < 2 tokens",
          needs=("attribution", "partner"))
def pcc_aligned(ori_tokens: Sequence[str], ori_scores: Sequence[float] | np.ndarray, dis_tokens: Sequence[str],
                dis_scores: Sequence[float] | np.ndarray) -> float:
    """Pearson r between the original's and the disturbed text's token scores over their alignment."""
    return _pearson(*aligned_scores(ori_tokens, ori_scores, dis_tokens, dis_scores))[0]


@register("pcc_plm", "consistency", True, (-1.0, 1.0), "pretrained-LM rationale benchmark (dataset PCC and MAP*)",
          quirks="returns {pcc, map, significant, pairs}: mean r over the pairs with p < alpha only, MAP* on the "
                 "same pairs; NaN when no pair is significant", needs=("pairs",), level="dataset")
def pcc_plm(pairs: Sequence[Mapping[str, Any]], alpha: float = 0.05, ratio: float | None = None,
            k: int | None = None) -> dict[str, float]:
    """Dataset PCC of the PLM benchmark: mean r over the pairs with p < ``alpha``, and MAP* on the same pairs.

    Each pair is a mapping with ``ori_tokens``, ``ori_scores``, ``dis_tokens``, ``dis_scores``. MAP* ranks each
    side's tokens by score (stable) and keeps the top K (``ratio`` → ceil(n·ratio), or ``k``; all tokens if
    neither is given). Returns ``pcc``, ``map`` (NaN when no pair is significant), ``significant`` and ``pairs``.
    """
    if not 0.0 < alpha <= 1.0:
        raise ValueError(f"alpha: must be in (0, 1], got {alpha!r}")
    rs, maps = [], []
    items = non_empty(pairs, "pairs")
    for i, p in enumerate(items):
        if not isinstance(p, Mapping):
            raise ValueError(f"pairs[{i}]: expected a mapping with ori_tokens, ori_scores, dis_tokens, dis_scores")
        missing = [f for f in ("ori_tokens", "ori_scores", "dis_tokens", "dis_scores") if f not in p]
        if missing:
            raise ValueError(f"pairs[{i}]: missing {', '.join(missing)}")
        try:
            ori, dis = _tokens(p["ori_tokens"], "ori_tokens"), _tokens(p["dis_tokens"], "dis_tokens")  # read once
            x, y = aligned_scores(ori, p["ori_scores"], dis, p["dis_scores"])
        except ValueError as exc:
            raise ValueError(f"pairs[{i}]: {exc}") from None
        r, pval = _pearson(x, y)
        if not pval < alpha:
            continue
        rs.append(r)
        ranked = []
        for toks, sc_key in ((ori, "ori_scores"), (dis, "dis_scores")):
            sel = (select_rationale(p[sc_key], ratio=ratio, k=k) if (ratio is not None or k is not None)
                   else select_rationale(p[sc_key], k=max(len(toks), 1)))
            ranked.append([toks[j] for j in sel])
        maps.append(_map(ranked[0], ranked[1]))
    nan = float("nan")
    return {"pcc": float(np.mean(rs)) if rs else nan, "map": float(np.mean(maps)) if maps else nan,
            "significant": len(rs), "pairs": len(items)}
