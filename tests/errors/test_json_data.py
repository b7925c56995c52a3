"""SQuAD-format and ExpMRC JSON: malformed copies of the shipped files through `expmrc score` and `quackie run`."""

from __future__ import annotations

import copy
import gzip
import json
import sqlite3
from pathlib import Path

import pytest
from clear_errors import SRC_DATA, Case, assert_clear, run_cli

EXPMRC = SRC_DATA / "expmrc"
SQUAD_DEV = EXPMRC / "squad" / "expmrc-squad-dev.json"
RACE_DEV = EXPMRC / "race" / "expmrc-race-dev.json"
SUBMISSION = EXPMRC / "sample_submission"
NEW_WIKI = SRC_DATA / "squad" / "squadshifts-new_wiki.json"
NEWLINE = b"\n"


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _write(folder: Path, name: str, doc: object) -> Path:
    path = folder / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def _first_qa(doc: dict) -> dict:
    return doc["data"][0]["paragraphs"][0]["qas"][0]


# ------------------------------------------------------------------------------------------------ ExpMRC span (SQuAD)
def _span(name: str, edit, *must: str, subset_preds: str = "squad") -> Case:
    """``edit(doc)`` changes a copy of the SQuAD subset of ExpMRC and returns the place the error must name."""
    def build(folder: Path) -> tuple[list[str], list[str]]:
        doc = _load(SQUAD_DEV)
        place = edit(doc)
        path = _write(folder, "expmrc-squad-dev.json", doc)
        return ["expmrc", "score", str(path), str(SUBMISSION / f"{subset_preds}.json")], [str(path), place, *must]
    return Case(name, build)


def _qas_null(doc: dict) -> str:
    doc["data"][0]["paragraphs"][1]["qas"] = None
    return "data[0].paragraphs[1]"


def _paragraphs_object(doc: dict) -> str:
    doc["data"][2]["paragraphs"] = {"context": "x"}
    return "data[2]"


def _no_context(doc: dict) -> str:
    del doc["data"][1]["paragraphs"][0]["context"]
    return "data[1].paragraphs[0]"


def _integer_id(doc: dict) -> str:
    doc["data"][0]["paragraphs"][0]["qas"][0]["id"] = 570
    return "data[0].paragraphs[0].qas[0]"


def _duplicate_article(doc: dict) -> str:
    doc["data"].append(copy.deepcopy(doc["data"][3]))
    return f"data[{len(doc['data']) - 1}]"


def _duplicate_question(doc: dict) -> str:
    qas = doc["data"][0]["paragraphs"][0]["qas"]
    qas.append(copy.deepcopy(qas[0]))
    return f"question {qas[0]['id']}"


def _answer_start(value: object):
    def edit(doc: dict) -> str:
        qa = _first_qa(doc)
        qa["answers"][1]["answer_start"] = value
        return f"question {qa['id']}"
    return edit


def _qa_field(field: str, value: object):
    def edit(doc: dict) -> str:
        qa = doc["data"][4]["paragraphs"][0]["qas"][0]
        qa[field] = value
        return f"question {qa['id']}"
    return edit


def _answer_text_number(doc: dict) -> str:
    qa = _first_qa(doc)
    qa["answers"][0]["text"] = 1990
    return f"question {qa['id']}"


def _version(doc: dict) -> str:
    doc["version"] = "v2.0"
    return "version"


def _top_list(doc: dict) -> str:
    doc.clear()
    doc["items"] = []
    return "top level"


