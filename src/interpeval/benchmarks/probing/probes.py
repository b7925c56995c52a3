"""Probing classifiers trained on every layer at once (one independent probe per layer, batched in torch).

Probes of different layers share nothing but the order of mini-batches: parameters are stacked ``[L, ...]`` and
AdamW updates element-wise, so one batched run trains L independent probes (each with its own initialisation)
at a fraction of the Python overhead of L runs.

Two training setups:

* default: features standardised with the training part's mean and std per layer; plain linear logistic
  regression (or an MLP with ReLU), unweighted cross-entropy, AdamW, ``epochs`` passes, and the epoch with the
  best validation weighted F1 is kept per layer (model selection), then scored on ``te``.
* ``official=True`` (REFERENCE §3.2): raw features; ``logreg`` = Linear → **Sigmoid** with cross-entropy applied
  to the sigmoid outputs; ``mlp`` = Linear(d, 256) → Dropout(0.2) → Sigmoid → Linear(256, C); cross-entropy with
  ``compute_class_weight("balanced")``; AdamW with torch defaults; batches of 64; ``zero_grad`` every batch but
  ``step`` only after odd batch indices or the last batch; 10 epochs; no model selection (the last epoch is
  scored on ``te``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import torch
from torch.nn import functional as F

PROBES = ("logreg", "mlp")


@contextmanager
def _one_thread() -> Iterator[None]:
    """Probe matrices are small: torch's intra-op threads only spin (40× slower on a busy 2-core machine)."""
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


