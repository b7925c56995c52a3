"""``interpeval reproduce plm``: the masked-LM benchmark's Tables 3–11 with the zoo masked LMs, next to the paper's.

The benchmark is built from the shared sources and every zoo masked LM that serves a language is evaluated with
the paper's ATT and IG (:func:`~interpeval.benchmarks.plm.suite.bench`, which also writes the existing per-language
tables, predict files and Figure 1). Each published cell then gets ours beside it, with n and a 95 % percentile
bootstrap interval (:func:`~interpeval.stats.bootstrap_ci`) where ours is a mean over records or pairs.

The paper's models (BERT, RoBERTa, ERNIE) are not ours, so a paper row is paired with ours only where the roles
match: every zoo masked LM of a language stands beside the paper's RoBERTa-base rows (the model of its per-type
Tables 6, 7, 10 and 11); the other paper rows keep an empty ours. Tables 6/7/10/11 use the language's first zoo
masked LM (the one that also builds the set), Tables 7 and 10 with ATT, as the paper's Table 10 says.

Profiles: ``tiny`` (a smoke test) builds one original per dimension, IG with 2 steps; ``quick`` builds :data:`PROFILES` ``["quick"]["per_dimension"]`` originals per dimension (with all their
partners) and evaluates the first zoo masked LM per language, IG with 20 steps instead of the paper's 100 (said in
every table's explainer line); ``paper`` builds the paper's Table 3 sizes where the sources allow and evaluates
every built record with every zoo masked LM, IG with 100 steps. ``context.extra`` may override
``models`` ({lang: [names]}), ``per_dimension``, ``ig_steps`` and ``langs`` (tests run tiny models this way).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from interpeval.benchmarks.plm.records import DIMENSIONS, GoldenRecord, read_golden
from interpeval.benchmarks.plm.run import rationale_ratios
from interpeval.benchmarks.plm.tables import (
    RATIO_STEPS,
    RunResult,
    consistency,
    consistency_kinds,
    evaluated_pairs,
    figure_data,
)
from interpeval.paper import (
    Cell,
    Finding,
    PaperReport,
    PaperTable,
    ReproduceContext,
    Row,
    published,
)
from interpeval.stats import bootstrap_ci

PAPER = "plm"
PROFILES: dict[str, dict[str, Any]] = {
    "tiny": {"per_dimension": 1, "all_models": False, "ig_steps": 2},
    "quick": {"per_dimension": 3, "all_models": False, "ig_steps": 20},
    "paper": {"per_dimension": None, "all_models": True, "ig_steps": 100},
}
#: seconds per record and model for IG with 100 steps (+ ATT): 520 model × record pairs in 27.5 min on the shared
#: 2-core CPU (docs/plm.md, "Cost"); IG's cost scales with its steps
IG100_SECONDS = 27.5 * 60 / 520
#: records per original (the original and its partners) in the full build of docs/plm.md
RECORDS_PER_ORIGINAL = 2.2
#: the paper's table numbers per language: prediction, interpretability, prediction per type, interpretability per
#: type (Chinese 4–7, English 8–11)
NUMBERS = {"zh": ("4", "5", "6", "7"), "en": ("8", "9", "11", "10")}
#: the paper's model whose rows ours stand beside (its per-type tables use it alone)
PAIRED = "RoBERTa-base"
#: the paper's perturbation-type headers → ours
TYPES = {"Dispens.": "ins_del", "Import.": "replace", "Trans.": "transform"}
LANGUAGE = {"en": "English", "zh": "Chinese"}


def reproduce(context: ReproduceContext) -> PaperReport:
    """Build, evaluate and tabulate; the paper's Tables 3–11 with ours beside every cell, and its findings."""
    from interpeval.benchmarks.plm.build import default_data_dir
    from interpeval.benchmarks.plm.suite import bench, explainer_specs
    from interpeval.models.zoo import shipped_heads

    if context.profile not in PROFILES:
        raise ValueError(f"profile {context.profile!r}: choose from {', '.join(PROFILES)}")
    started = time.perf_counter()
    size, extra = PROFILES[context.profile], context.extra
    langs = tuple(extra.get("langs", ("en", "zh")))
    models = extra.get("models") or {lang: shipped_heads("masked-lm", lang) for lang in langs}
    if not size["all_models"]:
        models = {lang: list(names)[:1] for lang, names in models.items()}
    specs = explainer_specs(["ATT", "IG"])
    steps = int(extra.get("ig_steps", size["ig_steps"]))
    specs["IG"] = (specs["IG"][0], {**specs["IG"][1], "n_steps": steps})
    per_dimension = extra.get("per_dimension", size["per_dimension"])
    log = extra.get("log") or (lambda _line: None)
    log(estimate(models, per_dimension, steps))
    progress = extra.get("progress") or (lambda tag, done, total: log(f"  {tag}: {done}/{total}"))
    outcome = bench(default_data_dir(context.data_dir), context.out / PAPER, models, per_dimension, specs=specs,
                    store_path=context.store, progress=progress)
    golden = {lang: read_golden(path) for lang, path in outcome.summary.files.items()}
    paper = published(PAPER)
    report = PaperReport(PAPER, paper["reference"], context.profile)
    report.tables.append(statistics(paper["tables"]["3"], golden))
    for lang in ("zh", "en"):
        if lang not in golden:
            continue
        results, records = outcome.results[lang], golden[lang]
        pred, interp, pred_types, interp_types = (paper["tables"][n] for n in NUMBERS[lang])
        report.tables += [prediction(pred, NUMBERS[lang][0], lang, results, records),
                          interpretability(interp, NUMBERS[lang][1], lang, results, records),
                          prediction_by_type(pred_types, NUMBERS[lang][2], lang, results, records),
                          interpretability_by_type(interp_types, NUMBERS[lang][3], lang, results, records)]
    report.findings = findings(outcome.results, golden)
    report.seconds = time.perf_counter() - started
    return report


