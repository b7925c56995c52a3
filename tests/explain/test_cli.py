"""`interpeval explain`: one input, a terminal heatmap and an HTML file, through the typer app."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from interpeval.cli import app
from interpeval.cli.explain import parse_target
from interpeval.models import Target


def test_explain_prints_heatmap_and_writes_html(tmp_path):
    out = tmp_path / "a.html"
    result = CliRunner().invoke(app, ["explain", "a charming and often affecting journey", "--model", "tiny-sequence-classification",
                                      "--method", "lime", "--param", "n_samples=20", "--target", "class_prob:1",
                                      "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert "a charming and often affecting journey" in result.output
    assert "'index': 1" in result.output and "top tokens:" in result.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "background:rgb(" in page


def test_explain_pair_and_errors():
    result = CliRunner().invoke(app, ["explain", "what is it ?", "--model", "tiny-extractive-qa", "--method", "saliency",
                                      "--pair", "a film about love"])
    assert result.exit_code == 0, result.output
    assert "what is it ? ‖ a film about love" in result.output.replace("\n", " ")
    assert parse_target("class_prob") == Target("class_prob")
    with pytest.raises(ValueError, match="NAME:INDEX"):
        parse_target("class_prob:x")
    result = CliRunner().invoke(app, ["explain", "x", "--model", "tiny-sequence-classification", "--method", "nope"])
    assert isinstance(result.exception, KeyError)
