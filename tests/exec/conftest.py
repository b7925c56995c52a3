"""One local Ray cluster (2 CPUs, loopback only) for the whole test session, started on first use."""

import pytest


@pytest.fixture(scope="session")
def ray_cluster():
    """The ``ray`` module, connected to a 2-CPU local cluster that is shut down after the session."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.fixture(autouse=True)
def _tiny_models(one_torch_thread):
    """Tiny models on shared cores (tests/conftest.py: ``one_torch_thread``); Ray workers use one thread too."""
