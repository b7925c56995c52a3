"""Paper vs ours in the web app: ``interpeval reproduce PAPER`` keeps its report in the store with the ids of the
runs it read, and ``/paper`` shows every kept report through the report's own HTML renderer (paper | ours (n, 95 %
interval) | differs because, then each finding's verdict). The paper is the toy plug-in's (tests/fixtures/toy_bench,
a paper made up for the tests), so the real command runs in a second."""

from __future__ import annotations

import shutil
import sqlite3
from html import escape
from pathlib import Path

from fastapi.testclient import TestClient

from interpeval.paper import PaperReport
from interpeval.report.reproduce import cell_parts
from interpeval.store import Store
from interpeval.store.sqlite import SCHEMA_VERSION, recording_runs
from interpeval.web import create_app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_reproduce_keeps_its_report_and_the_runs_it_read_in_the_store(reproduce_toy, tmp_path):
    store = tmp_path / "results.sqlite"
    with Store(store) as other:  # a run the reproduction never reads
        other.run("attribute", {"method": "saliency"}, model="m").record("x", {"text": "x"})
    report = reproduce_toy(store, tmp_path / "out")
    with Store(store) as opened:
        (kept,) = opened.paper_reports()
        (toy_run,) = opened.runs("toy")
    assert (kept["paper"], kept["profile"]) == ("toy", "quick")
    assert kept["run_ids"] == [toy_run.id]
    assert PaperReport.from_json(kept["report"]) == report
    reproduce_toy(store, tmp_path / "again")  # a rerun of the same paper and profile replaces it
    with Store(store) as opened:
        assert len(opened.paper_reports()) == 1


def test_recording_runs_sees_runs_opened_or_read_through_any_store(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        first = store.run("attribute", {"method": "a"}, model="m")
        second = store.run("attribute", {"method": "b"}, model="m")
        third = store.run("attribute", {"method": "c"}, model="m")
        with recording_runs() as used, Store(tmp_path / "s.sqlite") as again:
            store.instances(first.id)
            again.metrics(second.id)
            store.runs()  # listing every run reads none of them
        assert used == {first.id, second.id} and third.id not in used


def test_the_paper_page_shows_every_reproduced_paper_with_the_reports_renderer(reproduce_toy, tmp_path):
    store = tmp_path / "results.sqlite"
    client = TestClient(create_app(store))
    empty = client.get("/paper")
    assert empty.status_code == 200 and "No paper has been reproduced into this store yet" in empty.text
    report = reproduce_toy(store, tmp_path / "out")
    page = client.get("/paper").text  # the store changed: the cached page is not served again
    assert 'href="/paper"' in client.get("/").text
    (row,) = report.tables[0].rows
    for column in report.tables[0].columns:
        paper, ours, interval = cell_parts(row.cells[column])
        assert f"<span class='paper'>{paper}</span> → <span class='ours'>{ours}</span>" in page
        assert f"<span class='ci'>{escape(interval)}</span>" in page
    assert f"<td class='differs'>{escape(row.differs)}</td>" in page
    (finding,) = report.findings
    assert f"<span class='verdict {finding.verdict.replace(' ', '-')}'>{finding.verdict}</span>" in page
    with Store(store) as opened:
        (toy_run,) = opened.runs("toy")
    assert f'<a href="/runs/{toy_run.id}">{toy_run.id}</a>' in page


def test_a_store_from_before_paper_reports_gains_the_table(tmp_path):
    store = tmp_path / "v2.sqlite"
    shutil.copy(FIXTURES / "store-v1.sqlite", store)
    with sqlite3.connect(store) as conn:
        assert "paper_reports" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    with Store(store) as opened:
        assert opened.schema_version == SCHEMA_VERSION and opened.paper_reports() == []
    assert "No paper has been reproduced" in TestClient(create_app(store)).get("/paper").text
