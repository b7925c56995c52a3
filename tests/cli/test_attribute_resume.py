"""Killing `interpeval attribute` mid-run and re-running completes with the same stored results."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from importlib.resources import files

from interpeval.store import Store

CLI = [sys.executable, "-c", "from interpeval.cli import main; main()"]


def _sentences(tmp_path):
    rows = files("interpeval.data.sentences").joinpath("sst2-dev-20.tsv").read_text().splitlines()[1:]
    path = tmp_path / "sst2.txt"
    path.write_text("\n".join(row.split("\t")[0] for row in rows) + "\n")
    return path


def _count(db):
    try:
        with sqlite3.connect(db, timeout=30) as conn:
            return conn.execute("SELECT COUNT(*) FROM instances").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def _command(text_file, db):
    return CLI + ["attribute", str(text_file), "--model", "tiny-sequence-classification", "--method",
                  "integrated_gradients", "--param", "n_steps=64", "--chunk", "1", "--store", str(db)]


def test_killed_run_resumes_to_identical_results(tmp_path):
    text_file = _sentences(tmp_path)
    killed_db, clean_db = tmp_path / "killed.sqlite", tmp_path / "clean.sqlite"

    proc = subprocess.Popen(_command(text_file, killed_db), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 240
    while _count(killed_db) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = _count(killed_db)
    assert 3 <= partial < 20, f"the run should have been killed mid-way, it had stored {partial} of 20"

    resumed = subprocess.run(_command(text_file, killed_db), capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{20 - partial} explained now" in resumed.stdout
    clean = subprocess.run(_command(text_file, clean_db), capture_output=True, text=True, timeout=600)
    assert clean.returncode == 0, clean.stderr

    with Store(killed_db) as a, Store(clean_db) as b:
        (run_a,), (run_b,) = a.runs(), b.runs()
        assert run_a.status == "finished" and run_a.config_hash == run_b.config_hash
        by_id_a = {row["instance_id"]: row for row in a.instances(run_a.id)}
        by_id_b = {row["instance_id"]: row for row in b.instances(run_b.id)}
        assert by_id_a == by_id_b and len(by_id_a) == 20


def test_bad_param_is_one_clear_line(tmp_path):
    result = subprocess.run(CLI + ["attribute", str(_sentences(tmp_path)), "--explainer", "integrated_gradients:n_steps",
                                   "--store", str(tmp_path / "s.sqlite")], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.strip() == ("interpeval: error: --explainer: explainer 'integrated_gradients:n_steps': "
                                     "parameter 'n_steps' is not key=value")
    old = subprocess.run(CLI + ["attribute", str(_sentences(tmp_path)), "--param", "n_steps",
                                "--store", str(tmp_path / "s.sqlite")], capture_output=True, text=True)
    assert old.returncode == 2 and old.stderr.strip().splitlines()[1:] == [
        "interpeval: error: --param: expects key=value, got 'n_steps'"]  # after the one deprecation line
