"""ExpMRC's Table 3 (dev rows, base level) reproduced with our heads, and the paper's three findings.

``quick`` scores a seeded sample of :data:`QUICK_QUESTIONS` questions per subset (about two minutes on two CPU
cores); ``paper`` every bundled dev question (SQuAD 501, CMRC 2018 515, RACE+ 561, C3 505 — the paper's full dev
sets). Everything runs through :func:`~interpeval.benchmarks.expmrc.tables.run_baselines`: the answer models' outputs
and every system's per-question scores go to the results store, so a rerun (or ``paper`` after ``quick``) resumes.
``context.extra`` may set ``questions`` (per subset), ``subsets``, ``qa_model``, ``qa_model_zh`` and ``mc_model``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from interpeval.benchmarks.expmrc.data import SUBSETS, Dataset, dev_path, load_dataset
from interpeval.benchmarks.expmrc.human import FIXED_ANSWER, answer_measured
from interpeval.benchmarks.expmrc.run import SYSTEMS
from interpeval.benchmarks.expmrc.score import Score
from interpeval.benchmarks.expmrc.tables import SUBSET_NAMES, run_baselines, zoo_qa_head
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
from interpeval.store import fingerprint_files

PROFILES = ("quick", "paper")
QUICK_QUESTIONS = 40
SCORES = ("Ans.", "Evi.", "All")
#: our system key → the paper's row (its base-level block; the human row has no block)
PAPER_ROWS = {"human": "Human Performance", "mss": "PLM base-level Baselines Most Similar Sent.",
              "mss_q": "PLM base-level Baselines Most Similar Sent. w/ Ques.",
              "pa": "PLM base-level Baselines Predicted Answer Sent.",
              "pseudo": "PLM base-level Baselines Pseudo-data Training"}
PANELS = {"squad": "SQuAD / CMRC 2018", "cmrc2018": "SQuAD / CMRC 2018", "race": "RACE+ / C3", "c3": "RACE+ / C3"}
PAPER_MODELS = {"squad": "BERT-base", "cmrc2018": "MacBERT-base", "race": "BERT-base", "c3": "MacBERT-base"}


def _column(subset: str, score: str) -> str:
    return f"{SUBSET_NAMES[subset]} dev {score}"


def _paper_value(rows: Mapping[str, Mapping[str, float | None]], key: str, subset: str, score: str) -> float | None:
    """The published dev value of our row ``key`` for one subset (the paper spells "training" both ways)."""
    wanted = f"{PAPER_ROWS[key]}, {PANELS[subset]}".lower()
    row = next((r for label, r in rows.items() if label.lower() == wanted), None)
    return None if row is None else row.get(_column(subset, score))


def per_question(score: Score) -> dict[str, list[float]]:
    """Per-question answer, evidence and overall scores (×100), in question order."""
    ids = list(score.answer)
    return {"Ans.": [100 * score.answer[q] for q in ids], "Evi.": [100 * score.evidence[q] for q in ids],
            "All": [100 * score.joint.get(q, score.answer[q] * score.evidence[q]) for q in ids]}


def _cell(paper: float | None, values: list[float] | None) -> Cell:
    if not values:
        return Cell(paper)
    low, high = bootstrap_ci(np.asarray(values))
    return Cell(paper, float(np.mean(values)), low, high, len(values))


def sample(dataset: Dataset, n: int | None, seed: int = 0) -> Dataset:
    """``n`` questions drawn without replacement (seeded), kept in file order; all of them for None."""
    import dataclasses

    if n is None or n >= len(dataset.questions):
        return dataset
    picked = sorted(np.random.default_rng(seed).choice(len(dataset.questions), n, replace=False))
    return dataclasses.replace(dataset, questions=tuple(dataset.questions[i] for i in picked))


def _paired(a: Score, b: Score, what: str) -> tuple[float, float, float, int]:
    """Mean of b − a per question (×100) with its 95 % bootstrap interval, over the questions both scored."""
    x, y = (dict(zip(s.answer, per_question(s)[what], strict=True)) for s in (a, b))
    diff = np.asarray([y[q] - x[q] for q in x if q in y])
    low, high = bootstrap_ci(diff)
    return float(diff.mean()), low, high, len(diff)


def _differs(key: str, subset: str, answerer: str, n: int, total: int) -> str:
    data = f"{n} of the {total} bundled dev questions" + (" (seeded sample)" if n < total else " (all)")
    if key == "human":
        how = "each released reference in turn against the others (the paper: separate annotators)"
        if not answer_measured("span" if subset in ("squad", "cmrc2018") else "choice"):
            how += f"; Ans. and All not reported: {FIXED_ANSWER}"
        return f"{how}; {data}"
    if key in ("ga", "ge"):
        return f"gold answer, not a system: an upper bound the paper does not print; {data}"
    model = f"answers: {answerer} (paper: {PAPER_MODELS[subset]} fine-tuned on the subset's train set)"
    if key == "pseudo":
        model += "; evidence: our head's pseudo-evidence head, trained on our own pseudo evidence (not ExpMRC's files)"
    return f"{model}; {data}"


def reproduce(context: ReproduceContext) -> PaperReport:
    """Table 3 (dev, base level) with our heads beside the paper's, and the findings."""
    if context.profile not in PROFILES:
        raise ValueError(f"profile {context.profile!r}: choose from {', '.join(PROFILES)}")
    started = time.perf_counter()
    extra = context.extra
    n = extra.get("questions", QUICK_QUESTIONS if context.profile == "quick" else None)
    subsets = tuple(extra.get("subsets", SUBSETS))
    paths = {s: (Path(context.data_dir) / s / f"expmrc-{s}-dev.json" if context.data_dir else dev_path(s))
             for s in subsets}
    full = {s: load_dataset(p) for s, p in paths.items()}
    datasets = {s: sample(d, n) for s, d in full.items()}
    qa_model = extra["qa_model"] if "qa_model" in extra else zoo_qa_head("en")
    qa_model_zh = extra["qa_model_zh"] if "qa_model_zh" in extra else zoo_qa_head("zh")
    print(f"expmrc reproduce ({context.profile}): {', '.join(f'{s} {len(d.questions)}' for s, d in datasets.items())}"
          f" questions; answers: {qa_model or 'none'} (en), {qa_model_zh or 'none'} (zh)", file=sys.stderr)
    results, answerers, trained_notes = run_baselines(datasets, Path(context.out) / "expmrc", qa_model, qa_model_zh,
                                                      extra.get("mc_model", ""), context.store)
    tables = published("expmrc")["tables"]["3"]
    rows = []
    for system in SYSTEMS:
        if not any((system.key, s) in results for s in subsets):
            continue
        cells, differs = {}, []
        for subset in subsets:
            score = results.get((system.key, subset))
            values = per_question(score) if score is not None else {}
            if system.key == "human" and not answer_measured(full[subset].kind):
                values = {"Evi.": values.get("Evi.", [])}
            for what in SCORES:
                paper = _paper_value(tables["rows"], system.key, subset, what) if system.key in PAPER_ROWS else None
                cells[_column(subset, what)] = _cell(paper, values.get(what))
            if score is not None:
                differs.append(f"{SUBSET_NAMES[subset]}: " + _differs(system.key, subset, answerers.get(subset, ""),
                                                                      len(datasets[subset].questions),
                                                                      len(full[subset].questions)))
        label = PAPER_ROWS.get(system.key, system.label).removeprefix("PLM base-level Baselines ")
        rows.append(Row(label if system.key in PAPER_ROWS else system.label, cells, " | ".join(differs)))
    table = PaperTable(
        "3", "ExpMRC dev sets: answer / evidence / overall F1 ×100 (paper: PLM base-level rows)",
        [_column(s, w) for s in subsets for w in SCORES], rows,
        ours_model="; ".join(f"{SUBSET_NAMES[s]}: {answerers.get(s, 'none')}" for s in subsets),
        ours_data="; ".join(f"{SUBSET_NAMES[s]}: {Path(paths[s]).name} (sha256 {fingerprint_files(paths[s])[:12]}), "
                            f"n = {len(datasets[s].questions)}" for s in subsets),
        explainer="evidence = sentence selectors (MSS: ExpMRC token F1 to the answer; w/ Ques.: to question + answer; "
                  "PA: sentence of the predicted span) or the head's evidence span",
        notes="Official eval_expmrc.py scoring; 95 % percentile-bootstrap intervals over questions. Human: cross-"
              f"validation over the released references; multiple choice: {FIXED_ANSWER} (left empty here). "
              "The paper's test columns and large-level rows have no counterpart here (no test answers are "
              "released; no large model). " + " ".join(trained_notes))
    report = PaperReport("expmrc", published("expmrc")["reference"], context.profile, [table],
                         findings(results, full, subsets))
    report.seconds = time.perf_counter() - started
    return report


