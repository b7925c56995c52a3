"""The executor interface shared by the local and the Ray executor.

Two kinds of work go through it:

* independent *units* (files to convert, probing experiments): ``imap_unordered(fn, items)`` / ``map``;
* *per-input* work (explaining, scoring, predicting inputs with one model): ``run_chunks(work, chunks)`` where
  ``work`` is an object with ``compute(items) -> list`` (a :class:`~interpeval.benchmarks.base.Benchmark`, its model
  inside) and ``chunks`` are lists of its items. Results come back in chunk order; the caller (the driver) is the
  only one that writes them anywhere. The local executor computes each chunk in this process when it is asked for
  the next one; the Ray executor ships ``work`` once to each worker (a Ray actor that keeps it, model loaded, for
  the whole run) and computes several chunks at once.

``work`` may also define ``counters() -> dict[str, float]`` (running totals such as timings and pass counts that
``compute`` adds to) and ``add_counters(delta)``: a remote worker returns what one chunk added, and the driver adds
it to its own copy, so the totals are those of a local run.

:func:`using` makes an executor the one that :func:`~interpeval.benchmarks.base.resume` sends per-input chunks to
(a command line's ``--executor`` option sets it for the command): every benchmark run inside the block — a
QUACKIE selection, its explanations, an IQS method — then uses the same workers, with no executor argument
threaded through the benchmark code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

R = TypeVar("R")


class Executor:
    """Runs ``fn(item)`` for many items (:meth:`imap_unordered`, which subclasses implement) and per-input chunks
    of one work object (:meth:`run_chunks`, in this process unless a subclass distributes it)."""

    #: chunks handed to workers by :meth:`run_chunks` (retries included), for tests and benchmarks
    chunks_sent: int = 0

    def imap_unordered(self, fn: Callable[[Any], R], items: Iterable[Any]) -> Iterator[tuple[int, R]]:
        raise NotImplementedError

    def map(self, fn: Callable[[Any], R], items: Iterable[Any]) -> list[R]:
        """Results in the order of ``items`` (waits for all)."""
        items = list(items)
        out: list[Any] = [None] * len(items)
        for index, result in self.imap_unordered(fn, items):
            out[index] = result
        return out

    def run_chunks(self, work: Any, chunks: Iterable[Sequence[Any]]) -> Iterator[list[Any]]:
        """``work.compute(chunk)`` for each chunk in order, computed when the caller asks for it (so a caller that
        stops early, or is interrupted, computes nothing more)."""
        for chunk in chunks:
            self.chunks_sent += 1
            yield work.compute(list(chunk))

    def close(self) -> None:
        """Release workers; the executor may be used again afterwards (it restarts them)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def in_flight_window(items: Iterable[Any], submit: Callable[[Any], Any],
                     wait_some: Callable[[list[Any]], Iterable[Any]], result: Callable[[Any], R],
                     limit: int) -> Iterator[tuple[int, R]]:
    """Keep at most ``limit`` submitted items in flight; yield ``(index, result)`` as handles complete.

    ``submit(item)`` returns a handle (a future, a Ray object ref); ``wait_some(handles)`` returns the finished ones.
    """
    pending: dict[Any, int] = {}
    iterator = enumerate(items)
    exhausted = False
    while True:
        while not exhausted and len(pending) < limit:
            try:
                index, item = next(iterator)
            except StopIteration:
                exhausted = True
                break
            pending[submit(item)] = index
        if not pending:
            return
        for handle in wait_some(list(pending)):
            yield pending.pop(handle), result(handle)


_CURRENT: ContextVar[Executor | None] = ContextVar("interpeval_executor", default=None)


def current_executor() -> Executor:
    """The executor set by the innermost :func:`using` block, or one that computes in this process."""
    return _CURRENT.get() or Executor()


@contextmanager
def using(executor: Executor) -> Iterator[Executor]:
    """Send the per-input work of every benchmark run inside the block to ``executor``."""
    token = _CURRENT.set(executor)
    try:
        yield executor
    finally:
        _CURRENT.reset(token)
