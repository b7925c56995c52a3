"""What MKL's strict reproducibility mode (``MKL_CBWR=AUTO,STRICT``, set by ``import interpeval``) costs: LIME-100 on
QUACKIE inputs (minilm-quackie-cls, SQuAD questions with their contexts), strict against MKL's default mode
(``MKL_CBWR`` empty), in alternating fresh processes (MKL reads the mode at its first product), side by side.

    python bench/mkl_mode.py --inputs 3 --rounds 3

Prints each process's explain wall and CPU seconds, the median per mode, their ratio, whether the two modes' scores
are equal, and the load average before and after. Quote it only from a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_ONE_PROCESS = """
import json, sys, time
import interpeval
import numpy as np
from interpeval import explain
from interpeval.benchmarks.quackie.data import dataset_path, load_squad
from interpeval.models import Target, load

n = int(sys.argv[1])
questions = load_squad(dataset_path("SQuAD"))[:n]
model = load("minilm-quackie-cls", device="cpu")
explainer = explain.build("lime", {"n_samples": 100}, 0)
wall, cpu = time.perf_counter(), time.process_time()
out = explainer.explain(model, [q.question for q in questions], Target("class_prob", 1),
                        pairs=[q.context for q in questions])
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(json.dumps({"wall": wall, "cpu": cpu, "scores": [np.asarray(a.scores).tolist() for a in out]}))
"""

MODES = {"strict": "AUTO,STRICT", "default": ""}


def run_one(mode: str, inputs: int) -> dict:
    env = {**os.environ, "MKL_CBWR": MODES[mode]}
    done = subprocess.run([sys.executable, "-c", _ONE_PROCESS, str(inputs)], env=env, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=3, help="SQuAD questions explained per process")
    parser.add_argument("--rounds", type=int, default=3, help="processes per mode (alternating order)")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    results: dict[str, list[dict]] = {mode: [] for mode in MODES}
    for r in range(args.rounds):
        for mode in (("strict", "default") if r % 2 == 0 else ("default", "strict")):
            out = run_one(mode, args.inputs)
            results[mode].append(out)
            print(f"round {r + 1} {mode:8s} wall {out['wall']:7.2f} s  cpu {out['cpu']:7.2f} s", flush=True)
    medians = {mode: statistics.median(o["wall"] for o in outs) for mode, outs in results.items()}
    cpu = {mode: statistics.median(o["cpu"] for o in outs) for mode, outs in results.items()}
    diff = max(abs(a - b) for s, d in zip(results["strict"][0]["scores"], results["default"][0]["scores"], strict=True)
               for a, b in zip(s, d, strict=True))
    print(f"LIME-100, {args.inputs} SQuAD inputs, minilm-quackie-cls, {args.rounds} processes per mode")
    print(f"median wall: strict {medians['strict']:.2f} s, default {medians['default']:.2f} s, "
          f"strict/default {medians['strict'] / medians['default']:.3f}")
    print(f"median CPU:  strict {cpu['strict']:.2f} s, default {cpu['default']:.2f} s, "
          f"strict/default {cpu['strict'] / cpu['default']:.3f}")
    print(f"largest score difference strict vs default: {diff:.3g}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
