"""QUACKIE as an interpeval benchmark plug-in (see :mod:`interpeval.plugins`)."""

from interpeval.plugins import BenchmarkPlugin

PLUGIN = BenchmarkPlugin(
    name="quackie", title="QUACKIE", runs=("quackie", "quackie-selection", "quackie-gt-check"),
    paper="Rychener et al. 2020, QUACKIE: A NLP Classification Task With Ground Truth Explanations",
    cli="interpeval.benchmarks.quackie.cli:app",
    suite="interpeval.benchmarks.quackie.jobs:steps",
    views="interpeval.benchmarks.quackie.views",
    reproduce="interpeval.benchmarks.quackie.reproduce:reproduce")
