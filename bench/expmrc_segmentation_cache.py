"""CPU seconds of ExpMRC Table 3's model-free systems with and without the cached segmentation, side by side.

Every evidence selector scores each passage sentence against the answer (and question) once per system and
question, and the official scorer re-tokenizes the same texts; NLTK's tokenizer runs every regex under a timeout,
so :func:`interpeval.metrics.mrc.mixed_segmentation` caches its result per text. This runs
:func:`~interpeval.benchmarks.expmrc.tables.run_baselines` (no answer model: the overlap scorer for RACE+ / C3,
gold-answer rows for SQuAD / CMRC 2018) on a seeded sample of each subset twice — uncached, then cached — and
prints the CPU seconds of each, their ratio, and whether every score is identical.

    nice -n 10 python bench/expmrc_segmentation_cache.py [--n 120] [--subsets race,c3,squad,cmrc2018]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from unittest import mock

from interpeval.benchmarks.expmrc.data import dev_path, load_dataset
from interpeval.benchmarks.expmrc.reproduce import sample
from interpeval.benchmarks.expmrc.tables import run_baselines
from interpeval.metrics import mrc


def scored(subsets: list[str], n: int) -> tuple[float, dict]:
    """(CPU seconds, every (system, subset) score) of one model-free Table 3 run on fresh copies of the samples."""
    datasets = {s: sample(load_dataset(dev_path(s)), n) for s in subsets}
    started = time.process_time()
    with tempfile.TemporaryDirectory() as out:
        results, _, _ = run_baselines(datasets, out, "", "", "", None, use_store=False)
    return time.process_time() - started, {k: (v.answer, v.evidence) for k, v in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=120, help="questions per subset (seeded sample)")
    parser.add_argument("--subsets", default="race,c3,squad,cmrc2018")
    args = parser.parse_args()
    subsets = args.subsets.split(",")
    with mock.patch.object(mrc, "_segmentation", mrc._segmentation.__wrapped__):
        uncached, before = scored(subsets, args.n)
    mrc._segmentation.cache_clear()
    cached, after = scored(subsets, args.n)
    print(f"{', '.join(subsets)}, {args.n} questions each: uncached {uncached:.1f} CPU s, cached {cached:.1f} CPU s, "
          f"ratio {uncached / cached:.2f}; scores identical: {before == after} ({len(after)} system × subset rows)")


if __name__ == "__main__":
    main()
