"""``reproduce(context)`` for ExpMRC on a tiny configuration through the real code, and the human row's label."""

from __future__ import annotations

import json

from interpeval import plugins as plugin
from interpeval.benchmarks.expmrc import run as expmrc_run
from interpeval.benchmarks.expmrc.data import dev_path, load_dataset
from interpeval.benchmarks.expmrc.human import FIXED_ANSWER, human_performance
from interpeval.benchmarks.expmrc.reproduce import reproduce, sample
from interpeval.benchmarks.expmrc.run import SYSTEMS, run_systems
from interpeval.benchmarks.expmrc.tables import table3
from interpeval.benchmarks.expmrc.views import expmrc_leaderboard
from interpeval.paper import VERDICTS, ReproduceContext, published
from interpeval.store import Store

TINY = {"questions": 3, "qa_model": "tiny-extractive-qa", "qa_model_zh": "tiny-extractive-qa"}


def test_reproduce_tiny_configuration(tmp_path, monkeypatch):
    context = ReproduceContext("quick", tmp_path / "out", tmp_path / "store.sqlite", extra=TINY)
    report = plugin.get("expmrc").part("reproduce")(context)
    assert report.paper == "expmrc" and report.profile == "quick"
    (table,) = report.tables
    assert table.columns[:3] == ["SQuAD dev Ans.", "SQuAD dev Evi.", "SQuAD dev All"] and len(table.columns) == 12
    rows = {row.label: row for row in table.rows}
    printed = published("expmrc")["tables"]["3"]["rows"]
    mss = rows["Most Similar Sent."]
    assert mss.cells["SQuAD dev Evi."].paper == printed["PLM base-level Baselines Most Similar Sent., SQuAD / CMRC "
                                                       "2018"]["SQuAD dev Evi."]
    assert mss.cells["C3 dev All"].paper == printed["PLM base-level Baselines Most Similar Sent., RACE+ / C3"][
        "C3 dev All"]
    # the whole paper column: each row holds every published dev value of the paper's base-level (or human) row of
    # that name, both panels, and nothing else (the tiny head has no evidence head: no pseudo-data row)
    for row in table.rows:
        name = row.label.lower()
        published_rows = [r for label, r in printed.items() if label.lower().removeprefix(
            "plm base-level baselines ").split(", ")[0] == name]
        expected = sorted(v for r in published_rows for c, v in r.items() if " dev " in c and v is not None)
        assert sorted(c.paper for c in row.cells.values() if c.paper is not None) == expected, row.label
        assert row.differs
    assert sum(c.paper is not None for row in table.rows for c in row.cells.values()) == 42
    assert all(c.n == 3 for c in mss.cells.values()) and "3 of the 501" in mss.differs
    assert all(c.low <= c.ours <= c.high for c in mss.cells.values())
    # PA Sent. has no multiple-choice counterpart: empty on both sides
    pa = rows["Predicted Answer Sent."].cells["RACE+ dev Evi."]
    assert (pa.paper, pa.ours) == (None, None)
    # the human answer score of multiple choice is fixed, not measured: not reported, and the row says why
    human = rows["Human Performance"]
    assert human.cells["RACE+ dev Ans."].ours is None and human.cells["C3 dev All"].ours is None
    assert human.cells["RACE+ dev Evi."].ours is not None and human.cells["SQuAD dev Ans."].ours is not None
    assert FIXED_ANSWER in human.differs and FIXED_ANSWER in table.notes
    assert [f.verdict in VERDICTS for f in report.findings] == [True] * 3
    assert report.findings[2].verdict == "cannot be tested here"
    assert json.loads(json.dumps(report.to_json()))["tables"][0]["number"] == "3"

    # a rerun resumes from the store: no model pass
    def no_pass(*args, **kwargs):
        raise AssertionError("the answer model ran again")

    monkeypatch.setattr(expmrc_run, "qa_outputs", no_pass)
    again = reproduce(context)
    assert again.to_json()["tables"] == report.to_json()["tables"]


def test_sample_is_seeded_and_in_file_order():
    dataset = load_dataset(dev_path("race"))
    picked = sample(dataset, 5)
    ids = [q.qid for q in dataset.questions]
    assert [q.qid for q in picked.questions] == [q.qid for q in sample(dataset, 5).questions]
    assert sorted(ids.index(q.qid) for q in picked.questions) == [ids.index(q.qid) for q in picked.questions]
    assert sample(dataset, None) is dataset


def test_human_row_labels_the_fixed_answer_score(tmp_path):
    """Multiple choice: the human answer score is fixed at 100; Table 3 and the leaderboard say so."""
    race = sample(load_dataset(dev_path("race")), 4)
    human = next(s for s in SYSTEMS if s.key == "human")
    score = human_performance(race)
    assert set(score.answer.values()) == {1.0}  # fixed, whatever the references say
    table = table3({("human", "race"): score}, {}, {"race": "race dev"}, systems=(human,), subsets=("race",),
                   kinds={"race": "choice"})
    assert table.rows[0][1] == "100 (fixed)" and table.rows[0][3].endswith("(= Evi.)")
    with Store(tmp_path / "s.sqlite") as store:
        run_systems({"race": race}, {}, lambda d: None, tmp_path / "out", store, systems=(human,))
        board = expmrc_leaderboard(store)
    assert [FIXED_ANSWER in row["system"] for row in board["rows"]] == [True]


def test_published_table3_spot_values():
    """Read off the paper by eye (both panels; dev and test; the two spellings of "training")."""
    rows = published("expmrc")["tables"]["3"]["rows"]
    assert rows["Human Performance, RACE+ / C3"]["RACE+ dev Ans."] == 92.0
    assert rows["PLM base-level Baselines Pseudo-data Training, SQuAD / CMRC 2018"]["SQuAD dev All"] == 69.7
    assert rows["PLM large-level Baselines Pseudo-data training, RACE+ / C3"]["C3 test All"] == 47.3
    assert rows["PLM base-level Baselines Most Similar Sent., RACE+ / C3"]["SQuAD dev Ans."] is None
