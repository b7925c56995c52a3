"""QUACKIE outputs: the leaderboard (official ``results.json`` rows), the selection and ground-truth tables, the
paper's figure (IoU / HPD / SNR per method, sum vs max) and an HTML report holding all of them."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from interpeval.benchmarks.quackie.run import QuackieResult
from interpeval.report import Figure, Table, save_figure, write_report

RESULTS_FIELDS = ("dataset", "classifier", "method", "IoU", "HPD", "SNR", "info")


def _provenance(result: QuackieResult, models: list[str], data: str) -> dict[str, Any]:
    cfg = result.config
    parameters = {k: cfg.get(k) for k in ("aggs", "limit", "official", "seed")}
    draws = _draws(cfg.get("methods", []))
    return {"model": ", ".join(sorted(set(models))) or "-", "data": data,
            "explainer": ", ".join(m["label"] for m in cfg.get("methods", [])),
            "parameters": {**parameters, "draws": draws} if draws else parameters}


def _draws(methods: list[dict[str, Any]]) -> dict[str, str]:
    """Per method that draws per input (LIME, Kernel SHAP, SmoothGrad, Random), where its draws start: the rule
    its run keys hold (:func:`~interpeval.explain.key_params`)."""
    from interpeval.explain import key_params

    rules = {m["label"]: key_params(m["explainer"], m.get("params") or {}).get("draws")
             for m in methods if m.get("explainer")}
    return {label: rule for label, rule in rules.items() if rule is not None}


def leaderboard_table(result: QuackieResult, data: str = "vendored SQuAD-format subsets") -> Table:
    """All rows: dataset × classifier × method (×100, k=1, NaN-aware means), with the fail counts."""
    columns = ["dataset", "classifier", "method", "IoU", "HPD", "SNR", "n", "fails", "no_snr"]
    models = [s["model"] for s in result.selection]
    notes = ["IoU, HPD, SNR = 100 × NaN-ignoring mean over explained samples at k=1 (QUACKIE analyze); SNR is "
             "s²/n² on the top-1 binarised scores; 'fails' = samples with NaN IoU, 'no_snr' = samples with NaN SNR.",
             "Random = the original's sentence-level random permutation (seeded per sample)."]
    if result.skipped_methods:
        notes.append("not run (model kind unsupported): " + "; ".join(result.skipped_methods))
    return Table("QUACKIE leaderboard", columns, result.rows, _provenance(result, models, data), notes=notes)


def selection_table(result: QuackieResult, data: str = "vendored SQuAD-format subsets") -> Table:
    """Which questions were explained and why the others were skipped (REFERENCE §1.1)."""
    columns = ["dataset", "classifier", "questions", "unanswerable", "trained_on", "scanned", "too_long",
               "not_predicted", "kept"]
    return Table("QUACKIE sample selection (true positives only)", columns, result.selection,
                 _provenance(result, [s["model"] for s in result.selection], data),
                 notes=["too_long / not_predicted are counted over the scanned prefix (scanning stops at --limit)."])


def check_table(result: QuackieResult, data: str = "vendored SQuAD-format subsets") -> Table:
    """Paper Table 2: P(answerable) with the full context, without the GT sentence, and with only it."""
    columns = ["dataset", "classifier", "n", "p_full", "p_without_gt", "p_only_gt", "delta_without_gt",
               "delta_only_gt", "positive_without_gt", "positive_only_gt"]
    rows = [{c: r.get(c, math.nan) for c in columns} for r in result.checks]
    return Table("Ground-truth verification (probability change)", columns, rows,
                 _provenance(result, [c["model"] for c in result.checks], data), digits=3,
                 notes=["Mean P(answerable) over the explained true positives; the GT sentence is the one named by "
                        "most gold answers; sentences are re-joined with one space."])


def results_json(result: QuackieResult) -> list[dict[str, Any]]:
    """Rows exactly in the leaderboard's ``results.json`` schema (NaN becomes null)."""
    def clean(v: Any) -> Any:
        return None if isinstance(v, float) and math.isnan(v) else v

    return [{k: clean(row[k]) for k in RESULTS_FIELDS} for row in result.rows]


def figure(result: QuackieResult, dataset: str, classifier: str, path: str | Path) -> Path | None:
    """The paper's figure for one dataset × classifier: IoU, HPD, SNR per method, sum and max side by side."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in result.rows if r["dataset"] == dataset and r["classifier"] == classifier]
    if not rows:
        return None
    methods: list[str] = []
    values: dict[tuple[str, str], dict[str, float]] = {}
    for r in rows:
        base, _, agg = r["method"].rpartition("_")
        if agg not in ("sum", "max", "mean"):
            base, agg = r["method"], "—"
        if base not in methods:
            methods.append(base)
        values[(base, agg)] = r
    aggs = [a for a in ("—", "sum", "max", "mean") if any(k[1] == a for k in values)]
    per_method = {m: [a for a in aggs if (m, a) in values] for m in methods}
    width = 0.8 / max(len(v) for v in per_method.values())
    colours = {a: f"C{i}" for i, a in enumerate(aggs)}
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    for ax, metric in zip(axes, ("IoU", "HPD", "SNR"), strict=True):
        for k, m in enumerate(methods):
            for i, agg in enumerate(per_method[m]):
                y = values[(m, agg)][metric]
                ax.bar(k + (i - (len(per_method[m]) - 1) / 2) * width, 0 if math.isnan(y) else y, width,
                       color=colours[agg], label="random" if agg == "—" else agg)
        ax.set_xticks(range(len(methods)), methods, rotation=45, ha="right", fontsize=8)
        ax.set_title(metric)
    handles, labels = axes[0].get_legend_handles_labels()
    unique = dict(zip(labels, handles, strict=True))
    axes[0].legend(unique.values(), unique.keys(), fontsize=8)
    fig.suptitle(f"QUACKIE {dataset} / {classifier} (×100, k=1)")
    fig.tight_layout()
    return save_figure(fig, path, dpi=90)


def write_outputs(result: QuackieResult, out_dir: str | Path, data: str = "vendored SQuAD-format subsets",
                  wall_s: float | None = None) -> dict[str, Path]:
    """Write ``results.json`` (official schema), the tables (.md/.json), the figures and ``report.html``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {"results": out / "results.json"}
    paths["results"].write_text(json.dumps(results_json(result), indent=1))
    tables = [leaderboard_table(result, data), selection_table(result, data), check_table(result, data)]
    for table, stem in zip(tables, ("leaderboard", "selection", "gt_check"), strict=True):
        table.save(out / stem)
    sections: list[tuple[str, list[Any]]] = [("Leaderboard", [tables[0]])]
    pairs = sorted({(r["dataset"], r["classifier"]) for r in result.rows}, key=lambda p: (p[1], p[0]))
    figures: list[Any] = []
    for ds, clf in pairs:
        png = figure(result, ds, clf, out / "figures" / f"{ds}_{clf}.png")
        if png is not None:
            figures.append(Figure(png, f"IoU / HPD / SNR per method (sum vs max) on {ds}, {clf} classifier "
                                       f"({next(s['model'] for s in result.selection if s['dataset'] == ds and s['classifier'] == clf)})"))
    sections.append(("Figures", figures))
    sections.append(("Sample selection", [tables[1]]))
    sections.append(("Ground-truth verification", [tables[2]]))
    if wall_s is not None:
        sections.append(("Run", [f"Wall time {wall_s:.0f} s. Configuration: {json.dumps(result.config)}"]))
    paths["report"] = write_report(out / "report.html", "QUACKIE results", sections)
    return paths
