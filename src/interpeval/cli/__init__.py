"""The `interpeval` command line. Each area mounts its own typer sub-app; errors are one clear line."""

from __future__ import annotations

import sys

import typer

from interpeval.cli import (
    attribute,
    evaluate,
    explain,
    expmrc,
    iqs,
    metrics,
    models,
    plm,
    probing,
    quackie,
    report,
    runs,
    serve,
    suite,
    train,
)
from interpeval.errors import InterpevalError

app = typer.Typer(help="Measure what NLP models can do and how interpretable their predictions are.",
                  no_args_is_help=True, pretty_exceptions_enable=False)
app.add_typer(models.app, name="models")
app.add_typer(train.app, name="train")
app.add_typer(expmrc.app, name="expmrc")
app.add_typer(quackie.app, name="quackie")
app.add_typer(plm.app, name="plm")
app.add_typer(probing.app, name="probing")
app.add_typer(runs.app, name="runs")
app.add_typer(iqs.app, name="iqs")
app.command("attribute")(attribute.attribute)
app.command("explain")(explain.explain)
app.command("evaluate")(evaluate.evaluate)
app.command("metrics")(metrics.metrics)
app.command("suite")(suite.suite)
app.command("serve")(serve.serve)
app.command("report")(report.report)


_debug = False


@app.callback()
def _root(debug: bool = typer.Option(False, "--debug", help="Show the full traceback of every error "
                                     "(also: INTERPEVAL_DEBUG=1).")) -> None:
    global _debug
    _debug = debug


def main(argv: list[str] | None = None) -> None:
    """Entry point: our own input and option errors become one line on stderr and exit code 2 (click's usage errors
    too); anything else is a bug, shown with its traceback and exit code 1."""
    import os
    import traceback

    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bars on every command
    try:
        app(args=argv, prog_name="interpeval")
    except InterpevalError as err:
        if _debug or os.environ.get("INTERPEVAL_DEBUG", "") not in ("", "0"):
            traceback.print_exc()
        print(f"interpeval: error: {err}", file=sys.stderr)
        sys.exit(2)
    except Exception:
        traceback.print_exc()
        print("interpeval: internal error: this is a bug in interpeval, not a problem with your input or options; "
              "please report it with the command line and the traceback above", file=sys.stderr)
        sys.exit(1)
