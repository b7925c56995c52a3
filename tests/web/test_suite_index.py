"""The main job's last step: the summary index page, written from the store after the steps, and its path printed."""

from pathlib import Path

from typer.testing import CliRunner

from interpeval.cli import app, suite


def test_suite_ends_with_the_summary_report(tmp_path, monkeypatch):
    sentences = tmp_path / "two.txt"
    sentences.write_text("a gripping , funny film .\nthe plot is a mess .\n")
    store = tmp_path / "s.sqlite"

    def steps(out: Path, store_path: Path):
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
