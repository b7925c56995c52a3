"""The paper's tables and Figure 1 from stored runs.

Numbered as the paper's: Chinese Table 4 (Top-1/Top-3 on all/original/perturbed), Table 5 (token-F1, MAP, PCC
with p < 0.05, MAP*), Table 6 (prediction per perturbation type), Table 7 (F1^Δ and MAP per perturbation type);
English Table 8 (prediction), Table 9 (interpretability), Table 10 (F1^Δ and MAP per perturbation type), Table 11
(prediction per perturbation type). F1^Δ = mean token-F1 of the originals of a type's pairs minus that of their
perturbed partners. Table 3: the benchmark's statistics (pairs and RRL per dimension) next to the paper's. Figure 1: token-F1 and MAP over the gold rationale-length ratio. Values are ×100 with one
decimal like the paper; a mean carries its 95 % interval (normal approximation, ± 1.96·s/√n). Pairs of type
``transform`` are left out of MAP, PCC and MAP* (the paper's rule). Next to the scores: the majority-answer
baseline (Top-1/Top-3 of predicting the dimension's most frequent answers among the other originals and their
partners, so never in-sample) and the nearest-K baseline
(the K tokens closest to [MASK] as the rationale). Figure 1: token-F1 and MAP of the rationale extracted at each
length ratio 10 … 90 % (from the stored word scores), one line per run and dimension.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from interpeval import metrics
from interpeval.benchmarks.plm.records import DIMENSIONS, MASK, PERTURBATIONS, GoldenRecord
from interpeval.benchmarks.plm.run import nearest_rationale, rationale_ratios
from interpeval.errors import DataError
from interpeval.metrics.rationale import select_rationale
from interpeval.report.page import save_figure
from interpeval.report.table import Table
from interpeval.stats import normal_half_width

#: (prediction, interpretability, prediction per perturbation type, interpretability per type) per language
TABLE_NUMBERS = {"zh": (4, 5, 6, 7), "en": (8, 9, 11, 10)}
#: the extracted rationale's length ratios Figure 1 sweeps
RATIO_STEPS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


@dataclass
class RunResult:
    """One evaluated (model, explainer) on one language: the stored outputs keyed by sent_id."""

    lang: str
    model: str
    label: str
    explainer: str
    params: dict[str, Any]
    target: str
    run_id: int
    outputs: dict[int, dict[str, Any]]


def load_result(store: Any, run_id: int, lang: str) -> RunResult:
    info = store.get_run(run_id)
    outputs = {int(row["instance_id"]): row for row in store.instances(run_id)}
    cfg = info.config
    return RunResult(lang, info.model, cfg["label"], cfg["explainer"], cfg["params"], cfg["target"], run_id, outputs)


def mean_ci(values: Sequence[float]) -> str:
    """``"mean ± half-width"`` ×100 with one decimal; "–" without values."""
    v = np.asarray([x for x in values if x == x], dtype=float)
    if len(v) == 0:
        return "–"
    if len(v) < 2:
        return f"{100 * v.mean():.1f}"
    half = normal_half_width(v)
    return f"{100 * v.mean():.1f} ± {100 * half:.1f}"


def _dims(golden: Sequence[GoldenRecord]) -> list[str]:
    present = {r.dimension for r in golden}
    return [d for d in DIMENSIONS if d in present] + sorted(present - set(DIMENSIONS))


def _label_note(golden: Sequence[GoldenRecord]) -> str:
    counts = Counter(r.label for r in golden)
    n = len(golden)
    silver = counts.get("silver", 0)
    return (f"rationales: {silver}/{n} silver (made by rules, not human-annotated; rule names in the golden file), "
            f"{counts.get('gold', 0)}/{n} gold (human-checked)")


def _majority(records: Sequence[GoldenRecord], k: int) -> float:
    """Top-k of predicting the k most frequent answers of the *other* instances, out of sample: an original and its
    perturbed partners share their answer, so each such group is left out together when it is scored."""
    group = {r.sent_id: r.sent_id for r in records}
    for r in records:
        if r.sample_type == "ori":
            group.update((rel, r.sent_id) for rel in r.rel_ids if rel in group)
    by_group: dict[int, Counter[str]] = {}
    for r in records:
        by_group.setdefault(group[r.sent_id], Counter())[r.answers] += 1
    answers = Counter(r.answers for r in records)
    hits = 0
    for own in by_group.values():
        top = {a for a, _ in (answers - own).most_common(k)}
        hits += sum(n for a, n in own.items() if a in top)
    return hits / max(len(records), 1)


def _provenance(results: Sequence[RunResult], golden_path: str, golden: Sequence[GoldenRecord],
                with_explainer: bool) -> dict[str, Any]:
    prov: dict[str, Any] = {"model": ", ".join(sorted({r.model for r in results})),
                            "data": f"{golden_path} ({len(golden)} records, built from public sources; "
                                    "see provenance per record)"}
    if with_explainer:
        prov["explainer"] = "; ".join(f"{r.label} = {r.explainer} {r.params}" for r in results)
        prov["parameters"] = {"target": sorted({r.target for r in results}), "K": "ceil(RRL x length)",
                              "RRL": {d: round(v, 3) for d, v in rationale_ratios(golden).items()},
                              "PCC alpha": 0.05}
    return prov


def prediction_table(lang: str, results: Sequence[RunResult], golden_path: str,
                     golden: Sequence[GoldenRecord]) -> Table:
    number = TABLE_NUMBERS[lang][0]
    rows = []
    by_model = {r.model: r for r in results}
    for model, res in sorted(by_model.items()):
        for dim in [*_dims(golden), "all"]:
            recs = [g for g in golden if dim in ("all", g.dimension) and g.sent_id in res.outputs]
            row: dict[str, Any] = {"Model": model, "Dimension": dim, "n": len(recs)}
            for name, subset in (("all", recs), ("ori", [g for g in recs if g.sample_type == "ori"]),
                                 ("per", [g for g in recs if g.sample_type == "disturb"])):
                row[f"Top-1 {name}"] = mean_ci([res.outputs[g.sent_id]["hit1"] for g in subset])
                row[f"Top-3 {name}"] = mean_ci([res.outputs[g.sent_id]["hit3"] for g in subset])
            row["majority Top-1/Top-3"] = f"{100 * _majority(recs, 1):.1f} / {100 * _majority(recs, 3):.1f}"
            rows.append(row)
    columns = ["Model", "Dimension", "n", "Top-1 all", "Top-3 all", "Top-1 ori", "Top-3 ori", "Top-1 per",
               "Top-3 per", "majority Top-1/Top-3"]
    return Table(f"Table {number}: masked-word prediction ({lang}), all / original / perturbed", columns, rows,
                 _provenance(results, golden_path, golden, False),
                 notes=["ori = original instances, per = perturbed instances; ×100, mean ± 95 % interval",
                        _label_note(golden)])


def _pairs(golden: Sequence[GoldenRecord], outputs: dict[int, dict[str, Any]], dim: str,
           kinds: Sequence[str]) -> list[tuple[GoldenRecord, GoldenRecord]]:
    by_id = {g.sent_id: g for g in golden}
    out = []
    for g in golden:
        if g.sample_type != "ori" or g.dimension != dim or g.sent_id not in outputs:
            continue
        for rel in g.rel_ids:
            d = by_id.get(rel)
            if d is not None and d.perturbation in kinds and rel in outputs:
                out.append((g, d))
    return out


def consistency(golden: Sequence[GoldenRecord], outputs: dict[int, dict[str, Any]], dim: str,
                kinds: Sequence[str], ratios: dict[str, float]) -> dict[str, Any]:
    """MAP (dataset rule of REFERENCE §4.3), per-pair MAPs, and PCC / MAP* over significant pairs (p < 0.05).

    For ``dim="all"`` each dimension is scored with its own RRL and the means are pooled over pairs.
    """
    if dim == "all":
        parts = [consistency(golden, outputs, d, kinds, ratios) for d in _dims(golden)]
        pair_maps = [v for p in parts for v in p["pair_maps"]]
        sig = sum(p["significant"] for p in parts)
        pooled = {key: (sum(p[key] * p["significant"] for p in parts if p["significant"]) / sig if sig
                        else float("nan")) for key in ("pcc", "map_star")}
        return {"map": float(np.mean(pair_maps)) if pair_maps else float("nan"), "pair_maps": pair_maps,
                **pooled, "significant": sig, "pairs": sum(p["pairs"] for p in parts)}
    pairs = _pairs(golden, outputs, dim, kinds)
    if not pairs:
        return {"map": float("nan"), "pair_maps": [], "pcc": float("nan"), "map_star": float("nan"),
                "significant": 0, "pairs": 0}

    def ranked(g: GoldenRecord) -> list[str]:
        return _ranked(g, outputs)

    preds = {g.sent_id: [ranked(g)] for pair in pairs for g in pair}
    golds = {o.sent_id: {"sample_type": "ori", "rel_ids": [d.sent_id for oo, d in pairs if oo is o]}
             for o, _ in pairs}
    golds.update({d.sent_id: {"sample_type": "disturb"} for _, d in pairs})
    map_pair = metrics.get("rationale_map")
    pair_maps = [map_pair(ranked(o), ranked(d)) for o, d in pairs]
    significant = []
    for o, d in pairs:
        keep_o = [i for i, t in enumerate(o.sent_token) if t != MASK]
        keep_d = [i for i, t in enumerate(d.sent_token) if t != MASK]
        significant.append({"ori_tokens": [o.sent_token[i] for i in keep_o],
                            "ori_scores": [outputs[o.sent_id]["word_scores"][i] for i in keep_o],
                            "dis_tokens": [d.sent_token[i] for i in keep_d],
                            "dis_scores": [outputs[d.sent_id]["word_scores"][i] for i in keep_d]})
    pcc = metrics.get("pcc_plm").over_dataset(significant, alpha=0.05, ratio=ratios[dim])
    return {"map": metrics.get("rationale_map_dataset").over_dataset(preds, golds), "pair_maps": pair_maps,
            "pcc": pcc["pcc"], "map_star": pcc["map"],
            "significant": pcc["significant"], "pairs": pcc["pairs"]}


def _ranked(g: GoldenRecord, outputs: dict[int, dict[str, Any]]) -> list[str]:
    """The rationale tokens of a record in importance order (what MAP compares)."""
    return [g.sent_token[i] for i in outputs[g.sent_id]["rationale"]]


def _pct(value: float) -> str:
    return "–" if value != value else f"{100 * value:.1f}"


def perturbation_kinds(golden: Sequence[GoldenRecord]) -> list[str]:
    """The perturbation types present, in the paper's order (``unknown``: TrustAI records without a type)."""
    present = {g.perturbation for g in golden if g.sample_type == "disturb"}
    return [p for p in (*PERTURBATIONS, "unknown") if p in present]


