"""The `interpeval` command line. Each area mounts its own typer sub-app; errors are one clear line."""

from __future__ import annotations

import sys

import typer

from interpeval.cli import attribute, explain, expmrc, metrics, models, probing, quackie, runs, suite, train
from interpeval.errors import InterpevalError

app = typer.Typer(help="Measure what NLP models can do and how interpretable their predictions are.",
                  no_args_is_help=True, pretty_exceptions_enable=False)
app.add_typer(models.app, name="models")
app.add_typer(train.app, name="train")
app.add_typer(expmrc.app, name="expmrc")
app.add_typer(quackie.app, name="quackie")
app.add_typer(probing.app, name="probing")
app.add_typer(runs.app, name="runs")
app.command("attribute")(attribute.attribute)
app.command("explain")(explain.explain)
app.command("metrics")(metrics.metrics)
app.command("suite")(suite.suite)


def main() -> None:
    """Entry point: expected failures become one line on stderr and exit code 2 (usage errors stay click's)."""
    try:
        app()
    except (InterpevalError, ValueError, KeyError, FileNotFoundError) as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        print(f"interpeval: error: {message}", file=sys.stderr)
        sys.exit(2)
