"""The paper's sampling protocol: 50 samples per task, 25 per class (STS-B: per side of the threshold).

Samples a model was trained on are left out when that can be known: a recipe head lists the hashes of its training
and dev inputs in ``trained_inputs.json``; an older zoo head's ``card.json`` names its training file, held-out
fraction and seed (:func:`interpeval.models.train.train`), so its training rows are recomputed. Both compare by
content. What was checked is returned with the samples and reported with every table.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from interpeval.benchmarks.iqs.tasks import Sample, Task
from interpeval.errors import InterpevalError


def data_roots() -> list[Path]:
    """Where a zoo card's data files may live: ``$INTERPEVAL_DATA_ROOT``, the shared data folder next to the
    repository (developers and CI), the repository, the working directory."""
    repo = Path(__file__).resolve().parents[4]
    env = os.environ.get("INTERPEVAL_DATA_ROOT")
    return ([Path(env)] if env else []) + [repo.parent / "shared" / "data", repo, Path.cwd()]


def training_inputs(model_name: str) -> tuple[set[str] | None, str]:
    """``(the inputs the zoo model was trained or selected on as input_key hashes, a note)``; ``None`` when unknown.

    A head made by a recipe (:mod:`interpeval.models.recipes`) lists them in ``trained_inputs.json`` next to it (one
    made before that file existed is rebuilt from the recipe's own split when its data is here); an older card names
    its file, held-out fraction and seed (:func:`interpeval.models.train.train`).
    """
    from interpeval.models import zoo
    from interpeval.models.recipes import RECIPES, TRAINED_INPUTS, input_key
    from interpeval.models.train import read_examples, seeded_split

    try:
        folder = zoo.path(model_name)
    except InterpevalError:
        folder = None
    card = (folder or Path(model_name)) / "card.json"
    if not card.is_file():
        return None, f"training data of {model_name} unknown (no card.json): overlap with the samples not checked"
    meta = json.loads(card.read_text(encoding="utf-8"))
    recipe = str(meta.get("command", "")).removeprefix("interpeval train recipe ").split(" ")[0]
    if (card.parent / TRAINED_INPUTS).is_file():
        seen = set(json.loads((card.parent / TRAINED_INPUTS).read_text(encoding="utf-8"))["input_sha1"])
        return seen, f"{len(seen)} training / model-selection inputs of {model_name} excluded ({TRAINED_INPUTS})"
    if recipe in RECIPES:
        for root in data_roots():
            try:
                prepared = RECIPES[recipe].build(root)
            except (InterpevalError, OSError):
                continue
            seen = {input_key(e.text, e.pair) for e in [*prepared.train, *prepared.dev]}
            return seen, f"{len(seen)} training / model-selection inputs of recipe {recipe} excluded"
        return None, f"data of recipe {recipe} not found here: overlap with the samples not checked"
    data = meta.get("data")
    found = next((root / data for root in data_roots() if data and (root / data).is_file()), None)
    if found is None or "eval_fraction" not in meta or "seed" not in meta:
        return None, f"training file of {model_name} ({data}) not found here: overlap with the samples not checked"
    examples, _ = read_examples(meta["kind"], found)
    train_idx, _ = seeded_split(len(examples), float(meta["eval_fraction"]), int(meta["seed"]))
    seen = {input_key(examples[i].text, examples[i].pair) for i in train_idx}
    return seen, f"{len(seen)} training inputs of {model_name} ({data}) excluded"


def sample_protocol(task: Task, samples: list[Sample], per_side: int = 25, seed: int = 0,
                    exclude: set[str] | None = None) -> list[Sample]:
    """``per_side`` samples of each side of ``task``, drawn without replacement (seeded), in file order;
    ``exclude``: :func:`~interpeval.models.recipes.input_key` hashes of inputs to leave out."""
    from interpeval.models.recipes import input_key

    if per_side < 1:
        raise InterpevalError(f"per_side must be >= 1, got {per_side}")
    pool = [s for s in samples if exclude is None or input_key(s.text, s.pair) not in exclude]
    rng = np.random.default_rng(seed)
    chosen: list[Sample] = []
    for side in task.sides:
        mine = [s for s in pool if s.side == side]
        if len(mine) < per_side:
            raise InterpevalError(f"{task.name}: only {len(mine)} usable samples of class {side!r} "
                                  f"(need {per_side}); use a larger --data file or a smaller --per-class")
        chosen += [mine[i] for i in sorted(rng.choice(len(mine), per_side, replace=False))]
    order = {s.id: i for i, s in enumerate(samples)}
    return sorted(chosen, key=lambda s: order[s.id])


def protocol_info(task: Task, per_side: int, seed: int, note: str, data: str) -> dict[str, Any]:
    """The protocol as reported with every table."""
    info: dict[str, Any] = {"task": task.name, "data": data, "per_class": per_side, "seed": seed,
                            "classes": list(task.sides), "training_overlap": note}
    if task.threshold is not None:
        info["threshold"] = task.threshold
    return info
