"""Seconds per question of every QUACKIE leaderboard method, per classifier: the rates ``interpeval reproduce
quackie`` prints its cost estimate from.

Measures, on the vendored held-out SQuAD 2.0 articles through the path ``run_quackie`` uses
(:func:`select_true_positives`, :func:`explain_instances` with chunks of 4): the selection's seconds per scanned
question and its true-positive fraction, the ground-truth check's seconds per kept question and each method's
seconds per explained question — wall seconds (``seconds_per_question``) and this process's CPU seconds
(``cpu_seconds_per_question``: on a shared machine the wall time depends on the other load, the CPU time much less;
divided by the torch threads it estimates the wall time on an idle machine). Writes them, with the load average and CPU count of the machine that measured them,
to ``src/interpeval/data/rates/quackie.json`` (``--write``) or prints them.

    nice -n 10 python bench/quackie_rates.py [--n 8] [--write]

The true-positive share differs by dataset (the QA head keeps about half of SQuAD's questions, most of Reddit's):
``--shares-from STORE [STORE ...]`` reads the selection verdicts stored by ``interpeval reproduce quackie`` (or
``quackie run``) and sets each dataset's share in the rates (``true_positive_share_by_dataset``, with its counts and
``--shares-note`` saying which runs they are), leaving the measured seconds as they are.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from interpeval.benchmarks.quackie.build import build_instances
from interpeval.benchmarks.quackie.data import HELD_OUT_ARTICLES, dataset_path, load_squad
from interpeval.benchmarks.quackie.reproduce import selection_shares
from interpeval.benchmarks.quackie.run import (
    AGGREGATIONS,
    CLASSIFIERS,
    LEADERBOARD,
    explain_instances,
    select_true_positives,
)
from interpeval.benchmarks.quackie.verify import ground_truth_check
from interpeval.models import load
from interpeval.store import Store

RATES = Path(__file__).resolve().parents[1] / "src" / "interpeval" / "data" / "rates" / "quackie.json"
CHUNK = 4
SHARE_KEYS = ("true_positive_share_by_dataset", "true_positive_share_source")


def timed(per: dict[str, float], cpu: dict[str, float], label: str, name: str, n: int,
          work: Callable[..., Any], *args: Any) -> Any:
    """``work(*args)``, its wall and CPU seconds per question recorded under ``name``."""
    wall, used = time.perf_counter(), time.process_time()
    result = work(*args)
    per[name] = (time.perf_counter() - wall) / n
    cpu[name] = (time.process_time() - used) / n
    print(f"{label:15s} {name:25s} {per[name]:8.3f} s, {cpu[name]:8.3f} CPU s per question (n={n})", flush=True)
    return result


def explain_chunks(model: Any, target: Any, method: Any, todo: list[Any]) -> None:
    for i in range(0, len(todo), CHUNK):
        explain_instances(model, target, method, todo[i:i + CHUNK], AGGREGATIONS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=8, help="questions per cheap method (half for the 100-sample ones)")
    parser.add_argument("--write", action="store_true", help=f"write {RATES} (shipped in the package)")
    parser.add_argument("--shares-from", nargs="+", metavar="STORE",
                        help="only set each dataset's true-positive share from these stores' selection verdicts")
    parser.add_argument("--shares-note", default="", help="which runs the stores hold (written with the shares)")
    args = parser.parse_args()
    if args.shares_from:
        write_shares(args.shares_from, args.shares_note, args.write)
        return
    questions = [q for q in load_squad(dataset_path("SQuAD")) if q.title in HELD_OUT_ARTICLES]
    instances, _ = build_instances(questions)
    load_before = os.getloadavg()[0]
    rates: dict[str, dict[str, float]] = {}
    cpu_rates: dict[str, dict[str, float]] = {}
    for label, clf in CLASSIFIERS.items():
        model = load(clf.model, batch_size=32)
        scanned = instances[:4 * args.n]
        per: dict[str, float] = {}
        cpu: dict[str, float] = {}
        kept, counts = timed(per, cpu, label, "selection", len(scanned), select_true_positives, model, clf.target,
                             scanned)
        share = counts["kept"] / max(1, counts["scanned"] - counts["too_long"])
        timed(per, cpu, label, "gt_check", len(kept[:args.n]), ground_truth_check, model, clf.target, kept[:args.n])
        for method in LEADERBOARD:
            costly = method.params.get("n_samples", 0) >= 50 or method.params.get("n_steps", 0) >= 50
            todo = kept[:max(2, args.n // 2) if costly else args.n]
            timed(per, cpu, label, method.label, len(todo), explain_chunks, model, clf.target, method, todo)
        rates[label] = {k: round(v, 4) for k, v in per.items()} | {"true_positive_share": round(share, 4)}
        cpu_rates[label] = {k: round(v, 4) for k, v in cpu.items()}
    doc = {"measured": time.strftime("%Y-%m-%d", time.gmtime()), "cpus": os.cpu_count(),
           "load_average": round((load_before + os.getloadavg()[0]) / 2, 2), "device": "cpu",
           "data": "vendored SQuAD 2.0 held-out articles", "chunk": CHUNK, "torch_threads": torch.get_num_threads(), "seconds_per_question": rates,
           "cpu_seconds_per_question": cpu_rates}
    if RATES.is_file():  # each dataset's share comes from --shares-from: kept
        shipped = json.loads(RATES.read_text(encoding="utf-8"))
        doc |= {k: shipped[k] for k in SHARE_KEYS if k in shipped}
    print(json.dumps(doc, indent=1))
    if args.write:
        RATES.parent.mkdir(parents=True, exist_ok=True)
        RATES.write_text(json.dumps(doc, indent=1) + "\n")


def write_shares(stores: list[str], note: str, write: bool) -> None:
    """Each (classifier, dataset)'s share from the store whose selection scanned most of it, into the rates."""
    shares: dict[str, dict[str, dict[str, Any]]] = {}
    missing = [path for path in stores if not Path(path).is_file()]
    if missing:  # Store() would create an empty store there and find no verdicts
        raise SystemExit(f"--shares-from: no such store: {', '.join(missing)}")
    for path in stores:
        with Store(path) as store:
            for label, by_dataset in selection_shares(store).items():
                for dataset, scan in by_dataset.items():
                    if scan["scanned"] > shares.get(label, {}).get(dataset, {}).get("scanned", 0):
                        shares.setdefault(label, {})[dataset] = scan
    doc = json.loads(RATES.read_text(encoding="utf-8"))
    doc["true_positive_share_by_dataset"] = shares
    doc["true_positive_share_source"] = (f"kept / scanned questions that fit the model, from the selection verdicts "
                                         f"of {note or 'the stores given'} (bench/quackie_rates.py --shares-from)")
    print(json.dumps({k: doc[k] for k in SHARE_KEYS}, indent=1))
    if write:
        RATES.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
