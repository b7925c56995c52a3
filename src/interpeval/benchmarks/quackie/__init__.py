"""QUACKIE (Rychener et al. 2020): do explanations of "is the answer in this context?" point at the answer sentence?

The question is fixed, the context is the input, and the sentence that holds the gold answer is the ground truth, so
no human rationale annotation is needed. Entry points: :func:`run_quackie` (and ``interpeval quackie run``),
:func:`build_instances` for the task, :func:`write_outputs` for the leaderboard, figure and report.
"""

from interpeval.benchmarks.quackie.build import (
    Instance,
    answer_sentence,
    build_instance,
    build_instances,
    official_answer_sentence,
)
from interpeval.benchmarks.quackie.data import (
    DATASETS,
    HELD_OUT_ARTICLES,
    SquadQuestion,
    dataset_path,
    load_squad,
)
from interpeval.benchmarks.quackie.run import (
    CLASSIFIERS,
    LEADERBOARD,
    RANDOM,
    Classifier,
    Method,
    QuackieResult,
    parse_method,
    run_quackie,
)
from interpeval.benchmarks.quackie.tables import write_outputs

__all__ = [
    "CLASSIFIERS", "DATASETS", "HELD_OUT_ARTICLES", "LEADERBOARD", "RANDOM", "Classifier", "Instance", "Method",
    "QuackieResult", "SquadQuestion", "answer_sentence", "build_instance", "build_instances", "dataset_path",
    "load_squad", "official_answer_sentence", "parse_method", "run_quackie", "write_outputs",
]
