"""IQS as an interpeval benchmark plug-in (see :mod:`interpeval.plugins`)."""

from interpeval.plugins import BenchmarkPlugin

PLUGIN = BenchmarkPlugin(
    name="iqs", title="IQS", runs=("iqs-explanations",),
    paper="Xie, Vosoughi & Hassanpour 2023, Interpretation Quality Score for Measuring the Quality of "
          "Interpretability Methods",
    cli="interpeval.benchmarks.iqs.cli:app",
    views="interpeval.benchmarks.iqs.views",
    studies="interpeval.benchmarks.iqs.studies",
    reproduce="interpeval.benchmarks.iqs.reproduce:reproduce")
