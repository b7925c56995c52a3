"""What a trained head saw: the content hashes of its training and model-selection texts (``lineage.json``).

Training writes the list next to every artifact it makes; every benchmark reads it through :func:`read` and drops
the inputs a head has seen, whatever file they come from, and counts them. One hash serves every benchmark
(:func:`content_hash`: no case, spacing or PTB tokenisation), so a text matches however a file writes it.
What a recipe hashes is written in the file's ``what`` (and in the card): each training / dev input as the
model read it (a pair hashed as one) and each passage read alone (a QA or choice context, a masked-LM paragraph).
A head trained from another zoo head (an overlay on it) has seen that head's texts too: they are included.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpeval.errors import InterpevalError
from interpeval.text.ptb import detokenize_ptb

#: written next to every trained artifact
LINEAGE = "lineage.json"
FORMAT = "interpeval-lineage-1"
HASH = ("interpeval.models.lineage.content_hash: sha1 of the text lower-cased, whitespace collapsed and PTB "
        "tokenisation undone (a pair: both texts joined by a tab), first 16 hex digits")


def _norm(value: str) -> str:
    return " ".join(detokenize_ptb(" ".join(value.split())).split()).lower()


def content_hash(text: str, pair: str | None = None) -> str:
    """A short hash of a text (or text pair) as files write it in different ways."""
    joined = _norm(text) if pair is None else f"{_norm(text)}\t{_norm(pair)}"
    return hashlib.sha1(joined.encode("utf-8")).hexdigest()[:16]


def record(units: Iterable[str | tuple[str, str | None]], what: str) -> dict[str, Any]:
    """The content of :data:`LINEAGE` for ``units`` (texts, or ``(text, pair)`` inputs), with what they are."""
    hashes = {content_hash(*u) if isinstance(u, tuple) else content_hash(u) for u in units}
    return {"format": FORMAT, "hash": HASH, "what": what, "sha1": sorted(hashes)}


@dataclass(frozen=True)
class Lineage:
    """The hashes a model was trained or selected on (empty when it records none: a hub model, an encoder)."""

    model: str
    hashes: frozenset[str]
    what: str

    def seen(self, text: str, pair: str | None = None) -> bool:
        """Whether the input (or passage) ``text`` [+ ``pair``] is one the model trained or was selected on."""
        return bool(self.hashes) and content_hash(text, pair) in self.hashes

    def drop(self, items: Iterable[Any], *units: Any) -> tuple[list[Any], int]:
        """``items`` without those whose any ``unit(item)`` (a text or a ``(text, pair)`` tuple) was seen, and
        how many were dropped."""
        kept, dropped = [], 0
        for item in items:
            keys = [unit(item) for unit in units]
            if any(self.seen(*k) if isinstance(k, tuple) else self.seen(k) for k in keys):
                dropped += 1
            else:
                kept.append(item)
        return kept, dropped

    def note(self, dropped: int, of: str = "inputs") -> str:
        """One line for a run's output: how many were dropped, and on what the count rests."""
        if not self.hashes:
            return f"{self.model} records no training data ({LINEAGE} absent): overlap not checked"
        return f"{dropped} {of} {self.model} trained or was selected on left out ({LINEAGE}: {self.what})"


def read(name_or_path: str) -> Lineage:
    """The lineage of a zoo name or model folder, with that of the zoo head it was trained from (``overlay.json``
    base), if any."""
    from interpeval.models import zoo

    try:
        folder = zoo.folder(name_or_path)
    except InterpevalError:  # a zoo base that is not installed here records nothing
        return Lineage(name_or_path, frozenset(), "")
    hashes: set[str] = set()
    whats = []
    listing = folder / LINEAGE
    if listing.is_file():
        meta = json.loads(listing.read_text(encoding="utf-8"))
        hashes.update(meta["sha1"])
        whats.append(meta.get("what", ""))
    overlay = folder / "overlay.json"
    base = str(json.loads(overlay.read_text()).get("base", "")) if overlay.is_file() else ""
    if base and base != name_or_path and (zoo.artifacts_dir() / base).is_dir():
        parent = read(base)
        hashes |= parent.hashes
        if parent.hashes:
            whats.append(f"and its base {base}'s: {parent.what}")
    return Lineage(Path(name_or_path).name, frozenset(hashes), "; ".join(w for w in whats if w))


def say_trained(model_name: str, texts: Sequence[str]) -> int:
    """Say on stderr how many of ``texts`` ``model_name`` trained or was selected on (its scores on them are not
    held-out scores); returns that count."""
    seen = read(model_name)
    count = sum(seen.seen(text) for text in texts)
    if count:
        print(f"trained on: {count} of {len(texts)} inputs are ones {seen.model} trained or was selected on "
              f"({LINEAGE}); its scores on them are not held-out scores", file=sys.stderr)
    return count


__all__ = ["FORMAT", "LINEAGE", "Lineage", "content_hash", "read", "record", "say_trained"]
