"""No question a QUACKIE classifier trained on is scored, whatever the data source: a full SQuADShifts file holds
the training paragraphs of the shipped heads (split by article hash), and their lineage drops them."""

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interpeval.benchmarks.quackie.cli import app
from interpeval.benchmarks.quackie.data import DATASETS, vendored_dir
from interpeval.training.splits import part_of

SHARED = Path(__file__).resolve().parents[4] / "shared" / "data" / "squad" / "squadshifts-new_wiki.json"


@pytest.mark.skipif(not SHARED.is_file(), reason="needs ../shared/data beside the checkout")
def test_heldout_on_a_full_file_leaves_out_the_training_articles_questions(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    for name in DATASETS.values():
        shutil.copy(vendored_dir() / name, data / name)
    # one article the recipe trained on (sha1('new_wiki/<title>') % 20 >= 5), added to the vendored NEW_WIKI sample
    full = json.loads(SHARED.read_text())["data"]
    sample = json.loads((data / DATASETS["NEW_WIKI"]).read_text())
    vendored = {a["title"] for a in sample["data"]}  # their paragraphs are test only
    trained = next(a for a in full if part_of(f"new_wiki/{a['title']}") == "train" and a["title"] not in vendored)
    sample["data"].append(trained)
    (data / DATASETS["NEW_WIKI"]).write_text(json.dumps(sample))
    n_trained = sum(len(p["qas"]) for p in trained["paragraphs"])
    result = CliRunner().invoke(app, ["heldout", "--classifier", "Classification", "--data-dir", str(data),
                                      "--max-questions", "3"])
    assert result.exit_code == 0, result.output
    report = {ds: json.loads(scores) for ds, scores in re.findall(r"Classification +(\S+) +(\{.*\})", result.output)}
    assert report["NEW_WIKI"]["trained_on"] == n_trained > 0
    assert report["SQuAD"]["trained_on"] == report["Reddit"]["trained_on"] == report["Amazon"]["trained_on"] == 0
