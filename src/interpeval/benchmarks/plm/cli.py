"""`interpeval plm ...`: build the pretrained-LM rationale benchmark, evaluate masked LMs and explainers on it."""

from __future__ import annotations

from pathlib import Path

import typer

from interpeval.cli.executors import executor_options
from interpeval.errors import OptionError

app = typer.Typer(help="Pretrained-LM rationale benchmark (masked-word prediction + rationales, en/zh).",
                  no_args_is_help=True)


def _langs(value: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in value.split(",") if x.strip())


def _progress(tag: str, done: int, total: int) -> None:
    typer.echo(f"  {tag}: {done}/{total}", err=True)


def _specs(explainer: list[str], att_direction: str, explainers: str | None = None, method: list[str] = (),
           param: list[str] = ()) -> dict:
    """Labels → (registered explainer, params) from ``--explainer`` (the paper's ``ATT`` / ``IG`` by label, or any
    ``[LABEL=]NAME[:key=value,...]``, named by its label or else the spec); the deprecated ``--explainers ATT,IG``
    and ``--method NAME --param key=value`` still work for this release. No ``--explainer``: ATT and IG."""
    from interpeval import validate
    from interpeval.benchmarks.plm.suite import DEFAULT_EXPLAINERS, explainer_specs

    labels = [text.strip() for text in explainer if text.strip() in DEFAULT_EXPLAINERS]
    extra = [(spec.label or spec.body, spec.name, dict(spec.params))
             for spec in validate.explainers([t for t in explainer if t.strip() not in DEFAULT_EXPLAINERS])]
    if explainers is not None:
        validate.deprecated("--explainers", "--explainer ATT --explainer IG")
        labels += _langs(explainers)
    if method or param:
        validate.deprecated("--method/--param", "--explainer NAME[:key=value,...]")
        extra += [(spec.name, spec.name, dict(spec.params)) for spec in (validate.legacy_explainer(m, param)
                                                                        for m in method)]
    if not explainer and explainers is None:  # the paper's pair (the old --method added to it)
        labels = list(DEFAULT_EXPLAINERS)
    option = "--explainer" if explainers is None else "--explainers"
    with validate.as_option_error(f"{option}/--att-direction"):
        specs = explainer_specs(labels, att_direction)
    for label, name, params in extra:
        if label in specs:
            raise OptionError("--explainer", f"two explainers are labelled {label!r}: give one a LABEL=")
        specs[label] = (name, params)
    return specs


def _check_common(out: Path, device: str, store: Path | None = None, *counts: tuple[str, int | None]) -> None:
    """Options every plm command shares, checked before any model is loaded."""
    from interpeval import validate

    validate.output_dir(out, "--out")
    validate.device(device)
    validate.store(store)
    for option, value in counts:
        validate.at_least(value, 1, option)


def _zoo_mlm(lang: str) -> str:
    """The installed zoo masked LM on ``lang``'s own base, or 'none'."""
    from interpeval.errors import InterpevalError
    from interpeval.models.zoo import shipped_heads

    try:
        return shipped_heads("masked-lm", lang)[0]
    except InterpevalError:
        return "none"


