"""Erasure faithfulness: does removing what the explanation calls important change the model's output?

Every metric takes ``score_fn(texts) -> np.ndarray``, the model's probability of the explained target for each
text, and calls it **once**: all perturbed texts of all thresholds are built first, the full text included.
Texts are rebuilt from ``tokens`` joined with ``sep`` (``" "`` English, ``""`` Chinese); ``full_text`` gives the
unperturbed input when it is not simply the joined tokens.

Originals: ERASER (DeYoung et al. 2020) comprehensiveness, sufficiency and AOPC with the 0/1/5/10/20/50 % bins;
ferret 0.5.0 ``aopc_compr`` / ``aopc_suff`` / ``taucorr_loo`` (REFERENCE §5.3); TrustAI ``cal_suf_com`` and PaddleNLP
New-P (§4.4), which work on probabilities and labels already computed.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy import stats

from interpeval.metrics._checks import binary_1d, non_empty, same_length, scores_1d
from interpeval.metrics.base import register
from interpeval.metrics.plausibility import top_k_tokens

ScoreFn = Callable[[list[str]], Any]

_FERRET = "ferret 0.5.0 evaluators/faithfulness_measures.py"
_ERASER = "ERASER, DeYoung et al. 2020 (comprehensiveness, sufficiency, AOPC)"
DEYOUNG_BINS = (0.0, 0.01, 0.05, 0.1, 0.2, 0.5)
FERRET_THRESHOLDS = tuple(np.arange(0.1, 1.1, 0.1).tolist())  # 0.1, 0.2, 0.30000000000000004, ..., 1.0


def _call(score_fn: ScoreFn, texts: list[str]) -> np.ndarray:
    out = np.asarray(score_fn(texts), dtype=float).reshape(-1)
    if out.shape != (len(texts),):
        raise ValueError(f"score_fn: returned {out.size} values for {len(texts)} texts")
    if not np.isfinite(out).all():
        raise ValueError("score_fn: returned a non-finite value")
    return out


def _tokens(tokens: Any) -> list[str]:
    if isinstance(tokens, (str, bytes)):
        raise ValueError("tokens: expected a list of tokens, got a string")
    return [str(t) for t in non_empty(tokens, "tokens")]


def _text(toks: list[str], keep: np.ndarray, sep: str, mask_token: str | None) -> str:
    if mask_token is None:
        return sep.join(t for t, k in zip(toks, keep, strict=True) if k)
    return sep.join(t if k else mask_token for t, k in zip(toks, keep, strict=True))


def _erase(toks: list[str], idx: np.ndarray, mode: str, sep: str, mask_token: str | None) -> str:
    """Text with the tokens ``idx`` removed (``compr``) or with only them kept (``suff``), in position order."""
    chosen = np.zeros(len(toks), dtype=bool)
    chosen[idx] = True
    return _text(toks, ~chosen if mode == "compr" else chosen, sep, mask_token)


def _prepare(tokens: Any, scores: Any) -> tuple[list[str], np.ndarray]:
    toks = _tokens(tokens)
    s = scores_1d(scores, "scores")
    same_length(np.empty(len(toks)), s, "tokens", "scores")
    return toks, s


# --- ERASER ------------------------------------------------------------------------------------------------------


def _hard(tokens: Any, rationale: Any) -> tuple[list[str], np.ndarray]:
    toks = _tokens(tokens)
    r = binary_1d(rationale, "rationale")
    same_length(np.empty(len(toks)), r, "tokens", "rationale")
    return toks, np.flatnonzero(r)


@register("eraser_comprehensiveness", "faithfulness", True, (-1.0, 1.0), _ERASER,
          needs=("tokens", "rationale", "model"))
def comprehensiveness(score_fn: ScoreFn, tokens: Sequence[str], rationale: Sequence[int] | np.ndarray,
                      sep: str = " ", full_text: str | None = None, mask_token: str | None = None) -> float:
    """p(y|x) − p(y|x without the rationale): a faithful rationale hurts the prediction when removed."""
    toks, idx = _hard(tokens, rationale)
    full = sep.join(toks) if full_text is None else full_text
    p = _call(score_fn, [full, _erase(toks, idx, "compr", sep, mask_token)])
    return float(p[0] - p[1])


@register("eraser_sufficiency", "faithfulness", False, (-1.0, 1.0), _ERASER, needs=("tokens", "rationale", "model"))
def sufficiency(score_fn: ScoreFn, tokens: Sequence[str], rationale: Sequence[int] | np.ndarray, sep: str = " ",
                full_text: str | None = None, mask_token: str | None = None) -> float:
    """p(y|x) − p(y|rationale only): a sufficient rationale keeps the prediction on its own (lower is better)."""
    toks, idx = _hard(tokens, rationale)
    full = sep.join(toks) if full_text is None else full_text
    p = _call(score_fn, [full, _erase(toks, idx, "suff", sep, mask_token)])
    return float(p[0] - p[1])


def _aopc_deyoung(mode: str, score_fn: ScoreFn, tokens: Any, scores: Any, bins: Sequence[float], sep: str,
                  full_text: str | None, mask_token: str | None) -> float:
    toks, s = _prepare(tokens, scores)
    bins = list(non_empty(bins, "bins"))
    if any(not 0.0 <= b <= 1.0 for b in bins):
        raise ValueError(f"bins: every bin must be a fraction in [0, 1], got {bins}")
    order = np.argsort(-s, kind="stable")
    full = sep.join(toks) if full_text is None else full_text
    texts = [full] + [_erase(toks, order[: int(b * len(toks))], mode, sep, mask_token) for b in bins]
    p = _call(score_fn, texts)
    return float(np.mean(p[0] - p[1:]))


@register("eraser_aopc_comprehensiveness", "faithfulness", True, (-1.0, 1.0), _ERASER,
          quirks="bins 0, 1, 5, 10, 20, 50 % (the 0 % bin, nothing removed, is averaged in); int(b·n) tokens per bin",
          needs=("attribution", "model"))
def aopc_comprehensiveness(score_fn: ScoreFn, tokens: Sequence[str], scores: Sequence[float] | np.ndarray,
                           bins: Sequence[float] = DEYOUNG_BINS, sep: str = " ", full_text: str | None = None,
                           mask_token: str | None = None) -> float:
    """ERASER AOPC comprehensiveness: mean over bins of p(y|x) − p(y|x without the top b·n tokens)."""
    return _aopc_deyoung("compr", score_fn, tokens, scores, bins, sep, full_text, mask_token)


@register("eraser_aopc_sufficiency", "faithfulness", False, (-1.0, 1.0), _ERASER,
          quirks="bins 0, 1, 5, 10, 20, 50 % (the 0 % bin keeps no token); int(b·n) tokens per bin",
          needs=("attribution", "model"))
def aopc_sufficiency(score_fn: ScoreFn, tokens: Sequence[str], scores: Sequence[float] | np.ndarray,
                     bins: Sequence[float] = DEYOUNG_BINS, sep: str = " ", full_text: str | None = None,
                     mask_token: str | None = None) -> float:
    """ERASER AOPC sufficiency: mean over bins of p(y|x) − p(y|only the top b·n tokens) (lower is better)."""
    return _aopc_deyoung("suff", score_fn, tokens, scores, bins, sep, full_text, mask_token)


# --- ferret -----------------------------------------------------------------------------------------------------


def _ferret_aopc(mode: str, score_fn: ScoreFn, tokens: Any, scores: Any, thresholds: Sequence[float],
                 only_pos: bool, sep: str, full_text: str | None, mask_token: str | None) -> float:
    toks, s = _prepare(tokens, scores)
    n = len(toks)
    selections: list[np.ndarray] = []
    last: frozenset[int] | None = None
    for t in non_empty(thresholds, "thresholds"):
        v = int(t * n)
        if not 0 < v <= n:
            continue
        idx = top_k_tokens(s, v, only_pos)
        if idx is None or frozenset(idx.tolist()) == last:
            continue
        last = frozenset(idx.tolist())
        selections.append(idx)
    if not selections:
        return 0.0 if mode == "compr" else 1.0
    full = sep.join(toks) if full_text is None else full_text
    p = _call(score_fn, [full] + [_erase(toks, idx, mode, sep, mask_token) for idx in selections])
    return float(np.mean(p[0] - p[1:]))


@register("ferret_aopc_compr", "faithfulness", True, (-1.0, 1.0), _FERRET,
          quirks="thresholds 10..100 % (np.arange, int(p·n) tokens), bins of an empty or repeated selection are "
                 "dropped, no 0 % bin; only_pos keeps positive scores; 0 when no bin is left",
          needs=("attribution", "model"))
def ferret_aopc_compr(score_fn: ScoreFn, tokens: Sequence[str], scores: Sequence[float] | np.ndarray,
                      thresholds: Sequence[float] = FERRET_THRESHOLDS, only_pos: bool = True, sep: str = " ",
                      full_text: str | None = None, mask_token: str | None = None) -> float:
    """ferret AOPC comprehensiveness: mean over the kept thresholds of p0 − p(text without the top tokens)."""
    return _ferret_aopc("compr", score_fn, tokens, scores, thresholds, only_pos, sep, full_text, mask_token)


@register("ferret_aopc_suff", "faithfulness", False, (-1.0, 1.0), _FERRET,
          quirks="as ferret_aopc_compr but keeping only the top tokens; 1 (the worst value) when no bin is left",
          needs=("attribution", "model"))
def ferret_aopc_suff(score_fn: ScoreFn, tokens: Sequence[str], scores: Sequence[float] | np.ndarray,
                     thresholds: Sequence[float] = FERRET_THRESHOLDS, only_pos: bool = True, sep: str = " ",
                     full_text: str | None = None, mask_token: str | None = None) -> float:
    """ferret AOPC sufficiency: mean over the kept thresholds of p0 − p(only the top tokens) (lower is better)."""
    return _ferret_aopc("suff", score_fn, tokens, scores, thresholds, only_pos, sep, full_text, mask_token)


@register("ferret_taucorr_loo", "faithfulness", True, (-1.0, 1.0), _FERRET,
          quirks="Kendall tau-b; NaN when either the scores or the leave-one-out effects are constant",
          needs=("attribution", "model"))
def taucorr_loo(score_fn: ScoreFn, tokens: Sequence[str], scores: Sequence[float] | np.ndarray, sep: str = " ",
                full_text: str | None = None, mask_token: str | None = None) -> float:
    """Kendall tau between the scores and each token's leave-one-out effect p0 − p(text without it)."""
    toks, s = _prepare(tokens, scores)
    if len(toks) < 2:
        return float("nan")
    full = sep.join(toks) if full_text is None else full_text
    p = _call(score_fn, [full] + [_erase(toks, np.array([i]), "compr", sep, mask_token) for i in range(len(toks))])
    loo = p[0] - p[1:]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant input: scipy warns and returns NaN
        return float(stats.kendalltau(loo, s)[0])


