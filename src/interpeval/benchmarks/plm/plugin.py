"""The masked-LM rationale benchmark as an interpeval benchmark plug-in (see :mod:`interpeval.plugins`)."""

from interpeval.plugins import BenchmarkPlugin

PLUGIN = BenchmarkPlugin(
    name="plm", title="Masked-LM rationale benchmark", runs=("plm_rationale",),
    paper="Shen et al. 2022, A Fine-grained Interpretability Evaluation Benchmark for Neural NLP (arXiv 2207.13948)",
    cli="interpeval.benchmarks.plm.cli:app",
    views="interpeval.benchmarks.plm.views",
    studies="interpeval.benchmarks.plm.studies",
    reproduce="interpeval.benchmarks.plm.reproduce:reproduce")
