from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def _tiny_models(one_torch_thread):
    """Every test here runs tiny models (tests/conftest.py: ``one_torch_thread``)."""


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def tiny_mlm():
    from interpeval.models import tiny

    return tiny("masked-lm")
