"""`interpeval report RUN…`: the web app's views of some runs as one self-contained HTML file."""

from __future__ import annotations

from pathlib import Path

import typer


def report(runs: list[int] = typer.Argument(None, help="Run ids (`interpeval runs list`); none: every run."),
           out: Path = typer.Option(Path("report.html"), help="HTML file to write."),
           store: Path = typer.Option(None, help="SQLite store (default: $INTERPEVAL_STORE or the user data dir)."),
           tasks: Path = typer.Option(None, help="Probing task folder: adds the majority baseline."),
           title: str = typer.Option("interpeval report", help="Page title.")) -> None:
    """Leaderboards, probing dashboard and example instances of the runs, with plotly.js inlined."""
    from interpeval import validate
    from interpeval.report.static import write_static_report

    validate.output_file(out, "--out")
    validate.store(store, must_exist=True)
    if tasks is not None:
        validate.input_dir(tasks, "--tasks")
    path = write_static_report(store, out, runs or None, title=title, tasks_dir=tasks)
    print(f"wrote {path}")
