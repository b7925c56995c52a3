"""QUACKIE reproduced: the paper's Tables 2–6 with our two classifiers beside the published numbers, and its findings.

Every number comes from stored runs of :func:`~interpeval.benchmarks.quackie.run.run_quackie` (so a killed
reproduction resumes and a finished one recomputes nothing), with the originals' set-up (``official``: ground truth
by the one-separator offset walk, question held fixed, LIME with 10 features). Per cell: the mean over the explained
true positives, its 95 % percentile-bootstrap interval and n. ``run_quackie`` drops every input the explained head
trained or was selected on (its lineage, :mod:`interpeval.models.lineage`). The findings are judged on paired
differences (two methods on the same inputs), whose intervals are much narrower than those of two separate means.

Profiles: ``quick`` (the main job's QUACKIE step, see :data:`PROFILES`), ``paper`` (every held-out true positive
for Random, Saliency and SmoothGrad; IG-50, LIME and SHAP capped at 200 per cell), ``tiny`` (a smoke test: SQuAD
only, 2 questions).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from interpeval.benchmarks.quackie.build import build_instances
from interpeval.benchmarks.quackie.data import DATASETS, dataset_path, load_squad
from interpeval.benchmarks.quackie.run import (
    CLASSIFIERS,
    LEADERBOARD,
    RANDOM,
    Method,
    is_kept,
    run_quackie,
)
from interpeval.benchmarks.quackie.score import score_run
from interpeval.paper import (
    Cell,
    Finding,
    PaperReport,
    PaperTable,
    ReproduceContext,
    Row,
    published,
)

#: the paper's column names → our dataset names (NYT is not available offline)
PAPER_DATASETS: dict[str, str | None] = {"SQuAD": "SQuAD", "New Wiki": "NEW_WIKI", "NYT": None, "Reddit": "Reddit",
                                         "Amazon": "Amazon"}
PAPER_CLASSIFIERS = {"Classif": "Classification", "QA": "QA"}
#: the paper's interpreter names → our leaderboard labels (samples appended where the label has them)
PAPER_METHODS = {"LIME": "LIME", "SHAP": "SHAP", "Saliency": "Gradient", "Integrated Gradients": "IntegratedGradients",
                 "SmoothGrad": "SmoothGrad", "Random": "Random"}
PAPER_MODELS = {"QA": "twmkn9/albert-base-v2-squad2 (ALBERT-base)",
                "Classification": "a-ware/roberta-large-squad-classification (RoBERTa-large)"}
METRICS = {"4": ("IoU", "iou"), "5": ("HPD", "hpd"), "6": ("SNR", "snr")}
HEADLINE = ("Random", "Gradient")  # the rows every profile runs first, with the ground-truth check
CHEAP = (*HEADLINE, "SmoothGrad_5")
COSTLY = ("IntegratedGradients_50", "LIME_10", "LIME_100", "SHAP_10", "SHAP_100")


@dataclass(frozen=True)
class Profile:
    """How much of the paper to run: the datasets; the true positives per dataset × classifier (None = all) of the
    headline rows (Random, Saliency) and of the other cheap methods (SmoothGrad), with their datasets (None = all);
    the costly methods, their limit and datasets (None = all). Every limit takes the first true positives in file
    order, so a smaller limit's inputs are the first of a larger one's and the methods pair on the same inputs."""

    datasets: tuple[str, ...]
    cheap_limit: int | None
    rest_limit: int | None
    costly: tuple[str, ...]
    costly_limit: int | None
    costly_datasets: tuple[str, ...] | None = None
    cheap: tuple[str, ...] = CHEAP
    rest_datasets: tuple[str, ...] | None = None

    def phases(self) -> list[tuple[tuple[str, ...], tuple[str, ...], int | None]]:
        """(methods, datasets, limit) in the order they run, empty ones left out: the headline rows first (with the
        ground-truth check), so that a paper profile stopped early has them."""
        rest = tuple(m for m in self.cheap if m not in HEADLINE)
        phases = [(HEADLINE, self.datasets, self.cheap_limit),
                  (rest, self.rest_datasets or self.datasets, self.rest_limit),
                  (self.costly, self.costly_datasets or self.datasets, self.costly_limit)]
        return [p for p in phases if p[0]]


#: ``quick`` is the main job's QUACKIE step (it runs nothing else of QUACKIE), sized for its 15-minute budget so that
#: every finding is decided by paired differences on the same inputs: 20 headline true positives per cell; SmoothGrad
#: on the first 10 of them (the deciding n of one cell) in SQuAD and Amazon (a Wikipedia and a non-Wikipedia set,
#: the two cheapest); LIME and SHAP at 10 and 100 samples on the first 8 of SQuAD's per classifier (16 pairs: the 8
#: of 4 per classifier decided neither LIME/SHAP finding, 12 and more decided both; docs/reproduce.md). IG-50
#: (about 3.5 s per input on an idle 2-core machine) decides no finding and is left to ``paper``.
PROFILES: dict[str, Profile] = {
    "tiny": Profile(("SQuAD",), 2, 2, (), None, cheap=HEADLINE),
    "quick": Profile(tuple(DATASETS), 20, 10, COSTLY[1:], 8, ("SQuAD",), rest_datasets=("SQuAD", "Amazon")),
    "paper": Profile(tuple(DATASETS), None, None, COSTLY, 200),
}


def methods(labels: Sequence[str]) -> list[Method]:
    """The leaderboard methods with these labels, in that order."""
    by_label = {m.label: m for m in LEADERBOARD}
    return [by_label[label] for label in labels]


# cost estimate ------------------------------------------------------------------------------------------------

def rates() -> dict[str, Any]:
    """The seconds per question measured by ``bench/quackie_rates.py`` and shipped with the package."""
    source = resources.files("interpeval") / "data" / "rates" / "quackie.json"
    return json.loads(source.read_text(encoding="utf-8"))


def answerable_held_out(datasets: Sequence[str], data_dir: Path | None) -> dict[tuple[str, str], int]:
    """Answerable questions per (dataset, classifier) after dropping every paragraph the head trained or was
    selected on (its lineage; no model is loaded)."""
    from interpeval.models import lineage

    out = {}
    for ds in datasets:
        questions = [q for q in load_squad(dataset_path(ds, data_dir)) if not q.is_impossible]
        for label, clf in CLASSIFIERS.items():
            trained = lineage.read(clf.model)
            out[(ds, label)] = sum(not trained.seen(q.context) for q in questions)
    return out


def selection_shares(store: Any) -> dict[str, dict[str, dict[str, Any]]]:
    """Per classifier and dataset: the true-positive share (kept / scanned questions that fit the model) of the
    selection verdicts stored in ``store`` (runs ``quackie-selection`` of the classifier's zoo head; of several, the
    one that scanned most), with its counts: what ``bench/quackie_rates.py --shares-from`` ships in the rates."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for info in store.runs("quackie-selection"):
        label, dataset = info.config.get("classifier"), info.config.get("dataset")
        if label not in CLASSIFIERS or info.model != CLASSIFIERS[label].model:
            continue
        verdicts = store.instances(info.id)
        fit = [v for v in verdicts if not v["too_long"]]
        if fit and len(verdicts) > out.get(label, {}).get(dataset, {}).get("scanned", 0):
            kept = sum(is_kept(v) for v in fit)
            out.setdefault(label, {})[dataset] = {"share": round(kept / len(fit), 4), "kept": kept,
                                                  "scanned": len(verdicts), "too_long": len(verdicts) - len(fit)}
    return out


