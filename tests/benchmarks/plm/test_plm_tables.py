"""The masked-LM tables (3, 4-11), F1^Δ, the pooled "all" row and Figure 1's data against values worked out by hand
on hand-made golden/predict records (mutation-checked: docs/testing.md, "Round 4 … masked-LM table builders").

Kept small and on the builder's function interface (``prediction_table(lang, results, path, golden)``), so a new
table numbering only changes the title check.
"""

from __future__ import annotations

import pytest

from interpeval.benchmarks.plm.records import GoldenRecord
from interpeval.benchmarks.plm.tables import (
    RunResult,
    f1_delta,
    figure_data,
    interpretability_table,
    load_result,
    mean_ci,
    perturbation_tables,
    prediction_table,
    statistics_table,
)
from interpeval.errors import DataError
from interpeval.store import Store


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


# ---------------------------------------------------------------------------------------------------------------
# Tables 3, 9, 10, 11 (the English numbering; Chinese 5-7 are the same builders), F1^Δ and the pooled "all" row,
# on a second hand-made golden/predict pair. Every record: [MASK] first, then four (or five) word tokens.
#   1 grammar ori  [M a b c d]   gold [1,2]   partners 11 (replace: d→x) and 12 (transform)
#   2 grammar ori  [M p q r s]   gold [1]     partner 21 (ins_del: t inserted at the end)
#   3 semantics ori [M u v w z]  gold [1..4]  partner 31 (replace: z→y)
def _rec(sid, dim, tokens, gold, kind=None, ori=None, rel=()):
    meta = {"lang": "en", "dimension": dim, "label": "silver", "perturbation": kind, "ori_id": ori}
    return GoldenRecord(sid, " ".join(tokens), ["[MASK]", *tokens], "ans", [gold], "ori" if ori is None else "disturb",
                        list(rel), meta)


GOLDEN2 = [_rec(1, "grammar", "abcd", [1, 2], rel=(11, 12)),
           _rec(11, "grammar", "abcx", [1, 2], "replace", 1),
           _rec(12, "grammar", "dcba", [3, 4], "transform", 1),
           _rec(2, "grammar", "pqrs", [1], rel=(21,)),
           _rec(21, "grammar", "pqrst", [1], "ins_del", 2),
           _rec(3, "semantics", "uvwz", [1, 2, 3, 4], rel=(31,)),
           _rec(31, "semantics", "uvwy", [1, 2, 3, 4], "replace", 3)]
# sid: (hit1, hit3, stored token-F1, rationale in importance order, word scores incl. [MASK])
OUT2 = {1: (1, 1, 1.0, [1, 2], [0, 4, 3, 2, 1]), 11: (0, 1, 0.5, [2, 1], [0, 4, 3, 2, 1]),
        12: (0, 0, 0.0, [3, 4], [0, 1, 1, 1, 1]),
        2: (1, 1, 0.5, [1], [0, 1, 2, 3, 4]), 21: (1, 1, 0.5, [1], [0, 1, 2, 3, 4, 0]),
        3: (0, 1, 1.0, [1, 2, 3, 4], [0, 1, 2, 3, 4]), 31: (0, 0, 0.5, [4, 3, 2, 1], [0, 4, 3, 2, 1])}


def _result2():
    outputs = {sid: dict(zip(("hit1", "hit3", "f1", "rationale", "word_scores"), v, strict=True))
               for sid, v in OUT2.items()}
    return RunResult("en", "m", "grad", "gradient", {}, "mask", 1, outputs)


def _rows(table, *keys):
    return {tuple(r[k] for k in keys): r for r in (dict(zip(table.columns, row, strict=True)) for row in table.rows)}


