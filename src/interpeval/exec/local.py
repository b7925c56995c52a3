"""Local executor: inline for one worker, a spawn-based process pool for more."""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from interpeval.exec.base import Executor, R, in_flight_window


def _single_threaded() -> None:
    """Workers share few cores: one BLAS/torch thread each avoids oversubscription."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = "1"
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


class LocalExecutor(Executor):
    """``workers=1`` runs in this process (no pickling, easy to debug); more uses a process pool.

    The pool uses the ``spawn`` start method because forking a process that already runs torch threads can
    deadlock. At most ``2 * workers`` units are in flight, so huge item lists are not all pickled at once.
    """

    def __init__(self, workers: int = 1, start_method: str = "spawn") -> None:
        self.workers = workers
        self.start_method = start_method

    def imap_unordered(self, fn: Callable[[Any], R], items: Iterable[Any]) -> Iterator[tuple[int, R]]:
        if self.workers <= 1:
            for index, item in enumerate(items):
                yield index, fn(item)
            return
        context = multiprocessing.get_context(self.start_method)
        with ProcessPoolExecutor(self.workers, mp_context=context, initializer=_single_threaded) as pool:
            yield from in_flight_window(items, lambda item: pool.submit(fn, item),
                                        lambda futures: wait(futures, return_when=FIRST_COMPLETED)[0],
                                        Future.result, 2 * self.workers)
