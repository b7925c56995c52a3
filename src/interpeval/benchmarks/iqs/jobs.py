"""IQS's part of the main job (plug-in part ``suite``).

One step: ``interpeval reproduce iqs --profile quick``, which explains the IQS samples with the paper's methods,
scores them with simulated annotators (labelled as such) and writes Tables 1–2 beside the paper's — once the IQS
plug-in has its ``reproduce`` part (none: no step). The ``tiny`` profile (the suite's tests) has no IQS step: the
reproduction's own tests run it on tiny models.
"""

from __future__ import annotations

from pathlib import Path

from interpeval.benchmarks.paper import reproduce_step
from interpeval.benchmarks.plugin import SuiteStep, get


def steps(out: Path, store: Path, profile: str) -> list[SuiteStep]:
    plugin = get("iqs")
    if profile == "tiny" or not plugin.reproduce:
        return []
    return [reproduce_step("iqs", "IQS (Tables 1–2, simulated annotators)", out, store)]