def true_positive_share(measured: dict[str, Any], label: str, dataset: str) -> tuple[float, str]:
    """(share, where it comes from) for one classifier on one dataset: the dataset's own selection scan shipped in
    the rates where there is one, else the share ``bench/quackie_rates.py`` saw on held-out SQuAD 2.0."""
    scan = measured.get("true_positive_share_by_dataset", {}).get(label, {}).get(dataset)
    if scan:
        return scan["share"], f"{dataset}'s selection scan, {scan['kept']} of {scan['scanned'] - scan['too_long']}"
    return measured["seconds_per_question"][label]["true_positive_share"], "the rates' SQuAD sample"


def _unit_seconds(per: dict[str, float], names: Sequence[str], limit: int | None, answerable: int, share: float
                  ) -> tuple[float, float]:
    """(seconds, true positives) of one run_quackie unit on one dataset, from seconds per question and the share of
    scanned questions the classifier keeps."""
    kept = answerable * share if limit is None else min(answerable * share, limit)
    seconds = kept * sum(per[m] for m in names)
    if set(names) & set(HEADLINE):  # the selection scan comes with the headline rows, the check with both
        seconds += kept / max(share, 1e-6) * per["selection"] + (kept * per["gt_check"] if names == HEADLINE else 0)
    return seconds, kept


