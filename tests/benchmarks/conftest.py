"""Fixtures shared by the benchmark tests."""

from __future__ import annotations

import pytest

from interpeval.models.base import Model


@pytest.fixture
def passes(monkeypatch):
    """``passes["n"]``: the number of model forward passes since the fixture started."""
    counter = {"n": 0}
    forward = Model.forward

    def counting(self, inputs, **kwargs):
        counter["n"] += 1
        return forward(self, inputs, **kwargs)

    monkeypatch.setattr(Model, "forward", counting)
    return counter
