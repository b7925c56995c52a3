"""The main job's last step: the summary index page, written from the store after the steps, and its path printed."""

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interpeval.benchmarks.expmrc import jobs as expmrc_jobs
from interpeval.cli import app, suite
from interpeval.plugins import SuiteStep


def test_suite_ends_with_the_summary_report(tmp_path, monkeypatch):
    sentences = tmp_path / "two.txt"
    sentences.write_text("a gripping , funny film .\nthe plot is a mess .\n")
    store = tmp_path / "s.sqlite"

    def steps(out: Path, store_path: Path, profile: str = "full"):
        return [SuiteStep("Saliency on two sentences (tiny model)",
                          ["attribute", str(sentences), "--explainer", "saliency", "--store", str(store_path)])]

    monkeypatch.setattr(suite, "_steps", steps)
    result = CliRunner().invoke(app, ["suite", "--out", str(tmp_path / "out"), "--store", str(store)])
    assert result.exit_code == 0, result.output
    index = tmp_path / "out" / "index.html"
    assert f"report: {index.resolve()}" in result.output.replace("\n", "")
    page = index.read_text(encoding="utf-8")
    assert "Saliency on two sentences (tiny model)" in page
    assert f"interpeval attribute {sentences} --explainer saliency" in page
    assert "wall time" in page and "Headline findings" in page and "a gripping , funny film ." in page


def _small_expmrc(folder: Path) -> Path:
    """The vendored ExpMRC SQuAD and RACE dev files cut to their first article(s): 23 and 15 questions."""
    from importlib import resources

    for subset, articles in (("squad", 1), ("race", 4)):
        name = f"expmrc-{subset}-dev.json"
        full = json.loads((resources.files("interpeval") / "data" / "expmrc" / subset / name).read_text("utf-8"))
        (folder / subset).mkdir(parents=True)
        (folder / subset / name).write_text(json.dumps({**full, "data": full["data"][:articles]}), "utf-8")
    return folder


@pytest.mark.slow
def test_the_main_job_runs_its_real_steps_in_the_tiny_profile(tmp_path, monkeypatch):
    """Every step of `interpeval suite` runs for real (the same commands, a few items each) into one store.

    CI time (issue 32): the tiny profile is cut further here, without dropping a step or a kind of explainer: ExpMRC
    Table 3 on the first article(s) of SQuAD and RACE (it scored all 1,062 questions: ~45 % of the test's CPU),
    QUACKIE's reproduction on one question per cell (its check and selection still run)."""
    from interpeval.benchmarks.quackie import reproduce as quackie_reproduce
    from interpeval.store import Store

    tiny = expmrc_jobs.PROFILES["tiny"]
    monkeypatch.setitem(expmrc_jobs.PROFILES, "tiny", {
        **tiny, "args": [*tiny["args"], "--data-dir", str(_small_expmrc(tmp_path / "expmrc-data"))]})
    tiny_quackie = quackie_reproduce.PROFILES["tiny"]
    monkeypatch.setitem(quackie_reproduce.PROFILES, "tiny", dataclasses.replace(tiny_quackie, cheap_limit=1))
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["suite", "--profile", "tiny", "--out", str(out)])
    assert result.exit_code == 0, result.output
    titles = [step.title for step in suite._steps(out, out / "results.sqlite", "tiny")]
    page = (out / "index.html").read_text(encoding="utf-8")
    assert all(title in page for title in titles) and "Headline findings" in page
    for subset in ("squad", "cmrc2018", "race", "c3"):  # the official scorer's JSON on each sample submission
        assert '"ANS_F1"' in (out / "expmrc" / f"score-{subset}.json").read_text()
    with Store(out / "results.sqlite") as store:
        benchmarks = {run.benchmark for run in store.runs()}
    assert {"expmrc", "quackie", "probing", "attribute"} <= benchmarks, benchmarks
    assert "QUACKIE" in page and (out / "reproduce" / "reproduce-quackie.json").is_file()
    assert (out / "probing" / "tasks").is_dir()
    assert sorted(p.name for p in (out / "probing" / "report").glob("*.html"))
