"""Fault tests: real servers, real processes killed with SIGKILL, real full filesystems.

The live server (``interpeval serve`` on a free loopback port) is the web tests' own :class:`Server`, loaded from
``tests/web/conftest.py`` so both folders start it the same way.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("web_live_server", Path(__file__).parents[1] / "web" / "conftest.py")
_web = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_web)
Server = _web.Server


server = _web.server  # the same fixtures: ``server(store, *options)``, each stopped afterwards
seeded = _web.seeded  # a real store with one run of each benchmark


@pytest.fixture(autouse=True)
def _one_thread(one_torch_thread):
    """Tiny models on shared cores (see tests/conftest.py)."""
