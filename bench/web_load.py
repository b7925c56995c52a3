"""Web app under load: the first view of every page, then p50 / p95 latency of 200 concurrent GETs per page, for each
cache mode measured side by side in one run on a copy of a results store (the original is never written).

For each mode a fresh server (``interpeval serve``'s app under uvicorn, one process) serves the copy. Every page is
first fetched once, in order, before anything else touched it (its first view: the view computed and the page
rendered); then ``--concurrency`` requests for it are sent at once from one asyncio client over loopback and each
one's latency is recorded. In the first mode every page's first view is then taken again after another process
wrote an unrelated run (a copy of the first ExpMRC run: the leaderboards score that run alone, the other runs' rows
are kept in the store) and after a server restart. The pages: home, runs, leaderboards (HTML, JSON, CSV), probing, the paper-vs-ours page,
and for every benchmark in the store its first run's page and that run's first instance page. Modes (``--modes``):
``pages`` (as shipped: finished pages kept per store version and served from the event loop), ``views`` (only the
views kept; every page rendered again in the thread pool — the previous design) and ``none`` (nothing kept).
Without ``--store`` a small store of real runs is made first (the tiny classifier on the vendored SST-2 sentences:
three ``attribute`` runs and an ``evaluate`` run with the random baseline). The load average is printed before and
after each mode. Run::

    nice -n 10 python bench/web_load.py [--store out/suite/results.sqlite] [--concurrency 200] [--modes pages,views]

The machine is shared: quote the figures as measured under load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
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


def start(store: Path, mode: str) -> tuple[subprocess.Popen, str]:
    """A server over ``store`` in cache ``mode``, ready when it serves a static file (no view computed yet)."""
    port = free_port()
    code = ("import uvicorn; from interpeval.web import create_app; "
            f"uvicorn.run(create_app({str(store)!r}, cache={mode!r}), host='127.0.0.1', port={port}, "
            "log_level='warning', limit_concurrency=512)")
    proc = subprocess.Popen([sys.executable, "-c", code])
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 180
    while time.time() < deadline:
        try:
            if httpx.get(url + "/static/app.css", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start in 180 s")


def pages(store: Path) -> list[str]:
    """Every kind of page: the site-wide ones, then per benchmark its first run and that run's first instance (read
    from the store file itself, so that no page is viewed before its first view is timed)."""
    out = ["/", "/runs", "/leaderboards", "/api/leaderboards", "/probing", "/paper"]
    with sqlite3.connect(f"{store.absolute().as_uri()}?mode=ro", uri=True) as conn:
        runs = conn.execute("SELECT MIN(id) FROM runs WHERE EXISTS (SELECT 1 FROM instances i WHERE i.run_id = "
                            "runs.id) GROUP BY benchmark ORDER BY MIN(id)").fetchall()
        for (run_id,) in runs:
            out.append(f"/runs/{run_id}")
            (first,) = conn.execute("SELECT instance_id FROM instances WHERE run_id = ? ORDER BY seq LIMIT 1",
                                    (run_id,)).fetchone()
            out.append(f"/runs/{run_id}/instances/{first}")
    return out


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the server process has used: per request, the figure load does not inflate."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


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


async def raw_burst(url: str, path: str, n: int) -> tuple[list[float], float, int]:
    """The same burst from a minimal HTTP/1.1 client (asyncio streams, one connection per request, no pool): httpx
    spends milliseconds of client CPU per request, which on 2 cores shows up in every latency it reports."""
    host, port = url.removeprefix("http://").split(":")
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()

    async def one() -> tuple[float, int]:
        started = time.perf_counter()
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(request)
        status = int((await reader.readline()).split()[1])
        await reader.read()  # the whole body: the server closes after it
        writer.close()
        return time.perf_counter() - started, status

    started = time.perf_counter()
    results = await asyncio.gather(*(one() for _ in range(n)))
    return [t for t, _ in results], time.perf_counter() - started, sum(code != 200 for _, code in results)


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] if len(values) > 1 else values[0]


def first_view(url: str, path: str) -> tuple[float, int]:
    started = time.perf_counter()
    response = httpx.get(url + path, timeout=300)
    return time.perf_counter() - started, response.status_code


def write_unrelated_run(store: Path) -> int:
    """Another process's write: a copy of the store's first ExpMRC run (else its first run) as a new run, instances
    and metrics, through the store API; the id of the new run."""
    from interpeval.store import Store

    with Store(store) as opened:
        source = (opened.runs("expmrc") or opened.runs())[0]
        run = opened.run(source.benchmark, {**source.config, "label": "web_load.py copy"}, source.model,
                         source.data_fingerprint)
        metrics: dict[str, dict[str, float]] = {}
        for m in opened.metrics(source.id):
            if m["instance_id"] and m["value"] is not None:
                metrics.setdefault(m["instance_id"], {})[m["name"]] = m["value"]
        for output in opened.instances(source.id):
            instance_id = output.pop("instance_id")
            run.record(instance_id, output, metrics.get(instance_id))
        run.finish()
        return run.id


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(30)


def measure(store: Path, mode: str, n: int, client: str = "httpx", again: bool = False
            ) -> dict[str, dict[str, float]]:
    """Per page: its first view, p50 / p95 of ``n`` concurrent GETs and the server's CPU per request; with
    ``again``, its first view after another process wrote an unrelated run (``after_write_s``) and after the server
    was restarted (``restart_s``)."""
    print(f"mode {mode}: {load()} before", flush=True)
    proc, url = start(store, mode)
    try:
        paths = pages(store)
        firsts = {path: first_view(url, path) for path in paths}  # every first view before any burst
        boards = httpx.get(url + "/api/leaderboards", timeout=300).json()
        for board in boards[:1]:
            csv = f"/leaderboards/{board['benchmark']}.csv"
            firsts[csv] = first_view(url, csv)
            paths.insert(paths.index("/api/leaderboards") + 1, csv)
        out = {}
        for path in paths:
            cpu = server_cpu(proc.pid)
            latencies, wall, failed = asyncio.run((raw_burst if client == "raw" else burst)(url, path, n))
            out[path] = {"first_s": firsts[path][0], "status": firsts[path][1], "p50": percentile(latencies, 50),
                         "p95": percentile(latencies, 95), "wall": wall, "failed": failed,
                         "cpu_ms": (server_cpu(proc.pid) - cpu) * 1000 / n}
        if again:
            print(f"mode {mode}: run {write_unrelated_run(store)} written by another process", flush=True)
            for path in paths:
                out[path]["after_write_s"] = first_view(url, path)[0]
            stop(proc)
            proc, url = start(store, mode)
            for path in paths:
                out[path]["restart_s"] = first_view(url, path)[0]
        print(f"mode {mode}: {load()} after", flush=True)
        return out
    finally:
        stop(proc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, help="results store to copy (default: make a small one)")
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--modes", default="pages,views", help="cache modes, comma-separated, the first the one "
                        "shipped: pages, views, none (none takes minutes per page on a main-job store)")
    parser.add_argument("--client", choices=("httpx", "raw"), default="httpx",
                        help="load generator: httpx's AsyncClient, or a minimal asyncio HTTP/1.1 client whose own "
                        "CPU per request is a fraction of httpx's (on 2 cores the client's CPU is in every latency)")
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
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
              f"{store.stat().st_size / 1e6:.1f} MB); {args.concurrency} concurrent GETs per page, loopback, client {args.client}")
        results = {mode: measure(store, mode, args.concurrency, args.client, again=i == 0)
                   for i, mode in enumerate(modes)}
    head, *others = modes
    print(f"mode {head}: first view (the store's first open by this version: migrated, nothing kept), first view "
          f"after another process wrote a run, first view after a server restart, p50 / p95 of {args.concurrency} "
          "concurrent GETs (s), server CPU per request (ms)"
          + "".join(f"; then the same for mode {m} and its p95 / {head}'s" for m in others))
    print(f"{'page':<40} {'status':>6} {'first':>7} {'write':>7} {'restart':>7} {'p50':>7} {'p95':>7} {'cpu ms':>6}"
          + "".join(f" | {m[:5] + ' first':>11} {'p50':>7} {'p95':>7} {'cpu ms':>6} {'p95 ×':>6}" for m in others))
    for path, row in results[head].items():
        line = (f"{path[:40]:<40} {row['status']:>6} {row['first_s']:7.3f} {row['after_write_s']:7.3f} "
                f"{row['restart_s']:7.3f} {row['p50']:7.3f} {row['p95']:7.3f} {row['cpu_ms']:6.2f}")
        failed = row["failed"]
        for mode in others:
            other = results[mode].get(path)
            if other is None:
                line += f" | {'':>11} {'':>7} {'':>7} {'':>6} {'':>6}"
                continue
            ratio = other["p95"] / row["p95"] if row["p95"] > 0 else float("nan")
            line += (f" | {other['first_s']:11.3f} {other['p50']:7.3f} {other['p95']:7.3f} {other['cpu_ms']:6.2f} "
                     f"{ratio:6.1f}")
            failed += other["failed"]
        print(line + (f"  ({failed} non-200)" if failed else ""))


if __name__ == "__main__":
    main()
