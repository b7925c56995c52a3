"""Bad options and output paths: one clear line naming the option, before any model is loaded or any run stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from clear_errors import SRC_DATA, Case, assert_clear

SST2 = SRC_DATA / "sentences" / "sst2-dev-20.tsv"
SUBMISSION = SRC_DATA / "expmrc" / "sample_submission" / "squad.json"


def _lines(folder: Path) -> Path:
    path = folder / "lines.txt"
    path.write_text("".join(line.split("\t")[0] + "\n" for line in SST2.read_text(encoding="utf-8").splitlines()[1:4]),
                    encoding="utf-8")
    return path


def _file(folder: Path) -> Path:
    path = folder / "file"
    path.write_text("x", encoding="utf-8")
    return path


def _opt(name: str, args, *must: str) -> Case:
    """``args(folder)`` is the command line; the message must contain ``must`` (the option and the value)."""
    return Case(name, lambda d: ([str(a) for a in args(d)], list(must)))


def _attribute(*extra: str):
    return lambda d: ["attribute", _lines(d), "--store", d / "s.sqlite", *extra]


def _explain(*extra: str):
    return lambda d: ["explain", "a gorgeous film", "--model", "tiny-sequence-classification",
                      "--method", "gradient", *extra]


def _quackie(*extra: str):
    return lambda d: ["quackie", "run", "--store", d / "s.sqlite", "--out", d / "out", *extra]


def _evaluate(*extra: str):
    return lambda d: ["evaluate", "a gorgeous film", "--model", "tiny-sequence-classification", "--store",
                      d / "s.sqlite", *extra]


def _train(*extra: object) -> list[object]:
    return ["train", "sequence-classification", "--data", SST2, "--base", "tiny-sequence-classification", *extra]


def _iqs_create(*extra: str):
    return lambda d: ["iqs", "study", "create", "--task", "sst2", "--model", "tiny-sequence-classification",
                      "--store", d / "s.sqlite", *extra]


CASES = [
    # attribute
    _opt("attribute-chunk-negative", _attribute("--chunk", "-1"), "--chunk", ">= 1", "-1"),
    _opt("attribute-chunk-zero", _attribute("--chunk", "0"), "--chunk", ">= 1"),
    _opt("attribute-param-unknown", _attribute("--param", "bogus=1"), "--param", "'bogus'", "n_steps"),
    _opt("attribute-param-not-int", _attribute("--param", "n_steps=abc"), "--param", "n_steps", "integer", "'abc'"),
    _opt("attribute-param-float", _attribute("--param", "n_steps=2.5"), "--param", "n_steps", "integer"),
    _opt("attribute-param-zero", _attribute("--param", "n_steps=0"), "--param", "n_steps", ">= 1"),
    _opt("attribute-n-samples-zero", _attribute("--method", "lime", "--param", "n_samples=0"), "--param",
         "n_samples", ">= 1"),
    _opt("attribute-batch-negative", _attribute("--param", "batch_size=-4"), "--param", "batch_size", ">= 1"),
    _opt("attribute-param-no-equals", _attribute("--param", "n_steps"), "--param", "key=value"),
    _opt("attribute-unknown-method", _attribute("--method", "gradcam"), "--method", "'gradcam'", "known"),
    _opt("attribute-bad-removal", _attribute("--method", "lime", "--param", "removal=blank"), "--param", "removal",
         "'blank'"),
    _opt("attribute-bad-baseline", _attribute("--param", "baseline=mean"), "--param", "baseline", "'mean'"),
    _opt("attribute-kernel-width-zero", _attribute("--method", "lime", "--param", "kernel_width=0"), "--param",
         "kernel_width"),
    _opt("attribute-seed-text", _attribute("--method", "lime", "--param", "seed=abc"), "--param", "seed"),
    _opt("attribute-unknown-model", _attribute("--model", "no-such-model"), "'no-such-model'"),
    _opt("attribute-chunk-text", _attribute("--chunk", "eight"), "--chunk", "integer"),
    # explain
    _opt("explain-device-absent", _explain("--device", "cuda:7"), "--device", "cuda:7"),
    _opt("explain-device-bogus", _explain("--device", "gpu"), "--device", "'gpu'"),
    _opt("explain-param-unknown", _explain("--param", "bogus=1"), "--param", "'bogus'"),
    _opt("explain-target-index", _explain("--target", "class_prob:x"), "--target", "class_prob:x"),
    _opt("explain-target-unknown", _explain("--target", "start_logit"), "--target", "start_logit"),
    _opt("explain-html-under-file", lambda d: [*_explain("--html", _file(d) / "x.html")(d)], "--html", "is a file"),
    _opt("explain-kind-unknown", _explain("--kind", "ner"), "--kind", "'ner'"),
    _opt("explain-method-unknown", _explain("--method", "shap"), "'shap'"),
    _opt("explain-model-is-a-file", lambda d: ["explain", "x", "--model", _file(d), "--method", "gradient"],
         "file", "directory"),
    _opt("explain-method-wrong-kind", lambda d: ["explain", "x", "--model", "tiny-masked-lm", "--method",
                                                 "gradient", "--target", "class_prob"], "class_prob"),
    # quackie run / heldout / train
    _opt("quackie-limit-negative", _quackie("--limit", "-1"), "--limit", ">= 0", "-1"),
    _opt("quackie-batch-zero", _quackie("--batch-size", "0"), "--batch-size"),
    _opt("quackie-classifier-unknown", _quackie("--classifier", "NER"), "--classifier", "'NER'"),
    _opt("quackie-agg-unknown", _quackie("--agg", "median"), "--agg", "'median'"),
    _opt("quackie-method-zero-samples", _quackie("--method", "lime:n_samples=0"), "--method", "n_samples",
         ">= 1"),
    _opt("quackie-method-unknown", _quackie("--method", "gradcam"), "--method", "'gradcam'"),
    _opt("quackie-method-no-equals", _quackie("--method", "lime:n_samples"), "--method", "key=value"),
    _opt("quackie-method-bad-param", _quackie("--method", "LIME=lime:bogus=3"), "--method", "'bogus'"),
    _opt("quackie-out-under-file", lambda d: ["quackie", "run", "--store", d / "s.sqlite", "--out",
                                              _file(d) / "out"], "--out", "is a file"),
    _opt("quackie-out-is-file", lambda d: ["quackie", "run", "--store", d / "s.sqlite", "--out", _file(d)],
         "--out", "is a file"),
    _opt("quackie-data-dir-missing", _quackie("--data-dir", "/nonexistent/squad"), "--data-dir", "no such folder"),
    _opt("quackie-device-absent", _quackie("--device", "cuda:7"), "--device", "cuda:7"),
    _opt("quackie-dataset-typo", _quackie("--dataset", "Squad"), "--dataset", "'Squad'"),
    _opt("quackie-dataset-missing-file", _quackie("--dataset", "/nonexistent/x.json"), "/nonexistent/x.json",
         "no such file"),
    _opt("quackie-heldout-negative", lambda d: ["quackie", "heldout", "--max-questions", "-1"],
         "--max-questions", ">= 0"),
    _opt("quackie-heldout-classifier", lambda d: ["quackie", "heldout", "--classifier", "NER"], "--classifier",
         "'NER'"),
    # evaluate
    _opt("evaluate-chunk-zero", _evaluate("--chunk", "0"), "--chunk", ">= 1"),
    _opt("evaluate-explainer-param", _evaluate("--explainer", "lime:bogus=1"), "--explainer", "'bogus'"),
    _opt("evaluate-explainer-unknown", _evaluate("--explainer", "gradcam"), "--explainer", "'gradcam'"),
    _opt("evaluate-explainer-zero-steps", _evaluate("--explainer", "integrated_gradients:n_steps=0"),
         "--explainer", "n_steps", ">= 1"),
    _opt("evaluate-metric-unknown", _evaluate("--metric", "accuracyy"), "--metric", "'accuracyy'"),
    _opt("evaluate-option-format", _evaluate("--option", "ferret_token_f1"), "--option", "METRIC:key=value"),
    _opt("evaluate-option-pair", _evaluate("--option", "ferret_token_f1:official"), "--param", "key=value"),
    _opt("evaluate-out-under-file", lambda d: [*_evaluate("--out", _file(d) / "o")(d)], "--out", "is a file"),
    _opt("evaluate-texts-and-file", lambda d: [*_evaluate("--file", _lines(d))(d)], "--file", "not both"),
    _opt("evaluate-nothing", lambda d: ["evaluate", "--store", d / "s.sqlite"], "--file", "neither"),
    _opt("evaluate-device-absent", _evaluate("--device", "cuda:7"), "--device", "cuda:7"),
    _opt("evaluate-target-index", _evaluate("--target", "class_prob:one"), "--target", "class_prob:one"),
    # expmrc
    _opt("expmrc-subsets-unknown", lambda d: ["expmrc", "baselines", "--subsets", "squad,newsqa", "--out", d / "o",
                                              "--no-store"], "--subsets", "'newsqa'"),
    _opt("expmrc-subsets-empty", lambda d: ["expmrc", "baselines", "--subsets", ",", "--out", d / "o",
                                            "--no-store"], "--subsets", "no subset"),
    _opt("expmrc-out-under-file", lambda d: ["expmrc", "baselines", "--out", _file(d) / "o", "--no-store"],
         "--out", "is a file"),
    _opt("expmrc-data-dir-missing", lambda d: ["expmrc", "baselines", "--data-dir", d / "none", "--out", d / "o",
                                               "--no-store"], "--data-dir", "no such folder"),
    _opt("expmrc-pseudo-out-under-file", lambda d: ["expmrc", "pseudo-data", _file(d) / "x.jsonl"], "OUT",
         "is a file"),
    _opt("expmrc-pseudo-squad-missing", lambda d: ["expmrc", "pseudo-data", d / "x.jsonl", "--squad",
                                                   d / "none.json"], "none.json", "no such file"),
    _opt("expmrc-human-missing", lambda d: ["expmrc", "human", d / "none.json"], "none.json", "no such file"),
    _opt("expmrc-score-unknown-flag", lambda d: ["expmrc", "score", "squad", SUBMISSION, "--strict"], "--strict"),
    # probing report
    _opt("probing-report-metric", lambda d: ["probing", "report", "--metric", "f1", "--out", d / "r"], "--metric",
         "'f1'"),
    _opt("probing-report-format", lambda d: ["probing", "report", "--format", "gif", "--out", d / "r"], "--format",
         "'gif'"),
    _opt("probing-report-out-under-file", lambda d: ["probing", "report", "--out", _file(d) / "r"], "--out",
         "is a file"),
    # runs, report, metrics, train (others' commands, counted too)
    _opt("runs-show-not-a-number", lambda d: ["runs", "show", "abc"], "run_id", "integer"),
    _opt("report-store-folder", lambda d: ["report", "--store", d, "--out", d / "r.html"], "--store", "folder"),
    _opt("report-out-under-file", lambda d: ["report", "--out", _file(d) / "r.html", "--store", d / "s.sqlite"],
         "--out", "is a file"),
    _opt("metrics-unknown-family", lambda d: ["metrics", "--family", "beauty"], "--family", "'beauty'"),
    _opt("train-data-missing", lambda d: ["train", "sequence-classification", "--data", d / "none.tsv", "--out",
                                          d / "m"], "none.tsv"),
    _opt("train-recipe-unknown", lambda d: ["train", "recipe", "nosuch"], "'nosuch'"),
    _opt("train-out-under-file", lambda d: [*_train("--out", _file(d) / "m")], "--out", "is a file"),
    _opt("train-device-absent", lambda d: [*_train("--out", d / "m", "--device", "cuda:7")], "--device", "cuda:7"),
    _opt("train-batch-zero", lambda d: [*_train("--out", d / "m", "--batch-size", "0")], "--batch-size", ">= 1"),
    _opt("train-eval-fraction", lambda d: [*_train("--out", d / "m", "--eval-fraction", "1.5")], "--eval-fraction",
         "1.5"),
    _opt("train-recipe-data-root", lambda d: ["train", "recipe", "minilm-sst2", "--data-root", d / "none"],
         "--data-root", "no such folder"),
    _opt("train-recipe-init-missing", lambda d: ["train", "recipe", "minilm-sst2", "--data-root", d, "--out", d / "m",
                                                 "--set", f"init={d / 'none'}"], "init", "no trained artifact"),
    _opt("train-recipe-init-other-kind", lambda d: ["train", "recipe", "minilm-squad", "--data-root", d, "--out",
                                                    d / "m", "--set", "init=minilm-sst2"],
         "init 'minilm-sst2'", "sequence-classification", "extractive-qa"),
    # --explainer, the one explainer spec of every command (the --method/--param cases above are its aliases)
    _opt("attribute-explainer-zero-steps", _attribute("--explainer", "integrated_gradients:n_steps=0"),
         "--explainer", "n_steps", ">= 1"),
    _opt("attribute-explainer-unknown", _attribute("--explainer", "gradcam"), "--explainer", "'gradcam'", "known"),
    _opt("attribute-explainer-label", _attribute("--explainer", "L=lime"), "--explainer", "LABEL="),
    _opt("attribute-explainer-and-method", _attribute("--explainer", "lime", "--method", "lime"), "--explainer",
         "not both"),
    _opt("attribute-explainer-no-name", _attribute("--explainer", ":n_steps=3"), "--explainer", "no explainer name"),
    _opt("attribute-explainer-empty-label", _attribute("--explainer", "=lime"), "--explainer", "empty label"),
    _opt("attribute-explainer-twice", _attribute("--explainer", "lime:n_samples=3,n_samples=4"), "--explainer",
         "'n_samples'", "twice"),
    _opt("explain-explainer-choice", lambda d: ["explain", "a gorgeous film", "--model", "tiny-sequence-classification",
                                                "--explainer", "occlusion:unit=char"], "--explainer", "unit",
         "word, token", "'char'"),
    _opt("evaluate-explainer-type", _evaluate("--explainer", "saliency:abs=yes"), "--explainer", "abs", "boolean"),
    _opt("quackie-explainer-bad-param", _quackie("--explainer", "LIME=lime:bogus=3"), "--explainer", "'bogus'"),
    _opt("plm-run-explainer-spec", lambda d: ["plm", "run", SUBMISSION, "--model", "tiny-masked-lm", "--explainer",
                                              "lime:n_samples=0", "--out", d / "o"], "--explainer", "n_samples"),
    _opt("plm-run-explainer-unknown", lambda d: ["plm", "run", SUBMISSION, "--model", "tiny-masked-lm", "--explainer",
                                                 "SHAP", "--out", d / "o"], "--explainer", "'SHAP'", "known"),
    _opt("plm-run-explainer-same-label", lambda d: ["plm", "run", SUBMISSION, "--model", "tiny-masked-lm",
                                                    "--explainer", "IG", "--explainer", "IG=lime", "--out", d / "o"],
         "--explainer", "'IG'", "LABEL="),
    _opt("iqs-create-explainer-unknown", lambda d: [*_iqs_create("--explainer", "gradcam")(d)], "--explainer",
         "'gradcam'"),
    _opt("iqs-create-explainer-twice", lambda d: [*_iqs_create("--explainer", "paper", "--explainer", "lime")(d)],
         "--explainer", "lime", "twice"),
    # plm, iqs, serve, suite
    _opt("plm-run-target", lambda d: ["plm", "run", d / "g.jsonl", "--model", "tiny-masked-lm", "--target", "best",
                                      "--out", d / "o"], "--target", "'best'"),
    _opt("plm-run-golden-missing", lambda d: ["plm", "run", d / "g.jsonl", "--model", "tiny-masked-lm", "--out",
                                              d / "o"], "g.jsonl", "no such file"),
    _opt("plm-run-explainer-label", lambda d: ["plm", "run", SUBMISSION, "--model", "tiny-masked-lm", "--explainers",
                                               "ATT,SHAP", "--out", d / "o"], "--explainers", "'SHAP'"),
    _opt("plm-run-method-param", lambda d: ["plm", "run", SUBMISSION, "--model", "tiny-masked-lm", "--method", "lime",
                                            "--param", "n_samples=0", "--out", d / "o"], "--param", "n_samples"),
    _opt("plm-build-lang", lambda d: ["plm", "build", "--langs", "en,fr", "--out", d / "o", "--data-dir", d],
         "--langs", "'fr'"),
    _opt("plm-build-per-dimension", lambda d: ["plm", "build", "--per-dimension", "0", "--out", d / "o"],
         "--per-dimension", ">= 1"),
    _opt("plm-build-out-under-file", lambda d: ["plm", "build", "--out", _file(d) / "o"], "--out", "is a file"),
    _opt("iqs-create-device", lambda d: [*_iqs_create("--device", "cuda:7")(d)], "--device", "cuda:7"),
    _opt("iqs-create-methods", lambda d: [*_iqs_create("--methods", "lime,gradcam")(d)], "--methods", "gradcam"),
    _opt("iqs-create-perturbations", lambda d: [*_iqs_create("--perturbations", "0")(d)], "--perturbations",
         ">= 1"),
    _opt("iqs-create-data-missing", lambda d: [*_iqs_create("--data", d / "none.tsv")(d)], "none.tsv",
         "no such file"),
    _opt("iqs-score-noise", lambda d: ["iqs", "score", "1", "--noise", "2", "--store", d / "s.sqlite", "--out",
                                       d / "o"], "--noise", "[0, 1]"),
    _opt("iqs-score-store-missing", lambda d: ["iqs", "score", "1", "--store", d / "typo.sqlite", "--out", d / "o"],
         "--store", "no such store"),
    _opt("serve-port", lambda d: ["serve", "--port", "70000", "--store", d / "s.sqlite"], "--port", "70000"),
    _opt("serve-role", lambda d: ["serve", "--add-user", "bob", "--role", "boss", "--store", d / "s.sqlite"],
         "--role", "'boss'"),
    _opt("serve-store-folder", lambda d: ["serve", "--store", d], "--store", "is a folder"),
    _opt("serve-tasks-missing", lambda d: ["serve", "--tasks", d / "none", "--store", d / "s.sqlite"], "--tasks",
         "no such folder"),
    _opt("suite-out-under-file", lambda d: ["suite", "--out", _file(d) / "suite"], "--out", "is a file"),
    _opt("suite-store-folder", lambda d: ["suite", "--out", d / "suite", "--store", d], "--store", "is a folder"),
    _opt("reproduce-expmrc-tiny", lambda d: ["reproduce", "expmrc", "--profile", "tiny", "--out", d / "r"],
         "--profile", "'tiny'", "quick, paper"),
    _opt("reproduce-iqs-tiny", lambda d: ["reproduce", "iqs", "--profile", "tiny", "--out", d / "r"],
         "--profile", "'tiny'", "quick, paper"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_option_is_a_clear_error(case, tmp_path):
    assert_clear(case, tmp_path)
    assert not (tmp_path / "s.sqlite").exists()  # nothing stored
    assert not (tmp_path / "out").exists() and not (tmp_path / "o").exists()  # nothing written
