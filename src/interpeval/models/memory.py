"""How many rows one forward (and backward) pass may hold: the rule behind ``--batch-size auto``.

On a GPU the batch is bounded by memory: the activations one input keeps for the backward pass grow with its length
(linearly, and quadratically through the attention scores), and a batch that does not fit stops the run. The rule
takes the transformer's shape from its config, the activation estimate of Korthikanti et al. (2022, "Reducing
Activation Recomputation in Large Transformer Models", §4.1: ``L·(34·H + 5·A·L)`` bytes per layer and input of
``L`` tokens, hidden size ``H``, ``A`` heads, 16-bit activations), scales it to the element size the model computes
in, and fits as many full-length rows as the memory left after the weights allows, with a fifth kept free for the
allocator and the framework's workspaces, rounded down to a power of two (the batch size is part of some run keys:
a resumed run, whose GPU has a little more or less memory free, must keep it). On a CPU memory is not the bound (the machine swaps long before a
batch of 32 fills it; speed is): ``auto`` keeps :data:`DEFAULT_ROWS` there unless a memory figure is given.
"""

from __future__ import annotations

from typing import Any

import torch

#: rows per pass where no memory figure applies (a CPU), and the most ``auto`` ever picks
DEFAULT_ROWS = 32
MAX_ROWS = 256
#: the share of the memory the rule lets a batch use
USABLE = 0.8
#: a pass without gradients keeps about two layers' activations alive at a time (the input and output of one)
LAYERS_ALIVE_WITHOUT_GRADIENTS = 2


def row_bytes(config: Any, length: int, element_size: int = 4, gradients: bool = True) -> int:
    """Activation bytes one input of ``length`` tokens keeps through a pass (with its backward when ``gradients``)."""
    hidden, heads, layers = config.hidden_size, config.num_attention_heads, config.num_hidden_layers
    per_layer = length * (34 * hidden + 5 * heads * length) * element_size / 2
    return int(per_layer * (layers if gradients else min(layers, LAYERS_ALIVE_WITHOUT_GRADIENTS)))


def weight_bytes(module: torch.nn.Module) -> int:
    """Bytes of the module's parameters and buffers."""
    return sum(t.numel() * t.element_size() for t in (*module.parameters(), *module.buffers()))


def compute_element_size(model: Any) -> int:
    """Bytes per activation element: 2 under bf16/fp16 autocast or with 16-bit weights, else the weights' size."""
    if getattr(model, "autocast", None) is not None:
        return torch.finfo(model.autocast).bits // 8
    return next(model.hf.parameters()).element_size()


def rows_for_memory(model: Any, memory: int, length: int | None = None, gradients: bool = True) -> int:
    """Rows of ``length`` tokens (default: the model's ``max_length``) that fit in ``memory`` bytes (the device's
    memory for this model: its weights included), rounded down to a power of two — at least 1, at most
    :data:`MAX_ROWS`."""
    length = length or model.max_length
    per_row = row_bytes(model.hf.config, length, compute_element_size(model), gradients)
    room = memory * USABLE - weight_bytes(model.hf)
    rows = max(1, min(MAX_ROWS, int(room // per_row)))
    return 1 << (rows.bit_length() - 1)  # a power of two: a rerun whose free memory differs a little keeps it


def device_memory(device: torch.device, resident: int = 0) -> int | None:
    """The memory a model on ``device`` can use: a CUDA device's free memory plus ``resident`` bytes already on it
    (the model's own weights); None on other devices (no memory bound applies)."""
    if device.type != "cuda":
        return None
    free, _ = torch.cuda.mem_get_info(device)
    return int(free) + resident


def auto_batch_size(model: Any, memory: int | None = None) -> int:
    """The ``auto`` batch size of ``model`` on its device: :func:`rows_for_memory` with ``memory`` bytes (a figure
    given, e.g. ``--memory-gb``) or the device's own memory; :data:`DEFAULT_ROWS` where neither exists (a CPU)."""
    if memory is None:
        on_device = weight_bytes(model.hf) if model.device.type == "cuda" else 0
        memory = device_memory(model.device, on_device)
    if memory is None:
        return DEFAULT_ROWS
    return rows_for_memory(model, memory)
