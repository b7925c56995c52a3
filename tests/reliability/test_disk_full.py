"""A full disk under a run, a study write and a training checkpoint: one clear error naming the path, everything
written before kept, and the same command resumes once space is back.

The disk is a real 4 MiB tmpfs mounted for the test (``small_disk``), filled with one file that is deleted to give
the space back.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import pytest
import torch

from interpeval.errors import InterpevalError
from interpeval.models import load
from interpeval.store import Store
from interpeval.store.sqlite import StoreUnavailable
from interpeval.store.studies import Studies
from interpeval.training.artifact import CHECKPOINT
from interpeval.training.examples import read_tsv
from interpeval.training.loop import TrainConfig, train

SST2 = Path(__file__).parents[1] / "training" / "data" / "sst2-dev-head.tsv"


def fill(folder: Path, leave: int = 0) -> Path:
    """Fill ``folder``'s filesystem with one file, then free ``leave`` bytes of it; delete the file to free all."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
        except OSError:
            pass
    os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


def _lines(path: Path, n: int) -> Path:
    rows = (resources.files("interpeval") / "data" / "sentences" / "sst2-dev-20.tsv").read_text().splitlines()[1:]
    path.write_text("".join(row.split("\t")[0] + "\n" for row in rows[:n]), encoding="utf-8")
    return path


def _attribute(text_file: Path, store: Path) -> list[str]:
    return ["attribute", str(text_file), "--model", "tiny-sequence-classification", "--method", "saliency",
            "--store", str(store)]


@pytest.mark.slow
def test_a_run_and_a_study_write_on_a_full_disk(tmp_path, small_disk, cli):
    store = small_disk / "results.sqlite"
    earlier = cli(_attribute(_lines(tmp_path / "five.txt", 5), store))
    assert earlier.code == 0, earlier.err
    with Studies(store) as studies:
        admin, _ = studies.add_user("ada", "admin")

    filler = fill(small_disk, leave=192 * 1024)
    command = _attribute(_lines(tmp_path / "twenty.txt", 20), store)
    failed = cli(command)
    assert failed.code == 2 and "Traceback" not in failed.err, failed.err
    assert f"{store}: cannot be written: the disk is full" in " ".join(failed.err.split())

    # the disk is still full: the store opens, holds the earlier run whole and the interrupted one's prefix
    with Store(store) as db:
        first, interrupted = db.runs()
        assert first.status == "finished" and first.n_instances == 5
        assert interrupted.status != "finished" and 0 < interrupted.n_instances < 20  # stopped in the middle
        prefix = db.instances(interrupted.id)
    items = [{"key": str(i), "payload": {"text": "ünïcode " * 125}} for i in range(500)]  # ~0.5 MB: no slack fits it
    with Studies(store) as studies, pytest.raises(StoreUnavailable, match=f"{store}: cannot be written: the disk"):
        studies.create_study("big", "generic", items, created_by=admin.id)
    with Studies(store) as studies:
        assert studies.studies() == [] and [u.name for u in studies.users()] == ["ada"]

    filler.unlink()
    resumed = cli(command)
    assert resumed.code == 0, resumed.err
    assert f"{20 - len(prefix)} explained now" in resumed.out
    with Store(store) as db:
        first_again, done = db.runs()
        assert first_again == first and done.status == "finished" and done.n_instances == 20
        assert db.instances(done.id)[:len(prefix)] == prefix
    print(f"disk full, run: stopped after {len(prefix)} of 20 instances with one clear line; resumed the other "
          f"{20 - len(prefix)}; study write refused, store intact")


@pytest.mark.slow
def test_a_training_checkpoint_on_a_full_disk(small_disk):
    examples, names = read_tsv(SST2)
    config = TrainConfig(max_steps=6, batch_size=8, train_layers=1, lr=1e-3, save_every=1)
    kwargs = dict(label_names=names, progress=False)
    out = small_disk / "model"
    part = train("sequence-classification", "tiny-encoder", examples, out, config, steps_this_run=2, **kwargs)
    assert not part.finished and part.steps == 2

    filler = fill(small_disk)
    with pytest.raises(InterpevalError) as caught:
        train("sequence-classification", "tiny-encoder", examples, out, config, **kwargs)
    message = str(caught.value)
    assert str(out / f".{CHECKPOINT}.tmp") in message and "No space left on device" in message
    assert torch.load(out / CHECKPOINT, map_location="cpu", weights_only=False)["step"] == 2
    assert not (out / f".{CHECKPOINT}.tmp").exists()

    filler.unlink()
    done = train("sequence-classification", "tiny-encoder", examples, out, config, **kwargs)
    assert done.finished and done.steps == 6 and not (out / CHECKPOINT).exists()
    assert load(out, device="cpu").kind == "sequence-classification"
    print(f"disk full, training: {message}")
