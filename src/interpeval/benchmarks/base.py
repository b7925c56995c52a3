"""The Benchmark noun: instances → per-instance work → records → tables, and the one resume loop.

Every benchmark (QUACKIE, ExpMRC, probing, the masked-LM and IQS benchmarks, ``interpeval attribute`` and
``interpeval evaluate``) describes one stored run as a :class:`Benchmark`:

* :meth:`Benchmark.key` — the :class:`RunKey` (benchmark name, config, model, data fingerprint). Everything that can
  change a stored number belongs in ``config`` (``chunk`` included where batching changes the floating-point sum), so
  the same command finds the same run and another setting gets a new one;
* :meth:`Benchmark.instances` — the work items in order, each with a string id (:meth:`Benchmark.instance_id`);
* :meth:`Benchmark.compute` — the :class:`Record` of each item of one chunk (the expensive part: model passes);
* :meth:`Benchmark.summarize` — run-level metrics from all outputs, by group (cheap, recomputed on every run);
* :meth:`Benchmark.enough` — optional early stop (e.g. "the first ``limit`` true positives").

:func:`resume` runs it: the stored outputs are read once, only items without one are computed (in chunks, each item
one store transaction, so a kill loses at most the chunk in flight) and a rerun of a finished run computes nothing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass(frozen=True)
class RunKey:
    """What identifies a stored run: the store hashes all four fields."""

    benchmark: str
    config: dict[str, Any]
    model: str = ""
    data_fingerprint: str = ""


@dataclass
class Record:
    """One item's result: its JSON ``output`` and optional per-instance ``metrics`` (stored together)."""

    output: dict[str, Any]
    metrics: dict[str, float] | None = None


@dataclass
class Outcome:
    """What :func:`resume` returns: the run, every item's stored output in item order, and how many were computed."""

    run: Any
    outputs: list[dict[str, Any]] = field(default_factory=list)
    computed: int = 0
    stored: int = 0


class Benchmark(ABC):
    """One stored run's worth of work; subclasses implement :meth:`key`, :meth:`instances` and :meth:`compute`."""

    #: items per :meth:`compute` call (and per progress step)
    chunk: int = 8
    name: ClassVar[str] = ""

    @abstractmethod
    def key(self) -> RunKey:
        """The run key: benchmark name, every result-changing option, model, data fingerprint."""

    @abstractmethod
    def instances(self) -> Sequence[Any]:
        """The work items, in order."""

    @abstractmethod
    def compute(self, items: Sequence[Any]) -> list[Record]:
        """One :class:`Record` per item of ``items`` (in order)."""

    def instance_id(self, item: Any) -> str:
        """The item's id in the run (default: its ``id`` attribute)."""
        return str(item.id)

    def summarize(self, outputs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
        """Run-level metrics ``{group: {name: value}}`` from all outputs (default: none)."""
        return {}

    def enough(self, outputs: list[dict[str, Any]]) -> bool:
        """True when the outputs so far (in item order) make the rest unnecessary (default: never)."""
        return False


def resume(benchmark: Benchmark, store: Any, progress: Callable[[int, int], None] | None = None) -> Outcome:
    """Run ``benchmark`` in ``store``: reuse every stored output, compute the missing ones, record, summarize.

    ``progress(done, total)`` is called after each chunk. The run is marked finished unless :meth:`Benchmark.enough`
    stopped early — it is finished then too, since the stored prefix is all that was asked for.
    """
    key = benchmark.key()
    items = list(benchmark.instances())  # before the run exists: nothing is stored for a run that fails validation
    ids = [benchmark.instance_id(item) for item in items]
    if len(set(ids)) != len(ids):
        duplicate = next(i for i in ids if ids.count(i) > 1)
        raise ValueError(f"{key.benchmark}: instance id {duplicate!r} occurs twice")
    from interpeval.models.zoo import revision

    run = store.run(key.benchmark, key.config, key.model, key.data_fingerprint, revision(key.model))
    try:
        stored = {row["instance_id"]: row for row in store.instances(run.id)}
        outcome = Outcome(run, stored=sum(i in stored for i in ids))
        chunk = max(1, int(benchmark.chunk))
        position = 0
        while position < len(items) and not benchmark.enough(outcome.outputs):
            if ids[position] in stored:
                outcome.outputs.append(stored[ids[position]])
                position += 1
                continue
            todo = []  # the next run of missing items, at most one chunk
            while position < len(items) and len(todo) < chunk and ids[position] not in stored:
                todo.append(position)
                position += 1
            records = benchmark.compute([items[i] for i in todo])
            if len(records) != len(todo):
                raise RuntimeError(f"{key.benchmark}: compute returned {len(records)} records for {len(todo)} items")
            for i, record in zip(todo, records, strict=True):
                run.record(ids[i], record.output, record.metrics)
                outcome.outputs.append({"instance_id": ids[i], **record.output})
            outcome.computed += len(todo)
            if progress is not None:
                progress(position, len(items))
        if outcome.computed:  # the outputs as stored (JSON), the same whether computed now or read back
            stored = {row["instance_id"]: row for row in store.instances(run.id)}
            outcome.outputs = [stored[row["instance_id"]] for row in outcome.outputs]
        for group, values in benchmark.summarize(outcome.outputs).items():
            run.add_metrics(values, group=group)
    except BaseException:  # an error or Ctrl-C: failed, not finished; the same command resumes it
        run.fail()
        raise
    run.finish()
    return outcome
