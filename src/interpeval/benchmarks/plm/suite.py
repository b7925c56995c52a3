"""The benchmark end to end: evaluate models × explainers on golden files, write the tables, predict files, Figure 1
and an HTML report; and :func:`bench`, which builds both languages first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpeval.benchmarks.plm.build import BuildSummary, build
from interpeval.benchmarks.plm.records import read_golden, write_predictions
from interpeval.benchmarks.plm.run import DEFAULT_EXPLAINERS, evaluate, predictions
from interpeval.benchmarks.plm.tables import (
    RunResult,
    figure,
    interpretability_table,
    load_result,
    perturbation_tables,
    prediction_table,
    statistics_table,
)
from interpeval.models import lineage
from interpeval.store import Store

ATT_DIRECTIONS = {"query": {"query": "mask", "official": True}, "key": {"query": "mask_key"}}


def explainer_specs(names: Sequence[str], att_direction: str = "query", extra: Sequence[tuple[str, dict[str, Any]]] = ()
                    ) -> dict[str, tuple[str, dict[str, Any]]]:
    """Labels → (registered explainer, params): the paper's ATT / IG by label, plus any registered explainer."""
    if att_direction not in ATT_DIRECTIONS:
        raise ValueError(f"att direction must be one of {tuple(ATT_DIRECTIONS)}, got {att_direction!r}")
    specs: dict[str, tuple[str, dict[str, Any]]] = {}
    for label in names:
        if label not in DEFAULT_EXPLAINERS:
            raise ValueError(f"unknown explainer label {label!r}; use {', '.join(DEFAULT_EXPLAINERS)} or --explainer NAME")
        name, params = DEFAULT_EXPLAINERS[label]
        specs[label] = (name, ATT_DIRECTIONS[att_direction] if label == "ATT" else dict(params))
    for name, params in extra:
        specs[name] = (name, dict(params))
    return specs


def evaluate_file(golden: str | Path, models: Sequence[Any], specs: dict[str, tuple[str, dict[str, Any]]],
                  store: Store, target: str = "gold", per_dimension: int | None = None, device: str = "auto",
                  progress: Callable[[str, int, int], None] | None = None,
                  unique_only: bool = False, unambiguous_only: bool = False) -> list[RunResult]:
    """Every model (a name, or a loaded masked LM) × explainer on one golden file (one language)."""
    import interpeval.explain as explain
    from interpeval.models import load, say_truncated

    records = read_golden(golden)
    lang = records[0].lang
    explainers = {label: explain.get(name)(**params) for label, (name, params) in specs.items()}
    results = []
    for given in models:
        model = load(given, kind="masked-lm", device=device) if isinstance(given, str) else given
        say_truncated(model, [r.sent_text for r in records])
        for label, explainer in explainers.items():
            tag = f"{lang} {model.name} {label}"
            report = None if progress is None else (lambda d, t, tag=tag: progress(tag, d, t))
            run_id = evaluate(golden, model, explainer, label, store, target, per_dimension, progress=report,
                              unique_only=unique_only, unambiguous_only=unambiguous_only)
            results.append(load_result(store, run_id, lang))
    return results


def write_outputs(out_dir: str | Path, golden: str | Path, results: Sequence[RunResult], store: Store) -> dict[str, Any]:
    """Tables (md + json), TrustAI predict files and Figure 1 for one language; returns the tables and paths."""
    out_dir = Path(out_dir)
    evaluated = {sid for res in results for sid in res.outputs}
    every = read_golden(golden)
    records = [r for r in every if r.sent_id in evaluated]
    if not records:
        raise ValueError(f"{golden}: none of its records has been evaluated")
    lang = records[0].lang
    name = str(golden)
    numbered = [prediction_table(lang, results, name, records), interpretability_table(lang, results, name, records),
                *perturbation_tables(lang, results, name, records)]
    tables = [statistics_table(lang, name, every),
              *sorted(numbered, key=lambda t: int(t.title.split(":")[0].split()[1]))]
    paths: list[Path] = []
    for table in tables:
        stem = table.title.split(":")[0].lower().replace(" ", "")
        paths += table.save(out_dir / f"{stem}-{lang}")
    for res in results:
        safe = res.model.replace("/", "_")
        paths.append(write_predictions(out_dir / f"plm-{lang}-{safe}-{res.label}.predict.jsonl",
                                       predictions(store, res.run_id), records))
    fig = figure(out_dir / f"figure1-{lang}.png", lang, results, records)
    return {"tables": tables, "figure": fig, "paths": [*paths, fig], "lang": lang, "n": len(records)}


