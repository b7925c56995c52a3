"""`interpeval iqs study create` and `interpeval iqs score` through the command line (in process)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from interpeval.benchmarks.iqs.tables import SIMULATED_BANNER
from interpeval.cli import app
from interpeval.store.studies import Studies


def test_create_then_score_with_simulated_annotators(tmp_path):
    store = tmp_path / "s.sqlite"
    runner = CliRunner()
    created = runner.invoke(app, ["iqs", "study", "create", "--task", "stsb", "--model", "tiny-regression",
                                  "--per-class", "2", "--methods", "input_x_gradient,deeplift", "--top-k", "3",
                                  "--store", str(store)])
    assert created.exit_code == 0, created.output
    assert "study 1: 8 items (4 samples × 2 methods)" in created.output
    assert "|score| > 0" not in created.output and "score ≠ 0, top 3 by |score|" in created.output
    assert "input_x_gradient" in created.output and "deeplift" in created.output
    with Studies(store) as studies:
        config = studies.study(1).config["iqs"]
        assert config["marking"] == {"threshold": 0.0, "top_k": 3, "sign": "both",
                                     "rule": "score ≠ 0, top 3 by |score|"}
        assert all(len(i.payload["iqs"]["green"]) + len(i.payload["iqs"]["red"]) <= 3 for i in studies.items(1))

    human = runner.invoke(app, ["iqs", "score", "1", "--store", str(store), "--out", str(tmp_path / "h")])
    assert human.exit_code != 0 and "no human answers" in str(human.exception or human.output)

    out = tmp_path / "out"
    scored = runner.invoke(app, ["iqs", "score", "1", "--store", str(store), "--out", str(out),
                                 "--simulated-annotator", "model-output"])
    assert scored.exit_code == 0, scored.output
    assert scored.output.count(SIMULATED_BANNER) >= 2  # the annotators' line and Table 1's title
    assert "ranking (stsb):" in scored.output
    table = json.loads((out / "table1-stsb.json").read_text())
    assert SIMULATED_BANNER in table["title"] and table["provenance"]["annotators"].startswith(SIMULATED_BANNER)
    assert [r["method"] for r in table["rows"]][-1] == "trivial baseline"
    assert table["notes"][0] == "loss of reproducibility: mean absolute error"
    assert (out / "figure5.png").is_file()
    # scoring again re-uses the stored simulated answers (no second set of answers)
    again = runner.invoke(app, ["iqs", "score", "1", "--store", str(store), "--out", str(out),
                                "--simulated-annotator", "model-output"])
    assert again.exit_code == 0
    with Studies(store) as studies:
        assert sum(len(r["answers"]) for r in studies.export(1)) == 3 * 8
