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
one store transaction, so a kill loses at most the chunks in flight) and a rerun of a finished run computes nothing.
The chunks can be computed elsewhere — on a Ray cluster, by workers that hold the benchmark and its model — through
an executor (:mod:`interpeval.exec`); the stored results are the same.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from interpeval.exec.base import Executor, current_executor


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
    #: whether :meth:`compute` may run on other workers (False: it makes no model pass, or distributes itself)
    distributable: ClassVar[bool] = True
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


def plan_chunks(ids: Sequence[str], stored: Container[str], chunk: int) -> list[list[int]]:
    """The positions of the items to compute, cut into chunks: runs of consecutive missing items, at most
    ``chunk`` long (what an uninterrupted run computes together; a stored item ends a chunk)."""
    plan: list[list[int]] = []
    for position, item_id in enumerate(ids):
        if item_id in stored:
            continue
        if plan and plan[-1][-1] == position - 1 and len(plan[-1]) < chunk:
            plan[-1].append(position)
        else:
            plan.append([position])
    return plan


def resume(benchmark: Benchmark, store: Any, progress: Callable[[int, int], None] | None = None,
           executor: Executor | None = None) -> Outcome:
    """Run ``benchmark`` in ``store``: reuse every stored output, compute the missing ones, record, summarize.

    The missing items are cut into chunks (:func:`plan_chunks`) and computed by ``executor`` (default: the one
    set by :func:`interpeval.exec.using`, else this process; always this process for a benchmark that is not
    :attr:`~Benchmark.distributable`): only the missing chunks are sent, results come back in chunk order and this
    process alone writes them, one item per transaction, in item order. ``progress(done, total)`` is called after
    each chunk. The run is marked finished unless :meth:`Benchmark.enough` stopped early — it is finished then too,
    since the stored prefix is all that was asked for (chunks computed beyond it are not stored).
    """
    key = benchmark.key()
    items = list(benchmark.instances())  # before the run exists: nothing is stored for a run that fails validation
    ids = [benchmark.instance_id(item) for item in items]
    if len(set(ids)) != len(ids):
        duplicate = next(i for i in ids if ids.count(i) > 1)
        raise ValueError(f"{key.benchmark}: instance id {duplicate!r} occurs twice")
    from interpeval.models.zoo import revision

    run = store.run(key.benchmark, key.config, key.model, key.data_fingerprint, revision(key.model))
    results = None
    try:
        stored = {row["instance_id"]: row for row in store.instances(run.id)}
        outcome = Outcome(run, stored=sum(i in stored for i in ids))
        plan = plan_chunks(ids, stored, max(1, int(benchmark.chunk)))
        if executor is None:
            executor = current_executor() if benchmark.distributable else Executor()
        results = executor.run_chunks(benchmark, ([items[i] for i in todo] for todo in plan))
        position = 0
        for todo in plan:
            while position < todo[0] and not benchmark.enough(outcome.outputs):
                outcome.outputs.append(stored[ids[position]])
                position += 1
            if benchmark.enough(outcome.outputs):
                break
            records = next(results)
            if len(records) != len(todo):
                raise RuntimeError(f"{key.benchmark}: compute returned {len(records)} records for {len(todo)} items")
            for i, record in zip(todo, records, strict=True):
                run.record(ids[i], record.output, record.metrics)
                outcome.outputs.append({"instance_id": ids[i], **record.output})
            outcome.computed += len(todo)
            position = todo[-1] + 1
            if progress is not None:
                progress(position, len(items))
        while position < len(items) and not benchmark.enough(outcome.outputs):
            outcome.outputs.append(stored[ids[position]])
            position += 1
        if outcome.computed:  # the outputs as stored (JSON), the same whether computed now or read back
            stored = {row["instance_id"]: row for row in store.instances(run.id)}
            outcome.outputs = [stored[row["instance_id"]] for row in outcome.outputs]
        for group, values in benchmark.summarize(outcome.outputs).items():
            run.add_metrics(values, group=group)
    except BaseException:  # an error or Ctrl-C: failed, not finished; the same command resumes it
        run.fail()
        raise
    finally:
        if results is not None:
            results.close()  # stops remote work still queued (an early stop or an error)
    run.finish()
    return outcome
