"""IQS tasks, the 25-per-class protocol and the marking rule, on the vendored real data."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from interpeval.benchmarks.iqs.marking import Marking
from interpeval.benchmarks.iqs.protocol import sample_protocol, untrained
from interpeval.benchmarks.iqs.tasks import TASKS, load_samples
from interpeval.errors import DataError, InterpevalError
from interpeval.models.lineage import LINEAGE, content_hash

SHARED_SST2 = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "glue" / "SST-2" / "dev.tsv"


def test_vendored_files_load_with_their_record_counts():
    sst2 = load_samples(TASKS["sst2"])
    assert len(sst2) == 1821 and sum(s.side == "negative" for s in sst2) == 912
    assert sst2[0].id == "sst2-test.txt:1" and sst2[0].pair is None
    stsb = load_samples(TASKS["stsb"])
    assert len(stsb) == 1500
    first = stsb[0]  # "A man with a hard hat is dancing." / "A man wearing a hard hat is dancing." 5.000
    assert (first.id, first.text, first.pair, first.label, first.side) == (
        "stsb-dev.tsv:2", "A man with a hard hat is dancing.", "A man wearing a hard hat is dancing.", 5.0, "similar")
    qnli = load_samples(TASKS["qnli"])
    assert len(qnli) == 800 and sum(s.side == "entailment" for s in qnli) == 382
    assert qnli[0].text == "What came into force after the new constitution was herald?"


def test_protocol_draws_25_per_class_and_stsb_by_the_threshold():
    task = TASKS["stsb"]
    samples = load_samples(task)
    chosen = sample_protocol(task, samples, per_side=25, seed=0)
    assert len(chosen) == 50 and len({s.id for s in chosen}) == 50
    assert sum(s.label > 2.5 for s in chosen) == 25 and sum(s.label <= 2.5 for s in chosen) == 25
    assert [s.id for s in chosen] == [s.id for s in sample_protocol(task, samples, 25, seed=0)]
    assert [s.id for s in chosen] != [s.id for s in sample_protocol(task, samples, 25, seed=1)]
    order = [samples.index(s) for s in chosen]
    assert order == sorted(order)  # file order
    with pytest.raises(InterpevalError, match="only 2 usable samples of class 'positive'"):  # 4 neg, 2 pos
        sample_protocol(TASKS["sst2"], load_samples(TASKS["sst2"])[:6], per_side=4)


def test_bad_records_name_file_and_line(tmp_path):
    bad = tmp_path / "sst.txt"
    bad.write_text("1 a fine film .\n2 what ?\n")
    with pytest.raises(DataError, match=r"sst.txt:2: expected '<0\|1> <sentence>'"):
        load_samples(TASKS["sst2"], bad)
    tsv = tmp_path / "dev.tsv"
    tsv.write_text("index\tquestion\tsentence\tlabel\n0\tq?\ts.\tentailment\n1\tq?\ts.\tmaybe\n")
    with pytest.raises(DataError, match=r"dev.tsv:3: label 'maybe' is not one of not_entailment, entailment"):
        load_samples(TASKS["qnli"], tsv)
    tsv.write_text("sentence1\tsentence2\tscore\na\tb\thigh\n")
    with pytest.raises(DataError, match=r"dev.tsv:2: score 'high' is not a number"):
        load_samples(TASKS["stsb"], tsv)
    tsv.write_text("sentence1\tscore\na\t1\n")
    with pytest.raises(DataError, match="header lacks the stsb column"):
        load_samples(TASKS["stsb"], tsv)


def test_a_shipped_heads_training_and_dev_rows_are_left_out():
    # the recipe: a RandomState(0) permutation of the 1,500 rows, the first 500 test, the next 100 dev, 900 train;
    # the head lists those inputs in its lineage.json, so a bare wheel (no data folder) leaves them out too
    test_rows = set(np.random.RandomState(0).permutation(1500)[:500].tolist())
    task = TASKS["stsb"]
    samples = load_samples(task)
    trained = {content_hash(s.text, s.pair) for i, s in enumerate(samples) if i not in test_rows}
    expected = [i for i in sorted(test_rows) if content_hash(samples[i].text, samples[i].pair) not in trained]
    pool, note = untrained("minilm-stsb", samples)
    assert [samples.index(s) for s in pool] == expected and len(expected) > 450
    assert f"{1500 - len(expected)} samples minilm-stsb trained or was selected on left out" in note
    chosen = sample_protocol(task, pool, 25, 0)
    assert {samples.index(s) for s in chosen} <= test_rows


def test_trained_inputs_next_to_a_head_are_left_out_whatever_the_case(tmp_path):
    task = TASKS["qnli"]
    samples = load_samples(task)
    trained = samples[:700]  # only 100 left: 25 per class must come from them
    (tmp_path / LINEAGE).write_text(json.dumps({"sha1": [content_hash(s.text.upper(), s.pair) for s in trained],
                                                "what": "test inputs"}))  # case does not count
    pool, note = untrained(str(tmp_path), samples)
    assert pool == samples[700:] and "700 samples" in note and "(lineage.json: test inputs)" in note
    chosen = sample_protocol(task, pool, 25, 0)
    assert all(samples.index(s) >= 700 for s in chosen)
    assert untrained("tiny-sequence-classification", samples)[0] == samples  # records nothing: all kept


def test_marking_rule_threshold_top_k_and_sign():
    scores = np.array([0.5, -1.0, 0.05, 0.0, 0.3, -0.2])
    assert Marking().mark(scores) == {"green": [0, 2, 4], "red": [1, 5]}  # every non-zero score
    # |s| > 0.25 × 1.0
    assert Marking(threshold=0.25).mark(scores) == {"green": [0, 4], "red": [1]}
    assert Marking(top_k=2).mark(scores) == {"green": [0], "red": [1]}
    assert Marking(sign="positive").mark(scores) == {"green": [0, 2, 4], "red": []}
    assert Marking(threshold=0.1, top_k=3, sign="negative").mark(scores) == {"green": [], "red": [1, 5]}
    assert Marking().mark(np.zeros(3)) == {"green": [], "red": []}
    assert Marking(0.25, 2).describe() == "|score| > 0.25 × max |score|, top 2 by |score|"
    with pytest.raises(InterpevalError, match="marking threshold must be in"):
        Marking(threshold=1.5)
    with pytest.raises(InterpevalError, match="marking sign must be one of"):
        Marking(sign="abs")
