"""IQS's part of the main job (plug-in part ``suite``).

One step: ``interpeval reproduce iqs --profile quick``, which explains the IQS samples with the paper's methods,
scores them with simulated annotators (labelled as such) and writes Tables 1–2 beside the paper's. The ``tiny``
profile (the suite's tests) has no IQS step: the reproduction's own tests run it on tiny models.
"""

from __future__ import annotations

from pathlib import Path

from interpeval.benchmarks.paper import reproduce_step
from interpeval.benchmarks.plugin import SuiteStep


def steps(out: Path, store: Path, profile: str) -> list[SuiteStep]:
    if profile == "tiny":
        return []
    return [reproduce_step("iqs", "IQS (Tables 1–2, simulated annotators)", out, store)]
