"""Probing's steps of the main job (plug-in part ``suite``): UD → SentEval conversion, the layer-wise grid with
control tasks, and the probing views."""

from __future__ import annotations

from pathlib import Path

from interpeval.plugins import SuiteStep

#: per profile: the encoder probed and the aggregations of its subword vectors
PROFILES = {"full": {"encoder": "me5-small", "aggregations": "avg,cls"},
            "tiny": {"encoder": "tiny-encoder", "aggregations": "avg"}}


def steps(out: Path, store: Path, profile: str) -> list[SuiteStep]:
    size = PROFILES[profile]
    tasks = out / "probing" / "tasks"
    return [
        SuiteStep("UD → SentEval conversion of the bundled treebank samples",
                  ["probing", "convert", "--out", str(tasks)]),
        SuiteStep(f"Layer-wise probing with {size['encoder']} (all layers, "
                  f"{' + '.join(size['aggregations'].upper().split(','))}, LogReg, shuffled-label control tasks)",
                  ["probing", "run", str(tasks), "--model", size["encoder"], "--aggregations", size["aggregations"],
                   "--control", "--store", str(store), "--cache", str(out / "probing" / "cache")]),
        SuiteStep("Probing views: heatmaps, language matrix, layer curves, clusters",
                  ["probing", "report", "--out", str(out / "probing" / "report"), "--store", str(store)]),
    ]
