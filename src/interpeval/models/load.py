"""``load()``: one entry point from a zoo name, a local directory or a hub id to a :class:`Model`.

A directory is either a Hugging Face checkpoint (``config.json``; an ``evidence_head.safetensors`` next to a QA or
multiple-choice model adds the evidence head) or an *overlay* written by :func:`interpeval.training.loop.train` with
``train_layers``: ``overlay.json`` names the base model and ``overlay.safetensors`` holds only the weights that
training changed, so trained artifacts stay a few MB.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import torch

from interpeval.errors import InterpevalError
from interpeval.models.base import KINDS, Model
from interpeval.models.kinds import EVIDENCE_KINDS, KIND_CLASSES, hf_class, kind_from_config
from interpeval.models.tiny import head_overrides, tiny_hf

OVERLAY_JSON = "overlay.json"
OVERLAY_WEIGHTS = "overlay.safetensors"
EVIDENCE_WEIGHTS = "evidence_head.safetensors"
DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
#: ``--dtype``: the precision the passes compute in (``bf16``: autocast, the weights stay fp32)
AUTOCAST = {"fp32": None, "bf16": torch.bfloat16}
#: what a command's ``--dtype`` / ``--memory-gb`` set for every model it loads (:func:`loading`)
_SETTINGS: ContextVar[dict[str, Any] | None] = ContextVar("interpeval_load_settings", default=None)


@contextmanager
def loading(**settings: Any) -> Iterator[None]:
    """Inside the block, :func:`load` uses ``settings`` (``autocast``, ``memory``) where its caller gives none: a
    command's options reach every model it loads without being passed through each benchmark."""
    token = _SETTINGS.set({**(_SETTINGS.get() or {}), **{k: v for k, v in settings.items() if v is not None}})
    try:
        yield
    finally:
        _SETTINGS.reset(token)


def resolve_device(device: str | torch.device = "auto") -> torch.device:
    """``"auto"`` picks cuda, then mps, then cpu."""
    if str(device) != "auto":
        return torch.device(device)
    if torch.cuda.is_available():
        return torch.device("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def load(name_or_path: str | os.PathLike[str], kind: str | None = None, device: str | torch.device = "auto",
         dtype: str | torch.dtype = "float32", batch_size: int | str = "auto", max_length: int | None = None, *,
         num_labels: int | None = None, autocast: str | None = None, memory: int | None = None) -> Model:
    """Load a model of ``kind`` (inferred from the checkpoint when None) onto ``device``.

    ``name_or_path``: a zoo name (``interpeval models`` lists them), a local HF directory or overlay artifact, or
    a hub id. Loading an encoder as a task kind initialises the head randomly (seeded) and warns.
    ``num_labels`` sizes a new classification head. ``dtype`` casts the weights; ``autocast`` (``"bf16"`` or
    ``"fp32"``, default: :func:`loading`'s, else fp32) runs every pass under autocast with fp32 weights.
    ``batch_size="auto"`` picks the rows per pass from ``memory`` bytes (default: :func:`loading`'s, else the
    device's free memory; a CPU keeps 32): :func:`interpeval.models.memory.auto_batch_size`.
    """
    if kind is not None and kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; kinds: {', '.join(KINDS)}")
    auto = batch_size == "auto"
    if not auto and (isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1):
        raise ValueError(f"batch_size must be 'auto' or an integer >= 1, got {batch_size!r}")
    settings = _SETTINGS.get() or {}
    precision = autocast or settings.get("autocast", "fp32")
    if precision not in AUTOCAST:
        raise ValueError(f"unknown autocast precision {precision!r}; use one of {', '.join(AUTOCAST)}")
    torch_dtype = DTYPES.get(dtype, dtype) if isinstance(dtype, str) else dtype
    if not isinstance(torch_dtype, torch.dtype):
        raise ValueError(f"unknown dtype {dtype!r}; use one of {', '.join(DTYPES)}")
    hf, tokenizer, evidence, kind = _parts(str(name_or_path), kind, num_labels)
    dev = resolve_device(device)
    hf.to(device=dev, dtype=torch_dtype).eval()
    own_memory(hf)
    extra: dict[str, Any] = {}
    if kind in EVIDENCE_KINDS:
        extra["evidence_head"] = None if evidence is None else evidence.to(device=dev, dtype=torch_dtype).eval()
    limit = min(int(getattr(tokenizer, "model_max_length", 512) or 512), 512)
    model = KIND_CLASSES[kind](hf, tokenizer, str(name_or_path), dev, 1 if auto else batch_size,
                               max_length or limit, **extra)
    model.autocast = AUTOCAST[precision]
    if auto:
        from interpeval.models.memory import auto_batch_size

        model.auto_batch, model.memory = True, memory if memory is not None else settings.get("memory")
        model.batch_size = auto_batch_size(model, model.memory)
    return model


