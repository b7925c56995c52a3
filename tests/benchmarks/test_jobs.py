"""The masked-LM and IQS parts of the main job, and the reproduce steps every paper gets in the full profile."""

from pathlib import Path

from interpeval.benchmarks import plugin
from interpeval.benchmarks.iqs.jobs import steps as iqs_steps
from interpeval.benchmarks.plm.jobs import steps as plm_steps
from interpeval.cli.suite import plugin_steps

OUT, STORE = Path("out/suite"), Path("out/suite/results.sqlite")


def test_plm_job_is_its_quick_reproduction_into_the_suite_store():
    (step,) = plm_steps(OUT, STORE, "full")
    assert step.argv == ["reproduce", "plm", "--profile", "quick", "--out", str(OUT / "reproduce"), "--store",
                         str(STORE)]
    assert plm_steps(OUT, STORE, "tiny") == []
    assert plugin.get("plm").part("suite") is plm_steps


def test_iqs_job_runs_its_reproduction_only_when_the_plugin_has_one():
    has = bool(plugin.get("iqs").reproduce)
    assert [s.argv[:2] for s in iqs_steps(OUT, STORE, "full")] == ([["reproduce", "iqs"]] if has else [])
    assert iqs_steps(OUT, STORE, "tiny") == []


def test_every_paper_with_a_reproduction_is_reproduced_once_in_the_full_suite():
    reproduced = [s.argv[1] for s in plugin_steps(OUT, STORE, "full") if s.argv[0] == "reproduce"]
    assert sorted(reproduced) == sorted(p.name for p in plugin.plugins() if p.reproduce)
    assert "plm" in reproduced and "probing" in reproduced
    assert not [s for s in plugin_steps(OUT, STORE, "tiny") if s.argv[0] == "reproduce"]
