"""From word scores to a hard rationale, as the Baidu benchmark builds it (REFERENCE §4.1).

Consistency (MAP) and the erasure faithfulness metrics both need the same selection, so it lives here once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np

from interpeval.metrics._checks import positive_int, scores_1d


def rationale_size(n: int, ratio: float, official: bool = True) -> int:
    """K = ceil(n · ratio), the PaddleNLP rationale length (``newp_text_generate.py``).

    QUIRK (``official=True``): the product is taken in floating point, so 100 × 0.07 = 7.000000000000001 gives K = 8.
    ``official=False`` rounds the product to 9 decimals first (K = 7). The benchmark's own ratios are not affected for n < 200.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n: must be an integer >= 0, got {n!r}")
    if not isinstance(ratio, (int, float, np.floating)) or not 0.0 <= float(ratio) <= 1.0:
        raise ValueError(f"ratio: must be a number in [0, 1], got {ratio!r}")
    product = n * float(ratio)
    return math.ceil(product if official else round(product, 9))


def select_rationale(scores: Sequence[float] | np.ndarray, *, ratio: float | None = None, k: int | None = None,
                     order: Literal["importance", "position"] = "importance", official: bool = True) -> np.ndarray:
    """Indices of the top words by score (stable: ties keep ascending position).

    Give ``ratio`` for PaddleNLP (K = ceil(n·ratio), kept in importance order, ``order="importance"``) or ``k`` for
    TrustAI (top ``rationale_num`` = 5, re-sorted by position, ``order="position"``). ``official`` is passed to
    :func:`rationale_size`.
    """
    s = scores_1d(scores, "scores", allow_empty=True)
    if (ratio is None) == (k is None):
        raise ValueError("ratio, k: give exactly one of them")
    size = rationale_size(len(s), ratio, official) if ratio is not None else min(positive_int(k, "k"), len(s))
    if order not in ("importance", "position"):
        raise ValueError(f"order: must be 'importance' or 'position', got {order!r}")
    idx = np.argsort(-s, kind="stable")[:size]
    return np.sort(idx) if order == "position" else idx


def rationale_texts(tokens: Sequence[str], rationale: Sequence[int] | np.ndarray, sep: str = " ") -> tuple[str, str]:
    """The rationale-only and the rationale-free texts that PaddleNLP re-predicts (``newp_text_generate.py``).

    Tokens are put back in position order, stripped and joined with ``sep`` (``""`` for Chinese, ``" "`` for
    English); an empty text becomes ``"['UNK']"`` as in the original.
    """
    toks = list(tokens)
    chosen = set()
    for pos, i in enumerate(np.asarray(rationale, dtype=int).tolist()):
        if not 0 <= i < len(toks):
            raise ValueError(f"rationale: element {pos} is {i}, outside 0..{len(toks) - 1}")
        chosen.add(i)

    def join(indices: list[int]) -> str:
        return sep.join(str(toks[i]).strip() for i in indices) or "['UNK']"

    return join(sorted(chosen)), join([i for i in range(len(toks)) if i not in chosen])