@app.command("build")
def build_cmd(
        out: Path = typer.Option(Path("plm-data"), help="Folder for plm-<lang>.golden.jsonl and build-summary.jsonl."),
        data_dir: Path = typer.Option(None, help="Sources laid out like shared/data (default: $INTERPEVAL_DATA "
                                                 "or the nearest shared/data)."),
        langs: str = typer.Option("en,zh", help="Comma-separated languages."),
        per_dimension: int = typer.Option(None, help="Originals per dimension and language (default: the "
                                                     "paper's Table 3 sizes where the sources allow)."),
        model_en: str = typer.Option("auto", help="Masked LM for the English uniqueness check (zoo name, "
                                                  "directory or hub id; 'auto': the zoo's English masked LM "
                                                  "when installed; 'none' to skip)."),
        model_zh: str = typer.Option("auto", help="Masked LM for Chinese (as --model-en)."),
        check_uniqueness: bool = typer.Option(True, "--check-uniqueness/--no-check-uniqueness",
                                              help="Run the masked LMs' uniqueness check (one batched pass)."),
        unique_ratio: float = typer.Option(2.0, help="Flag unique when p(best) >= ratio x p(second)."),
        flag_top_k: int = typer.Option(5, help="ambiguous_flag: the gold is not among the model's top k ..."),
        flag_confidence: float = typer.Option(0.3, help="... and the model gives this probability to another "
                                                        "word that fits the rule."),
        exclude_texts: list[Path] = typer.Option([], "--exclude-texts", help="Text file, one text per line, that "
                                                 "an evaluated model trained on: its texts are not used (repeatable)."),
        device: str = typer.Option("auto"),
) -> None:
    """Build the benchmark from the real sources; every rationale is silver and names its rule. The texts every
    zoo masked LM trained on are always left out, and so are those of --model-en/--model-zh."""
    from interpeval import validate
    from interpeval.benchmarks.plm.build import build, default_data_dir, exclusion_hashes
    from interpeval.benchmarks.plm.records import LANGS
    from interpeval.models import lineage

    _check_common(out, device, None, ("--per-dimension", per_dimension), ("--flag-top-k", flag_top_k))
    chosen = _langs(langs)
    for lang in chosen or ("",):
        validate.one_of(lang, LANGS, "--langs")
    for path in exclude_texts:
        validate.input_file(path)
    names = {"en": model_en, "zh": model_zh}
    models = {}
    for lang in chosen:
        if names.get(lang) == "auto":
            names[lang] = _zoo_mlm(lang) if check_uniqueness else "none"
        if check_uniqueness and names.get(lang, "none") != "none":
            from interpeval.models import load

            models[lang] = load(names[lang], kind="masked-lm", device=device)
    exclude = exclusion_hashes(exclude_texts).union(*(lineage.read(names[lang]).hashes for lang in models))
    summary = build(default_data_dir(data_dir), out, chosen, per_dimension, models, unique_ratio, exclude=exclude,
                    flag_k=flag_top_k, flag_confident=flag_confidence)
    for lang, dims in summary.counts.items():
        for dim, counts in dims.items():
            skipped = summary.excluded.get(lang, {}).get(dim, 0)
            rrl = summary.rrl[lang][dim]
            typer.echo(f"{lang} {dim}: " + ", ".join(f"{k} {v}" for k, v in counts.items())
                       + f"; RRL {rrl['built']} % (paper {rrl['paper']} %)"
                       + f"; {skipped} candidates skipped (a zoo or given model trained on their text)")
            for reason, n in summary.dropped[lang][dim].items():
                typer.echo(f"    dropped {n}: {reason}")
    for lang, name in summary.models.items():
        typer.echo(f"{lang} uniqueness check: " + (f"{name} (ambiguous_flag: a model signal for review, not a "
                                                   "judgement)" if name else "not run"))
    for key, why in summary.unavailable.items():
        typer.echo(f"{key}: not built ({why})")
    for path in summary.files.values():
        typer.echo(f"wrote {path}")


@app.command("review")
def review_cmd(
        golden: list[Path] = typer.Argument(..., help="Golden file(s) made by `plm build`."),
        n: int = typer.Option(20, "--n", help="Originals per language x dimension (with all their partners)."),
        seed: int = typer.Option(0, help="Seed of the random sample (draw a fresh one with another seed)."),
        out: Path = typer.Option(Path("plm-review"), help="Folder for review.tsv and review.html."),
        study: str = typer.Option(None, help="Also create a web-app rationale study (kind plm-rationale) of this "
                                             "name holding the same sample, to turn its silver rationales into gold."),
        annotator: list[str] = typer.Option([], help="With --study: existing user to give every item (repeatable)."),
        store: Path = typer.Option(None, help="With --study: the store (default: $INTERPEVAL_STORE or the user "
                                              "data dir)."),
) -> None:
    """A seeded random sample for people to judge: TSV with verdict columns and an HTML page, rationale marked;
    with --study the same sample becomes a rationale study in the web app."""
    from interpeval import validate
    from interpeval.benchmarks.plm.records import read_golden
    from interpeval.benchmarks.plm.review import sample, write_sheet

    validate.output_dir(out, "--out")
    validate.at_least(n, 1, "--n")
    validate.store(store)
    if annotator and study is None:
        raise OptionError("--annotator", "needs --study NAME")
    for path in golden:
        validate.input_file(path)
    records = [r for path in golden for r in read_golden(path)]
    groups = sample(records, n, seed)
    if study is not None:
        _review_study(study, groups, n, seed, golden, annotator, store)
    for path in write_sheet(groups, out):
        typer.echo(f"wrote {path}")
    typer.echo(f"{len(groups)} originals with {sum(len(g) - 1 for g in groups)} partners (seed {seed})")


def _review_study(name: str, groups: list, n: int, seed: int, golden: list[Path], annotators: list[str],
                  store: Path | None) -> None:
    from interpeval.benchmarks.plm.studies import create_review_study
    from interpeval.store.studies import Studies

    with Studies(store) as studies:
        users = {u.name: u for u in studies.users()}
        missing = [a for a in annotators if a not in users]
        if missing:
            raise OptionError("--annotator", f"no user(s) {', '.join(missing)} in {studies.path}; add them first "
                                             "(`interpeval serve --add-user NAME --role annotator`)")
        study_id = create_review_study(studies, name, groups, n, seed, [str(p) for p in golden])
        for user in annotators:
            studies.assign(study_id, users[user].id)
        typer.echo(f"study {study_id} ({name!r}, kind plm-rationale): {sum(map(len, groups))} records in "
                   f"{studies.path}" + (f", assigned to {', '.join(annotators)}" if annotators else ""))