def estimate(profile: Profile, data_dir: Path | None, only: Sequence[str] = ()) -> tuple[float, list[str]]:
    """(seconds on an idle machine, lines): the expected cost of what will run, from the shipped rates, before any
    model is loaded. The idle-machine figure is the measured CPU seconds (an upper bound: two busy threads halve
    it); the wall seconds at the load the rates were measured under are printed next to it."""
    measured = rates()
    answerable = answerable_held_out(profile.datasets, data_dir)
    total = loaded = 0.0
    lines = []
    for label, names, datasets, limit in _units(profile, profile.phases(), only):
        wall = measured["seconds_per_question"][label]
        cpu = {**wall, **measured["cpu_seconds_per_question"][label]}
        for ds in datasets:
            share, source = true_positive_share(measured, label, ds)
            seconds, kept = _unit_seconds(cpu, names, limit, answerable[(ds, label)], share)
            total += seconds
            loaded += _unit_seconds(wall, names, limit, answerable[(ds, label)], share)[0]
            lines.append(f"  {label} / {ds} / {', '.join(names)}: ~{kept:.0f} true positives of "
                         f"{answerable[(ds, label)]} answerable held-out questions (share {share:.2f}: {source}), "
                         f"~{seconds / 60:.1f} min")
    head = (f"cost estimate: ~{total / 60:.1f} min on an idle machine (~{loaded / 60:.1f} min at load average "
            f"{measured['load_average']}), from the seconds per question that bench/quackie_rates.py measured on "
            f"{measured['measured']} ({measured['cpus']} CPUs, {measured['device']}; shipped in the package) and "
            "each dataset's true-positive share; work already in the store is counted too")
    return total, [head, *lines]


# numbers from the store ---------------------------------------------------------------------------------------

def stored_instances(store: Any, benchmark: str, model: str, fingerprint: str,
                     **match: Any) -> list[dict[str, Any]] | None:
    """The outputs of the latest finished run of ``benchmark`` on ``model`` and the data with ``fingerprint`` whose
    config has every ``match``."""
    found = [info for info in store.runs(benchmark) if info.model == model and info.status == "finished"
             and info.data_fingerprint == fingerprint
             and all(_config_value(info.config, k) == v for k, v in match.items())]
    return store.instances(found[-1].id) if found else None


def _config_value(config: dict[str, Any], key: str) -> Any:
    return (config.get("method") or {}).get("label") if key == "method" else config.get(key)


def summary(values: Sequence[float], scale: float = 1.0) -> Cell:
    """Mean, 95 % percentile-bootstrap interval and n of the finite values (the leaderboard's statistics)."""
    from interpeval.stats import bootstrap_ci

    arr = np.asarray([v for v in values if v is not None], dtype=float)
    arr = arr[np.isfinite(arr)] * scale
    if arr.size == 0:
        return Cell(None, None, None, None, 0)
    low, high = bootstrap_ci(arr)
    return Cell(None, float(arr.mean()), low, high, int(arr.size))


@dataclass
class Measured:
    """What the runs gave, per (dataset, classifier): models, selection counts, per-instance scores and checks."""

    models: dict[str, str]
    selection: dict[tuple[str, str], dict[str, Any]]
    scores: dict[tuple[str, str, str, str], list[dict[str, float]]]  # (ds, clf, method label, agg)
    ids: dict[tuple[str, str, str], list[str]]  # (ds, clf, method label): the explained inputs, in score order
    checks: dict[tuple[str, str], list[dict[str, float]]]
    sentences: dict[tuple[str, str], list[tuple[int, int]]]  # (n sentences, distinct GT sentences) per kept input


