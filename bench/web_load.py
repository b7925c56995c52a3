"""Web app under load: p50 / p95 latency of 200 concurrent GETs per page, with the per-store-version view cache and
without it, measured side by side in one run on a copy of a results store (the original is never written).

Each page is first fetched once (its first view, cold); then ``--concurrency`` requests are sent at once from one
asyncio client over loopback and each one's latency is recorded. Two servers (``interpeval serve``'s app under
uvicorn, one process each, one after the other) serve the same copy: the app as shipped, and the app with
``cache=False``. Without ``--store`` a small store of real runs is made first (the tiny classifier on the vendored
SST-2 sentences: three ``attribute`` runs and an ``evaluate`` run with the random baseline). Run::

    nice -n 10 python bench/web_load.py [--store out/suite/results.sqlite] [--concurrency 200]

The machine is shared: quote the figures as measured under load.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

import httpx

CLI = [sys.executable, "-c", "from interpeval.cli import main; main()"]


def copy_store(source: Path, target: Path) -> Path:
    """A consistent copy through SQLite's backup API (WAL content included)."""
    with sqlite3.connect(f"{source.absolute().as_uri()}?mode=ro", uri=True) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    return target


def make_store(target: Path) -> Path:
    """A small store of real runs, written by the CLI."""
    sentences = resources.files("interpeval") / "data" / "sentences" / "sst2-dev-20.tsv"
    lines = target.with_name("sst2-20.txt")
    lines.write_text("\n".join(r.split("\t")[0] for r in sentences.read_text().splitlines()[1:]) + "\n")
    for method in ("saliency", "input_x_gradient", "integrated_gradients"):
        subprocess.run([*CLI, "attribute", str(lines), "--explainer", method, "--store", str(target)], check=True,
                       capture_output=True)
    subprocess.run([*CLI, "evaluate", "--file", str(lines), "--model", "tiny-sequence-classification",
                    "--explainer", "gradient", "--explainer", "input_x_gradient", "--metric", "faithfulness",
                    "--store", str(target)], check=True, capture_output=True)
    return target


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(store: Path, cache: bool) -> tuple[subprocess.Popen, str]:
    port = free_port()
    code = ("import uvicorn; from interpeval.web import create_app; "
            f"uvicorn.run(create_app({str(store)!r}, cache={cache}), host='127.0.0.1', port={port}, "
            "log_level='warning', limit_concurrency=512)")
    proc = subprocess.Popen([sys.executable, "-c", code])
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if httpx.get(url + "/api/runs", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start in 60 s")


def pages(url: str) -> list[str]:
    """Every kind of page, with the store's first run, first instance and first leaderboard."""
    runs = httpx.get(url + "/api/runs", timeout=60).json()
    boards = httpx.get(url + "/api/leaderboards", timeout=120).json()
    out = ["/", "/runs", "/leaderboards", "/api/leaderboards", "/probing"]
    if boards:
        out.append(f"/leaderboards/{boards[0]['benchmark']}.csv")
    for run in runs[:1] + [r for r in runs if r["benchmark"] == "evaluate"][:1]:
        out.append(f"/runs/{run['id']}")
        instances = httpx.get(f"{url}/api/runs/{run['id']}", timeout=60).json()["instances"]
        if instances:
            out.append(f"/runs/{run['id']}/instances/{instances[0]}")
    return list(dict.fromkeys(out))


async def burst(url: str, path: str, n: int) -> tuple[list[float], float, int]:
    """``n`` GETs of ``path`` at once; their latencies, the wall time of the burst and the number of non-200s."""
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=n)
    async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as client:
        async def one() -> tuple[float, int]:
            started = time.perf_counter()
            response = await client.get(path)
            return time.perf_counter() - started, response.status_code

        started = time.perf_counter()
        results = await asyncio.gather(*(one() for _ in range(n)))
        wall = time.perf_counter() - started
    return [t for t, _ in results], wall, sum(code != 200 for _, code in results)


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] if len(values) > 1 else values[0]


def measure(store: Path, cache: bool, n: int) -> dict[str, dict[str, float]]:
    proc, url = start(store, cache)
    try:
        out = {}
        for path in pages(url):
            started = time.perf_counter()
            first = httpx.get(url + path, timeout=300)
            first_s = time.perf_counter() - started
            latencies, wall, failed = asyncio.run(burst(url, path, n))
            out[path] = {"first_s": first_s, "status": first.status_code, "p50": percentile(latencies, 50),
                         "p95": percentile(latencies, 95), "wall": wall, "failed": failed}
        return out
    finally:
        proc.terminate()
        proc.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, help="results store to copy (default: make a small one)")
    parser.add_argument("--concurrency", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "results.sqlite"
        if args.store is not None:
            copy_store(args.store, store)
        else:
            make_store(store)
        with sqlite3.connect(store) as conn:
            runs = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
            instances = conn.execute("SELECT COUNT(*) FROM instances").fetchone()[0]
        print(f"store: {args.store or 'made here'} (copy: {runs} runs, {instances} instances, "
              f"{store.stat().st_size / 1e6:.1f} MB); {args.concurrency} concurrent GETs per page, loopback")
        cached = measure(store, True, args.concurrency)
        plain = measure(store, False, args.concurrency)
    print(f"{'page':<44} {'first s':>8} {'p50 s':>7} {'p95 s':>7} | {'no cache: p50':>13} {'p95':>7} "
          f"{'p95 ratio':>9}")
    for path, row in cached.items():
        other = plain.get(path)
        ratio = other["p95"] / row["p95"] if other and row["p95"] > 0 else float("nan")
        failed = row["failed"] + (other["failed"] if other else 0)
        print(f"{path[:44]:<44} {row['first_s']:8.3f} {row['p50']:7.3f} {row['p95']:7.3f} | "
              f"{other['p50'] if other else float('nan'):13.3f} {other['p95'] if other else float('nan'):7.3f} "
              f"{ratio:9.1f}" + (f"  ({failed} non-200)" if failed else ""))


if __name__ == "__main__":
    main()
