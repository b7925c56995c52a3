"""``interpeval reproduce probing``: the Universal Probing Framework paper has no published numbers (figures only).

What is reproducible: (1) the converter's outputs — the bundled UD treebanks converted exactly as the original does
(``official``; Hindi-PUD, Tamil-TTB and English-EWT outputs are byte-identical to a literal re-implementation, see
tests/benchmarks/probing/test_ud_official.py), counted per language; (2) the paper's qualitative findings, each
decided on a layer-wise probing run over the bundled data (default conversion, every layer, logistic-regression
probe with shuffled-label control tasks), with the numbers that decide it.

Profiles: ``tiny`` (a smoke test) = the tiny test encoder, avg pooling, 3 epochs; ``quick`` = me5-small (multilingual-e5-small, 12 layers) with avg and cls pooling — the main job's own
probing configuration, so inside the suite it finds the run and the layer cache already made (the cache sits
beside the store, ``STORE_DIR/probing/cache``); ``paper`` adds the original's default pooling (``first``) and the
MLP probe. ``context.extra`` may override ``model``, ``aggregations``, ``probes`` and ``probe_params`` (tests run a tiny
encoder for a few epochs).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from interpeval.paper import Cell, Finding, PaperReport, PaperTable, ReproduceContext, Row

PAPER = "probing"
REFERENCE = ("Serikov et al. 2022, Universal and Independent: Multilingual Probing Framework for Exhaustive Model "
             "Interpretation and Evaluation (BlackboxNLP 2022); results as figures only, no published numbers")
PROFILES: dict[str, dict[str, Any]] = {
    "tiny": {"model": "tiny-encoder", "aggregations": ("avg",), "probes": ("logreg",),
             "probe_params": {"epochs": 3}},
    "quick": {"model": "me5-small", "aggregations": ("avg", "cls"), "probes": ("logreg",)},
    "paper": {"model": "me5-small", "aggregations": ("first", "avg", "cls"), "probes": ("logreg", "mlp")},
}
#: a task "encodes" its category when the best layer's accuracy has its 95 % Wilson interval above the control
#: task's accuracy at that layer
MOST = 0.5


def reproduce(context: ReproduceContext) -> PaperReport:
    """Convert the bundled treebanks (official and default), probe every layer, decide the paper's findings."""
    from interpeval.benchmarks.probing.grid import ProbingGrid, results_frame
    from interpeval.benchmarks.probing.ud import UDConverter, bundled_ud

    if context.profile not in PROFILES:
        raise ValueError(f"profile {context.profile!r}: choose from {', '.join(PROFILES)}")
    started = time.perf_counter()
    settings = {**PROFILES[context.profile], **{k: context.extra[k] for k in ("model", "aggregations", "probes",
                                                                               "probe_params")
                                                if k in context.extra}}
    treebanks = [context.data_dir] if context.data_dir else [bundled_ud()]
    out = context.out / PAPER
    log = context.extra.get("log") or (lambda _line: None)
    log(f"probing: convert {', '.join(map(str, treebanks))}, then encode every sentence once with "
        f"{settings['model']} (cached beside the store) and train one probe per task × aggregation × probe × layer "
        "(+ control); a run already in the store is not redone")
    official = UDConverter(official=True).convert(treebanks, out / "tasks-official")
    default = UDConverter().convert(treebanks, out / "tasks")
    grid = ProbingGrid([out / "tasks"], model=settings["model"], aggregations=settings["aggregations"],
                       probes=settings["probes"], control=True, probe_params=settings.get("probe_params"),
                       store=context.store,
                       cache_dir=Path(context.store).parent / "probing" / "cache")
    summary = grid.run(progress=log)
    frame = results_frame(context.store, summary["run_id"])
    report = PaperReport(PAPER, REFERENCE, context.profile)
    report.tables.append(converter_table(official, default))
    report.findings = findings(frame, settings["model"], out)
    report.seconds = time.perf_counter() - started
    return report


def converter_table(official: dict[str, Any], default: dict[str, Any]) -> PaperTable:
    """Per language: sentences, tasks and categories dropped, and the tr/va/te sentences of the tasks, in both
    modes (no published numbers: the paper column stays empty)."""
    columns = ["sentences", "official tasks", "official dropped", "official tr", "official va", "official te",
               "default tasks", "default dropped"]
    rows = []
    for bank, ours in zip(official["treebanks"], default["treebanks"], strict=True):
        lang, own = bank["language"], ours["language"]  # the original names a language by its file stem
        tasks = [t for t in official["tasks"] if t["language"] == lang]
        values = {"sentences": bank["sentences"], "official tasks": len(tasks),
                  "official dropped": sum(d["task"].startswith(f"{lang}_") for d in official["dropped"]),
                  **{f"official {p}": sum(t["counts"][p] for t in tasks) for p in ("tr", "va", "te")},
                  "default tasks": sum(t["language"] == own for t in default["tasks"]),
                  "default dropped": sum(d["task"].startswith(f"{own}_") for d in default["dropped"])}
        rows.append(Row(lang, {c: Cell(None, float(v)) for c, v in values.items()},
                        "no published numbers (the paper reports figures); the official mode's outputs are checked "
                        "byte for byte against a literal re-implementation of the original converter"))
    return PaperTable("converter", "UD → SentEval conversion of the bundled treebanks, per language", columns, rows,
                      "none (conversion)", "; ".join(f"{b['language']}: {', '.join(Path(f).name for f in b['files'])}"
                                                     for b in official["treebanks"]),
                      notes="official = the original's rules (pre-order DFS, rare-value filter, split plan, seed "
                            "42); default = UD's own splits, correct va/te names, duplicates removed; dropped = "
                            "categories the rules leave out, with reasons in manifest.json")


