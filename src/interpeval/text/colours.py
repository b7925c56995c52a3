"""The one colour convention for signed scores (terminal, HTML export, web app, static report): positive (for the
target) green, negative (against it) red, white at 0. It lives on the lowest floor so that the web app's heatmaps
need not import the explainers (and with them torch and transformers)."""

from __future__ import annotations

POSITIVE_RGB, NEGATIVE_RGB = (0, 150, 60), (210, 30, 30)


def signed_rgb(score: float, scale: float) -> tuple[int, int, int]:
    """White → green for positive scores, white → red for negative ones; intensity ``|score| / scale`` (capped)."""
    t = min(abs(score) / scale, 1.0) if scale > 0 and score == score else 0.0
    colour = POSITIVE_RGB if score >= 0 else NEGATIVE_RGB
    return tuple(round(255 + (c - 255) * t) for c in colour)  # type: ignore[return-value]
