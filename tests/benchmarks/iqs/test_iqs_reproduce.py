"""``reproduce(context)`` for IQS on a tiny configuration through the real code, and the marking rule on a real
SST-2 sentence."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from interpeval import plugins as plugin
from interpeval.benchmarks.iqs.explanations import PAPER_METHODS, explain_samples
from interpeval.benchmarks.iqs.marking import PAPER_PATTERN, Marking
from interpeval.benchmarks.iqs.protocol import sample_protocol, untrained
from interpeval.benchmarks.iqs.reproduce import explainers_line, profile_settings
from interpeval.benchmarks.iqs.tables import SIMULATED_BANNER
from interpeval.benchmarks.iqs.tasks import get_task, load_samples
from interpeval.metrics.iqs import iqs_simplicity
from interpeval.paper import VERDICTS, ReproduceContext, published
from interpeval.store.studies import Studies

METHODS = ["input_x_gradient", "deeplift", "guided_backprop"]
TINY = {"per_class": 1, "tasks": ["sst2"], "methods": METHODS, "models": {"sst2": "tiny-sequence-classification"},
        "annotators": 2}


def test_reproduce_tiny_configuration(tmp_path):
    context = ReproduceContext("quick", tmp_path / "out", tmp_path / "store.sqlite", extra=TINY)
    report = plugin.get("iqs").part("reproduce")(context)
    table1, table2 = report.tables
    assert SIMULATED_BANNER in table1.title and SIMULATED_BANNER in table2.title
    assert "human" not in table1.title.lower().replace("not a human result", "")
    printed = published("iqs")["tables"]
    rows = {row.label: row for row in table1.rows}
    assert set(rows) == {"Results for SST2 Input X Gradient", "Results for SST2 DeepLIFT",
                         "Results for SST2 Guided Back Propagation"}
    gbp = rows["Results for SST2 Guided Back Propagation"]
    assert gbp.cells["Simplicity"].paper == printed["1"]["rows"]["Results for SST2 Guided Back Propagation"][
        "Simplicity"]
    assert gbp.cells["Simplicity"].n == 2 and gbp.cells["Plausibility"].n == 4  # 2 samples × 2 annotators
    assert 0 <= gbp.cells["Simplicity"].ours <= 1 / 3
    assert PAPER_PATTERN.describe() in gbp.differs and SIMULATED_BANNER in gbp.differs
    for number, table in (("1", table1), ("2", table2)):  # the paper column of every row is the published row
        assert all({c: cell.paper for c, cell in row.cells.items()} == printed[number]["rows"][row.label]
                   and row.differs for row in table.rows)
    assert len(table2.rows) == len(printed["2"]["rows"]) == 6
    cells = {r.label: r.cells for r in table2.rows}
    assert cells["LIME"]["SST2 mean"].ours is None and cells["LIME"]["SST2 mean"].paper == 0.6397
    assert cells["DeepLIFT"]["SST2 std"].ours is not None
    ranking, pattern = report.findings
    assert ranking.claim.startswith("SST2") and ranking.verdict in VERDICTS
    assert "n = 50 protocol samples" in pattern.evidence and pattern.verdict in VERDICTS
    json.dumps(report.to_json())

    # a rerun reuses the stored study and its simulated answers
    with Studies(context.store) as studies:
        before = [(s.id, studies.progress(s.id)) for s in studies.studies()]
    again = plugin.get("iqs").part("reproduce")(context)
    with Studies(context.store) as studies:
        assert [(s.id, studies.progress(s.id)) for s in studies.studies()] == before
    assert again.to_json()["tables"] == report.to_json()["tables"]


def test_profiles_say_their_parameters():
    quick, paper = profile_settings("quick", {}), profile_settings("paper", {})
    assert paper["per_class"] == 25 and paper["methods"] == PAPER_METHODS
    assert quick["methods"]["lime"]["n_samples"] < paper["methods"]["lime"]["n_samples"] == 3000
    assert quick["methods"]["integrated_gradients"]["n_steps"] < 50
    with pytest.raises(ValueError, match="profile"):
        profile_settings("full", {})


def test_paper_estimate_is_printed_first_from_a_measured_pilot(tmp_path, monkeypatch, capsys):
    """The paper profile's estimate (LIME / SHAP at 3,000 perturbations, IG 50 steps) is each method's wall time
    measured on one sample at 30 perturbations / 5 steps, scaled linearly, and it is printed before any study."""
    from interpeval.benchmarks.iqs import reproduce as iqs_reproduce

    pilots = []

    def measured(model, task, samples, methods):
        explanations, costs = explain_samples(model, task, samples, methods)
        pilots.append((methods, costs))
        return explanations, costs

    monkeypatch.setattr(iqs_reproduce, "explain_samples", measured)
    context = ReproduceContext("paper", tmp_path / "out", tmp_path / "store.sqlite",
                               extra={**TINY, "methods": ["input_x_gradient"], "skip_protocol_simplicity": True})
    plugin.get("iqs").part("reproduce")(context)
    err = capsys.readouterr().err
    assert err.index("cost estimate, all tasks") < err.index("iqs reproduce (paper)")
    pilot = {name: (params, costs[name]) for methods, costs in pilots for name, params in methods.items()}
    assert set(pilot) == set(PAPER_METHODS)  # the whole protocol's cost, not only the methods this call runs
    assert pilot["lime"][0]["n_samples"] == pilot["kernel_shap"][0]["n_samples"] == 30
    assert pilot["integrated_gradients"][0]["n_steps"] == 5
    n = 2 * TINY["per_class"]
    line = next(line for line in err.splitlines() if line.startswith(f"cost estimate sst2 ({n} samples)"))
    for name, scale in (("lime", 100), ("integrated_gradients", 10), ("input_x_gradient", 1)):
        assert f"{name} {pilot[name][1] * scale * n:.0f} s" in line


@pytest.mark.slow
def test_marking_rule_changes_guided_backprop_simplicity_on_a_real_sst2_sentence():
    """Protocol sample 3 of SST-2 (sst2-test.txt:78, 26 words). Every word gets a non-zero gradient score, so the
    default rule marks all 26: simplicity 1 / (ln(26 − 9) + 1) for every gradient method. Under the paper-pattern
    rule a word counts when |score| > 0.1 × max |score|, counted here straight from the scores."""
    from interpeval.models import load

    task = get_task("sst2")
    sample = sample_protocol(task, untrained("minilm-sst2", load_samples(task))[0], 25, 0)[2]
    assert sample.id == "sst2-test.txt:78" and len(sample.text.split()) == 26
    explanations, _ = explain_samples(load("minilm-sst2", device="cpu"), task, [sample],
                                      {m: PAPER_METHODS[m] for m in ("guided_backprop", "input_x_gradient")})
    scores = {e.method: np.asarray(e.scores) for e in explanations}

    def simplicity(rule, method):
        marks = rule.mark(scores[method])
        return iqs_simplicity(len(marks["green"]) + len(marks["red"]))

    every_word = 1 / (math.log(26 - 9) + 1)
    assert simplicity(Marking(), "guided_backprop") == pytest.approx(every_word)
    assert simplicity(Marking(), "input_x_gradient") == pytest.approx(every_word)
    counts = {m: int((np.abs(s) > 0.1 * np.abs(s).max()).sum()) for m, s in scores.items()}
    assert 10 < counts["input_x_gradient"] < counts["guided_backprop"] < 26
    gbp = simplicity(PAPER_PATTERN, "guided_backprop")
    assert gbp == pytest.approx(1 / (math.log(counts["guided_backprop"] - 9) + 1))
    assert every_word < gbp < simplicity(PAPER_PATTERN, "input_x_gradient")


def test_published_tables_spot_values():
    """Read off the paper by eye: Table 1's SST-2 Guided Backprop simplicity, Table 2's "mean (std)" cells."""
    tables = published("iqs")["tables"]
    assert tables["1"]["rows"]["Results for SST2 Guided Back Propagation"]["Simplicity"] == 0.1765
    assert tables["1"]["rows"]["Results for QNLI LIME"]["IQS"] == 0.5917
    assert tables["2"]["rows"]["Integrated Gradients"] == {"SST2 mean": 0.6274, "SST2 std": 0.113, "STSB mean": 0.541,
                                                           "STSB std": 0.2851, "QNLI mean": 0.595, "QNLI std": 0.1992}


def test_table1_names_each_methods_draw_rule():
    # LIME and Kernel SHAP draw per input: their runs are keyed with the default rule draws="tokens" (docs/cluster.md);
    # DeepLIFT draws nothing and keeps its parameters as given
    methods = {"lime": {"n_samples": 50, "regression": "lasso", "alpha": 3e-4},
               "kernel_shap": {"n_samples": 50, "draws": "seed"}, "deeplift": {"baseline": "zero"}}
    assert explainers_line(methods) == (
        "lime {'n_samples': 50, 'regression': 'lasso', 'alpha': 0.0003, 'draws': 'tokens'}, "
        "kernel_shap {'n_samples': 50, 'draws': 'seed'}, deeplift {'baseline': 'zero'}")