class LayerwiseProbe:
    """``fit(X_tr [L, N, H], y_tr, X_va, y_va)``, then ``predict(X [L, N, H]) -> [L, N]``.

    ``kind`` is ``logreg`` or ``mlp``; ``epochs``, ``lr``, ``batch_size`` and ``weight_decay`` default to the
    setup's values when ``None``. ``seed`` fixes initialisation, dropout and batch order.
    """

    def __init__(self, kind: str = "logreg", official: bool = False, epochs: int | None = None,
                 lr: float | None = None, batch_size: int | None = None, weight_decay: float | None = None,
                 hidden_size: int = 256, dropout: float = 0.2, seed: int = 0) -> None:
        self.kind = kind
        self.official = official
        self.epochs = epochs
        self.lr = lr
        self.batch_size = batch_size
        self.weight_decay = weight_decay
        self.hidden_size = hidden_size
        self.dropout = dropout
        self.seed = seed

    # ------------------------------------------------------------------------------------------------ setup
    def _settings(self) -> tuple[int, float, int, float]:
        defaults = (10, 1e-3, 64, 0.01) if self.official else (20, 3e-3, 64, 0.01)
        epochs, lr, batch, wd = (v if v is not None else d for v, d in
                                 zip((self.epochs, self.lr, self.batch_size, self.weight_decay), defaults, strict=True))
        return int(epochs), float(lr), int(batch), float(wd)

    def _init(self, n_layers: int, n_in: int, n_out: int, gen: torch.Generator) -> list[torch.Tensor]:
        """torch.nn.Linear's default init (uniform ±1/sqrt(fan_in)) for each layer's copy."""
        bound = 1 / math.sqrt(n_in)
        w = (torch.rand(n_layers, n_in, n_out, generator=gen) * 2 - 1) * bound
        b = (torch.rand(n_layers, 1, n_out, generator=gen) * 2 - 1) * bound
        return [w.requires_grad_(), b.requires_grad_()]

    def _forward(self, params: list[torch.Tensor], x: torch.Tensor, train: bool, gen: torch.Generator) -> torch.Tensor:
        if self.kind == "logreg":
            out = torch.baddbmm(params[1], x, params[0])
            return torch.sigmoid(out) if self.official else out
        hidden = torch.baddbmm(params[1], x, params[0])
        if self.official:
            if train and self.dropout:
                keep = torch.rand(hidden.shape, generator=gen) >= self.dropout
                hidden = hidden * keep / (1 - self.dropout)
            hidden = torch.sigmoid(hidden)
        else:
            hidden = torch.relu(hidden)
            if train and self.dropout:
                keep = torch.rand(hidden.shape, generator=gen) >= self.dropout
                hidden = hidden * keep / (1 - self.dropout)
        return torch.baddbmm(params[3], hidden, params[2])

    # ------------------------------------------------------------------------------------------------ API
    def fit(self, x_train: np.ndarray, y_train: np.ndarray, x_val: np.ndarray | None = None,
            y_val: np.ndarray | None = None, n_classes: int | None = None) -> LayerwiseProbe:
        with _one_thread():
            return self._fit(x_train, y_train, x_val, y_val, n_classes)

    def _fit(self, x_train: np.ndarray, y_train: np.ndarray, x_val: np.ndarray | None,
             y_val: np.ndarray | None, n_classes: int | None) -> LayerwiseProbe:
        if self.kind not in PROBES:
            raise ValueError(f"unknown probe {self.kind!r}; choose from {', '.join(PROBES)}")
        epochs, lr, batch, wd = self._settings()
        gen = torch.Generator().manual_seed(self.seed)
        x_tr = torch.as_tensor(np.asarray(x_train, dtype=np.float32))
        y_tr = torch.as_tensor(np.asarray(y_train, dtype=np.int64))
        n_layers, n, d = x_tr.shape
        c = int(n_classes if n_classes is not None else int(y_tr.max()) + 1)
        if self.official:
            self.mean_, self.std_ = torch.zeros(n_layers, 1, d), torch.ones(n_layers, 1, d)
            from sklearn.utils.class_weight import compute_class_weight

            present = np.unique(y_train)
            weight = torch.zeros(c)
            weight[present] = torch.as_tensor(compute_class_weight("balanced", classes=present, y=np.asarray(y_train)),
                                              dtype=torch.float32)
        else:
            self.mean_ = x_tr.mean(1, keepdim=True)
            self.std_ = x_tr.std(1, keepdim=True).clamp(min=1e-6)
            weight = None
        x_tr = (x_tr - self.mean_) / self.std_
        params = self._init(n_layers, d, c if self.kind == "logreg" else self.hidden_size, gen)
        if self.kind == "mlp":
            params += self._init(n_layers, self.hidden_size, c, gen)
        optimizer = torch.optim.AdamW(params, lr=lr, weight_decay=wd)
        select = not self.official and x_val is not None and y_val is not None and len(y_val) > 0
        best = np.full(n_layers, -1.0)
        best_params = [p.detach().clone() for p in params]
        self.steps_ = 0
        n_batches = math.ceil(n / batch)
        for _ in range(epochs):
            order = torch.randperm(n, generator=gen)
            for i in range(n_batches):
                rows = order[i * batch:(i + 1) * batch]
                logits = self._forward(params, x_tr[:, rows], True, gen)
                loss = F.cross_entropy(logits.reshape(-1, c), y_tr[rows].repeat(n_layers), weight=weight) * n_layers
                optimizer.zero_grad()
                loss.backward()
                # QUIRK (official): step only after odd batch indices or the last batch.
                if not self.official or (i + 1) % 2 == 0 or i == n_batches - 1:
                    optimizer.step()
                    self.steps_ += 1
            if select:
                self.params_ = params
                scores = _weighted_f1_layers(self.predict(x_val), np.asarray(y_val))
                better = scores > best
                best[better] = scores[better]
                mask = torch.as_tensor(better)
                for kept, p in zip(best_params, params, strict=True):
                    kept[mask] = p.detach()[mask]
        self.params_ = best_params if select else [p.detach() for p in params]
        self.n_classes_ = c
        return self

    def decision_function(self, x: np.ndarray) -> np.ndarray:
        """Per layer class scores ``[L, N, C]`` (the probe's outputs before argmax)."""
        xt = (torch.as_tensor(np.asarray(x, dtype=np.float32)) - self.mean_) / self.std_
        with torch.no_grad(), _one_thread():
            return self._forward(self.params_, xt, False, torch.Generator()).numpy()

    def predict(self, x: np.ndarray) -> np.ndarray:
        return self.decision_function(x).argmax(-1)

    def log_loss_bits(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Per layer, the code length of ``y`` under the probe's softmax, in bits (for the MDL probe)."""
        logits = torch.as_tensor(self.decision_function(x))
        logp = torch.log_softmax(logits, -1)
        idx = torch.as_tensor(np.asarray(y, dtype=np.int64))
        picked = logp[:, torch.arange(len(idx)), idx]
        return (-picked.sum(1) / math.log(2)).numpy()


def _weighted_f1_layers(pred: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Weighted F1 (sklearn's ``average="weighted", zero_division=0``) of each layer's predictions, vectorised:
    model selection calls it every epoch, where sklearn's per-call validation would dominate the run time."""
    n_layers, n = pred.shape
    c = int(max(pred.max(initial=0), y.max(initial=0))) + 1
    support = np.bincount(y, minlength=c)
    hits = pred == y[None, :]
    tp = np.stack([np.bincount(y[h], minlength=c) for h in hits])
    predicted = np.stack([np.bincount(p, minlength=c) for p in pred])
    denom = predicted + support[None, :]
    f1 = np.divide(2 * tp, denom, out=np.zeros((n_layers, c)), where=denom > 0)
    return (f1 * support[None, :]).sum(1) / max(n, 1)
