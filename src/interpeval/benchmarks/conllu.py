"""Streaming CoNLL-U reader, shared by probing's UD conversion and the masked-LM grammar builder: one pass over the
lines, only the fields the converter needs, strict validation.

``conllu.parse`` builds a dict per token and a tree per sentence, which caps a full UD release at hours; this
reader splits each line once and keeps plain lists, so a 26 M-token release is read in minutes. Malformed input
raises :class:`~interpeval.errors.DataError` naming the file and line, or, with ``skip_bad=True``, the whole
sentence is skipped and counted in :class:`ReadStats` (never a silent drop).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from interpeval.errors import DataError
from interpeval.validate import UTF16

_INT = re.compile(r"0|[1-9][0-9]*")
_RANGE = re.compile(r"[1-9][0-9]*-[1-9][0-9]*")
_DECIMAL = re.compile(r"[0-9]+\.[1-9][0-9]*")
_FEATURE_KEY = re.compile(r"[A-Za-z0-9]+(\[[a-z0-9]+\])?")
_METADATA_KEEP_WITHOUT_VALUE = ("newdoc", "newpar")
COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")


@dataclass(slots=True)
class Sentence:
    """One sentence: syntactic words only (multiword ranges and empty nodes are not in the tree).

    ``words`` holds ``(id, form, upos, feats, head, deprel, space_after)`` with ``feats`` a dict (maybe empty);
    ``children[i]`` lists the dependents of word ``i`` in sentence order (``children[0]`` are the roots) and
    ``depth[i]`` is the distance of word ``i`` from the virtual root (roots have depth 1); ``extra`` keeps
    ``(upos, feats, deprel)`` of multiword-token and empty-node lines, whose FEATS the original also collects.
    ``metadata`` follows ``conllu``'s rules (``key = value`` comments with a non-empty value, plus ``newdoc`` /
    ``newpar``), because the official converter decides "has metadata" with them.
    """

    line: int
    metadata: dict[str, str | None]
    words: list[tuple[int, str, str, dict[str, str], int, str, bool]]
    children: list[list[int]]
    depth: list[int]
    extra: list[tuple[str, dict[str, str], str]] = field(default_factory=list)

    @property
    def text(self) -> str | None:
        return self.metadata.get("text")

    def surface(self) -> str:
        """``# text`` if present, else the word forms joined by the MISC ``SpaceAfter=No`` rule."""
        text = self.text
        if text:
            return text
        return "".join(form + (" " if space else "") for _, form, _, _, _, _, space in self.words).strip()

    def preorder(self) -> list[int]:
        """Word IDs in depth-first pre-order from the root, dependents in sentence order (the original's search)."""
        order: list[int] = []
        stack = list(reversed(self.children[0]))
        while stack:
            wid = stack.pop()
            order.append(wid)
            stack.extend(reversed(self.children[wid]))
        return order

    def by_depth(self) -> list[int]:
        """Word IDs by true tree depth (closest to the root first), ties broken by sentence position."""
        depth = self.depth
        return sorted(range(1, len(depth)), key=lambda wid: (depth[wid], wid))


@dataclass
class ReadStats:
    """What a read saw: sentences kept, sentences skipped as malformed (with the first reasons), words."""

    sentences: int = 0
    words: int = 0
    skipped: int = 0
    reasons: list[str] = field(default_factory=list)

    def add_skip(self, reason: str) -> None:
        self.skipped += 1
        if len(self.reasons) < 20:
            self.reasons.append(reason)


def parse_feats(value: str, path: str | os.PathLike[str], line: int) -> dict[str, str]:
    """Parse ``Key=Val|Key2=Val`` (layered keys such as ``Gender[psor]`` allowed); ``_`` is empty."""
    if value == "_":
        return {}
    feats: dict[str, str] = {}
    for part in value.split("|"):
        key, eq, val = part.partition("=")
        if not eq or not val or not _FEATURE_KEY.fullmatch(key):
            raise DataError(path, f"line {line}", f"broken FEATS {value!r}: {part!r} is not Key=Value")
        if key in feats:
            raise DataError(path, f"line {line}", f"broken FEATS {value!r}: {key} is given twice")
        feats[key] = val
    return feats


