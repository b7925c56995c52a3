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


def embed(model, texts: list[str]) -> dict[str, torch.Tensor]:
    """Each distinct text once, in length-sorted batches (passages repeat across an article's questions)."""
    unique = sorted(set(texts), key=len)
    vectors: dict[str, torch.Tensor] = {}
    for start in range(0, len(unique), model.batch_size):
        chunk = unique[start:start + model.batch_size]
        states = model.hidden_states(chunk, layers=[-1])
        pooled = aggregate(states.layers[model.hf.config.num_hidden_layers], states.attention_mask, "avg")
        vectors.update(zip(chunk, torch.nn.functional.normalize(pooled, dim=-1), strict=True))
    return vectors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subsets", default="race,c3")
    args = parser.parse_args()
    for subset in args.subsets.split(","):
        dataset = load_dataset(dev_path(subset))
        model = load(ENCODERS[dataset.language], kind="encoder", device="cpu", batch_size=64, max_length=128)
        started = time.perf_counter()
        spans = {q.qid: sentence_spans(q.context, dataset.language) for q in dataset.questions}
        sentences = {q.qid: [q.context[s:e] for s, e in spans[q.qid]] for q in dataset.questions}
        queries = {q.qid: [f"{q.question} {o}" for o in q.options] for q in dataset.questions}
        vectors = embed(model, [t for texts in (*sentences.values(), *queries.values()) for t in texts])
        overlap, embedding = [], []
        for q in dataset.questions:
            gold = CHOICE_LABELS.index(q.answers[0])
            overlap.append(CHOICE_LABELS.index(overlap_choice(q, spans[q.qid]).label) == gold)
            similarity = torch.stack([vectors[t] for t in queries[q.qid]]) @ torch.stack(
                [vectors[t] for t in sentences[q.qid]]).T
            embedding.append(int(similarity.max(1).values.argmax()) == gold)
        print(f"{subset} (n = {len(overlap)}, {ENCODERS[dataset.language]}): overlap accuracy {np.mean(overlap):.3f}, "
              f"embedding accuracy {np.mean(embedding):.3f} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