def findings(results: Mapping[tuple[str, str], Score], datasets: Mapping[str, Dataset],
             subsets: tuple[str, ...]) -> list[Finding]:
    """The paper's three findings, each with the numbers that decide it on our results."""
    return [_below_human(results, datasets, subsets), _question_helps(results, subsets), _pseudo_answers(results)]


def _below_human(results: Mapping[tuple[str, str], Score], datasets: Mapping[str, Dataset],
                 subsets: tuple[str, ...]) -> Finding:
    claim = "Every baseline is far below human performance."
    lines, signs = [], []
    for subset in subsets:
        human = results.get(("human", subset))
        if human is None:
            continue
        what = "All" if answer_measured(datasets[subset].kind) else "Evi."  # choice: the human answer is fixed
        for key in ("mss", "mss_q", "pa", "pseudo"):
            if (key, subset) not in results:
                continue
            mean, low, high, n = _paired(results[(key, subset)], human, what)
            signs.append(1 if low > 0 else -1 if mean <= 0 else 0)
            lines.append(f"{SUBSET_NAMES[subset]} {what} human − {key} = {mean:+.1f} [{low:+.1f}, {high:+.1f}] (n = {n})")
    if not signs:
        return Finding(claim, "cannot be tested here", "no human row and baseline on a common subset")
    verdict = ("holds" if all(s > 0 for s in signs) else "does not hold" if any(s < 0 for s in signs)
               else "cannot be tested here")
    note = (" (paired bootstrap over questions; below = the interval of human − baseline lies above 0; RACE+ / C3 "
            "compare evidence F1 since the human answer score there is fixed, not measured)")
    tail = "" if verdict != "cannot be tested here" else "; some intervals include 0 at this n"
    return Finding(claim, verdict, "; ".join(lines) + note + tail)


