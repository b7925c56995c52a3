"""QUACKIE's steps of the main job (plug-in part ``suite``): the leaderboard set, split by cost."""

from __future__ import annotations

from pathlib import Path

from interpeval.plugins import SuiteStep

# The QUACKIE leaderboard set split by cost: the cheap methods get enough questions for informative 95 % intervals,
# the slow ones keep the original sample (one SQuAD cell on a loaded 2-core machine: 6 questions with Gradient in
# 7 s, 4 with IG-50 in 105 s; LIME/SHAP-100 cost 100 forward passes per question).
FAST_QUACKIE = ("Random", "Gradient=saliency", "SmoothGrad_5=smoothgrad:n_samples=5")
SLOW_QUACKIE = ("IntegratedGradients_50=integrated_gradients:n_steps=50", "LIME_10=lime:n_samples=10",
                "LIME_100=lime:n_samples=100", "SHAP_10=kernel_shap:n_samples=10",
                "SHAP_100=kernel_shap:n_samples=100")

#: per profile: the data options, what the title says they cover, and each half's explainers and questions per cell
PROFILES = {
    "full": {"args": [], "where": "all domains, both classifiers", "fast": FAST_QUACKIE, "fast_limit": 20,
             "slow": SLOW_QUACKIE, "slow_limit": 3},
    "tiny": {"args": ["--dataset", "SQuAD"], "where": "SQuAD, both classifiers", "fast": FAST_QUACKIE[:2],
             "fast_limit": 2, "slow": SLOW_QUACKIE[3:4], "slow_limit": 1},
}


def _methods(specs: tuple[str, ...]) -> list[str]:
    return [arg for spec in specs for arg in ("--explainer", spec)]


def _labels(specs: tuple[str, ...]) -> str:
    return ", ".join(spec.split("=")[0] for spec in specs)


def steps(out: Path, store: Path, profile: str) -> list[SuiteStep]:
    size = PROFILES[profile]
    return [
        SuiteStep(f"QUACKIE: {size['where']}; {_labels(size['fast'])} on {size['fast_limit']} questions per cell",
                  ["quackie", "run", *size["args"], *_methods(size["fast"]), "--limit", str(size["fast_limit"]),
                   "--out", str(out / "quackie" / "fast"), "--store", str(store)]),
        SuiteStep(f"QUACKIE: the slow explainers ({_labels(size['slow'])}) on {size['slow_limit']} questions per cell",
                  ["quackie", "run", *size["args"], *_methods(size["slow"]), "--limit", str(size["slow_limit"]),
                   "--out", str(out / "quackie" / "slow"), "--store", str(store)]),
    ]
