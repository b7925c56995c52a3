"""`interpeval explain TEXT --model NAME --explainer NAME[:key=value,...]`: explain one input and print a heatmap in the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markup import escape

from interpeval.errors import OptionError

if TYPE_CHECKING:  # torch is slow to import: the CLI loads it only when a command needs it
    from interpeval.models.base import Target


def parse_target(spec: str | None) -> Target | None:
    """``NAME`` or ``NAME:INDEX`` (e.g. ``class_prob:1``); None means the model's default, predicted index."""
    from interpeval.models.base import Target

    if not spec:
        return None
    name, sep, index = spec.partition(":")
    if not sep:
        return Target(name)
    try:
        return Target(name, int(index))
    except ValueError:
        raise OptionError("--target", f"expects NAME or NAME:INDEX with an integer index, got {spec!r}") from None


def explain(
    text: str = typer.Argument(..., help="The input text (the question for extractive QA)."),
    model: str = typer.Option(..., "--model", help="Zoo name, local model directory or hub id."),
    explainer: str = typer.Option(None, "--explainer", help="NAME[:key=value,...], e.g. lime:n_samples=200 "
                                  "(interpeval.explain.names())."),
    method: str = typer.Option(None, "--method", hidden=True, help="Deprecated: --explainer NAME."),
    kind: str = typer.Option(None, "--kind", help="Model kind when the checkpoint does not say."),
    target: str = typer.Option(None, "--target", help="Target NAME or NAME:INDEX, e.g. class_prob:1."),
    pair: str = typer.Option(None, "--pair", help="Second text (pair / QA context)."),
    param: list[str] = typer.Option([], "--param", hidden=True,  # noqa: B006
                                    help="Deprecated: --explainer NAME:key=value."),
    html: Path = typer.Option(None, "--html", help="Also write a self-contained HTML heatmap here."),
    device: str = typer.Option("auto", "--device"),
) -> None:
    """Print the attribution of TEXT as a coloured heatmap (green positive, red negative) and its top tokens."""
    from interpeval import validate
    from interpeval.models import load
    from interpeval.models.base import KINDS

    if not text.strip():
        raise OptionError("TEXT", "is empty: there is nothing to explain")
    validate.one_of(kind, list(KINDS), "--kind")
    validate.device(device)
    if html is not None:
        validate.output_file(html, "--html")
    (spec,) = validate.explainer_specs([explainer] if explainer else [], method, param, labels=False)
    option = "--explainer" if explainer else "--method"
    instance = spec.build()
    parsed_target = parse_target(target)
    loaded = load(model, kind=kind, device=device)
    pairs = None if pair is None else [pair]
    if loaded.kind == "extractive-qa" and not (pair or "").strip():
        raise OptionError("--pair", "an extractive-qa model answers TEXT (the question) from a context: give the "
                                    "context with --pair")
    if parsed_target is not None:
        with validate.as_option_error("--target"):
            loaded.check_target(parsed_target)
            if parsed_target.index is not None:  # one forward pass says whether the model has that output
                loaded.score_texts(text, pairs, parsed_target)
    if loaded.kind not in instance.kinds:
        raise OptionError(option, f"{spec.name} does not explain {loaded.kind} models (it explains "
                                  f"{', '.join(instance.kinds)})")
    (attribution,) = instance.explain(loaded, text, parsed_target, pairs)
    console = Console()
    console.print(f"[bold]{escape(str(spec))}[/] on [bold]{loaded.name}[/] ({loaded.kind}), target {attribution.target}")
    console.print(attribution.rich())
    for segment, name, given in ((0, "TEXT", text), (1, "--pair", pair)):
        seen = max((end for (_, end), seg in zip(attribution.offsets, attribution.segments, strict=True)
                    if seg == segment), default=0)
        if given and given[seen:].strip():
            console.print(f"[yellow]truncated:[/] {loaded.name} reads at most {loaded.max_length} tokens; "
                          f"{name} is explained up to character {seen} of {len(given)}, the rest is not read")
    top = attribution.top_k(5)
    console.print("top tokens: " + ", ".join(f"{attribution.tokens[i]} ({attribution.scores[i]:.4g})" for i in top))
    if html is not None:
        html.write_text(f"<!doctype html><meta charset='utf-8'><title>{spec.name}</title>{attribution.html()}",
                        encoding="utf-8")
        console.print(f"wrote {html}")
