"""IQS as an interpeval benchmark plug-in (see :mod:`interpeval.benchmarks.plugin`)."""

from interpeval.benchmarks.plugin import BenchmarkPlugin

PLUGIN = BenchmarkPlugin(
    name="iqs", title="IQS", runs=("iqs-explanations",),
    paper="Xie, Vosoughi & Hassanpour 2023, Interpretation Quality Score for Measuring the Quality of "
          "Interpretability Methods",
    cli="interpeval.benchmarks.iqs.cli:app",
    suite="interpeval.benchmarks.iqs.jobs:steps")
