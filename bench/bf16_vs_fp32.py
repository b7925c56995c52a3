"""bf16 autocast against fp32 on real inputs: how far the attributions and the metric values move.

The same model (``--model``, default the zoo's ``minilm-sst2``) is loaded twice — fp32, and fp32 weights under bf16
autocast (``--dtype bf16``) — and ``interpeval.evaluate`` explains the vendored SST-2 dev sentences (``--n``, at most
20) with Gradient (saliency), IG-20 and LIME-100 (seed 0) and scores every explanation with the faithfulness preset,
each run in a store of its own. Printed, per method: the largest and the mean absolute difference of the token
scores (and relative to the mean |score|), how often the top-ranked token is the same; per method × metric: the
largest and mean absolute difference of the per-sentence values and the two means; and how many predictions agree.
bf16 runs on a CPU too (slowly where the CPU has no bf16 instructions): the numbers are the same computation a GPU
makes under autocast, up to the kernels' own rounding.

    nice -n 10 python bench/bf16_vs_fp32.py [--n 20] [--model minilm-sst2] [--device cpu]
"""

from __future__ import annotations

import argparse
import csv
import time
from importlib import resources

import numpy as np

METHODS = (("Gradient", "saliency", {}), ("IG-20", "integrated_gradients", {"n_steps": 20}),
           ("LIME-100", "lime", {"n_samples": 100}))


def sentences(n: int) -> list[str]:
    path = resources.files("interpeval") / "data" / "sentences" / "sst2-dev-20.tsv"
    with path.open(encoding="utf-8") as f:
        return [row["sentence"].strip() for row in csv.DictReader(f, delimiter="\t")][:n]


def run(model_name: str, device: str, dtype: str, texts: list[str]) -> tuple[dict, dict, list[int], float]:
    """Token scores per method, metric values per method × metric (per sentence), predictions, wall seconds."""
    from interpeval.evaluate import Method, evaluate
    from interpeval.models import load
    from interpeval.store import Store

    model = load(model_name, device=device, autocast=dtype)
    started = time.perf_counter()
    with Store(":memory:") as store:
        result = evaluate(model, texts, [Method(label, name, params) for label, name, params in METHODS],
                          ["faithfulness"], store=store)
        outputs = store.instances(result.run_id)
    seconds = time.perf_counter() - started
    scores = {label: [np.asarray(o["explanations"][label]["scores"], dtype=float) for o in outputs]
              for label, _, _ in METHODS}
    values: dict[tuple[str, str], list[float]] = {}
    for row in result.per_input:
        values.setdefault((row["method"], row["metric"]), []).append(row["value"])
    return scores, values, [int(p) for p in model.predict(texts)], seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--model", default="minilm-sst2")
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    texts = sentences(args.n)
    s32, v32, p32, t32 = run(args.model, args.device, "fp32", texts)
    s16, v16, p16, t16 = run(args.model, args.device, "bf16", texts)
    print(f"{args.model} on {args.device}, {len(texts)} SST-2 dev sentences; fp32 {t32:.1f} s, bf16 autocast "
          f"{t16:.1f} s (explain + evaluate); predictions equal: {sum(a == b for a, b in zip(p32, p16, strict=True))}/{len(texts)}")
    print(f"\n{'attributions':<10} {'max |diff|':>11} {'mean |diff|':>12} {'mean |fp32|':>12} {'rel. mean':>10} "
          f"{'same top token':>15}")
    for label, _, _ in METHODS:
        diffs = np.concatenate([np.abs(a - b) for a, b in zip(s32[label], s16[label], strict=True)])
        size = np.concatenate([np.abs(a) for a in s32[label]]).mean()
        top = sum(int(np.argmax(a)) == int(np.argmax(b)) for a, b in zip(s32[label], s16[label], strict=True))
        print(f"{label:<10} {diffs.max():>11.2e} {diffs.mean():>12.2e} {size:>12.2e} {diffs.mean() / size:>10.2%} "
              f"{top:>11}/{len(texts)}")
    print(f"\n{'metric values':<32} {'max |diff|':>11} {'mean |diff|':>12} {'fp32 mean':>10} {'bf16 mean':>10}")
    for key in v32:
        a, b = np.asarray(v32[key], dtype=float), np.asarray(v16[key], dtype=float)
        both = np.isfinite(a) & np.isfinite(b)
        d = np.abs(a[both] - b[both])
        print(f"{key[0] + ' / ' + key[1]:<32} {d.max():>11.2e} {d.mean():>12.2e} {np.nanmean(a):>10.4f} "
              f"{np.nanmean(b):>10.4f}")


if __name__ == "__main__":
    main()
