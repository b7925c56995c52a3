"""`interpeval metrics`: the metric registry as a table, and `interpeval metrics score` to apply any metric that is
not scored from an explanation (those go through `interpeval evaluate --metric NAME`) to the inputs in a file."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from interpeval.errors import DataError, OptionError

app = typer.Typer(help="The registered metrics: list them, or score named inputs from a file with one of them.",
                  invoke_without_command=True)


def _bounds(low: float, high: float) -> str:
    return f"{'(' if math.isinf(low) else '['}{low:g}, {high:g}{')' if math.isinf(high) else ']'}"


def _call_shape(metric: Any) -> str:
    if metric.uses_evidence:
        return "evaluate --metric"
    return "metrics score (.json)" if metric.info.level == "dataset" else "metrics score (.jsonl or .json)"


@app.callback()
def metrics(ctx: typer.Context,
            family: str = typer.Option(None, help="Only this family (plausibility, faithfulness, ...).")) -> None:
    """List every registered metric with what it needs, its level, direction, range and the command that runs it."""
    if ctx.invoked_subcommand is not None:
        return
    from interpeval import metrics as registry
    from interpeval.validate import one_of

    one_of(family, sorted({registry.get(name).info.family for name in registry.names()}), "--family")
    table = Table("name", "family", "needs", "level", "direction", "range", "command", "source",
                  title="interpeval metrics")
    for name in registry.names(family):
        metric = registry.get(name)
        info = metric.info
        table.add_row(name, info.family, ", ".join(info.needs), info.level,
                      "higher is better" if info.higher_is_better else "lower is better",
                      _bounds(*info.value_range), _call_shape(metric), info.source)
    Console(width=220).print(table)


def _records(path: Path) -> list[tuple[int | None, dict[str, Any]]]:
    """``(line, object)`` per JSON line of a .jsonl file, or ``(None, object)`` for the one object of a .json file."""
    from interpeval.validate import json_objects, read_text

    suffix = path.suffix.lower()
    if suffix not in (".json", ".jsonl"):
        raise DataError(path, None, "expected .json (one object of named inputs) or .jsonl (one object a line)")
    if suffix == ".jsonl":
        out: list[tuple[int | None, dict[str, Any]]] = list(json_objects(path))
        if not out:
            raise DataError(path, None, "has no records")
        return out
    try:
        record = json.loads(read_text(path))
    except json.JSONDecodeError as err:
        raise DataError(path, f"line {err.lineno}", f"is not valid JSON ({err.msg})") from None
    if not isinstance(record, dict):
        raise DataError(path, None, f"expected one JSON object of named inputs, got {type(record).__name__}")
    return [(None, record)]


@app.command("score")
def score(
    name: str = typer.Argument(..., help="A registered metric (see `interpeval metrics`)."),
    file: Path = typer.Argument(..., help=".json: one object whose keys are the metric's needs (a dataset-level "
                                          "metric, or one instance); .jsonl: one such object a line (an instance "
                                          "metric, scored per line)."),
    option: list[str] = typer.Option([], "--option", help="Metric option key=value, e.g. official=false "
                                                          "(repeatable)."),
    out: Path = typer.Option(None, "--out", help="Write the value per line here (.jsonl)."),
) -> None:
    """Score the named inputs in FILE with metric NAME; over several lines, print the mean with n and a 95 %
    bootstrap interval."""
    from interpeval import metrics as registry
    from interpeval.cli.attribute import parse_params
    from interpeval.stats import mean_ci

    with_metric = registry.names()
    if name not in with_metric:
        raise OptionError("NAME", f"unknown metric {name!r}; known: {', '.join(with_metric)}")
    metric = registry.get(name)
    if metric.uses_evidence:
        raise OptionError("NAME", f"{name} scores an explanation (needs {', '.join(sorted(metric.needs))}): use "
                                  f"interpeval evaluate --metric {name}")
    options = parse_params(option)
    records = _records(file)
    if metric.info.level == "dataset" and len(records) != 1:
        raise DataError(file, None, f"{name} scores a whole dataset: give one .json object with "
                                    f"{', '.join(metric.info.needs)}")
    values = []
    for line, record in records:
        missing = [n for n in metric.info.needs if n not in record]
        if missing:
            raise DataError(file, line and f"line {line}", f"missing input {', '.join(missing)} (metric {name} needs "
                                        f"{', '.join(metric.info.needs)})")
        try:
            values.append(metric.from_inputs(record, **options))
        except (ValueError, TypeError) as err:
            raise DataError(file, line and f"line {line}", f"metric {name}: {err}") from None
    if out is not None:
        out.write_text("".join(json.dumps({"line": line, "value": v}) + "\n"
                               for (line, _), v in zip(records, values, strict=True)), encoding="utf-8")
    console = Console()
    if len(values) == 1:
        console.print(f"{name} = {json.dumps(values[0])}")
        return
    stats = mean_ci([v for v in values if isinstance(v, (int, float))])
    console.print(f"{name}: mean {stats['value']:.4f} [{stats['low']:.4f}, {stats['high']:.4f}] "
                  f"(n = {stats['n']} of {len(values)} lines; 95 % bootstrap interval)")
