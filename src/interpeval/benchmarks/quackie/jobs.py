"""QUACKIE's step of the main job (plug-in part ``suite``): its reproduction, which is also the leaderboard.

One step, ``interpeval reproduce quackie``, runs the leaderboard set with the originals' set-up into the store (the
index page's QUACKIE leaderboard reads those runs) and writes the paper-vs-ours tables; a separate ``quackie run``
step would redo the same selection and explanations in the other set-up. Sizes: :data:`~interpeval.benchmarks.
quackie.reproduce.PROFILES` (``quick`` for the published run, ``tiny`` for tests).
"""

from __future__ import annotations

from pathlib import Path

from interpeval.paper import reproduce_step
from interpeval.plugins import SuiteStep

#: the suite profile → the reproduction profile it runs
PROFILES = {"full": "quick", "tiny": "tiny"}


def steps(out: Path, store: Path, profile: str) -> list[SuiteStep]:
    return [reproduce_step("quackie", "QUACKIE", out, store, PROFILES[profile])]
