"""The QUACKIE cost estimate uses each dataset's own true-positive share where a selection scan of it is shipped
(the QA head keeps about half of SQuAD's questions but most of Reddit's), else the rates' SQuAD sample; the shares
come from stored selection verdicts. Rates and counts here are made up so every figure is worked by hand."""

from __future__ import annotations

import pytest

from interpeval.benchmarks.quackie import reproduce
from interpeval.benchmarks.quackie.reproduce import HEADLINE, Profile, estimate, selection_shares
from interpeval.store import Store

PER_QUESTION = {"selection": 1.0, "gt_check": 2.0, "Random": 0.0, "Gradient": 3.0}


@pytest.fixture
def rates(monkeypatch):
    doc = {"measured": "today", "cpus": 2, "device": "cpu", "load_average": 1.0,
           "seconds_per_question": {"QA": {**PER_QUESTION, "true_positive_share": 0.5}},
           "cpu_seconds_per_question": {"QA": PER_QUESTION},
           "true_positive_share_by_dataset": {"QA": {"Reddit": {"share": 0.8, "kept": 160, "scanned": 201,
                                                                 "too_long": 1}}}}
    monkeypatch.setattr(reproduce, "rates", lambda: doc)
    monkeypatch.setattr(reproduce, "answerable_held_out",
                        lambda datasets, data_dir: {(ds, label): {"SQuAD": 100, "Reddit": 200}[ds]
                                                    for ds in datasets for label in ("QA", "Classification")})
    return doc


def test_each_dataset_is_estimated_with_its_own_true_positive_share(rates):
    total, lines = estimate(Profile(("SQuAD", "Reddit"), None, None, (), None, cheap=HEADLINE), None, ["QA"])
    # SQuAD (no scan shipped: the rates' 0.5): 100 × 0.5 = 50 kept; 50 × 3 s + 50 / 0.5 scanned × 1 s + 50 × 2 s
    # (ground-truth check) = 350 s. Reddit (its scan: 0.8): 160 kept; 160 × 3 + 200 × 1 + 160 × 2 = 1,000 s.
    assert total == pytest.approx(1350.0)
    assert "~50 true positives of 100 answerable held-out questions (share 0.50: the rates' SQuAD sample)" in lines[1]
    assert "~160 true positives of 200 answerable held-out questions (share 0.80: Reddit's selection scan, 160 of " \
           "200)" in lines[2]


def test_shares_come_from_the_selection_scan_of_the_classifiers_head_that_scanned_most(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        def scan(model, dataset, verdicts):
            run = store.run("quackie-selection", {"classifier": "QA", "dataset": dataset, "max_length": 512}, model,
                            f"data-{model}-{len(verdicts)}")
            for i, (too_long, p) in enumerate(verdicts):
                run.record(str(i), {"too_long": too_long, "p_answerable": p})

        # 5 scanned, 1 too long: 3 of the 4 that fit are kept (P > 0.5; exactly 0.5 is not)
        scan("minilm-squad", "Reddit", [(True, None), (False, 0.9), (False, 0.51), (False, 0.5), (False, 0.7)])
        scan("minilm-squad", "Reddit", [(False, 0.1), (False, 0.2)])  # a shorter scan of the same pair
        scan("another-head", "Amazon", [(False, 0.9)] * 9)  # not the QA classifier's head
        assert selection_shares(store) == {"QA": {"Reddit": {"share": 0.75, "kept": 3, "scanned": 5,
                                                             "too_long": 1}}}
