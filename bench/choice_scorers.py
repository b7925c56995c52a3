"""Multiple-choice accuracy on the ExpMRC dev sets: the overlap scorer vs. a zero-shot sentence-embedding scorer.

Neither trains on anything: this measures whether a pretrained sentence encoder (mean-pooled, as all-MiniLM-L6-v2
was trained) picks options better than ExpMRC token F1 does, each option scored by its best passage sentence.

    python bench/choice_scorers.py [--subsets race,c3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from interpeval.benchmarks.expmrc.baselines import overlap_choice, sentence_spans
from interpeval.benchmarks.expmrc.data import CHOICE_LABELS, dev_path, load_dataset
from interpeval.benchmarks.probing.encode import aggregate
from interpeval.models import load

ENCODERS = {"en": "minilm", "zh": "me5-small"}


def embed(model, texts: list[str]) -> torch.Tensor:
    states = model.hidden_states(texts, layers=[-1])
    pooled = aggregate(states.layers[model.hf.config.num_hidden_layers], states.attention_mask, "avg")
    return torch.nn.functional.normalize(pooled, dim=-1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subsets", default="race,c3")
    args = parser.parse_args()
    for subset in args.subsets.split(","):
        dataset = load_dataset(dev_path(subset))
        model = load(ENCODERS[dataset.language], kind="encoder", device="cpu", batch_size=64, max_length=128)
        started = time.perf_counter()
        overlap, embedding = [], []
        for q in dataset.questions:
            spans = sentence_spans(q.context, dataset.language)
            gold = CHOICE_LABELS.index(q.answers[0])
            overlap.append(CHOICE_LABELS.index(overlap_choice(q, spans).label) == gold)
            sentences = embed(model, [q.context[s:e] for s, e in spans])
            options = embed(model, [f"{q.question} {o}" for o in q.options])
            embedding.append(int((options @ sentences.T).max(1).values.argmax()) == gold)
        print(f"{subset} (n = {len(overlap)}, {ENCODERS[dataset.language]}): overlap accuracy {np.mean(overlap):.3f}, "
              f"embedding accuracy {np.mean(embedding):.3f} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