def consistency_kinds(golden: Sequence[GoldenRecord]) -> list[str]:
    """The types that count for MAP/PCC/MAP*: all but Trans. (the paper's rule)."""
    return [p for p in perturbation_kinds(golden) if p != "transform"]


def interpretability_table(lang: str, results: Sequence[RunResult], golden_path: str,
                           golden: Sequence[GoldenRecord]) -> Table:
    number = TABLE_NUMBERS[lang][1]
    ratios = rationale_ratios(golden)
    kinds = consistency_kinds(golden)
    token_f1_multi = metrics.get("rationale_token_f1_multi")
    rows = []
    for res in results:
        for dim in [*_dims(golden), "all"]:
            recs = [g for g in golden if dim in ("all", g.dimension) and g.sent_id in res.outputs]
            cons = consistency(golden, res.outputs, dim, kinds, ratios)
            baseline = [token_f1_multi(nearest_rationale(g, ratios[g.dimension]), g.rationale_ids) for g in recs]
            rows.append({"Model": res.model, "Explainer": res.label, "Dimension": dim,
                         "RRL": round(float(np.mean([ratios[g.dimension] for g in recs])), 3) if recs else None,
                         "n": len(recs), "token-F1": mean_ci([res.outputs[g.sent_id]["f1"] for g in recs]),
                         "F1 nearest-K": mean_ci(baseline), "MAP": _pct(cons["map"]), "pairs": cons["pairs"],
                         "PCC (p<0.05)": _pct(cons["pcc"]), "MAP*": _pct(cons["map_star"]),
                         "significant": cons["significant"]})
    columns = ["Model", "Explainer", "Dimension", "RRL", "n", "token-F1", "F1 nearest-K", "MAP", "pairs",
               "PCC (p<0.05)", "MAP*", "significant"]
    return Table(f"Table {number}: rationale plausibility and consistency ({lang})", columns, rows,
                 _provenance(results, golden_path, golden, True),
                 notes=["all values ×100; token-F1 over all records (mean ± 95 % interval); MAP = Σ pair MAP / #perturbed "
                        "(REFERENCE §4.3) over Ins./Del. and Rep. pairs (Trans. excluded); PCC = mean Pearson r "
                        "over token-aligned pairs with p < 0.05, MAP* on those pairs; F1 nearest-K = trivial "
                        "baseline (K tokens closest to [MASK])", _label_note(golden)])


