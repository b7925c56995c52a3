"""QUACKIE (Rychener et al. 2020): do explanations of "is the answer in this context?" point at the answer sentence?

The question is fixed, the context is the input, and the sentence that holds the gold answer is the ground truth, so
no human rationale annotation is needed. Entry points: :func:`~interpeval.benchmarks.quackie.run.run_quackie` (and
``interpeval quackie run``), :func:`~interpeval.benchmarks.quackie.build.build_instances` for the task,
:func:`~interpeval.benchmarks.quackie.tables.write_outputs` for the leaderboard, figure and report. The package
itself imports nothing, so that discovering the benchmark plug-ins (:mod:`interpeval.plugins`) stays cheap.
"""
