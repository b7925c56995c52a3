"""The one explainer spec ``[LABEL=]NAME[:key=value,...]``: parsing, round trip, the declared parameters, and
``--explainer`` (with its deprecated aliases) in every command that takes explainers."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import interpeval.explain as explain
from interpeval.explain.params import Param
from interpeval.explain.spec import (
    ExplainerSpec,
    SpecError,
    UnknownExplainer,
    check,
    parameters,
    parse,
    parse_checked,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "errors"))
from clear_errors import SRC_DATA, run_cli  # noqa: E402

SUBMISSION = SRC_DATA / "expmrc" / "sample_submission" / "squad.json"


def test_parse_the_grammar():
    assert parse("lime") == ExplainerSpec("lime")
    assert parse(" IG = integrated_gradients : n_steps = 50 , baseline=pad ") == ExplainerSpec(
        "integrated_gradients", {"n_steps": 50, "baseline": "pad"}, "IG")
    spec = parse('lime:seed=null,alpha=0.5,unit="word",n_samples=10')
    assert spec.params == {"seed": None, "alpha": 0.5, "unit": "word", "n_samples": 10}
    assert parse("saliency:abs=false").params == {"abs": False}
    assert parse('x=lime:tag="a,b",list=[1,2],obj={"a":1,"b":[2,3]}', known=False).params == {
        "tag": "a,b", "list": [1, 2], "obj": {"a": 1, "b": [2, 3]}}
    assert parse("lime:").params == {} and parse("lime:n_samples=5,").params == {"n_samples": 5}
    assert str(parse("L=lime:n_samples=10")) == "L=lime:n_samples=10" and parse("L=lime").body == "lime"


@pytest.mark.parametrize(("text", "words"), [
    ("", "no explainer name"), (":n_steps=3", "no explainer name"), ("=lime", "empty label"),
    ("lime:n_samples", "not key=value"), ("lime:=3", "not key=value"), ("lime:a=1,a=2", "given twice"),
])
def test_malformed_specs_name_the_bad_part(text, words):
    with pytest.raises(SpecError, match=words) as err:
        parse(text)
    assert "\n" not in str(err.value) and repr(text)[1:-1] in str(err.value)


def test_unknown_name_lists_the_known_ones_and_is_a_key_error():
    with pytest.raises(UnknownExplainer, match="unknown explainer 'gradcam'; known: .*integrated_gradients"):
        parse("IG=gradcam:n_steps=3")
    assert issubclass(UnknownExplainer, KeyError)
    assert parse("gradcam", known=False).name == "gradcam"


@pytest.mark.parametrize(("text", "words"), [
    ("lime:bogus=1", "lime' has no parameter 'bogus'; it takes n_samples, kernel_width"),
    ("integrated_gradients:n_steps=0", "n_steps must be >= 1, got 0"),
    ("integrated_gradients:n_steps=2.5", "n_steps must be an integer, got 2.5"),
    ("integrated_gradients:method=simpson", "method must be one of gausslegendre, riemann_left"),
    ("lime:kernel_width=0", "kernel_width must be > 0"),
    ("lime:regression=linear", "regression must be one of ridge, lasso"),
    ("lime:segment=2", "segment must be one of 0, 1"),
    ("saliency:abs=1", "abs must be a boolean"),
    ("attention:layer=null", "layer cannot be null"),
    ("occlusion:batch_size=-4", "batch_size must be >= 1"),
])
def test_values_are_held_against_the_explainers_declaration(text, words):
    with pytest.raises(SpecError, match=words):
        parse_checked(text)


def test_choices_belong_to_each_explainer():
    """One shared choice list used to refuse Kernel SHAP's own default regression ("linear")."""
    assert check(parse("kernel_shap:regression=linear")).params == {"regression": "linear"}
    assert check(parse("lime:regression=lasso,alpha=0.0003,num_features=null,seed=null"))
    assert parse_checked("smoothgrad:stdevs=1").build().stdevs == 1


def test_every_builtin_explainer_declares_exactly_its_constructor_parameters():
    for name in explain.names():
        cls = explain.get(name)
        if cls.__module__.startswith("interpeval."):
            constructor = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
            assert cls.parameters is not None and list(cls.parameters) == constructor, name
            defaults = cls().get_params()  # every default value is allowed by the declaration
            assert all(cls.parameters[k].problem(v) is None for k, v in defaults.items()), name


def test_a_plugin_without_declarations_is_read_from_its_constructor():
    from interpeval.explain.base import Explainer

    class Plain(Explainer):
        def __init__(self, width: int = 3, label: str | None = None, scale: float = 1.0) -> None:
            self.width, self.label, self.scale = width, label, scale

    declared = parameters(Plain)
    assert declared == {"width": Param(int), "label": Param(str, nullable=True), "scale": Param(float)}


values = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                   st.floats(allow_nan=False, allow_infinity=False, width=32),
                   st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
                   st.lists(st.integers(0, 9), max_size=3))
words = st.from_regex(r"[A-Za-z_][A-Za-z0-9_\-]{0,10}", fullmatch=True)


@given(label=st.none() | words, name=words, params=st.dictionaries(words, values, max_size=4))
def test_str_parses_back_to_the_same_spec(label, name, params):
    spec = ExplainerSpec(name, params, label)
    assert parse(str(spec), known=False) == spec and dict(parse(str(spec), known=False).params) == params


# ------------------------------------------------------------------------------------------------ the commands
def _tiny_lines(folder: Path) -> Path:
    path = folder / "lines.txt"
    path.write_text("a gorgeous film\nawful\n", encoding="utf-8")
    return path


#: every command that takes explainers, with the rest of a valid command line
COMMANDS = {
    "attribute": lambda d: ["attribute", _tiny_lines(d), "--store", d / "s.sqlite"],
    "explain": lambda d: ["explain", "a gorgeous film", "--model", "tiny-sequence-classification"],
    "evaluate": lambda d: ["evaluate", "a gorgeous film", "--model", "tiny-sequence-classification", "--store",
                           d / "s.sqlite"],
    "quackie run": lambda d: ["quackie", "run", "--store", d / "s.sqlite", "--out", d / "out"],
    "plm run": lambda d: ["plm", "run", SUBMISSION, "--model", "tiny-masked-lm", "--out", d / "o"],
    "plm bench": lambda d: ["plm", "bench", "--out", d / "o"],
    "iqs study create": lambda d: ["iqs", "study", "create", "--task", "sst2", "--model",
                                   "tiny-sequence-classification", "--store", d / "s.sqlite"],
}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_checks_its_explainer_option(command, tmp_path):
    """A bad ``--explainer`` value is refused by the spec check, with one line, before any work."""
    outcome = run_cli([*COMMANDS[command](tmp_path), "--explainer", "lime:n_samples=0"])
    assert outcome.code != 0 and "Traceback" not in outcome.err
    assert "--explainer: lime: n_samples must be >= 1, got 0" in " ".join(outcome.err.split())
    assert "deprecated" not in outcome.err
    assert not (tmp_path / "s.sqlite").exists()


#: the old spellings, still accepted for one release (here with a bad value: the error must still come)
ALIASES = {
    "attribute --method/--param": ("attribute", ["--method", "lime", "--param", "n_samples=0"], "--param"),
    "explain --method": ("explain", ["--method", "lime", "--param", "n_samples=0"], "--param"),
    "quackie run --method": ("quackie run", ["--method", "X=lime:n_samples=0"], "--method"),
    "plm run --method/--param": ("plm run", ["--method", "lime", "--param", "n_samples=0"], "--param"),
    "plm run --explainers": ("plm run", ["--explainers", "ATT,SHAP"], "--explainers"),
    "plm bench --explainers": ("plm bench", ["--explainers", "ATT,SHAP"], "--explainers"),
    "iqs study create --methods": ("iqs study create", ["--methods", "lime,gradcam"], "--methods"),
}


@pytest.mark.parametrize("alias", ALIASES)
def test_each_alias_prints_one_deprecation_line(alias, tmp_path):
    command, extra, option = ALIASES[alias]
    outcome = run_cli([*COMMANDS[command](tmp_path), *extra])
    lines = [line for line in outcome.err.splitlines() if "deprecated" in line]
    assert len(lines) == 1 and "--explainer" in lines[0], outcome.err
    assert outcome.code != 0 and f"error: {option}" in outcome.err and "Traceback" not in outcome.err


def test_alias_and_explainer_name_the_same_stored_run(tmp_path):
    """``--method NAME --param k=v`` and ``--explainer NAME:k=v`` are the same run: the second computes nothing."""
    lines = _tiny_lines(tmp_path)
    base = ["attribute", lines, "--store", tmp_path / "s.sqlite", "--model", "tiny-sequence-classification"]
    old = run_cli([*base, "--method", "saliency", "--param", "abs=false"])
    assert old.code == 0 and "2 explained now" in old.out and "deprecated" in old.err
    new = run_cli([*base, "--explainer", "saliency:abs=false", "--explainer", "input_x_gradient"])
    assert new.code == 0 and "deprecated" not in new.err
    assert new.out.splitlines()[0] == old.out.splitlines()[0].replace("2 explained now", "0 explained now")
    assert "2 explained now" in new.out.splitlines()[1]