def own_memory(module: torch.nn.Module) -> None:
    """Give every parameter and buffer that views a loaded file (memory-mapped safetensors, at any byte offset) a
    tensor of its own. The CPU matmul kernels take another code path on unaligned data, which changes the last bits
    of a result: with this, a model computes exactly as its copy unpickled on a Ray worker (docs/cluster.md)."""
    with torch.no_grad():
        for tensor in (*module.parameters(), *module.buffers()):
            if tensor.device.type == "cpu" and tensor.data_ptr() % 64:
                tensor.data = tensor.data.clone()


def _parts(name: str, kind: str | None, num_labels: int | None, warn: bool = True) -> tuple[Any, Any, Any, str]:
    """``(hf, tokenizer, evidence_head or None, kind)`` for any accepted ``name`` (``warn``: about a random head)."""
    from interpeval.models import zoo

    if name.startswith("tiny-") and name[5:] in KINDS:
        kind = kind or name[5:]
        hf, tokenizer = tiny_hf(kind, 0, num_labels)
        return hf, tokenizer, None, kind
    path = zoo.path(name)
    if path is None:
        path = Path(name).expanduser()
        if not path.exists() and _looks_local(name):
            raise InterpevalError(f"cannot load {name!r}: no such directory and not a zoo name "
                                  "(`interpeval models` lists the zoo)")
    if path.exists():
        if not path.is_dir():
            raise InterpevalError(f"cannot load {name!r}: a model is a directory, not a file")
        if (path / OVERLAY_JSON).exists():
            return _overlay(path, kind, num_labels, warn)
        if not (path / "config.json").exists():
            raise InterpevalError(f"cannot load {name!r}: the directory has neither config.json nor {OVERLAY_JSON}")
    return _checkpoint(str(path) if path.exists() else name, kind, num_labels, warn)


def _looks_local(name: str) -> bool:
    """Paths, not hub ids (``org/name``), start with ``.``, ``/`` or ``~`` or have more than one ``/``."""
    return name.startswith((".", "/", "~")) or name.count("/") > 1


def _checkpoint(source: str, kind: str | None, num_labels: int | None,
                warn: bool = True) -> tuple[Any, Any, Any, str]:
    """A HF checkpoint from a directory or the hub; a head missing from it is initialised with seed 0."""
    from safetensors.torch import load_file
    from transformers import AutoConfig, AutoTokenizer
    from transformers.utils import logging as hf_logging

    try:
        config = AutoConfig.from_pretrained(source)
        tokenizer = AutoTokenizer.from_pretrained(source)
    except (OSError, ValueError) as err:
        if Path(source).is_dir():
            raise InterpevalError(f"cannot load {source!r}: {str(err).splitlines()[0]}") from err
        raise InterpevalError(
            f"cannot load {source!r}: not a zoo name or local directory, and the Hugging Face hub cannot provide "
            f"it (offline or unknown id; HF_HUB_OFFLINE={os.environ.get('HF_HUB_OFFLINE', '0')})") from err
    saved = kind_from_config(config) if config.architectures else "encoder"
    kind = kind or saved
    if num_labels is None and kind == saved == "sequence-classification":
        num_labels = config.num_labels  # a trained head keeps its classes (and their names)
    for key, value in head_overrides(kind, num_labels).items():
        setattr(config, key, value)
    if kind != saved and warn:
        warnings.warn(f"{source}: no trained {kind} head in this checkpoint ({saved}); the head is randomly "
                      "initialised (seed 0)", stacklevel=3)
    verbosity = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()  # the missing-head report is replaced by the warning above
    try:
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            hf = hf_class(kind).from_pretrained(source, config=config)
    finally:
        hf_logging.set_verbosity(verbosity)
    evidence = None
    ev_path = Path(source) / EVIDENCE_WEIGHTS
    if kind in EVIDENCE_KINDS and ev_path.exists():
        state = load_file(str(ev_path))
        evidence = torch.nn.Linear(state["weight"].shape[1], 2)
        evidence.load_state_dict({k: v.float() for k, v in state.items()})
    return hf, tokenizer, evidence, kind