CASES = [
    _span("qas-null", _qas_null, "qas"),
    _span("paragraphs-object", _paragraphs_object, "paragraphs"),
    _span("context-missing", _no_context, "context"),
    _span("integer-question-id", _integer_id, "question id"),
    _span("duplicated-article", _duplicate_article, "occurs twice"),
    _span("duplicated-question", _duplicate_question, "occurs twice"),
    _span("answer-start-nan", _answer_start(float("nan")), "answer_start"),
    _span("answer-start-text", _answer_start("abc"), "answer_start"),
    _span("answer-start-float", _answer_start(12.5), "answer_start"),
    _span("answers-empty", _qa_field("answers", []), "answers"),
    _span("answers-null", _qa_field("answers", None), "answers"),
    _span("answer-text-number", _answer_text_number, "answer"),
    _span("evidences-string", _qa_field("evidences", "one evidence"), "evidences"),
    _span("evidences-empty", _qa_field("evidences", []), "evidences"),
    _span("question-number", _qa_field("question", 7), "question"),
    _span("question-missing", lambda d: (_first_qa(d).pop("question"), f"question {_first_qa(d)['id']}")[1],
          "missing"),
    _span("unknown-version", _version, "Unsupported version"),
    _span("no-data-key", _top_list, "missing"),
    _span("data-object", lambda d: (d.update(data={}), "top level")[1], "'data' must be a list"),
    _span("data-empty", lambda d: (d.update(data=[]), "data")[1], "no questions"),
]


# ------------------------------------------------------------------------------------------------ ExpMRC choice (RACE)
def _choice(name: str, edit, *must: str) -> Case:
    def build(folder: Path) -> tuple[list[str], list[str]]:
        doc = _load(RACE_DEV)
        place = edit(doc)
        path = _write(folder, "expmrc-race-dev.json", doc)
        return ["expmrc", "score", str(path), str(SUBMISSION / "race.json")], [str(path), place, *must]
    return Case(name, build)


def _article(edit):
    def wrapped(doc: dict) -> str:
        article = doc["data"][5]
        edit(article)
        return f"article {article['id']}"
    return wrapped


CASES += [
    _choice("integer-article-id", lambda d: (d["data"][2].update(id=52), "data[2]")[1], "article id"),
    _choice("duplicated-choice-article", lambda d: (d["data"].append(copy.deepcopy(d["data"][7])),
                                                    f"article {d['data'][7]['id']}")[1], "occurs twice"),
    _choice("answers-short", _article(lambda a: a["answers"].pop()), "answers"),
    _choice("options-not-list", _article(lambda a: a.update(options="ABCD")), "options"),
    _choice("questions-null", _article(lambda a: a.update(questions=None)), "questions"),
    _choice("article-text-missing", _article(lambda a: a.pop("article")), "missing"),
    _choice("gold-outside-options",
            lambda d: (d["data"][5]["answers"].__setitem__(0, "E"), f"question {d['data'][5]['id']}-0")[1],
            "'E'"),
    _choice("evidences-short", _article(lambda a: a["evidences"].pop()), "evidences"),
]


# ------------------------------------------------------------------------------------------------ bytes and paths
def _raw(name: str, make, *must: str, command: str = "expmrc") -> Case:
    """``make(folder) -> (path, place)`` writes a file that is not JSON text at all."""
    def build(folder: Path) -> tuple[list[str], list[str]]:
        path, place = make(folder)
        if command == "expmrc":
            args = ["expmrc", "score", str(path), str(SUBMISSION / "squad.json")]
        else:
            args = ["quackie", "run", "--dataset", str(path), "--store", str(folder / "s.sqlite"),
                    "--out", str(folder / "out")]
        return args, [str(path), *([place] if place else []), *must]
    return Case(name + ("" if command == "expmrc" else "-quackie"), build)


def _latin1(folder: Path) -> tuple[Path, str]:
    data = SQUAD_DEV.read_bytes()
    at = data.index(b"Melbourne")
    path = folder / "expmrc-squad-dev.json"
    path.write_bytes(data[:at] + b"Melbourne\xe9" + data[at + 9:])
    return path, f"line {data[:at].count(NEWLINE) + 1}"


def _gz(folder: Path) -> tuple[Path, str]:
    path = folder / "dev.json"
    path.write_bytes(gzip.compress(SQUAD_DEV.read_bytes()[:5000], mtime=0))
    return path, "line 1"


def _truncated(folder: Path) -> tuple[Path, str]:
    text = json.dumps(_load(SQUAD_DEV), indent=1, ensure_ascii=False)
    path = folder / "dev.json"
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    return path, f"line {text[: len(text) // 2].count(chr(10)) + 1}"


def _folder(folder: Path) -> tuple[Path, str]:
    path = folder / "dev.json"
    path.mkdir()
    return path, ""


