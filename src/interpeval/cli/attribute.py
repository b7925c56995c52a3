"""`interpeval attribute FILE`: explain every line of a text file and store the attributions; resumable.

The run is keyed by (method, params, model, file contents), so re-running the same command after a kill skips the
lines already stored, and the stored results are the same as those of an uninterrupted run.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.progress import Progress

from interpeval.errors import DataError
from interpeval.store import Store, fingerprint_files


def parse_params(items: list[str]) -> dict[str, object]:
    """``key=value`` pairs; values are read as JSON when they parse, else kept as strings."""
    params: dict[str, object] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--param expects key=value, got {item!r}")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    return params


def read_lines(path: Path) -> list[tuple[str, str]]:
    """(line number, text) for the non-empty lines of a UTF-8 file."""
    try:
        raw = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as err:
        line = path.read_bytes()[: err.start].count(b"\n") + 1
        raise DataError(path, f"line {line}", "is not valid UTF-8") from None
    rows = [(str(i), text.strip()) for i, text in enumerate(raw.splitlines(), start=1) if text.strip()]
    if not rows:
        raise DataError(path, None, "has no non-empty lines to explain")
    return rows


def attribute(
    file: Path = typer.Argument(..., exists=True, dir_okay=False, help="UTF-8 text file, one input per line."),
    model: str = typer.Option("tiny-sequence-classification", help="zoo name, local directory or hub id"),
    method: str = typer.Option("integrated_gradients", help="explainer name (`interpeval.explain.names()`)"),
    param: list[str] = typer.Option([], "--param", help="explainer parameter key=value (repeatable)"),
    chunk: int = typer.Option(8, help="lines explained per call (and per store transaction)"),
    store: Path = typer.Option(None, help="SQLite store (default: $INTERPEVAL_STORE or the user data dir)"),
) -> None:
    """Explain each line; print the run id. Re-run the same command to resume an interrupted run."""
    from interpeval import explain, models

    params = parse_params(param)
    explainer = explain.get(method)(**params)
    rows = read_lines(file)
    loaded = models.load(model)
    config = {"method": method, "params": explainer.get_params(), "file": file.name}
    with Store(store) as db:
        run = db.run("attribute", config, model=loaded.name, data_fingerprint=fingerprint_files(file))
        todo = [(iid, text) for iid, text in rows if iid not in run.done_ids()]
        with Progress(transient=True) as progress:
            task = progress.add_task(f"{method} on {loaded.name}", total=len(rows), completed=len(rows) - len(todo))
            for start in range(0, len(todo), chunk):
                part = todo[start:start + chunk]
                attributions = explainer.explain(loaded, [text for _, text in part])
                for (iid, _), attribution in zip(part, attributions, strict=True):
                    run.record(iid, attribution.to_dict(), {"sum": float(attribution.scores.sum())})
                progress.advance(task, len(part))
        run.finish()
        typer.echo(f"run {run.id}: {len(rows)} lines, {len(todo)} explained now, store {db.path}")
