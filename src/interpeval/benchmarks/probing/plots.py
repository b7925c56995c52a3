"""Views of a probing run: where each category is encoded, per language and across languages.

All functions take the frame of :func:`interpeval.benchmarks.probing.grid.results_frame` (one row per experiment) and write
PNG or SVG files with matplotlib (Agg backend, no display needed). Languages are clustered by their probing
profile (best-layer score per category) with scipy's hierarchical clustering, and the dendrogram labels carry each
language's family so the reader can see whether related languages end up together.
"""

from __future__ import annotations

import csv
import os
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from interpeval.errors import OptionError


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def load_families(path: str | os.PathLike[str] | None = None) -> dict[str, dict[str, str]]:
    """Language code → ``{language, family, genus}`` (the bundled table covers the 11 shared treebanks)."""
    source = Path(path) if path else resources.files("interpeval") / "data" / "ud" / "families.tsv"
    with source.open(encoding="utf-8") as handle:
        return {row["code"]: row for row in csv.DictReader(handle, delimiter="\t")}


def select(frame: Any, aggregation: str | None = None, probe: str | None = None) -> tuple[Any, str, str]:
    """Rows of one aggregation and probe (defaults: ``avg`` if present, else the first; ``logreg`` likewise)."""
    aggs, probes = list(frame["aggregation"].unique()), list(frame["probe"].unique())
    aggregation = aggregation or ("avg" if "avg" in aggs else aggs[0])
    probe = probe or ("logreg" if "logreg" in probes else probes[0])
    rows = frame[(frame["aggregation"] == aggregation) & (frame["probe"] == probe)]
    if rows.empty:
        raise OptionError("--aggregation/--probe", f"the run has no results for aggregation={aggregation!r}, "
                          f"probe={probe!r} (it has {', '.join(map(str, aggs))} and {', '.join(map(str, probes))})")
    return rows, aggregation, probe


def best_layer_profile(frame: Any, metric: str = "accuracy") -> tuple[Any, Any]:
    """``(scores, layers)``: language × category tables of the best score over layers and the layer reaching it."""
    grouped = frame.groupby(["language", "category"])
    best = grouped[metric].max().unstack()
    where = frame.loc[grouped[metric].idxmax()].set_index(["language", "category"])["layer"].unstack()
    return best, where


def _save(fig: Any, path: Path) -> Path:
    from interpeval.report.page import save_figure

    return save_figure(fig, path)


def layer_heatmaps(frame: Any, out_dir: str | os.PathLike[str], metric: str = "accuracy", fmt: str = "png",
                   title: str = "") -> list[Path]:
    """One layer × category heatmap per language."""
    plt = _plt()
    paths = []
    for language, rows in frame.groupby("language"):
        table = rows.pivot_table(index="layer", columns="category", values=metric, aggfunc="mean")
        fig, ax = plt.subplots(figsize=(1 + 0.55 * table.shape[1], 1 + 0.35 * table.shape[0]))
        image = ax.imshow(table.values, aspect="auto", cmap="viridis", origin="lower")
        ax.set_xticks(range(table.shape[1]), table.columns, rotation=60, ha="right")
        ax.set_yticks(range(table.shape[0]), table.index)
        ax.set_ylabel("layer")
        ax.set_title(f"{language}: {metric} {title}".strip())
        fig.colorbar(image, ax=ax)
        paths.append(_save(fig, Path(out_dir) / f"heatmap_{language}.{fmt}"))
    return paths


