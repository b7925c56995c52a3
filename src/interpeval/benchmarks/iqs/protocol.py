"""The paper's sampling protocol: 50 samples per task, 25 per class (STS-B: per side of the threshold).

Samples the model was trained or selected on are left out first (:func:`interpeval.models.lineage.read`: the
content hashes every trained head ships in ``lineage.json``), whatever file the samples come from; how many were
left out is returned with the samples and reported with every table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from interpeval.benchmarks.iqs.tasks import Sample, Task
from interpeval.errors import InterpevalError
from interpeval.models import lineage


def untrained(model_name: str, samples: list[Sample]) -> tuple[list[Sample], str]:
    """The samples ``model_name`` never trained or was selected on, and a note of how many were left out."""
    seen = lineage.read(model_name)
    kept, dropped = seen.drop(samples, lambda s: (s.text, s.pair))
    return kept, seen.note(dropped, "samples")


def sample_protocol(task: Task, samples: list[Sample], per_side: int = 25, seed: int = 0) -> list[Sample]:
    """``per_side`` samples of each side of ``task``, drawn without replacement (seeded), in file order."""
    if per_side < 1:
        raise InterpevalError(f"per_side must be >= 1, got {per_side}")
    pool = samples
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
