"""`interpeval plm review --study`: the web app's rationale study holds the review sheet's sample (same seed, same
originals with their partners, same order), so people turn those silver rationales into gold."""

from typer.testing import CliRunner

from interpeval.benchmarks.plm.records import GoldenRecord, write_golden
from interpeval.cli import app
from interpeval.errors import OptionError
from interpeval.store.studies import Studies


def _golden(path, lang):
    records = []
    for n in range(5):
        tokens = ["The", f"dog{n}", "[MASK]", "big", "."]
        meta = {"lang": lang, "dimension": "grammar", "label": "silver"}
        ori = GoldenRecord(2 * n, " ".join(tokens), tokens, "is", [[1]], "ori", [2 * n + 1], dict(meta))
        moved = ["In", "fact", "the", f"dog{n}", "[MASK]", "big", "."]
        dis = GoldenRecord(2 * n + 1, " ".join(moved), moved, "is", [[3]], "disturb", [],
                           {**meta, "perturbation": "ins_del", "ori_id": 2 * n}, adv_type="ins_del")
        records += [ori, dis]
    return write_golden(path, records)


def test_review_study_takes_the_sheets_sample(tmp_path):
    golden = _golden(tmp_path / "plm-en.golden.jsonl", "en")
    store = tmp_path / "s.sqlite"
    with Studies(store) as studies:
        studies.add_user("ann", "annotator")
    args = ["plm", "review", str(golden), "--n", "3", "--seed", "11", "--out", str(tmp_path / "review"),
            "--study", "gold rationales", "--annotator", "ann", "--store", str(store)]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    rows = [line.split("\t") for line in (tmp_path / "review" / "review.tsv").read_text().splitlines()[1:]]
    with Studies(store) as studies:
        (study,) = studies.studies()
        items = studies.items(study.id)
        ann = next(u for u in studies.users() if u.name == "ann")
        assigned = studies.assignments(ann.id, study.id)
    assert study.kind == "plm-rationale" and study.config["plm_review"]["seed"] == 11
    assert [it.key for it in items] == [f"{row[2]}:{row[1]}" for row in rows]  # same records, same order
    assert len(items) == 6 and sum(it.payload["sample_type"] == "ori" for it in items) == 3
    assert all(it.payload["interpeval"]["label"] == "silver" for it in items)
    assert len(assigned) == len(items)
    # another seed is another sample: the study follows the sheet, not a fixed slice
    again = CliRunner().invoke(app, ["plm", "review", str(golden), "--n", "3", "--seed", "12", "--out",
                                     str(tmp_path / "r2"), "--study", "second", "--store", str(store)])
    assert again.exit_code == 0, again.output
    rows2 = [line.split("\t")[1] for line in (tmp_path / "r2" / "review.tsv").read_text().splitlines()[1:]]
    with Studies(store) as studies:
        second = studies.items(studies.studies()[-1].id)
    assert [it.key.split(":")[1] for it in second] == rows2 and rows2 != [row[1] for row in rows]


def test_review_study_names_an_unknown_annotator(tmp_path):
    golden = _golden(tmp_path / "plm-en.golden.jsonl", "en")
    done = CliRunner().invoke(app, ["plm", "review", str(golden), "--out", str(tmp_path / "r"), "--study", "x",
                                    "--annotator", "nobody", "--store", str(tmp_path / "s.sqlite")])
    assert isinstance(done.exception, OptionError) and "nobody" in str(done.exception)  # main() prints it
    done = CliRunner().invoke(app, ["plm", "review", str(golden), "--out", str(tmp_path / "r"),
                                    "--annotator", "ann"])
    assert isinstance(done.exception, OptionError) and "--study" in str(done.exception)
