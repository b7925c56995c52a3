"""Benchmarks as plug-ins: what the CLI, the suite, the report, the web app and the study store know of a benchmark.

A benchmark is one package. A module of it (``plugin.py`` for the built-in ones) declares one
:class:`BenchmarkPlugin` as ``PLUGIN``; that module is listed in :data:`BUILTIN` or, for a benchmark outside interpeval, in the ``interpeval.benchmarks`` entry-point group::

    [project.entry-points."interpeval.benchmarks"]
    toy = "toy_bench:PLUGIN"

The plug-in names its parts by dotted module path (``"pkg.module"`` or ``"pkg.module:attribute"``) and they are
imported only when asked for, because they live on different floors of the house: the CLI sub-app on the CLI floor,
the leaderboards and instance views on the report floor, the study kinds on the store floor. Discovering the plug-ins
imports none of them. Each part has one contract:

* ``cli`` — a ``typer.Typer`` mounted as ``interpeval NAME``;
* ``suite`` — ``steps(out: Path, store: Path, profile: str) -> list[SuiteStep]``: the main job's steps, each a
  command line a user could type (``profile`` is ``"full"`` or ``"tiny"``);
* ``views`` — a module with ``leaderboards(store, context) -> list[dict]`` (the leaderboard dicts of
  :mod:`interpeval.report.views`; ``context["tasks_dir"]``), optionally ``instance_view(store, info, output, view)
  -> None`` (adds this benchmark's panels to an instance page's view dict; the page's options, e.g. ``agg``, are in
  ``view["options"]``), ``instance_facts(store, info, output, facts) -> None`` (fills in the input, gold and
  prediction of one of its instances), ``findings(table, rows) -> list[str]`` (headline findings of its own
  tables), ``HOW_TO_READ: str``, ``COVERS`` (the run names its leaderboards stand for, left out of the generic
  table), ``METRIC_SCALE`` (run name → factor its per-instance means are shown at) and ``NO_EXAMPLES`` (run names
  whose instances the static report does not show);
* ``studies`` — a module whose import registers its study kinds (:func:`interpeval.store.studies.register_kind`);
  :func:`study_kinds` imports every plug-in's;
* ``reproduce`` — ``reproduce(context: ReproduceContext) -> PaperReport``
  (:mod:`interpeval.paper`): the paper's tables, ours beside them, and its findings.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

ENTRY_POINT_GROUP = "interpeval.benchmarks"

#: the benchmark packages that ship with interpeval, in the order the suite runs them
BUILTIN = ("interpeval.benchmarks.expmrc.plugin", "interpeval.benchmarks.quackie.plugin",
           "interpeval.benchmarks.plm.plugin", "interpeval.benchmarks.probing.plugin",
           "interpeval.benchmarks.iqs.plugin")

#: extra plug-ins, ``module:attribute`` separated by commas (for a package that is importable but not installed)
ENV_VARIABLE = "INTERPEVAL_BENCHMARKS"

PARTS = ("cli", "suite", "views", "studies", "reproduce")


@dataclass(frozen=True)
class SuiteStep:
    """One step of the main job: a title, the argv of one ``interpeval`` command, and the file to capture its stdout
    into (None: it writes its own files)."""

    title: str
    argv: list[str]
    capture: Path | None = None


@dataclass(frozen=True)
class BenchmarkPlugin:
    """What interpeval knows of one benchmark. ``runs`` are the ``RunKey.benchmark`` names its stored runs carry;
    ``paper`` the reference of the paper it implements (empty for a tool that reproduces none)."""

    name: str
    title: str
    runs: tuple[str, ...] = ()
    paper: str = ""
    cli: str | None = None
    suite: str | None = None
    views: str | None = None
    studies: str | None = None
    reproduce: str | None = None

    def part(self, part: str) -> Any:
        """Import one part (a module, or ``module:attribute``); None when the plug-in has no such part."""
        if part not in PARTS:
            raise ValueError(f"unknown plug-in part {part!r}: choose from {', '.join(PARTS)}")
        target = getattr(self, part)
        if target is None:
            return None
        module, _, attribute = target.partition(":")
        loaded = importlib.import_module(module)
        return getattr(loaded, attribute) if attribute else loaded


_plugins: dict[str, BenchmarkPlugin] | None = None


def _declared(target: str) -> BenchmarkPlugin:
    module, _, attribute = target.partition(":")
    loaded = importlib.import_module(module)
    plugin = getattr(loaded, attribute or "PLUGIN")
    if not isinstance(plugin, BenchmarkPlugin):
        raise TypeError(f"benchmark plug-in {target!r} is not a BenchmarkPlugin")
    return plugin


def plugins() -> list[BenchmarkPlugin]:
    """Every benchmark plug-in: the built-in ones in suite order, then the entry points and
    :data:`ENV_VARIABLE`'s, each name once (a broken plug-in is reported by name)."""
    global _plugins
    if _plugins is None:
        found: dict[str, BenchmarkPlugin] = {}
        targets = [*BUILTIN, *(ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)),
                   *(t.strip() for t in os.environ.get(ENV_VARIABLE, "").split(",") if t.strip())]
        for target in targets:
            try:
                plugin = _declared(target)
            except Exception as err:
                raise ImportError(f"benchmark plug-in {target!r} failed to load: {err}") from err
            found.setdefault(plugin.name, plugin)
        _plugins = found
    return list(_plugins.values())


def get(name: str) -> BenchmarkPlugin:
    """The plug-in called ``name`` (KeyError naming the choices otherwise)."""
    for plugin in plugins():
        if plugin.name == name:
            return plugin
    raise KeyError(f"no benchmark {name!r}; choose from {', '.join(p.name for p in plugins())}")


def owner(run_benchmark: str) -> BenchmarkPlugin | None:
    """The plug-in whose stored runs carry ``run_benchmark`` as their benchmark name."""
    return next((p for p in plugins() if run_benchmark in p.runs), None)


def with_part(part: str) -> Iterator[tuple[BenchmarkPlugin, Any]]:
    """(plug-in, loaded part) for every plug-in that has ``part``."""
    for plugin in plugins():
        loaded = plugin.part(part)
        if loaded is not None:
            yield plugin, loaded


def study_kinds() -> dict[str, Any]:
    """Every study kind (:data:`interpeval.store.studies.KINDS`) once every plug-in's ``studies`` part is imported
    (importing one registers its kinds): what the web app and a study command load before they use a kind."""
    from interpeval.store.studies import KINDS

    for _ in with_part("studies"):
        pass
    return KINDS


def reset() -> None:
    """Forget the discovered plug-ins (tests that add one through the environment)."""
    global _plugins
    _plugins = None
