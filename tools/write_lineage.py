"""Write ``lineage.json`` beside shipped heads from their recipe's deterministic split, without retraining.

``python tools/write_lineage.py --data-root ../shared/data [NAME ...]`` rebuilds each recipe's data over the shared
data folder (the same split the head was trained on: hash buckets and seeded permutations), writes the hashes its
training and dev inputs have (:func:`interpeval.training.recipes.prepared_lineage`), records in ``card.json`` what
was hashed and the languages the head serves, and rewrites ``MODEL_CARD.md``. The weights are not touched.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from interpeval.models import lineage
from interpeval.models.zoo import artifacts_dir
from interpeval.training.cards import model_card
from interpeval.training.examples import lineage_summary
from interpeval.training.recipes import RECIPES, prepared_lineage


def write_lineage(folder: Path, data_root: Path) -> dict:
    """Rebuild the recipe named ``folder.name`` and write its lineage and card fields into ``folder``."""
    recipe = RECIPES[folder.name]
    prepared = recipe.build(data_root)
    record = prepared_lineage(prepared)
    (folder / lineage.LINEAGE).write_text(json.dumps(record, indent=1) + "\n")
    card = json.loads((folder / "card.json").read_text())
    if card.get("n_train") != len(prepared.train):
        raise SystemExit(f"{folder.name}: the card trained on {card.get('n_train')} examples, the recipe now builds "
                         f"{len(prepared.train)}: not the same split")
    card.update(lineage=lineage_summary(record), languages=recipe.served())
    (folder / "card.json").write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")
    (folder / "MODEL_CARD.md").write_text(model_card(card))
    return card["lineage"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-root", type=Path, default=Path("../shared/data"))
    parser.add_argument("names", nargs="*", help="shipped heads (default: every one made by a recipe)")
    args = parser.parse_args()
    folders = [artifacts_dir() / n for n in args.names] or sorted(
        p for p in artifacts_dir().iterdir() if p.name in RECIPES and (p / "card.json").is_file())
    for folder in folders:
        print(folder.name, json.dumps(write_lineage(folder, args.data_root)))


if __name__ == "__main__":
    main()
