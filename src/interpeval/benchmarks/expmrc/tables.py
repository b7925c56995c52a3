"""The paper's Table 3 layout: one row per system, Ans. / Evi. / All per subset (dev sets)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from interpeval.benchmarks.expmrc.data import SUBSETS, Dataset, load_dataset
from interpeval.benchmarks.expmrc.human import FIXED_ANSWER
from interpeval.benchmarks.expmrc.run import (
    OVERLAP_SCORER,
    SYSTEMS,
    ModelOutput,
    System,
    choice_outputs,
    run_systems,
    stored_outputs,
)
from interpeval.benchmarks.expmrc.score import Score
from interpeval.models import lineage
from interpeval.report import Table, write_report
from interpeval.store import Store, fingerprint_files

SUBSET_NAMES = {"squad": "SQuAD", "cmrc2018": "CMRC 2018", "race": "RACE+", "c3": "C3"}


def zoo_qa_head(language: str) -> str:
    """The zoo's extractive-QA head for ``language`` ("" when none ships: the model rows are left out)."""
    from interpeval.errors import InterpevalError
    from interpeval.models.zoo import shipped_head

    try:
        return shipped_head("extractive-qa", language)
    except InterpevalError:
        return ""


def table3(results: Mapping[tuple[str, str], Score], answerers: Mapping[str, str], data: Mapping[str, str],
           systems: tuple[System, ...] = SYSTEMS, subsets: tuple[str, ...] = SUBSETS,
           notes: list[str] | None = None, kinds: Mapping[str, str] | None = None) -> Table:
    """Rows in ``systems`` order (those with at least one result); ``–`` where a system does not apply. The human
    row's answer and overall cells of a multiple-choice subset (``kinds[subset] == "choice"``) read "100 (fixed)" and
    "… (= Evi.)": the answer score there is fixed, not measured."""
    columns = ["System"] + [f"{SUBSET_NAMES[s]} {m}" for s in subsets for m in ("Ans.", "Evi.", "All")]
    rows = []
    for system in systems:
        cells: list[Any] = [system.label]
        for subset in subsets:
            score = results.get((system.key, subset))
            if score is None:
                cells += [float("nan")] * 3
            elif system.evidence == "human" and (kinds or {}).get(subset) == "choice":
                cells += [f"{score.ans_f1:.0f} (fixed)", score.evi_f1, f"{score.all_f1:.1f} (= Evi.)"]
            else:
                cells += [score.ans_f1, score.evi_f1, score.all_f1]
        if any(c == c for c in cells[1:]):
            rows.append(cells)
    provenance = {"model": {SUBSET_NAMES[s]: answerers.get(s, "none") for s in subsets},
                  "data": {SUBSET_NAMES[s]: data[s] for s in subsets if s in data},
                  "scorer": "interpeval expmrc score (official eval_expmrc.py algorithm, official=True)",
                  "sentences": "en: split after .!? + whitespace; zh: split after 。！？ and ellipses",
                  "similarity": "ExpMRC token F1 (words for English, characters for Chinese)"}
    return Table("ExpMRC dev results (paper Table 3 layout)", columns, rows, provenance, digits=1,
                 notes=list(notes or []))


def run_baselines(datasets: dict[str, Dataset], out_dir: str | Path, qa_model: str = "", qa_model_zh: str = "",
                  mc_model: str = "", store_path: str | Path | None = None, use_store: bool = True,
                  device: str = "auto") -> tuple[dict[tuple[str, str], Score], dict[str, str], list[str]]:
    """Load the answer models, run every system on ``datasets`` (predictions under ``out_dir``): ``(scores by
    (system, subset), answer model by subset, notes)``. Questions whose passage an answer model trained on are
    left out of ``datasets`` (replaced in place) and counted in the notes.

    English span answers come from ``qa_model``, Chinese ones from ``qa_model_zh`` (model rows are left out
    without one); multiple-choice answers from ``mc_model`` or, when empty, the unsupervised overlap scorer.
    With a store, the models' outputs and every system's per-question scores are recorded (a rerun resumes).
    The answer models compute on ``device`` (``auto``: a GPU when there is one).
    """
    from interpeval.models import load

    models: dict[str, Any] = {}
    answerers: dict[str, str] = {}
    for subset, dataset in datasets.items():
        name = (qa_model if dataset.language == "en" else qa_model_zh) if dataset.kind == "span" else mc_model
        if dataset.kind == "choice" and not name:
            answerers[subset] = f"{OVERLAP_SCORER} (unsupervised, no model)"
            continue
        if name:
            if name not in models:
                models[name] = load(name, kind="extractive-qa" if dataset.kind == "span" else "multiple-choice",
                                    device=device)
            answerers[subset] = name

    trained_notes = []
    for subset, name in answerers.items():  # questions whose passage the answer model trained on are left out
        if name in models:
            seen = lineage.read(name)
            kept, dropped = seen.drop(datasets[subset].questions, lambda q: q.context)
            datasets[subset] = dataclasses.replace(datasets[subset], questions=tuple(kept))
            trained_notes.append(f"{SUBSET_NAMES[subset]}: {seen.note(dropped, 'questions')}")
    store = Store(store_path) if use_store else None

    def outputs_for(dataset: Dataset) -> dict[str, ModelOutput] | None:
        name = answerers.get(dataset.subset)
        if dataset.kind == "choice" and name not in models:
            return choice_outputs(None, dataset)  # the overlap scorer: no model, nothing worth storing
        return stored_outputs(models[name], name, dataset, store) if name else None

    try:
        return run_systems(datasets, answerers, outputs_for, out_dir, store), answerers, trained_notes
    finally:
        if store is not None:
            store.close()


def run_table3(paths: Mapping[str, str | Path], out_dir: str | Path, qa_model: str = "",
               qa_model_zh: str = "", mc_model: str = "", store_path: str | Path | None = None,
               use_store: bool = True, device: str = "auto") -> list[Path]:
    """Load the subsets, run every system (:func:`run_baselines`), write ``table3.{md,json,html}`` and predictions."""
    datasets = {s: load_dataset(p) for s, p in paths.items()}
    results, answerers, trained_notes = run_baselines(datasets, out_dir, qa_model, qa_model_zh, mc_model, store_path,
                                                      use_store, device)
    notes = [f"{SUBSET_NAMES[s]}: no answer model given, model rows left out" for s in datasets
             if s not in answerers]
    notes += trained_notes
    notes += [f"Human: each reference in turn against the others; multiple choice: {FIXED_ANSWER}, so its overall "
              "score is the evidence score.",
              "Upper bounds use the gold answer: GA Sent. = sentence of the gold answer (multiple choice: MSS of "
              "the gold option); GE Sent. = sentences covering the first reference evidence."]
    data = {s: f"{Path(p).name} (sha256 {fingerprint_files(p)})" for s, p in paths.items()}
    table = table3(results, answerers, data, subsets=tuple(datasets), notes=notes,
                   kinds={s: d.kind for s, d in datasets.items()})
    out_dir = Path(out_dir)
    written = table.save(out_dir / "table3")
    html = out_dir / "table3.html"
    write_report(html, "ExpMRC baselines", [("Dev sets", [table])])
    return [*written, html]