def _units(profile: Profile, phases: list[tuple[tuple[str, ...], tuple[str, ...], int | None]],
           only: Sequence[str]) -> list[tuple[str, tuple[str, ...], tuple[str, ...], int | None]]:
    """(classifier, methods, datasets, limit) of every run_quackie call, in order. ``only`` narrows each kind it
    names (classifiers, datasets, methods) to the names given; a kind it does not name stays whole."""
    every_method = (*profile.cheap, *profile.costly)
    unknown = [n for n in only if n not in {*CLASSIFIERS, *profile.datasets, *every_method}]
    if unknown:
        from interpeval.errors import OptionError

        raise OptionError("--only", f"{unknown[0]!r} is none of this profile's classifiers, datasets or methods: "
                                    f"{', '.join([*CLASSIFIERS, *profile.datasets, *every_method])}")

    def narrow(names: Sequence[str], kind: Sequence[str]) -> tuple[str, ...]:
        return tuple(n for n in names if n in only) if set(only) & set(kind) else tuple(names)

    units = []
    for names, datasets, limit in phases:
        for label in narrow(tuple(CLASSIFIERS), tuple(CLASSIFIERS)):
            picked, where = narrow(names, every_method), narrow(datasets, profile.datasets)
            if picked and where:
                units.append((label, picked, where, limit))
    return units


def measure(profile: Profile, context: ReproduceContext, log: Callable[[str], None],
            only: Sequence[str] = ()) -> Measured:
    """Run (or resume) the profile's runs — only the datasets, classifiers and methods named in ``only`` when it is
    given — and read every per-instance number of the profile that the store holds back from it."""
    from interpeval.store import Store, fingerprint_files

    models = {label: clf.model for label, clf in CLASSIFIERS.items()}
    measured = Measured(models, {}, {}, {}, {}, {})
    phases = profile.phases()

    todo = _units(profile, phases, only)
    start = time.perf_counter()
    with Store(context.store) as store:
        for step, (label, names, datasets, limit) in enumerate(todo, 1):
            headline = names == HEADLINE
            log(f"step {step}/{len(todo)}: {label} × {', '.join(datasets)} × {', '.join(names)} "
                f"(limit {limit or 'none'})")
            result = run_quackie(datasets, [label], methods(names), limit=limit, official=True,
                                 data_dir=context.data_dir, store=store, check=headline, log=log)
            for selection in result.selection if headline else ():
                measured.selection[(selection["dataset"], label)] = selection
            log(f"step {step}/{len(todo)} done, {time.perf_counter() - start:.0f} s elapsed")
        for names, datasets, limit in phases:
            for ds in datasets:
                fingerprint = fingerprint_files(dataset_path(ds, context.data_dir))
                for label in CLASSIFIERS:
                    match = {"dataset": ds, "classifier": label, "limit": limit, "official": True}
                    if names == HEADLINE:
                        rows = stored_instances(store, "quackie-gt-check", models[label], fingerprint,
                                                **match) or []
                        if rows:
                            measured.checks[(ds, label)] = [r["check"] for r in rows]
                    for method in methods(names):
                        outputs = stored_instances(store, "quackie", models[label], fingerprint,
                                                   method=method.label, **match) or []
                        for scored in score_run(outputs):
                            measured.scores[(ds, label, method.label, scored.agg)] = scored.samples
                        if outputs:
                            measured.ids[(ds, label, method.label)] = [o["instance_id"] for o in outputs]
                        if method is RANDOM and outputs:
                            measured.sentences[(ds, label)] = [(o["n_sentences"], len(set(o["gt"])))
                                                               for o in outputs]
    return measured


def expected_random_iou(sentences: Sequence[tuple[int, int]]) -> float:
    """The mean IoU of the Random row in expectation: one random sentence of N is picked, and it scores 1 when it
    is one of the G distinct ground-truth sentences, so E[IoU] = mean(G / N)."""
    return float(np.mean([g / n for n, g in sentences])) if sentences else math.nan


def population_random_iou(datasets: Sequence[str], data_dir: Path | None) -> dict[str, tuple[float, int]]:
    """E[random IoU] × 100 and n over every answerable question of each file (the paper explained every true
    positive of the whole file, training articles included for its heads), with the original's offset walk."""
    out = {}
    for ds in datasets:
        instances, _ = build_instances([q for q in load_squad(dataset_path(ds, data_dir)) if not q.is_impossible],
                                       official=True)
        out[ds] = (100 * expected_random_iou([(len(i.sentences), len(set(i.gt))) for i in instances]),
                   len(instances))
    return out


# the tables ----------------------------------------------------------------------------------------------------

