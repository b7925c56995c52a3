"""Pick an executor by name: the one place that knows every executor class (so ``base`` imports none of them)."""

from __future__ import annotations

from typing import Any

from interpeval.exec.base import Executor
from interpeval.exec.local import LocalExecutor
from interpeval.exec.ray_executor import RayExecutor

EXECUTORS = ("local", "ray")


def get_executor(name: str, workers: int | None = None, **params: Any) -> Executor:
    """``"local"`` (this machine: processes for units, this process for per-input work) or ``"ray"`` (a Ray
    cluster; ``address``, ``gpus_per_worker`` in ``params``; ``workers`` Ray workers)."""
    if name == "local":
        return LocalExecutor(workers=workers or 1, **params)
    if name == "ray":
        return RayExecutor(num_cpus=workers, workers=workers, **params)
    raise ValueError(f"unknown executor {name!r}; choose {' or '.join(repr(n) for n in EXECUTORS)}")
