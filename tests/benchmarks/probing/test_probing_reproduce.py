"""`reproduce probing`: the converter's counts and the paper's findings, on a tiny run and on hand-built frames."""

from pathlib import Path

import pandas as pd
import pytest

from interpeval.benchmarks.probing.reproduce import findings, reproduce
from interpeval.paper import VERDICTS, ReproduceContext

TURKISH = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "ud" / "UD_Turkish-IMST"


@pytest.mark.slow
def test_reproduce_counts_the_converted_tasks_and_decides_every_finding(tmp_path):
    from interpeval.benchmarks.probing.ud import UDConverter

    context = ReproduceContext("quick", tmp_path / "out", tmp_path / "s.sqlite", data_dir=TURKISH,
                               extra={"model": "tiny-encoder", "aggregations": ("avg",),
                                      "probe_params": {"epochs": 3}})
    report = reproduce(context)
    manifest = UDConverter(official=True).convert([TURKISH], tmp_path / "check")
    (table,) = report.tables
    (row,) = table.rows
    assert row.label == "tr_imst" and row.cells["official tasks"].ours == len(manifest["tasks"]) > 0
    assert row.cells["official te"].ours == sum(t["counts"]["te"] for t in manifest["tasks"])
    assert all(cell.paper is None for cell in row.cells.values())  # the paper publishes no numbers
    assert row.differs  # says why: the paper publishes figures, not numbers
    assert [f.verdict in VERDICTS for f in report.findings] == [True] * 4
    family = next(f for f in report.findings if "family" in f.claim)
    assert family.verdict == "cannot be tested here" and "tr" in family.evidence and row.cells["default tasks"].ours > 0  # one language only


def _frame(curves: dict[tuple[str, str], list[float]], control: float = 0.3, n: int = 200) -> pd.DataFrame:
    rows = [{"language": lang, "category": cat, "aggregation": "avg", "probe": "logreg", "layer": layer,
             "accuracy": acc, "control_accuracy": control, "sizes": {"tr": 800, "va": 100, "te": n}}
            for (lang, cat), accs in curves.items() for layer, acc in enumerate(accs, 1)]
    return pd.DataFrame(rows)


def _verdicts(frame, tmp_path):
    return {f.claim.split(":")[0].split(" (")[0]: f.verdict for f in findings(frame, "m", tmp_path)}


def test_findings_hold_when_categories_peak_in_the_middle_above_control(tmp_path):
    frame = _frame({("en", "Number"): [0.6, 0.9, 0.7], ("ru", "Number"): [0.5, 0.8, 0.6],
                    ("tr", "Case"): [0.4, 0.7, 0.5], ("fi", "Case"): [0.5, 0.75, 0.6]})
    verdicts = list(_verdicts(frame, tmp_path).values())
    assert verdicts[:2] == ["holds", "holds"]
    assert verdicts[3] == "cannot be tested here"


def test_findings_fail_when_the_last_layer_wins_or_control_matches(tmp_path):
    frame = _frame({("en", "Number"): [0.31, 0.32, 0.34], ("ru", "Number"): [0.30, 0.31, 0.33]}, control=0.33,
                   n=50)
    verdicts = list(_verdicts(frame, tmp_path).values())
    assert verdicts[:2] == ["does not hold", "does not hold"]
    assert verdicts[2] == "cannot be tested here"  # en and ru are both Indo-European


@pytest.mark.parametrize("related, expected", [(True, "holds"), (False, "does not hold")])
def test_family_finding_compares_within_and_between_family_distances(tmp_path, related, expected):
    # en and ru (Indo-European) share a profile far from tr and fi, or each is paired with an unrelated language
    near, far = ([0.9, 0.8], [0.5, 0.4])
    profiles = {"en": near, "ru": near, "tr": far, "fi": far} if related else \
        {"en": near, "tr": near, "ru": far, "fi": far}
    frame = _frame({(lang, cat): [0.3, acc] for lang, accs in profiles.items()
                    for cat, acc in zip(("Number", "Case"), accs, strict=True)})
    family = next(f for f in findings(frame, "m", tmp_path) if "family" in f.claim)
    assert family.verdict == expected, family.evidence
