"""What each way of storing a training run's changes costs in size and in dev score, side by side.

The wheel must stay under PyPI's 100 MB: a 12-layer, 768-wide encoder's full change in int4 is ~45 MB, more than the
room left beside the other heads. This reads a training checkpoint (``checkpoint.pt``, full-precision weights) of a
recipe, stores its changes against the base in each way (int8, int4, rank-r SVD factors in int8), reloads each and
scores the recipe's dev split (the split that selects checkpoints, never the held-out tests), next to the
full-precision weights.

    python bench/delta_storage.py zoo/mpnet-squad [--recipe mpnet-squad] [--ranks 32,64,96]
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import torch

from interpeval.models import load
from interpeval.models.load import apply_overlay
from interpeval.training.artifact import CHECKPOINT, overlay_tensors
from interpeval.training.recipes import RECIPES
from interpeval.training.scoring import PRIMARY_METRIC, evaluate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a training run's folder holding checkpoint.pt")
    parser.add_argument("--recipe", default="mpnet-squad")
    parser.add_argument("--data-root", type=Path, default=Path("../shared/data"))
    parser.add_argument("--ranks", default="32,64,96")
    args = parser.parse_args()
    recipe = RECIPES[args.recipe]
    state = torch.load(args.run / CHECKPOINT, map_location="cpu", weights_only=False)
    trained = state["params"]
    dev = recipe.build(args.data_root).dev
    metric = PRIMARY_METRIC[recipe.kind]
    settings = recipe.settings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = load(recipe.base, kind=recipe.kind, batch_size=64, max_length=settings["max_length"])
    if "evidence_head.weight" in trained:
        model.evidence_head = torch.nn.Linear(model.hf.config.hidden_size, 2)
    named = dict(model.hf.named_parameters())
    if model.evidence_head is not None:
        named.update({f"evidence_head.{n}": p for n, p in model.evidence_head.named_parameters()})
    prefix = f"{model.hf.base_model_prefix}."  # the encoder's own tensors: heads are stored whole, as training does
    base = {n: named[n].detach().clone() for n in trained if n.startswith(prefix)}
    params = [(n, torch.nn.Parameter(t)) for n, t in trained.items()]
    print(f"{args.recipe} at step {state['step']}, dev = {len(dev)} items, {metric}")
    print(f"{'storage':<28}{'MB':>8}{metric:>14}{'s':>8}")
    ways = [("full precision (fp32)", None), ("int8 changes", (8, None)), ("int4 changes", (4, None))]
    ways += [(f"rank-{r} factors, int8", (8, int(r))) for r in args.ranks.split(",")]
    model.hf.eval()
    for label, way in ways:
        started = time.perf_counter()
        if way is None:
            weights, size = trained, sum(t.numel() * 4 for t in trained.values())
        else:
            stored = overlay_tensors(params, base, *way)
            weights = apply_overlay(stored, base)
            size = sum(t.numel() * t.element_size() for t in stored.values())
        with torch.no_grad():
            for name, tensor in weights.items():
                named[name].copy_(tensor)
        score = evaluate(model, recipe.kind, dev)[metric]
        print(f"{label:<28}{size / 1e6:>8.1f}{score:>14.4f}{time.perf_counter() - started:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