def language_matrix(frame: Any, path: str | os.PathLike[str], metric: str = "accuracy", title: str = "") -> Path:
    """Language × category at each cell's best layer (the layer is printed in the cell)."""
    plt = _plt()
    best, where = best_layer_profile(frame, metric)
    fig, ax = plt.subplots(figsize=(1.5 + 0.6 * best.shape[1], 1 + 0.45 * best.shape[0]))
    image = ax.imshow(best.values, aspect="auto", cmap="viridis")
    for i in range(best.shape[0]):
        for j in range(best.shape[1]):
            if not np.isnan(best.values[i, j]):
                ax.text(j, i, f"{int(where.values[i, j])}", ha="center", va="center", fontsize=7, color="white")
    ax.set_xticks(range(best.shape[1]), best.columns, rotation=60, ha="right")
    ax.set_yticks(range(best.shape[0]), best.index)
    ax.set_title(f"best-layer {metric} (cell text: layer) {title}".strip())
    fig.colorbar(image, ax=ax)
    return _save(fig, Path(path))


def layer_curves(frame: Any, path: str | os.PathLike[str], metric: str = "accuracy", title: str = "") -> Path:
    """One panel per category: the metric by layer, one line per language."""
    plt = _plt()
    categories = sorted(frame["category"].unique())
    cols = min(4, len(categories))
    nrows = int(np.ceil(len(categories) / cols))
    fig, axes = plt.subplots(nrows, cols, figsize=(3.2 * cols, 2.4 * nrows), squeeze=False, sharex=True)
    for ax, category in zip(axes.flat, categories, strict=False):
        for language, rows in frame[frame["category"] == category].groupby("language"):
            rows = rows.sort_values("layer")
            ax.plot(rows["layer"], rows[metric], marker=".", label=language)
        ax.set_title(category, fontsize=9)
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(categories):]:
        ax.axis("off")
    fig.suptitle(f"{metric} by layer {title}".strip())
    return _save(fig, Path(path))


def cluster_languages(frame: Any, path: str | os.PathLike[str], families: dict[str, dict[str, str]] | None = None,
                      metric: str = "accuracy", min_share: float = 0.5, title: str = "") -> tuple[Path, dict[str, Any]]:
    """Average-linkage clustering of languages by best-layer score on the categories that at least ``min_share``
    of the languages have (missing cells: the category's mean). Returns the plot and what it measured: the mean
    cophenetic distance between languages of the same family and between languages of different families."""
    from scipy.cluster.hierarchy import cophenet, dendrogram, linkage
    from scipy.spatial.distance import pdist, squareform

    plt = _plt()
    families = families if families is not None else load_families()
    best, _ = best_layer_profile(frame, metric)
    shared = best.columns[best.notna().mean() >= min_share]
    profile = best[shared].apply(lambda col: col.fillna(col.mean()))
    languages = list(profile.index)
    stats: dict[str, Any] = {"languages": languages, "categories": list(shared)}
    if len(languages) < 3 or profile.shape[1] == 0:
        stats["note"] = "fewer than 3 languages or no shared category: nothing to cluster"
        fig, ax = plt.subplots(figsize=(4, 2))
        ax.text(0.5, 0.5, stats["note"], ha="center", va="center", fontsize=8)
        ax.axis("off")
        return _save(fig, Path(path)), stats
    distances = pdist(profile.values)
    tree = linkage(distances, method="average")
    coph = squareform(cophenet(tree))
    fam = [families.get(lang, {}).get("family", "?") for lang in languages]
    same = [coph[i, j] for i in range(len(languages)) for j in range(i + 1, len(languages)) if fam[i] == fam[j]
            and fam[i] != "?"]
    diff = [coph[i, j] for i in range(len(languages)) for j in range(i + 1, len(languages)) if fam[i] != fam[j]]
    stats.update(within_family=float(np.mean(same)) if same else None,
                 between_families=float(np.mean(diff)) if diff else None,
                 families=dict(zip(languages, fam, strict=True)))
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.35 * len(languages)))
    labels = [f"{lang} ({families.get(lang, {}).get('genus', '?')}, {f})" for lang, f in zip(languages, fam,
                                                                                               strict=True)]
    dendrogram(tree, labels=labels, orientation="right", ax=ax)
    ax.set_xlabel(f"distance between best-layer {metric} profiles ({len(shared)} categories)")
    ax.set_title(f"languages clustered by probing profile {title}".strip())
    return _save(fig, Path(path)), stats


