"""Where converted zoo bases live, and how one is put there whole: shared by the zoo and the converters it calls
(:mod:`interpeval.models.e5`, :mod:`interpeval.models.mpnet`), which so need not import the zoo back."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def cache_dir() -> Path:
    """``$INTERPEVAL_CACHE`` or the platform's user cache dir for interpeval (converted models live here)."""
    env = os.environ.get("INTERPEVAL_CACHE")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("interpeval"))


def replace_dir(built: Path, out: Path) -> None:
    """Move a folder built beside ``out`` into its place, so that a converted base appears whole or not at all."""
    built.chmod(0o755)
    if out.exists():
        shutil.rmtree(out)
    built.rename(out)


__all__ = ["cache_dir", "replace_dir"]