def _paper_method(label: str) -> tuple[str, str]:
    """"LIME sum 10" → ("LIME_10", "sum"); "Saliency max" → ("Gradient", "max"); "Random" → ("Random", "random")."""
    words = label.split()
    samples = words.pop() if words[-1].isdigit() else ""
    agg = words.pop() if words and words[-1] in ("sum", "max") else "random"
    ours = PAPER_METHODS[" ".join(words)]
    return (f"{ours}_{samples}" if samples else ours), agg


def _column(column: str) -> tuple[str | None, str]:
    """"SQuAD Classif" → ("SQuAD", "Classification"); a dataset alone (Tables 2–3) → (dataset, "")."""
    for paper, ours in PAPER_CLASSIFIERS.items():
        if column.endswith(" " + paper):
            return PAPER_DATASETS[column[: -len(paper) - 1]], ours
    return PAPER_DATASETS[column], ""


PAPER_SHORT = {"QA": "ALBERT-base QA", "Classification": "RoBERTa-large classifier"}


def _differs(measured: Measured, profile_name: str, cells: dict[str, Cell], classifiers: Sequence[str],
             extra: str = "") -> str:
    """Why this row's numbers differ from the paper's: model, data, sample size (and set-up, where it differs)."""
    ns = sorted({c.n for c in cells.values() if c.n})
    models = "; ".join(f"{measured.models[c]} (MiniLM-L6) vs {PAPER_SHORT[c]}" for c in classifiers)
    size = (f"n {ns[0]}" if len(ns) == 1 else f"n {ns[0]}–{ns[-1]}") if ns else "not run"
    text = (f"model: {models}. data: held-out inputs of our sets, no NYT (vs full SQuAD 2.0 dev / SQuADShifts). "
            f"sample: {size} per cell, {profile_name} profile (vs every true positive).")
    return f"{text} {extra}".strip()


DATA_NOTE = ("Our data: the held-out SQuAD 2.0 dev articles and SQuADShifts paragraphs of the sets given "
             "(the shipped subsets by default, all never trained on; with --data-dir the full files, from which "
             "every paragraph the explained head trained or was selected on is dropped and counted, by its "
             "lineage). The paper: every true positive of SQuAD 2.0 dev and SQuADShifts New Wiki / NYT / Reddit / "
             "Amazon.")


def score_table(number: str, table: dict[str, Any], measured: Measured, profile_name: str) -> PaperTable:
    """Table 4, 5 or 6: the paper's IoU / HPD / SNR rows with ours (×100) beside each cell."""
    name, key = METRICS[number]
    rows = []
    for label, values in table["rows"].items():
        method, agg = _paper_method(label)
        cells = {}
        for column, paper in values.items():
            ds, clf = _column(column)
            samples = measured.scores.get((ds, clf, method, agg)) if ds else None
            cell = summary([s[key] for s in samples], 100) if samples else Cell(None)
            cell.paper = paper
            cells[column] = cell
        extra = ("set-up as the originals': only the context perturbed, LIME with 10 features."
                 if method.startswith(("LIME", "SHAP", "IntegratedGradients")) else "")
        rows.append(Row(label, cells, _differs(measured, profile_name, cells, list(CLASSIFIERS), extra)))
    return PaperTable(number, table["title"], table["columns"], rows,
                      ours_model=_models_line(measured),
                      ours_data=_data_note(measured), explainer="the QUACKIE leaderboard set through interpeval's "
                      "explainers; sentence aggregation sum / max; k = 1",
                      notes=f"{name} ×100, mean over the explained true positives (NaN-ignoring, as the original's "
                            "analyze), 95 % percentile-bootstrap interval; — = not measured (NYT is not available "
                            "offline; methods or datasets outside the profile). " + DATA_NOTE)


def check_table(number: str, table: dict[str, Any], measured: Measured, profile_name: str) -> PaperTable:
    """Table 2 (change of P(answerable) without / with only the answer sentence) or Table 3 (P with everything)."""
    rows = []
    for label, values in table["rows"].items():
        clf = PAPER_CLASSIFIERS[label.split(",")[0].strip()]
        key = "p_full" if number == "3" else "p_without_gt" if "removed" in label else "p_only_gt"
        cells = {}
        for column, paper in values.items():
            ds, _ = _column(column)
            checks = measured.checks.get((ds, clf)) if ds else None
            cell = summary([_check_value(c, key) for c in checks]) if checks else Cell(None)
            cell.paper = paper
            cells[column] = cell
        rows.append(Row(label, cells, _differs(measured, profile_name, cells, [clf])))
    return PaperTable(number, table["title"], table["columns"], rows,
                      ours_model=_models_line(measured),
                      ours_data=_data_note(measured), explainer="none (P(answerable) of the explained classifier)",
                      notes="mean over the true positives the Random / Saliency / SmoothGrad rows explain, 95 % "
                            "percentile-bootstrap interval; the answer sentence is the one most gold answers start "
                            "in; sentences re-joined by one space. " + DATA_NOTE)


