"""The probing grid: tasks × aggregations × probes × layers, every result written to the store, resumable.

Sentences of all tasks are encoded once into the :class:`~interpeval.benchmarks.probing.encode.LayerCache`; each work unit
(one task, one aggregation, one probe) then trains all layers' probes at once from the cache, so a unit needs no
model and runs anywhere the cache folder is readable (local processes or Ray workers). A unit is skipped when all
its layers are already in the run (same command → same run → resume after an interruption).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from interpeval.benchmarks.base import Benchmark, Record, RunKey, resume
from interpeval.benchmarks.probing.encode import LayerCache
from interpeval.benchmarks.probing.probes import LayerwiseProbe
from interpeval.benchmarks.probing.senteval import PARTS, read_task, task_files
from interpeval.errors import DataError, InterpevalError, OptionError

BENCHMARK = "probing"


def _load_unit_data(unit: dict[str, Any]) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], list[str], dict]:
    """Features ``[L, N, H]`` and label ids per part; labels are fitted on ``tr`` (sorted, as LabelEncoder)."""
    task = read_task(unit["task"])
    cache = LayerCache(unit["cache"], unit["model"], unit["official"])
    classes = sorted(set(task.labels["tr"]))
    lookup = {label: i for i, label in enumerate(classes)}
    xs, ys, dropped = {}, {}, {}
    for part in PARTS:
        labels = task.labels[part]
        unseen = [label for label in labels if label not in lookup]
        if unseen and unit["official"]:
            raise DataError(unit["task"], part, f"label {unseen[0]!r} does not occur in tr (the original's "
                            "LabelEncoder fails here too)")
        x = cache.get(task.texts[part], unit["aggregation"])
        keep = np.array([label in lookup for label in labels], dtype=bool) & ~np.isnan(x).any(axis=(1, 2))
        dropped[part] = int((~keep).sum())
        xs[part] = np.ascontiguousarray(x[keep][:, unit["layer_index"]].transpose(1, 0, 2))
        ys[part] = np.array([lookup[label] for label, k in zip(labels, keep, strict=True) if k], dtype=np.int64)
    return xs, ys, classes, dropped


def run_unit(unit: dict[str, Any]) -> dict[str, Any]:
    """Train and score one task × aggregation × probe on every requested layer (runs in a worker)."""
    xs, ys, classes, dropped = _load_unit_data(unit)
    if len(ys["te"]) == 0 or len(classes) < 2:
        raise DataError(unit["task"], None, "needs at least 2 labels in tr and some te rows")
    from interpeval import metrics

    accuracy, weighted_f1 = metrics.get("probing_accuracy").over_dataset, metrics.get("probing_weighted_f1").over_dataset
    params = dict(unit["probe_params"])

    def fit(y_tr: np.ndarray, y_va: np.ndarray) -> LayerwiseProbe:
        probe = LayerwiseProbe(unit["probe"], official=unit["official"], seed=unit["seed"], **params)
        return probe.fit(xs["tr"], y_tr, xs["va"], y_va, n_classes=len(classes))

    started = time.perf_counter()
    probe = fit(ys["tr"], ys["va"])
    pred = probe.predict(xs["te"])
    results: dict[int, dict[str, float]] = {}
    for i, layer in enumerate(unit["layers"]):
        results[layer] = {"accuracy": float(accuracy(ys["te"], pred[i])),
                          "weighted_f1": float(weighted_f1(ys["te"], pred[i]))}
    if unit["control"]:
        rng = np.random.default_rng(unit["seed"])
        shuffled = {part: rng.permutation(ys[part]) for part in ("tr", "va", "te")}
        control = fit(shuffled["tr"], shuffled["va"]).predict(xs["te"])
        for i, layer in enumerate(unit["layers"]):
            results[layer]["control_accuracy"] = float(accuracy(shuffled["te"], control[i]))
            results[layer]["selectivity"] = metrics.get("selectivity")(results[layer]["accuracy"],
                                                                       results[layer]["control_accuracy"])
    if unit["mdl"]:
        from interpeval.benchmarks.probing.mdl import online_codelength

        bits, uniform = online_codelength(xs["tr"], ys["tr"], len(classes), unit["probe"], unit["official"],
                                          unit["seed"], params)
        for i, layer in enumerate(unit["layers"]):
            results[layer]["mdl_bits"] = float(bits[i])
            results[layer]["compression"] = float(uniform / bits[i])
    return {"unit": unit, "results": results, "classes": classes, "dropped": dropped,
            "sizes": {part: int(len(ys[part])) for part in PARTS}, "seconds": time.perf_counter() - started}


def _instance_id(task: str, aggregation: str, probe: str, layer: int) -> str:
    return f"{task}|{aggregation}|{probe}|{layer}"


class ProbingGrid:
    """Run the grid over ``tasks`` (task files or folders of them) with the encoder ``model``.

    ``layers`` are 1-based transformer layers (None: all); ``aggregations`` from ``cls, first, last, sum, avg``;
    ``probes`` from ``logreg, mlp``; ``control`` adds shuffled-label control tasks and selectivity; ``mdl`` adds
    the online-code MDL of the training part; ``official`` uses the original's encoder aggregation and training
    setup. ``executor`` is ``local`` or ``ray``; ``cache_dir`` holds the layer cache; ``store`` a Store path;
    ``threads`` sets torch's threads for the encoder pass (1 is much faster on a machine whose cores are busy).
    """

    def __init__(self, tasks: Sequence[str | os.PathLike[str]], model: str = "me5-small",
                 layers: Sequence[int] | None = None, aggregations: Sequence[str] = ("avg", "cls"),
                 probes: Sequence[str] = ("logreg",), control: bool = False, mdl: bool = False,
                 official: bool = False, seed: int = 42, probe_params: dict[str, Any] | None = None,
                 cache_dir: str | os.PathLike[str] | None = None, store: str | os.PathLike[str] | None = None,
                 executor: str = "local", workers: int = 1, executor_params: dict[str, Any] | None = None,
                 batch_size: int = 32, threads: int | None = None) -> None:
        self.tasks = tasks
        self.model = model
        self.layers = layers
        self.aggregations = aggregations
        self.probes = probes
        self.control = control
        self.mdl = mdl
        self.official = official
        self.seed = seed
        self.probe_params = probe_params
        self.cache_dir = cache_dir
        self.store = store
        self.executor = executor
        self.workers = workers
        self.executor_params = executor_params
        self.batch_size = batch_size
        self.threads = threads

    def config(self) -> dict[str, Any]:
        return {"layers": list(self.layers) if self.layers else "all", "aggregations": list(self.aggregations),
                "probes": list(self.probes), "control": self.control, "mdl": self.mdl, "official": self.official,
                "seed": self.seed, "probe_params": self.probe_params or {}}

    def _cache_dir(self) -> Path:
        if self.cache_dir is not None:
            return Path(self.cache_dir)
        from interpeval.store import default_store_path

        return default_store_path().parent / "layer_cache"

    def _check_layers(self, n_layers: int) -> None:
        bad = [k for k in self.layers or () if not 1 <= k <= n_layers]
        if bad:
            raise OptionError("--layers", f"{', '.join(map(str, bad))} out of range: {self.model} has layers "
                                          f"1..{n_layers}")

    def run(self, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
        """Encode what is missing, run the units not yet in the store, and return a summary with timings."""
        from interpeval.exec import get_executor
        from interpeval.store import Store, fingerprint_files

        say = progress or (lambda _msg: None)
        files = task_files(list(self.tasks))
        tasks = [read_task(f) for f in files]
        texts = list(dict.fromkeys(t for task in tasks for part in PARTS for t in task.texts[part]))
        cache = LayerCache(self._cache_dir(), self.model, self.official)
        aggregations = list(dict.fromkeys(self.aggregations))
        summary: dict[str, Any] = {"tasks": len(tasks), "sentences": len(texts), "encoded": 0, "encode_s": 0.0}
        started = time.perf_counter()
        missing = cache.missing(texts, aggregations)
        if missing:
            from interpeval.models import load

            say(f"encoding {len(missing)} sentences with {self.model}")
            import torch

            previous = torch.get_num_threads()
            torch.set_num_threads(self.threads or previous)
            try:
                model = load(self.model, kind="encoder", batch_size=self.batch_size)
                self._check_layers(model.hf.config.num_hidden_layers)  # before the encoding, not after it
                summary["encoded"] = cache.encode(model, missing, aggregations)
            finally:
                torch.set_num_threads(previous)
            del model
        summary["encode_s"] = time.perf_counter() - started
        n_layers = cache._index()["layers"]
        self._check_layers(n_layers)
        layers = list(self.layers) if self.layers else list(range(1, n_layers + 1))
        units = [{"task": str(task.path), "cache": str(self._cache_dir()), "model": self.model,
                  "official": self.official, "aggregation": agg, "probe": probe, "layers": layers,
                  "layer_index": [k - 1 for k in layers], "seed": self.seed, "probe_params": self.probe_params or {},
                  "control": self.control, "mdl": self.mdl}
                 for task in tasks for agg in aggregations for probe in self.probes]
        say(f"{len(units)} units ({len(tasks)} tasks × {len(aggregations)} aggregations × "
            f"{len(self.probes)} probes, {len(layers)} layers each)")
        probe_started = time.perf_counter()
        executor = get_executor(self.executor, self.workers, **(self.executor_params or {}))
        with Store(self.store) as store, executor:
            bench = _GridRun(self.config(), self.model, fingerprint_files(*files), units, executor, say,
                             chunk=len(layers) * max(1, int(self.workers)))
            outcome = resume(bench, store)
            summary.update(run_id=outcome.run.id, units=bench.units_run, experiments=outcome.computed,
                           probe_s=time.perf_counter() - probe_started, store=str(store.path))
        return summary


class _GridRun(Benchmark):
    """The grid as a stored run: one item per task × aggregation × probe × layer; a chunk holds whole units
    (all layers of ``workers`` units), which the executor trains in parallel."""

    distributable = False  # its units go to the grid's own executor

    def __init__(self, config: dict[str, Any], model: str, fingerprint: str, units: list[dict[str, Any]],
                 executor: Any, say: Callable[[str], None], chunk: int) -> None:
        self.config, self.model, self.fingerprint = config, model, fingerprint
        self.units, self.executor, self.say, self.chunk = units, executor, say, chunk
        self.names = {unit["task"]: read_task(unit["task"]).name for unit in units}
        self.units_run = 0

    def key(self) -> RunKey:
        return RunKey(BENCHMARK, self.config, self.model, self.fingerprint)

    def instances(self) -> list[tuple[int, int]]:
        return [(u, layer) for u, unit in enumerate(self.units) for layer in unit["layers"]]

    def instance_id(self, item: tuple[int, int]) -> str:
        unit = self.units[item[0]]
        return _instance_id(self.names[unit["task"]], unit["aggregation"], unit["probe"], item[1])

    def compute(self, items: Sequence[tuple[int, int]]) -> list[Record]:
        wanted = list(dict.fromkeys(u for u, _ in items))
        results: dict[int, dict[str, Any]] = {}
        for i, result in self.executor.imap_unordered(run_unit, [self.units[u] for u in wanted]):
            results[wanted[i]] = result
            unit = result["unit"]
            self.say(f"{Path(unit['task']).stem} {unit['aggregation']} {unit['probe']}: {result['seconds']:.1f}s")
        self.units_run += len(wanted)
        return [_layer_record(results[u], layer) for u, layer in items]


def _layer_record(result: dict[str, Any], layer: int) -> Record:
    unit = result["unit"]
    task = read_task(unit["task"])
    metrics = result["results"][layer]
    output = {"task": task.name, "language": task.language, "category": task.category,
              "aggregation": unit["aggregation"], "probe": unit["probe"], "layer": int(layer),
              "classes": result["classes"], "sizes": result["sizes"], "dropped": result["dropped"], **metrics}
    return Record(output, metrics)


def results_frame(store_path: str | os.PathLike[str] | None, run_id: int | None = None) -> Any:
    """One row per probing experiment of a run (the latest probing run when ``run_id`` is None)."""
    import pandas as pd

    from interpeval.store import Store

    with Store(store_path) as store:
        if run_id is None:
            runs = store.runs(BENCHMARK)
            if not runs:
                raise InterpevalError(f"no probing runs in {store.path}; `interpeval probing run` makes one")
            run_id = max(r.id for r in runs)
        info = store.get_run(run_id)
        if info.benchmark != BENCHMARK:
            raise InterpevalError(f"run {run_id} in {store.path} is a {info.benchmark} run, not a probing run")
        frame = pd.DataFrame.from_records(store.instances(run_id))
    frame.attrs.update(model=info.model, run_id=run_id, config=info.config)
    return frame
