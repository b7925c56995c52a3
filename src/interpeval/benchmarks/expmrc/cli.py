"""`interpeval expmrc ...`: the official scorer, baselines, human performance and the paper's Table 3."""

from __future__ import annotations

from pathlib import Path

import typer

from interpeval import validate
from interpeval.benchmarks.expmrc.data import SUBSETS, dev_path, load_dataset, load_predictions
from interpeval.cli.executors import executor_options
from interpeval.errors import OptionError

app = typer.Typer(help="ExpMRC: answers with evidence on SQuAD, CMRC 2018, RACE+ and C3.", no_args_is_help=True)


def _data(data: str) -> Path:
    """A file path, or a subset name for the vendored dev set."""
    return dev_path(data) if data in SUBSETS else validate.input_file(data)


@app.command("score")
def score(data: str = typer.Argument(..., help="ExpMRC data file, or a subset name (squad, cmrc2018, race, c3)."),
          predictions: str = typer.Argument(..., help="Prediction file {qid: {answer, evidence}}."),
          unofficial: bool = typer.Option(False, "--unofficial",
                                          help="Switch off the original's tokenisation quirks."),
          lenient: bool = typer.Option(False, "--lenient", "--official",
                                       help="Accept what the original scorer accepts: non-string answers and evidence "
                                            "(scored as their str()), an empty file or one that answers no question "
                                            "(0 everywhere, all in SKIP, with a warning).")) -> None:
    """Print the official JSON line (ALL_F1, ANS_F1, EVI_F1, TOTAL, SKIP, VERSION, FILE), exactly as eval_expmrc.py."""
    from interpeval.benchmarks.expmrc.score import check_coverage, evaluate

    dataset = load_dataset(_data(data))
    loaded = load_predictions(predictions, lenient=lenient)
    check_coverage(dataset, loaded, predictions, lenient=lenient)
    result = evaluate(dataset, loaded, official=not unofficial)
    print(result.official_line(predictions))


@app.command("human")
def human(data: str = typer.Argument(..., help="ExpMRC data file, or a subset name.")) -> None:
    """Human performance by cross-validation over the references, as the official JSON line (FILE = "human")."""
    from interpeval.benchmarks.expmrc.human import human_performance

    print(human_performance(load_dataset(_data(data))).official_line("human"))


@app.command("baselines")
@executor_options
def baselines(
        out: Path = typer.Option(Path("expmrc-results"), help="Folder for table3.{md,html,json} and predictions."),
        subsets: str = typer.Option(",".join(SUBSETS), help="Comma-separated subsets."),
        data_dir: Path = typer.Option(None, help="Folder with <subset>/expmrc-<subset>-dev.json (default: vendored)."),
        qa_model: str = typer.Option(None, help="Extractive-QA model for English span answers (default: the zoo's "
                                                "English QA head, minilm-squad; \"\" leaves the model rows out)."),
        qa_model_zh: str = typer.Option(None, help="Extractive-QA model for CMRC 2018 (default: the zoo's Chinese "
                                                   "QA head, me5-small-cmrc; \"\" leaves the model rows out)."),
        mc_model: str = typer.Option("", help="Multiple-choice model (none: the unsupervised overlap scorer)."),
        store: Path = typer.Option(None, help="Results store (default: $INTERPEVAL_STORE or the user data dir)."),
        no_store: bool = typer.Option(False, "--no-store", help="Do not record runs."),
        device: str = typer.Option("auto", "--device", help="Where the answer models compute: auto, cpu, cuda, "
                                                            "cuda:N or mps."),
) -> None:
    """Every baseline, upper bound and human performance on the dev sets, in the paper's Table 3 layout."""
    from interpeval.benchmarks.expmrc.tables import run_table3, zoo_qa_head

    chosen = tuple(s.strip() for s in subsets.split(",") if s.strip())
    if not chosen:
        raise OptionError("--subsets", "names no subset")
    for name in chosen:
        validate.one_of(name, SUBSETS, "--subsets")
    validate.output_dir(out, "--out")
    validate.device(device)
    if data_dir is not None:
        validate.input_dir(data_dir, "--data-dir")
    if not no_store:
        validate.store(store)
    if qa_model is None:
        qa_model = zoo_qa_head("en")
    if qa_model_zh is None:
        qa_model_zh = zoo_qa_head("zh")
    paths = {s: (data_dir / s / f"expmrc-{s}-dev.json" if data_dir else dev_path(s)) for s in chosen}
    written = run_table3(paths, out, qa_model=qa_model, qa_model_zh=qa_model_zh, mc_model=mc_model,
                         store_path=None if no_store else store, use_store=not no_store, device=device)
    for path in written:
        print(f"wrote {path}")


@app.command("pseudo-data")
def pseudo_data(out: Path = typer.Argument(..., help="JSON-lines file of QA examples with pseudo evidence."),
                squad: Path = typer.Option(None, help="SQuAD-format training file (default: the vendored "
                                                      "SQuADShifts new-wiki subset).")) -> None:
    """Write pseudo-evidence QA examples for `interpeval train extractive-qa --data OUT` (evidence head)."""
    import json

    from interpeval.benchmarks.expmrc.pseudo import default_training_file, pseudo_examples

    validate.output_file(out, "OUT")
    source = validate.input_file(squad) if squad else default_training_file()
    exclude = frozenset(q.context for s in ("squad",) for q in load_dataset(dev_path(s)).questions)
    examples = pseudo_examples(source, exclude_contexts=exclude)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as handle:
        for example in examples:
            handle.write(json.dumps(example, ensure_ascii=False) + "\n")
    print(f"wrote {len(examples)} examples from {source} to {out}")
