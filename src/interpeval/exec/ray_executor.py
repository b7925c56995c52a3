"""Ray executor: the same interface as the local one, on a Ray cluster (or a local one it starts).

Units (:meth:`RayExecutor.imap_unordered`) are Ray tasks. Per-input work (:meth:`RayExecutor.run_chunks`) runs on
``workers`` Ray actors — one process each, pinned to ``gpus_per_worker`` GPUs when it asks for them — that receive
the work object (a benchmark with its model) once per run and then compute chunk after chunk with it; the workers
stay up for the executor's next run (a command's next benchmark) until :meth:`RayExecutor.close`. The driver keeps
at most two chunks queued per worker and yields results in chunk order; chunks still queued when the caller stops
(an early stop, an interrupt) are cancelled. A worker that dies (its process
killed, by a user or Ray's memory monitor; its node lost) is replaced by a new actor and its chunks are sent again, up to ``retries`` times per chunk;
a chunk's result is yielded once, whichever attempt produced it. An error raised by ``compute`` itself is not
retried: it reaches the caller as it would locally.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from interpeval.errors import InterpevalError
from interpeval.exec.base import Executor, R, in_flight_window
from interpeval.exec.placement import move_model, on_cpu, work_model

#: chunks queued on one worker at a time: one computing, one waiting (no idle gap between chunks)
QUEUE_PER_WORKER = 2


def _apply(fn: Callable[[Any], R], item: Any) -> R:
    """The Ray task body: any callable (builtins too, which ``ray.remote`` cannot wrap) applied to one item."""
    return fn(item)


def _counters(work: Any) -> dict[str, float]:
    counters = getattr(work, "counters", None)
    return dict(counters()) if counters is not None else {}


class ChunkWorker:
    """The body of one Ray actor: keeps one run's work object (model loaded, on its GPU if Ray gave it one)."""

    def __init__(self, threads: int) -> None:
        import torch

        torch.set_num_threads(max(1, threads))
        self.run_id: int | None = None
        self.work: Any = None

    def pid(self) -> int:
        return os.getpid()

    def load(self, run_id: int, work: Any) -> None:
        """Keep ``work`` for the chunks of run ``run_id`` (Ray passes the object, fetched once per worker)."""
        import ray

        self.run_id, self.work = run_id, work
        model = work_model(work)
        if model is not None and ray.get_gpu_ids():
            move_model(model, "cuda")  # Ray sets CUDA_VISIBLE_DEVICES: "cuda" is this worker's own GPU

    def compute(self, run_id: int, items: list[Any]) -> tuple[list[Any], dict[str, float]]:
        """``work.compute(items)`` and what it added to the work's counters."""
        if run_id != self.run_id:
            raise RuntimeError(f"worker holds run {self.run_id}, asked for a chunk of run {run_id}")
        before = _counters(self.work)
        results = self.work.compute(items)
        after = _counters(self.work)
        return results, {k: v - before.get(k, 0.0) for k, v in after.items()}


