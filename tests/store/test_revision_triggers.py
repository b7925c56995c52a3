"""The store's triggers count up a run's ``revision`` on every insert, update and delete of its instances or metrics,
by any writer of the file (here a raw sqlite3 connection, as another process would write), so the leaderboard rows
kept of that run (``run_views``) are computed again, with the new numbers, and no other run's are."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from interpeval.benchmarks.expmrc import views as expmrc_views
from interpeval.report import views
from interpeval.store import Store

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
QUESTION = "570d2417fed7b91900d45c40"  # a question of run 1 (expmrc, 8 questions, every answer F1 1.0)

#: (table, SQL by another writer) → one row of run 1 inserted, updated or deleted
WRITES = {
    ("metrics", "insert"): "INSERT INTO metrics (run_id, instance_id, grp, name, value) VALUES (1, 'extra', '', "
                           "'answer', 0.0)",
    ("metrics", "update"): f"UPDATE metrics SET value = 0.0 WHERE run_id = 1 AND instance_id = '{QUESTION}' "
                           "AND name = 'answer'",
    ("metrics", "delete"): f"DELETE FROM metrics WHERE run_id = 1 AND instance_id = '{QUESTION}' AND name = 'answer'",
    ("instances", "insert"): "INSERT INTO instances (run_id, instance_id, seq, output_json, created_at) "
                             "VALUES (1, 'extra', 99, '{}', 0)",
    ("instances", "update"): f"UPDATE instances SET output_json = '{{}}' WHERE run_id = 1 AND instance_id = '{QUESTION}'",
    ("instances", "delete"): f"DELETE FROM instances WHERE run_id = 1 AND instance_id = '{QUESTION}'",
}

#: the ANS cell of run 1 after each metrics write, worked by hand from the fixture's eight answer F1s of 1.0
ANS_AFTER = {"insert": (100 * 8 / 9, 9), "update": (100 * 7 / 8, 8), "delete": (100.0, 7)}


@pytest.fixture
def store_file(tmp_path) -> Path:
    path = tmp_path / "store.sqlite"
    shutil.copy(FIXTURES / "store-v3.sqlite", path)
    return path


def _by_other_writer(path: Path, sql: str) -> int:
    conn = sqlite3.connect(path)
    try:
        with conn:
            changed = conn.execute(sql).rowcount
    finally:
        conn.close()
    return changed


@pytest.mark.parametrize(("table", "event"), list(WRITES))
def test_another_writers_insert_update_or_delete_revises_only_its_run(store_file, table, event):
    with Store(store_file) as store:
        before = {r.id: r.revision for r in store.runs()}
        assert _by_other_writer(store_file, WRITES[table, event]) == 1
        after = {r.id: r.revision for r in store.runs()}
    assert after == before | {1: before[1] + 1}


@pytest.mark.parametrize("event", ["insert", "update", "delete"])
def test_kept_rows_of_a_run_another_writer_changed_are_computed_again(store_file, monkeypatch, event):
    with Store(store_file) as store:
        kept = {t["benchmark"]: t["rows"] for t in views.leaderboards(store)}
        assert kept["expmrc"][0]["ANS"]["value"] == 100.0 and kept["expmrc"][0]["ANS"]["n"] == 8
        computed: list[int] = []
        original = expmrc_views.expmrc_row
        monkeypatch.setattr(expmrc_views, "expmrc_row",
                            lambda s, run: computed.append(run.id) or original(s, run))
        assert {t["benchmark"]: t["rows"] for t in views.leaderboards(store)} == kept and computed == []
        _by_other_writer(store_file, WRITES["metrics", event])
        again = {t["benchmark"]: t["rows"] for t in views.leaderboards(store)}
        assert computed == [1]
        value, n = ANS_AFTER[event]
        assert again["expmrc"][0]["ANS"]["value"] == pytest.approx(value) and again["expmrc"][0]["ANS"]["n"] == n
        assert {k: v for k, v in again.items() if k != "expmrc"} == {k: v for k, v in kept.items() if k != "expmrc"}
        kept_revision = store._conn.execute(
            "SELECT revision FROM run_views WHERE run_id = 1 AND name = 'expmrc.leaderboard'").fetchone()[0]
        assert kept_revision == store.get_run(1).revision
