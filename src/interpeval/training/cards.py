"""A trained artifact's ``MODEL_CARD.md``, written from its ``card.json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from interpeval.models import zoo


def init_summary(init: str) -> dict[str, Any]:
    """What the card says of a warm start: the artifact and how it was trained (its steps, wall time, command, and
    its own ``init`` when it was a warm start too)."""
    card_file = zoo.folder(init) / "card.json"
    card = json.loads(card_file.read_text()) if card_file.is_file() else {}
    return {"from": Path(init).name,
            **{k: card[k] for k in ("steps", "wall_time_s", "command", "lr", "init") if k in card}}



def _scores(metrics: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {v:.4f}" if isinstance(v, float) else f"{k} = {v}" for k, v in metrics.items())


def _init_lines(card: dict[str, Any]) -> list[str]:
    return [f"- warm start from `{init['from']}`, trained before by `{init.get('command', '?')}` "
            f"({init.get('steps', '?')} steps, lr {init.get('lr', '?')}, {init.get('wall_time_s', '?')} s): "
            "the next steps continue it with a new schedule" for init in zoo.init_chain(card)]


def model_card(card: dict[str, Any]) -> str:
    """``MODEL_CARD.md`` from ``card.json``: base, data and split, selection, held-out scores next to the trivial
    baseline, training cost and the command that reproduces it."""
    layers = "every layer and the head trained, word embeddings frozen" if card["train_layers"] is None else \
        f"top {card['train_layers']} layers + head trained"
    lines = [
        f"# {card['name']}", "", card["description"] or f"A {card['kind']} model fine-tuned by interpeval.", "",
        f"- kind: `{card['kind']}`; base: `{card['base']}` ({layers})",
        f"- data: {card['data'] or '(in-memory examples)'}",
        f"- split: {card['n_train']} train / {card['n_eval']} held-out (eval_fraction {card['eval_fraction']}, "
        f"seed {card['seed']})",
    ]
    if card.get("metrics"):
        lines.append(f"- seeded eval split of the examples ({card['n_eval']}; held out from training only as far as "
                     f"the examples are independent): {_scores(card['metrics'])}")
    selection = card.get("selection")
    if selection:
        lines.append(f"- model selection: {selection['metric']} on {selection['n_dev']} dev examples, best at step "
                     f"{selection['best_step']} ({selection['best_score']:.4f})"
                     + (f"; {selection['note']}" if selection.get("note") else ""))
    for name, test in (card.get("heldout") or {}).items():
        lines.append(f"- held-out **{name}** (n = {test['n']}; {test['what']}): {_scores(test['metrics'])}; "
                     f"trivial baseline ({test['baseline_name']}): {_scores(test['baseline'])}")
    if card.get("heldout") and card.get("test_max_length"):
        lines.append(f"- held-out tests scored with inputs of up to {card['test_max_length']} tokens")
    split = card.get("split")
    if split:
        lines.append("- exact split (files relative to the data folder):")
        lines += [f"  - {key}: {value}" for key, value in split.items()]
    lines += [
        f"- training: {card['steps']} steps ({card['epochs']:.2f} epochs), batch {card['batch_size']}, "
        f"lr {card['lr']}, max_length {card['max_length']}, on {card['device']}, {card['wall_time_s']} s",
        f"- command: `{card['command']}`",
        *_init_lines(card),
        *([f"- stored as {card['storage']}"] if card.get("storage") else []),
        *([f"- trained on: {card['lineage']['n']} content hashes in `{card['lineage']['file']}` "
           f"({card['lineage']['what']}); benchmarks leave these inputs out"] if card.get("lineage") else []), "",
    ]
    return "\n".join(lines)
