"""The entry point: our own errors are one line (exit 2), anything else is a bug with its traceback (exit 1)."""

from __future__ import annotations

import os
import subprocess
import sys

from clear_errors import run_cli

from interpeval.models.zoo import available


def test_own_error_is_one_line(tmp_path):
    outcome = run_cli(["runs", "list", "--store", str(tmp_path)])
    assert outcome.code == 2
    assert outcome.err.strip().splitlines() == [
        f"interpeval: error: --store: {tmp_path}: is a folder; the store is one SQLite file (e.g. results.sqlite in it)"]


def test_debug_shows_the_traceback_of_an_own_error(tmp_path):
    outcome = run_cli(["--debug", "runs", "list", "--store", str(tmp_path)])
    assert outcome.code == 2
    assert "Traceback (most recent call last)" in outcome.err and "OptionError" in outcome.err
    assert outcome.err.strip().splitlines()[-1].startswith("interpeval: error: --store:")


def test_a_bug_keeps_its_traceback_and_asks_for_a_report(tmp_path, monkeypatch):
    """A ValueError from inside the library is not dressed up as a user error."""
    from interpeval.store import sqlite

    def broken(self, benchmark=None):
        raise ValueError("an internal invariant broke")

    sqlite.Store(tmp_path / "s.sqlite").close()
    monkeypatch.setattr(sqlite.Store, "runs", broken)
    outcome = run_cli(["runs", "list", "--store", str(tmp_path / "s.sqlite")])
    assert outcome.code == 1
    assert "Traceback (most recent call last)" in outcome.err and "ValueError: an internal invariant broke" in outcome.err
    assert "this is a bug in interpeval" in outcome.err and "please report it" in outcome.err


def test_models_table_fits_80_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    outcome = run_cli(["models"])
    assert outcome.code == 0
    lines = outcome.out.splitlines()
    assert max(len(line) for line in lines) <= 80
    for entry in available():  # every name and kind in one piece, at the start of its own line
        assert any(line.startswith(f"{entry.name} · {entry.kind} · ") for line in lines), entry.name


def test_no_weight_loading_progress_bars(tmp_path):
    """Loading a checkpoint from disk prints no "Loading weights" bar (transformers' tqdm is switched off)."""
    from interpeval.models.tiny import tiny_hf

    hf, tokenizer = tiny_hf("sequence-classification")
    hf.save_pretrained(tmp_path / "model")
    tokenizer.save_pretrained(tmp_path / "model")
    env = {k: v for k, v in os.environ.items() if k != "HF_HUB_DISABLE_PROGRESS_BARS"}
    result = subprocess.run([sys.executable, "-c", "from interpeval.cli import main; main()", "explain",
                             "a gorgeous film", "--model", str(tmp_path / "model"), "--method", "gradient"],
                            capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "Loading weights" not in result.stderr and "it/s" not in result.stderr
    assert "top tokens" in result.stdout
