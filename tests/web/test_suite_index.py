"""The main job's last step: the summary index page, written from the store after the steps, and its path printed."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from interpeval.cli import app, suite


def test_suite_ends_with_the_summary_report(tmp_path, monkeypatch):
    sentences = tmp_path / "two.txt"
    sentences.write_text("a gripping , funny film .\nthe plot is a mess .\n")
    store = tmp_path / "s.sqlite"

    def steps(out: Path, store_path: Path, profile: str = "full"):
        return [("Saliency on two sentences (tiny model)",
                 ["attribute", str(sentences), "--method", "saliency", "--store", str(store_path)], None)]

    monkeypatch.setattr(suite, "_steps", steps)
    result = CliRunner().invoke(app, ["suite", "--out", str(tmp_path / "out"), "--store", str(store)])
    assert result.exit_code == 0, result.output
    index = tmp_path / "out" / "index.html"
    assert f"report: {index.resolve()}" in result.output.replace("\n", "")
    page = index.read_text(encoding="utf-8")
    assert "Saliency on two sentences (tiny model)" in page
    assert f"interpeval attribute {sentences} --method saliency" in page
    assert "wall time" in page and "Headline findings" in page and "a gripping , funny film ." in page


@pytest.mark.slow
def test_the_main_job_runs_its_real_steps_in_the_tiny_profile(tmp_path):
    """Every step of `interpeval suite` runs for real (the same commands, a few items each) into one store."""
    from interpeval.store import Store

    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["suite", "--profile", "tiny", "--out", str(out)])
    assert result.exit_code == 0, result.output
    titles = [title for title, _, _ in suite._steps(out, out / "results.sqlite", "tiny")]
    page = (out / "index.html").read_text(encoding="utf-8")
    assert all(title in page for title in titles) and "Headline findings" in page
    for subset in ("squad", "cmrc2018", "race", "c3"):  # the official scorer's JSON on each sample submission
        assert '"ANS_F1"' in (out / "expmrc" / f"score-{subset}.json").read_text()
    with Store(out / "results.sqlite") as store:
        benchmarks = {run.benchmark for run in store.runs()}
    assert {"expmrc", "quackie", "probing", "attribute"} <= benchmarks, benchmarks
    assert (out / "quackie" / "fast" / "results.json").is_file() and (out / "probing" / "tasks").is_dir()
    assert sorted(p.name for p in (out / "probing" / "report").glob("*.html"))
