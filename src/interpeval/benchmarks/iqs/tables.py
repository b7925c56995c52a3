"""The paper's Table 1 (IQS at a1 = a2 = a3 = 1/3), Table 2 (mean and std over the 66 weight triples), the
agreement between annotators, the explainers' cost, and Figure 5 — for one scored study.

REFERENCE §6 does not describe Figure 5; ours shows, per method, the three terms and IQS at 1/3 each as bars
and the mean ± std of IQS over the 66 weight triples as a point with error bars. Everything scored from simulated
annotators says so in its title, its provenance and the figure.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpeval.benchmarks.iqs.explanations import METHOD_TITLES
from interpeval.benchmarks.iqs.score import (
    Answer,
    Item,
    MethodScore,
    agreement,
    score_methods,
    select_answers,
    trivial_baseline,
)
from interpeval.benchmarks.iqs.tasks import Task, get_task
from interpeval.report.page import Figure, save_figure, write_report
from interpeval.report.table import Table

SIMULATED_BANNER = "SIMULATED annotators (not a human result)"


@dataclass
class IQSResult:
    task: Task
    config: dict[str, Any]
    scores: list[MethodScore]
    baseline: dict[str, float]
    agreement: dict[str, float]
    annotators: list[str]
    simulated: bool


def score_study(config: dict[str, Any], items: list[Item], answers: list[Answer], simulated: bool = False
                ) -> IQSResult:
    """Score one study from human answers only, or (``simulated``) from simulated answers only."""
    task = get_task(config["task"])
    chosen = select_answers(answers, simulated)
    return IQSResult(task, config, score_methods(task, items, chosen), trivial_baseline(task, items, chosen),
                     agreement(task, items, chosen), sorted({a.annotator for a in chosen}), simulated)


def _title(result: IQSResult, what: str) -> str:
    head = f"{what} — {result.task.title}"
    return f"{head} — {SIMULATED_BANNER}" if result.simulated else head


def provenance(result: IQSResult) -> dict[str, Any]:
    c = result.config
    who = (f"{SIMULATED_BANNER}: {', '.join(result.annotators)}" if result.simulated
           else f"human: {', '.join(result.annotators)}")
    return {"model": c["model"], "data": c["protocol"]["data"], "task": result.task.name,
            "protocol": c["protocol"], "explained": c.get("target", ""), "explainers": c["methods"],
            "marked words": c["marking"]["rule"], "annotators": who}


def _name(method: str) -> str:
    return METHOD_TITLES.get(method, method)


def table1(result: IQSResult) -> Table:
    green, red = result.task.green, result.task.red
    columns = ["method", "plausibility", "plausibility ±95%", f"plaus. {green}", f"plaus. {red}", "simplicity",
               "mean N_chunk", "reproducibility", "reproducibility ±95%", "IQS (1/3 each)", "rank", "samples", "answers"]
    rows = []
    for s in sorted(result.scores, key=lambda s: s.rank):
        rows.append([_name(s.method), s.plausibility["mean"], s.plausibility["ci95"],
                     s.plausibility_per_class[green], s.plausibility_per_class[red], s.simplicity["mean"],
                     s.n_chunks, s.reproducibility["mean"], s.reproducibility["ci95"], s.iqs, s.rank,
                     s.simplicity["n"], s.plausibility["n"]])
    b = result.baseline
    rows.append(["trivial baseline", b["plausibility"], None, None, None, b["simplicity"], 0.0,
                 b["reproducibility"], None, b["iqs"], None, None, None])
    notes = [f"loss of reproducibility: {'log loss' if result.task.loss == 'log' else 'mean absolute error'}",
             "±95%: 1.96 · sd / √n over answers", f"trivial baseline: marks no word; constant answer "
             f"{b['constant_answer']!r} to question 1"]
    return Table(_title(result, "Table 1: IQS with a1 = a2 = a3 = 1/3"), columns, rows, provenance(result),
                 digits=3, notes=notes)


def table2(result: IQSResult) -> Table:
    rows = [[_name(s.method), s.grid["mean"], s.grid["std"], s.grid_rank]
            for s in sorted(result.scores, key=lambda s: s.grid_rank)]
    b = result.baseline
    rows.append(["trivial baseline", b["grid_mean"], b["grid_std"], None])
    n = result.scores[0].grid["n"] if result.scores else 66
    return Table(_title(result, f"Table 2: IQS mean and std over the {n} weight triples"),
                 ["method", "IQS mean", "IQS std", "rank"], rows, provenance(result), digits=3,
                 notes=["weights a_i in {0, 0.1, ..., 1} with a1 + a2 + a3 = 1; std is the population std"])


def agreement_table(result: IQSResult) -> Table:
    a = result.agreement
    rows = [[result.task.name, a["label_agreement"], a["word_agreement"], a["items"], a["pairs"]]]
    return Table(_title(result, "Agreement between annotators"),
                 ["task", "question 1 (same class)", "words (mean pairwise Jaccard of Feat_H)", "items", "pairs"],
                 rows, provenance(result), digits=3,
                 notes=["STS-B question 1 agrees when both answers lie on the same side of the threshold"])


def cost_table(result: IQSResult) -> Table:
    n = max(int(result.config.get("n_samples", 1)), 1)
    simplicity = {s.method: s for s in result.scores}
    rows = [[_name(m), t, t / n, simplicity[m].simplicity["mean"] if m in simplicity else None,
             simplicity[m].n_chunks if m in simplicity else None] for m, t in result.config["cost_s"].items()]
    return Table(_title(result, "Explainers' cost on the protocol"),
                 ["method", "wall s", "s / sample", "simplicity", "mean N_chunk"], rows, provenance(result),
                 digits=3, notes=[f"{n} samples, measured once when the study was created"])


def figure5(results: list[IQSResult], path: str | Path) -> Path:
    """Per task: bars of plausibility, simplicity, reproducibility and IQS (1/3 each) for each method, and IQS
    mean ± std over the weight grid as a point with error bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, axes = plt.subplots(1, len(results), figsize=(6.5 * len(results), 4.2), squeeze=False)
    terms = [("plausibility", "#4c72b0"), ("simplicity", "#dd8452"), ("reproducibility", "#55a868"),
             ("IQS 1/3", "#333333")]
    for ax, result in zip(axes[0], results, strict=True):
        scores = sorted(result.scores, key=lambda s: s.rank)
        x = np.arange(len(scores))
        width = 0.2
        for k, (label, colour) in enumerate(terms):
            values = [(s.plausibility["mean"], s.simplicity["mean"], s.reproducibility["mean"], s.iqs)[k]
                      for s in scores]
            ax.bar(x + (k - 1.5) * width, values, width, label=label, color=colour)
        ax.errorbar(x + 2.5 * width, [s.grid["mean"] for s in scores], yerr=[s.grid["std"] for s in scores],
                    fmt="D", color="#c44e52", capsize=3, label="IQS mean ± std (66 weights)")
        ax.set_xticks(x, [_name(s.method) for s in scores], rotation=25, ha="right", fontsize=8)
        ax.set_ylim(0, 1.32)  # room for the legend above the bars
        ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
        title = f"{result.task.title}\n{result.config['model']}"
        ax.set_title(f"{title}\n{SIMULATED_BANNER}" if result.simulated else title, fontsize=9,
                     color="#b00000" if result.simulated else "black")
        ax.legend(fontsize=7, loc="upper center", ncol=3)
    fig.tight_layout()
    return save_figure(fig, path, dpi=120)


