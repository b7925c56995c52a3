"""Masked-LM scoring with the vocabulary head at the [MASK] positions only vs over every token, side by side.

The PLM benchmark's IG (100 steps) calls ``MaskedLMModel.score`` for every interpolation step; the target reads only
the [MASK] positions, so ``score`` runs the head there alone. This script times one forward + backward of both ways
on the same batch (an IG internal batch of interpolated inputs: ``--rows`` copies of a real Chinese XCOPA statement)
and prints the ratio; each timing is the minimum over ``--repeats`` runs (the machine is shared). Run::

    nice -n 10 python bench/plm_mask_head.py [--model me5-small] [--rows 32] [--repeats 3] [--device cpu]
"""

from __future__ import annotations

import argparse
import time

from interpeval.models import Target, load

TEXT = "那人打开水龙头，所以水从水龙头喷口流出。"  # XCOPA zh val line 1, premise + correct alternative
ANSWER = "所以"


def _timed(step, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        step()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="me5-small")
    parser.add_argument("--rows", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    model = load(args.model, kind="masked-lm", device=args.device)
    gold = model.answer_ids(ANSWER)
    text = TEXT.replace(ANSWER, model.tokenizer.mask_token * len(gold))
    enc = model.tokenize([text] * args.rows)
    target = Target("masked_token_prob", token_ids=gold)
    embeds = model.hf.get_input_embeddings()(enc["input_ids"]).detach()

    def run(masks_only: bool) -> None:
        x = embeds.clone().requires_grad_(True)
        inputs = {**enc, "inputs_embeds": x}
        scores = model.score(inputs, target) if masks_only else model._score(model.forward(inputs), inputs, target)
        scores.sum().backward()

    run(True), run(False)  # warm-up
    full = _timed(lambda: run(False), args.repeats)
    masks = _timed(lambda: run(True), args.repeats)
    vocab = model.hf.config.vocab_size
    print(f"{args.model} (vocab {vocab}), {args.rows} rows x {enc['input_ids'].shape[1]} tokens, {args.device}: "
          f"head over every token {full:.3f} s, at the [MASK] positions only {masks:.3f} s, ratio {full / masks:.2f}x")


if __name__ == "__main__":
    main()
