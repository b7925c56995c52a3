import json

from typer.testing import CliRunner

from interpeval.benchmarks.expmrc.cli import app


def test_baselines_command_end_to_end(tmp_path, span_file, choice_file):
    """Table 3 through the public command: a tiny random QA model answers the span subset, the overlap scorer the
    choice subset; Markdown, JSON and HTML are written and every run lands in the store."""
    data = tmp_path / "data"
    for subset, source in (("squad", span_file), ("race", choice_file)):
        (data / subset).mkdir(parents=True)
        (data / subset / f"expmrc-{subset}-dev.json").write_text(source.read_text())
    out, store = tmp_path / "out", tmp_path / "store.sqlite"
    args = ["baselines", "--subsets", "squad,race", "--data-dir", str(data), "--qa-model", "tiny-extractive-qa",
            "--out", str(out), "--store", str(store)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    table = json.loads((out / "table3.json").read_text())
    rows = {r["System"]: r for r in table["rows"]}
    # the tiny model has no evidence head: no pseudo-data row; PA Sent. has no value on the choice subset
    assert "Pseudo-data training (evidence head)" not in rows
    assert rows["PA Sent."]["RACE+ Ans."] != rows["PA Sent."]["RACE+ Ans."]  # NaN
    assert rows["GA Sent. (gold answer; upper bound)"]["SQuAD Ans."] == 100.0
    assert table["provenance"]["model"]["SQuAD"] == "tiny-extractive-qa"
    assert "<table>" in (out / "table3.html").read_text()
    assert json.loads((out / "squad" / "mss.json").read_text()).keys() == {"q1", "q2"}
    # re-running resumes the same runs instead of adding new ones
    assert CliRunner().invoke(app, args).exit_code == 0
    from interpeval.store import Store

    with Store(store) as db:
        # squad: MSS, MSS w/ Ques., PA, GA, GE, human; race (one article without evidences): MSS, MSS w/ Ques., GA
        assert len(db.runs("expmrc")) == 9


def test_human_command(span_file):
    result = CliRunner().invoke(app, ["human", str(span_file)])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["SKIP"] == 1


def test_baselines_default_to_the_zoo_qa_head_of_each_language(tmp_path, span_file, monkeypatch):
    """Without --qa-model/--qa-model-zh each span subset is answered by the zoo's QA head of its language (English
    SQuAD and Chinese CMRC 2018 heads differ); "" leaves that language's model rows out."""
    from interpeval.models import zoo

    asked = []

    def shipped_heads(kind, language):
        asked.append((kind, language))
        return ["tiny-extractive-qa"]

    monkeypatch.setattr(zoo, "shipped_heads", shipped_heads)
    data = tmp_path / "data"
    for subset in ("squad", "cmrc2018"):
        (data / subset).mkdir(parents=True)
        text = span_file.read_text().replace("expmrc-squad", f"expmrc-{subset}")
        (data / subset / f"expmrc-{subset}-dev.json").write_text(text)
    base = ["baselines", "--subsets", "squad,cmrc2018", "--data-dir", str(data), "--no-store"]
    result = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    provenance = json.loads((tmp_path / "a" / "table3.json").read_text())["provenance"]["model"]
    assert provenance == {"SQuAD": "tiny-extractive-qa", "CMRC 2018": "tiny-extractive-qa"}
    assert asked == [("extractive-qa", "en"), ("extractive-qa", "zh")]
    asked.clear()
    result = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "b"), "--qa-model-zh", ""])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "b" / "table3.json").read_text())["provenance"]["model"] == {
        "SQuAD": "tiny-extractive-qa", "CMRC 2018": "none"}
    assert asked == [("extractive-qa", "en")]


def test_questions_whose_passage_the_answer_model_trained_on_are_left_out_and_counted(tmp_path, span_file,
                                                                                    monkeypatch):
    """A head's lineage.json names the passages it saw: their questions leave every row of the table (a model
    scored on its own training passages is no baseline) and the table says how many."""
    from interpeval.models import lineage

    raw = json.loads(span_file.read_text())
    raw["data"].append({"title": "u", "paragraphs": [{"context": "Ann works in Rome.", "qas": [
        {"id": "q3", "question": "Where does Ann work?", "answers": [{"text": "Rome", "answer_start": 13},
                                                                 {"text": "in Rome", "answer_start": 10}],
         "evidences": ["Ann works in Rome.", "works in Rome"]}]}]})
    (tmp_path / "data" / "squad").mkdir(parents=True)
    (tmp_path / "data" / "squad" / "expmrc-squad-dev.json").write_text(json.dumps(raw))
    passage = raw["data"][0]["paragraphs"][0]["context"]
    trained = lineage.Lineage("tiny-extractive-qa", frozenset({lineage.content_hash(passage.upper())}), "passages")
    monkeypatch.setattr(lineage, "read", lambda name: trained)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["baselines", "--subsets", "squad", "--data-dir", str(tmp_path / "data"),
                                      "--qa-model", "tiny-extractive-qa", "--out", str(out), "--no-store"])
    assert result.exit_code == 0, result.output
    for system in ("mss", "pa_sent", "ga_sent"):
        if (out / "squad" / f"{system}.json").is_file():
            assert json.loads((out / "squad" / f"{system}.json").read_text()).keys() == {"q3"}
    notes = json.loads((out / "table3.json").read_text())["notes"]
    assert any("2 questions tiny-extractive-qa trained or was selected on left out" in n for n in notes)


def test_baselines_take_the_device_dtype_and_memory_of_the_other_per_input_commands(tmp_path, span_file,
                                                                                     monkeypatch):
    """`--device`, `--dtype` and `--memory-gb` reach the answer model `expmrc baselines` loads; a device this machine
    lacks is one clear line before any work."""
    import torch

    from interpeval.models import load
    from interpeval.models.memory import rows_for_memory

    loaded = []

    def spy(*args, **kwargs):
        loaded.append((kwargs.get("device"), load(*args, **kwargs)))
        return loaded[-1][1]

    monkeypatch.setattr("interpeval.models.load", spy)
    data = tmp_path / "data"
    (data / "squad").mkdir(parents=True)
    (data / "squad" / "expmrc-squad-dev.json").write_text(span_file.read_text())
    args = ["baselines", "--subsets", "squad", "--data-dir", str(data), "--qa-model", "tiny-extractive-qa",
            "--out", str(tmp_path / "out"), "--no-store"]
    result = CliRunner().invoke(app, [*args, "--device", "cpu", "--dtype", "bf16", "--memory-gb", "0.25"])
    assert result.exit_code == 0, result.output
    ((device, model),) = loaded
    assert device == "cpu" and model.device.type == "cpu" and model.autocast is torch.bfloat16
    assert model.batch_size == rows_for_memory(model, (1 << 30) // 4)
    result = CliRunner().invoke(app, [*args, "--device", "cuda:7"])
    assert result.exit_code != 0 and "--device" in f"{result.output}{result.exception}"
    assert len(loaded) == 1  # refused before any model was loaded
