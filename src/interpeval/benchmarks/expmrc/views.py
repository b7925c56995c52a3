"""What the report and the web app show of ExpMRC (plug-in part ``views``): the Table 3 leaderboard, a question's
passage with the gold and predicted evidence highlighted, and the headline findings."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from interpeval.benchmarks.expmrc.data import dev_path, load_dataset
from interpeval.report.static import _fmt, _groups, is_reference, like_with_like
from interpeval.report.views import _cell, highlight, per_run
from interpeval.stats import mean_ci
from interpeval.store import RunInfo, Store, fingerprint_files

HOW_TO_READ = ("F1 ×100 of the answer (ANS), the evidence sentence (EVI) and both at once (ALL, per question "
               "answer F1 × evidence F1); 95 % bootstrap intervals over the n questions; 'gold' rows are upper bounds.")

#: the stored runs the leaderboard stands for (the generic per-run table leaves them out)
COVERS = ("expmrc",)

#: per-question F1 (0–1) is shown ×100, on the scale of the official run-level scores
METRIC_SCALE = {"expmrc": 100.0}


def expmrc_row(store: Store, info: RunInfo) -> dict[str, Any]:
    """One run's leaderboard row: its mean F1s ×100 with 95 % bootstrap intervals over its questions."""
    per: dict[str, list[float]] = {}
    for m in store.metrics(info.id):
        if m["instance_id"] != "" and m["value"] is not None:
            per.setdefault(m["name"], []).append(m["value"])
    return {"run_id": info.id, "subset": info.config.get("subset", ""),
            "system": info.config.get("label") or info.config.get("system", ""), "model": info.model,
            **{name: _cell(mean_ci(per.get(key, [])), 100)
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


def expmrc_evidence(info: RunInfo, output: dict[str, Any]) -> dict[str, Any]:
    """The passage with the gold evidence and the predicted evidence (and answer) highlighted."""
    question = _expmrc_questions(str(info.config.get("subset", "")), info.data_fingerprint).get(output["instance_id"])
    predicted = {"answer": output.get("answer"), "evidence": output.get("evidence")}
    if question is None:
        return {"available": False, **predicted}
    spans = [s for ev in (question.evidences or ()) for s in _find_all(question.context, ev, "gold")]
    spans += _find_all(question.context, str(predicted["evidence"] or ""), "pred")
    return {"available": True, "question": question.question, "answers": list(question.answers),
            "options": list(question.options), "pieces": highlight(question.context, spans),
            "gold_evidence": list(question.evidences or ()), **predicted}


def instance_view(store: Store, info: RunInfo, output: dict[str, Any], view: dict[str, Any]) -> None:
    """An ExpMRC question's passage with the evidence marked."""
    if info.benchmark == "expmrc":
        view["evidence"] = expmrc_evidence(info, output)
