"""Executors: run independent work units (files to convert, probing experiments) locally or on a Ray cluster.

Both executors share one interface, so callers pick one by name (``get_executor("local" | "ray")``) and never
branch on it: ``imap_unordered(fn, items)`` yields ``(index, result)`` as units finish (so a caller can persist
each result at once and resume after an interruption) and ``map(fn, items)`` returns results in input order.
``fn`` must be a module-level function and items/results picklable. Per-input work (a benchmark's chunks of
inputs, one model) goes through ``run_chunks(work, chunks)``: see :mod:`interpeval.exec.base`.
"""

from interpeval.exec.base import Executor, current_executor, using
from interpeval.exec.factory import EXECUTORS, get_executor
from interpeval.exec.local import LocalExecutor
from interpeval.exec.ray_executor import RayExecutor

__all__ = ["EXECUTORS", "Executor", "LocalExecutor", "RayExecutor", "current_executor", "get_executor", "using"]
