"""Cost and simplicity of the paper's six explainers on the IQS protocol (50 samples per task, 25 per class).

The gradient methods run on all 50 samples; LIME and Kernel SHAP (3000 perturbations each, Lasso alpha 3e-4)
cost about a thousand times more per sample, so on a small machine they run on the first ``--perturbation-samples``
samples of the protocol and their 50-sample cost is the measured seconds per sample × 50 (marked "extrapolated").
Each row says on how many samples it was measured; simplicity is the paper's, with words marked by the marking
rule of ``--threshold`` / ``--top-k`` / ``--sign`` (default: every non-zero score; ``--threshold 0.1`` is the rule
under which the paper's pattern appears, :data:`~interpeval.benchmarks.iqs.marking.PAPER_PATTERN`). Ratios are to
Input×Gradient, measured in the same run. Run::

    nice -n 10 python bench/iqs_protocol_cost.py --task sst2=minilm-sst2 [--task stsb=minilm-stsb]
        [--perturbation-samples 2] [--limit integrated_gradients=10] [--device cpu] [--methods input_x_gradient,lime]
        [--threshold 0.1] [--top-k K] [--sign both]
"""

from __future__ import annotations

import argparse

from interpeval import metrics
from interpeval.benchmarks.iqs.explanations import PAPER_METHODS, explain_samples
from interpeval.benchmarks.iqs.marking import Marking
from interpeval.benchmarks.iqs.protocol import sample_protocol, untrained
from interpeval.benchmarks.iqs.tasks import get_task, load_samples
from interpeval.models import load

PERTURBATION = ("lime", "kernel_shap")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", action="append", required=True, help="TASK=MODEL, e.g. sst2=minilm-sst2")
    parser.add_argument("--perturbation-samples", type=int, default=2)
    parser.add_argument("--limit", action="append", default=[],
                        help="METHOD=N: run METHOD on the first N protocol samples only (cost extrapolated)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--methods", default=",".join(PAPER_METHODS), help="comma-separated subset, in this order")
    parser.add_argument("--threshold", type=float, default=0.0, help="marked: |score| > threshold × max |score|")
    parser.add_argument("--top-k", type=int, default=None, help="marked: only the k largest |score|")
    parser.add_argument("--sign", default="both", help="marked: both, positive or negative scores")
    args = parser.parse_args()
    marking = Marking(args.threshold, args.top_k, args.sign)
    print(f"marked words: {marking.describe()}")
    limits = {m: args.perturbation_samples for m in PERTURBATION}
    limits.update({m: int(n) for m, _, n in (spec.partition("=") for spec in args.limit)})
    for spec in args.task:
        name, _, model_name = spec.partition("=")
        task = get_task(name)
        pool, note = untrained(model_name, load_samples(task))
        samples = sample_protocol(task, pool, 25, 0)
        model = load(model_name, device=args.device)
        if model.kind == "encoder":  # no trained head yet: the cost is the architecture's, the scores are noise
            kind = "regression" if task.kind == "regression" else "sequence-classification"
            model = load(model_name, kind=kind, device=args.device, num_labels=2)
            note += f"; {model_name} has no {kind} head: RANDOM head (seed 0), costs only — simplicity is noise"
        print(f"\n## {task.title} — {model_name}, {len(samples)} protocol samples; {note}")
        print(f"{'method':<22} {'samples':>7} {'s/sample':>10} {'50-sample s':>12} {'× IxG':>8} {'N_chunk':>8} "
              f"{'simplicity':>10}")
        base = None
        for method in args.methods.split(","):
            params = PAPER_METHODS[method]
            subset = samples[:limits.get(method, len(samples))]
            explanations, cost = explain_samples(model, task, subset, {method: params})
            per = cost[method] / len(subset)
            base = base or per
            chunks = [len(sum(marking.mark(e.scores).values(), [])) for e in explanations]
            simple = sum(metrics.get("iqs_simplicity")(n) for n in chunks) / len(chunks)
            label = f"{per * 50:.1f}" + (" (extrap.)" if len(subset) < len(samples) else "")
            print(f"{method:<22} {len(subset):>7} {per:>10.3f} {label:>12} {per / base:>8.1f} "
                  f"{sum(chunks) / len(chunks):>8.2f} {simple:>10.3f}", flush=True)


if __name__ == "__main__":
    main()
