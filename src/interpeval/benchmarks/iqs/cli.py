"""`interpeval iqs ...`: IQS studies (create, list, assign) and scoring (Tables 1 and 2, agreement, Figure 5)."""

from __future__ import annotations

from pathlib import Path

import typer

from interpeval.cli.executors import executor_options
from interpeval.errors import OptionError

app = typer.Typer(help="IQS, the Interpretation Quality Score: human studies of explanations on SST-2, STS-B, QNLI.",
                  no_args_is_help=True)
study_app = typer.Typer(help="IQS annotation studies in the results store.", no_args_is_help=True)
app.add_typer(study_app, name="study")

_STORE = typer.Option(None, help="Results store (default: $INTERPEVAL_STORE or the user data dir).")


def _methods(explainer: list[str], perturbations: int | None, legacy: str | None = None) -> dict:
    """Explainer name → parameters from ``--explainer`` (``paper``: the paper's six; one of them by name: with the
    paper's parameters, which ``key=value`` overrides; any other registered explainer with its own defaults). A
    study keys its methods by explainer name, so each explainer comes once and takes no LABEL=."""
    from interpeval import validate
    from interpeval.benchmarks.iqs.explanations import PAPER_METHODS

    option = "--explainer"
    if legacy is not None:
        if explainer:
            raise OptionError("--explainer", "give --explainer, or the deprecated --methods, not both")
        validate.deprecated("--methods", "--explainer NAME (repeatable) or --explainer paper")
        explainer, option = [m.strip() for m in legacy.split(",") if m.strip()], "--methods"
    texts = [m for t in explainer or ["paper"] for m in (list(PAPER_METHODS) if t.strip() == "paper" else [t])]
    if perturbations is not None and perturbations < 1:
        raise OptionError("--perturbations", f"must be >= 1, got {perturbations}")
    chosen: dict[str, dict] = {}
    for spec in validate.explainers(texts, option, labels=False):
        if spec.name in chosen:
            raise OptionError(option, f"{spec.name} is given twice: a study shows each explainer once")
        params = {**PAPER_METHODS.get(spec.name, {}), **spec.params}
        if perturbations and "n_samples" in PAPER_METHODS.get(spec.name, {}) and "n_samples" not in spec.params:
            params["n_samples"] = perturbations
        chosen[spec.name] = params
    return chosen


@study_app.command("create")
@executor_options
def create(
        task: str = typer.Option(..., help="sst2, stsb or qnli."),
        model: str = typer.Option(..., help="Zoo name, local directory or hub id (a classifier for sst2/qnli, a "
                                            "regression model for stsb)."),
        data: Path = typer.Option(None, help="Task file (GLUE TSV, or SST 'label sentence' lines); default: the "
                                             "vendored one."),
        per_class: int = typer.Option(25, help="Samples per class (paper: 25, i.e. 50 per task)."),
        seed: int = typer.Option(0, help="Seed of the sample draw and the item order."),
        explainer: list[str] = typer.Option([], "--explainer", help="'paper' (default: the paper's six methods with "
                                            "its parameters), one of them by name (the paper's parameters, "
                                            "key=value overrides them) or any registered NAME[:key=value,...] "
                                            "(repeatable)."),
        methods: str = typer.Option(None, "--methods", hidden=True, help="Deprecated: --explainer NAME."),
        perturbations: int = typer.Option(None, help="LIME / Kernel SHAP samples per input instead of the paper's "
                                                     "3000 (recorded with the study and every table)."),
        threshold: float = typer.Option(0.0, help="Marked words: |score| > threshold × max |score| (0: any "
                                                  "non-zero score; 0.1: the rule under which the paper's "
                                                  "simplicity pattern appears, used by `interpeval reproduce "
                                                  "iqs`)."),
        top_k: int = typer.Option(None, help="Marked words: keep only the k largest |score|."),
        sign: str = typer.Option("both", help="Marked words: both, positive or negative scores."),
        name: str = typer.Option(None, help="Study name (default: 'IQS <task> <model>')."),
        annotator: list[str] = typer.Option([], help="Existing user to assign every item to (repeatable)."),
        device: str = typer.Option("auto", help="cpu, cuda, mps or auto."),
        batch_size: int = typer.Option(32, help="Inputs (or LIME / SHAP perturbations) per forward pass."),
        store: Path = _STORE,
) -> None:
    """Draw the protocol's samples, explain them with the six methods and put the study in the store."""
    from interpeval import validate
    from interpeval.benchmarks.iqs.marking import Marking
    from interpeval.benchmarks.iqs.score import Item, simplicity_by_method
    from interpeval.benchmarks.iqs.study import build_study, create
    from interpeval.store.studies import Studies

    validate.device(device)
    validate.at_least(per_class, 1, "--per-class")
    validate.at_least(batch_size, 1, "--batch-size")
    validate.store(store)
    if data is not None:
        validate.input_file(data)
    chosen_methods = _methods(explainer, perturbations, methods)
    marking = Marking(threshold, top_k, sign)
    with Studies(store) as studies:
        users = {u.name: u for u in studies.users()}
        missing = [a for a in annotator if a not in users]
        if missing:  # checked before the explainers run
            raise OptionError("--annotator", f"no user(s) {', '.join(missing)} in {studies.path}; add them first "
                                             "(`interpeval serve --add-user NAME --role annotator`)")
        # every explanation is recorded in the same store as soon as it is made: a killed creation resumes
        items, config = build_study(task, model, data=str(data) if data else None, per_class=per_class, seed=seed,
                                    methods=chosen_methods, marking=marking, device=device,
                                    batch_size=batch_size, store=studies.path)
        study_id = create(studies, name or f"IQS {task} {model}", items, config)
        for a in annotator:
            studies.assign(study_id, users[a].id)
        path = studies.path
    simple = simplicity_by_method([Item.from_dict({"id": it["key"], "words": it["payload"]["words"],
                                                   **it["payload"]["iqs"]}) for it in items])
    info = config["iqs"]
    print(f"study {study_id}: {len(items)} items ({info['n_samples']} samples × {len(info['methods'])} methods) "
          f"in {path}")
    print(f"protocol: {info['protocol']}")
    print(f"marked words: {info['marking']['rule']}; explained: {info['target']}")
    print(f"{'method':<22} {'wall s':>9} {'s/sample':>9} {'N_chunk':>8} {'simplicity':>10}")
    for method, seconds in info["cost_s"].items():
        s = simple[method]
        print(f"{method:<22} {seconds:9.2f} {seconds / info['n_samples']:9.3f} {s['n_chunks']:8.2f} "
              f"{s['simplicity']['mean']:10.3f}")


