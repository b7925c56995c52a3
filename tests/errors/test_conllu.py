"""CoNLL-U: malformed copies of the shipped UD files through `interpeval probing convert` name the file and line."""

from __future__ import annotations

import gzip
import json
import pickle
from pathlib import Path

import pytest
from clear_errors import SRC_DATA, Case, assert_clear, run_cli

from interpeval.benchmarks.conllu import ReadStats, read_conllu
from interpeval.errors import DataError

HINDI = SRC_DATA / "ud" / "UD_Hindi-PUD" / "hi_pud-ud-test.conllu"
ENGLISH_DEV = SRC_DATA / "ud" / "UD_English-EWT" / "en_ewt-ud-dev.conllu"
COLUMN = {name: i for i, name in enumerate(("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL",
                                             "DEPS", "MISC"))}


def _sentences(path: Path, n: int) -> list[str]:
    """The first ``n`` sentences of a real file, as lines with their ends."""
    lines, seen = [], 0
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        lines.append(line)
        if not line.strip():
            seen += 1
            if seen == n:
                break
    return lines


def _word_line(lines: list[str], k: int) -> int:
    """Index of the ``k``-th plain word line (0-based) of ``lines``."""
    words = [i for i, line in enumerate(lines) if line[:1].isdigit() and line.split("\t")[0].isdigit()]
    return words[k]


def _slice(folder: Path, edit=None, name: str = "hi_pud-ud-test.conllu", n: int = 12) -> tuple[Path, int]:
    """A copy of the first ``n`` Hindi sentences, edited by ``edit(lines) -> 1-based line number``."""
    lines = _sentences(HINDI, n)
    line = edit(lines) if edit else 0
    path = folder / name
    path.write_text("".join(lines), encoding="utf-8")
    return path, line


def _set(k: int, column: str, value: str):
    def edit(lines: list[str]) -> int:
        i = _word_line(lines, k)
        cols = lines[i].rstrip("\n").split("\t")
        cols[COLUMN[column]] = value
        lines[i] = "\t".join(cols) + "\n"
        return i + 1
    return edit


def _convert_case(name: str, edit, *must: str, extra: tuple[str, ...] = ()) -> Case:
    def build(folder: Path) -> tuple[list[str], list[str]]:
        path, line = _slice(folder, edit)
        return (["probing", "convert", str(path), "-o", str(folder / "out"), "--workers", "1", *extra],
                [str(path), f"line {line}", *must])
    return Case(name, build)


def _replace_line(k: int, text: str):
    def edit(lines: list[str]) -> int:
        i = _word_line(lines, k)
        lines[i] = text
        return i + 1
    return edit


def _drop_field(lines: list[str]) -> int:
    i = _word_line(lines, 20)
    lines[i] = "\t".join(lines[i].split("\t")[:-1]) + "\n"
    return i + 1


def _spaces(lines: list[str]) -> int:
    i = _word_line(lines, 3)
    lines[i] = lines[i].replace("\t", " ")
    return i + 1


def _two_roots(lines: list[str]) -> int:
    i = _word_line(lines, 0)  # word 1 of sentence 1 ("“", HEAD 16) becomes a second root
    cols = lines[i].split("\t")
    cols[6], cols[7] = "0", "root"
    lines[i] = "\t".join(cols)
    return i + 1


def _cycle(lines: list[str]) -> int:
    # sentence 1: word 16 is the root; point it at word 4, whose head is 16: no root is left
    i = next(j for j, line in enumerate(lines) if line.startswith("16\t"))
    cols = lines[i].split("\t")
    cols[6], cols[7] = "4", "obl"
    lines[i] = "\t".join(cols)
    return 1


def _no_text(lines: list[str]) -> int:
    lines[:] = [line for line in lines if not line.startswith("# text =")]
    return 1


def _truncated(lines: list[str]) -> int:
    i = _word_line(lines, 30)
    lines[i] = lines[i][:15] + "\n"
    del lines[i + 1:]
    return i + 1