def estimate(models: dict[str, Sequence[str]], per_dimension: int | None, ig_steps: int) -> str:
    """The cost of a run before any work, from the measured rate :data:`IG100_SECONDS` (records already in the
    store are skipped, so a resumed run costs less)."""
    from interpeval.benchmarks.plm.build import PAPER_SIZES

    records = sum(RECORDS_PER_ORIGINAL * (per_dimension or PAPER_SIZES[lang][dim]) * len(names)
                  for lang, names in models.items() for dim in DIMENSIONS)
    seconds = records * IG100_SECONDS * max(ig_steps, 1) / 100
    return (f"plm: about {records:,.0f} model × record evaluations (ATT + IG-{ig_steps}; ≈ {RECORDS_PER_ORIGINAL} "
            f"records per original) ≈ {seconds / 60:,.0f} min at {IG100_SECONDS:.1f} s per record for IG-100 "
            "(measured on the shared 2-core CPU), after the build reads every source (minutes)")


# cells -----------------------------------------------------------------------------------------------------------

def mean_cell(paper: float | None, values: Sequence[float], scale: float = 1.0, point: float | None = None) -> Cell:
    """Ours = the mean of ``values`` × ``scale`` (or ``point``) with n and its 95 % bootstrap interval."""
    arr = np.asarray([v for v in values if v == v], dtype=float)
    if arr.size == 0:
        return Cell(paper)
    low, high = bootstrap_ci(arr)
    value = float(arr.mean()) if point is None else point
    return Cell(paper, round(scale * value, 4), _scaled(low, scale), _scaled(high, scale), int(arr.size))


def _scaled(value: float, scale: float) -> float | None:
    return None if value != value else round(scale * value, 4)


def _dims() -> list[tuple[str, str]]:
    """(paper header, our dimension) in the paper's order."""
    return [(dim.capitalize(), dim) for dim in DIMENSIONS]