def _overlay(path: Path, kind: str | None, num_labels: int | None = None,
             warn: bool = True) -> tuple[Any, Any, Any, str]:
    """Rebuild base + trained overlay (top layers and head) from an artifact directory.

    Asked for another kind, the artifact's trained encoder gets a new head of that kind (seeded, as for a plain
    encoder): a head can be fine-tuned from another task's encoder, e.g. an answerability classifier from a QA model.
    """
    from safetensors.torch import load_file

    meta = json.loads((path / OVERLAY_JSON).read_text())
    if kind is not None and kind != meta["kind"]:
        trained, tokenizer, _, _ = _overlay(path, None)
        fresh, _, _, kind = _parts(meta["base"], kind, num_labels, warn=False)
        prefix = f"{trained.base_model_prefix}."
        fresh.load_state_dict({k: v for k, v in trained.state_dict().items() if k.startswith(prefix)}, strict=False)
        if warn:
            warnings.warn(f"{path}: the {meta['kind']} model loaded as {kind}: its encoder with a new, randomly "
                          "initialised head (seed 0)", stacklevel=3)
        return fresh, tokenizer, None, kind
    base = meta["base"]
    hf, tokenizer, _, kind = _parts(base, meta["kind"], meta.get("num_labels"), warn=False)  # the overlay has the head
    state = load_file(str(path / OVERLAY_WEIGHTS))
    evidence_state = {k.split(".", 1)[1]: v.float() for k, v in state.items() if k.startswith("evidence_head.")}
    own = hf.state_dict()
    merged = apply_overlay({k: v for k, v in state.items() if not k.startswith("evidence_head.")}, own)
    unknown = sorted(set(merged) - set(own))
    if unknown:
        raise InterpevalError(f"{path / OVERLAY_WEIGHTS}: tensors {unknown[:3]} do not exist in base {base!r}")
    hf.load_state_dict(merged, strict=False)
    if "id2label" in meta:
        hf.config.id2label = {int(k): v for k, v in meta["id2label"].items()}
        hf.config.label2id = {v: int(k) for k, v in meta["id2label"].items()}
    evidence = None
    if evidence_state:
        evidence = torch.nn.Linear(evidence_state["weight"].shape[1], 2)
        evidence.load_state_dict(evidence_state)
    return hf, tokenizer, evidence, kind


def overlay_changes(stored: dict[str, torch.Tensor]) -> dict[str, tuple[bool, torch.Tensor]]:
    """Decode what an overlay stores (written by :func:`interpeval.training.artifact.quantized_change`): ``name`` is a
    value, ``name.delta`` a change, ``name.q8`` + ``name.q8scale`` an int8 change with one scale per row and
    ``name.q4`` + ``name.q4scale`` int4 changes packed two per byte with one scale per column group;
    ``name.lowrank_left`` / ``name.lowrank_right`` (each stored in one of those ways) are factors of the change.
    Returns name → (is it a change to the base, float tensor or stored value)."""
    out: dict[str, tuple[bool, torch.Tensor]] = {}
    for key, tensor in stored.items():
        if key.endswith((".q8scale", ".q4scale")):
            continue
        if key.endswith(".q8"):
            out[key[:-3]] = True, tensor.float() * stored[f"{key}scale"].float()[:, None]
        elif key.endswith(".q4"):
            scale = stored[f"{key}scale"].float()
            levels = torch.stack([tensor & 15, tensor >> 4], dim=2).reshape(tensor.shape[0], -1).float() - 8
            out[key[:-3]] = True, (levels.reshape(*scale.shape, -1) * scale[:, :, None]).reshape(levels.shape)
        elif key.endswith(".delta"):
            out[key[:-6]] = True, tensor.float()
        else:
            out[key] = False, tensor
    for key in [k for k in out if k.endswith(".lowrank_left")]:
        name = key[:-len(".lowrank_left")]
        out[name] = True, out.pop(key)[1] @ out.pop(f"{name}.lowrank_right")[1]
    return out


def apply_overlay(stored: dict[str, torch.Tensor], base: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The full tensors an overlay describes: its :func:`overlay_changes` added to ``base``, its values as they are
    (a name the base lacks is passed through for the caller to report)."""
    out: dict[str, torch.Tensor] = {}
    for name, (is_change, tensor) in overlay_changes(stored).items():
        if name not in base:
            out[name] = tensor
        elif is_change:
            out[name] = (base[name].float() + tensor).to(base[name].dtype)
        else:
            out[name] = tensor.to(base[name].dtype)
    return out
