"""A benchmark from outside interpeval plugs in with no edit of the CLI, the suite, the report or the web app.

The toy package (tests/fixtures/toy_bench) is found through a real ``interpeval.benchmarks`` entry point (a
``dist-info`` folder on the path, as ``pip install`` leaves one) for ``interpeval --help``, and through
INTERPEVAL_BENCHMARKS in this process for the suite, the static report and the web app.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from interpeval import cli
from interpeval import plugins as plugin

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _installed(site: Path) -> Path:
    """A ``toy_bench`` distribution's metadata, as an installer writes it, declaring the plug-in entry point."""
    info = site / "toy_bench-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy_bench\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text('[interpeval.benchmarks]\ntoy = toy_bench:PLUGIN\n')
    return site


def _interpeval(*args: str, path: list[Path]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*map(str, path), os.environ.get("PYTHONPATH", "")]),
           "COLUMNS": "200"}
    env.pop(plugin.ENV_VARIABLE, None)
    return subprocess.run([sys.executable, "-c", "from interpeval.cli import main; main()", *args],
                          capture_output=True, text=True, env=env, timeout=300)


def test_an_installed_entry_point_adds_the_benchmark_to_the_cli(tmp_path):
    site = _installed(tmp_path / "site")
    root = _interpeval("--help", path=[site, FIXTURES])
    assert root.returncode == 0, root.stderr
    assert "toy" in root.stdout.split() and "Toy word counts: a benchmark plugged in" in root.stdout
    sub = _interpeval("toy", "run", "--help", path=[site, FIXTURES])
    assert sub.returncode == 0 and "Count the words of every line of FILE" in sub.stdout
    without = _interpeval("--help", path=[FIXTURES])  # the package alone, not installed: not a plug-in
    assert without.returncode == 0 and "toy" not in without.stdout.split()


@pytest.fixture
def toy(monkeypatch):
    """The toy plug-in discovered through INTERPEVAL_BENCHMARKS, the CLI rebuilt around it."""
    monkeypatch.syspath_prepend(str(FIXTURES))
    monkeypatch.setenv(plugin.ENV_VARIABLE, "toy_bench:PLUGIN")
    monkeypatch.setattr(plugin, "_plugins", None)
    monkeypatch.setattr(cli, "_app", None)
    yield plugin.get("toy")
    plugin.reset()


def test_the_toy_step_runs_in_the_suite_and_shows_in_the_report_and_the_web_app(toy, tmp_path):
    from fastapi.testclient import TestClient

    from interpeval.cli import suite
    from interpeval.report.static import headline_findings, write_static_report
    from interpeval.report.views import leaderboards
    from interpeval.store import Store
    from interpeval.web.app import create_app

    store = tmp_path / "results.sqlite"
    steps = suite._steps(tmp_path / "out", store, "tiny")
    mine = [s for s in steps if s.argv[0] == "toy"]
    assert [s.title for s in mine] == ["Toy: word counts of three lines"]
    assert steps.index(mine[0]) == len(steps) - 2  # after the built-in benchmarks, before the generic steps
    done = suite.run_step(mine[0], Console(file=io.StringIO()))
    assert done["command"] == f"interpeval toy run {mine[0].argv[2]} --store {store}"

    with Store(store) as opened:
        (run,) = opened.runs("toy")
        words = {m["instance_id"]: m["value"] for m in opened.metrics(run.id) if m["name"] == "words"}
        tables = leaderboards(opened)
    assert words == {"line-1": 6.0, "line-2": 2.0, "line-3": 6.0}
    (table,) = [t for t in tables if t["benchmark"] == "toy"]
    assert table["rows"][0]["words"]["value"] == pytest.approx(14 / 3) and table["rows"][0]["words"]["n"] == 3
    assert not [t for t in tables if t["title"].startswith("toy:")]  # its runs are not in the generic table too
    assert headline_findings(tables)["Toy leaderboard: words per line"] == ["lines.txt: 4.67 words per line (n=3)."]

    page = write_static_report(store, tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Toy leaderboard: words per line" in page and "Mean words per line (toy)" in page
    assert "an extraordinarily patient documentary about lighthouses" in page  # an example instance

    client = TestClient(create_app(store))
    assert "Toy leaderboard: words per line" in client.get("/leaderboards").text
    assert client.get("/leaderboards/toy.csv").text.splitlines()[0] == "file,words,words_low,words_high,words_n"
    shown = client.get(f"/api/runs/{run.id}/instances/line-3").json()
    assert shown["toy"] == {"words": 6, "first_word": "an"}
    assert shown["facts"]["text"] == "an extraordinarily patient documentary about lighthouses"