def _subset(records: Sequence[GoldenRecord], outputs: dict[int, Any], dim: str, kind: str = "all"
            ) -> list[GoldenRecord]:
    recs = [g for g in records if g.dimension == dim and g.sent_id in outputs]
    if kind == "ori":
        return [g for g in recs if g.sample_type == "ori"]
    if kind == "per":
        return [g for g in recs if g.sample_type == "disturb"]
    return recs


def _differs(model: str, lang: str, records: Sequence[GoldenRecord], what: str) -> str:
    return (f"model: ours {model} (a small zoo masked LM trained on CPU) vs the paper's {what}; data: our "
            f"{len(records)} built {LANGUAGE[lang]} records (rule-made silver rationales from public sources) vs the "
            "paper's human-annotated set; n per cell below")


def _by_model(results: Sequence[RunResult]) -> dict[str, dict[str, RunResult]]:
    out: dict[str, dict[str, RunResult]] = {}
    for res in results:
        out.setdefault(res.model, {})[res.label] = res
    return out


def _provenance(table: PaperTable, lang: str, results: Sequence[RunResult], records: Sequence[GoldenRecord],
                explainers: bool = True) -> PaperTable:
    table.ours_model = ", ".join(sorted({r.model for r in results}))
    table.ours_data = (f"{len(records)} {LANGUAGE[lang]} records built from the shared sources "
                       "(`interpeval plm build` rules; silver rationales)")
    if explainers:
        table.explainer = "; ".join(sorted({f"{r.label} = {r.explainer} {r.params}" for r in results}))
    return table


# tables ----------------------------------------------------------------------------------------------------------

def statistics(paper: dict[str, Any], golden: dict[str, list[GoldenRecord]]) -> PaperTable:
    """Table 3: pairs (Size) and RRL % per dimension and language; RRL with its interval over the originals."""
    rows = []
    for header, dim in _dims():
        published_row = paper["rows"].get(header, {})
        cells = {}
        for lang in ("en", "zh"):
            recs = [g for g in golden.get(lang, []) if g.dimension == dim]
            originals = [g for g in recs if g.sample_type == "ori"]
            pairs = sum(g.sample_type == "disturb" for g in recs)
            cells[f"{lang} Size"] = Cell(published_row.get(f"{lang} Size"), float(pairs) if recs else None,
                                         n=pairs if recs else None)
            ratios = [len(g.rationale) / max(len(g.sent_token) - 1, 1) for g in originals]
            cells[f"{lang} RRL %"] = mean_cell(published_row.get(f"{lang} RRL %"), ratios, 100.0)
        rows.append(Row(header, cells, "data: our rules build from the shared public sources (sizes capped by "
                                       "the profile and by what the rules accept) vs the paper's annotated set"))
    return PaperTable("3", paper["title"], list(paper["columns"]), rows, "none (statistics of the built data)",
                      "; ".join(f"{lang}: {len(recs)} records" for lang, recs in golden.items()), "",
                      "Size = original/perturbed pairs; RRL = rationale tokens / tokens other than [MASK], mean over "
                      "the originals (×100)")


def prediction(paper: dict[str, Any], number: str, lang: str, results: Sequence[RunResult],
               records: Sequence[GoldenRecord]) -> PaperTable:
    """Table 4 / 8: Top-1 and Top-3 ×100 on all, original and perturbed inputs per dimension."""
    rows = _unpaired(paper, ("Top1", "Top3"))
    for model, runs in _by_model(results).items():
        outputs = next(iter(runs.values())).outputs
        for top, key in (("Top1", "hit1"), ("Top3", "hit3")):
            label = f"{PAIRED} + {top}"
            cells = {}
            for header, dim in _dims():
                for column, kind in (("All", "all"), ("Original", "ori"), ("Perturb", "per")):
                    values = [outputs[g.sent_id][key] for g in _subset(records, outputs, dim, kind)]
                    cells[f"{header} {column}"] = mean_cell(paper["rows"][label][f"{header} {column}"], values, 100)
            rows.append(Row(f"{label} · ours {model}", cells, _differs(model, lang, records, PAIRED)))
    table = PaperTable(number, paper["title"], list(paper["columns"]), rows,
                       notes="×100; ours: mean over the records with its 95 % bootstrap interval; the other paper "
                             "models have no zoo counterpart")
    return _provenance(table, lang, results, records, explainers=False)


