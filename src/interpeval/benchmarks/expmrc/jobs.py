"""ExpMRC's steps of the main job (plug-in part ``suite``): the official scorer on the four sample submissions, then
Table 3 (baselines, upper bounds, human performance and, in the full profile, the trained model) and, in the full
profile, its reproduction at the paper's size: Table 3 already scored every dev question into the store, so
``reproduce expmrc --profile paper`` only reads it back (the quick profile would judge the findings on 40)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from interpeval.paper import reproduce_step
from interpeval.plugins import SuiteStep

#: per profile, the extra options of ``expmrc baselines`` and what its step title says they cover
PROFILES = {
    "full": {"args": [], "title": "baselines, upper bounds, human performance, trained model"},
    "tiny": {"args": ["--subsets", "squad,race", "--qa-model", "", "--qa-model-zh", ""],
             "title": "baselines, upper bounds, human performance (squad, race; no trained model)"},
}

SUBSETS = ("squad", "cmrc2018", "race", "c3")


def steps(out: Path, store: Path, profile: str) -> list[SuiteStep]:
    size = PROFILES[profile]
    samples = Path(str(resources.files("interpeval") / "data" / "expmrc" / "sample_submission"))
    scored = [SuiteStep(f"ExpMRC official scorer on the {subset} sample submission",
                        ["expmrc", "score", subset, str(samples / f"{subset}.json")],
                        out / "expmrc" / f"score-{subset}.json") for subset in SUBSETS]
    table3 = SuiteStep(f"ExpMRC Table 3: {size['title']}",
                       ["expmrc", "baselines", *size["args"], "--out", str(out / "expmrc"), "--store", str(store)])
    reproduced = [reproduce_step("expmrc", "ExpMRC", out, store, "paper")] if profile == "full" else []
    return [*scored, table3, *reproduced]
