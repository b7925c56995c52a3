"""Re-store a trained artifact's changes at another precision, without retraining.

``python tools/requantize_overlay.py ARTIFACT_DIR --bits 4`` decodes ``overlay.safetensors`` and writes it again
with :func:`interpeval.training.artifact.quantized_change` (heads and fp16 changes unchanged). The weights change, so
re-measure the card's held-out scores on the result: re-running its ``interpeval train recipe`` command on the
directory skips training (the fingerprint matches) and scores the reloaded artifact again.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from safetensors import safe_open
from safetensors.torch import load_file, save_file

from interpeval.models.load import OVERLAY_JSON, OVERLAY_WEIGHTS, overlay_changes
from interpeval.training.artifact import quantized_change, storage_label


def requantize(artifact: Path, bits: int) -> None:
    weights = artifact / OVERLAY_WEIGHTS
    with safe_open(str(weights), "pt") as handle:
        metadata = handle.metadata()
    stored: dict = {}
    for name, (is_change, tensor) in overlay_changes(load_file(str(weights))).items():
        stored.update(quantized_change(name, tensor, bits) if is_change else {name: tensor})
    tmp = weights.with_suffix(".tmp")
    save_file(stored, str(tmp), metadata=metadata)
    shutil.copymode(weights, tmp)
    tmp.replace(weights)
    meta = json.loads((artifact / OVERLAY_JSON).read_text())
    meta["storage"] = storage_label(bits)
    (artifact / OVERLAY_JSON).write_text(json.dumps(meta, indent=2) + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("artifact", type=Path)
    parser.add_argument("--bits", type=int, choices=(4, 8), required=True)
    args = parser.parse_args()
    requantize(args.artifact, args.bits)
