"""How a trained artifact is written: only what training changed, quantized, relative to the base, and whole
(written in a staging folder and moved into place, every file flushed)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import torch

from interpeval.errors import InterpevalError
from interpeval.models.base import Model
from interpeval.models.load import OVERLAY_JSON, OVERLAY_WEIGHTS

CHECKPOINT = "checkpoint.pt"
#: where the final artifact is written before it is moved into the output folder
STAGING = ".artifact.partial"
#: columns that share one scale in an int4-stored change
Q4_GROUP = 64


def write_whole(path: Path, data: bytes, what: str) -> None:
    """Write ``data`` to ``path`` and flush it to disk; a failed write (a full disk) removes the partial file and
    is one clear error naming the path, and the training resumes from its last checkpoint once space is back."""
    try:
        with open(path, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as err:
        path.unlink(missing_ok=True)
        raise InterpevalError(f"{path}: cannot write {what}: {err.strerror or err}; free space and run the same "
                              "command again to resume") from None


def publish(staging: Path, out: Path, last: str) -> None:
    """Move every file of ``staging`` into ``out`` (each rename atomic, ``last`` after the others: a card names a
    finished artifact), then remove ``staging``. Until then the checkpoint stays, so a kill here resumes."""
    for file in sorted(staging.iterdir(), key=lambda f: f.name == last):
        os.replace(file, out / file.name)
    staging.rmdir()



def quantized_change(name: str, delta: torch.Tensor, bits: int = 8, rank: int | None = None
                     ) -> dict[str, torch.Tensor]:
    """How an artifact stores the change ``delta`` of base tensor ``name`` (read back by
    :func:`interpeval.models.load.overlay_changes`): a matrix in int8 with one fp16 scale per row, or with
    ``bits=4`` two int4 values per byte with one fp16 scale per group of :data:`Q4_GROUP` columns (half the size,
    for the 12-layer encoders); anything else in fp16. With ``rank`` a matrix that its rank-r factors store in
    less space is stored as them (``name.lowrank_left`` [rows, r] @ ``name.lowrank_right`` [r, columns], from
    the SVD, the singular values split evenly between the two), each quantized as above."""
    delta = delta.to("cpu", torch.float32)
    if rank is not None and delta.dim() == 2 and rank * sum(delta.shape) < delta.numel():
        u, s, vh = torch.linalg.svd(delta, full_matrices=False)
        root = s[:rank].sqrt()
        return {**quantized_change(f"{name}.lowrank_left", u[:, :rank] * root, bits),
                **quantized_change(f"{name}.lowrank_right", root[:, None] * vh[:rank], bits)}
    if delta.dim() != 2 or delta.numel() < 4096 or (bits == 4 and delta.shape[1] % Q4_GROUP):
        return {f"{name}.delta": delta.to(torch.float16).contiguous()}
    if bits == 8:
        scale = (delta.abs().amax(dim=1) / 127).clamp_min(1e-12)
        return {f"{name}.q8": torch.round(delta / scale[:, None]).clamp(-127, 127).to(torch.int8).contiguous(),
                f"{name}.q8scale": scale.contiguous()}
    if bits != 4:
        raise ValueError(f"delta_bits must be 8 or 4, not {bits!r}")
    groups = delta.reshape(delta.shape[0], -1, Q4_GROUP)
    scale = (groups.abs().amax(dim=2) / 7).clamp_min(1e-8).to(torch.float16)
    # shifted to 1..15 before the cast: a negative float has no defined uint8 value
    levels = (torch.round(groups / scale.float()[:, :, None]).clamp(-7, 7) + 8).to(torch.uint8).reshape(delta.shape)
    return {f"{name}.q4": (levels[:, 0::2] | (levels[:, 1::2] << 4)).contiguous(), f"{name}.q4scale": scale.contiguous()}


def overlay_tensors(params: Sequence[tuple[str, torch.nn.Parameter]], base_state: dict[str, torch.Tensor],
                    bits: int = 8, rank: int | None = None) -> dict[str, torch.Tensor]:
    """What an artifact stores: for a base tensor its :func:`quantized_change`, for a new tensor (a head) its
    value in fp16."""
    out: dict[str, torch.Tensor] = {}
    for name, param in params:
        value = param.detach().to("cpu", torch.float32)
        if name in base_state:
            out.update(quantized_change(name, value - base_state[name].float(), bits, rank))
        else:
            out[name] = value.to(torch.float16).contiguous()
    return out


def save_artifact(model: Model, out: Path, base: str, kind: str, params: list[tuple[str, torch.nn.Parameter]],
                   base_state: dict[str, torch.Tensor], train_layers: int | None,
                   label_names: Sequence[str] | None, num_labels: int | None, bits: int = 8,
                   rank: int | None = None) -> None:
    """``overlay.json`` naming the base + ``overlay.safetensors`` with what training changed."""
    from safetensors.torch import save

    out.mkdir(parents=True, exist_ok=True)
    model.hf.eval()
    id2label = {i: name for i, name in enumerate(label_names)} if label_names else None
    write_whole(out / OVERLAY_WEIGHTS, save(overlay_tensors(params, base_state, bits, rank),
                                            metadata={"base": str(base), "kind": kind}), "the trained weights")
    meta = {"format": "interpeval-overlay-2", "base": str(base), "kind": kind, "train_layers": train_layers,
            "num_labels": num_labels, "storage": storage_label(bits, rank)}
    if id2label:
        meta["id2label"] = {str(k): v for k, v in id2label.items()}
    write_whole(out / OVERLAY_JSON, (json.dumps(meta, indent=2) + "\n").encode(), "the artifact's description")


def storage_label(bits: int, rank: int | None = None) -> str:
    """How ``overlay.json`` describes an artifact's storage."""
    per = "row" if bits == 8 else f"{Q4_GROUP}-column group"
    changes = f"rank-{rank} SVD factors of matrix changes, in int{bits}" if rank else f"int{bits} changes"
    return f"{changes} with one scale per {per} for matrices, fp16 otherwise"