CASES = [
    _convert_case("missing-column", _drop_field, "columns"),
    _convert_case("spaces-for-tabs", _spaces, "columns"),
    _convert_case("truncated-file", _truncated, "columns"),
    _convert_case("empty-upos", _set(5, "UPOS", ""), "UPOS"),
    _convert_case("empty-deprel", _set(7, "DEPREL", ""), "DEPREL"),
    _convert_case("empty-form", _set(2, "FORM", ""), "FORM"),
    _convert_case("two-roots", _two_roots, "root"),
    _convert_case("head-outside", _set(4, "HEAD", "99"), "HEAD"),
    _convert_case("head-not-a-number", _set(4, "HEAD", "x"), "HEAD"),
    _convert_case("head-negative", _set(4, "HEAD", "-1"), "HEAD"),
    _convert_case("own-head", _set(3, "HEAD", "4"), "own HEAD"),
    _convert_case("bad-id", _set(6, "ID", "a"), "ID"),
    _convert_case("id-out-of-sequence", _set(6, "ID", "9"), "out of sequence"),
    _convert_case("broken-feats", _set(2, "FEATS", "Animacy"), "FEATS"),
    _convert_case("feats-without-value", _set(2, "FEATS", "Case=|Number=Sing"), "FEATS"),
    _convert_case("feats-key-twice", _set(2, "FEATS", "Case=Acc|Case=Nom"), "Case is given twice"),
    _convert_case("no-root-cycle", _cycle, "root"),
    _convert_case("bad-range", _replace_line(8, "5-3\tx\t_\t_\t_\t_\t_\t_\t_\t_\n"), "range"),
    _convert_case("official-no-text", _no_text, "# text", extra=("--official",)),
]


def _bytes_case(name: str, make, *must: str) -> Case:
    def build(folder: Path) -> tuple[list[str], list[str]]:
        path = folder / "hi_pud-ud-test.conllu"
        line = make(path)
        return ["probing", "convert", str(path), "-o", str(folder / "out"), "--workers", "1"], \
            [str(path), *([f"line {line}"] if line else []), *must]
    return Case(name, build)


def _latin1_byte(path: Path) -> int:
    data = bytearray("".join(_sentences(HINDI, 12)).encode("utf-8"))
    at = data.index(b"\n8\t") + 3  # the FORM of word 8 of sentence 1
    data[at:at] = b"\xe9"
    path.write_bytes(bytes(data))
    return data[:at].count(b"\n") + 1


def _utf16(path: Path) -> int:
    path.write_bytes("".join(_sentences(ENGLISH_DEV, 5)).encode("utf-16"))
    return 1


def _gzip(path: Path) -> int:
    path.write_bytes(gzip.compress("".join(_sentences(HINDI, 5)).encode("utf-8"), mtime=0))
    return 1


def _empty(path: Path) -> int:
    path.write_bytes(b"")
    return 0


def _blank_lines(path: Path) -> int:
    path.write_text("\n\n\n", encoding="utf-8")
    return 0


def _comments_only(path: Path) -> int:
    path.write_text("".join(line for line in _sentences(HINDI, 3) if line.startswith("#") or not line.strip()),
                    encoding="utf-8")
    return 1


CASES += [
    _bytes_case("latin1-byte", _latin1_byte, "UTF-8"),
    _bytes_case("utf16-file", _utf16, "UTF-8"),
    _bytes_case("gzip-file", _gzip, "line"),
    _bytes_case("empty-file", _empty, "no sentences"),
    _bytes_case("blank-lines-only", _blank_lines, "no sentences"),
    _bytes_case("comments-only", _comments_only, "no words"),
]


def _missing(folder: Path) -> tuple[list[str], list[str]]:
    return ["probing", "convert", str(folder / "nope.conllu"), "-o", str(folder / "out")], \
        [str(folder / "nope.conllu"), "no such file"]


def _folder_without_treebank(folder: Path) -> tuple[list[str], list[str]]:
    (folder / "notes.txt").write_text("not a treebank\n", encoding="utf-8")
    return ["probing", "convert", str(folder), "-o", str(folder / "out")], [str(folder), "conllu"]


