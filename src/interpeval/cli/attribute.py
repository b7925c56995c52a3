"""`interpeval attribute FILE`: explain every line of a text file and store the attributions; resumable.

The run (:class:`interpeval.benchmarks.attribute.AttributeLines`) is keyed by (method, params, chunk, model, file
contents), so re-running the same command after a kill skips the lines already stored, and the stored results are
the same as those of an uninterrupted run.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.progress import Progress

from interpeval.cli.executors import executor_options
from interpeval.errors import DataError, InterpevalError
from interpeval.store import Store, fingerprint_files
from interpeval.validate import read_text


def parse_params(items: list[str]) -> dict[str, object]:
    """``key=value`` pairs (``--option``'s metric parameters); values are read as in an explainer spec."""
    from interpeval.explain.spec import read_value

    params: dict[str, object] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise InterpevalError(f"--param expects key=value, got {item!r}")
        params[key] = read_value(value)
    return params


def read_lines(path: Path) -> list[tuple[str, str]]:
    """(line number, text) for the non-empty lines of a UTF-8 file."""
    raw = read_text(path)
    rows = [(str(i), text.strip()) for i, text in enumerate(raw.splitlines(), start=1) if text.strip()]
    if not rows:
        raise DataError(path, None, "has no non-empty lines to explain")
    return rows


@executor_options
def attribute(
    file: Path = typer.Argument(..., exists=True, dir_okay=False, help="UTF-8 text file, one input per line."),
    model: str = typer.Option("tiny-sequence-classification", help="zoo name, local directory or hub id"),
    explainer: list[str] = typer.Option([], "--explainer", help="NAME[:key=value,...], e.g. "
                                        "integrated_gradients:n_steps=20 (repeatable: one run each; default "
                                        "integrated_gradients)"),
    method: str = typer.Option(None, "--method", hidden=True, help="deprecated: --explainer NAME"),
    param: list[str] = typer.Option([], "--param", hidden=True, help="deprecated: --explainer NAME:key=value"),
    chunk: int = typer.Option(8, help="lines explained per call (and per store transaction)"),
    store: Path = typer.Option(None, help="SQLite store (default: $INTERPEVAL_STORE or the user data dir)"),
    device: str = typer.Option("auto", "--device", help="auto, cpu, cuda, cuda:N or mps"),
) -> None:
    """Explain each line; print the run id. Re-run the same command to resume an interrupted run."""
    from interpeval import models, validate
    from interpeval.benchmarks.attribute import AttributeLines
    from interpeval.benchmarks.base import resume
    from interpeval.models import lineage

    validate.at_least(chunk, 1, "--chunk")
    validate.store(store)
    validate.device(device)
    specs = validate.explainer_specs(explainer, method, param, default="integrated_gradients", labels=False)
    built = [spec.build() for spec in specs]
    rows = read_lines(file)
    loaded = models.load(model, device=device)
    models.say_truncated(loaded, [text for _, text in rows])
    lineage.say_trained(model, [text for _, text in rows])
    with Store(store) as db, Progress(transient=True) as progress:
        for spec, instance in zip(specs, built, strict=True):
            bench = AttributeLines(loaded, instance, spec.name, rows, file.name, fingerprint_files(file), chunk)
            task = progress.add_task(f"{spec.name} on {loaded.name}", total=len(rows))
            outcome = resume(bench, db, lambda done, total, task=task: progress.update(task, completed=done))
            typer.echo(f"run {outcome.run.id}: {len(rows)} lines, {outcome.computed} explained now, store {db.path}")

