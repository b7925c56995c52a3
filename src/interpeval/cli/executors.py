"""The one option set of every command that makes model passes per input: where they run (``--executor local|ray``,
``--address``, ``--workers``, ``--gpus-per-worker``) and in what precision and batch (``--dtype fp32|bf16``,
``--memory-gb``).

``@executor_options`` adds the options to a typer command and runs the command inside
:func:`interpeval.exec.using`, so every benchmark run the command starts (:func:`~interpeval.benchmarks.base.resume`)
sends its chunks there (the workers are stopped when the command ends), and inside
:func:`interpeval.models.load.loading`, so every model it loads computes in ``--dtype`` and sizes its batches for
``--memory-gb`` (docs/cluster.md, "GPUs").
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import typer

from interpeval.errors import OptionError

#: (parameter name, annotation, typer option) of each option, in the order ``--help`` lists them
OPTIONS: tuple[tuple[str, type, Any], ...] = (
    ("executor", str, typer.Option("local", "--executor", help="Where per-input work runs: local (this process) or "
                                                               "ray (Ray workers; see docs/cluster.md).")),
    ("address", str, typer.Option(None, "--address", help="Ray cluster to join (HOST:PORT or auto; default: start a "
                                                          "local one with --workers CPUs).")),
    ("workers", int, typer.Option(None, "--workers", help="Ray workers, each holding the model once (default: one "
                                                          "per cluster CPU, or per GPU with --gpus-per-worker).")),
    ("gpus_per_worker", float, typer.Option(0.0, "--gpus-per-worker", help="GPUs reserved by each Ray worker; the "
                                                                           "model is moved to its GPU.")),
    ("dtype", str, typer.Option("fp32", "--dtype", help="Precision of the model passes: fp32, or bf16 (autocast; "
                                                        "weights stay fp32).")),
    ("memory_gb", float, typer.Option(None, "--memory-gb", help="Memory per device for the automatic batch size "
                                                                "(default: a GPU's free memory; a CPU uses 32 rows).")),
)
LOAD_OPTIONS = ("dtype", "memory_gb")


def build_executor(executor: str, address: str | None, workers: int | None, gpus_per_worker: float) -> Any:
    """The executor the options describe, after checking them (a clear error before any work starts)."""
    from interpeval import validate
    from interpeval.exec import EXECUTORS, get_executor

    validate.one_of(executor, EXECUTORS, "--executor")
    validate.at_least(workers, 1, "--workers")
    validate.at_least(gpus_per_worker, 0, "--gpus-per-worker")
    if executor == "local":
        for name, given in (("--address", address is not None), ("--workers", (workers or 1) > 1),
                            ("--gpus-per-worker", gpus_per_worker > 0)):
            if given:
                raise OptionError(name, "needs --executor ray (the local executor computes in this process)")
        return get_executor("local")
    try:
        import ray  # noqa: F401
    except ImportError:
        raise OptionError("--executor", "ray is not installed: pip install 'interpeval[ray]'") from None
    return get_executor("ray", workers, address=address, gpus_per_worker=gpus_per_worker)


def executor_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give ``command`` the executor options; it runs with the executor they describe set by ``using``."""
    names = [name for name, _, _ in OPTIONS]
    signature = inspect.signature(command)
    clash = [n for n in names if n in signature.parameters]
    if clash:
        raise TypeError(f"{command.__name__} already has parameters {clash}")

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from interpeval import validate
        from interpeval.exec import using
        from interpeval.models.load import AUTOCAST, loading

        dtype, memory_gb = (kwargs.pop(n) for n in LOAD_OPTIONS)
        validate.one_of(dtype, tuple(AUTOCAST), "--dtype")
        if memory_gb is not None and memory_gb <= 0:
            raise OptionError("--memory-gb", f"must be above 0, got {memory_gb:g}")
        executor = build_executor(*(kwargs.pop(n) for n in names if n not in LOAD_OPTIONS))
        memory = None if memory_gb is None else int(memory_gb * (1 << 30))
        with executor, using(executor), loading(autocast=dtype, memory=memory):
            return command(*args, **kwargs)

    extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
             for name, kind, option in OPTIONS]
    params = list(signature.parameters.values())
    wrapper.__signature__ = signature.replace(parameters=[  # type: ignore[attr-defined]
        *(p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in params), *extra])
    wrapper.__annotations__ = {**command.__annotations__, **{name: kind for name, kind, _ in OPTIONS}}
    return wrapper
