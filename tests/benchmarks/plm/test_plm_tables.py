"""The masked-LM prediction table against values worked out by hand on a hand-made golden/predict pair.

Kept small and on the builder's function interface (``prediction_table(lang, results, path, golden)``), so a new
table numbering only changes the title check.
"""

from __future__ import annotations

import pytest

from interpeval.benchmarks.plm.records import GoldenRecord
from interpeval.benchmarks.plm.tables import RunResult, mean_ci, prediction_table


def _record(sid: int, answer: str, ori: int | None = None) -> GoldenRecord:
    """An original (``ori`` None, partner ``sid + 100``) or a perturbed partner of ``ori``."""
    tokens = ["w", "[MASK]"]
    meta = {"lang": "en", "dimension": "grammar", "label": "silver",
            "perturbation": None if ori is None else "replace", "ori_id": ori}
    return GoldenRecord(sid, "w [MASK]", tokens, answer, [[0]], "ori" if ori is None else "disturb",
                        [sid + 100] if ori is None else [], meta)


# four originals 1-4 and their partners 101-104; groups 1-3 answer "a", group 4 "b"
GOLDEN = [*(_record(i, "a" if i < 4 else "b") for i in (1, 2, 3, 4)),
          *(_record(100 + i, "a" if i < 4 else "b", ori=i) for i in (1, 2, 3, 4))]
HITS = {1: (1, 1), 2: (1, 1), 3: (1, 1), 4: (0, 1),  # originals: Top-1 3/4, Top-3 4/4
        101: (0, 1), 102: (0, 1), 103: (0, 0), 104: (1, 1)}  # partners: Top-1 1/4, Top-3 3/4


def _table():
    outputs = {sid: {"hit1": h1, "hit3": h3} for sid, (h1, h3) in HITS.items()}
    result = RunResult("en", "m", "saliency", "saliency", {}, "mask", 1, outputs)
    return prediction_table("en", [result], "golden.json", GOLDEN)


def test_prediction_table_original_and_perturbed_columns_by_hand():
    table = _table()
    assert "all / original / perturbed" in table.title
    rows = {row["Dimension"]: row for row in (dict(zip(table.columns, r, strict=True)) for r in table.rows)}
    assert set(rows) == {"grammar", "all"}
    for row in rows.values():
        assert row["n"] == 8
        # originals Top-1 [1,1,1,0]: mean 0.75, s = 0.5, half = 1.96 · 0.5 / √4 = 0.49
        assert row["Top-1 ori"] == "75.0 ± 49.0"
        assert row["Top-3 ori"] == "100.0 ± 0.0"
        # partners Top-1 [0,0,0,1]: mean 0.25, the same half-width; Top-3 [1,1,0,1]: 0.75 ± 0.49
        assert row["Top-1 per"] == "25.0 ± 49.0"
        assert row["Top-3 per"] == "75.0 ± 49.0"
        # all eight Top-1: mean 0.5, s = √(8/28) = 0.5345, half = 1.96 · 0.5345 / √8 = 0.3704
        assert row["Top-1 all"] == "50.0 ± 37.0"
        # all eight Top-3 (7 of 8): s = √(7/8 · 1/8 · 8/7) = 0.3536, half = 1.96 · 0.3536 / √8 = 0.2450
        assert row["Top-3 all"] == "87.5 ± 24.5"
        # majority, each group left out: groups 1-3 see "a" (4 left) as the top answer → 6 hits; group 4 sees
        # only "a" → 0; 6 / 8 for Top-1 and Top-3 alike
        assert row["majority Top-1/Top-3"] == "75.0 / 75.0"


@pytest.mark.parametrize(("values", "expected"), [
    ([1.0, 0.0], "50.0 ± 98.0"),  # s = 0.7071, 1.96 · 0.7071 / √2 = 0.98 (z = 1, ddof 0 would give 35.4)
    ([0.2, 0.4, 0.6], "40.0 ± 22.6"),  # s = 0.2, 1.96 · 0.2 / √3 = 0.2263
    ([0.3], "30.0"),
    ([], "–"),
    ([float("nan"), 0.5, 0.5], "50.0 ± 0.0"),  # NaN left out
])
def test_mean_ci_is_the_95_percent_normal_interval(values, expected):
    assert mean_ci(values) == expected
