"""The `interpeval` command line. Each area mounts its own typer sub-app; errors are one clear line."""

from __future__ import annotations

import sys

import typer

from interpeval.errors import InterpevalError

_app: typer.Typer | None = None


def _build_app() -> typer.Typer:
    """The root app: the general commands, then one sub-app per benchmark plug-in (mounted under its name). Built on
    first use, so that a benchmark's CLI module can import the shared CLI helpers (``interpeval.cli.executors``)."""
    from interpeval.cli import (
        attribute,
        evaluate,
        explain,
        metrics,
        models,
        report,
        reproduce,
        runs,
        serve,
        suite,
        train,
    )
    from interpeval.plugins import with_part

    root = typer.Typer(help="Measure what NLP models can do and how interpretable their predictions are.",
                       no_args_is_help=True, pretty_exceptions_enable=False)
    root.callback()(_root)
    root.add_typer(models.app, name="models")
    root.add_typer(train.app, name="train")
    for plugin, sub_app in with_part("cli"):
        root.add_typer(sub_app, name=plugin.name)
    root.add_typer(runs.app, name="runs")
    root.command("attribute")(attribute.attribute)
    root.command("explain")(explain.explain)
    root.command("evaluate")(evaluate.evaluate)
    root.add_typer(metrics.app, name="metrics")
    root.command("suite")(suite.suite)
    root.command("serve")(serve.serve)
    root.command("report")(report.report)
    root.command("reproduce")(reproduce.reproduce)
    return root


def __getattr__(name: str) -> typer.Typer:
    global _app
    if name != "app":
        raise AttributeError(f"module 'interpeval.cli' has no attribute {name!r}")
    if _app is None:
        _app = _build_app()
    return _app


_debug = False


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
        __getattr__("app")(args=argv, prog_name="interpeval")
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