# --- TrustAI / PaddleNLP (probabilities already computed) ------------------------------------------------------


def _proba_rows(full: Any, other: Any, labels: Any, other_name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    def matrix(v: Any, name: str) -> np.ndarray:
        try:
            m = np.asarray(v, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"{name}: expected a 2-D array of class probabilities") from None
        if m.ndim != 2 or m.shape[0] == 0:
            raise ValueError(f"{name}: expected a non-empty 2-D array (instances × classes), got shape {m.shape}")
        if not np.isfinite(m).all():
            raise ValueError(f"{name}: contains a non-finite value")
        return m

    a, b = matrix(full, "pred_proba"), matrix(other, other_name)
    if a.shape != b.shape:
        raise ValueError(f"pred_proba and {other_name} differ in shape ({a.shape} != {b.shape})")
    y = scores_1d(labels, "pred_label")
    same_length(a, y, "pred_proba", "pred_label")
    if np.any(y != np.round(y)) or np.any(y < 0) or np.any(y >= a.shape[1]):
        raise ValueError(f"pred_label: every label must be an integer class index in 0..{a.shape[1] - 1}")
    return a, b, y.astype(int)


@register("trustai_sufficiency", "faithfulness", False, (-1.0, 1.0), "TrustAI Evaluator.cal_suf_com (f0cc490)",
          needs=("pred_proba", "rationale_pred_proba", "pred_label"), level="dataset")
def trustai_sufficiency(pred_proba: Any, rationale_pred_proba: Any, pred_label: Any) -> float:
    """mean_i (p_full[y_i] − p_rationale[y_i]) with y_i = int(pred_label_i); lower is better."""
    a, b, y = _proba_rows(pred_proba, rationale_pred_proba, pred_label, "rationale_pred_proba")
    rows = np.arange(len(y))
    return float(np.mean(a[rows, y] - b[rows, y]))


@register("trustai_comprehensiveness", "faithfulness", True, (-1.0, 1.0), "TrustAI Evaluator.cal_suf_com (f0cc490)",
          needs=("pred_proba", "non_rationale_pred_proba", "pred_label"), level="dataset")
def trustai_comprehensiveness(pred_proba: Any, non_rationale_pred_proba: Any, pred_label: Any) -> float:
    """mean_i (p_full[y_i] − p_non_rationale[y_i]); higher is better."""
    a, b, y = _proba_rows(pred_proba, non_rationale_pred_proba, pred_label, "non_rationale_pred_proba")
    rows = np.arange(len(y))
    return float(np.mean(a[rows, y] - b[rows, y]))


@register("paddlenlp_newp", "faithfulness", True, (0.0, 1.0),
          "PaddleNLP model_interpretation/evaluation/faithfulness/newp_analysis.py",
          quirks="denominator is the number of gold records (n_golden), so a missing prediction counts 0; "
                 "printed ×100 in the original",
          needs=("pred_label", "rationale_pred", "no_rationale_pred"), level="dataset")
def newp(pred_label: Sequence[int], rationale_pred: Sequence[int], no_rationale_pred: Sequence[int],
         n_golden: int | None = None) -> float:
    """New-P: the share of instances whose rationale alone keeps the label and whose rest alone changes it."""
    y = scores_1d(pred_label, "pred_label")
    r = scores_1d(rationale_pred, "rationale_pred")
    nr = scores_1d(no_rationale_pred, "no_rationale_pred")
    same_length(y, r, "pred_label", "rationale_pred")
    same_length(y, nr, "pred_label", "no_rationale_pred")
    n = len(y) if n_golden is None else n_golden
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < len(y):
        raise ValueError(f"n_golden: must be an integer >= the number of predictions ({len(y)}), got {n_golden!r}")
    return float(np.count_nonzero((r == y) & (nr != y)) / n)
