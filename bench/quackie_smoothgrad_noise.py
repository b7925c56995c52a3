"""Does the SmoothGrad gap come from the noise scale? SmoothGrad-5 at several ``stdevs`` against Saliency, paired.

In the quick reproduction SmoothGrad-5 (QUACKIE's ``NoiseTunnel(Saliency)``, absolute ``stdevs=1.0``) scored 60–80
IoU points below Saliency on the first 5 true positives of every cell. The hypothesis: the noise is absolute, and
MiniLM's embedding output has a per-dimension std of about 0.5, so ``stdevs=1.0`` drowns the signal. This script
tests it on inputs held out from those that suggested it: per dataset × classifier it explains the first
``--skip + --n`` true positives with Saliency and SmoothGrad-5 at each ``--stdevs`` (the originals' set-up,
``official``, through :func:`run_quackie`, stored and resumable) and scores only those after the first ``--skip``.
It prints the embedding output's std per model and, per cell and pooled, the paired IoU difference (sum, k = 1,
×100) of each SmoothGrad against Saliency on the same inputs, with its 95 % percentile-bootstrap interval.

    nice -n 10 python bench/quackie_smoothgrad_noise.py --store out/smoothgrad.sqlite [--n 12] [--skip 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from interpeval.benchmarks.quackie.data import DATASETS, dataset_path
from interpeval.benchmarks.quackie.reproduce import stored_instances
from interpeval.benchmarks.quackie.run import CLASSIFIERS, Method, run_quackie
from interpeval.benchmarks.quackie.score import score_run
from interpeval.stats import bootstrap_ci
from interpeval.store import Store, fingerprint_files

SALIENCY = Method("Gradient", "saliency")


def smoothgrad(stdevs: float) -> Method:
    """QUACKIE's SmoothGrad-5 (label ``SmoothGrad_5`` at the original's ``stdevs=1.0``) at another noise std."""
    label = "SmoothGrad_5" if stdevs == 1.0 else f"SmoothGrad_5_sd{stdevs:g}"
    return Method(label, "smoothgrad", {"n_samples": 5} if stdevs == 1.0 else {"n_samples": 5, "stdevs": stdevs})


def embedding_std(model_name: str) -> float:
    """Per-dimension std of the embedding block's output (what the noise is added to) on the first SQuAD pairs."""
    from interpeval.benchmarks.quackie.build import build_instances
    from interpeval.benchmarks.quackie.data import load_squad
    from interpeval.explain._captum import embedding_output
    from interpeval.models import load

    model = load(model_name)
    instances, _ = build_instances([q for q in load_squad(dataset_path("SQuAD")) if not q.is_impossible][:8])
    enc = model.tokenize([i.question for i in instances], pairs=[i.context for i in instances])
    out = embedding_output(model, enc)
    mask = enc["attention_mask"].bool()
    return float(out[mask].std())


def iou_by_index(store: Store, model: str, fingerprint: str, match: dict, method: Method) -> dict[int, float]:
    outputs = stored_instances(store, "quackie", model, fingerprint, method=method.label, **match) or []
    scored = next((s for s in score_run(outputs) if s.agg == "sum"), None)
    return {} if scored is None else {o["index"]: 100 * s["iou"] for o, s in zip(outputs, scored.samples,
                                                                                  strict=True)}


def paired(diff: list[float]) -> str:
    arr = np.asarray([d for d in diff if np.isfinite(d)])
    if arr.size < 2:
        return f"n={arr.size}"
    low, high = bootstrap_ci(arr)
    return f"{arr.mean():+6.1f} [{low:+6.1f}, {high:+6.1f}] n={arr.size}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, help="results store (a rerun resumes)")
    parser.add_argument("--n", type=int, default=12, help="held-out true positives per dataset × classifier")
    parser.add_argument("--skip", type=int, default=5, help="first true positives left out (the quick profile's)")
    parser.add_argument("--stdevs", default="1.0,0.5,0.25", help="SmoothGrad noise stds to compare")
    parser.add_argument("--dataset", action="append", help="datasets (default: all four)")
    parser.add_argument("--classifier", action="append", help="classifiers (default: both)")
    args = parser.parse_args()
    noise = [float(s) for s in args.stdevs.split(",")]
    grads = [smoothgrad(s) for s in noise]
    datasets, classifiers = args.dataset or list(DATASETS), args.classifier or list(CLASSIFIERS)
    limit = args.skip + args.n
    for label in classifiers:
        print(f"{label}: {CLASSIFIERS[label].model} embedding output std {embedding_std(CLASSIFIERS[label].model):.3f}",
              flush=True)
    started = time.perf_counter()
    pooled: dict[str, list[float]] = {g.label: [] for g in grads}
    pooled_vs_default: dict[str, list[float]] = {g.label: [] for g in grads[1:]}
    with Store(args.store) as store:
        run_quackie(datasets, classifiers, [SALIENCY, *grads], limit=limit, official=True, store=store, check=False,
                    log=lambda line: print(line, flush=True))
        print(f"explained in {time.perf_counter() - started:.0f} s; IoU sum ×100 on true positives "
              f"{args.skip + 1}–{limit} of each cell, paired on the same inputs:")
        for ds in datasets:
            fingerprint = fingerprint_files(dataset_path(ds))
            for label in classifiers:
                match = {"dataset": ds, "classifier": label, "limit": limit, "official": True}
                model = CLASSIFIERS[label].model
                base = iou_by_index(store, model, fingerprint, match, SALIENCY)
                held = sorted(base)[args.skip:]
                scores = {g.label: iou_by_index(store, model, fingerprint, match, g) for g in grads}
                cells = []
                for g in grads:
                    diff = [scores[g.label][i] - base[i] for i in held if i in scores[g.label]]
                    pooled[g.label] += diff
                    cells.append(f"{g.label} − Saliency {paired(diff)}")
                for g in grads[1:]:
                    pooled_vs_default[g.label] += [scores[g.label][i] - scores[grads[0].label][i] for i in held
                                                   if i in scores[g.label] and i in scores[grads[0].label]]
                mean_base = np.mean([base[i] for i in held]) if held else float("nan")
                print(f"  {ds:8s} {label:14s} Saliency {mean_base:5.1f}; " + "; ".join(cells), flush=True)
    print("pooled over cells:")
    for g in grads:
        print(f"  {g.label} − Saliency: {paired(pooled[g.label])}")
    for g in grads[1:]:
        print(f"  {g.label} − {grads[0].label}: {paired(pooled_vs_default[g.label])}")
    print(f"wall {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
