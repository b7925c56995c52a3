"""The metric call shape: needs read from parameter names, one ``evaluate(Evidence)`` call, options passed through."""

from __future__ import annotations

import math

import numpy as np
import pytest

from interpeval import metrics
from interpeval.metrics import Evidence


def test_needs_are_declared_by_parameter_names():
    assert metrics.get("ferret_aopc_compr").needs == {"attribution", "model"}
    assert metrics.get("ferret_auprc").needs == {"attribution", "rationale"}
    assert metrics.get("pcc_aligned").needs == {"attribution", "partner"}
    assert "data" in metrics.get("baidu_macro_f1").needs
    assert not metrics.get("baidu_macro_f1").per_explanation
    assert not metrics.get("rationale_map").per_explanation  # ranked rationale tokens, not an attribution
    per_explanation = {n for n in metrics.names() if metrics.get(n).per_explanation}
    assert {"ferret_aopc_compr", "ferret_aopc_suff", "ferret_taucorr_loo", "ferret_auprc", "ferret_token_f1",
            "ferret_token_iou"} <= per_explanation


def test_evaluate_fills_the_parameters_from_the_evidence():
    # hand-derived ferret AOPC comprehensiveness: p(text) = share of "good" among the 3 original tokens.
    # n = 3: thresholds 0.1–0.3 give int(p·3) = 0 (dropped); 0.4–0.6 give the top-1 positive token {0} ("bad good"
    # is left, p = 1/3, drop 1/3); 0.7–0.9 the top-2 positive {0, 2} ("bad", p = 0, drop 2/3); 1.0 selects the
    # same positive set again (dropped). p0 = 2/3, so AOPC = mean(1/3, 2/3) = 0.5.
    calls = []

    def score_fn(texts):
        calls.append(list(texts))
        return [t.split().count("good") / 3 for t in texts]

    evidence = Evidence(tokens=["good", "bad", "good"], scores=np.array([1.0, -1.0, 0.5]), score_fn=score_fn)
    metric = metrics.get("ferret_aopc_compr")
    assert metric.applies_to(evidence)
    assert metric.evaluate(evidence) == pytest.approx(0.5)
    assert calls == [["good bad good", "bad good", "bad"]]  # one call, the full text first
    assert metric.evaluate(evidence) == metric(score_fn, ["good", "bad", "good"], [1.0, -1.0, 0.5])


def test_official_switches_stay_keyword_options():
    evidence = Evidence(tokens=list("abcd"), scores=np.array([0.9, 0.1, 0.8, -0.5]), rationale=np.array([1, 0, 1, 0]))
    f1 = metrics.get("ferret_token_f1")
    assert f1.evaluate(evidence, k=2) == 1.0  # top-2 = {0, 2} = the rationale
    empty = Evidence(tokens=list("abcd"), scores=np.array([0.9, 0.1, 0.8, -0.5]), rationale=np.zeros(4, dtype=int))
    assert math.isnan(f1.evaluate(empty, k=2)) and f1.evaluate(empty, k=2, official=False) == 0.0


def test_missing_needs_and_dataset_metrics_are_clear_errors():
    evidence = Evidence(tokens=["a", "b"], scores=np.array([1.0, 0.0]))
    assert not metrics.get("ferret_auprc").applies_to(evidence)
    with pytest.raises(ValueError, match="needs rationale"):
        metrics.get("ferret_auprc").evaluate(evidence)
    with pytest.raises(ValueError, match="does not score a single explanation"):
        metrics.get("baidu_macro_f1").evaluate(evidence)


def test_partner_evidence():
    partner = Evidence(tokens=["a", "b", "c"], scores=np.array([1.0, 2.0, 3.0]))
    evidence = Evidence(tokens=["a", "b", "c"], scores=np.array([3.0, 2.0, 1.0]), partner=partner)
    assert metrics.get("pcc_aligned").evaluate(evidence) == pytest.approx(-1.0)
