"""The Attribution noun: one score per model token, with everything needed to map it back to text.

An explainer returns one :class:`Attribution` per input. Scores live on the model's own tokens (subwords, special
tokens included); words and sentences are derived on demand with the equal-share rule of REFERENCE §4.1, so every
benchmark aggregates the same way and an Attribution can be stored once and re-aggregated later.
"""

from __future__ import annotations

import html as _html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from rich.text import Text

from interpeval.text.align import Span, equal_shares, whitespace_spans, word_spans
from interpeval.text.colours import NEGATIVE_RGB, POSITIVE_RGB, signed_rgb  # noqa: F401 — re-exported

AGGREGATIONS = ("sum", "max", "mean")


@dataclass
class Attribution:
    """Per-token scores of one input.

    ``offsets`` are character spans into the token's own segment (``text`` for segment 0, ``pair`` for segment 1);
    ``segments`` is -1 for special tokens, 0 for the text and 1 for the pair. ``target`` is the resolved target
    (name, index, token_ids), ``method``/``params`` name the explainer and its parameters, ``model`` the model.
    """

    text: str
    pair: str | None
    tokens: list[str]
    offsets: list[tuple[int, int]]
    segments: list[int]
    scores: np.ndarray
    target: dict[str, Any] = field(default_factory=dict)
    method: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    model: str = ""

    def __post_init__(self) -> None:
        self.tokens = list(self.tokens)
        self.offsets = [(int(a), int(b)) for a, b in self.offsets]
        self.segments = [int(s) for s in self.segments]
        self.scores = np.asarray(self.scores, dtype=np.float64).reshape(-1)
        n = len(self.tokens)
        for name, value in (("offsets", self.offsets), ("segments", self.segments), ("scores", self.scores)):
            if len(value) != n:
                raise ValueError(f"Attribution: {name} has {len(value)} entries but tokens has {n}")
        bad = sorted({s for s in self.segments if s not in (-1, 0, 1)})
        if bad:
            raise ValueError(f"Attribution: segments must be -1, 0 or 1, got {bad}")
        if 1 in self.segments and self.pair is None:
            raise ValueError("Attribution: tokens of segment 1 but no pair text")

    # ------------------------------------------------------------------------------------------------ views
    def segment_text(self, segment: int = 0) -> str:
        """The text that the offsets of ``segment`` point into."""
        if segment == 0:
            return self.text
        if segment == 1 and self.pair is not None:
            return self.pair
        raise ValueError(f"no text for segment {segment} (0 = text, 1 = pair)")

    def select(self, segment: int) -> Attribution:
        """Only the tokens of one segment (0 text, 1 pair, -1 special), e.g. the context of a QA input."""
        keep = [i for i, s in enumerate(self.segments) if s == segment]
        return replace(self, tokens=[self.tokens[i] for i in keep], offsets=[self.offsets[i] for i in keep],
                       segments=[segment] * len(keep), scores=self.scores[keep])

    def normalized(self, order: int = 1) -> Attribution:
        """Scores divided by their L-``order`` norm (ferret's ``normalize_scores``; unchanged when the norm is 0)."""
        norm = float(np.linalg.norm(self.scores, ord=order))
        return self if norm == 0 else replace(self, scores=self.scores / norm)

    # ------------------------------------------------------------------------------------------------ aggregation
    def _spans(self, spans: Sequence[Span] | Sequence[str] | None, segment: int) -> list[Span]:
        text = self.segment_text(segment)
        if spans is None:
            return whitespace_spans(text)
        spans = list(spans)
        if spans and all(isinstance(s, str) for s in spans):
            return word_spans(text, spans)  # type: ignore[arg-type]
        out = []
        for i, span in enumerate(spans):
            if isinstance(span, str) or len(span) != 2 or not 0 <= span[0] <= span[1] <= len(text):
                raise ValueError(f"span {i} ({span!r}) is not a (start, end) character span of a "
                                 f"{len(text)}-character text")
            out.append((int(span[0]), int(span[1])))
        return out

    def _aggregate(self, spans: list[Span], agg: str, segment: int) -> np.ndarray:
        if agg not in AGGREGATIONS:
            raise ValueError(f"agg must be one of {AGGREGATIONS}, got {agg!r}")
        mine = [i for i, s in enumerate(self.segments) if s == segment]
        shares = equal_shares([self.offsets[i] for i in mine], spans)  # [tokens, spans]
        scores = self.scores[mine]
        if agg == "sum":
            return shares.T @ scores
        hit = shares > 0
        values = np.where(hit, shares * scores[:, None], np.nan)
        count = hit.sum(axis=0)
        out = np.zeros(len(spans))
        has = count > 0
        if agg == "max":  # max(l, default=0): a span without tokens gets 0
            out[has] = np.nanmax(values[:, has], axis=0)
        else:
            out[has] = np.nansum(values[:, has], axis=0) / count[has]
        return out

    def to_words(self, spans: Sequence[Span] | Sequence[str] | None = None, agg: str = "sum",
                 segment: int = 0) -> np.ndarray:
        """One score per word of ``segment``.

        ``spans`` are character spans, or a word list located left to right with ``find`` (PaddleNLP), or ``None``
        for the whitespace words. A subword's score is split equally among all words it overlaps; a word's score
        is the ``agg`` (sum, max or mean) of its shares — with ``sum`` exactly REFERENCE §4.1. A word that no
        token overlaps gets 0.
        """
        return self._aggregate(self._spans(spans, segment), agg, segment)

    def to_sentences(self, spans: Sequence[Span], agg: str = "sum", segment: int = 0) -> np.ndarray:
        """One score per sentence span of ``segment``: ``sum`` / ``max`` / ``mean`` of the token shares.

        An empty sentence gets 0 for every ``agg`` (QUACKIE's ``max(l, default=0)``).
        """
        return self._aggregate(self._spans(spans, segment), agg, segment)

    def top_k(self, k: int, include_special: bool = False) -> np.ndarray:
        """Indices of the ``k`` highest-scoring tokens, highest first; ties keep the lower index first."""
        if k < 0:
            raise ValueError(f"k must be >= 0, got {k}")
        order = np.argsort(-self.scores, kind="stable")
        if not include_special:
            order = order[np.asarray(self.segments)[order] != -1]
        return order[:k]

    # ------------------------------------------------------------------------------------------------ storage
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (what :meth:`save` writes)."""
        return {"text": self.text, "pair": self.pair, "tokens": self.tokens, "offsets": [list(o) for o in self.offsets],
                "segments": self.segments, "scores": self.scores.tolist(), "target": self.target,
                "method": self.method, "params": self.params, "model": self.model}

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "<dict>") -> Attribution:
        """Inverse of :meth:`to_dict`; a missing field is reported with ``source``."""
        missing = [k for k in ("text", "tokens", "offsets", "segments", "scores") if k not in data]
        if missing:
            raise ValueError(f"{source}: not an Attribution, missing {', '.join(missing)}")
        return cls(text=data["text"], pair=data.get("pair"), tokens=data["tokens"],
                   offsets=[tuple(o) for o in data["offsets"]], segments=data["segments"],
                   scores=np.asarray(data["scores"], dtype=np.float64), target=data.get("target", {}),
                   method=data.get("method", ""), params=data.get("params", {}), model=data.get("model", ""))

    def save(self, path: str | Path) -> None:
        """Write JSON (floats round-trip exactly)."""
        Path(path).write_text(json.dumps(self.to_dict(), ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Attribution:
        """Read what :meth:`save` wrote."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise ValueError(f"{path}: line {err.lineno}: not valid JSON ({err.msg})") from None
        return cls.from_dict(data, source=str(path))

    # ------------------------------------------------------------------------------------------------ display
    def _pieces(self) -> list[tuple[int, str, float | None]]:
        """(segment, text piece, score or None for the gaps between tokens) in reading order, specials skipped."""
        pieces: list[tuple[int, str, float | None]] = []
        for segment in (0, 1):
            if segment not in self.segments:
                continue
            text = self.segment_text(segment)
            pos = 0
            for i in sorted((i for i, s in enumerate(self.segments) if s == segment), key=lambda i: self.offsets[i]):
                start, end = self.offsets[i]
                if end <= pos:  # empty or already covered (overlapping offsets)
                    continue
                start = max(start, pos)
                if start > pos:
                    pieces.append((segment, text[pos:start], None))
                pieces.append((segment, text[start:end], float(self.scores[i])))
                pos = end
            if pos < len(text):
                pieces.append((segment, text[pos:], None))
        return pieces

    def _colour(self, score: float, scale: float) -> tuple[int, int, int]:
        return signed_rgb(score, scale)

    def html(self) -> str:
        """A self-contained HTML heatmap (inline styles only); hover a token to see its score."""
        scale = float(np.abs(self.scores[np.asarray(self.segments) != -1]).max(initial=0.0))
        title = _html.escape(f"{self.method} {self.params} on {self.model} — target {self.target}")
        parts = [f'<div class="interpeval-attribution" title="{title}" '
                 'style="font-family:sans-serif;line-height:1.8;white-space:pre-wrap">']
        segment = 0
        for seg, piece, score in self._pieces():
            if seg != segment:
                parts.append('<span style="color:#888"> ‖ </span>')
                segment = seg
            if score is None:
                parts.append(_html.escape(piece))
            else:
                r, g, b = self._colour(score, scale)
                parts.append(f'<span style="background:rgb({r},{g},{b});border-radius:3px" '
                             f'title="{score:.4g}">{_html.escape(piece)}</span>')
        parts.append("</div>")
        return "".join(parts)

    def rich(self) -> Text:
        """A rich ``Text`` heatmap for the terminal (the colours of :meth:`html` and the web app)."""
        scale = float(np.abs(self.scores[np.asarray(self.segments) != -1]).max(initial=0.0))
        out = Text()
        segment = 0
        for seg, piece, score in self._pieces():
            if seg != segment:
                out.append(" ‖ ", style="dim")
                segment = seg
            if score is None:
                out.append(piece)
            else:
                r, g, b = self._colour(score, scale)
                out.append(piece, style=f"black on rgb({r},{g},{b})")
        return out
