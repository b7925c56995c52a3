"""Carry a zoo base encoder to a remote GPU machine that cannot install the encoder packages, in a few tens of MB.

``pack NAME OUT`` writes OUT/<NAME>/ with the config and tokenizer files and ``weights.safetensors``: every matrix
in int8 with one scale per row, vectors in fp32, and (``--vocab-from``) only the word-embedding rows of the pieces
that occur in the given recipes' texts. ``unpack PACKED ZOO_DIR`` rebuilds a loadable directory (rows left out are
zero); with ``INTERPEVAL_ZOO_DIR=ZOO_DIR`` the zoo name resolves to it there, so trained artifacts name the real
base. Training changes only layers above the frozen word embeddings, and the artifact's scores are measured again
on the real base after the trip back (``interpeval train recipe`` cards record both machines' numbers).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"


def _vocab(tokenizer, recipes: list[str], data_root: Path) -> torch.Tensor:
    from interpeval.training.recipes import RECIPES

    ids: set[int] = set(tokenizer.all_special_ids)
    for name in recipes:
        prepared = RECIPES[name].build(data_root)
        items = prepared.train + prepared.dev + [e for t in prepared.tests.values() for e in t.examples]
        for item in items:
            for text in [getattr(item, f, None) for f in ("text", "pair", "question", "context")] + \
                    list(getattr(item, "options", []) or []):
                if isinstance(text, str) and text:
                    ids.update(tokenizer(text, add_special_tokens=False)["input_ids"])
    return torch.tensor(sorted(ids))


def pack(name: str, out: Path, recipes: list[str], data_root: Path) -> None:
    from transformers import AutoTokenizer

    from interpeval.models import zoo

    source = zoo.path(name)
    target = out / name
    target.mkdir(parents=True, exist_ok=True)
    for file in source.iterdir():
        if file.suffix in (".json", ".txt", ".model") and file.name != "conversion.json":
            shutil.copy(file, target / file.name)
    state = load_file(str(next(source.glob("*.safetensors"))))
    packed: dict[str, torch.Tensor] = {}
    for key, tensor in state.items():
        key = key.removeprefix("bert.")
        if not tensor.is_floating_point():  # buffers such as position_ids are rebuilt by the model
            continue
        if key == WORD_EMBEDDINGS and recipes:
            rows = _vocab(AutoTokenizer.from_pretrained(str(source)), recipes, data_root)
            packed["vocab_rows"], packed["vocab_size"] = rows, torch.tensor([tensor.shape[0]])
            tensor = tensor[rows]
        if tensor.dim() == 2:
            scale = (tensor.abs().amax(1) / 127).clamp_min(1e-12)
            packed[f"{key}.q8"] = torch.round(tensor / scale[:, None]).to(torch.int8).contiguous()
            packed[f"{key}.q8scale"] = scale.float().contiguous()
        else:
            packed[key] = tensor.float().contiguous()
    save_file(packed, str(target / "weights.safetensors"))
    print(f"{target}: {(target / 'weights.safetensors').stat().st_size / 1e6:.1f} MB")


def unpack(packed_dir: Path, zoo_dir: Path) -> None:
    from transformers import AutoConfig, BertModel

    for folder in sorted(p for p in packed_dir.iterdir() if (p / "weights.safetensors").exists()):
        packed = load_file(str(folder / "weights.safetensors"))
        state: dict[str, torch.Tensor] = {}
        for key, tensor in packed.items():
            if key.endswith(".q8"):
                state[key[:-3]] = tensor.float() * packed[f"{key}scale"][:, None]
            elif not key.endswith(".q8scale") and key not in ("vocab_rows", "vocab_size"):
                state[key] = tensor
        if "vocab_rows" in packed:
            full = torch.zeros(int(packed["vocab_size"][0]), state[WORD_EMBEDDINGS].shape[1])
            full[packed["vocab_rows"]] = state[WORD_EMBEDDINGS]
            state[WORD_EMBEDDINGS] = full
        target = zoo_dir / folder.name
        target.mkdir(parents=True, exist_ok=True)
        for file in folder.iterdir():
            if file.name != "weights.safetensors":
                shutil.copy(file, target / file.name)
        model = BertModel(AutoConfig.from_pretrained(str(folder)), add_pooling_layer="pooler.dense.weight" in state)
        missing, unexpected = model.load_state_dict(state, strict=False)
        if unexpected or [m for m in missing if "position_ids" not in m]:
            raise SystemExit(f"{folder}: missing {missing} unexpected {unexpected}")
        model.save_pretrained(str(target))
        print(f"{target}: unpacked")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack")
    p.add_argument("name")
    p.add_argument("out", type=Path)
    p.add_argument("--vocab-from", nargs="*", default=[], help="recipes whose texts choose the embedding rows kept")
    p.add_argument("--data-root", type=Path, default=Path("../shared/data"))
    u = sub.add_parser("unpack")
    u.add_argument("packed", type=Path)
    u.add_argument("zoo_dir", type=Path)
    args = parser.parse_args()
    if args.command == "pack":
        pack(args.name, args.out, args.vocab_from, args.data_root)
    else:
        unpack(args.packed, args.zoo_dir)


if __name__ == "__main__":
    main()
