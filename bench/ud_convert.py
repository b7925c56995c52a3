"""Converter throughput on the shared UD treebanks, and the time a full UD release (~26 M words) would take.

Prints words/s for the default and the official conversion (all categories, one streaming pass per file, files in
parallel) and, side by side on the same file, the streaming reader against ``conllu.parse_tree`` (what the
original converter parses with). The original reports ~8 hours on 96 CPUs for a full release.

    python bench/ud_convert.py [UD_TREE] [--workers 2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from interpeval.benchmarks.conllu import read_conllu
from interpeval.benchmarks.probing.ud import UDConverter, find_treebanks

RELEASE_WORDS = 26_000_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", default=str(Path(__file__).resolve().parents[2] / "shared/data/ud"))
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    banks = find_treebanks([args.tree])
    files = [f for bank in banks for f in bank.files]
    print(f"{len(banks)} treebanks, {len(files)} files under {args.tree}; workers={args.workers}")
    for official in (False, True):
        with tempfile.TemporaryDirectory() as out:
            started = time.perf_counter()
            manifest = UDConverter(official=official, workers=args.workers).convert([args.tree], out)
            seconds = time.perf_counter() - started
        words = sum(b["words"] for b in manifest["treebanks"])
        rate = words / seconds
        print(f"{'official' if official else 'default '}: {words:,} words, {len(manifest['tasks'])} tasks in "
              f"{seconds:.2f}s = {rate:,.0f} words/s → full release ({RELEASE_WORDS / 1e6:.0f} M words) "
              f"≈ {RELEASE_WORDS / rate / 60:.1f} min on {args.workers} workers")

    import conllu

    biggest = max(files, key=lambda f: f.stat().st_size)
    started = time.perf_counter()
    words = sum(len(s.words) for s in read_conllu(biggest))
    ours = time.perf_counter() - started
    started = time.perf_counter()
    with open(biggest, encoding="utf-8") as handle:
        trees = conllu.parse_tree(handle.read())
    theirs = time.perf_counter() - started
    print(f"parse {biggest.name} ({words:,} words): streaming reader {ours:.2f}s, conllu.parse_tree {theirs:.2f}s "
          f"({len(trees)} trees) → {theirs / ours:.1f}× faster, one process each")


if __name__ == "__main__":
    main()