def interpretability(paper: dict[str, Any], number: str, lang: str, results: Sequence[RunResult],
                     records: Sequence[GoldenRecord]) -> PaperTable:
    """Table 5 / 9: token-F1, MAP, PCC and MAP* per dimension (fractions, like the paper)."""
    rows = _unpaired(paper, ("ATT", "IG"))
    ratios = rationale_ratios(records)
    kinds = consistency_kinds(records)
    for model, runs in _by_model(results).items():
        for method, res in sorted(runs.items()):
            label = f"{PAIRED} + {method}"
            if label not in paper["rows"]:
                continue
            published_row, cells = paper["rows"][label], {}
            for header, dim in _dims():
                recs = _subset(records, res.outputs, dim)
                cells[f"{header} F1"] = mean_cell(published_row[f"{header} F1"],
                                                  [res.outputs[g.sent_id]["f1"] for g in recs])
                cons = consistency(records, res.outputs, dim, kinds, ratios) if recs else None
                if cons is None or not cons["pair_maps"]:
                    cells.update({f"{header} {m}": Cell(published_row[f"{header} {m}"]) for m in ("MAP", "PCC", "MAP*")})
                    continue
                cells[f"{header} MAP"] = mean_cell(published_row[f"{header} MAP"], cons["pair_maps"],
                                                   point=cons["map"])
                for column, key in (("PCC", "pcc"), ("MAP*", "map_star")):
                    value = cons[key]
                    cells[f"{header} {column}"] = Cell(published_row[f"{header} {column}"],
                                                       None if value != value else round(value, 4),
                                                       n=cons["significant"])
            rows.append(Row(f"{label} · ours {model}", cells, _differs(model, lang, records, f"{PAIRED} + {method}")))
    table = PaperTable(number, paper["title"], list(paper["columns"]), rows,
                       notes="fractions like the paper; F1: token-F1 of the top-K rationale (K = ceil(RRL × length)), "
                             "mean over records with its bootstrap interval; MAP over the Ins./Del. and Rep. pairs "
                             "(Trans. left out, the paper's rule), interval over pairs; PCC and MAP* over the pairs "
                             "with p < 0.05 (n = those pairs; no interval)")
    return _provenance(table, lang, results, records)


def _first(results: Sequence[RunResult], label: str) -> RunResult | None:
    """The language's first zoo model's run with ``label`` (the model that also built the set)."""
    first = results[0].model if results else None
    return next((r for r in results if r.model == first and r.label == label), None)


def prediction_by_type(paper: dict[str, Any], number: str, lang: str, results: Sequence[RunResult],
                       records: Sequence[GoldenRecord]) -> PaperTable:
    """Table 6 / 11: Top-1 ×100 of the originals and of their perturbed partners, per dimension and type."""
    res = _first(results, "ATT") or (results[0] if results else None)
    rows = []
    by_id = {g.sent_id: g for g in records}
    for row_label, side in (("Original", "ori"), ("Perturbed", "per")):
        cells = {}
        for header, dim in _dims():
            for type_header, kind in TYPES.items():
                column = f"{header} {type_header}"
                if res is None:
                    cells[column] = Cell(paper["rows"][row_label][column])
                    continue
                partners = [g for g in _subset(records, res.outputs, dim, "per") if g.perturbation == kind]
                chosen = partners if side == "per" else [o for o, _ in evaluated_pairs(partners, by_id,
                                                                                        res.outputs)]
                cells[column] = mean_cell(paper["rows"][row_label][column],
                                          [res.outputs[g.sent_id]["hit1"] for g in chosen], 100)
        rows.append(Row(row_label, cells, _differs(res.model, lang, records, PAIRED) if res else "not evaluated"))
    table = PaperTable(number, paper["title"], list(paper["columns"]), rows,
                       notes="Top-1 ×100; Original = the originals of the type's pairs (one per pair), Perturbed = "
                             "their partners; Dispens. = our ins_del, Import. = replace, Trans. = transform"
                             + ("; " + paper["notes"] if paper.get("notes") else ""))
    return _provenance(table, lang, [res] if res else [], records, explainers=False)


