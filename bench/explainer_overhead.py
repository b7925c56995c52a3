"""Explainer overhead: wall time of an explainer / wall time of the model passes it needs, measured side by side.

For IG-50, LIME-500, Kernel-SHAP-500 and word occlusion on MiniLM (sequence-classification head) with one input
of exactly 128 tokens, the denominator is the same number of model passes at the best batch size among a few:
forward passes under ``torch.inference_mode`` for the perturbation methods, forward + backward passes for IG.
Each timing is the minimum over ``--repeats`` runs (the machine is shared). Run::

    nice -n 10 python bench/explainer_overhead.py [--repeats 2] [--device cpu]
"""

from __future__ import annotations

import argparse
import csv
import time
import warnings
from importlib import resources

import torch

import interpeval.explain as explain
from interpeval.models import Model, Target, load

BATCHES = (8, 16, 32, 64)
TARGET = Target("class_prob", 1)  # fixed: no extra pass to resolve the predicted class


def text_of_length(model: Model, n_tokens: int) -> str:
    """Real SST-2 sentences joined, cut at a word boundary so the input has exactly ``n_tokens`` tokens."""
    path = resources.files("interpeval") / "data" / "sentences" / "sst2-dev-20.tsv"
    with path.open(encoding="utf-8") as f:
        words = " ".join(row["sentence"] for row in csv.DictReader(f, delimiter="\t")).split()
    for k in range(len(words), 0, -1):
        text = " ".join(words[:k])
        if len(model.tokenizer(text)["input_ids"]) <= n_tokens:
            break
    ids = model.tokenizer(text)["input_ids"]
    if len(ids) != n_tokens:  # pad with one-token words until the length is exact
        text += " ." * (n_tokens - len(ids))
    assert len(model.tokenizer(text)["input_ids"]) == n_tokens
    return text


def best_of(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def passes(model: Model, text: str, n: int, batch: int, backward: bool) -> None:
    """``n`` model passes on copies of the input, ``batch`` rows at a time."""
    enc = model.tokenize([text])
    for start in range(0, n, batch):
        rows = min(batch, n - start)
        inputs = {k: v.expand(rows, -1) for k, v in enc.items() if isinstance(v, torch.Tensor)}
        if backward:
            embeds = model.hf.get_input_embeddings()(inputs["input_ids"]).detach().requires_grad_(True)
            model.score({**inputs, "inputs_embeds": embeds}, TARGET).sum().backward()
        else:
            with torch.inference_mode():
                model.score(inputs, TARGET)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--tokens", type=int, default=128)
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    model = load("minilm", kind="sequence-classification", device=args.device)
    text = text_of_length(model, args.tokens)
    n_words = len(text.split())
    print(f"model: minilm (all-MiniLM-L6-v2 + random 2-class head) on {model.device}, "
          f"{args.tokens} tokens, {n_words} words, torch threads {torch.get_num_threads()}")

    speed = {}
    for backward in (False, True):
        timing = {b: best_of(lambda b=b: passes(model, text, 64, b, backward), args.repeats) / 64 for b in BATCHES}
        best = min(timing, key=timing.get)
        speed[backward] = best
        label = "forward+backward" if backward else "forward"
        print(f"{label} s/pass by batch: " + ", ".join(f"{b}: {t * 1e3:.1f} ms" for b, t in timing.items())
              + f" -> best {best}")

    runs = [
        ("IG-50", "integrated_gradients", {"n_steps": 50, "internal_batch_size": speed[True]}, 50, True),
        ("LIME-500", "lime", {"n_samples": 500, "batch_size": speed[False]}, 500, False),
        ("SHAP-500", "kernel_shap", {"n_samples": 500, "batch_size": speed[False]}, 500, False),
        ("occlusion", "occlusion", {"batch_size": speed[False]}, n_words + 1, False),
    ]
    print(f"{'method':<10} {'passes':>6} {'explainer s':>12} {'passes s':>9} {'ratio':>6}")
    for label, name, params, n, backward in runs:
        explainer = explain.get(name)(**params)
        t_explain = best_of(lambda e=explainer: e.explain(model, text, TARGET), args.repeats)
        t_passes = best_of(lambda n=n, b=backward: passes(model, text, n, speed[b], b), args.repeats)
        print(f"{label:<10} {n:>6} {t_explain:>12.2f} {t_passes:>9.2f} {t_explain / t_passes:>6.3f}", flush=True)


if __name__ == "__main__":
    main()
