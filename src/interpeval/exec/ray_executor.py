"""Ray executor: the same interface as the local one, on a Ray cluster (or a local one it starts)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from interpeval.exec.base import Executor, R, in_flight_window


def _apply(fn: Callable[[Any], R], item: Any) -> R:
    """The Ray task body: any callable (builtins too, which ``ray.remote`` cannot wrap) applied to one item."""
    return fn(item)


class RayExecutor(Executor):
    """Submit each unit as a Ray task; ``address=None`` joins a running cluster or starts a local one.

    A cluster that this executor started is shut down by :meth:`close`; one it joined is left running.
    ``max_in_flight`` bounds the submitted-but-unfinished tasks (default: 4 per CPU).
    """

    def __init__(self, address: str | None = None, num_cpus: int | None = None,
                 max_in_flight: int | None = None, init_kwargs: dict[str, Any] | None = None) -> None:
        self.address = address
        self.num_cpus = num_cpus
        self.max_in_flight = max_in_flight
        self.init_kwargs = init_kwargs

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
            ray.init(**kwargs)
            self._started_ = True
        return ray

    def imap_unordered(self, fn: Callable[[Any], R], items: Iterable[Any]) -> Iterator[tuple[int, R]]:
        ray = self._ray()
        remote = ray.remote(_apply)
        limit = self.max_in_flight or 4 * max(1, int(ray.cluster_resources().get("CPU", 1)))
        yield from in_flight_window(items, lambda item: remote.remote(fn, item),
                                    lambda refs: ray.wait(refs, num_returns=1)[0], ray.get, limit)

    def close(self) -> None:
        if getattr(self, "_started_", False):
            import ray

            ray.shutdown()
            self._started_ = False