def _parse_comment(line: str, metadata: dict[str, str | None]) -> None:
    """Store a comment the way ``conllu.parse_comment_line`` does (first '=' splits, both sides stripped)."""
    key, eq, value = line[1:].partition("=")
    key = key.strip()
    value_or_none = value.strip() if eq else None
    if key in _METADATA_KEEP_WITHOUT_VALUE or (key and value_or_none):
        metadata[key] = value_or_none


def _finish(path: str | os.PathLike[str], start: int, metadata: dict[str, str | None],
            rows: list[tuple[int, list[str]]], extra: list[tuple[str, dict[str, str], str]]) -> Sentence:
    words = []
    for expected, (lineno, cols) in enumerate(rows, start=1):
        wid = int(cols[0])
        if wid != expected:
            raise DataError(path, f"line {lineno}", f"word ID {wid} out of sequence (expected {expected})")
        head_text = cols[6]
        if not _INT.fullmatch(head_text):
            raise DataError(path, f"line {lineno}", f"bad HEAD {head_text!r} (expected a word ID or 0)")
        words.append((wid, cols[1], cols[3], parse_feats(cols[5], path, lineno), int(head_text), cols[7],
                      "SpaceAfter=No" not in cols[9]))
    if not words:
        raise DataError(path, f"line {start}", "sentence has no words")
    n = len(words)
    for (lineno, _), word in zip(rows, words, strict=True):
        if word[4] > n:
            raise DataError(path, f"line {lineno}", f"HEAD {word[4]} points outside the sentence of {n} words")
        if word[4] == word[0]:
            raise DataError(path, f"line {lineno}", f"word {word[0]} is its own HEAD")
    children: list[list[int]] = [[] for _ in range(n + 1)]
    for word in words:
        children[word[4]].append(word[0])
    if not children[0]:
        raise DataError(path, f"line {start}", "sentence has no root (no word with HEAD 0)")
    if len(children[0]) > 1:
        first, second = children[0][:2]
        raise DataError(path, f"line {rows[second - 1][0]}", f"second root: word {second} has HEAD 0 like word "
                        f"{first} (line {rows[first - 1][0]}); a sentence has exactly one root")
    depth = [0] * (n + 1)
    frontier, seen = children[0], len(children[0])
    level = 1
    while frontier:
        nxt = []
        for wid in frontier:
            depth[wid] = level
            nxt.extend(children[wid])
        seen += len(nxt)
        frontier, level = nxt, level + 1
    if seen != n:
        raise DataError(path, f"line {start}", "HEAD links form a cycle: some words are not reachable from the root")
    return Sentence(start, metadata, words, children, depth, extra)