def _check_value(check: dict[str, float], key: str) -> float:
    """P(answerable) with everything (``p_full``), or its change without / with only the answer sentence."""
    return check[key] if key == "p_full" else check[key] - check["p_full"]


def _models_line(measured: Measured) -> str:
    return "; ".join(f"{c}: {m} (the paper: {PAPER_MODELS[c]})" for c, m in measured.models.items())


def _data_note(measured: Measured) -> str:
    return "; ".join(f"{ds} / {clf}: {s['questions']} questions, {s['trained_on']} from training articles dropped, "
                     f"{s['kept']} true positives of {s['scanned']} scanned"
                     for (ds, clf), s in sorted(measured.selection.items()))


# findings ------------------------------------------------------------------------------------------------------

def _iou(measured: Measured, ds: str, clf: str, method: str, agg: str) -> Cell | None:
    samples = measured.scores.get((ds, clf, method, agg))
    return summary([s["iou"] for s in samples], 100) if samples else None


def _cells(measured: Measured) -> list[tuple[str, str]]:
    return sorted({(ds, clf) for ds, clf, _, _ in measured.scores})


def _fmt(cell: Cell) -> str:
    digits = 2 if abs(cell.ours or 0) < 10 and abs(cell.high or 0) <= 1 else 1
    return f"{cell.ours:.{digits}f} [{cell.low:.{digits}f}, {cell.high:.{digits}f}] n={cell.n}"


#: fewer inputs than this and a bootstrap interval of 0/1-valued scores is no evidence (n = 2: all 0 gives [0, 0])
MIN_DECIDING_N = 10


def paired_iou(measured: Measured, ds: str, clf: str, high: str, low: str, agg: str = "sum") -> np.ndarray:
    """IoU ×100 of method ``high`` minus method ``low`` on each input both explained (matched by input id): the
    paired differences whose interval is much narrower than that of two separate means."""
    def by_id(method: str) -> dict[str, float]:
        ids = measured.ids.get((ds, clf, method), [])
        return {i: s["iou"] for i, s in zip(ids, measured.scores.get((ds, clf, method, agg), []), strict=False)}

    first, second = by_id(high), by_id(low)
    diff = np.asarray([100 * (first[i] - second[i]) for i in first if i in second], dtype=float)
    return diff[np.isfinite(diff)]


def _signed(cell: Cell) -> str:
    return f"{cell.ours:+.1f} [{cell.low:+.1f}, {cell.high:+.1f}] n={cell.n}"


def _paired_finding(claim: str, comparisons: list[tuple[str, dict[str, np.ndarray]]], missing: str) -> Finding:
    """A claim that each comparison's paired difference (what should be higher minus what should be lower, on the
    same inputs) is positive. Each comparison is decided on its differences pooled over the cells (dataset ×
    classifier) that have both methods, once there are ``MIN_DECIDING_N`` of them: as claimed where its 95 % interval
    lies above 0, against where it holds no positive value (its upper end ≤ 0: no gain, e.g. all differences 0, is
    not the claimed gain). It holds when every comparison goes as claimed and no single cell of ``MIN_DECIDING_N`` or
    more inputs goes against (a cell goes against only with a loss: its mean below 0 and no positive value in its
    interval; a cell of ties, e.g. both methods at the ceiling, does not overturn a pooled gain); it does not hold when one goes against; otherwise the intervals are too wide at this n
    to say."""
    comparisons = [(what, cells) for what, cells in comparisons if any(d.size for d in cells.values())]
    if not comparisons:
        return Finding(claim, "cannot be tested here", missing)
    claimed = against = 0
    lines = []
    for what, cells in comparisons:
        pooled = summary(np.concatenate([d for d in cells.values() if d.size]))
        decided = (pooled.n or 0) >= MIN_DECIDING_N and _finite(pooled.low)
        claimed += decided and pooled.low > 0  # type: ignore[operator]
        against += decided and pooled.high <= 0  # type: ignore[operator]
        per_cell = {where: summary(d) for where, d in cells.items() if d.size}
        against += sum((c.n or 0) >= MIN_DECIDING_N and _finite(c.high) and c.high <= 0 and c.ours < 0  # type: ignore[operator]
                       for c in per_cell.values())
        lines.append(f"{what}: {_signed(pooled) if _finite(pooled.low) else f'n={pooled.n}'} pooled over "
                     f"{len(per_cell)} cells (" + ", ".join(f"{where} {c.ours:+.1f} n={c.n}"
                                                           for where, c in per_cell.items()) + ")")
    verdict = ("does not hold" if against else "holds" if claimed == len(comparisons) else "cannot be tested here")
    tail = "" if verdict != "cannot be tested here" else (f"; undecided: an interval reaches both sides of 0, or fewer than "
                                                          f"{MIN_DECIDING_N} paired inputs")
    return Finding(claim, verdict, "paired differences on the same inputs, 95 % bootstrap intervals: "
                   + "; ".join(lines) + tail + ".")


