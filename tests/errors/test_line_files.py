"""Line files: `attribute FILE` and `evaluate --file` (.txt, .tsv, .jsonl) built from the shipped SST-2 sentences.

Every case fails before a model is loaded and before the store is opened.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from clear_errors import SRC_DATA, Case, assert_clear

SST2 = SRC_DATA / "sentences" / "sst2-dev-20.tsv"
ROWS = [line.split("\t") for line in SST2.read_text(encoding="utf-8").splitlines()[1:]]
SENTENCES = [sentence.strip() for sentence, _ in ROWS]


def _attribute(folder: Path, path: Path) -> list[str]:
    return ["attribute", str(path), "--store", str(folder / "s.sqlite")]


def _evaluate(folder: Path, path: Path) -> list[str]:
    return ["evaluate", "--file", str(path), "--model", "tiny-sequence-classification", "--store",
            str(folder / "s.sqlite")]


def _text_case(name: str, command, make, *must: str) -> Case:
    """``make(folder) -> (path, 1-based line or 0)`` writes the file."""
    def build(folder: Path) -> tuple[list[str], list[str]]:
        path, line = make(folder)
        return command(folder, path), [str(path), *([f"line {line}"] if line else []), *must]
    return Case(f"{command.__name__.strip('_')}-{name}", build)


def _txt(payload: bytes, line: int, name: str = "lines.txt"):
    def make(folder: Path) -> tuple[Path, int]:
        path = folder / name
        path.write_bytes(payload)
        return path, line
    return make


_TEXT = "\n".join(SENTENCES).encode("utf-8") + b"\n"
_AT = _TEXT.index(b"\n", 200) + 5
_LATIN1 = _TEXT[:_AT] + b"\xe9" + _TEXT[_AT:]
_LATIN1_LINE = _TEXT[:_AT].count(b"\n") + 1

CASES: list[Case] = []
for command in (_attribute, _evaluate):
    CASES += [
        _text_case("non-utf8", command, _txt(_LATIN1, _LATIN1_LINE), "UTF-8"),
        _text_case("gzip", command, _txt(gzip.compress(_TEXT, mtime=0), 1), ""),
        _text_case("utf16", command, _txt("\n".join(SENTENCES).encode("utf-16"), 1), "UTF-16"),
        _text_case("nul-byte", command, _txt(_TEXT[:100] + b"\0" + _TEXT[100:], _TEXT[:100].count(b"\n") + 1),
                   "NUL"),
        _text_case("empty", command, _txt(b"", 0), "no"),
        _text_case("blank-lines", command, _txt(b"\n  \n\t\n", 0), "no"),
    ]


def _tsv(lines: list[str], line: int):
    def make(folder: Path) -> tuple[Path, int]:
        path = folder / "inputs.tsv"
        path.write_text("".join(lines), encoding="utf-8")
        return path, line
    return make


def _jsonl(records: list[str], line: int):
    def make(folder: Path) -> tuple[Path, int]:
        path = folder / "inputs.jsonl"
        path.write_text("".join(r + "\n" for r in records), encoding="utf-8")
        return path, line
    return make


_TSV = SST2.read_text(encoding="utf-8").splitlines(keepends=True)
_RECORDS = [json.dumps({"id": f"sst2-{i}", "text": s}) for i, s in enumerate(SENTENCES)]
CASES += [
    _text_case("tsv-no-text-column", _evaluate, _tsv(["phrase\tlabel\n", *_TSV[1:]], 1), "text or sentence"),
    _text_case("tsv-extra-field", _evaluate, _tsv([*_TSV[:5], _TSV[5].rstrip("\n") + "\textra\n", *_TSV[6:]], 6),
               "fields"),
    _text_case("tsv-missing-field", _evaluate, _tsv([*_TSV[:3], "no label here\n", *_TSV[4:]], 4), "fields"),
    _text_case("jsonl-broken", _evaluate, _jsonl([*_RECORDS[:4], _RECORDS[4][:-3], *_RECORDS[5:]], 5), "JSON"),
    _text_case("jsonl-text-number", _evaluate, _jsonl([*_RECORDS[:2], json.dumps({"id": "x", "text": 12})], 3),
               "text"),
    _text_case("jsonl-list", _evaluate, _jsonl([*_RECORDS[:6], json.dumps(SENTENCES[:2])], 7), "object"),
    _text_case("jsonl-rationale-length", _evaluate,
               _jsonl([json.dumps({"text": SENTENCES[1], "rationale": [1, 0]}), *_RECORDS[2:]], 1), "rationale"),
    _text_case("jsonl-rationale-values", _evaluate,
               _jsonl([json.dumps({"text": "bleak and desperate", "rationale": [1, 2, 0]})], 1), "rationale"),
    _text_case("jsonl-duplicate-id", _evaluate, _jsonl([*_RECORDS[:3], _RECORDS[1]], 0), "'sst2-1' occurs twice"),
]


def _folder_case(command) -> Case:
    def build(folder: Path) -> tuple[list[str], list[str]]:
        (folder / "dir.txt").mkdir()
        return command(folder, folder / "dir.txt"), [str(folder / "dir.txt")]
    return Case(f"{command.__name__.strip('_')}-folder", build)


def _missing_case(command) -> Case:
    return Case(f"{command.__name__.strip('_')}-missing",
                lambda d: (command(d, d / "none.txt"), [str(d / "none.txt")]))


CASES += [_folder_case(_attribute), _folder_case(_evaluate), _missing_case(_attribute), _missing_case(_evaluate)]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_malformed_line_file_is_a_clear_error(case, tmp_path):
    assert_clear(case, tmp_path)
    assert not (tmp_path / "s.sqlite").exists()