@app.command("run")
@executor_options
def run_cmd(
        golden: Path = typer.Argument(..., help="Golden file (plm-<lang>.golden.jsonl or a TrustAI golden file)."),
        model: list[str] = typer.Option(..., "--model", help="Masked LM: zoo name, directory or hub id "
                                                             "(repeatable)."),
        explainer: list[str] = typer.Option([], "--explainer", help="The paper's ATT or IG, or any [LABEL=]NAME"
                                            "[:key=value,...] (repeatable; default: ATT and IG)."),
        att_direction: str = typer.Option("query", help="ATT: 'query' ([MASK] rows, TrustAI; default) or 'key'."),
        explainers: str = typer.Option(None, "--explainers", hidden=True, help="Deprecated: --explainer ATT ..."),
        method: list[str] = typer.Option([], "--method", hidden=True, help="Deprecated: --explainer NAME."),
        param: list[str] = typer.Option([], "--param", hidden=True, help="Deprecated: --explainer NAME:key=value."),
        target: str = typer.Option("gold", help="Explain the gold answer's tokens ('gold') or the prediction."),
        per_dimension: int = typer.Option(None, help="Only the first N originals per dimension (+ partners)."),
        unique_only: bool = typer.Option(False, "--unique-only", help="Only originals flagged unique (+ partners)."),
        unambiguous_only: bool = typer.Option(False, "--unambiguous-only",
                                              help="Only originals without the build's ambiguous_flag (+ partners)."),
        out: Path = typer.Option(Path("plm-results"), help="Folder for tables, predict files and Figure 1."),
        store: Path = typer.Option(None, help="Results store (default: $INTERPEVAL_STORE or the user data dir)."),
        device: str = typer.Option("auto"),
) -> None:
    """Top-1/Top-3 and rationale metrics for each model × explainer; resumable; writes the paper's tables."""
    from interpeval import validate
    from interpeval.benchmarks.plm.run import TARGETS
    from interpeval.benchmarks.plm.suite import evaluate_file, write_html, write_outputs
    from interpeval.store import Store

    _check_common(out, device, store, ("--per-dimension", per_dimension))
    validate.one_of(target, TARGETS, "--target")
    validate.input_file(golden)
    specs = _specs(explainer, att_direction, explainers, method, param)
    if not specs:
        raise OptionError("--explainer", "no explainer: give --explainer ATT, IG or NAME[:key=value,...]")
    with Store(store) as db:
        results = evaluate_file(golden, model, specs, db, target, per_dimension, device, _progress, unique_only,
                                unambiguous_only)
        written = write_outputs(out, golden, results, db)
    report = write_html(out / "report.html", [written])
    for res in results:
        typer.echo(f"run {res.run_id}: {res.model} {res.label} ({len(res.outputs)} records)")
    for path in [*written["paths"], report]:
        typer.echo(f"wrote {path}")


@app.command("bench")
@executor_options
def bench_cmd(
        out: Path = typer.Option(Path("plm-bench"), help="Folder for data/, en/, zh/ and report.html."),
        data_dir: Path = typer.Option(None, help="Sources laid out like shared/data."),
        model_en: list[str] = typer.Option([], "--model-en", help="English masked LM, repeatable: all are evaluated, "
                                           "the first also builds Rep./uniqueness; default: the zoo's heads that "
                                           "serve English (minilm-mlm, me5-small-mlm)"),
        model_zh: list[str] = typer.Option([], "--model-zh", help="Chinese masked LM, as --model-en; default: the "
                                           "zoo's Chinese masked-LM head"),
        per_dimension: int = typer.Option(None, help="Originals per dimension and language (default: the paper's sizes)."),
        eval_per_dimension: int = typer.Option(None, help="Evaluate only the first N originals per dimension."),
        explainer: list[str] = typer.Option([], "--explainer", help="As plm run (default: ATT and IG)."),
        att_direction: str = typer.Option("query"),
        explainers: str = typer.Option(None, "--explainers", hidden=True, help="Deprecated: --explainer ATT ..."),
        exclude_texts: list[Path] = typer.Option([], "--exclude-texts", help="Texts the models trained on."),
        store: Path = typer.Option(None),
        device: str = typer.Option("auto"),
) -> None:
    """One command: build both languages, evaluate them with ATT and IG, write tables, figures and the report."""
    from interpeval import validate
    from interpeval.benchmarks.plm.build import default_data_dir, exclusion_hashes
    from interpeval.benchmarks.plm.suite import bench

    _check_common(out, device, store, ("--per-dimension", per_dimension),
                  ("--eval-per-dimension", eval_per_dimension))
    for path in exclude_texts:
        validate.input_file(path)
    from interpeval.models.zoo import shipped_heads

    models = {lang: given or shipped_heads("masked-lm", lang)
              for lang, given in (("en", model_en), ("zh", model_zh))}
    outcome = bench(default_data_dir(data_dir), out, models, per_dimension, eval_per_dimension,
                    _specs(explainer, att_direction, explainers), store, device, progress=_progress,
                    exclude=exclusion_hashes(exclude_texts))
    for path in outcome.paths():
        typer.echo(f"wrote {path}")