def _skip_bad_all(folder: Path) -> tuple[list[str], list[str]]:
    path = folder / "hi_pud-ud-test.conllu"
    path.write_bytes(bytes(range(128, 256)) * 40)
    return ["probing", "convert", str(path), "-o", str(folder / "out"), "--skip-bad", "--workers", "1"], \
        [str(path), "no usable sentence", "UTF-8"]


def _out_under_file(folder: Path) -> tuple[list[str], list[str]]:
    path, _ = _slice(folder)
    (folder / "file").write_text("x", encoding="utf-8")
    return ["probing", "convert", str(path), "-o", str(folder / "file" / "out")], ["--out", "is a file"]


def _files_and_folders(folder: Path) -> tuple[list[str], list[str]]:
    path, _ = _slice(folder)
    return ["probing", "convert", str(path), str(SRC_DATA / "ud" / "UD_English-EWT"), "-o", str(folder / "o")], \
        ["INPUTS", "not both"]


CASES += [
    Case("missing-file", _missing),
    Case("folder-without-treebank", _folder_without_treebank),
    Case("skip-bad-but-all-bad", _skip_bad_all),
    Case("out-under-a-file", _out_under_file),
    Case("files-and-folders", _files_and_folders),
    Case("bad-sorting", lambda d: (["probing", "convert", str(_slice(d)[0]), "-o", str(d / "o"), "--sorting",
                                    "by_colour"], ["--sorting", "by_colour"])),
    Case("zero-workers", lambda d: (["probing", "convert", str(_slice(d)[0]), "-o", str(d / "o"), "--workers", "0"],
                                    ["--workers", ">= 1"])),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_malformed_conllu_is_a_clear_error(case, tmp_path):
    assert_clear(case, tmp_path)
    assert not (tmp_path / "out" / "manifest.json").exists()


def test_worker_processes_report_the_file_and_line(tmp_path):
    """Several files with the default 2 workers: the DataError crosses the process pool intact."""
    good = tmp_path / "hi_pud-ud-train.conllu"
    good.write_text("".join(_sentences(HINDI, 12)), encoding="utf-8")
    bad, line = _slice(tmp_path, _set(5, "UPOS", ""))
    outcome = run_cli(["probing", "convert", str(good), str(bad), "-o", str(tmp_path / "out")])
    assert outcome.code == 2 and "Traceback" not in outcome.err
    assert f"{bad}:line {line}: empty UPOS column" in " ".join(outcome.err.split())


def test_data_error_survives_pickling():
    err = pickle.loads(pickle.dumps(DataError("x.conllu", "line 7", "empty UPOS column")))
    assert (err.path, err.where, err.problem, str(err)) == ("x.conllu", "line 7", "empty UPOS column",
                                                            "x.conllu:line 7: empty UPOS column")


def test_skip_bad_skips_a_non_utf8_sentence(tmp_path):
    """--skip-bad drops exactly the sentence with the bad byte, counts it, and converts the rest."""
    path = tmp_path / "hi_pud-ud-test.conllu"
    line = _latin1_byte(path)
    stats = ReadStats()
    kept = list(read_conllu(path, skip_bad=True, stats=stats))
    assert (stats.sentences, stats.skipped) == (11, 1) and len(kept) == 11
    assert f"line {line}" in stats.reasons[0] and "UTF-8" in stats.reasons[0]
    outcome = run_cli(["probing", "convert", str(path), "-o", str(tmp_path / "out"), "--skip-bad", "--workers", "1"])
    assert outcome.code == 0, outcome.err
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["treebanks"][0]["skipped_sentences"] == 1 and manifest["treebanks"][0]["sentences"] == 11


def test_crlf_line_ends_read_like_lf(tmp_path):
    """Valid but odd: Windows line ends give the same sentences."""
    text = "".join(_sentences(HINDI, 12))
    lf, crlf = tmp_path / "lf.conllu", tmp_path / "crlf.conllu"
    lf.write_text(text, encoding="utf-8", newline="\n")
    crlf.write_text(text, encoding="utf-8", newline="\r\n")
    assert [s.words for s in read_conllu(lf)] == [s.words for s in read_conllu(crlf)]
