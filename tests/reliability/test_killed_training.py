"""A training killed with SIGKILL in the middle of a file write resumes to the weights of an uninterrupted run.

The run is a real recipe-sized fine-tuning (the tiny encoder, top layer and head, 6 steps, a checkpoint every step)
in a child process that kills itself with SIGKILL halfway through writing a file: first the checkpoint of step 3,
then, in a second try, the final artifact's weights. Each time the output folder holds no half-written file where
a reader looks (the checkpoint is the intact one of the step before; no artifact at all), and the run started
again with the same call finishes with weights equal, tensor for tensor, to the uninterrupted run's (same seed).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from interpeval.training.artifact import CHECKPOINT, STAGING
from interpeval.training.examples import read_tsv
from interpeval.training.loop import TrainConfig, train

DATA = Path(__file__).parents[1] / "training" / "data" / "sst2-dev-head.tsv"
SETTINGS = dict(max_steps=6, batch_size=8, train_layers=1, lr=1e-3, save_every=1)

# the child: the same call, the file writer replaced by one that writes half of the n-th file with that name, then
# SIGKILLs its own process
CHILD = textwrap.dedent("""
    import os, signal
    from interpeval.training import artifact, examples as readers, loop
    real, seen = artifact.write_whole, [0]

    def half_then_kill(path, data, what):
        if path.name == {name!r}:
            seen[0] += 1
            if seen[0] == {nth}:
                with open(path, "wb") as handle:
                    handle.write(data[: len(data) // 2])
                    handle.flush()
                    os.fsync(handle.fileno())
                os.kill(os.getpid(), signal.SIGKILL)
        real(path, data, what)

    artifact.write_whole = loop.write_whole = half_then_kill  # the artifact's files and the checkpoint
    examples, names = readers.read_tsv({data!r})
    loop.train("sequence-classification", "tiny-encoder", examples, {out!r}, loop.TrainConfig(**{kwargs!r}),
               label_names=names, progress=False)
""")


def _killed_child(out: Path, name: str, nth: int) -> None:
    script = CHILD.format(name=name, nth=nth, data=str(DATA), out=str(out), kwargs=SETTINGS)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]


def _weights(folder: Path) -> dict[str, torch.Tensor]:
    return load_file(str(folder / "overlay.safetensors"))


@pytest.mark.slow
def test_training_killed_while_writing_resumes_to_the_uninterrupted_weights(tmp_path):
    examples, names = read_tsv(DATA)
    full = train("sequence-classification", "tiny-encoder", examples, tmp_path / "full", TrainConfig(**SETTINGS), label_names=names,
                 progress=False)
    assert full.finished and full.steps == 6
    out = tmp_path / "killed"

    # 1. killed halfway through writing the checkpoint of step 3: the one of step 2 is intact, nothing else is there
    _killed_child(out, f".{CHECKPOINT}.tmp", 3)
    assert (out / f".{CHECKPOINT}.tmp").stat().st_size > 0  # the half-written checkpoint, never read
    assert torch.load(out / CHECKPOINT, map_location="cpu", weights_only=False)["step"] == 2
    assert not (out / "overlay.safetensors").exists() and not (out / "card.json").exists()

    # 2. resumed from step 2 and killed halfway through writing the artifact's weights: still no artifact in out
    _killed_child(out, "overlay.safetensors", 1)
    assert (out / STAGING / "overlay.safetensors").stat().st_size > 0  # the half-written one, in the staging folder
    assert not (out / "overlay.safetensors").exists() and not (out / "card.json").exists()
    assert torch.load(out / CHECKPOINT, map_location="cpu", weights_only=False)["step"] == 5

    # 3. the same call again finishes; the weights equal the uninterrupted run's exactly
    done = train("sequence-classification", "tiny-encoder", examples, out, TrainConfig(**SETTINGS), label_names=names,
                 progress=False)
    assert done.finished and done.steps == 6
    assert not (out / CHECKPOINT).exists() and not (out / STAGING).exists()
    expected, resumed = _weights(tmp_path / "full"), _weights(out)
    assert expected.keys() == resumed.keys()
    unequal = [name for name in expected if not torch.equal(expected[name], resumed[name])]
    print(f"killed training: {len(expected)} stored tensors, {len(unequal)} differ from the uninterrupted run")
    assert unequal == []
    assert done.metrics == full.metrics