def finding_white_box(measured: Measured) -> Finding:
    comparisons = [(f"Saliency − {other} (sum)",
                    {f"{ds}/{clf}": paired_iou(measured, ds, clf, "Gradient", other) for ds, clf in _cells(measured)})
                   for other in ("LIME_100", "SHAP_100")]
    return _paired_finding("White-box methods beat LIME/SHAP: Saliency (sum) has a higher IoU than LIME-100 and "
                           "SHAP-100 (sum).", comparisons, "LIME-100 / SHAP-100 were not run in this profile.")


def finding_samples(measured: Measured) -> Finding:
    comparisons = [(f"{name}-100 − {name}-10 ({agg})",
                    {f"{ds}/{clf}": paired_iou(measured, ds, clf, f"{name}_100", f"{name}_10", agg)
                     for ds, clf in _cells(measured)})
                   for name in ("LIME", "SHAP") for agg in ("sum", "max")]
    return _paired_finding("LIME and SHAP improve from 10 to 100 samples (IoU, sum and max).", comparisons,
                           "LIME/SHAP at 10 and 100 samples were not both run.")


def finding_smoothgrad(measured: Measured, margin: float = 5.0) -> Finding:
    claim = (f"SmoothGrad ≈ Saliency: the paired IoU difference (SmoothGrad-5 − Saliency, sum, same inputs) lies "
             f"within ±{margin:g} points.")
    cells = {f"{ds}/{clf}": paired_iou(measured, ds, clf, "SmoothGrad_5", "Gradient") for ds, clf in _cells(measured)}
    cells = {where: summary(d) for where, d in cells.items() if d.size >= 2}
    if not cells:
        return Finding(claim, "cannot be tested here", "SmoothGrad and Saliency were not both run.")
    decided = [c for c in cells.values() if (c.n or 0) >= MIN_DECIDING_N]
    inside = sum(-margin <= c.low and c.high <= margin for c in decided)  # type: ignore[operator]
    outside = sum(c.high < -margin or c.low > margin for c in decided)  # type: ignore[operator]
    if inside == len(cells):
        verdict = "holds"
    elif outside:
        verdict = "does not hold"
    else:
        verdict = "cannot be tested here"
    text = (f"within ±{margin:g} in {inside} of {len(cells)} cells, surely outside in {outside} (cells with n ≥ "
            f"{MIN_DECIDING_N})"
            + ("" if verdict != "cannot be tested here" else " (the other intervals are too wide at this n)"))
    return Finding(claim, verdict, text + ": " + "; ".join(f"{where}: {_signed(c)}" for where, c in cells.items())
                   + ". QUACKIE's SmoothGrad adds absolute noise (stdevs = 1.0) to the embedding output; see "
                     "docs/reproduce.md for the noise-scale test.")


#: a Random cell is a mean of 0/1 scores; below this n its bootstrap interval says little (all 0 is likely)
MIN_RANDOM_N = 30


