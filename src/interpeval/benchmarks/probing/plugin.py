"""Multilingual probing as an interpeval benchmark plug-in (see :mod:`interpeval.plugins`)."""

from interpeval.plugins import BenchmarkPlugin

PLUGIN = BenchmarkPlugin(
    name="probing", title="Multilingual probing", runs=("probing",),
    paper="Serikov et al. 2022, Universal and Independent: Multilingual Probing Framework for Exhaustive Model "
          "Interpretation and Evaluation",
    cli="interpeval.benchmarks.probing.cli:app",
    suite="interpeval.benchmarks.probing.jobs:steps",
    views="interpeval.benchmarks.probing.views",
    reproduce="interpeval.benchmarks.probing.reproduce:reproduce")
