"""Where a worker's model lives: the device a Ray worker was given, and moving a loaded model there.

A work object reaches a Ray worker pickled, its model on the CPU (a CUDA tensor cannot be unpickled on a machine
without one); a worker that Ray pinned to a GPU moves it there once, before its first chunk.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def move_model(model: Any, device: Any) -> None:
    """Move a loaded :class:`~interpeval.models.Model` (its network and, for QA, its evidence head) to ``device``."""
    import torch

    device = torch.device(device)
    if getattr(model, "device", None) == device:
        return
    for part in (getattr(model, "hf", None), getattr(model, "evidence_head", None)):
        if part is not None:
            part.to(device)
    model.device = device
    if getattr(model, "auto_batch", False):  # rows per pass for this device's memory (a GPU's, not the driver's)
        from interpeval.models.memory import auto_batch_size

        model.batch_size = auto_batch_size(model, model.memory)


def work_model(work: Any) -> Any:
    """The model a work object computes with (its ``model`` attribute), or None."""
    model = getattr(work, "model", None)
    return model if model is not None and hasattr(model, "hf") else None


@contextmanager
def on_cpu(work: Any) -> Iterator[None]:
    """The work's model on the CPU inside the block (to pickle it for workers), back on its device after."""
    model = work_model(work)
    device = getattr(model, "device", None)
    if model is not None:
        move_model(model, "cpu")
    try:
        yield
    finally:
        if model is not None:
            move_model(model, device)
