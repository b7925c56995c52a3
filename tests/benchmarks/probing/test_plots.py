import pandas as pd
import pytest

from interpeval.benchmarks.probing.plots import (
    best_layer_profile,
    cluster_languages,
    findings,
    load_families,
    write_probing_report,
)


def frame():
    # en and ru (Indo-European) share a profile; fi (Uralic) differs. Layer 2 is best everywhere but fi/Case.
    scores = {("en", "Number"): [0.6, 0.9], ("en", "Case"): [0.5, 0.7], ("ru", "Number"): [0.62, 0.88],
              ("ru", "Case"): [0.52, 0.72], ("fi", "Number"): [0.5, 0.55], ("fi", "Case"): [0.95, 0.6]}
    rows = [{"language": lang, "category": cat, "layer": layer + 1, "aggregation": "avg", "probe": "logreg",
             "accuracy": acc} for (lang, cat), accs in scores.items() for layer, acc in enumerate(accs)]
    out = pd.DataFrame(rows)
    out.attrs.update(model="me5-small", run_id=1)
    return out


def test_best_layer_profile():
    best, where = best_layer_profile(frame())
    assert best.loc["fi", "Case"] == 0.95 and where.loc["fi", "Case"] == 1 and where.loc["en", "Number"] == 2


def test_clustering_measures_family_distances(tmp_path):
    path, stats = cluster_languages(frame(), tmp_path / "c.svg", load_families())
    assert path.exists() and path.read_text().startswith("<?xml")
    assert stats["families"] == {"en": "Indo-European", "fi": "Uralic", "ru": "Indo-European"}
    assert stats["within_family"] < stats["between_families"]
    lines = findings(frame(), "me5-small", stats)
    assert lines[0].startswith("Case: best accuracy 0.790") and "me5-small" in lines[0]
    assert "are closer to each other" in lines[-1]


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_report_writes_all_views(tmp_path, fmt):
    page = write_probing_report(frame(), tmp_path, fmt=fmt)
    names = {p.name for p in tmp_path.iterdir()}
    assert {f"heatmap_{lang}.{fmt}" for lang in ("en", "ru", "fi")} <= names
    assert {f"language_matrix.{fmt}", f"layer_curves.{fmt}", f"clusters.{fmt}"} <= names
    assert "Findings" in page.read_text()
