"""Training above the model layer: the fine-tuning loop and the recipes of the zoo's trained heads.

It may import models and benchmarks (a recipe scores its heads with a benchmark's own scorer); neither imports it.
What benchmarks need of a trained head — what it trained on — is :mod:`interpeval.models.lineage`, written here.

- :mod:`~interpeval.training.examples`: examples of each kind and the files they are read from; their lineage;
- :mod:`~interpeval.training.splits`: seeded and hash-bucket splits;
- :mod:`~interpeval.training.batching`: model inputs and targets of a batch, length-bucketed epochs;
- :mod:`~interpeval.training.scoring`: held-out scores and the dev score that selects a checkpoint;
- :mod:`~interpeval.training.loop`: ``train(kind, base, examples, out, TrainConfig(...))``, resumable;
- :mod:`~interpeval.training.artifact` and :mod:`~interpeval.training.cards`: what is written;
- :mod:`~interpeval.training.recipes` (+ ``data``, ``english``, ``chinese``, ``heldout``): the zoo heads' recipes.
"""