def perturbation_tables(lang: str, results: Sequence[RunResult], golden_path: str,
                        golden: Sequence[GoldenRecord]) -> tuple[Table, Table]:
    pred_number, interp_number = TABLE_NUMBERS[lang][2:]
    ratios = rationale_ratios(golden)
    by_id = {g.sent_id: g for g in golden}
    pred_rows, interp_rows = [], []
    seen_models = set()
    for res in results:
        for dim in [*_dims(golden), "all"]:
            for kind in perturbation_kinds(golden):
                dis = [g for g in golden if g.perturbation == kind and dim in ("all", g.dimension)
                       and g.sent_id in res.outputs]
                if not dis:
                    continue
                ori = [o for o, _ in evaluated_pairs(dis, by_id, res.outputs)]
                if res.model not in seen_models:
                    pred_rows.append({
                        "Model": res.model, "Dimension": dim, "Perturbation": kind, "pairs": len(dis),
                        "Top-1 ori": mean_ci([res.outputs[g.sent_id]["hit1"] for g in ori]),
                        "Top-1 per": mean_ci([res.outputs[g.sent_id]["hit1"] for g in dis]),
                        "Top-3 ori": mean_ci([res.outputs[g.sent_id]["hit3"] for g in ori]),
                        "Top-3 per": mean_ci([res.outputs[g.sent_id]["hit3"] for g in dis])})
                cons = (consistency(golden, res.outputs, dim, [kind], ratios) if kind != "transform" else None)
                interp_rows.append({
                    "Model": res.model, "Explainer": res.label, "Dimension": dim, "Perturbation": kind,
                    "pairs": len(dis), "token-F1 per": mean_ci([res.outputs[g.sent_id]["f1"] for g in dis]),
                    "F1^Δ": _f1_delta(dis, by_id, res.outputs),
                    "MAP": "excluded" if cons is None else _pct(cons["map"]),
                    "PCC (p<0.05)": "excluded" if cons is None else _pct(cons["pcc"]),
                    "MAP*": "excluded" if cons is None else _pct(cons["map_star"]),
                    "significant": "" if cons is None else cons["significant"]})
        seen_models.add(res.model)
    pred = Table(f"Table {pred_number}: masked-word prediction per perturbation type ({lang})",
                 ["Model", "Dimension", "Perturbation", "pairs", "Top-1 ori", "Top-1 per", "Top-3 ori",
                  "Top-3 per"], pred_rows, _provenance(results, golden_path, golden, False),
                 notes=["ins_del = Ins./Del., replace = Rep., transform = Trans.; ori = the originals of those "
                        "pairs; ×100, mean ± 95 % interval", _label_note(golden)])
    interp = Table(f"Table {interp_number}: rationales per perturbation type ({lang})",
                   ["Model", "Explainer", "Dimension", "Perturbation", "pairs", "token-F1 per", "F1^Δ", "MAP",
                    "PCC (p<0.05)", "MAP*", "significant"], interp_rows,
                   _provenance(results, golden_path, golden, True),
                   notes=["all values ×100 except F1^Δ (F1 on the originals minus F1 on the perturbed partners, "
                          "over the type's pairs, as a fraction like the paper's); Trans. pairs are excluded from "
                          "the consistency metrics, as in the paper",
                          _label_note(golden)])
    return pred, interp


