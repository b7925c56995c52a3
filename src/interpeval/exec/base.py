"""The executor interface shared by the local and the Ray executor."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

R = TypeVar("R")


class Executor:
    """Runs ``fn(item)`` for many items; subclasses implement :meth:`imap_unordered`."""

    def imap_unordered(self, fn: Callable[[Any], R], items: Iterable[Any]) -> Iterator[tuple[int, R]]:
        raise NotImplementedError

    def map(self, fn: Callable[[Any], R], items: Iterable[Any]) -> list[R]:
        """Results in the order of ``items`` (waits for all)."""
        items = list(items)
        out: list[Any] = [None] * len(items)
        for index, result in self.imap_unordered(fn, items):
            out[index] = result
        return out

    def close(self) -> None:
        """Release workers; the executor may be used again afterwards (it restarts them)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def get_executor(name: str, workers: int | None = None, **params: Any) -> Executor:
    """``"local"`` (processes on this machine) or ``"ray"`` (a Ray cluster; ``address`` in ``params``)."""
    from interpeval.exec.local import LocalExecutor
    from interpeval.exec.ray_executor import RayExecutor

    if name == "local":
        return LocalExecutor(workers=workers or 1, **params)
    if name == "ray":
        return RayExecutor(num_cpus=workers, **params)
    raise ValueError(f"unknown executor {name!r}; choose 'local' or 'ray'")


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
