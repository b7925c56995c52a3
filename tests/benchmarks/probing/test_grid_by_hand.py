"""The probing grid's published numbers on a task worked out by hand.

The layer cache is written by hand (one feature per layer), so the grid runs its real path — task file, cache,
probe training, store, ``results_frame`` — without an encoder, and every figure is known before it runs:

layer 1: training sentences of class A lie at x ≈ −1, of B at x ≈ +1 (validation likewise), so any probe that
separates the validation part puts its threshold in (−1, 1) and predicts A for x < −1 and B for x > 1. Test:
A at −2, −1.5 and +1.5, B at +2, +1.8 and −2 → predictions A A B B B A → 4 of 6 right (training accuracy: 8 of 8).
Per class: A has TP 2, FP 1, FN 1 (F1 2/3), B likewise (F1 2/3) → weighted F1 2/3.
layer 2: the same, but the two misplaced test sentences sit on their own side → 6 of 6.
Majority line: the training part has 5 A and 3 B, so "always A" scores 3 of 6 on the test part.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from interpeval import metrics
from interpeval.benchmarks.probing import views
from interpeval.benchmarks.probing.grid import ProbingGrid, results_frame

TRAIN = [("A", -1.0), ("A", -1.2), ("A", -0.8), ("A", -1.1), ("A", -0.9), ("B", 1.0), ("B", 1.2), ("B", 0.9)]
VALID = [("A", -1.0), ("B", 1.0)]
# (label, layer-1 feature, layer-2 feature)
TEST = [("A", -2.0, -2.0), ("A", -1.5, -1.5), ("B", 2.0, 2.0), ("B", 1.8, 1.8), ("A", 1.5, -1.5), ("B", -2.0, 2.0)]
MODEL = "hand-made"


@pytest.fixture(scope="module")
def task_and_cache(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("hand")
    rows = [("tr", label, f"train sentence {i}", (x, x)) for i, (label, x) in enumerate(TRAIN)]
    rows += [("va", label, f"valid sentence {i}", (x, x)) for i, (label, x) in enumerate(VALID)]
    rows += [("te", label, f"test sentence {i}", (x1, x2)) for i, (label, x1, x2) in enumerate(TEST)]
    tasks = root / "tasks"
    tasks.mkdir()
    task = tasks / "xx_hand_no_sorting_Number.csv"
    task.write_text("".join(f"{part}\t{label}\t{text}\n" for part, label, text, _ in rows))
    # the LayerCache layout: index.json (sha1 of text -> shard, row) and one float32 [N, layers, hidden] shard
    folder = root / "cache" / MODEL
    folder.mkdir(parents=True)
    np.array([vec for *_, vec in rows], dtype=np.float32).reshape(len(rows), 2, 1).tofile(folder / "00000.avg.f32")
    index = {"shards": [len(rows)], "layers": 2, "hidden": 1, "aggregations": ["avg"], "encoded": len(rows),
             "rows": {hashlib.sha1(text.encode()).hexdigest(): [0, i] for i, (_, _, text, _) in enumerate(rows)}}
    (folder / "index.json").write_text(json.dumps(index))
    return tasks, root / "cache"


def test_grid_reports_test_accuracy_worked_out_by_hand(task_and_cache, tmp_path):
    tasks, cache = task_and_cache
    grid = ProbingGrid([tasks], model=MODEL, aggregations=("avg",), control=True, cache_dir=cache,
                       store=tmp_path / "s.sqlite", probe_params={"epochs": 40, "lr": 0.1})
    summary = grid.run()
    assert summary["encoded"] == 0  # everything came from the hand-made cache
    frame = results_frame(tmp_path / "s.sqlite", summary["run_id"]).set_index("layer")
    assert frame.loc[1, "accuracy"] == pytest.approx(4 / 6)
    assert frame.loc[1, "weighted_f1"] == pytest.approx(2 / 3)
    assert frame.loc[2, "accuracy"] == pytest.approx(1.0) and frame.loc[2, "weighted_f1"] == pytest.approx(1.0)
    assert frame.loc[1, "sizes"] == {"tr": 8, "va": 2, "te": 6} and frame.loc[1, "classes"] == ["A", "B"]
    for layer in (1, 2):  # selectivity is task minus control accuracy; the control is scored on 6 test rows
        row = frame.loc[layer]
        assert row["control_accuracy"] * 6 == pytest.approx(round(row["control_accuracy"] * 6))
        assert row["selectivity"] == pytest.approx(row["accuracy"] - row["control_accuracy"])


def test_selectivity_is_task_minus_control():
    selectivity = metrics.get("selectivity")
    assert selectivity(0.9, 0.6) == pytest.approx(0.3) and selectivity(0.5, 0.75) == pytest.approx(-0.25)


def test_majority_line_is_the_training_majority_scored_on_test(task_and_cache):
    tasks, _ = task_and_cache
    assert views._majority_by_task(tasks) == {"xx_hand_no_sorting_Number": pytest.approx(3 / 6)}
