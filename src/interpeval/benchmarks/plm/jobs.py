"""The masked-LM benchmark's part of the main job (plug-in part ``suite``).

One step: ``interpeval reproduce plm --profile quick``, which builds both languages, evaluates the first zoo masked
LM of each with ATT and IG, writes the benchmark's own tables, Figure 1 and report.html under
``OUT/reproduce/plm/`` and the paper-vs-ours tables and findings beside them. A separate ``plm bench`` step would
build and evaluate the same set a second time. The ``tiny`` profile (the suite's tests) has no masked-LM step:
building the set alone reads every source file (minutes on 2 cores); the tests of
:mod:`~interpeval.benchmarks.plm.reproduce` run it on tiny models instead.
"""

from __future__ import annotations

from pathlib import Path

from interpeval.benchmarks.paper import reproduce_step
from interpeval.benchmarks.plugin import SuiteStep


def steps(out: Path, store: Path, profile: str) -> list[SuiteStep]:
    if profile == "tiny":
        return []
    return [reproduce_step("plm", "the masked-LM rationale benchmark (Tables 3–11)", out, store)]
