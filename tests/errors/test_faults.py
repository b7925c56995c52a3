"""The malformed inputs that still ended in an internal error or were taken silently (issue 33), through the real
command line: each is one clear line naming the option, file and place. ExpMRC's empty or foreign prediction files
follow the official scorer under ``--official`` (zeros, all in SKIP, a warning) and stay an error without it; a
store locked by another writer is waited for a bounded time, then named with the process that holds it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from clear_errors import SRC_DATA, Case, assert_clear, run_cli
from test_json_data import _squad
from test_task_csv import _run, _valid_task

ENGLISH_DEV = SRC_DATA / "ud" / "UD_English-EWT" / "en_ewt-ud-dev.conllu"


def _explain(text: str, model: str, *extra: str) -> list[str]:
    return ["explain", text, "--model", model, "--method", "saliency", *extra]


def _impossible_as_text(doc: dict) -> str:
    doc["data"][0]["paragraphs"][0]["qas"][0]["is_impossible"] = "False"
    return "data[0].paragraphs[0].qas[0]"


def _latin1_treebank(folder: Path) -> tuple[list[str], list[str]]:
    """The English dev treebank saved as Latin-1 (’ has no Latin-1 byte: it becomes ?); its first accented letter
    is the first line that is not UTF-8."""
    text = ENGLISH_DEV.read_text(encoding="utf-8").replace("é", "é")  # é is Latin-1's 0xe9
    lines = text.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if any(0x7f < ord(c) < 0x100 for c in line)) + 1
    path = folder / "en_ewt-ud-dev.conllu"
    path.write_bytes(text.encode("latin-1", errors="replace"))
    return ["probing", "convert", str(path), "-o", str(folder / "out"), "--workers", "1"], \
        [str(path), f"line {first}", "not UTF-8"]


CASES = [
    Case("explain-target-index-out-of-range", lambda d: (
        _explain("a fine film", "tiny-sequence-classification", "--target", "class_prob:7"),
        ["--target", "index 7 out of range for 2 outputs"])),
    Case("explain-empty-text", lambda d: (_explain("  \n", "tiny-sequence-classification"), ["TEXT", "empty"])),
    Case("explain-qa-without-context", lambda d: (_explain("Who wrote it?", "tiny-extractive-qa"),
                                                  ["--pair", "context"])),
    Case("probing-layer-out-of-range", lambda d: (_run(d, _valid_task(d), "--model", "tiny-encoder", "--layers",
                                                       "1,9"), ["--layers", "9 out of range", "1..2"])),
    _squad("squad-is-impossible-string", _impossible_as_text, "is_impossible", "'False'"),
    Case("conllu-latin1-file", _latin1_treebank),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_clear_error(case, tmp_path):
    assert_clear(case, tmp_path)


@pytest.mark.parametrize("content", [{}, {"not-a-question": {"answer": "Normans", "evidence": "The Normans"}}],
                         ids=["empty", "no-matching-id"])
def test_expmrc_prediction_file_answering_nothing(tmp_path, content):
    predictions = tmp_path / "predictions.json"
    predictions.write_text(json.dumps(content), encoding="utf-8")
    refused = run_cli(["expmrc", "score", "squad", str(predictions)])
    assert refused.code == 2 and str(predictions) in refused.err and "--official" in refused.err

    official = run_cli(["expmrc", "score", "squad", str(predictions), "--official"])
    assert official.code == 0, official.err
    line = json.loads(official.out.strip().splitlines()[-1])
    assert line["TOTAL"] == line["SKIP"] > 0  # the vendored dev set's questions, each counted as skipped
    assert (line["ALL_F1"], line["ANS_F1"], line["EVI_F1"]) == ("0.000", "0.000", "0.000")
    assert f"warning: {predictions}: answers none of the {line['TOTAL']} questions" in official.err
    assert official.err.count("Unanswered question:") == line["TOTAL"]


HOLDER = textwrap.dedent("""
    import sqlite3, sys, time
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    print("locked", flush=True)
    time.sleep(120)
""")


def test_a_store_locked_by_another_writer_is_named_after_a_bounded_wait(tmp_path, monkeypatch):
    store = tmp_path / "results.sqlite"
    lines = tmp_path / "lines.txt"
    lines.write_text("a fine film\n", encoding="utf-8")
    command = ["attribute", str(lines), "--model", "tiny-sequence-classification", "--method", "saliency",
               "--store", str(store)]
    assert run_cli(command).code == 0  # the store exists, in WAL mode, with one run
    lines.write_text("a fine film\nan awful one\n", encoding="utf-8")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(store)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        monkeypatch.setenv("INTERPEVAL_STORE_TIMEOUT", "1")
        outcome = run_cli(command)
    finally:
        holder.kill()
        holder.wait()
    message = " ".join(outcome.err.split())
    assert outcome.code == 2 and "Traceback" not in outcome.err, outcome.err
    assert f"{store}: the store is locked by another writing process (open in process {holder.pid}" in message
    assert "waited 1 s" in message
    monkeypatch.delenv("INTERPEVAL_STORE_TIMEOUT")
    assert run_cli(command).code == 0  # the lock gone, the same command runs
    with sqlite3.connect(store) as conn:
        assert conn.execute("SELECT COUNT(*) FROM instances").fetchone()[0] == 3
    assert os.path.exists(store)
