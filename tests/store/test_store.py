import json
import math

import pandas as pd
import pytest

from interpeval.store import Store, fingerprint_files


def test_same_command_resumes_same_run(tmp_path):
    path = tmp_path / "r.sqlite"
    with Store(path) as store:
        run = store.run("quackie", {"method": "ig", "steps": 50}, model="m", data_fingerprint="d")
        run.record("a", {"scores": [1.0, 2.0]}, {"iou": 1.0})
    with Store(path) as store:
        again = store.run("quackie", {"steps": 50, "method": "ig"}, model="m", data_fingerprint="d")
        other = store.run("quackie", {"method": "ig", "steps": 20}, model="m", data_fingerprint="d")
        assert again.id == run.id
        assert other.id != run.id
        assert again.done_ids() == {"a"}
        assert other.done_ids() == set()


def test_record_is_atomic_and_rejects_duplicates(tmp_path):
    with Store(tmp_path / "r.sqlite") as store:
        run = store.run("b", {})
        run.record("x", {"v": 1}, {"m": 0.5})
        with pytest.raises(ValueError, match="already recorded"):
            run.record("x", {"v": 2}, {"m": 0.9})
        with pytest.raises(TypeError):
            run.record("y", {"v": object()}, {"m": 0.1})
        assert run.done_ids() == {"x"}
        assert [m["value"] for m in store.metrics(run.id)] == [0.5]
        assert store.instances(run.id) == [{"instance_id": "x", "v": 1}]


def test_run_metrics_nan_and_finish(tmp_path):
    with Store(tmp_path / "r.sqlite") as store:
        run = store.run("b", {"k": 1}, model="tiny")
        run.add_metrics({"iou": 0.25, "snr": math.nan}, group="sum")
        run.add_metrics({"iou": 0.5}, group="sum")
        assert run.metrics("sum") == {"iou": 0.5, "snr": None}
        run.finish()
        info = store.get_run(run.id)
        assert info.status == "finished" and info.model == "tiny" and info.config == {"k": 1}
        with pytest.raises(KeyError):
            store.get_run(run.id + 1)


@pytest.mark.parametrize("suffix", [".csv", ".json", ".parquet"])
def test_export_formats(tmp_path, suffix):
    with Store(tmp_path / "r.sqlite") as store:
        run = store.run("b", {})
        run.record("1", {"pred": [0, 1]}, {"acc": 1.0})
        run.record("2", {"pred": [1, 1]}, {"acc": 0.0})
        out = store.export(run.id, tmp_path / f"m{suffix}")
        if suffix == ".csv":
            frame = pd.read_csv(out)
        elif suffix == ".parquet":
            frame = pd.read_parquet(out)
        else:
            frame = pd.DataFrame(json.loads(out.read_text()))
        assert list(frame["value"]) == [1.0, 0.0]
        with pytest.raises(ValueError, match="unknown export format"):
            store.export(run.id, tmp_path / "m.xlsx")


def test_fingerprint_changes_with_content(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("one")
    first = fingerprint_files(a)
    a.write_text("two")
    assert fingerprint_files(a) != first
