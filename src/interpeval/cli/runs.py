"""`interpeval runs list|show|export`: browse and export the results store."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table as RichTable

from interpeval import validate
from interpeval.store import Store

app = typer.Typer(help="Browse and export stored runs.", no_args_is_help=True)
StoreOption = typer.Option(None, "--store", help="SQLite store (default: $INTERPEVAL_STORE or the user data dir).")


def _when(ts: float | None) -> str:
    return dt.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M") if ts else "–"


@app.command("list")
def list_runs(benchmark: str = typer.Option(None, help="Only runs of this benchmark."),
              store: Path = StoreOption) -> None:
    """One line per run: id, benchmark, model, status, instances, time."""
    validate.store(store, must_exist=True)
    table = RichTable("id", "benchmark", "model", "status", "instances", "elapsed s", "created", "config hash")
    with Store(store) as db:
        for run in db.runs(benchmark):
            table.add_row(str(run.id), run.benchmark, run.model, run.status, str(run.n_instances),
                          f"{run.elapsed_s:.1f}", _when(run.created_at), run.config_hash)
    Console().print(table)


@app.command("show")
def show(run_id: int, store: Path = StoreOption) -> None:
    """A run's configuration, provenance and run-level metrics."""
    validate.store(store, must_exist=True)
    with Store(store) as db:
        info = db.get_run(run_id)
        run_metrics = [m for m in db.metrics(run_id) if m["instance_id"] == ""]
    console = Console()
    console.print(f"[bold]run {info.id}[/] {info.benchmark} · model {info.model or '–'} · {info.status}")
    console.print(f"code {info.code_version} · data {info.data_fingerprint or '–'} · {info.n_instances} instances"
                  f" · {info.elapsed_s:.1f} s")
    console.print_json(json.dumps(info.config, default=str))
    table = RichTable("group", "metric", "value")
    for m in run_metrics:
        table.add_row(m["group"], m["name"], "nan" if m["value"] is None else f"{m['value']:.6g}")
    console.print(table)


@app.command("export")
def export(run_id: int, path: Path = typer.Argument(..., help="Output file: .csv, .json or .parquet."),
           table: str = typer.Option("metrics", help="metrics or instances"), store: Path = StoreOption) -> None:
    """Write a run's metrics or per-instance outputs to CSV, JSON or Parquet (missing folders are made)."""
    from interpeval.store.sqlite import EXPORT_SUFFIXES

    validate.one_of(table, ("metrics", "instances"), "--table")
    validate.output_file(path, "PATH", EXPORT_SUFFIXES)
    validate.store(store, must_exist=True)
    with Store(store) as db:
        db.get_run(run_id)
        out = db.export(run_id, path, table)
    Console().print(f"wrote {out}")
