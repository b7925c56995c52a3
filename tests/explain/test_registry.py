"""Registry: built-ins by name, unknown names, and a plug-in found through a real entry point object."""

from __future__ import annotations

import importlib.metadata

import pytest

import interpeval.explain as explain
from interpeval.explain import registry

BUILT_IN = {"attention", "deeplift", "gradient", "guided_backprop", "input_x_gradient", "integrated_gradients",
            "kernel_shap", "lime", "occlusion", "random", "saliency", "smoothgrad"}


def test_built_ins_registered_with_flags():
    assert set(explain.names()) >= BUILT_IN
    for name in BUILT_IN:
        cls = explain.get(name)
        assert cls.name == name
        assert isinstance(cls.needs_gradients, bool) and isinstance(cls.signed, bool)
        assert cls.kinds
    assert explain.get("integrated_gradients").needs_gradients
    assert explain.get("lime").stochastic and not explain.get("occlusion").stochastic


def test_unknown_name_lists_known():
    with pytest.raises(KeyError, match="unknown explainer 'nope'; known: attention"):
        explain.get("nope")


def test_constructor_only_stores_params():
    ig = explain.get("integrated_gradients")(n_steps=7, baseline="pad")
    assert ig.get_params() == {"n_steps": 7, "baseline": "pad", "method": "gausslegendre",
                               "internal_batch_size": None, "batch_size": None, "segment": None}
    assert repr(ig).startswith("IntegratedGradients(n_steps=7")
    explain.get("integrated_gradients")(baseline="bogus")  # validated when used, not when built


PLUGIN = '''
from interpeval.explain.base import Explainer
import numpy as np

class Ones(Explainer):
    def __init__(self, batch_size=None):
        self.batch_size = batch_size

    def _attribute(self, model, enc, target):
        return np.ones(tuple(enc["input_ids"].shape))
'''


def test_plugin_from_entry_point(tmp_path, monkeypatch):
    (tmp_path / "my_plugin_mod.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = importlib.metadata.EntryPoint(name="ones", value="my_plugin_mod:Ones", group=registry.ENTRY_POINT_GROUP)
    seen = []

    def fake_entry_points(group):
        seen.append(group)
        return [ep]

    monkeypatch.setattr(registry, "entry_points", fake_entry_points)
    monkeypatch.setattr(registry, "_plugins_loaded", False)
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    assert "ones" in explain.names()
    assert seen == [registry.ENTRY_POINT_GROUP]
    cls = explain.get("ones")
    assert cls.__name__ == "Ones" and cls.name == "ones"
    from interpeval.models import tiny

    (a,) = cls().explain(tiny("sequence-classification"), "a fine film")
    assert a.method == "ones" and a.scores.tolist() == [1.0] * len(a.tokens)


def test_broken_plugin_is_named(monkeypatch):
    ep = importlib.metadata.EntryPoint(name="broken", value="no_such_module_xyz:X", group=registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: [ep])
    monkeypatch.setattr(registry, "_plugins_loaded", False)
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    with pytest.raises(ImportError, match="plug-in 'broken'"):
        explain.names()


def test_duplicate_name_rejected():
    with pytest.raises(ValueError, match="already taken"):
        registry.register("lime")(type("Other", (explain.Explainer,), {}))