def write_html(path: str | Path, outputs: Sequence[dict[str, Any]]) -> Path:
    from interpeval.report.page import Figure, write_report

    sections = []
    for out in outputs:
        caption = (f"Figure 1 ({out['lang']}): token-F1 and MAP against the extracted rationale's length ratio per dimension; "
                   f"{out['n']} records with silver rationales")
        sections.append((f"Pretrained-LM rationale benchmark — {out['lang']}",
                         [*out["tables"], Figure(out["figure"], caption)]))
    return write_report(path, "Pretrained-LM rationale benchmark", sections)


@dataclass
class BenchOutcome:
    """What :func:`bench` did: the build's summary, every evaluated run per language, the written outputs."""

    summary: BuildSummary
    results: dict[str, list[RunResult]]
    outputs: list[dict[str, Any]]
    report: Path

    def paths(self) -> list[Path]:
        return [Path(p) for out in self.outputs for p in out["paths"]] + [self.report]


def bench(data_dir: str | Path, out_dir: str | Path, models: dict[str, Sequence[str]] | None = None,
          per_dimension: int | None = None, eval_per_dimension: int | None = None, specs: dict | None = None,
          store_path: str | Path | None = None, device: str = "auto", target: str = "gold",
          progress: Callable[[str, int, int], None] | None = None,
          exclude: frozenset[str] = frozenset()) -> BenchOutcome:
    """Build both languages, evaluate every model of each with ATT and IG, write tables, figures and a report.

    ``models`` maps a language to its masked LMs (default: the zoo heads that serve it); the first one also makes
    the build's Rep. partners and uniqueness flags.
    ``exclude``: hashes of texts the models trained on (:func:`~interpeval.benchmarks.plm.build.exclusion_hashes`);
    the texts a zoo head records as trained on (``lineage.json``) are always added, so that no evaluated
    record comes from a paragraph the model saw.
    """
    from interpeval.models import load

    if not models:
        from interpeval.models.zoo import shipped_heads

        models = {lang: shipped_heads("masked-lm", lang) for lang in ("en", "zh")}
    out_dir = Path(out_dir)
    unique = dict.fromkeys(name for names in models.values() for name in names)  # a model may serve two languages
    by_name = {name: load(name, kind="masked-lm", device=device) for name in unique}
    loaded = {lang: [by_name[name] for name in names] for lang, names in models.items()}
    exclude = exclude.union(*(lineage.read(name).hashes for names in models.values() for name in names))
    summary = build(data_dir, out_dir / "data", langs=tuple(models), per_dimension=per_dimension,
                    models={lang: mlms[0] for lang, mlms in loaded.items()}, exclude=exclude)
    specs = specs or explainer_specs(["ATT", "IG"])
    outputs = []
    with Store(store_path) as store:
        results_by_lang = {}
        for lang, golden in summary.files.items():
            results_by_lang[lang] = evaluate_file(golden, loaded[lang], specs, store, target, eval_per_dimension,
                                                  device, progress)
            outputs.append(write_outputs(out_dir / lang, golden, results_by_lang[lang], store))
    report = write_html(out_dir / "report.html", outputs)
    return BenchOutcome(summary, results_by_lang, outputs, report)
