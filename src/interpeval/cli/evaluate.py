"""`interpeval evaluate`: explain inputs with several explainers and score every explanation with every metric."""

from __future__ import annotations

from pathlib import Path

import typer

from interpeval.cli.executors import executor_options
from interpeval.errors import OptionError


def parse_options(items: list[str]) -> dict[str, dict[str, object]]:
    """``METRIC:key=value`` items as ``{metric: {key: value}}`` (values read as JSON when they parse)."""
    from interpeval.cli.attribute import parse_params

    out: dict[str, dict[str, object]] = {}
    for item in items:
        metric, sep, pair = item.partition(":")
        if not sep or not metric:
            raise OptionError("--option", f"expects METRIC:key=value, got {item!r}")
        out.setdefault(metric, {}).update(parse_params([pair]))
    return out


@executor_options
def evaluate(
    texts: list[str] = typer.Argument(None, help="Texts to explain (or use --file)."),
    file: Path = typer.Option(None, "--file", help=".txt (one input per line), .tsv (text/sentence column, optional "
                                                   "id, rationale, partner) or .jsonl ({text, id?, rationale?, "
                                                   "partner?}); a rationale is 0/1 per whitespace word, a partner "
                                                   "a perturbed text (consistency metrics)."),
    model: str = typer.Option("minilm-sst2", "--model", help="Zoo name, local model directory or hub id."),
    explainer: list[str] = typer.Option(["gradient", "integrated_gradients:n_steps=50"], "--explainer",
                                        help="[LABEL=]NAME[:key=value,...] (repeatable)."),
    metric: list[str] = typer.Option(["ferret"], "--metric", help="Metric name or preset: ferret, faithfulness, "
                                                                  "plausibility, all (repeatable)."),
    option: list[str] = typer.Option([], "--option", help="Metric option METRIC:key=value, e.g. "
                                                          "ferret_token_f1:official=false (repeatable)."),
    target: str = typer.Option(None, "--target", help="Target NAME or NAME:INDEX (default: the predicted class)."),
    baseline: bool = typer.Option(True, help="Add the random explainer as the trivial baseline row."),
    chunk: int = typer.Option(8, "--chunk", help="Inputs per explainer call (part of the run key)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the stochastic explainers."),
    out: Path = typer.Option(None, "--out", help="Folder for aggregate.{md,json} and per_input.{md,json}."),
    store: Path = typer.Option(None, "--store", help="SQLite store (default: $INTERPEVAL_STORE or the user data dir)."),
    device: str = typer.Option("auto", "--device"),
) -> None:
    """Print the mean of every metric per explainer with n and a 95 % bootstrap interval; rerun to resume."""
    from interpeval import validate
    from interpeval.cli.explain import parse_target
    from interpeval.evaluate import Input
    from interpeval.evaluate import evaluate as run_evaluation
    from interpeval.evaluate.engine import resolve_metrics
    from interpeval.evaluate.inputs import read_inputs
    from interpeval.models import load, say_truncated
    from interpeval.models.lineage import say_trained
    from interpeval.store import Store

    if bool(texts) == (file is not None):
        raise OptionError("TEXTS/--file", "give the texts as arguments or --file, not both and not neither")
    validate.at_least(chunk, 1, "--chunk")
    validate.device(device)
    validate.store(store)
    if out is not None:
        validate.output_dir(out, "--out")
    specs = validate.explainers(explainer)
    with validate.as_option_error("--metric"):
        resolve_metrics(metric)
    inputs = read_inputs(file) if file is not None else [Input(str(i), t) for i, t in enumerate(texts)]
    options = parse_options(option)
    parsed_target = parse_target(target)
    if baseline and not any(spec.name == "random" for spec in specs):
        explainer = [*explainer, "random"]
    loaded = load(model, device=device)
    say_truncated(loaded, [i.text for i in inputs] + [i.partner for i in inputs if i.partner])
    say_trained(model, [i.text for i in inputs] + [i.partner for i in inputs if i.partner])
    with Store(store) as db:
        result = run_evaluation(loaded, inputs, explainer, metric, target=parsed_target, store=db,
                                chunk=chunk, seed=seed, options=options,
                                data=str(file) if file is not None else "command-line texts")
    aggregate, per_input = result.tables()
    typer.echo(aggregate.to_markdown())
    if out is not None:
        written = aggregate.save(out / "aggregate") + per_input.save(out / "per_input")
        typer.echo("wrote " + ", ".join(str(p) for p in written))
    typer.echo(f"run {result.run_id}: {len(inputs)} inputs, {result.computed} evaluated now")