def f1_delta(disturbed: Sequence[GoldenRecord], by_id: dict[int, GoldenRecord],
             outputs: dict[int, dict[str, Any]]) -> float:
    """F1^Δ of the paper's Tables 7 and 10: mean token-F1 on the originals minus mean token-F1 on the perturbed
    partners, over the (original, partner) pairs both evaluated; nan without pairs."""
    pairs = evaluated_pairs(disturbed, by_id, outputs)
    if not pairs:
        return float("nan")
    return float(np.mean([outputs[o.sent_id]["f1"] for o, _ in pairs])
                 - np.mean([outputs[d.sent_id]["f1"] for _, d in pairs]))


def evaluated_pairs(disturbed: Sequence[GoldenRecord], by_id: dict[int, GoldenRecord],
                    outputs: dict[int, dict[str, Any]]) -> list[tuple[GoldenRecord, GoldenRecord]]:
    """``(original, partner)`` of each perturbed record in ``disturbed`` that was evaluated with its original
    (``meta.ori_id``); an original evaluated but missing from ``by_id`` (the golden records) is a clear error naming
    the partner, not a KeyError."""
    pairs = []
    for d in disturbed:
        ori = d.meta.get("ori_id")
        if ori not in outputs or d.sent_id not in outputs:
            continue
        if ori not in by_id:
            raise DataError("golden records", f"record {d.sent_id}" + (f" (line {d.line})" if d.line else ""),
                            f"its original {ori} (meta.ori_id) was evaluated but is not among the golden records "
                            "given (were the outputs made with another golden file?)")
        pairs.append((by_id[ori], d))
    return pairs


