"""What the report and the web app show of ExpMRC (plug-in part ``views``): the Table 3 leaderboard, a question's
passage with the gold and predicted evidence highlighted, and the headline findings."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from interpeval.benchmarks.expmrc.data import Prediction, Question, dev_path, load_dataset
from interpeval.benchmarks.expmrc.score import score_question
from interpeval.report.static import _fmt, _groups, is_reference, like_with_like
from interpeval.report.views import _cell, highlight, mean_cells, per_run
from interpeval.stats import mean_ci
from interpeval.store import RunInfo, Store, fingerprint_files

HOW_TO_READ = ("F1 ×100 of the answer (ANS), the evidence sentence (EVI) and both at once (ALL, per question "
               "answer F1 × evidence F1); 95 % bootstrap intervals over the n questions; 'gold' rows are upper bounds.")

#: the stored runs the leaderboard stands for (the generic per-run table leaves them out)
COVERS = ("expmrc",)

#: per-question F1 (0–1) is shown ×100, on the scale of the official run-level scores
METRIC_SCALE = {"expmrc": 100.0}

#: an answer model's run (``expmrc-answers``) stores no scores and no ``official`` option: its questions are scored
#: in the official scorer's mode, the one ExpMRC's Table 3 is made with (a system's run stores its own scores)
ANSWER_RUNS_OFFICIAL = True


def expmrc_row(store: Store, info: RunInfo) -> dict[str, Any]:
    """One run's leaderboard row: its mean F1s ×100 with 95 % bootstrap intervals over its questions."""
    cells = mean_cells(store, info.id, METRIC_SCALE["expmrc"])
    return {"run_id": info.id, "subset": info.config.get("subset", ""),
            "system": info.config.get("label") or info.config.get("system", ""), "model": info.model,
            **{name: cells.get(key) or _cell(mean_ci([]))
               for name, key in (("ANS", "answer"), ("EVI", "evidence"), ("ALL", "all"))}}


def expmrc_leaderboard(store: Store) -> dict[str, Any] | None:
    rows, models = [], set()
    for info in store.runs("expmrc"):
        models.add(info.model)
        rows.append(per_run(store, info, "expmrc.leaderboard", lambda info=info: expmrc_row(store, info)))
    if not rows:
        return None
    return {"benchmark": "expmrc", "title": "ExpMRC Table 3 layout: answer, evidence and overall F1 ×100",
            "key_columns": ["subset", "system", "model"], "stats": ["ANS", "EVI", "ALL"], "rows": rows,
            "models": sorted(m for m in models if m != "gold"), "how": HOW_TO_READ, "baseline": ""}


def leaderboards(store: Store, context: dict[str, Any]) -> list[dict[str, Any]]:
    table = expmrc_leaderboard(store)
    return [table] if table else []


def findings(table: dict[str, Any], rows: list[dict[str, Any]]) -> list[str]:
    """Per subset and n (like with like): the best system's overall F1 with its answer and evidence F1; upper bounds
    and human rows are listed as references, never as the best system."""
    lines = []
    for (subset, n), group in like_with_like([r for r in rows if not is_reference(r)], "ALL", ("subset",)).items():
        best = max(group, key=lambda r: r["ALL"]["value"])
        lines.append(f"{subset}: best overall F1 {_fmt(best['ALL'])} by {best['system']} "
                     f"(answer {_fmt(best['ANS'])}, evidence {_fmt(best['EVI'])}; n={n}).")
    for subset, group in _groups([r for r in rows if is_reference(r)], ("subset",)).items():
        lines.append(f"{subset[0]} references (not systems): " + "; ".join(
            f"{r['system']} {_fmt(r['ALL'])} (n={r['ALL']['n']})" for r in group) + ".")
    return lines


@lru_cache(maxsize=8)
def _expmrc_questions(subset: str, fingerprint: str) -> dict[str, Any]:
    try:
        path = dev_path(subset)
    except ValueError:
        return {}
    if not path.is_file() or fingerprint and fingerprint_files(path) != fingerprint:
        return {}
    return {q.qid: q for q in load_dataset(path).questions}


def _find_all(text: str, needle: str, cls: str) -> list[tuple[int, int, str]]:
    needle = (needle or "").strip()
    start = text.find(needle) if needle else -1
    return [] if start < 0 else [(start, start + len(needle), cls)]