def read_conllu(path: str | os.PathLike[str], skip_bad: bool = False,
                stats: ReadStats | None = None) -> Iterator[Sentence]:
    """Yield the sentences of one CoNLL-U file in order; see the module docstring for error handling.

    A line that is not UTF-8 is malformed like any other (named by its line; skipped with its sentence under
    ``skip_bad``). A file without any sentence is an error, and so is one whose sentences were all skipped.
    """
    stats = stats if stats is not None else ReadStats()
    metadata: dict[str, str | None] = {}
    rows: list[tuple[int, list[str]]] = []
    extra: list[tuple[str, dict[str, str], str]] = []
    start = 0
    bad: str | None = None
    kept, skipped = stats.sentences, stats.skipped
    with _open(path) as handle:
        lineno = 0
        for lineno, raw in enumerate(handle, start=1):  # noqa: B007 - lineno is used after the loop
            try:
                line = _decode(raw, path, lineno)
            except DataError as err:
                if not skip_bad:
                    raise
                start, bad = start or lineno, bad or str(err)
                continue
            if not line.strip():
                if rows or metadata or bad:
                    sentence = _close(path, start, metadata, rows, extra, bad, skip_bad, stats)
                    if sentence is not None:
                        yield sentence
                metadata, rows, extra, start, bad = {}, [], [], 0, None
                continue
            if not start:
                start = lineno
            if bad:
                continue
            if line.startswith("#"):
                _parse_comment(line.strip(), metadata)
                continue
            try:
                _add_line(path, lineno, line, rows, extra)
            except DataError as err:
                if not skip_bad:
                    raise
                bad = str(err)
        if rows or metadata or bad:
            sentence = _close(path, start, metadata, rows, extra, bad, skip_bad, stats)
            if sentence is not None:
                yield sentence
    if stats.sentences == kept:
        if stats.skipped == skipped:
            raise DataError(path, None, "holds no sentences (an empty CoNLL-U file)")
        raise DataError(path, None, f"no usable sentence: all {stats.skipped - skipped} were malformed "
                                    f"(first: {stats.reasons[0] if stats.reasons else '?'})")


def _open(path: str | os.PathLike[str]) -> BinaryIO:
    """The file opened for reading bytes; a folder or a missing file is a DataError naming it."""
    if os.path.isdir(path):
        raise DataError(path, None, "is a folder, not a CoNLL-U file")
    try:
        return open(path, "rb")
    except OSError as err:
        raise DataError(path, None, f"cannot be read ({err.strerror})") from None


def _decode(raw: bytes, path: str | os.PathLike[str], lineno: int) -> str:
    """One line as text without its line end; not UTF-8 or a NUL byte (binary data) is a DataError."""
    if lineno == 1 and raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DataError(path, "line 1", UTF16)
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DataError(path, f"line {lineno}", f"is not UTF-8 text (byte 0x{raw[err.start]:02x} at column "
                                                f"{err.start + 1})") from None
    if "\0" in line:
        raise DataError(path, f"line {lineno}", "holds a NUL byte: a binary file, not CoNLL-U text")
    if lineno == 1:
        line = line.removeprefix("\ufeff")
    return line.rstrip("\r\n")


def _add_line(path: str | os.PathLike[str], lineno: int, line: str, rows: list[tuple[int, list[str]]],
              extra: list[tuple[str, dict[str, str], str]]) -> None:
    cols = line.split("\t")
    if len(cols) != 10:
        raise DataError(path, f"line {lineno}", f"expected 10 tab-separated columns, found {len(cols)}")
    if "" in cols:
        raise DataError(path, f"line {lineno}", f"empty {COLUMNS[cols.index('')]} column (write '_' for none)")
    wid = cols[0]
    if _INT.fullmatch(wid) and wid != "0":
        rows.append((lineno, cols))
    elif _RANGE.fullmatch(wid):
        first, last = map(int, wid.split("-"))
        if last < first:
            raise DataError(path, f"line {lineno}", f"bad ID range {wid!r}")
        extra.append((cols[3], parse_feats(cols[5], path, lineno), cols[7]))
    elif _DECIMAL.fullmatch(wid):
        extra.append((cols[3], parse_feats(cols[5], path, lineno), cols[7]))
    else:
        raise DataError(path, f"line {lineno}", f"bad ID {wid!r} (expected N, N-M or N.M)")


def _close(path: str | os.PathLike[str], start: int, metadata: dict[str, str | None],
           rows: list[tuple[int, list[str]]], extra: list[tuple[str, dict[str, str], str]], bad: str | None,
           skip_bad: bool,
           stats: ReadStats) -> Sentence | None:
    if bad is None:
        try:
            sentence = _finish(path, start, metadata, rows, extra)
        except DataError as err:
            if not skip_bad:
                raise
            bad = str(err)
        else:
            stats.sentences += 1
            stats.words += len(sentence.words)
            return sentence
    stats.add_skip(bad)
    return None