def _missing(folder: Path) -> tuple[Path, str]:
    return folder / "nope.json", ""


def _empty(folder: Path) -> tuple[Path, str]:
    path = folder / "dev.json"
    path.write_bytes(b"")
    return path, "line 1"


for command in ("expmrc", "quackie"):
    CASES += [
        _raw("non-utf8", _latin1, "UTF-8", command=command),
        _raw("gzip", _gz, "", command=command),
        _raw("truncated-json", _truncated, "JSON", command=command),
        _raw("folder", _folder, "folder", command=command),
        _raw("missing", _missing, "no such file", command=command),
        _raw("empty", _empty, "JSON", command=command),
    ]


# ------------------------------------------------------------------------------------------------ QUACKIE SQuAD files
def _squad(name: str, edit, *must: str) -> Case:
    def build(folder: Path) -> tuple[list[str], list[str]]:
        doc = _load(NEW_WIKI)
        place = edit(doc)
        path = _write(folder, "new_wiki.json", doc)
        return ["quackie", "run", "--dataset", str(path), "--store", str(folder / "s.sqlite"), "--out",
                str(folder / "out"), "--method", "Random"], [str(path), place, *must]
    return Case(name, build)


def _squad_start(value: object):
    def edit(doc: dict) -> str:
        doc["data"][0]["paragraphs"][0]["qas"][0]["answers"][0]["answer_start"] = value
        return "data[0].paragraphs[0].qas[0].answers[0]"
    return edit


CASES += [
    _squad("squad-qas-null", lambda d: (d["data"][0]["paragraphs"][0].update(qas=None), "data[0].paragraphs[0]")[1],
           "qas"),
    _squad("squad-answer-start-nan", _squad_start(float("nan")), "answer_start"),
    _squad("squad-answer-start-text", _squad_start("abc"), "answer_start"),
    _squad("squad-answer-start-wrong", _squad_start(3), "answer_start=3"),
    _squad("squad-answer-start-bool", _squad_start(True), "answer_start"),
    _squad("squad-data-empty", lambda d: (d.update(data=[]), "data")[1], "no articles"),
    _squad("squad-no-questions", lambda d: (d.update(data=[{"title": "t", "paragraphs": []}]), "data")[1],
           "no questions"),
    _squad("squad-context-number", lambda d: (d["data"][0]["paragraphs"][1].update(context=5),
                                              "data[0].paragraphs[1]")[1], "context"),
    _squad("squad-duplicate-id", lambda d: (d["data"][0]["paragraphs"][0]["qas"].append(
        copy.deepcopy(d["data"][0]["paragraphs"][0]["qas"][0])), "occurs twice")[1], "question id"),
    _squad("squad-question-empty-list", lambda d: (d["data"][0]["paragraphs"][0]["qas"][0].update(question=[]),
                                                   "data[0].paragraphs[0].qas[0]")[1], "question"),
    _squad("squad-no-answers-no-flag", lambda d: (d["data"][0]["paragraphs"][0]["qas"][0].update(answers=[]),
                                                  "data[0].paragraphs[0].qas[0]")[1], "is_impossible"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_malformed_json_is_a_clear_error(case, tmp_path):
    assert_clear(case, tmp_path)
    store = tmp_path / "s.sqlite"
    if store.exists():  # nothing is recorded for a run whose data failed validation
        with sqlite3.connect(store) as conn:
            assert conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0


def test_byte_order_mark_is_accepted(tmp_path):
    """Valid but odd: a UTF-8 file with a byte-order mark scores exactly like the file without one."""
    path = tmp_path / "dev.json"
    path.write_bytes(b"\xef\xbb\xbf" + SQUAD_DEV.read_bytes())
    plain = run_cli(["expmrc", "score", "squad", str(SUBMISSION / "squad.json")])
    bom = run_cli(["expmrc", "score", str(path), str(SUBMISSION / "squad.json")])
    assert bom.code == plain.code == 0
    assert json.loads(bom.out)["ALL_F1"] == json.loads(plain.out)["ALL_F1"] == "71.701"
