"""`interpeval models`: what the offline zoo holds and whether each model can be loaded here."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(help="List the model zoo (pretrained encoders, tiny test models, trained artifacts).",
                  invoke_without_command=True)


#: narrower terminals get one block per model: a table would squeeze paths and descriptions into 3-character columns
WIDE = 120


@app.callback()
def models(cards: bool = typer.Option(False, "--cards", help="Print the trained heads' held-out scores, "
                                                               "baselines and training cost from their cards, as "
                                                               "the README's markdown table.")) -> None:
    """Print the zoo: name, kind, present, where it loads from, description (a table on wide terminals)."""
    from rich.padding import Padding
    from rich.text import Text

    from interpeval.models.zoo import available, heldout_table

    if cards:
        typer.echo(heldout_table())
        return
    console = Console()
    entries = available()
    if console.width >= WIDE:
        table = Table(title="interpeval model zoo")
        for column in ("name", "kind", "present"):
            table.add_column(column, no_wrap=True)
        for column in ("where", "description"):
            table.add_column(column, overflow="fold")
        for entry in entries:
            table.add_row(entry.name, entry.kind, "yes" if entry.present else "no", entry.where, entry.description)
        console.print(table)
        return
    console.print(Text("interpeval model zoo: name · kind · present, then description and where it loads from",
                       style="bold"))
    for entry in entries:
        head = Text(entry.name, style="bold")
        head.append(f" · {entry.kind} · ")
        head.append("present" if entry.present else "missing", style="green" if entry.present else "red")
        console.print(head)
        console.print(Padding(Text(entry.description), (0, 0, 0, 2)))
        console.print(Padding(Text(entry.where, style="dim", overflow="fold"), (0, 0, 0, 2)))
