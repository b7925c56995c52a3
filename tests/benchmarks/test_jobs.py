"""The main job reproduces every paper that has a reproduction once (full profile), none in the tiny profile."""

from pathlib import Path

from interpeval import plugins as plugin
from interpeval.cli.suite import _steps

OUT, STORE = Path("out/suite"), Path("out/suite/results.sqlite")


def test_every_paper_with_a_reproduction_is_reproduced_once_in_the_full_suite():
    steps = _steps(OUT, STORE, "full")
    reproduced = [s.argv[1] for s in steps if s.argv[0] == "reproduce"]
    assert sorted(reproduced) == sorted(p.name for p in plugin.plugins() if p.reproduce)
    assert {"quackie", "expmrc", "plm", "probing", "iqs"} <= set(reproduced)
    step = next(s for s in steps if s.argv[:2] == ["reproduce", "plm"])
    assert step.argv == ["reproduce", "plm", "--profile", "quick", "--out", str(OUT / "reproduce"), "--store",
                         str(STORE)]


def test_the_tiny_suite_runs_no_reproduction():
    assert not [s for s in _steps(OUT, STORE, "tiny") if s.argv[0] == "reproduce"]
