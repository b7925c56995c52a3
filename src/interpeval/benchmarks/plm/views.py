"""What the report and the web app show of the masked-LM rationale benchmark (plug-in part ``views``): a record's
words, gold answers and rationale (from its golden file), the model's top prediction, and the original/perturbed
pair. Its runs' leaderboard is the generic per-run table of per-instance metrics."""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from interpeval.benchmarks.plm.records import read_golden
from interpeval.report.views import _on_one_scale, explanations_in
from interpeval.report.views import instance_facts as facts_of
from interpeval.store import RunInfo, Store, fingerprint_files


@lru_cache(maxsize=8)
def _plm_golden(name: str, fingerprint: str, store_path: str) -> dict[str, Any]:
    """The records of a masked-LM run's golden file, looked up by its name beside the store, in the working folder
    and in their ``plm-data/`` folders (``interpeval plm build``'s default), and only when its content matches."""
    if not name:
        return {}
    given = Path(name)
    folders = [Path(store_path).parent, Path.cwd()]
    candidates = [given] if given.is_absolute() else [f / sub / given for f in folders for sub in ("", "plm-data")]
    for path in candidates:
        if path.is_file() and (not fingerprint or fingerprint_files(path) == fingerprint):
            try:
                return {str(r.sent_id): r for r in read_golden(path)}
            except (ValueError, OSError):  # not a golden file after all: show what the run stored
                return {}
    return {}


def instance_facts(store: Store, info: RunInfo, output: dict[str, Any], facts: dict[str, Any]) -> None:
    """The record's words, gold answers and rationale (from its golden file when at hand), the model's top
    prediction with its probability and whether it hit."""
    record = _plm_golden(str(info.config.get("golden", "")), info.data_fingerprint,
                         str(store.path)).get(output["instance_id"])
    top = output.get("top_k") or []
    log_probs = output.get("log_probs") or []
    facts.update(prediction=top[0] if top else None,
                 probability=math.exp(log_probs[0]) if log_probs and log_probs[0] is not None else None,
                 correct=None if output.get("hit1") is None else bool(output["hit1"]))
    words = next((output[k] for k in ("sent_token", "tokens", "words") if isinstance(output.get(k), list)), None)
    if record is not None:
        words = words or list(record.sent_token)
        facts.update(gold=record.answers, gold_rationale=sorted({i for alt in record.rationale_ids for i in alt}))
    else:
        facts["gold"] = output.get("answers") or output.get("gold")
    facts["words"] = words
    if words:
        facts["text"] = ("" if output.get("lang") == "zh" else " ").join(words)


def original_and_perturbed(store: Store, info: RunInfo, output: dict[str, Any]) -> list[dict[str, Any]]:
    """The masked-LM benchmark's pair: the original record and its perturbed twins (or the reverse), each with
    its words, prediction and rationale (a perturbed record names its original in ``ori_id``)."""
    if output.get("sample_type") == "ori":
        rows = store.instances(info.id)
        pair = [output] + [r for r in rows if str(r.get("ori_id")) == output["instance_id"]
                           and r["instance_id"] != output["instance_id"]]
    else:
        original = store.instance(info.id, str(output.get("ori_id")))
        pair = ([original] if original is not None else []) + [output]
    if len(pair) < 2:
        return []
    out = []
    for row in pair:
        facts = facts_of(store, info, row)
        found = explanations_in(row, words=facts["words"])
        label = "original" if row.get("sample_type") == "ori" else f"perturbed ({row.get('perturbation') or '?'})"
        heat = _on_one_scale(found, facts["gold_rationale"])[0] if found else []
        out.append({"label": label, "instance_id": row["instance_id"], "facts": facts,
                    "tokens": heat[0]["tokens"] if heat else [], "top_k": (row.get("top_k") or [])[:3],
                    "f1": row.get("f1")})
    return out


def instance_view(store: Store, info: RunInfo, output: dict[str, Any], view: dict[str, Any]) -> None:
    """The original/perturbed pair this record belongs to."""
    if info.benchmark == "plm_rationale":
        view["pair"] = original_and_perturbed(store, info, output)
