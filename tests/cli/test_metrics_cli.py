"""`interpeval metrics` lists every metric with its needs and level; `interpeval metrics score` applies a metric
of named inputs (per instance or per dataset) to a file, with clear errors for bad files and wrong metrics."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from interpeval import metrics
from interpeval.stats import mean_ci


def _run(*args):
    from interpeval.cli import app

    return CliRunner().invoke(app, ["metrics", *args])


def test_the_list_shows_needs_level_and_command():
    res = _run("--family", "faithfulness")
    assert res.exit_code == 0, res.output
    assert "trustai_sufficiency" in res.output and "pred_proba" in res.output and "dataset" in res.output
    assert "evaluate --metric" in res.output and "metrics score" in res.output


def test_every_registered_metric_is_reachable_from_a_command():
    from interpeval.evaluate.engine import resolve_metrics

    for name in metrics.names():
        metric = metrics.get(name)
        if metric.uses_evidence:
            assert resolve_metrics([name]) == [name]  # interpeval evaluate --metric NAME
        else:
            assert metric.info.needs and metric.info.level in ("instance", "dataset")  # interpeval metrics score


def test_dataset_metric_from_a_json_object(tmp_path):
    data = {"pred_proba": [[0.2, 0.8], [0.9, 0.1]], "rationale_pred_proba": [[0.4, 0.6], [0.7, 0.3]],
            "pred_label": [1, 0]}
    path = tmp_path / "suf.json"
    path.write_text(json.dumps(data))
    res = _run("score", "trustai_sufficiency", str(path))
    assert res.exit_code == 0, res.output
    # mean of p_full[y] − p_rationale[y] = ((0.8 − 0.6) + (0.9 − 0.7)) / 2 = 0.2
    assert json.loads(res.output.split("=", 1)[1]) == pytest.approx(0.2)


def test_instance_metric_per_line_with_mean_interval_and_options(tmp_path):
    lines = [{"gt": [1, 0, 0, 0], "scores": [0.9, 0.1, 0.2, 0.3]}, {"gt": [0, 1, 0], "scores": [0.5, 0.2, 0.1]},
             {"gt": [0, 0, 1], "scores": [0.1, 0.3, 0.3]}]
    path = tmp_path / "hpd.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    out = tmp_path / "values.jsonl"
    res = _run("score", "quackie_hpd_continuous", str(path), "--out", str(out))
    assert res.exit_code == 0, res.output
    direct = [metrics.get("quackie_hpd_continuous")(x["gt"], x["scores"]) for x in lines]
    assert [json.loads(v)["value"] for v in out.read_text().splitlines()] == direct == [1.0, 1 / 2, 1 / 2]
    stats = mean_ci(direct)
    assert f"mean {np.mean(direct):.4f} [{stats['low']:.4f}, {stats['high']:.4f}] (n = 3 of 3 lines" in res.output
    f1 = tmp_path / "f1.json"
    f1.write_text(json.dumps({"references": ["The cat"], "prediction": "the cat"}))
    # official: gold 'The cat' keeps 'the' (articles are dropped before lowercasing), the prediction keeps 'cat':
    # precision 1, recall 1/2, F1 2/3; official=false drops both articles: F1 1
    assert f"= {2 / 3}" in _run("score", "expmrc_f1", str(f1)).output
    assert "= 1.0" in _run("score", "expmrc_f1", str(f1), "--option", "official=false").output


@pytest.mark.parametrize("name, content, suffix, message", [
    ("trustai_sufficiency", '{"pred_proba": [[1.0]]}', ".json",
     "missing input rationale_pred_proba, pred_label"),
    ("quackie_iou", '{"gt": [1, 0], "pred_binary": [1]}\n{"gt": [1]}\n', ".jsonl", "line 1: metric quackie_iou: gt "
                                                                                   "and pred_binary differ"),
    ("quackie_iou", '{"gt": [1], "pred_binary": [1]}\nnot json\n', ".jsonl", "line 2: is not valid JSON"),
    ("baidu_macro_f1", '{"preds": {}, "golds": {}}\n{"preds": {}, "golds": {}}\n', ".jsonl",
     "baidu_macro_f1 scores a whole dataset: give one .json object"),
    ("ferret_auprc", "{}", ".json", "use interpeval evaluate --metric ferret_auprc"),
    ("nope", "{}", ".json", "unknown metric 'nope'"),
    ("jaccard", "a,b", ".csv", "expected .json"),
])
def test_bad_input_is_one_clear_line(tmp_path, capsys, name, content, suffix, message):
    from interpeval.cli import main

    path = tmp_path / f"in{suffix}"
    path.write_text(content)
    with pytest.raises(SystemExit) as exit_:
        main(["metrics", "score", name, str(path)])
    err = " ".join(capsys.readouterr().err.split())
    assert exit_.value.code == 2 and message in err and "Traceback" not in err, err
