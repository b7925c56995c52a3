"""The three intervals every published table carries, on non-degenerate inputs and by simulated coverage.

- percentile bootstrap (``interpeval.stats.bootstrap_ci``; the report's ``mean_ci`` uses it),
- Wilson score interval of a proportion (``interpeval.stats.wilson``; probing accuracies),
- normal approximation ± 1.96·s/√n (``interpeval.stats.normal_half_width``: the masked-LM tables' ``mean_ci``;
  IQS's ``mean_ci``).

Each is also pinned to an independent computation (scipy) and each call site to the statistics module.

Coverage: draw many samples from a known distribution and count how often the interval holds the true mean. A 95 %
interval must cover about 95 % of them; an 80 % one covers about 80 %, far outside the band checked here
(each band is about ±3 binomial standard errors of the simulation around 0.95, widened for the bootstrap's
known small-sample undercoverage).
"""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
from scipy import stats as scipy_stats

from interpeval import stats
from interpeval.benchmarks.iqs.score import mean_ci as iqs_mean_ci
from interpeval.benchmarks.plm.tables import mean_ci as plm_mean_ci
from interpeval.report import views
from interpeval.stats import bootstrap_ci

SIMULATIONS = 400


def _coverage(interval, draw, truth: float, seed: int = 1) -> float:
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(SIMULATIONS):
        low, high = interval(draw(rng))
        hits += low <= truth <= high
    return hits / SIMULATIONS


def test_bootstrap_interval_covers_95_percent():
    coverage = _coverage(lambda x: bootstrap_ci(x, resamples=500), lambda rng: rng.exponential(1.0, 40), 1.0)
    assert 0.89 <= coverage <= 0.99, coverage


def test_bootstrap_width_matches_the_normal_interval_on_a_large_sample():
    x = np.random.default_rng(3).normal(0.0, 1.0, 400)
    low, high = bootstrap_ci(x)
    half = 1.959963984540054 * x.std(ddof=1) / math.sqrt(len(x))
    assert (high - low) / 2 == pytest.approx(half, rel=0.1)


def test_report_mean_ci_is_the_95_percent_bootstrap():
    stats = views.mean_ci([0.0, 0.0, 1.0])
    assert (stats["value"], stats["n"], stats["low"], stats["high"]) == (pytest.approx(1 / 3), 3, 0.0, 1.0)
    coverage = _coverage(lambda x: (lambda s: (s["low"], s["high"]))(views.mean_ci(list(x))),
                         lambda rng: rng.normal(0.5, 1.0, 30), 0.5)
    assert 0.89 <= coverage <= 0.99, coverage


def test_wilson_by_hand_and_coverage():
    # 8 of 10: centre (0.8 + z²/20)/(1 + z²/10) = 0.7167, half z·√(0.016 + z²/400)/(1 + z²/10) = 0.2266
    low, high = stats.wilson(8, 10)
    assert (low, high) == (pytest.approx(0.4902, abs=1e-4), pytest.approx(0.9433, abs=1e-4))
    assert all(math.isnan(v) for v in stats.wilson(0, 0))
    coverage = _coverage(lambda k: stats.wilson(k, 60), lambda rng: rng.binomial(60, 0.3), 0.3, seed=2)
    assert 0.915 <= coverage <= 0.985, coverage


def _parse(text: str) -> tuple[float, float]:
    mean, half = (float(v) / 100 for v in re.fullmatch(r"(\S+) ± (\S+)", text).groups())
    return mean - half, mean + half


def test_normal_intervals_cover_95_percent():
    draw = lambda rng: rng.normal(0.4, 0.2, 50)  # noqa: E731 - the sample of one simulation
    assert 0.915 <= _coverage(lambda x: _parse(plm_mean_ci(x)), draw, 0.4) <= 0.985
    iqs = lambda x: (lambda s: (s["mean"] - s["ci95"], s["mean"] + s["ci95"]))(iqs_mean_ci(x))  # noqa: E731
    assert 0.915 <= _coverage(iqs, draw, 0.4) <= 0.985


def test_iqs_half_width_by_hand():
    stats = iqs_mean_ci([1.0, 0.0, 1.0, 1.0])  # s = 0.5, 1.96 · 0.5 / 2 = 0.49
    assert stats["mean"] == 0.75 and stats["ci95"] == pytest.approx(0.49) and stats["n"] == 4


def test_bootstrap_checks_its_level_and_is_reproducible():
    x = np.random.default_rng(5).normal(0.0, 1.0, 30)
    for level in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError, match=r"level must be in \(0, 1\), got"):
            bootstrap_ci(x, level=level)
    # published tables are re-made bit for bit: the default seed is 0, and another seed moves the interval
    assert bootstrap_ci(x) == bootstrap_ci(x) == bootstrap_ci(x, seed=0) != bootstrap_ci(x, seed=1)


