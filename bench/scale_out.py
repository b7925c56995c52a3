"""The same QUACKIE cell locally and on a local Ray cluster: wall time ratio, overhead per chunk, identical results.

The cell: ``--limit`` true positives of the vendored SQuAD subset, explained for the Classification classifier
(``minilm-quackie-cls``) by Saliency, IG-``--ig-steps`` and LIME-``--lime-samples`` (default IG-50 and LIME-100,
the issue's cell), through ``run_quackie`` — selection, the ground-truth check and every method, as
``interpeval quackie run`` does. Three measurements, one run each:

1. local: this process, torch with all its threads;
2. Ray: a local cluster of ``--workers`` CPUs started by this script on 127.0.0.1, one Ray worker per CPU
   (``--executor ray``), the time to start the workers and ship them the model included;
3. overhead: the sentence-level Random baseline (no model pass; the stored selection reused) through the warm
   workers with chunks of 1 and of 8 questions, against the same locally: the slope of the extra wall time over the number of chunks is the
   overhead per chunk (sending the chunk, returning the records), the intercept the overhead per run (shipping the
   benchmark and its model to each worker).

Both stores are then compared run by run: the stored values must be identical (bit for bit on a CPU, whatever the
torch threads of the driver and the workers: docs/cluster.md); the script fails when they are not. On a machine
with few cores the ratio is about 1 (the local run already uses every core through torch's threads): the point is
that the cluster path is not slower and gives the same numbers.

    nice -n 10 python bench/scale_out.py [--limit 40] [--workers 2] [--chunk 4] [--ig-steps 50] [--lime-samples 100]

On a quiet 2-core machine the default cell (40 true positives, IG-50, LIME-100) takes well over 6 minutes for the
two runs; a shorter run keeps the three methods and their settings and explains fewer true positives
(docs/cluster.md gives the command measured for it).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from interpeval.benchmarks.quackie.run import CLASSIFIERS, RANDOM, Method, run_quackie
from interpeval.exec import Executor, RayExecutor, using
from interpeval.store import Store


def cell_methods(ig_steps: int, lime_samples: int) -> tuple[Method, ...]:
    """Saliency, IG and LIME as QUACKIE's run names them."""
    return (Method("Gradient", "saliency"),
            Method(f"IntegratedGradients_{ig_steps}", "integrated_gradients", {"n_steps": ig_steps}),
            Method(f"LIME_{lime_samples}", "lime", {"n_samples": lime_samples}))


def stored(path: Path) -> dict[str, list[dict]]:
    """Every run's stored instances, keyed by benchmark and config."""
    with Store(path) as store:
        return {f"{r.benchmark} {json.dumps(r.config, sort_keys=True)}": store.instances(r.id) for r in store.runs()}


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=40, help="true positives explained")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=4, help="questions per explainer call (per chunk)")
    parser.add_argument("--classifier", default="Classification", choices=list(CLASSIFIERS))
    parser.add_argument("--ig-steps", type=int, default=50, help="IG's n_steps")
    parser.add_argument("--lime-samples", type=int, default=100, help="LIME's n_samples")
    args = parser.parse_args()
    methods = cell_methods(args.ig_steps, args.lime_samples)

    import ray

    tmp = Path(tempfile.mkdtemp(prefix="scale-out-"))

    def cell(store_path: Path, methods=methods, chunk: int = args.chunk, seed: int = 0) -> None:
        """The cell into ``store_path`` (a rerun there reuses the stored selection: only the methods compute)."""
        with Store(store_path) as store:
            run_quackie(["SQuAD"], [args.classifier], list(methods), limit=args.limit, store=store, chunk=chunk,
                        seed=seed, device="cpu", check=seed == 0, log=lambda _: None)

    print(f"QUACKIE cell: SQuAD (vendored), {args.classifier} ({CLASSIFIERS[args.classifier].model}), "
          f"{args.limit} true positives, {', '.join(m.label for m in methods)}, chunk {args.chunk}, "
          f"{args.workers} Ray workers")
    local = timed(lambda: cell(tmp / "local.sqlite"))
    print(f"local (1 process, torch threads as set):          {local:8.1f} s")
    ray.init(num_cpus=args.workers, include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False)
    try:
        with RayExecutor(workers=args.workers) as executor, using(executor):
            remote = timed(lambda: cell(tmp / "ray.sqlite"))
            print(f"Ray ({args.workers} workers, start + model shipping incl.): {remote:8.1f} s   "
                  f"ratio Ray/local {remote / local:.2f}   ({executor.chunks_sent} chunks sent)")
            overhead = []
            for chunk in (1, 8):
                chunks = -(-args.limit // chunk)
                with using(Executor()):  # this process, inside the Ray block
                    here = timed(lambda c=chunk: cell(tmp / "local.sqlite", (RANDOM,), c, seed=1))
                there = timed(lambda c=chunk: cell(tmp / "ray.sqlite", (RANDOM,), c, seed=1))
                overhead.append((chunks, there - here))
                print(f"Random baseline, chunk {chunk} ({chunks} chunks): Ray {there:.2f} s, local {here:.2f} s")
        (n1, e1), (n8, e8) = overhead
        if n1 > n8:
            per_chunk = (e1 - e8) / (n1 - n8)
            print(f"overhead per chunk {1000 * per_chunk:.1f} ms, per run {e8 - per_chunk * n8:.2f} s "
                  "(ship the benchmark and its model to each worker)")
        else:
            print(f"overhead per run {e8:.2f} s (one chunk either way: --limit above 1 separates the per-chunk part)")
    finally:
        ray.shutdown()
    a, b = stored(tmp / "local.sqlite"), stored(tmp / "ray.sqlite")
    same = a == b
    n = sum(len(v) for k, v in a.items() if k.startswith("quackie "))
    print(f"identical stored results: {same} ({len(a)} runs, {n} explained instances compared)")
    for key in (k for k in a if a[k] != b.get(k)):
        worst = max(_max_diff(x, y) for x, y in zip(a[key], b[key], strict=True))
        print(f"  differs: {key[:100]}…  max |difference| {worst:.1e}")
    if not same:
        raise SystemExit("the Ray run's stored values differ from the local run's")


def _max_diff(x: object, y: object) -> float:
    """The largest absolute difference between two stored JSON values of the same shape."""
    if isinstance(x, dict) and isinstance(y, dict):
        return max((_max_diff(x[k], y.get(k)) for k in x), default=0.0)
    if isinstance(x, list) and isinstance(y, list):
        return max((_max_diff(a, b) for a, b in zip(x, y, strict=False)), default=0.0)
    if isinstance(x, float) and isinstance(y, float):
        return abs(x - y)
    return 0.0 if x == y else float("inf")


if __name__ == "__main__":
    main()