def _wilson_low(accuracy: float, n: int) -> float:
    from scipy.stats import binomtest

    return float(binomtest(round(accuracy * n), n).proportion_ci(0.95, method="wilson").low) if n else float("nan")


def best_layers(frame: Any) -> Any:
    """Per (language, category) of the first aggregation and probe: the best layer, its accuracy, the control
    accuracy there, the test size, the Wilson low end, the last layer's accuracy and the spread over layers."""
    from interpeval.benchmarks.probing.plots import select

    rows, _, _ = select(frame)
    rows = rows.assign(n=[int(s["te"]) for s in rows["sizes"]])
    last = int(rows["layer"].max())
    out = []
    for (language, category), group in rows.groupby(["language", "category"]):
        best = group.loc[group["accuracy"].idxmax()]
        at_last = group[group["layer"] == last]["accuracy"]
        out.append({"language": language, "category": category, "layer": int(best["layer"]),
                    "accuracy": float(best["accuracy"]), "control": float(best.get("control_accuracy", float("nan"))),
                    "n": int(best["n"]), "low": _wilson_low(float(best["accuracy"]), int(best["n"])),
                    "last": float(at_last.iloc[0]) if len(at_last) else float("nan"),
                    "spread": float(group["accuracy"].max() - group["accuracy"].min())})
    import pandas as pd

    table = pd.DataFrame(out)
    table.attrs.update(layers=last)
    return table


def findings(frame: Any, model: str, out_dir: str | Path) -> list[Finding]:
    """The paper's qualitative findings, decided on one probing run (the language clustering is drawn into
    ``out_dir``)."""
    from interpeval.benchmarks.probing.plots import cluster_languages, load_families, select

    best = best_layers(frame)
    n_tasks, layers = len(best), best.attrs["layers"]
    encoded = best[best["low"] > best["control"]]
    claims = []
    where = f"{n_tasks} (language, category) tasks, {model}, {layers} layers"
    verdict = "holds" if n_tasks and len(encoded) / n_tasks > MOST else "does not hold"
    claims.append(Finding(
        "UD morphosyntactic categories can be read off the multilingual encoder's layers by a probe (the "
        "framework's premise, §4)", verdict if n_tasks else "cannot be tested here",
        f"{len(encoded)} of {where}: best-layer accuracy with its 95 % Wilson interval above the shuffled-label "
        f"control (mean best accuracy {best['accuracy'].mean():.3f} vs control {best['control'].mean():.3f}; "
        f"n = test sentences per task, median {int(best['n'].median()) if n_tasks else 0})"))
    below_top = best[best["layer"] < layers]
    gain = best["accuracy"] - best["last"]
    claims.append(Finding(
        "Where a category is best encoded depends on the layer: probing curves are not flat and do not peak at "
        "the last layer for most categories (§4, layer-wise curves)",
        "cannot be tested here" if not n_tasks else "holds" if len(below_top) / n_tasks > MOST else "does not hold",
        f"{len(below_top)} of {where} peak below the last layer (median best layer "
        f"{best['layer'].median():g}); best minus last-layer accuracy: mean {gain.mean():.3f}, max {gain.max():.3f}; "
        f"spread over layers: mean {best['spread'].mean():.3f}"))
    rows, _, _ = select(frame)
    _, cluster = cluster_languages(rows, Path(out_dir) / "clusters.png")
    languages = sorted(best["language"].unique())
    known = load_families()
    families = {known.get(lang, {}).get("family", "?") for lang in languages}
    if len(families - {"?"}) < 2 or cluster.get("within_family") is None:
        claims.append(Finding(
            "Related languages behave alike: probing profiles group languages by family (§4, language similarity)",
            "cannot be tested here",
            f"the bundled treebanks ({', '.join(languages)}) are all of one family "
            f"({', '.join(sorted(families)) or 'unknown'}); related and unrelated languages cannot be compared"))
    else:
        within, between = cluster["within_family"], cluster["between_families"]
        claims.append(Finding(
            "Related languages behave alike: probing profiles group languages by family (§4, language similarity)",
            "holds" if within < between else "does not hold",
            f"mean cophenetic distance {within:.3f} within families vs {between:.3f} between"))
    by_language = best.groupby("language")["accuracy"].mean()
    claims.append(Finding(
        "Most regularities found in mBERT are typical of Western-European languages (abstract, §4)",
        "cannot be tested here",
        f"needs many languages of many areas (the paper: 104); the bundled data has {len(languages)} — mean "
        "best-layer accuracy " + ", ".join(f"{lang} {acc:.3f}" for lang, acc in by_language.items())
        + f" with {model}, not mBERT"))
    return claims
