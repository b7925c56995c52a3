"""Seconds per sample of LIME-100 in the QUACKIE pipeline, next to the paper's figure.

The QUACKIE paper reports about 10 hours for LIME-100 over SQuAD 2.0 dev on half a K80, about 7 s per sample.
This script explains real vendored SQuAD 2.0 questions with LIME-100 through :func:`explain_instances` (the path
``interpeval quackie run`` uses) and, interleaved per question, times the 100 plain full-length forward passes LIME
would need at the same batch size (the "full-pass bound"), so the printed ratio is measured side by side. LIME scores
identical perturbations once and, on BERT-type classifiers, cuts removed words out, so it can beat the bound.

    python bench/quackie_lime.py [--n 5] [--classifier QA|Classification] [--model NAME] [--official]
"""

from __future__ import annotations

import argparse
import time

import torch

from interpeval.benchmarks.quackie.build import build_instances
from interpeval.benchmarks.quackie.data import dataset_path, load_squad
from interpeval.benchmarks.quackie.run import CLASSIFIERS, Method, explain_instances, too_long
from interpeval.models import load

PAPER_SECONDS_PER_SAMPLE = 7.0  # ~10 h for SQuAD 2.0 dev on half a K80 (QUACKIE paper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5, help="questions to explain")
    parser.add_argument("--classifier", default="QA", choices=list(CLASSIFIERS))
    parser.add_argument("--model", default=None, help="model to explain (default: the classifier's shipped one)")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--n-samples", type=int, default=100)
    parser.add_argument("--official", action="store_true", help="the originals' setup (question fixed, 10 features)")
    args = parser.parse_args()

    clf = CLASSIFIERS[args.classifier]
    model = load(args.model or clf.model, device="auto", batch_size=args.batch_size)
    instances, _ = build_instances(load_squad(dataset_path("SQuAD")))
    instances = [i for i in instances if not too_long(model, i)][:args.n]
    method = Method(f"LIME_{args.n_samples}", "lime", {"n_samples": args.n_samples})

    explain_instances(model, clf.target, method, instances[:1], ("sum",), official=args.official)  # warm-up (allocations, kernels)
    lime_s = plain_s = 0.0
    for inst in instances:  # interleaved per question, so both sides see the same load on a shared machine
        start = time.perf_counter()
        explain_instances(model, clf.target, method, [inst], ("sum", "max"), official=args.official)
        lime_s += (time.perf_counter() - start) / len(instances)
        start = time.perf_counter()  # the same number of plain full-length passes, batched as LIME batches them
        model.score_texts([inst.question] * args.n_samples, [inst.context] * args.n_samples, target=clf.target)
        plain_s += (time.perf_counter() - start) / len(instances)

    tokens = sum(len(model.tokenizer(i.question, i.context)["input_ids"]) for i in instances) / len(instances)
    print(f"model {model.name} on {model.device} ({torch.get_num_threads()} CPU threads), {len(instances)} SQuAD 2.0 "
          f"questions, mean {tokens:.0f} tokens, batch size {args.batch_size}")
    print(f"LIME-{args.n_samples}: {lime_s:.2f} s per sample; {args.n_samples} plain passes: {plain_s:.2f} s per "
          f"sample; overhead ratio {lime_s / plain_s:.2f}")
    print(f"paper (QUACKIE, half a K80, RoBERTa-large / ALBERT-base): ~{PAPER_SECONDS_PER_SAMPLE:.0f} s per sample; "
          f"ratio ours / paper {lime_s / PAPER_SECONDS_PER_SAMPLE:.2f}")


if __name__ == "__main__":
    main()