def _f1_delta(disturbed: Sequence[GoldenRecord], by_id: dict[int, GoldenRecord],
              outputs: dict[int, dict[str, Any]]) -> str:
    value = f1_delta(disturbed, by_id, outputs)
    return "–" if value != value else f"{value:.3f}"


def statistics_table(lang: str, golden_path: str, golden: Sequence[GoldenRecord]) -> Table:
    """Table 3 for one language: originals, partners per type, pairs and RRL per dimension, next to the paper's."""
    from interpeval.benchmarks.plm.build import PAPER_RRL, PAPER_SIZES

    ratios = rationale_ratios([g for g in golden if g.sample_type == "ori"])
    rows = []
    for dim in _dims(golden):
        recs = [g for g in golden if g.dimension == dim]
        row: dict[str, Any] = {"Dimension": dim, "originals": sum(g.sample_type == "ori" for g in recs)}
        for kind in PERTURBATIONS:
            row[kind] = sum(g.perturbation == kind for g in recs)
        row["pairs"] = sum(g.sample_type == "disturb" for g in recs)
        row["RRL %"] = round(100 * ratios.get(dim, float("nan")), 1)
        row["paper Size"] = PAPER_SIZES.get(lang, {}).get(dim, "–")
        row["paper RRL %"] = PAPER_RRL.get(lang, {}).get(dim, "–")
        rows.append(row)
    return Table(f"Table 3: statistics of the benchmark ({lang})",
                 ["Dimension", "originals", *PERTURBATIONS, "pairs", "RRL %", "paper Size", "paper RRL %"], rows,
                 {"model": "none (statistics of the built data)", "data": f"{golden_path} ({len(golden)} records)"},
                 notes=["pairs = original/perturbed pairs (the paper's Size); RRL = mean rationale tokens / tokens "
                        "other than [MASK] over the originals", _label_note(golden)])