def _question(info: RunInfo, instance_id: str) -> Any:
    """The run's question (from its vendored dev file when its content matches the run's), else None."""
    return _expmrc_questions(str(info.config.get("subset", "")), info.data_fingerprint).get(instance_id)


def _predicted(info: RunInfo, output: dict[str, Any]) -> dict[str, Any]:
    """What was predicted: a system's answer (text, or label for multiple choice) and evidence, or an answer model's
    answer and its evidence head's span (``expmrc-answers``; None without one)."""
    if info.benchmark == "expmrc-answers":
        return {"answer": output.get("label") or output.get("text"), "evidence": output.get("evidence")}
    return {"answer": output.get("answer"), "evidence": output.get("evidence")}


def expmrc_evidence(info: RunInfo, output: dict[str, Any]) -> dict[str, Any]:
    """The passage with the gold evidence and the predicted evidence (and answer) highlighted; for an answer model's
    run, its answer and evidence F1 by the official scorer (a system's run stores its own)."""
    question = _question(info, output["instance_id"])
    predicted = _predicted(info, output)
    if question is None:
        return {"available": False, **predicted}
    spans = [s for ev in (question.evidences or ()) for s in _find_all(question.context, ev, "gold")]
    spans += _find_all(question.context, str(predicted["evidence"] or ""), "pred")
    view = {"available": True, "question": question.question, "answers": list(question.answers),
            "options": list(question.options), "pieces": highlight(question.context, spans),
            "gold_evidence": list(dict.fromkeys(question.evidences or ())), "scores": {}, **predicted}
    if info.benchmark == "expmrc-answers":
        view["scores"] = question_scores(question, predicted)
    return view


def question_scores(question: Question, predicted: dict[str, Any], official: bool = ANSWER_RUNS_OFFICIAL
                    ) -> dict[str, float | None]:
    """Answer, evidence and overall F1 (0–1) of one prediction, as the official scorer computes them per question
    (:func:`interpeval.benchmarks.expmrc.score.score_question`); evidence None where nothing was predicted or the
    file has no reference evidence."""
    answer, evidence = score_question(question, Prediction(predicted["answer"], predicted["evidence"]), official)
    if predicted["evidence"] is None:
        evidence = None
    return {"answer F1": answer, "evidence F1": evidence,
            "all (answer × evidence)": None if evidence is None else answer * evidence}


def instance_facts(store: Store, info: RunInfo, output: dict[str, Any], facts: dict[str, Any]) -> None:
    """The question, its gold answer(s) (a multiple-choice label with its option) and the predicted answer."""
    question = _question(info, output["instance_id"])
    answer = _predicted(info, output)["answer"]
    facts["prediction"] = answer
    if question is None:
        return
    facts["text"] = question.question
    if question.options:
        facts["gold"] = f"{question.answers[0]} ({question.gold_option})"
        facts["correct"] = answer == question.answers[0]
    else:
        facts["gold"] = " | ".join(dict.fromkeys(question.answers))  # each reference once


def systems_on(store: Store, info: RunInfo, instance_id: str) -> list[dict[str, Any]]:
    """Every ExpMRC system run on this question with the same answer model and data (gold-answer rows, whose
    model is ``gold``, left out): its predicted answer and evidence and its stored per-question F1s."""
    rows = []
    for other in store.runs("expmrc"):
        if other.model != info.model or other.data_fingerprint != info.data_fingerprint or \
                other.config.get("subset") != info.config.get("subset"):
            continue
        output = store.instance(other.id, instance_id)
        if output is None:
            continue
        scores = {m["name"]: m["value"] for m in store.metrics(other.id, instance_id)}
        rows.append({"run_id": other.id, "this": other.id == info.id,
                     "system": other.config.get("label") or other.config.get("system", ""),
                     "answer": output.get("answer"), "evidence": output.get("evidence"),
                     "f1": {k: scores.get(k) for k in ("answer", "evidence", "all")}})
    return rows


def instance_view(store: Store, info: RunInfo, output: dict[str, Any], view: dict[str, Any]) -> None:
    """An ExpMRC question's passage with the evidence marked, and every system run on it with the same model."""
    view["evidence"] = expmrc_evidence(info, output)
    systems = systems_on(store, info, output["instance_id"])
    view["evidence"]["systems"] = systems if [r for r in systems if not r["this"]] else []
