"""`interpeval probing convert|run|report`: UD → SentEval tasks, the probing grid, and its views."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table as RichTable

app = typer.Typer(help="Multilingual probing: UD treebanks → SentEval tasks → layer-wise probes → report.",
                  no_args_is_help=True)
console = Console()


@app.command()
def convert(inputs: list[Path] = typer.Argument(None, help="CoNLL-U files of one treebank (as tr [va] te), treebank "
                                                "folders, or a UD release tree. Default: the bundled samples."),
            out: Path = typer.Option(Path("senteval"), "--out", "-o", help="Folder for the task files."),
            official: bool = typer.Option(False, help="Reproduce the Universal Probing Framework exactly."),
            sorting: str = typer.Option(None, help="Group tasks: by_pos, by_deprel or by_pos_and_deprel."),
            upos: str = typer.Option(None, help="Only words with this UPOS carry the label."),
            deprel: str = typer.Option(None, help="Only words with this deprel carry the label."),
            skip_bad: bool = typer.Option(False, "--skip-bad", help="Skip malformed sentences (counted) instead of "
                                          "failing."),
            workers: int = typer.Option(2, help="Files read in parallel."),
            seed: int = typer.Option(42, help="Split seed.")) -> None:
    """Write one task file per morphological category and a manifest.json of what was kept and dropped."""
    from interpeval import validate
    from interpeval.benchmarks.probing.ud import UDConverter, bundled_ud

    validate.output_dir(out, "--out")
    validate.at_least(workers, 1, "--workers")
    started = time.perf_counter()
    manifest = UDConverter(official=official, sorting=sorting, upos=upos, deprel=deprel, seed=seed,
                           skip_bad=skip_bad, workers=workers).convert(inputs or [bundled_ud()], out)
    seconds = time.perf_counter() - started
    table = RichTable("task file", "tr", "va", "te")
    for task in manifest["tasks"]:
        table.add_row(task["file"], *(str(task["counts"][p]) for p in ("tr", "va", "te")))
    console.print(table)
    words = sum(b["words"] for b in manifest["treebanks"])
    skipped = sum(b["skipped_sentences"] for b in manifest["treebanks"])
    console.print(f"{len(manifest['tasks'])} tasks, {len(manifest['dropped'])} categories dropped "
                  f"(reasons in {out / 'manifest.json'}), {skipped} malformed sentences skipped; "
                  f"{words} words in {seconds:.1f}s ({words / max(seconds, 1e-9):,.0f} words/s)")


@app.command()
def run(tasks: list[Path] = typer.Argument(..., help="Task files or folders of them (from `probing convert`)."),
        model: str = typer.Option("me5-small", help="Encoder: a zoo name, local HF folder or hub id."),
        layers: str = typer.Option(None, help="Comma-separated 1-based layers (default: all)."),
        aggregations: str = typer.Option("avg,cls", help="Comma-separated: cls, first, last, sum, avg."),
        probes: str = typer.Option("logreg", help="Comma-separated: logreg, mlp."),
        control: bool = typer.Option(False, help="Also train on shuffled labels; report selectivity."),
        mdl: bool = typer.Option(False, help="Also compute the online-code MDL of the training labels."),
        official: bool = typer.Option(False, help="The original's aggregation (padding included) and training."),
        seed: int = typer.Option(42),
        executor: str = typer.Option("local", help="local or ray."),
        workers: int = typer.Option(1, help="Parallel probe workers (local processes or Ray CPUs)."),
        ray_address: str = typer.Option(None, help="Address of a running Ray cluster (default: start one)."),
        cache: Path = typer.Option(None, help="Layer cache folder (default: beside the store)."),
        store: Path = typer.Option(None, help="SQLite store (default: $INTERPEVAL_STORE or the user data dir)."),
        batch_size: int = typer.Option(32, help="Encoder batch size."),
        threads: int = typer.Option(None, help="Torch threads for the encoder pass (default: torch's).")) -> None:
    """Encode every sentence once, then probe every task × aggregation × probe × layer into the store."""
    from interpeval import validate
    from interpeval.benchmarks.probing.encode import AGGREGATIONS
    from interpeval.benchmarks.probing.grid import ProbingGrid
    from interpeval.benchmarks.probing.probes import PROBES
    from interpeval.benchmarks.probing.senteval import read_task, task_files

    layer_list = validate.int_list(layers, "--layers")
    for layer in layer_list or ():
        validate.at_least(layer, 1, "--layers")
    for name in aggregations.split(","):
        validate.one_of(name, AGGREGATIONS, "--aggregations")
    for name in probes.split(","):
        validate.one_of(name, PROBES, "--probes")
    validate.one_of(executor, ("local", "ray"), "--executor")
    validate.at_least(workers, 1, "--workers")
    validate.at_least(batch_size, 1, "--batch-size")
    validate.at_least(threads, 1, "--threads")
    validate.store(store)
    if cache is not None:
        validate.output_dir(cache, "--cache")
    for path in task_files(list(tasks)):
        read_task(path)
    grid = ProbingGrid(tasks, model=model, layers=layer_list,
                       aggregations=aggregations.split(","), probes=probes.split(","), control=control, mdl=mdl,
                       official=official, seed=seed, cache_dir=cache, store=store, executor=executor,
                       workers=workers, executor_params={"address": ray_address} if ray_address else None,
                       batch_size=batch_size, threads=threads)
    summary = grid.run(progress=console.print)
    console.print(json.dumps(summary, indent=1))


@app.command()
def report(out: Path = typer.Option(Path("probing_report"), "--out", "-o", help="Folder for figures and HTML."),
           run_id: int = typer.Option(None, "--run", help="Run id (default: the latest probing run)."),
           store: Path = typer.Option(None, help="SQLite store."),
           aggregation: str = typer.Option(None), probe: str = typer.Option(None),
           metric: str = typer.Option("accuracy", help="accuracy, weighted_f1 or selectivity."),
           fmt: str = typer.Option("png", "--format", help="png or svg.")) -> None:
    """Heatmaps, language matrix, layer curves, language clusters and findings as an HTML page."""
    from interpeval import validate
    from interpeval.benchmarks.probing.grid import results_frame
    from interpeval.benchmarks.probing.plots import write_probing_report

    validate.output_dir(out, "--out")
    validate.one_of(metric, ("accuracy", "weighted_f1", "selectivity"), "--metric")
    validate.one_of(fmt, ("png", "svg"), "--format")
    validate.store(store, must_exist=True)
    frame = results_frame(store, run_id)
    page = write_probing_report(frame, out, aggregation, probe, metric, fmt)
    console.print(f"wrote {page}")
