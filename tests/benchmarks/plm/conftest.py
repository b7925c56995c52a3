from pathlib import Path

import pytest
import torch

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def _one_torch_thread():
    """The cores are shared: torch's intra-op threads spin instead of helping on these tiny models."""
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def tiny_mlm():
    from interpeval.models import tiny

    return tiny("masked-lm")