@pytest.mark.parametrize("n, seed, level", [(2, 0, 0.95), (37, 0, 0.95), (120, 4, 0.9)])
def test_bootstrap_equals_scipy_percentile_bootstrap(n, seed, level):
    # scipy draws the same resample indices from the same generator, so the two agree to the last bit or so
    x = np.random.default_rng(n).exponential(1.0, n)
    ref = scipy_stats.bootstrap((x,), np.mean, confidence_level=level, n_resamples=2000, method="percentile",
                                rng=np.random.default_rng(seed), vectorized=True).confidence_interval
    assert bootstrap_ci(x, level=level, seed=seed) == (pytest.approx(ref.low, rel=1e-12),
                                                       pytest.approx(ref.high, rel=1e-12))


def test_bootstrap_sharing_its_resamples_gives_a_fresh_generators_interval_bit_for_bit():
    # the resample indices of one n are drawn once and shared by every interval of that n (a table's columns);
    # each interval is still exactly what a fresh seeded generator gives, in any order, kept or too big to keep
    def fresh(values, seed=0):
        means = values[np.random.default_rng(seed).integers(0, values.size, size=(2000, values.size))].mean(axis=1)
        return tuple(float(q) for q in np.quantile(means, [(1 - 0.95) / 2, (1 + 0.95) / 2]))

    rng = np.random.default_rng(3)
    samples = [rng.normal(0, 1, n) for n in (40, 40, 7, 40, 1001, 7)] + [rng.normal(0, 1, 1001) * 3]
    for x in samples + samples[::-1]:
        assert bootstrap_ci(x) == fresh(x) and bootstrap_ci(x, seed=2) == fresh(x, seed=2)
    assert stats._KEPT_RESAMPLES < 1001 * 2000  # the last ones were drawn afresh


@pytest.mark.parametrize("k, n", [(0, 7), (3, 10), (8, 10), (60, 60), (517, 1000)])
def test_wilson_equals_scipy(k, n):
    ref = scipy_stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    low, high = stats.wilson(k, n)
    assert (low, high) == (pytest.approx(ref.low, abs=1e-12), pytest.approx(ref.high, abs=1e-12))


def test_normal_half_width_equals_scipy_sem():
    x = np.random.default_rng(11).normal(0.3, 0.2, 25)
    assert stats.normal_half_width(x) == pytest.approx(1.96 * scipy_stats.sem(x), rel=1e-12)
    assert stats.normal_half_width(x, z=stats.Z95) == pytest.approx(
        scipy_stats.norm.ppf(0.975) * scipy_stats.sem(x), rel=1e-12)
    assert stats.normal_half_width([0.4]) == 0.0


def test_every_call_site_uses_the_statistics_module():
    # the report, the masked-LM tables and IQS give exactly what interpeval.stats gives
    x = list(np.random.default_rng(12).normal(0.5, 0.3, 40))
    assert views.mean_ci(x) == stats.mean_ci(x)
    assert views.mean_ci(x)["low"] == bootstrap_ci(np.asarray(x))[0]
    half = stats.normal_half_width(x)
    assert plm_mean_ci(x) == f"{100 * np.mean(x):.1f} ± {100 * half:.1f}"
    assert iqs_mean_ci(x)["ci95"] == half


def test_edges_by_hand():
    """The smallest inputs each interval still gives a value for, and what it gives below them."""
    z2 = stats.Z95**2
    # Wilson of 1/1: centre (1 + z²/2)/(1 + z²), half (z²/2)/(1 + z²): (1/(1 + z²), 1) = (0.2065, 1)
    assert stats.wilson(1, 1) == pytest.approx((1 / (1 + z2), 1.0))
    assert all(math.isnan(v) for v in stats.wilson(0, 0))
    # two values 0 and 1: s = √0.5, 1.96 · √0.5 / √2 = 0.98; one value has no spread to estimate: 0
    assert stats.normal_half_width([0, 1]) == pytest.approx(0.98)
    assert stats.normal_half_width([0.4]) == 0.0
    # no finite value: NaN everywhere and n = 0, without numpy's empty-mean warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for values in ([], [None, math.nan]):
            empty = stats.mean_ci(values)
            assert list(empty) == ["value", "n", "low", "high"] and empty["n"] == 0
            assert all(math.isnan(empty[k]) for k in ("value", "low", "high"))


def test_mean_ci_passes_its_seed_to_the_bootstrap():
    x = [0.1, 0.9, 0.4, 0.7, 0.2, None, math.nan]  # None and NaN are left out: 5 values, mean 0.46
    for seed in (0, 3):
        got = stats.mean_ci(x, seed=seed)
        assert (got["value"], got["n"]) == (pytest.approx(0.46), 5)
        assert (got["low"], got["high"]) == bootstrap_ci([0.1, 0.9, 0.4, 0.7, 0.2], seed=seed)
    assert stats.mean_ci(x, seed=3)["low"] != stats.mean_ci(x)["low"]
