"""Inputs longer than the model reads are cut to its first ``max_length`` tokens; every command that explains
them says so once per run, on stderr, with how many and the longest length (``explain`` says up to which character;
see tests/errors). The tiny model reads 512 tokens; a 600-word line is 602."""

from __future__ import annotations

import json

import pytest

LONG = "good " * 600


@pytest.mark.parametrize("texts, said", [(["a fine film", LONG, LONG + "film"], "2 of 3 inputs"),
                                         (["a fine film"], None)])
def test_attribute_says_how_many_lines_were_truncated(tmp_path, cli, texts, said):
    lines = tmp_path / "lines.txt"
    lines.write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    done = cli(["attribute", lines, "--model", "tiny-sequence-classification", "--method", "saliency",
                "--store", tmp_path / "s.sqlite"])
    assert done.code == 0, done.err
    if said is None:
        assert "truncated" not in done.err
    else:
        err = " ".join(done.err.split())
        assert err.count("truncated:") == 1, err
        assert f"truncated: {said} are longer than the 512 tokens tiny-sequence-classification reads (the longest " \
               "has 603)" in err, err
        print(err)


def test_evaluate_says_how_many_inputs_were_truncated_partners_included(tmp_path, cli):
    data = tmp_path / "inputs.jsonl"
    rows = [{"text": "a fine film", "partner": LONG}, {"text": "a dull film"}]
    data.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    done = cli(["evaluate", "--file", data, "--model", "tiny-sequence-classification", "--explainer", "gradient",
                "--no-baseline", "--metric", "ferret_aopc_compr", "--store", tmp_path / "s.sqlite"])
    assert done.code == 0, done.err
    err = " ".join(done.err.split())
    assert err.count("truncated:") == 1 and "truncated: 1 of 3 inputs are longer than the 512 tokens" in err, err
    print(err)


@pytest.mark.parametrize("kind", ["span", "choice"])
def test_expmrc_answer_run_says_how_many_inputs_were_cut(tmp_path, capsys, kind):
    from interpeval.benchmarks.expmrc.data import Dataset, Question
    from interpeval.benchmarks.expmrc.run import stored_outputs
    from interpeval.models import load

    options = ("good", "bad") if kind == "choice" else ()
    questions = tuple(Question(str(i), "what is good?", context, ("A" if options else "good",), None, options=options)
                      for i, context in enumerate(["good films", LONG, "a good day"]))
    source = tmp_path / "dev.json"  # the answers are stored keyed by the file's fingerprint (in memory: no --store)
    source.write_text("{}")
    dataset = Dataset(str(source), "1.0", kind, "squad" if kind == "span" else "race", questions)
    model = "tiny-extractive-qa" if kind == "span" else "tiny-multiple-choice"
    outputs = stored_outputs(load(model), model, dataset, None)
    assert len(outputs) == 3
    err = " ".join(capsys.readouterr().err.split())
    cut = "1 of 3 inputs" if kind == "span" else "2 of 6 inputs"  # choice: one input per (passage, option)
    assert err.count("truncated:") == 1 and f"truncated: {cut} are longer than the 512 tokens" in err, err
    print(err)


def test_plm_run_says_how_many_records_were_cut(tmp_path, capsys):
    from interpeval.benchmarks.plm.records import GoldenRecord, write_golden
    from interpeval.benchmarks.plm.suite import evaluate_file
    from interpeval.store import Store

    def record(sid, tokens):
        meta = {"lang": "en", "dimension": "grammar", "perturbation": None, "label": "silver", "ori_id": None}
        return GoldenRecord(sid, " ".join(tokens), tokens, "good", [[0]], "ori", [], meta)

    golden = write_golden(tmp_path / "plm-en.golden.jsonl",
                          [record(0, ["a", "[MASK]", "film"]), record(1, ["a", "[MASK]", *LONG.split()])])
    with Store(tmp_path / "s.sqlite") as store:
        evaluate_file(golden, ["tiny-masked-lm"], {"random": ("random", {"seed": 0})}, store)
    err = " ".join(capsys.readouterr().err.split())
    assert err.count("truncated:") == 1 and "truncated: 1 of 2 inputs are longer than the 512 tokens" in err, err