def _extracted(g: GoldenRecord, outputs: dict[int, dict[str, Any]], ratio: float) -> list[int]:
    """The record's top-K rationale at ``ratio`` (K = ceil(ratio × tokens other than [MASK])) from its stored word
    scores, in importance order."""
    others = [i for i, t in enumerate(g.sent_token) if t != MASK]
    scores = np.asarray(outputs[g.sent_id]["word_scores"], dtype=float)[others]
    return [others[i] for i in select_rationale(scores, ratio=ratio).tolist()] if others else []


def figure_data(results: Sequence[RunResult], golden: Sequence[GoldenRecord]) -> dict[str, dict[str, Any]]:
    """Figure 1: per run and dimension, mean token-F1 and MAP (Ins./Del. + Rep. pairs) of the rationale extracted at
    each length ratio of ``RATIO_STEPS`` (the paper sweeps the extracted rationale's length, not the gold one's)."""
    kinds = consistency_kinds(golden)
    token_f1_multi, map_pair = metrics.get("rationale_token_f1_multi"), metrics.get("rationale_map")
    out: dict[str, dict[str, Any]] = {}
    for res in results:
        for dim in _dims(golden):
            recs = [g for g in golden if g.dimension == dim and g.sent_id in res.outputs]
            pairs = _pairs(golden, res.outputs, dim, kinds)
            f1s, maps = [], []
            for ratio in RATIO_STEPS:
                picked = {g.sent_id: _extracted(g, res.outputs, ratio) for g in recs}
                f1s.append(float(np.mean([token_f1_multi(picked[g.sent_id], g.rationale_ids) if picked[g.sent_id]
                                          else 0.0 for g in recs])) if recs else float("nan"))
                maps.append(float(np.mean([map_pair([o.sent_token[i] for i in picked[o.sent_id]],
                                                    [d.sent_token[i] for i in picked[d.sent_id]])
                                           for o, d in pairs])) if pairs else float("nan"))
            out[f"{res.model} {res.label} {dim}"] = {"f1": f1s, "map": maps, "n": len(recs), "pairs": len(pairs)}
    return out


def figure(path: str | Path, lang: str, results: Sequence[RunResult], golden: Sequence[GoldenRecord]) -> Path:
    """Figure 1: token-F1 and MAP against the extracted rationale's length ratio, one line per run and dimension."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = figure_data(results, golden)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    xs = [100 * r for r in RATIO_STEPS]
    for name, series in data.items():
        axes[0].plot(xs, [100 * v for v in series["f1"]], marker="o", label=name)
        axes[1].plot(xs, [100 * v for v in series["map"]], marker="o", label=name)
    for ax, title in zip(axes, ("plausibility (token-F1)", "consistency (MAP, Ins./Del. + Rep.)"), strict=True):
        ax.set_title(title)
        ax.set_xlabel("extracted rationale length / text length (%)")
        ax.set_ylim(0, 100)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=6)
    fig.suptitle(f"Figure 1 ({lang}): {len(golden)} records, silver rationales")
    fig.tight_layout()
    return save_figure(fig, path, dpi=120)
