"""`interpeval quackie ...`: run the QUACKIE benchmark, train its two classifiers, score them on held-out data."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(help="QUACKIE: do explanations of a QA classifier point at the answer sentence?",
                  no_args_is_help=True)

DEFAULT_LIMIT = 3


@app.command()
def run(
    dataset: Annotated[list[str] | None, typer.Option(help="SQuAD, NEW_WIKI, Reddit, Amazon, or a SQuAD-format .json "
                                                           "file; repeat for several (default: all four)")] = None,
    classifier: Annotated[list[str] | None, typer.Option(help="QA and/or Classification (default: both)")] = None,
    method: Annotated[list[str] | None, typer.Option(
        help="explainer spec NAME[:key=value,...] or LABEL=NAME:...; 'all' = the leaderboard set plus every other "
             "registered explainer (default: the leaderboard set)")] = None,
    agg: Annotated[list[str] | None, typer.Option(help="sentence aggregation: sum, max, mean")] = None,
    limit: Annotated[int, typer.Option(help="true positives explained per dataset and classifier; 0 = all")]
    = DEFAULT_LIMIT,
    official: Annotated[bool, typer.Option(help="ground truth by the original one-separator offset walk")] = False,
    data_dir: Annotated[Path | None, typer.Option(help="folder with the full files (default: vendored subsets)")]
    = None,
    out: Annotated[Path, typer.Option(help="output folder for results.json, tables, figures, report.html")]
    = Path("quackie-results"),
    store: Annotated[Path | None, typer.Option(help="results database (default: $INTERPEVAL_STORE or user dir)")]
    = None,
    qa_model: Annotated[str | None, typer.Option(help="model to explain as QA (default minilm-quackie-qa)")] = None,
    cls_model: Annotated[str | None, typer.Option(help="model to explain as Classification "
                                                       "(default minilm-quackie-cls)")] = None,
    check: Annotated[bool, typer.Option(help="ground-truth verification (paper Table 2)")] = True,
    seed: int = 0,
    batch_size: int = 32,
    device: str = "auto",
) -> None:
    """Run the benchmark (all domains × both classifiers × the leaderboard set by default) and write the tables."""
    from rich.console import Console
    from rich.table import Table as RichTable

    from interpeval.benchmarks.quackie.data import DATASETS
    from interpeval.benchmarks.quackie.run import (
        AGGREGATIONS,
        CLASSIFIERS,
        LEADERBOARD,
        parse_method,
        run_quackie,
    )
    from interpeval.benchmarks.quackie.tables import write_outputs
    from interpeval.store import Store

    console = Console()
    methods = list(LEADERBOARD)
    if method:
        methods = []
        for spec in method:
            methods += list(LEADERBOARD) + _other_explainers() if spec == "all" else [parse_method(spec)]
    models = {k: v for k, v in (("QA", qa_model), ("Classification", cls_model)) if v}
    start = time.perf_counter()
    result = run_quackie(dataset or list(DATASETS), classifier or list(CLASSIFIERS), methods,
                         tuple(agg or AGGREGATIONS), limit=limit or None, official=official, data_dir=data_dir,
                         store=Store(store) if store else None, seed=seed, batch_size=batch_size, device=device,
                         models=models, check=check,
                         log=lambda line: console.print(line, markup=False, highlight=False))
    wall = time.perf_counter() - start
    data = str(data_dir) if data_dir else "vendored SQuAD-format subsets (interpeval/data/squad)"
    paths = write_outputs(result, out, data, wall)
    table = RichTable(title=f"QUACKIE (×100, k=1; limit {limit or 'none'} per dataset × classifier)")
    for col in ("dataset", "classifier", "method", "IoU", "HPD", "SNR", "n", "fails"):
        table.add_column(col, justify="left" if col in ("dataset", "classifier", "method") else "right")
    for r in result.rows:
        table.add_row(r["dataset"], r["classifier"], r["method"], *(f"{r[k]:.2f}" for k in ("IoU", "HPD", "SNR")),
                      str(r["n"]), str(r["fails"]))
    console.print(table)
    console.print(f"wall time {wall:.0f} s; wrote {paths['results']} and {paths['report']}")


def _other_explainers() -> list:
    from interpeval import explain
    from interpeval.benchmarks.quackie.run import LEADERBOARD, Method

    used = {m.explainer for m in LEADERBOARD}
    return [Method(name, name) for name in explain.names() if name not in used]


@app.command()
def train(
    kind: Annotated[str, typer.Argument(help="cls (answerability classifier) or qa (extractive QA)")],
    data: Annotated[Path | None, typer.Option(help="SQuAD 2.0-format file whose non-held-out articles are "
                                                   "trained on (default ../shared/data/squad/squad2-dev-part.json)")]
    = None,
    out: Annotated[Path | None, typer.Option(help="artifact folder (default: the shipped minilm-quackie-<kind>)")]
    = None,
    base: str = "minilm",
    epochs: int = 1,
    max_steps: Annotated[int | None, typer.Option(help="stop after this many steps (0: one epoch)")] = 60,
    steps_this_run: Annotated[int | None, typer.Option(help="train this many steps, checkpoint and stop; "
                                                            "re-run the same command to go on")] = None,
    lr: float = 2e-4,
    batch_size: int = 16,
    train_layers: int = 2,
    max_length: int = 192,
    mismatch_fraction: float = 0.25,
    unanswerable_fraction: Annotated[float, typer.Option(help="share of SQuAD 2.0 unanswerable questions used")]
    = 0.5,
    seed: int = 0,
) -> None:
    """Train one of the two classifiers on the training articles, then score it on the held-out ones."""
    from interpeval.benchmarks.quackie import training
    from interpeval.benchmarks.quackie.data import load_squad
    from interpeval.models import train as trainer
    from interpeval.models.zoo import artifacts_dir

    if kind not in training.KINDS:
        raise ValueError(f"kind must be one of {', '.join(training.KINDS)}, got {kind!r}")
    data = data or Path(__file__).resolve().parents[4] / "shared" / "data" / "squad" / "squad2-dev-part.json"
    if not data.is_file():
        raise FileNotFoundError(f"training data {data} not found; pass --data with a SQuAD 2.0-format file that "
                                "holds the articles named in quackie.data (e.g. the CS224N SQuAD 2.0 dev split)")
    out = out or artifacts_dir() / f"minilm-quackie-{kind}"
    questions = load_squad(data)
    train_q, held_q = training.split_by_article(questions)
    build = training.classification_examples if kind == "cls" else training.qa_examples
    examples = build(training.subsample_unanswerable(train_q, unanswerable_fraction, seed), mismatch_fraction, seed)
    start = time.perf_counter()
    n_train = len({q.title for q in train_q})
    result = trainer.train(
        training.KINDS[kind], base, examples, out, seed=seed, epochs=epochs, max_steps=max_steps or None, lr=lr,
        batch_size=batch_size, train_layers=train_layers, max_length=max_length, steps_this_run=steps_this_run,
        data=f"{data}: the {n_train} articles not held out ({len(train_q)} questions; all answerable, "
             f"{unanswerable_fraction:.0%} of the unanswerable) + question/context mismatches for "
             f"{mismatch_fraction:.0%} of the answerable",
        command=(f"interpeval quackie train {kind} --data {data} --base {base} --epochs {epochs} --max-steps "
                 f"{max_steps} --lr {lr} --batch-size {batch_size} --train-layers {train_layers} --max-length "
                 f"{max_length} --mismatch-fraction {mismatch_fraction} --unanswerable-fraction "
                 f"{unanswerable_fraction} --seed {seed}"),
        description=f"QUACKIE {'answerability classifier' if kind == 'cls' else 'extractive QA model (P_answer)'} "
                    f"from MiniLM; held-out articles: {', '.join(training.HELD_OUT_ARTICLES)} and SQuADShifts.")
    if not result.finished:
        typer.echo(f"stopped after step {result.steps}; run the same command again to continue")
        return
    training.write_split(out, train_q, held_q, str(data), mismatch_fraction, seed, unanswerable_fraction)
    typer.echo(f"trained {out} on {len(examples)} examples from {len({q.title for q in train_q})} articles "
               f"in {time.perf_counter() - start:.0f} s")
    scores = heldout(classifier=["QA" if kind == "qa" else "Classification"], model=str(out), data_dir=None,
                     max_questions=150)
    (out / "quackie_heldout.json").write_text(json.dumps(scores, indent=1))


@app.command()
def heldout(
    classifier: Annotated[list[str] | None, typer.Option(help="QA and/or Classification (default: both)")] = None,
    model: Annotated[str | None, typer.Option(help="model to score instead of the shipped one")] = None,
    data_dir: Annotated[Path | None, typer.Option(help="folder with the full files (default: vendored subsets)")]
    = None,
    max_questions: Annotated[int, typer.Option(help="first N questions per dataset (file order); 0 = all")] = 150,
) -> dict[str, dict[str, float]]:
    """Answerability accuracy / recall on data the classifiers never saw (held-out articles, SQuADShifts)."""
    from interpeval.benchmarks.quackie.data import DATASETS, dataset_path, load_squad
    from interpeval.benchmarks.quackie.run import CLASSIFIERS, training_articles
    from interpeval.benchmarks.quackie.training import evaluate_answerability
    from interpeval.models import load

    report = {}
    for label in classifier or list(CLASSIFIERS):
        clf = CLASSIFIERS[label]
        name = model or clf.model
        loaded = load(name)
        trained_on = set(training_articles(name))
        for ds in DATASETS:
            questions = [q for q in load_squad(dataset_path(ds, data_dir)) if q.title not in trained_on]
            questions = questions[:max_questions or None]
            report[f"{label}/{ds}"] = evaluate_answerability(loaded, clf.target, questions)
            typer.echo(f"{label:<14} {ds:<9} " + json.dumps(report[f"{label}/{ds}"]))
    return report
