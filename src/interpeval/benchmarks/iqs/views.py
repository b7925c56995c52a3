"""What the report and the web app show of IQS (plug-in part ``views``): an explained sample's text, gold label and
the model's prediction (as the IQS study recorded it). Its runs' leaderboard is the generic per-run table."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from interpeval.benchmarks.iqs.tasks import default_path, get_task, load_samples
from interpeval.errors import InterpevalError
from interpeval.store import RunInfo, Store, fingerprint_files


def _iqs_prediction(store: Store, task_name: str, sample_id: str) -> dict[str, Any]:
    """The model's output on an IQS sample, as the IQS study built from these explanations recorded it (the
    explanation runs themselves store none)."""
    found = [p["iqs"].get("y_model") for p in store.study_payloads("iqs", "$.iqs.sample_id", sample_id)
             if isinstance(p.get("iqs"), dict)]
    if not found or found[0] is None:
        return {}
    y = found[0]
    if isinstance(y, list) and len(y) == 2:
        try:
            sides = get_task(task_name).sides
        except InterpevalError:
            sides = ("class 0", "class 1")
        best = int(np.argmax(y))
        return {"prediction": sides[best], "probability": float(y[best])}
    return {"prediction": y}


@lru_cache(maxsize=8)
def _iqs_samples(task_name: str, data: str, fingerprint: str) -> dict[str, Any]:
    """An IQS task's samples by id, from the file the run names (the vendored one, or a path) when it matches."""
    try:
        task = get_task(task_name)
    except InterpevalError:
        return {}
    path = default_path(task) if not data or data.endswith("(vendored)") else Path(data)
    if not path.is_file() or fingerprint and fingerprint_files(path) != fingerprint:
        return {}
    try:
        return {s.id: s for s in load_samples(task, path)}
    except (InterpevalError, ValueError, OSError):
        return {}


def instance_facts(store: Store, info: RunInfo, output: dict[str, Any], facts: dict[str, Any]) -> None:
    """The sample's text (and pair), its gold label, and the model's prediction with its probability."""
    sample = _iqs_samples(str(info.config.get("task", "")), str(info.config.get("data", "")),
                          info.data_fingerprint).get(str(output.get("sample_id", output["instance_id"])))
    if sample is not None:
        facts.update(text=sample.text, pair=sample.pair, gold=sample.label)
    facts.update(_iqs_prediction(store, str(info.config.get("task", "")), str(output.get("sample_id", ""))))
    if isinstance(facts["gold"], str) and isinstance(facts["prediction"], str):
        facts["correct"] = facts["gold"] == facts["prediction"]
