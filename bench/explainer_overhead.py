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

BATCHES = (16, 32, 64)
METHODS = ("ig", "lime", "shap", "occlusion")
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


def timed(fn) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def best_of(fn, repeats: int) -> float:
    return min(timed(fn)[0] for _ in range(repeats))


def passes(model: Model, text: str, n: int, batch: int, backward: bool) -> None:
    """``n`` model passes on copies of the input, ``batch`` rows at a time."""
    enc = model.tokenize([text])
    for start in range(0, n, batch):
        rows = min(batch, n - start)
        inputs = {k: v.expand(rows, -1) for k, v in enc.items() if isinstance(v, torch.Tensor)}
        if backward:
            # gradient w.r.t. the embeddings only (as IG needs), not w.r.t. the parameters
            embeds = model.hf.get_input_embeddings()(inputs["input_ids"]).detach().requires_grad_(True)
            torch.autograd.grad(model.score({**inputs, "inputs_embeds": embeds}, TARGET).sum(), embeds)
        else:
            with torch.inference_mode():
                model.score(inputs, TARGET)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--methods", default=",".join(METHODS), help=f"comma-separated subset of {METHODS}")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    model = load("minilm", kind="sequence-classification", device=args.device)
    text = text_of_length(model, args.tokens)
    n_words = len(text.split())
    print(f"model: minilm (all-MiniLM-L6-v2 + random 2-class head) on {model.device}, "
          f"{args.tokens} tokens, {n_words} words, torch threads {torch.get_num_threads()}")

    speed = {}
    for backward in (False, True):
        timing = {b: best_of(lambda b=b, bw=backward: passes(model, text, 64, b, bw), 1) / 64 for b in BATCHES}
        best = min(timing, key=timing.get)
        speed[backward] = best
        label = "forward+backward" if backward else "forward"
        print(f"{label} s/pass by batch: " + ", ".join(f"{b}: {t * 1e3:.1f} ms" for b, t in timing.items())
              + f" -> best {best}")

    wanted = set(args.methods.split(","))
    runs = [
        ("ig", "IG-50", "integrated_gradients", {"n_steps": 50, "internal_batch_size": speed[True]}, 50, True),
        ("lime", "LIME-500", "lime", {"n_samples": 500, "batch_size": speed[False]}, 500, False),
        ("shap", "SHAP-500", "kernel_shap", {"n_samples": 500, "batch_size": speed[False]}, 500, False),
        ("occlusion", "occlusion", "occlusion", {"batch_size": speed[False]}, n_words + 1, False),
    ]
    print(f"{'method':<10} {'passes':>6} {'explainer s':>12} {'passes s':>9} {'ratio':>6} {'cpu ratio':>9}")
    for key, label, name, params, n, backward in runs:
        if key not in wanted:
            continue
        explainer = explain.get(name)(**params)
        runs_e, runs_p = [], []
        for _ in range(args.repeats):  # interleaved, so both sides see the same load on a shared machine
            runs_e.append(timed(lambda e=explainer: e.explain(model, text, TARGET)))
            runs_p.append(timed(lambda n=n, b=backward: passes(model, text, n, speed[b], b)))
        w_e, c_e = (min(x) for x in zip(*runs_e, strict=True))
        w_p, c_p = (min(x) for x in zip(*runs_p, strict=True))
        print(f"{label:<10} {n:>6} {w_e:>12.2f} {w_p:>9.2f} {w_e / w_p:>6.3f} {c_e / c_p:>9.3f}", flush=True)


if __name__ == "__main__":
    main()