def interpretability_by_type(paper: dict[str, Any], number: str, lang: str, results: Sequence[RunResult],
                             records: Sequence[GoldenRecord]) -> PaperTable:
    """Table 7 / 10: F1^Δ (originals minus partners, interval over pairs) and MAP per dimension and type, ATT."""
    res = _first(results, "ATT")
    ratios = rationale_ratios(records)
    by_id = {g.sent_id: g for g in records}
    rows = []
    for header, dim in _dims():
        published_row, cells = paper["rows"][header], {}
        for type_header, kind in TYPES.items():
            delta, maps = f"{type_header} F1^Δ", f"{type_header} MAP"
            if res is None:
                cells.update({delta: Cell(published_row[delta]), maps: Cell(published_row[maps])})
                continue
            partners = [g for g in _subset(records, res.outputs, dim, "per") if g.perturbation == kind
                        and g.meta.get("ori_id") in res.outputs]
            diffs = [res.outputs[o.sent_id]["f1"] - res.outputs[g.sent_id]["f1"]
                     for o, g in evaluated_pairs(partners, by_id, res.outputs)]
            cells[delta] = mean_cell(published_row[delta], diffs)
            cons = consistency(records, res.outputs, dim, [kind], ratios) if partners else None
            cells[maps] = (mean_cell(published_row[maps], cons["pair_maps"], point=cons["map"])
                           if cons and cons["pair_maps"] else Cell(published_row[maps]))
        rows.append(Row(header, cells, _differs(res.model, lang, records, f"{PAIRED} + ATT") if res
                        else "not evaluated"))
    table = PaperTable(number, paper["title"], list(paper["columns"]), rows,
                       notes="fractions; F1^Δ = mean token-F1 of the originals minus that of their partners over the "
                             "type's pairs (interval over pairs); MAP over the type's pairs, Trans. included as the "
                             "paper prints it")
    return _provenance(table, lang, [res] if res else [], records)


def _unpaired(paper: dict[str, Any], methods: Sequence[str]) -> list[Row]:
    """The paper's rows of models the zoo has no counterpart for: published cells, ours empty."""
    rows = []
    for label, values in paper["rows"].items():
        if label.startswith(f"{PAIRED} +") or not label.endswith(tuple(methods)):
            continue
        rows.append(Row(label, {c: Cell(v) for c, v in values.items()}, "no zoo counterpart of this model"))
    return rows


# findings --------------------------------------------------------------------------------------------------------

def _paired_difference(results: dict[str, list[RunResult]], golden: dict[str, list[GoldenRecord]],
                       measure: Callable[[RunResult, list[GoldenRecord]], dict[Any, float]]
                       ) -> list[tuple[str, float, float, float, int]]:
    """(where, ATT − IG, low, high, n) per language and model: the mean paired difference of ``measure``."""
    out = []
    for lang, results_of in results.items():
        for model, runs in _by_model(results_of).items():
            if "ATT" not in runs or "IG" not in runs:
                continue
            att, ig = measure(runs["ATT"], golden[lang]), measure(runs["IG"], golden[lang])
            diffs = np.asarray([att[k] - ig[k] for k in att if k in ig], dtype=float)
            if diffs.size:
                low, high = bootstrap_ci(diffs)
                out.append((f"{lang} {model}", float(diffs.mean()), low, high, int(diffs.size)))
    return out