def write_outputs(results: list[IQSResult], out_dir: str | Path) -> list[Path]:
    """Tables 1 and 2, agreement and cost (Markdown + JSON), Figure 5 (PNG), all in one HTML report."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    sections: list[Any] = []
    for result in results:
        tables = [table1(result), table2(result), agreement_table(result), cost_table(result)]
        for stem, table in zip(("table1", "table2", "agreement", "cost"), tables, strict=True):
            written += table.save(out / f"{stem}-{result.task.name}")
        sections.append((_title(result, "IQS"), tables))
    figure = figure5(results, out / "figure5.png")
    written.append(figure)
    simulated = any(r.simulated for r in results)
    caption = "Figure 5: the IQS terms per method" + (f" — {SIMULATED_BANNER}" if simulated else "")
    sections.append(("Figure 5", [Figure(figure, caption)]))
    title = "IQS results" + (f" — {SIMULATED_BANNER}" if simulated else "")
    written.append(write_report(out / "report.html", title, sections))
    summary = [{"task": r.task.name, "simulated": r.simulated, "annotators": r.annotators,
                "methods": {s.method: {"plausibility": s.plausibility, "simplicity": s.simplicity,
                                       "reproducibility": s.reproducibility, "iqs": s.iqs, "grid": s.grid,
                                       "rank": s.rank, "grid_rank": s.grid_rank} for s in r.scores},
                "baseline": r.baseline, "agreement": r.agreement} for r in results]
    (out / "scores.json").write_text(json.dumps(summary, indent=1, default=str))
    written.append(out / "scores.json")
    return written