@study_app.command("list")
def list_studies(store: Path = _STORE) -> None:
    """IQS studies in the store with their progress."""
    from interpeval import validate
    from interpeval.store.studies import Studies

    validate.store(store, must_exist=True)
    with Studies(store) as studies:
        for study in studies.studies():
            if study.kind == "iqs" and "iqs" in study.config:
                info = study.config["iqs"]
                print(f"{study.id}\t{study.name}\t{info['task']}\t{info['model']}\t{studies.progress(study.id)}")


@study_app.command("assign")
def assign(study: int = typer.Argument(..., help="Study id."),
           annotator: list[str] = typer.Option(..., help="User to assign every item to (repeatable)."),
           store: Path = _STORE) -> None:
    """Give annotators every item of a study (the paper: three annotators per item)."""
    from interpeval import validate
    from interpeval.benchmarks.iqs.study import iqs_config
    from interpeval.store.studies import Studies

    validate.store(store, must_exist=True)
    with Studies(store) as studies:
        iqs_config(studies, study)  # an IQS study that exists
        users = {u.name: u for u in studies.users()}
        for a in annotator:
            if a not in users:
                raise OptionError("--annotator", f"no user {a!r} in {studies.path}")
            print(f"{a}: {len(studies.assign(study, users[a].id))} items")


@app.command("score")
def score(
        study: list[int] = typer.Argument(..., help="Study id(s), e.g. one per task."),
        out: Path = typer.Option(Path("iqs-results"), help="Folder for the tables, Figure 5 and report.html."),
        simulated_annotator: str = typer.Option(None, help="FOR TESTS AND DEMOS ONLY: let simulated annotators "
                                                          "('model-output') answer, and score only their answers; "
                                                          "every output is labelled SIMULATED."),
        annotators: int = typer.Option(3, help="How many simulated annotators."),
        noise: float = typer.Option(0.1, help="Simulated annotators: probability of each wrong answer."),
        store: Path = _STORE,
) -> None:
    """Plausibility, simplicity, reproducibility, IQS (Table 1), its mean/std over 66 weights (Table 2),
    ranking, agreement, cost and Figure 5. Human answers only, unless --simulated-annotator."""
    from interpeval import validate
    from interpeval.benchmarks.iqs.explanations import METHOD_TITLES
    from interpeval.benchmarks.iqs.study import score_studies, simulate
    from interpeval.benchmarks.iqs.tables import SIMULATED_BANNER, table1, write_outputs
    from interpeval.store.studies import Studies

    validate.at_least(annotators, 1, "--annotators")
    if not 0 <= noise <= 1:
        raise OptionError("--noise", f"must be in [0, 1], got {noise}")
    validate.output_dir(out, "--out")
    validate.store(store, must_exist=True)
    simulated = simulated_annotator is not None
    with Studies(store) as studies:
        if simulated:
            for sid in study:
                names = simulate(studies, sid, annotators, simulated_annotator, noise)
                print(f"study {sid}: {SIMULATED_BANNER}: {', '.join(names)} answered every item")
        results = score_studies(studies, list(study), simulated)
    for path in write_outputs(results, out):
        print(f"wrote {path}")
    for result in results:
        print(table1(result).to_markdown())
        ranking = " > ".join(METHOD_TITLES.get(s.method, s.method) for s in sorted(result.scores,
                                                                                    key=lambda s: s.rank))
        print(f"ranking ({result.task.name}): {ranking}")
        print(f"agreement ({result.task.name}): {result.agreement}")
