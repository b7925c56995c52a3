"""`interpeval train KIND --base ENCODER --data FILE --out DIR`: fine-tune a head on real data."""

from __future__ import annotations

import inspect
import shlex
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

app = typer.Typer(help="Fine-tune a zoo encoder (or any model dir) as one task kind; resumable.",
                  no_args_is_help=True)

KIND_DATA = {
    "sequence-classification": "GLUE-style .tsv (sentence / sentence1+sentence2 / question+sentence, label)",
    "regression": "GLUE-style .tsv with a score column (STS-B)",
    "extractive-qa": "SQuAD 1.1/2.0 .json",
    "multiple-choice": ".jsonl of {context, question, options, label}",
    "masked-lm": ".txt (one text per line)",
}


def _train(
    kind: str,
    data: Path = typer.Option(..., help="GLUE .tsv, SQuAD .json, .txt (masked-lm) or .jsonl of examples"),
    out: Path = typer.Option(..., help="output directory (loadable by interpeval.models.load; resumes here)"),
    base: str = typer.Option("minilm", help="zoo name, local directory or hub id"),
    train_layers: int = typer.Option(None, help="train only the top N layers + head; store only those (fp16)"),
    max_steps: int = typer.Option(None, help="stop after this many optimiser steps (overrides --epochs)"),
    epochs: int = typer.Option(1),
    lr: float = typer.Option(5e-5),
    batch_size: int = typer.Option(16),
    max_length: int = typer.Option(128),
    eval_fraction: float = typer.Option(0.1, help="seeded held-out share of the data, scored at the end"),
    evidence_lambda: float = typer.Option(0.1, help="extractive-qa: weight of the evidence loss"),
    seed: int = typer.Option(0),
    device: str = typer.Option("auto", help="auto = cuda > mps > cpu"),
    limit: int = typer.Option(None, help="use only the first N examples of the file"),
    description: str = typer.Option("", help="one line for the model card"),
) -> None:
    """Train, score the held-out split, write the artifact with MODEL_CARD.md and card.json."""
    from interpeval import validate
    from interpeval.errors import OptionError
    from interpeval.training.examples import read_examples
    from interpeval.training.loop import About, TrainConfig, train

    validate.output_dir(out, "--out")
    validate.device(device)
    for option, value in (("--epochs", epochs), ("--batch-size", batch_size), ("--max-length", max_length),
                          ("--max-steps", max_steps), ("--train-layers", train_layers), ("--limit", limit)):
        validate.at_least(value, 1, option)
    if not 0 <= eval_fraction < 1:
        raise OptionError("--eval-fraction", f"must be in [0, 1), got {eval_fraction}")
    if lr <= 0:
        raise OptionError("--lr", f"must be > 0, got {lr}")
    examples, label_names = read_examples(kind, data)
    if limit is not None:
        examples = examples[:limit]
    config = TrainConfig(seed=seed, epochs=epochs, max_steps=max_steps, lr=lr, batch_size=batch_size,
                         eval_fraction=eval_fraction, train_layers=train_layers, evidence_lambda=evidence_lambda,
                         max_length=max_length)
    command = _command(kind, data, out, base=base, train_layers=train_layers, max_steps=max_steps, epochs=epochs,
                       lr=lr, batch_size=batch_size, max_length=max_length, eval_fraction=eval_fraction,
                       evidence_lambda=evidence_lambda, seed=seed, device=device, limit=limit)
    result = train(kind, base, examples, out, config, label_names=label_names, device=device,
                   about=About(data=f"{data}" + (f" (first {limit})" if limit else ""), command=command,
                               description=description))
    scores = ", ".join(f"{k}={v:.4f}" for k, v in result.metrics.items())
    Console().print(f"{out}: {result.steps} steps, {result.n_train} train / {result.n_eval} held-out, "
                    f"{scores}, {result.wall_time_s} s")


def _command(kind: str, data: Path, out: Path, **options: object) -> str:
    """The command line that reproduces this run (for the model card)."""
    parts = ["interpeval", "train", kind, "--data", str(data), "--out", str(out)]
    for name, value in options.items():
        if value is not None:
            parts += [f"--{name.replace('_', '-')}", str(value)]
    return " ".join(shlex.quote(p) for p in parts)


def _register(kind: str) -> None:
    def command(**kwargs: object) -> None:
        _train(kind, **kwargs)  # type: ignore[arg-type]

    command.__signature__ = _SIGNATURE  # type: ignore[attr-defined]
    command.__doc__ = f"Fine-tune as {kind} on {KIND_DATA[kind]}; score the held-out split; write the artifact."
    app.command(kind)(command)


_SIGNATURE = inspect.signature(_train).replace(parameters=list(inspect.signature(_train).parameters.values())[1:])
for _kind in KIND_DATA:
    _register(_kind)


@app.command("recipe")
def recipe(
    name: str = typer.Argument(..., help="a zoo head: minilm-sst2, minilm-squad, me5-small-cmrc, … (--list)"),
    data_root: Path = typer.Option(Path("../shared/data"), help="the shared real-data folder"),
    out: Path = typer.Option(None, help="output directory (default: ./zoo/NAME); resumes here"),
    device: str = typer.Option("auto", help="auto = cuda > mps > cpu"),
    set_: list[str] = typer.Option([], "--set", help="override a training setting, e.g. --set epochs=1; --set init=DIR warm-starts from a trained head"),
) -> None:
    """Reproduce a zoo head from the real data: exact split, dev selection, held-out tests with baselines."""
    import json

    from interpeval.errors import InterpevalError
    from interpeval.training.recipes import RECIPES, run_recipe

    if name not in RECIPES:
        raise InterpevalError(f"unknown recipe {name!r}; recipes: {', '.join(RECIPES)}")
    overrides: dict[str, Any] = {}
    for item in set_:
        key, sep, value = item.partition("=")
        allowed = [*RECIPES[name].settings, "max_steps", "eval_every", "seed", "init"]
        if not sep or key not in allowed:
            raise InterpevalError(f"--set {item!r}: use KEY=VALUE with KEY one of {', '.join(allowed)}")
        if key == "init":  # an artifact folder or zoo name to warm-start from
            overrides[key] = value
            continue
        try:
            overrides[key] = json.loads(value)
        except json.JSONDecodeError:
            raise InterpevalError(f"--set {item!r}: {value!r} is not a number") from None
    from interpeval import validate

    validate.input_dir(data_root, "--data-root")
    validate.output_dir(out or Path("zoo") / name, "--out")
    validate.device(device)
    if "init" in overrides:
        from interpeval.training.loop import check_init

        layers = overrides.get("train_layers", RECIPES[name].settings.get("train_layers"))
        check_init(str(overrides["init"]), RECIPES[name].kind, RECIPES[name].base, layers)
    summary = run_recipe(name, data_root, out or Path("zoo") / name, device=device, overrides=overrides)
    Console().print_json(json.dumps(summary, ensure_ascii=False))
