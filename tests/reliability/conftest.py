"""Fault tests: real servers, real processes killed with SIGKILL, real full filesystems.

The live server (``interpeval serve`` on a free loopback port) is the web tests' own, loaded from
``tests/web/conftest.py`` so both folders start it the same way; the command line runs through the error tests'
``clear_errors`` harness. ``small_disk`` is a size-limited tmpfs mounted for one test.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest


def _load(name: str, relative: str):
    """Another test folder's helper module, by path (test folders are not packages), once per session."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).parents[1] / relative)
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


_web = _load("web_live_server", "web/conftest.py")
_errors = _load("clear_errors", "errors/clear_errors.py")

server = _web.server  # the same fixtures: ``server(store, *options)``, each stopped afterwards
seeded = _web.seeded  # a real store with one run of each benchmark
study_with_annotators = _web.study_with_annotators  # a study with annotators, each assigned every item


@pytest.fixture(autouse=True)
def _one_thread(one_torch_thread):
    """Tiny models on shared cores (see tests/conftest.py)."""


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MiB tmpfs mounted at ``tmp_path/disk`` for this test and unmounted after it (needs root, as CI has)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True,
                          text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {made.stderr.strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.fixture
def cli():
    """``cli(args)`` runs ``interpeval ARGS`` in this process: exit code, stdout, stderr (the error tests' harness)."""
    return _errors.run_cli

