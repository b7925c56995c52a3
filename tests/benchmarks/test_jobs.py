"""The main job reproduces every paper that has a reproduction once (full profile); in the tiny profile only QUACKIE,
whose reproduction is its only step."""

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


def test_the_tiny_suite_runs_only_quackies_reproduction():
    assert [s.argv[:4] for s in _steps(OUT, STORE, "tiny") if s.argv[0] == "reproduce"] == [
        ["reproduce", "quackie", "--profile", "tiny"]]


def test_quackie_runs_once_in_the_main_job_and_expmrc_reads_table_3_back_at_full_size():
    """QUACKIE's leaderboard runs are its reproduction's (no second `quackie run` redoing the same model passes);
    ExpMRC's reproduction follows its Table 3 step, which stored every dev question, at the paper's size."""
    steps = _steps(OUT, STORE, "full")
    commands = [s.argv[:2] for s in steps]
    assert ["quackie", "run"] not in commands
    assert next(s for s in steps if s.argv[:2] == ["reproduce", "quackie"]).argv[3] == "quick"
    expmrc = next(i for i, s in enumerate(steps) if s.argv[:2] == ["reproduce", "expmrc"])
    assert steps[expmrc].argv[3] == "paper" and commands.index(["expmrc", "baselines"]) < expmrc
