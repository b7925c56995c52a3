"""ExpMRC as an interpeval benchmark plug-in (see :mod:`interpeval.plugins`)."""

from interpeval.plugins import BenchmarkPlugin

PLUGIN = BenchmarkPlugin(
    name="expmrc", title="ExpMRC", runs=("expmrc", "expmrc-answers"),
    paper="Cui et al. 2022, ExpMRC: Explainability Evaluation for Machine Reading Comprehension",
    cli="interpeval.benchmarks.expmrc.cli:app",
    suite="interpeval.benchmarks.expmrc.jobs:steps",
    views="interpeval.benchmarks.expmrc.views",
    reproduce="interpeval.benchmarks.expmrc.reproduce:reproduce")
