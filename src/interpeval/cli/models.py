"""`interpeval models`: what the offline zoo holds and whether each model can be loaded here."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(help="List the model zoo (pretrained encoders, tiny test models, trained artifacts).",
                  invoke_without_command=True)


@app.callback()
def models() -> None:
    """Print the zoo as a table: name, kind, present, where it loads from."""
    from interpeval.models.zoo import available

    table = Table(title="interpeval model zoo")
    for column in ("name", "kind", "present"):
        table.add_column(column, no_wrap=True)
    for column in ("where", "description"):
        table.add_column(column, overflow="fold")
    for entry in available():
        table.add_row(entry.name, entry.kind, "yes" if entry.present else "no", entry.where, entry.description)
    Console().print(table)