class RayExecutor(Executor):
    """Submit each unit as a Ray task, each chunk of per-input work to a Ray actor.

    ``address=None`` joins the cluster this process is connected to, or starts a local one (``num_cpus`` CPUs);
    ``"auto"`` or ``"HOST:PORT"`` joins a cluster started with ``ray start --head``. A cluster that this executor
    started is shut down by :meth:`close`; one it joined is left running. ``max_in_flight`` bounds the
    submitted-but-unfinished tasks (default: 4 per CPU). ``workers`` (default: as many as the cluster's CPUs,
    or GPUs / ``gpus_per_worker``, allow) is the number of actors for per-input work; each reserves
    ``cpus_per_worker`` CPUs (and torch threads) and ``gpus_per_worker`` GPUs.
    """

    def __init__(self, address: str | None = None, num_cpus: int | None = None,
                 max_in_flight: int | None = None, init_kwargs: dict[str, Any] | None = None,
                 workers: int | None = None, gpus_per_worker: float = 0.0, cpus_per_worker: int = 1,
                 retries: int = 3) -> None:
        self.address = address
        self.num_cpus = num_cpus
        self.max_in_flight = max_in_flight
        self.init_kwargs = init_kwargs
        self.workers = workers
        self.gpus_per_worker = gpus_per_worker
        self.cpus_per_worker = cpus_per_worker
        self.retries = retries
        #: workers replaced after dying (each of their queued chunks was sent again)
        self.replaced = 0
        self._actors: list[Any] = []
        self._runs = 0

    def _ray(self) -> Any:
        try:
            import ray
        except ImportError:
            raise ImportError("the Ray executor needs ray: pip install 'interpeval[ray]'") from None
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            kwargs.update(self.init_kwargs or {})
            if self.address is not None:
                kwargs["address"] = self.address
            elif self.num_cpus is not None:
                kwargs["num_cpus"] = self.num_cpus
            try:
                ray.init(**kwargs)
            except ConnectionError as err:
                raise InterpevalError(f"cannot join the Ray cluster at {self.address!r}: {err}") from None
            self._started_ = True
        return ray

    def imap_unordered(self, fn: Callable[[Any], R], items: Iterable[Any]) -> Iterator[tuple[int, R]]:
        ray = self._ray()
        remote = ray.remote(_apply)
        limit = self.max_in_flight or 4 * max(1, int(ray.cluster_resources().get("CPU", 1)))
        yield from in_flight_window(items, lambda item: remote.remote(fn, item),
                                    lambda refs: ray.wait(refs, num_returns=1)[0], ray.get, limit)

    # ------------------------------------------------------------------------------------------ per-input work
    def _worker_count(self, ray: Any) -> int:
        resources = ray.cluster_resources()
        if self.gpus_per_worker > 0:
            gpus = resources.get("GPU", 0)
            if gpus < self.gpus_per_worker:
                raise InterpevalError(f"--gpus-per-worker {self.gpus_per_worker:g}: the Ray cluster has {gpus:g} "
                                      "GPUs (start the GPU nodes with `ray start`, or use 0 GPUs per worker)")
            fit = int(gpus // self.gpus_per_worker)
        else:
            fit = int(resources.get("CPU", 1) // self.cpus_per_worker)
        return max(1, self.workers or fit)

    def _new_worker(self, ray: Any) -> Any:
        # a fresh process with the driver's MKL mode (strict reproducibility unless the user set another), so its
        # matrix products are bitwise those of the driver's whatever its thread count (``interpeval.MKL_REPRODUCIBLE``)
        runtime_env = {"env_vars": {"MKL_CBWR": os.environ["MKL_CBWR"]}} if "MKL_CBWR" in os.environ else None
        actor = ray.remote(num_cpus=self.cpus_per_worker, num_gpus=self.gpus_per_worker, max_restarts=0,
                           runtime_env=runtime_env)(ChunkWorker)
        return actor.remote(self.cpus_per_worker)

    def worker_pids(self) -> list[int]:
        """The process ids of the current per-input workers (tests kill one to check recovery)."""
        import ray

        return ray.get([actor.pid.remote() for actor in self._actors])

    def run_chunks(self, work: Any, chunks: Iterable[Sequence[Any]]) -> Iterator[list[Any]]:
        ray = self._ray()
        from ray.exceptions import OutOfMemoryError, RayActorError, WorkerCrashedError

        lost = (RayActorError, WorkerCrashedError, OutOfMemoryError)  # the worker process is gone
        chunks = [list(c) for c in chunks]
        if not chunks:
            return
        if not self._actors:
            self._actors = [self._new_worker(ray) for _ in range(self._worker_count(ray))]
        self._runs += 1
        run_id = self._runs
        with on_cpu(work):
            ref = ray.put(work)
        for actor in self._actors:
            actor.load.remote(run_id, ref)
        queued: dict[Any, int] = {actor: 0 for actor in self._actors}
        in_flight: dict[Any, tuple[int, Any, int]] = {}  # result ref → (chunk index, actor, attempt)
        done: dict[int, list[Any]] = {}
        next_send = next_yield = 0
        window = (QUEUE_PER_WORKER + 1) * len(self._actors)  # chunks sent but not yet yielded

        def send(index: int, actor: Any, attempt: int) -> None:
            in_flight[actor.compute.remote(run_id, chunks[index])] = (index, actor, attempt)
            queued[actor] += 1
            self.chunks_sent += 1

        try:
            while next_yield < len(chunks):
                while next_send < len(chunks) and next_send - next_yield < window:
                    actor = min(queued, key=queued.__getitem__)
                    if queued[actor] >= QUEUE_PER_WORKER:
                        break
                    send(next_send, actor, 0)
                    next_send += 1
                (ready,), _ = ray.wait(list(in_flight), num_returns=1)
                index, actor, attempt = in_flight.pop(ready)
                try:
                    results, delta = ray.get(ready)
                except lost as err:
                    if attempt >= self.retries:
                        raise InterpevalError(f"chunk {index} was lost with its Ray worker {attempt + 1} times; "
                                              f"last: {type(err).__name__}") from err
                    if actor in queued:  # the first of its chunks to fail: replace the worker
                        del queued[actor]
                        self._actors.remove(actor)
                        ray.kill(actor, no_restart=True)
                        fresh = self._new_worker(ray)
                        fresh.load.remote(run_id, ref)
                        self._actors.append(fresh)
                        queued[fresh] = 0
                        self.replaced += 1
                    send(index, min(queued, key=queued.__getitem__), attempt + 1)
                    continue
                queued[actor] -= 1
                add = getattr(work, "add_counters", None)
                if add is not None and delta:
                    add(delta)
                done[index] = results
                while next_yield in done:
                    yield done.pop(next_yield)
                    next_yield += 1
        finally:
            for pending in in_flight:  # stopped early or interrupted: the queued chunks are not needed
                ray.cancel(pending)

    def _kill_workers(self, ray: Any) -> None:
        for actor in self._actors:
            ray.kill(actor, no_restart=True)
        self._actors = []

    def close(self) -> None:
        if self._actors:
            import ray

            if ray.is_initialized():
                self._kill_workers(ray)
            self._actors = []
        if getattr(self, "_started_", False):
            import ray

            ray.shutdown()
            self._started_ = False
