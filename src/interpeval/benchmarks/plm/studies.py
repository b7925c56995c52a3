"""The masked-LM benchmark's study kind (plug-in part ``studies``): people annotate gold rationales, checkers score
them in review rounds, and the export is a golden file the benchmark reads.

``plm-rationale``: payload = a golden record of the masked-LM benchmark (``sent_id``, ``sent_text``, ``sent_token``
with one ``[MASK]``, ``answers``, ``sample_type``, ``rel_ids`` / ``adv_type``, ``interpeval``); annotate answer
``{"rationale": [token index, ...]}``; check answer ``{"sufficiency": 1..3, "compactness": 1..4}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from interpeval.store.studies import Assignment, Item, StudyKind, index_list, register_kind, validate_scores

if TYPE_CHECKING:
    from interpeval.benchmarks.plm.records import GoldenRecord
    from interpeval.store.studies import Studies

KIND = "plm-rationale"

RATIONALE_REVIEW = {"scores": {"sufficiency": [1, 3], "compactness": [1, 4]},
                    "pass_mean": {"sufficiency": 3, "compactness": 3.6}, "max_rounds": 3, "checks_per_round": 1}


def _validate_rationale(payload: dict[str, Any], answer: dict[str, Any], task: str, draft: bool = False) -> None:
    allowed = {"sufficiency", "compactness"} if task == "check" else {"rationale"}
    unknown = sorted(set(answer) - allowed)
    if unknown:
        raise ValueError(f"unknown answer fields {unknown}; expected {sorted(allowed)}")
    if task == "check":
        validate_scores(answer, RATIONALE_REVIEW["scores"], draft)
        return
    tokens = payload.get("sent_token", [])
    if draft and answer.get("rationale") is None:
        return
    ids = index_list(answer.get("rationale"), len(tokens), "rationale")
    if not ids and not draft:
        raise ValueError("rationale: select at least one token")
    if any(tokens[i] == "[MASK]" for i in ids):
        raise ValueError("rationale: the masked position itself cannot be part of the rationale")


def _export_rationale(item: Item, final: list[Assignment]) -> dict[str, Any]:
    """A golden record in the masked-LM benchmark's format (TrustAI's, read by
    :func:`interpeval.benchmarks.plm.records.read_golden`): one sequence, one alternative per annotator; the
    ``interpeval`` block says the rationale is now ``gold`` (checked by people) and how many rounds it took."""
    record = dict(item.payload)
    tokens = record.get("sent_token", [])
    alternatives = [sorted(a.answer["rationale"]) for a in final if a.answer]
    meta = dict(record.get("interpeval") or {})
    lang = meta.get("lang") or ("zh" if any("\u4e00" <= ch <= "\u9fff" for ch in "".join(tokens)) else "en")
    joiner = "" if lang == "zh" else " "
    record.setdefault("sent_id", item.key)
    record.setdefault("sent_text", joiner.join(tokens))
    record["rationale_ids"] = [alternatives]
    record["rationale_tokens"] = [[[tokens[i] for i in ids] for ids in alternatives]]
    record["rationale"] = joiner.join(tokens[i] for i in alternatives[0]) if alternatives else ""
    record["interpeval"] = {**meta, "label": "gold", "annotation": {"round": item.round,
                                                                     "annotators": len(alternatives)}}
    return record


register_kind(StudyKind(KIND, "study_rationale.html", _validate_rationale, _export_rationale,
                        {"review": RATIONALE_REVIEW}, validate_draft=partial(_validate_rationale, draft=True)))


def create_review_study(studies: Studies, name: str, groups: Sequence[Sequence[GoldenRecord]], n: int, seed: int,
                        sources: Sequence[str] = (), created_by: int | None = None) -> int:
    """A ``plm-rationale`` study of the review sample (:func:`interpeval.benchmarks.plm.review.sample`: the same
    originals with their partners, in the sheet's order), so people turn those silver rationales into gold in the
    web app; the study config records ``n``, ``seed`` and the golden files. Returns the study id."""
    items = [{"key": f"{r.lang}:{r.sent_id}", "payload": r.to_json()} for group in groups for r in group]
    config = {"plm_review": {"n_per_language_dimension": n, "seed": seed, "golden": list(sources),
                             "originals": len(groups), "records": len(items)}}
    return studies.create_study(name, KIND, items, config=config, created_by=created_by).id
