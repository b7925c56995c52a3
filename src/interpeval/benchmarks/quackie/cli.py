"""`interpeval quackie ...`: run the QUACKIE benchmark, train its two classifiers, score them on held-out data."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

from interpeval.cli.executors import executor_options
from interpeval.errors import OptionError

app = typer.Typer(help="QUACKIE: do explanations of a QA classifier point at the answer sentence?",
                  no_args_is_help=True)

DEFAULT_LIMIT = 3


@app.command()
@executor_options
def run(
    dataset: Annotated[list[str] | None, typer.Option(help="SQuAD, NEW_WIKI, Reddit, Amazon, or a SQuAD-format .json "
                                                           "file; repeat for several (default: all four)")] = None,
    classifier: Annotated[list[str] | None, typer.Option(help="QA and/or Classification (default: both)")] = None,
    explainer: Annotated[list[str] | None, typer.Option(
        help="[LABEL=]NAME[:key=value,...] (repeatable); Random = the sentence baseline; 'all' = the leaderboard set "
             "plus every other registered explainer (default: the leaderboard set)")] = None,
    method: Annotated[list[str] | None, typer.Option(hidden=True, help="deprecated: --explainer")] = None,
    agg: Annotated[list[str] | None, typer.Option(help="sentence aggregation: sum, max, mean")] = None,
    limit: Annotated[int, typer.Option(help="true positives explained per dataset and classifier; 0 = all")]
    = DEFAULT_LIMIT,
    official: Annotated[bool, typer.Option(help="the originals' setup: ground truth by the one-separator offset "
                                                     "walk, question fixed (segment=1), LIME num_features=10")] = False,
    data_dir: Annotated[Path | None, typer.Option(help="folder with the full files (default: vendored subsets)")]
    = None,
    out: Annotated[Path, typer.Option(help="output folder for results.json, tables, figures, report.html")]
    = Path("quackie-results"),
    store: Annotated[Path | None, typer.Option(help="results database (default: $INTERPEVAL_STORE or user dir)")]
    = None,
    qa_model: Annotated[str | None, typer.Option(help="model to explain as QA (default minilm-squad)")] = None,
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

    from interpeval import validate
    from interpeval.benchmarks.quackie.data import DATASETS, dataset_path
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
    validate.at_least(limit, 0, "--limit")
    validate.at_least(batch_size, 1, "--batch-size")
    for name in classifier or ():
        validate.one_of(name, list(CLASSIFIERS), "--classifier")
    for name in agg or ():
        validate.one_of(name, ("sum", "max", "mean"), "--agg")
    if data_dir is not None:
        validate.input_dir(data_dir, "--data-dir")
    for name in dataset or ():
        dataset_path(name, data_dir)
    validate.output_dir(out, "--out")
    validate.store(store)
    validate.device(device)
    methods = list(LEADERBOARD)
    option = "--explainer"
    if method:
        if explainer:
            raise OptionError("--explainer", "give --explainer, or the deprecated --method, not both")
        validate.deprecated("--method", "--explainer [LABEL=]NAME[:key=value,...]")
        explainer, option = method, "--method"
    if explainer:
        methods = []
        for spec in explainer:
            if spec == "all":
                methods += list(LEADERBOARD) + _other_explainers()
                continue
            with validate.as_option_error(option):
                parsed = parse_method(spec)
            if parsed.explainer:
                validate.explainers([spec], option)
            methods.append(parsed)
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
def heldout(
    classifier: Annotated[list[str] | None, typer.Option(help="QA and/or Classification (default: both)")] = None,
    model: Annotated[str | None, typer.Option(help="model to score instead of the shipped one")] = None,
    data_dir: Annotated[Path | None, typer.Option(help="folder with the full files (default: vendored subsets)")]
    = None,
    max_questions: Annotated[int, typer.Option(help="first N questions per dataset (file order); 0 = all")] = 150,
) -> dict[str, dict[str, float]]:
    """Answerability accuracy / recall on data the classifiers never saw: the questions whose paragraph a
    classifier trained on (its ``lineage.json``) are left out and counted, whatever the data source."""
    from interpeval import validate
    from interpeval.benchmarks.quackie.data import DATASETS, dataset_path, load_squad
    from interpeval.benchmarks.quackie.run import CLASSIFIERS
    from interpeval.benchmarks.quackie.training import evaluate_answerability
    from interpeval.models import lineage, load

    validate.at_least(max_questions, 0, "--max-questions")
    for name in classifier or ():
        validate.one_of(name, list(CLASSIFIERS), "--classifier")
    if data_dir is not None:
        validate.input_dir(data_dir, "--data-dir")
    report = {}
    for label in classifier or list(CLASSIFIERS):
        clf = CLASSIFIERS[label]
        name = model or clf.model
        loaded = load(name)
        trained = lineage.read(name)
        for ds in DATASETS:
            questions, dropped = trained.drop(load_squad(dataset_path(ds, data_dir)), lambda q: q.context)
            questions = questions[:max_questions or None]
            report[f"{label}/{ds}"] = {**evaluate_answerability(loaded, clf.target, questions), "trained_on": dropped}
            typer.echo(f"{label:<14} {ds:<9} " + json.dumps(report[f"{label}/{ds}"]))
    return report
