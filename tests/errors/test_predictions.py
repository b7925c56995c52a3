"""Prediction files: malformed copies of the official ExpMRC sample submissions through `expmrc score`.

The scorer rejects what the original silently turns into text (``str()`` of a number, a list or null); ``--lenient``
scores such a file exactly as the original, which these tests derive by scoring the ``str()`` text itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clear_errors import SRC_DATA, Case, assert_clear, run_cli

SUBMISSION = SRC_DATA / "expmrc" / "sample_submission"


def _preds(subset: str = "squad") -> dict:
    return json.loads((SUBMISSION / f"{subset}.json").read_text(encoding="utf-8"))


def _write(folder: Path, doc: object, name: str = "predictions.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def _case(name: str, edit, *must: str, subset: str = "squad", data: str | None = None) -> Case:
    """``edit(predictions)`` changes a copy of the sample submission and returns the place to name."""
    def build(folder: Path) -> tuple[list[str], list[str]]:
        doc = _preds(subset)
        place = edit(doc)
        path = _write(folder, doc)
        return ["expmrc", "score", data or subset, str(path)], [str(path), place, *must]
    return Case(name, build)


def _set(key: str, value: object, index: int = 3):
    def edit(doc: dict) -> str:
        qid = list(doc)[index]
        doc[qid][key] = value
        return f"question {qid}"
    return edit


def _entry(value: object):
    def edit(doc: dict) -> str:
        qid = list(doc)[10]
        doc[qid] = value
        return f"question {qid}"
    return edit


def _drop(key: str):
    def edit(doc: dict) -> str:
        qid = list(doc)[0]
        del doc[qid][key]
        return f"question {qid}"
    return edit


CASES = [
    _case("answer-integer", _set("answer", 1990), "'answer' must be a string"),
    _case("answer-float", _set("answer", 3.5), "'answer' must be a string"),
    _case("answer-null", _set("answer", None), "'answer' must be a string"),
    _case("answer-list", _set("answer", ["Melbourne", "Sydney"]), "'answer' must be a string"),
    _case("evidence-list", _set("evidence", ["first sentence.", "second sentence."]), "'evidence' must be a string"),
    _case("evidence-object", _set("evidence", {"text": "x"}), "'evidence' must be a string"),
    _case("evidence-null", _set("evidence", None), "'evidence' must be a string"),
    _case("choice-answer-integer", _set("answer", 2), "'answer' must be a string", subset="race"),
    _case("choice-evidence-list", _set("evidence", ["a"]), "'evidence' must be a string", subset="c3"),
    _case("zh-answer-number", _set("answer", 1997), "'answer' must be a string", subset="cmrc2018"),
    _case("no-evidence-key", _drop("evidence"), "missing 'evidence'"),
    _case("no-answer-key", _drop("answer"), "missing 'answer'"),
    _case("entry-is-text", _entry("Melbourne"), "expected a JSON object"),
    _case("entry-is-list", _entry(["Melbourne", "evidence"]), "expected a JSON object"),
    _case("top-level-list", lambda d: ([d.clear()], "top level")[1], "holds no predictions"),
    _case("wrong-subset", lambda d: f"question {next(iter(d))}", "none of its", subset="squad", data="race"),
    _case("integer-like-keys", lambda d: ([d.update({str(i): v for i, v in enumerate(d.values())}),
                                           [d.pop(k) for k in list(d)[:len(d) // 2]]], "question 0")[1],
          "none of its"),
]


def _raw(name: str, payload: bytes, *must: str) -> Case:
    def build(folder: Path) -> tuple[list[str], list[str]]:
        path = folder / "predictions.json"
        path.write_bytes(payload)
        return ["expmrc", "score", "squad", str(path)], [str(path), *must]
    return Case(name, build)


_SAMPLE = (SUBMISSION / "squad.json").read_bytes()
CASES += [
    _raw("json-list", b"[" + _SAMPLE + b"]", "top level", "expected an object"),
    _raw("truncated", _SAMPLE[: len(_SAMPLE) // 3], "line", "JSON"),
    _raw("non-utf8", _SAMPLE.replace(b"Melbourne", b"Melb\xf6urne", 1), "line", "UTF-8"),
    _raw("utf16", _SAMPLE.decode("utf-8").encode("utf-16-le"), "line 1", "NUL"),
    _raw("empty", b"", "line 1", "JSON"),
    Case("folder", lambda d: (["expmrc", "score", "squad", str(d)], [str(d), "folder"])),
    Case("missing", lambda d: (["expmrc", "score", "squad", str(d / "p.json")], [str(d / "p.json"), "no such file"])),
    Case("unknown-subset", lambda d: (["expmrc", "score", "squadd", str(SUBMISSION / "squad.json")],
                                      ["squadd", "no such file"])),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_malformed_predictions_are_a_clear_error(case, tmp_path):
    assert_clear(case, tmp_path)


def _score(data: str, preds: Path, *flags: str) -> dict:
    outcome = run_cli(["expmrc", "score", data, str(preds), *flags])
    assert outcome.code == 0, outcome.err
    return json.loads(outcome.out)


@pytest.mark.parametrize(("subset", "key", "value"), [
    ("squad", "answer", 1990), ("squad", "evidence", ["first part.", "second part."]),
    ("race", "answer", None),
])
def test_lenient_scores_like_the_original(tmp_path, subset, key, value):
    """--lenient scores a non-string value as the original does: exactly like the string str(value)."""
    odd, as_text = _preds(subset), _preds(subset)
    for doc, new in ((odd, value), (as_text, str(value))):
        for qid in list(doc)[:25]:
            doc[qid][key] = new
    odd_path, text_path = _write(tmp_path, odd, "odd.json"), _write(tmp_path, as_text, "text.json")
    lenient, reference = _score(subset, odd_path, "--lenient"), _score(subset, text_path)
    for field in ("ALL_F1", "ANS_F1", "EVI_F1", "TOTAL", "SKIP"):
        assert lenient[field] == reference[field]
    strict = run_cli(["expmrc", "score", subset, str(odd_path)])
    assert strict.code == 2 and f"{odd_path}:question {next(iter(odd))}" in " ".join(strict.err.split())


@pytest.mark.parametrize(("subset", "expected"), [
    ("squad", ("71.701", "92.892", "76.756")), ("cmrc2018", ("53.084", "83.377", "62.605")),
    ("race", ("32.624", "68.984", "44.129")), ("c3", ("49.973", "75.248", "63.303")),
])
def test_official_sample_submissions_score_unchanged(subset, expected):
    """--lenient keeps the numbers of eval_expmrc.py on the four official sample submissions (REFERENCE §2; the
    strict default is pinned in tests/benchmarks/expmrc/test_expmrc_score.py)."""
    line = _score(subset, SUBMISSION / f"{subset}.json", "--lenient")
    assert (line["ALL_F1"], line["ANS_F1"], line["EVI_F1"]) == expected


def test_foreign_keys_are_ignored_with_a_warning(tmp_path):
    """Valid but odd: keys that are no question of the data are ignored (as the original) and named on stderr."""
    doc = _preds("squad")
    doc["not-a-question"] = {"answer": "x", "evidence": "y"}
    path = _write(tmp_path, doc)
    outcome = run_cli(["expmrc", "score", "squad", str(path)])
    assert outcome.code == 0 and json.loads(outcome.out)["ALL_F1"] == "71.701"
    assert "1 of 502 predictions are not questions" in outcome.err and "'not-a-question'" in outcome.err
