"""Leaderboard rows kept per run in the store (``run_views``, schema 4): a store written by main 7c644cb (schema 3)
opens, gains the table and gives the very numbers that version computed; kept rows are read back after a restart
and recomputed only for the run that changed, or when the code did."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from interpeval.benchmarks.expmrc import views as expmrc_views
from interpeval.benchmarks.quackie import views as quackie_views
from interpeval.report import views
from interpeval.store import Store
from interpeval.store.sqlite import SCHEMA_VERSION

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
def v3_store(tmp_path) -> Path:
    store = tmp_path / "v3.sqlite"
    shutil.copy(FIXTURES / "store-v3.sqlite", store)
    return store


def rows(store: Store) -> str:
    """Every leaderboard's rows, as JSON text (NaN compared as written)."""
    return json.dumps({t["benchmark"]: t["rows"] for t in views.leaderboards(store)}, sort_keys=True)


def before() -> str:
    """The rows 7c644cb computed of the fixture (tests/fixtures/make_store_v3.py)."""
    return json.dumps(json.loads((FIXTURES / "store-v3-leaderboards.json").read_text()), sort_keys=True)


def test_a_store_written_by_7c644cb_opens_and_keeps_its_leaderboards_numbers(v3_store):
    with sqlite3.connect(v3_store) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 3
        assert "run_views" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    with Store(v3_store) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert rows(store) == before()  # computed, then kept
        kept = store._conn.execute("SELECT run_id, name FROM run_views ORDER BY run_id").fetchall()
        assert kept == [(1, "expmrc.leaderboard"), (2, "quackie.leaderboard"), (3, "quackie.leaderboard"),
                        (4, "generic.leaderboard")]
        assert rows(store) == before()  # read back


def test_kept_rows_are_read_after_a_restart_and_only_a_changed_run_is_scored_again(v3_store, monkeypatch):
    with Store(v3_store) as store:
        rows(store)
    computed: list[int] = []
    for module, name in ((expmrc_views, "expmrc_row"), (quackie_views, "quackie_rows"), (views, "mean_cells")):
        original = getattr(module, name)

        def counting(store, run, original=original):
            computed.append(run if isinstance(run, int) else run.id)
            return original(store, run)

        monkeypatch.setattr(module, name, counting)
    with Store(v3_store) as store:  # a restart: a new connection, nothing in memory
        assert rows(store) == before() and computed == []
        revisions = {r.id: r.revision for r in store.runs()}
        store.run("plm_rationale", {"explainer": "gradient", "golden": "other.jsonl"}, model="tiny-masked-lm",
                  data_fingerprint="another").record("0", {"top_k": ["paris"]}, {"top1": 1.0})
        assert {r.id: r.revision for r in store.runs() if r.id in revisions} == revisions  # an unrelated write
        after = json.loads(rows(store))
        assert computed == [5] and len(after["plm_rationale"]) == 2
        assert json.dumps(after | {"plm_rationale": after["plm_rationale"][:1]}, sort_keys=True) == before()
        quackie = store.runs("quackie")[0]
        store.run("quackie", quackie.config, quackie.model, quackie.data_fingerprint).record(
            "extra", {"n_sentences": 2, "gt": [0], "scores": {"random": [0.1, 0.9]}})
        rows(store)
        assert computed == [5, quackie.id]


def test_a_kept_row_is_computed_again_by_other_code(v3_store, monkeypatch):
    with Store(v3_store) as store:
        rows(store)
        computed = []
        original = expmrc_views.expmrc_row
        monkeypatch.setattr(expmrc_views, "expmrc_row", lambda s, run: computed.append(run.id) or original(s, run))
        monkeypatch.setattr(views, "code_fingerprint", lambda: "other code")
        assert rows(store) == before() and computed == [1]


def test_keeping_changes_no_store_version_and_never_waits_for_a_lock(v3_store, monkeypatch):
    monkeypatch.setenv("INTERPEVAL_STORE_TIMEOUT", "600")
    with Store(v3_store) as store:
        run = store.get_run(1)
        version = store.version()
        assert store.keep_run_view(run, "test.view", "code", {"x": float("nan")})
        assert store.version() == version
        assert store.run_view(run, "test.view", "code")[0] and not store.run_view(run, "test.view", "other")[0]
        assert store.keep_run_view(run, "numpy", "code", {"mean": np.float64(0.25), "n": np.int64(3)})
        assert store.run_view(run, "numpy", "code") == (True, {"mean": 0.25, "n": 3})
        other = sqlite3.connect(v3_store, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process writing
        try:
            assert not store.keep_run_view(run, "test.view", "code 2", 1)
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert store._conn.execute("PRAGMA busy_timeout").fetchone()[0] == 600_000
        assert store.run_view(run, "test.view", "code 2") == (False, None)


def test_a_view_kept_of_an_older_revision_is_not_read(v3_store):
    with Store(v3_store) as store:
        old = store.get_run(4)
        assert store.keep_run_view(old, "test.view", "code", "old")
        store.run(old.benchmark, old.config, old.model, old.data_fingerprint).add_metrics({"extra": 1.0})
        new = store.get_run(4)
        assert new.revision > old.revision
        assert store.run_view(new, "test.view", "code") == (False, None)
        assert store.keep_run_view(new, "test.view", "code", "new")
        store.keep_run_view(old, "test.view", "code", "stale")  # computed before the write, kept after it
        assert store.run_view(new, "test.view", "code") == (True, "new")
