"""`interpeval metrics`: the metric registry as a table (name, family, direction, range, source)."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table


def metrics(family: str = typer.Option(None, help="Only this family (plausibility, faithfulness, ...).")) -> None:
    """List every registered metric with its declared metadata."""
    from interpeval import metrics as registry
    from interpeval.validate import one_of

    one_of(family, sorted({registry.get(name).info.family for name in registry.names()}), "--family")
    table = Table("name", "family", "direction", "range", "source", title="interpeval metrics")
    for name in registry.names(family):
        info = registry.get(name).info
        low, high = info.value_range
        table.add_row(name, info.family, "higher is better" if info.higher_is_better else "lower is better",
                      f"[{low:g}, {high:g}]", info.source)
    Console().print(table)