def findings(frame: Any, model: str, cluster: dict[str, Any], metric: str = "accuracy") -> list[str]:
    """Plain sentences stating what the run measured (numbers from ``frame``; the model named)."""
    lines = []
    best, where = best_layer_profile(frame, metric)
    n_layers = int(frame["layer"].max())
    for category in best.columns:
        scores = best[category].dropna()
        layers = where[category].dropna().astype(int)
        third = "lower" if layers.median() <= n_layers / 3 else "middle" if layers.median() <= 2 * n_layers / 3 \
            else "upper"
        lines.append(f"{category}: best {metric} {scores.mean():.3f} on average over {len(scores)} language(s) "
                     f"(range {scores.min():.3f}–{scores.max():.3f}); median best layer {layers.median():g} of "
                     f"{n_layers} ({third} layers) with {model}.")
    within, between = cluster.get("within_family"), cluster.get("between_families")
    if within is None or between is None:
        lines.append("Clustering: not enough languages of a shared family to compare related with unrelated ones.")
    else:
        verdict = "closer" if within < between else "not closer"
        lines.append(f"Clustering ({len(cluster['languages'])} languages, {len(cluster['categories'])} shared "
                     f"categories): languages of the same family are {verdict} to each other than to the others "
                     f"(mean cophenetic distance {within:.3f} within families vs {between:.3f} between) "
                     f"with {model}.")
    return lines


def write_probing_report(frame: Any, out_dir: str | os.PathLike[str], aggregation: str | None = None,
                         probe: str | None = None, metric: str = "accuracy", fmt: str = "png",
                         families: dict[str, dict[str, str]] | None = None) -> Path:
    """All views plus an HTML page (tables, figures, findings) in ``out_dir``; returns the page's path."""
    from interpeval.report import Figure, Table, write_report

    out = Path(out_dir)
    rows, aggregation, probe = select(frame, aggregation, probe)
    model = frame.attrs.get("model", "the model")
    tag = f"({model}, {aggregation}, {probe})"
    heat = layer_heatmaps(rows, out, metric, fmt, tag)
    matrix = language_matrix(rows, out / f"language_matrix.{fmt}", metric, tag)
    curves = layer_curves(rows, out / f"layer_curves.{fmt}", metric, tag)
    dendro, cluster = cluster_languages(rows, out / f"clusters.{fmt}", families, metric, title=tag)
    best, where = best_layer_profile(rows, metric)
    provenance = {"model": model, "data": "UD treebanks converted to SentEval tasks", "explainer": "probing",
                  "parameters": f"aggregation={aggregation}, probe={probe}, run={frame.attrs.get('run_id')}"}
    table = Table(f"Best-layer {metric} per language and category", ["language", *map(str, best.columns)],
                  [[lang, *[None if np.isnan(v) else round(float(v), 3) for v in best.loc[lang]]]
                   for lang in best.index], provenance)
    layer_table = Table("Best layer per language and category", ["language", *map(str, where.columns)],
                        [[lang, *[None if np.isnan(v) else int(v) for v in where.loc[lang]]] for lang in where.index],
                        provenance)
    caption = f"{model}; {aggregation} aggregation; {probe} probe; metric {metric} on te"
    sections: list[Any] = [
        ("Findings", findings(rows, model, cluster, metric)),
        ("Language × category", [table, layer_table, Figure(matrix, f"Best-layer {metric}, {caption}")]),
        ("Layer curves", [Figure(curves, f"{metric} by layer, {caption}")]),
        ("Language clusters", [Figure(dendro, f"Hierarchical clustering (average linkage) of best-layer profiles "
                                              f"with families, {caption}")]),
        ("Per-language heatmaps", [Figure(p, f"{p.stem.removeprefix('heatmap_')}: layer × category, {caption}")
                                   for p in heat]),
    ]
    return write_report(out / "probing_report.html", f"Probing report: {model}", sections)