def _strict(build, *args):
    """Build with RuntimeWarnings as errors: an empty dimension must not print numpy's 'Mean of empty slice'."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        return build(*args)


def test_statistics_table_by_hand():
    # RRL over the originals: grammar (2/4 + 1/4) / 2 = 37.5 %, semantics 4/4 = 100 %
    table = statistics_table("en", "g.json", GOLDEN2)
    assert table.title.startswith("Table 3")
    rows = _rows(table, "Dimension")
    assert [rows[("grammar",)][c] for c in ("originals", "ins_del", "replace", "transform", "pairs", "RRL %")] == \
        [2, 1, 1, 1, 3, 37.5]
    assert [rows[("semantics",)][c] for c in ("originals", "ins_del", "replace", "transform", "pairs", "RRL %")] == \
        [1, 0, 1, 0, 1, 100.0]


def test_interpretability_table_and_pooled_all_row_by_hand():
    # RRL (all records): grammar (.5 + .5 + .5 + .25 + .2) / 5 = 0.39, semantics 1.0; all (5·.39 + 2·1) / 7 = .564
    # MAP (Trans. left out): pair (1,11) [a,b] vs [b,a] = (0/1 + 2/2) / 2 = .5; pair (2,21) [p] vs [p] = 1;
    #   pair (3,31) [u,v,w,z] vs [y,w,v,u] = (0 + 0 + 2/3 + 3/4) / 4 = 17/48 = .3542; all: (.5 + 1 + .3542) / 3
    # PCC: (1,11) r = 1 over [4,3,2,1]; (2,21) r = 1 over [1,2,3,4,0] (t meets a virtual 0); (3,31) r = -1
    #   pooled all = (1·2 + (-1)·1) / 3 = 33.3 (weighted by significant pairs; the unweighted mean would be 0)
    # MAP*: grammar K = ceil(4·.39) = 2 (ceil(5·.39) = 2 for 21): [a,b]/[a,b] and [s,r]/[s,r] → 1;
    #   semantics K = 4: [z,w,v,u] vs [u,v,w,y] = (0 + 0 + 2/3 + 3/4) / 4 = .3542; all (2 + .3542) / 3 = .7847
    # token-F1: grammar [1,.5,0,.5,.5] mean .5, s = √(.5/4), half 1.96·.3536/√5 = .3099; semantics [1,.5] .75 ± .49;
    #   all seven: mean 4/7, s² = (5/7)/6, half 1.96·.3450/√7 = .2556
    # nearest-K (K = 2 for grammar, 4 for semantics, the tokens right of [MASK]): F1 1, 1, 0, 2/3, 2/3 → mean 2/3,
    #   s = √(.6667/4), half 1.96·.4082/√5 = .3579; semantics 1, 1; all mean 16/21 = .7619, s² = .8254/6,
    #   half 1.96·.3709/√7 = .2748
    table = interpretability_table("en", [_result2()], "g.json", GOLDEN2)
    assert table.title.startswith("Table 9")
    rows = _rows(table, "Dimension")
    cols = ("RRL", "n", "token-F1", "F1 nearest-K", "MAP", "pairs", "PCC (p<0.05)", "MAP*", "significant")
    assert [rows[("grammar",)][c] for c in cols] == [0.39, 5, "50.0 ± 31.0", "66.7 ± 35.8", "75.0", 2, "100.0",
                                                      "100.0", 2]
    assert [rows[("semantics",)][c] for c in cols] == [1.0, 2, "75.0 ± 49.0", "100.0 ± 0.0", "35.4", 1, "-100.0",
                                                        "35.4", 1]
    assert [rows[("all",)][c] for c in cols] == [0.564, 7, "57.1 ± 25.6", "76.2 ± 27.5", "61.8", 3, "33.3",
                                                  "78.5", 3]


def test_perturbation_tables_and_f1_delta_by_hand():
    pred, interp = perturbation_tables("en", [_result2()], "g.json", GOLDEN2)
    assert pred.title.startswith("Table 11") and interp.title.startswith("Table 10")
    p = _rows(pred, "Dimension", "Perturbation")
    assert set(p) == {("grammar", "ins_del"), ("grammar", "replace"), ("grammar", "transform"),
                      ("semantics", "replace"), ("all", "ins_del"), ("all", "replace"), ("all", "transform")}
    cols = ("pairs", "Top-1 ori", "Top-1 per", "Top-3 ori", "Top-3 per")
    assert [p[("grammar", "replace")][c] for c in cols] == [1, "100.0", "0.0", "100.0", "100.0"]
    assert [p[("grammar", "transform")][c] for c in cols] == [1, "100.0", "0.0", "100.0", "0.0"]
    assert [p[("semantics", "replace")][c] for c in cols] == [1, "0.0", "0.0", "100.0", "0.0"]
    # all/replace: originals 1, 3 → Top-1 [1,0] = 50 ± 1.96·.7071/√2 = 98; partners 11, 31 → Top-1 [0,0], Top-3 [1,0]
    assert [p[("all", "replace")][c] for c in cols] == [2, "50.0 ± 98.0", "0.0 ± 0.0", "100.0 ± 0.0", "50.0 ± 98.0"]
    i = _rows(interp, "Dimension", "Perturbation")
    cols = ("pairs", "token-F1 per", "F1^Δ", "MAP", "PCC (p<0.05)", "MAP*", "significant")
    # F1^Δ = F1 of the originals − F1 of their partners: 21: .5 − .5; 11: 1 − .5; 12: 1 − 0; 31: 1 − .5
    assert [i[("grammar", "ins_del")][c] for c in cols] == [1, "50.0", "0.000", "100.0", "100.0", "100.0", 1]
    assert [i[("grammar", "replace")][c] for c in cols] == [1, "50.0", "0.500", "50.0", "100.0", "100.0", 1]
    assert [i[("grammar", "transform")][c] for c in cols] == [1, "0.0", "1.000", "excluded", "excluded",
                                                               "excluded", ""]
    assert [i[("semantics", "replace")][c] for c in cols] == [1, "50.0", "0.500", "35.4", "-100.0", "35.4", 1]
    # all/replace pools grammar (1 significant pair, r = 1, MAP* 1) and semantics (r = -1, MAP* .3542):
    # MAP (.5 + .3542) / 2 = 42.7, PCC (1 − 1) / 2 = 0, MAP* (1 + .3542) / 2 = 67.7
    assert [i[("all", "replace")][c] for c in cols] == [2, "50.0 ± 0.0", "0.500", "42.7", "0.0", "67.7", 2]
    assert [i[("all", "ins_del")][c] for c in cols] == [1, "50.0", "0.000", "100.0", "100.0", "100.0", 1]
    by_id = {g.sent_id: g for g in GOLDEN2}
    outputs = _result2().outputs
    # 11 and 31 together: (1 + 1) / 2 − (.5 + .5) / 2; a partner whose original was not evaluated has no pair
    assert f1_delta([by_id[11], by_id[31]], by_id, outputs) == pytest.approx(0.5)
    assert f1_delta([by_id[11]], by_id, {11: outputs[11]}) != f1_delta([by_id[11]], by_id, {11: outputs[11]})


def test_chinese_tables_are_numbered_4_to_7():
    # the same builders; only the paper's numbering differs (zh: 4 prediction, 5 rationales, 6/7 per type)
    result = _result2()
    assert prediction_table("zh", [result], "g.json", GOLDEN2).title.startswith("Table 4")
    assert interpretability_table("zh", [result], "g.json", GOLDEN2).title.startswith("Table 5")
    pred, interp = perturbation_tables("zh", [result], "g.json", GOLDEN2)
    assert pred.title.startswith("Table 6") and interp.title.startswith("Table 7")


# ---------------------------------------------------------------------------------------------------------------
# Figure 1's data on GOLDEN2/OUT2: the rationale is extracted afresh from the stored word scores at each ratio,
# K = ceil(ratio · tokens other than [MASK]); ties keep position order.
#   n = 4 (every record but 21): K = 1, 1, 2, 2, 2, 3, 3, 4, 4 at 10 … 90 %
#   n = 5 (21):                  K = 1, 1, 2, 2, 3, 3, 4, 4, 5 (2.5 → 3 at 50 %, 3.5 → 4 at 70 %, 4.5 → 5 at 90 %)
# importance order from the scores: 1 and 11 [a b c d/x] (4 > 3 > 2 > 1), 12 ties → 1 2 3 4, 2 [s r q p],
# 21 [s r q p t], 3 [z w v u], 31 [u v w y]
def _figure_expected():
    f1_grammar = [
        (2 / 3 + 2 / 3 + 0 + 0 + 0) / 5,  # K 1: 1 and 11 pick token 1 (gold [1,2]: 2·1/3); 12 picks 1 (gold
        (2 / 3 + 2 / 3) / 5,              #   [3,4]: 0); 2 and 21 pick 4 (gold [1]): 0
        2 / 5, 2 / 5,                     # K 2: 1 and 11 exact (1); 12 [1,2] vs [3,4] 0; 2, 21 [s r] 0
        2 / 5,                            # 21 K 3 [s r q] still misses p
        (.8 + .8 + .4 + 0 + 0) / 5,       # K 3: 1, 11: 2·2/5; 12: 2·1/5; 2 [s r q] 0; 21 K 3 0
        (.8 + .8 + .4 + 0 + .4) / 5,      # 21 K 4 reaches p: 2·1/5
        (2 / 3 * 3 + .4 + .4) / 5,        # K 4: 1, 11, 12: 2·2/6; 2: 2·1/5; 21 K 4: 2·1/5
        (2 / 3 * 3 + .4 + 1 / 3) / 5]     # 21 K 5: 2·1/6
    # MAP over (1,11) and (2,21) (Trans. 12 left out): 1 and 11 differ only in their 4th token (d / x)
    map_grammar = [1, 1, 1, 1,
                   (1 + (1 + 1 + 2 / 3) / 3) / 2,          # 50 %: [s r] vs [s r q]: 1, 1, 2/3
                   1,                                      # 60 %: [a b c]/[a b c], [s r q]/[s r q]
                   (1 + (3 + 3 / 4) / 4) / 2,              # 70 %: [s r q] vs [s r q p]: 1, 1, 1, 3/4
                   ((3 + 3 / 4) / 4 + 1) / 2,              # 80 %: [a b c d] vs [a b c x]: x misses at 4
                   ((3 + 3 / 4) / 4 + (4 + 4 / 5) / 5) / 2]  # 90 %: [s r q p] vs [s r q p t]: 4/5 at 5
    # semantics: gold is every token, so F1 = 2K/(K + 4) for both records; MAP of [z w v u] vs [u v w y]
    f1_sem = [2 / 5, 2 / 5, 2 / 3, 2 / 3, 2 / 3, 6 / 7, 6 / 7, 1, 1]
    map_sem = [0, 0, 0, 0, 0, 2 / 9, 2 / 9, 17 / 48, 17 / 48]  # K 3: (0 + 0 + 2/3) / 3; K 4: (0 + 0 + 2/3 + 3/4) / 4
    return f1_grammar, map_grammar, f1_sem, map_sem


def test_figure_data_sweeps_the_extracted_rationale_by_hand():
    f1_grammar, map_grammar, f1_sem, map_sem = _figure_expected()
    data = figure_data([_result2()], GOLDEN2)
    assert list(data) == ["m grad grammar", "m grad semantics"]
    assert data["m grad grammar"]["n"] == 5 and data["m grad grammar"]["pairs"] == 2
    assert data["m grad semantics"]["n"] == 2 and data["m grad semantics"]["pairs"] == 1
    assert data["m grad grammar"]["f1"] == pytest.approx(f1_grammar)
    assert data["m grad grammar"]["map"] == pytest.approx(map_grammar)
    assert data["m grad semantics"]["f1"] == pytest.approx(f1_sem)
    assert data["m grad semantics"]["map"] == pytest.approx(map_sem)


def test_figure_data_of_a_run_that_left_a_dimension_out_and_of_a_record_without_words():
    # a knowledge record of [MASK] alone has no word to pick: its F1 counts 0 at every ratio; a run that evaluated
    # only the semantics pair has no grammar record (n 0, no pairs): its grammar values are NaN
    lone = _rec(4, "knowledge", "", [])
    full = _result2()
    full.outputs[4] = {"word_scores": [0.0]}
    part = RunResult("en", "m2", "ig", "integrated_gradients", {}, "mask", 2,
                     {sid: full.outputs[sid] for sid in (3, 31)})
    data = _strict(figure_data, [full, part], [*GOLDEN2, lone])  # no numpy warning for the empty dimensions
    assert list(data) == ["m grad grammar", "m grad semantics", "m grad knowledge", "m2 ig grammar",
                          "m2 ig semantics", "m2 ig knowledge"]
    assert data["m grad knowledge"] == {"f1": [0.0] * 9, "map": pytest.approx([float("nan")] * 9, nan_ok=True),
                                        "n": 1, "pairs": 0}
    for key in ("m2 ig grammar", "m2 ig knowledge"):
        assert data[key]["n"] == 0 and data[key]["pairs"] == 0
        assert all(v != v for v in data[key]["f1"] + data[key]["map"])
    assert data["m2 ig semantics"] == data["m grad semantics"]


def test_load_result_reads_a_stored_run_back(tmp_path):
    # what `plm run` stores: the run's config names label, explainer, params and target; instance ids are strings
    with Store(tmp_path / "s.sqlite") as store:
        run = store.run("plm", {"label": "IG-20", "explainer": "integrated_gradients", "params": {"steps": 20},
                                "target": "gold", "chunk": 16}, model="tiny-mlm")
        run.record("11", {"hit1": 0.0, "f1": 0.5})
        run.record("3", {"hit1": 1.0, "f1": 1.0})
        result = load_result(store, run.id, "zh")
    assert (result.lang, result.model, result.label, result.explainer, result.params, result.target,
            result.run_id) == ("zh", "tiny-mlm", "IG-20", "integrated_gradients", {"steps": 20}, "gold", run.id)
    assert result.outputs == {11: {"instance_id": "11", "hit1": 0.0, "f1": 0.5},
                              3: {"instance_id": "3", "hit1": 1.0, "f1": 1.0}}


def test_prediction_table_keeps_each_dimension_to_its_own_records():
    # GOLDEN2: grammar 1, 11, 12, 2, 21 → Top-1 [1,0,0,1,1]: mean .6, s² = (3·.16 + 2·.36)/4 = .3,
    #   half 1.96·.5477/√5 = .4801; Top-3 [1,1,0,1,1]: mean .8, s² = (4·.04 + .64)/4 = .2, half 1.96·.4472/√5 = .392
    # semantics 3, 31: Top-1 [0,0], Top-3 [1,0] → 50 ± 1.96·.7071/√2 = 98
    rows = _rows(prediction_table("en", [_result2()], "g.json", GOLDEN2), "Dimension")
    cols = ("Model", "n", "Top-1 all", "Top-3 all")
    assert [rows[("grammar",)][c] for c in cols] == ["m", 5, "60.0 ± 48.0", "80.0 ± 39.2"]
    assert [rows[("semantics",)][c] for c in cols] == ["m", 2, "0.0 ± 0.0", "50.0 ± 98.0"]
    assert rows[("all",)]["n"] == 7


def test_majority_baseline_with_four_answers_by_hand():
    # 24 originals without partners (each its own group): answers a ×9, b ×7, c ×5, d ×3. Left out, a record sees
    #   a: a8 b7 c5 d3, b: a9 b6 c5 d3, c: a9 b7 c4 d3, d: a9 b7 c5 d2
    # Top-1 (the single most frequent other answer is a for everyone): only the 9 a's hit → 9/24 = 37.5
    # Top-3 (a, b, c for everyone): the 9 + 7 + 5 hit, the 3 d's (4th) miss → 21/24 = 87.5
    golden = [_record(i, answer) for i, answer in enumerate("a" * 9 + "b" * 7 + "c" * 5 + "d" * 3, start=1)]
    for g in golden:
        g.rel_ids = []
    outputs = {g.sent_id: {"hit1": 1.0, "hit3": 1.0} for g in golden}
    table = prediction_table("en", [RunResult("en", "m", "s", "saliency", {}, "mask", 1, outputs)], "g.json", golden)
    assert _rows(table, "Dimension")[("grammar",)]["majority Top-1/Top-3"] == "37.5 / 87.5"


def test_consistency_all_keeps_every_pair_map():
    # the per-pair MAPs of the pooled row, in the golden's order: (1,11) .5, (2,21) 1, (3,31) 17/48 (see above)
    from interpeval.benchmarks.plm.run import rationale_ratios
    from interpeval.benchmarks.plm.tables import consistency

    cons = consistency(GOLDEN2, _result2().outputs, "all", ["ins_del", "replace"], rationale_ratios(GOLDEN2))
    assert cons["pair_maps"] == pytest.approx([0.5, 1.0, 17 / 48])
    assert (cons["pairs"], cons["significant"]) == (3, 3)


# Edge cases a real run meets: an original not evaluated (5) whose partner was (51, TrustAI-style without a type:
# "unknown"); a dimension without pairs (knowledge 6, a gold-labelled record); a record without a dimension that
# was not evaluated (7: dimension "unknown"); a partner whose original is not in the file (81, semantics).
GOLDEN3 = [_rec(5, "reasoning", "efg", [1], rel=(51,)), _rec(51, "reasoning", "efh", [1], None, 5),
           _rec(6, "knowledge", "klm", [1]), _rec(7, None, "xy", [1, 2]), _rec(81, "semantics", "st", [1], "replace", 8)]
GOLDEN3[2].meta["label"] = "gold"
OUT3 = {51: {"hit1": 1.0, "hit3": 1.0, "f1": 0.5}, 6: {"hit1": 1.0, "hit3": 1.0, "f1": 1.0},
        81: {"hit1": 0.0, "hit3": 1.0, "f1": 0.0}}


def test_statistics_table_edges_by_hand():
    # every record counts (evaluated or not); RRL over the originals: reasoning 1/3 (5), knowledge 1/3 (6),
    # unknown 2/2 (7); semantics has no original → no RRL. Paper: PAPER-TABLES.md Table 3, English column
    rows = _rows(_strict(statistics_table, "en", "g.json", GOLDEN3), "Dimension")
    assert list(rows) == [("semantics",), ("knowledge",), ("reasoning",), ("unknown",)]
    cols = ("originals", "ins_del", "replace", "transform", "pairs", "RRL %", "paper Size", "paper RRL %")
    sem = [rows[("semantics",)][c] for c in cols]
    assert sem[:5] == [0, 0, 1, 0, 1] and sem[5] != sem[5] and sem[6:] == [793, 31.6]
    assert [rows[("knowledge",)][c] for c in cols] == [1, 0, 0, 0, 0, 33.3, 295, 45.8]
    assert [rows[("reasoning",)][c] for c in cols] == [1, 0, 0, 0, 1, 33.3, 300, 48.5]  # the untyped partner
    assert [rows[("unknown",)][c] for c in cols] == [1, 0, 0, 0, 0, 100.0, "–", "–"]
    # a language the paper has no column for
    assert {(r[("knowledge",)]["paper Size"], r[("knowledge",)]["paper RRL %"])
            for r in [_rows(statistics_table("de", "g.json", GOLDEN3), "Dimension")]} == {("–", "–")}


def test_interpretability_table_edges_by_hand():
    # RRL over all records: semantics 1/2 (81), knowledge 1/3, reasoning 1/3 (5 and 51); no pair anywhere: 5 was not
    # evaluated, 6 has no partner, 81's original is absent → MAP, PCC and MAP* "–", 0 pairs
    # nearest-K: K = ceil(2·.5) = 1 for 81, ceil(3·1/3) = 1 for 6 and 51 → the token right of [MASK], gold → F1 1
    # all: 51, 6, 81 → RRL (1/3 + 1/3 + 1/2)/3 = .389; token-F1 [.5, 1, 0]: s = .5, half 1.96·.5/√3 = .5658
    result = RunResult("en", "m", "grad", "gradient", {}, "mask", 1, OUT3)
    rows = _rows(_strict(interpretability_table, "en", [result], "g.json", GOLDEN3), "Dimension")
    cols = ("RRL", "n", "token-F1", "F1 nearest-K", "MAP", "pairs", "PCC (p<0.05)", "MAP*", "significant")
    assert [rows[("semantics",)][c] for c in cols] == [0.5, 1, "0.0", "100.0", "–", 0, "–", "–", 0]
    assert [rows[("knowledge",)][c] for c in cols] == [0.333, 1, "100.0", "100.0", "–", 0, "–", "–", 0]
    assert [rows[("reasoning",)][c] for c in cols] == [0.333, 1, "50.0", "100.0", "–", 0, "–", "–", 0]
    assert [rows[("unknown",)][c] for c in cols] == [None, 0, "–", "–", "–", 0, "–", "–", 0]
    assert [rows[("all",)][c] for c in cols] == [0.389, 3, "50.0 ± 56.6", "100.0 ± 0.0", "–", 0, "–", "–", 0]
    assert {(row["Model"], row["Explainer"]) for row in rows.values()} == {("m", "grad")}


def test_perturbation_tables_edges_and_two_explainers_of_one_model():
    # kinds present: replace (81) and the untyped "unknown" (51); neither partner has an evaluated original, so the
    # "ori" cells, F1^Δ and the consistency cells are "–". Two explainers of one model: prediction rows once.
    runs = [RunResult("en", "m", label, label, {}, "mask", i, OUT3) for i, label in enumerate(("grad", "ig"))]
    pred, interp = _strict(perturbation_tables, "en", runs, "g.json", GOLDEN3)
    p = _rows(pred, "Dimension", "Perturbation")
    assert len(pred.rows) == 4 and list(p) == [("semantics", "replace"), ("reasoning", "unknown"),
                                                ("all", "replace"), ("all", "unknown")]
    cols = ("pairs", "Top-1 ori", "Top-1 per", "Top-3 ori", "Top-3 per")
    assert [p[("reasoning", "unknown")][c] for c in cols] == [1, "–", "100.0", "–", "100.0"]
    assert [p[("all", "replace")][c] for c in cols] == [1, "–", "0.0", "–", "100.0"]
    assert {row["Model"] for row in p.values()} == {"m"}
    i = _rows(interp, "Explainer", "Dimension", "Perturbation")
    assert len(interp.rows) == 8
    cols = ("pairs", "token-F1 per", "F1^Δ", "MAP", "PCC (p<0.05)", "MAP*", "significant")
    for label in ("grad", "ig"):
        assert [i[(label, "semantics", "replace")][c] for c in cols] == [1, "0.0", "–", "–", "–", "–", 0]
        assert [i[(label, "all", "unknown")][c] for c in cols] == [1, "50.0", "–", "–", "–", "–", 0]
    assert {row["Model"] for row in i.values()} == {"m"}


SILVER_NOTE = ("rationales: {s}/{n} silver (made by rules, not human-annotated; rule names in the golden file), "
               "{g}/{n} gold (human-checked)")


def test_written_tables_name_their_columns_provenance_and_notes(tmp_path):
    # two runs of two models on GOLDEN3 (4 silver records, 6 is gold); the files a user reads: header and notes in
    # the .md, provenance in the .json
    import json

    runs = [RunResult("en", "m", "grad", "gradient", {}, "mask", 1, OUT3),
            RunResult("en", "a-model", "IG-20", "integrated_gradients", {"steps": 20}, "gold", 2, OUT3)]
    tables = {t.title.split(":")[0]: t for t in (statistics_table("en", "g.json", GOLDEN3),
                                                  prediction_table("en", runs, "g.json", GOLDEN3),
                                                  interpretability_table("en", runs, "g.json", GOLDEN3),
                                                  *perturbation_tables("en", runs, "g.json", GOLDEN3))}
    header = {
        "Table 3": "Dimension | originals | ins_del | replace | transform | pairs | RRL % | paper Size | paper RRL %",
        "Table 8": "Model | Dimension | n | Top-1 all | Top-3 all | Top-1 ori | Top-3 ori | Top-1 per | Top-3 per | "
                   "majority Top-1/Top-3",
        "Table 9": "Model | Explainer | Dimension | RRL | n | token-F1 | F1 nearest-K | MAP | pairs | PCC (p<0.05) | "
                   "MAP* | significant",
        "Table 10": "Model | Explainer | Dimension | Perturbation | pairs | token-F1 per | F1^Δ | MAP | PCC (p<0.05) | "
                    "MAP* | significant",
        "Table 11": "Model | Dimension | Perturbation | pairs | Top-1 ori | Top-1 per | Top-3 ori | Top-3 per"}
    first_note = {
        "Table 3": "pairs = original/perturbed pairs (the paper's Size); RRL = mean rationale tokens / tokens other "
                   "than [MASK] over the originals",
        "Table 8": "ori = original instances, per = perturbed instances; ×100, mean ± 95 % interval",
        "Table 9": "all values ×100; token-F1 over all records (mean ± 95 % interval); MAP = Σ pair MAP / #perturbed "
                   "(REFERENCE §4.3) over Ins./Del. and Rep. pairs (Trans. excluded); PCC = mean Pearson r over "
                   "token-aligned pairs with p < 0.05, MAP* on those pairs; F1 nearest-K = trivial baseline (K tokens "
                   "closest to [MASK])",
        "Table 10": "all values ×100 except F1^Δ (F1 on the originals minus F1 on the perturbed partners, over the "
                    "type's pairs, as a fraction like the paper's); Trans. pairs are excluded from the consistency "
                    "metrics, as in the paper",
        "Table 11": "ins_del = Ins./Del., replace = Rep., transform = Trans.; ori = the originals of those pairs; "
                    "×100, mean ± 95 % interval"}
    explained = {"model": "a-model, m",
                 "data": "g.json (5 records, built from public sources; see provenance per record)",
                 "explainer": "grad = gradient {}; IG-20 = integrated_gradients {'steps': 20}",
                 "parameters": {"target": ["gold", "mask"], "K": "ceil(RRL x length)",
                                # RRL over every record: semantics 1/2, knowledge 1/3, reasoning 1/3, unknown 2/2
                                "RRL": {"knowledge": 0.333, "reasoning": 0.333, "semantics": 0.5, "unknown": 1.0},
                                "PCC alpha": 0.05}}
    provenance = {"Table 3": {"model": "none (statistics of the built data)", "data": "g.json (5 records)"},
                  "Table 8": {k: explained[k] for k in ("model", "data")}, "Table 9": explained,
                  "Table 10": explained, "Table 11": {k: explained[k] for k in ("model", "data")}}
    assert set(tables) == set(header)
    for name, table in tables.items():
        md, js = table.save(tmp_path / name.replace(" ", ""))
        text = md.read_text()
        assert f"| {header[name]} |" in text
        assert f"- {first_note[name]}\n- {SILVER_NOTE.format(s=4, g=1, n=5)}\n" in text
        assert json.loads(js.read_text())["provenance"] == provenance[name]
    # the label counts when one kind is absent: GOLDEN2 is all silver, GOLDEN3's record 6 alone all gold
    assert prediction_table("en", runs[:1], "g.json", GOLDEN2).notes[-1] == SILVER_NOTE.format(s=7, g=0, n=7)
    assert statistics_table("en", "g.json", GOLDEN3[2:3]).notes[-1] == SILVER_NOTE.format(s=0, g=1, n=1)


def test_an_evaluated_original_missing_from_the_golden_records_is_a_clear_error_naming_the_partner():
    # outputs of the full golden file, tables built from a file without original 1: its partner 11 names it
    golden = [g for g in GOLDEN2 if g.sent_id != 1]
    by_id = {g.sent_id: g for g in golden}
    with pytest.raises(DataError, match=r"record 11: its original 1 \(meta.ori_id\) was evaluated"):
        f1_delta([by_id[11]], by_id, _result2().outputs)
    with pytest.raises(DataError, match="record 11: "):
        perturbation_tables("en", [_result2()], "g.json", golden)