def finding_random(measured: Measured, table: dict[str, Any], population: dict[str, tuple[float, int]]) -> Finding:
    """Cells of ``MIN_RANDOM_N`` or more are judged alone; the smaller ones together, by the paired residual of each
    input (its Random IoU minus its expectation, distinct answer sentences / sentences), whose mean is 0 when the
    row is what the sentence counts predict."""
    claim = ("The Random row matches the paper's, or its difference is what the sentence-count distribution predicts "
             "(E[IoU] = mean(distinct answer sentences / sentences)).")
    paper = table["rows"]["Random"]
    evidence, explained, total, few, residuals = [], 0, 0, [], []
    for column, value in paper.items():
        ds, clf = _column(column)
        cell = _iou(measured, ds, clf, "Random", "random") if ds else None
        if cell is None or cell.ours is None or not _finite(cell.low):
            continue
        sentences = measured.sentences.get((ds, clf), [])
        expected = 100 * expected_random_iou(sentences)
        whole, n_whole = population.get(ds, (math.nan, 0))
        contains = cell.low <= value <= cell.high  # type: ignore[operator]
        line = (f"{column}: ours {_fmt(cell)}, paper {value:g} ({'inside' if contains else 'outside'}); expected "
                f"from our sentence counts {expected:.1f}; over every answerable question of the file {whole:.1f} "
                f"(n={n_whole})")
        if (cell.n or 0) < MIN_RANDOM_N:
            scores = measured.scores[(ds, clf, "Random", "random")]
            residuals += [100 * (s["iou"] - g / n) for s, (n, g) in zip(scores, sentences, strict=True)]
            few.append(line)
            continue
        total += 1
        explained += contains or cell.low <= expected <= cell.high  # type: ignore[operator]
        evidence.append(line)
    text = f"{explained} of {total} cells of n ≥ {MIN_RANDOM_N} contain the paper's value or the expectation from " \
           f"our sentence counts" + (": " + "; ".join(evidence) if evidence else "") + "."
    if len(residuals) >= MIN_RANDOM_N:
        pooled = summary(residuals)
        total += 1
        fits = pooled.low <= 0 <= pooled.high  # type: ignore[operator]
        explained += fits
        text += (f" The {len(few)} smaller cells together: Random IoU minus its expectation per input "
                 f"{_signed(pooled)} ({'contains' if fits else 'excludes'} 0): " + "; ".join(few) + ".")
    elif few:
        text += f" Not decided at n < {MIN_RANDOM_N}: " + "; ".join(few) + "."
    if not total:
        return Finding(claim, "cannot be tested here", text)
    return Finding(claim, "holds" if explained == total else "does not hold", text)


def finding_answer_sentence(measured: Measured) -> Finding:
    cells = {f"{ds}/{clf}": 100 * np.asarray([c["p_only_gt"] - c["p_without_gt"] for c in checks], dtype=float)
             for (ds, clf), checks in sorted(measured.checks.items())}
    return _paired_finding("The answer sentence carries the prediction: removing it lowers P(answerable) more than "
                           "keeping it alone does (the paper's check that the ground truth is right).",
                           [("P(answerable) ×100 with the answer sentence only − with it removed", cells)],
                           "no input was checked.")


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def reproduce(context: ReproduceContext) -> PaperReport:
    """The plug-in's ``reproduce`` part: estimate, run (resuming), and build the paper-vs-ours report."""
    log: Callable[[str], None] = context.extra.get("log", print)
    if context.profile not in PROFILES:
        from interpeval.errors import OptionError

        raise OptionError("--profile", f"unknown profile {context.profile!r} for quackie: choose from "
                                       f"{', '.join(PROFILES)}")
    profile = PROFILES[context.profile]
    start = time.perf_counter()
    for line in estimate(profile, context.data_dir, context.extra.get("only", ()))[1]:
        log(line)
    measured = measure(profile, context, log, context.extra.get("only", ()))
    paper = published("quackie")
    tables = [check_table(n, paper["tables"][n], measured, context.profile) for n in ("2", "3")]
    tables += [score_table(n, paper["tables"][n], measured, context.profile) for n in ("4", "5", "6")]
    population = population_random_iou(profile.datasets, context.data_dir)
    findings = [finding_white_box(measured), finding_samples(measured), finding_smoothgrad(measured),
                finding_random(measured, paper["tables"]["4"], population), finding_answer_sentence(measured)]
    return PaperReport("quackie", paper["reference"], context.profile, tables, findings,
                       seconds=time.perf_counter() - start)
