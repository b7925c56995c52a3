from pathlib import Path

import pytest
from typer.testing import CliRunner

from interpeval.benchmarks.probing.cli import app
from interpeval.benchmarks.probing.grid import ProbingGrid, results_frame
from interpeval.benchmarks.probing.ud import UDConverter
from interpeval.store import Store

TURKISH = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "ud" / "UD_Turkish-IMST"


@pytest.fixture(scope="module")
def tasks(tmp_path_factory):
    out = tmp_path_factory.mktemp("tasks")
    UDConverter().convert([str(TURKISH)], out)
    keep = ["tr_imst_no_sorting_Number.csv", "tr_imst_no_sorting_Case.csv"]
    for path in out.glob("*.csv"):
        if path.name not in keep:
            path.unlink()
    return out


def grid(tasks, tmp, **kw):
    return ProbingGrid([tasks], model="tiny-encoder", cache_dir=tmp / "cache", store=tmp / "s.sqlite",
                       probe_params={"epochs": 3}, **kw)


def test_grid_writes_every_experiment_and_resumes(tasks, tmp_path):
    first = grid(tasks, tmp_path, aggregations=("avg", "cls"), control=True).run()
    assert first["encoded"] == first["sentences"] > 0
    assert first["units"] == 2 * 2 and first["experiments"] == 2 * 2 * 2  # tasks × aggs × 2 tiny layers
    again = grid(tasks, tmp_path, aggregations=("avg", "cls"), control=True).run()
    assert again["run_id"] == first["run_id"] and again["encoded"] == 0
    assert again["units"] == 0 and again["experiments"] == 0
    frame = results_frame(tmp_path / "s.sqlite", first["run_id"])
    assert len(frame) == 8 and set(frame["layer"]) == {1, 2}
    assert set(frame["category"]) == {"Number", "Case"} and set(frame["language"]) == {"tr"}
    assert frame.attrs["model"] == "tiny-encoder"
    # accuracy counts right answers over the test part of each task file (the values themselves are worked out by
    # hand in test_grid_by_hand.py)
    for _, row in frame.iterrows():
        parts = [line.split("\t")[0] for line in (tasks / f"tr_imst_no_sorting_{row['category']}.csv").read_text()
                 .splitlines() if line]
        assert {part: row["sizes"][part] + row["dropped"][part] for part in ("tr", "va", "te")} == {
            part: parts.count(part) for part in ("tr", "va", "te")}
        for name in ("accuracy", "control_accuracy"):
            hits = row[name] * row["sizes"]["te"]
            assert hits == pytest.approx(round(hits), abs=1e-9), (name, row[name])


def test_interrupted_run_only_runs_what_is_missing(tasks, tmp_path):
    config = grid(tasks, tmp_path, layers=[2])
    files = sorted(tasks.glob("*.csv"))
    from interpeval.store import fingerprint_files

    with Store(tmp_path / "s.sqlite") as store:  # pretend a previous run stopped after one unit
        run = store.run("probing", config.config(), model="tiny-encoder", data_fingerprint=fingerprint_files(*files))
        run.record(f"{files[0].stem}|avg|logreg|2", {"partial": True}, {"accuracy": 0.5})
    summary = config.run()
    assert summary["units"] == 3 and summary["experiments"] == 3  # 2 tasks × 2 aggs − 1 done


def test_cli_convert_run_report(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["convert", str(TURKISH), "--out", str(tmp_path / "t"), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "t" / "manifest.json").exists()
    task = tmp_path / "t" / "tr_imst_no_sorting_Number.csv"
    result = runner.invoke(app, ["run", str(task), "--model", "tiny-encoder", "--aggregations", "avg",
                                 "--cache", str(tmp_path / "c"), "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["report", "--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "r" / "probing_report.html").read_text()
    assert "Findings" in page and "tiny-encoder" in page
