"""`reproduce plm` on a tiny configuration through the real build, run and tables; the findings' verdict rules."""

import numpy as np
import pytest

from interpeval.benchmarks.plm.records import read_golden
from interpeval.benchmarks.plm.reproduce import PAIRED, _verdict_ahead, mean_cell, reproduce
from interpeval.paper import VERDICTS, ReproduceContext, published


@pytest.fixture(scope="module")
def report(tmp_path_factory, data_dir):
    tmp = tmp_path_factory.mktemp("reproduce")
    lines = []
    context = ReproduceContext("tiny", tmp / "out", tmp / "s.sqlite", data_dir=data_dir,
                               extra={"models": {"en": ["tiny-masked-lm"], "zh": ["tiny-masked-lm"]},
                                      "log": lines.append})
    report = reproduce(context)
    assert lines[0].startswith("plm: about 22 model × record evaluations")  # 2 × 5 dimensions × 2.2, before work
    return report, tmp


@pytest.mark.slow
def test_every_published_cell_stands_in_its_table(report):
    report, _ = report
    paper = published("plm")["tables"]
    assert [t.number for t in report.tables] == ["3", "4", "5", "6", "7", "8", "9", "11", "10"]
    for table in report.tables:
        rows = paper[table.number]["rows"]
        assert table.columns == paper[table.number]["columns"]
        shown = {row.label.split(" · ours")[0] for row in table.rows}
        assert shown == set(rows), table.number
        for row in table.rows:
            published_row = rows[row.label.split(" · ours")[0]]
            assert {c: cell.paper for c, cell in row.cells.items()} == published_row
            assert row.differs


@pytest.mark.slow
def test_ours_is_computed_from_the_stored_records(report):
    report, tmp = report
    golden = read_golden(tmp / "out" / "plm" / "data" / "plm-en.golden.jsonl")
    table8 = next(t for t in report.tables if t.number == "8")
    row = next(r for r in table8.rows if r.label == f"{PAIRED} + Top3 · ours tiny-masked-lm")
    from interpeval.benchmarks.plm.tables import load_result
    from interpeval.store import Store

    with Store(tmp / "s.sqlite") as store:
        run = next(r for r in store.runs("plm_rationale") if r.config["golden"] == "plm-en.golden.jsonl")
        outputs = load_result(store, run.id, "en").outputs
    grammar = [outputs[g.sent_id]["hit3"] for g in golden if g.dimension == "grammar"]
    cell = row.cells["Grammar All"]
    assert cell.n == len(grammar) > 0 and cell.ours == pytest.approx(100 * np.mean(grammar))
    stats = next(t for t in report.tables if t.number == "3")
    grammar_size = next(r for r in stats.rows if r.label == "Grammar").cells["en Size"]
    assert grammar_size.ours == sum(g.dimension == "grammar" and g.sample_type == "disturb" for g in golden)
    assert "n_steps': 2" in next(t for t in report.tables if t.number == "9").explainer
    assert [f.verdict in VERDICTS for f in report.findings] == [True] * 4
    assert all(any(ch.isdigit() for ch in f.evidence) for f in report.findings)


def test_mean_cell_carries_n_and_an_interval_around_the_mean():
    cell = mean_cell(61.3, [1.0, 0.0, 1.0, 1.0], 100)
    assert (cell.paper, cell.ours, cell.n) == (61.3, 75.0, 4) and cell.low <= 75.0 <= cell.high
    assert mean_cell(0.5, [float("nan")]).ours is None


@pytest.mark.parametrize("diffs, verdict", [
    ([("en m", 0.2, 0.1, 0.3, 40), ("zh m", 0.1, 0.02, 0.2, 40)], "holds"),
    ([("en m", 0.2, 0.1, 0.3, 40), ("zh m", -0.1, -0.2, -0.05, 40)], "does not hold"),
    ([("en m", 0.05, -0.1, 0.2, 5)], "cannot be tested here"),
    ([], "cannot be tested here"),
])
def test_att_versus_ig_verdict_needs_every_interval(diffs, verdict):
    assert _verdict_ahead(diffs, "ATT beats IG", "F1").verdict == verdict