def _question_helps(results: Mapping[tuple[str, str], Score], subsets: tuple[str, ...]) -> Finding:
    claim = ("Adding the question to the most-similar-sentence query improves evidence F1 (MSS w/ Ques. > MSS; "
             "the paper's dev rows show it on CMRC 2018, RACE+ and C3, not on SQuAD: 81.0 vs 81.8).")
    lines, signs = [], []
    for subset in subsets:
        if ("mss", subset) not in results or ("mss_q", subset) not in results:
            continue
        mean, low, high, n = _paired(results[("mss", subset)], results[("mss_q", subset)], "Evi.")
        lines.append(f"{SUBSET_NAMES[subset]}: Evi. w/ Ques. − MSS = {mean:+.1f} [{low:+.1f}, {high:+.1f}] (n = {n})")
        if subset != "squad":
            signs.append(1 if low > 0 else -1 if high < 0 else 0)
    if not signs:
        return Finding(claim, "cannot be tested here", "; ".join(lines) or "no MSS rows on CMRC 2018, RACE+ or C3")
    verdict = ("holds" if all(s > 0 for s in signs) else "does not hold" if any(s < 0 for s in signs)
               else "cannot be tested here")
    tail = "" if verdict != "cannot be tested here" else " — the intervals include 0 at this n"
    return Finding(claim, verdict, "; ".join(lines) + " (paired bootstrap over questions)" + tail)


def _pseudo_answers(results: Mapping[tuple[str, str], Score]) -> Finding:
    claim = "Pseudo-data training (an evidence head trained with the answer head) raises answer F1 over the baselines."
    same = [f"{SUBSET_NAMES[s]} Ans. {results[('pseudo', s)].ans_f1:.1f} (pseudo) = {results[('mss', s)].ans_f1:.1f} "
            "(MSS)" for s in SUBSETS if ("pseudo", s) in results and ("mss", s) in results]
    return Finding(claim, "cannot be tested here",
                   "every model row here reads its answers from one head, which was itself trained with the "
                   "pseudo-evidence head; no twin head trained without it ships, so the answer F1s are identical by "
                   "construction" + (": " + "; ".join(same) if same else "") + ". RACE+ / C3 have no trained head.")