def _token_f1(res: RunResult, records: list[GoldenRecord]) -> dict[Any, float]:
    return {g.sent_id: res.outputs[g.sent_id]["f1"] for g in records if g.sent_id in res.outputs}


def _pair_map(res: RunResult, records: list[GoldenRecord]) -> dict[Any, float]:
    ratios, kinds = rationale_ratios(records), consistency_kinds(records)
    out = {}
    for dim in sorted({g.dimension for g in records}):
        cons = consistency(records, res.outputs, dim, kinds, ratios)
        out.update({(dim, i): v for i, v in enumerate(cons["pair_maps"])})
    return out


def _verdict_ahead(diffs: list[tuple[str, float, float, float, int]], claim: str, what: str) -> Finding:
    if not diffs:
        return Finding(claim, "cannot be tested here", "no language and model was evaluated with both ATT and IG")
    evidence = "; ".join(f"{where}: ATT − IG {what} {d:+.3f} [{lo:+.3f}, {hi:+.3f}] (n={n})"
                         for where, d, lo, hi, n in diffs)
    if all(lo == lo and lo > 0 for _, _, lo, _, _ in diffs):
        return Finding(claim, "holds", evidence)
    if any(hi == hi and hi < 0 for _, _, _, hi, _ in diffs):
        return Finding(claim, "does not hold", evidence + " — IG ahead where the interval lies below 0")
    return Finding(claim, "cannot be tested here",
                   evidence + " — no interval decides (each includes 0, or ATT ahead in only some settings) at this n")


def _rises(values: Sequence[float]) -> bool | None:
    """Whether a Figure 1 series rises with the ratio: higher at 90 % than at 10 % and Spearman ρ > 0."""
    from scipy.stats import spearmanr

    points = [(r, v) for r, v in zip(RATIO_STEPS, values, strict=True) if v == v]
    if len(points) < 3:
        return None
    rho = spearmanr([p[0] for p in points], [p[1] for p in points]).statistic
    return bool(points[-1][1] > points[0][1] and rho > 0)


def _rise_finding(results: dict[str, list[RunResult]], golden: dict[str, list[GoldenRecord]], key: str,
                  claim: str) -> Finding:
    series = {}
    for lang, results_of in results.items():
        for name, data in figure_data(results_of, golden[lang]).items():
            series[f"{lang} {name}"] = data[key]
    judged = {name: _rises(values) for name, values in series.items()}
    judged = {name: rises for name, rises in judged.items() if rises is not None}
    if not judged:
        return Finding(claim, "cannot be tested here", "no run × dimension has values at three ratios or more")
    falling = sorted(name for name, rises in judged.items() if not rises)
    shown = "; ".join(f"{name}: {100 * series[name][0]:.1f} → {100 * series[name][-1]:.1f}" for name in falling)
    evidence = (f"{len(judged) - len(falling)} of {len(judged)} run × dimension series rise from 10 % to 90 %"
                + (f"; the others (×100, 10 % → 90 %): {shown}" if falling else ""))
    return Finding(claim, "holds" if not falling else "does not hold", evidence)


def findings(results: dict[str, list[RunResult]], golden: dict[str, list[GoldenRecord]]) -> list[Finding]:
    """The paper's findings on ATT vs IG and on the rationale ratio (Figure 1), decided on our runs."""
    return [
        _verdict_ahead(_paired_difference(results, golden, _token_f1),
                       "ATT beats IG on plausibility (token-F1 against the rationale; Tables 5 and 9)", "token-F1"),
        _verdict_ahead(_paired_difference(results, golden, _pair_map),
                       "ATT beats IG on faithfulness (consistency MAP between original and perturbed input; "
                       "Tables 5 and 9)", "MAP"),
        _rise_finding(results, golden, "f1", "Token-F1 rises with the extracted rationale's length ratio (Figure 1)"),
        _rise_finding(results, golden, "map", "MAP rises with the extracted rationale's length ratio (Figure 1)"),
    ]
