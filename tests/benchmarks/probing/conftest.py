import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the hand-made CoNLL-U helpers (conllu_cases.py)


@pytest.fixture(autouse=True)
def _tiny_models(one_torch_thread):
    """Every test here runs tiny models (tests/conftest.py: ``one_torch_thread``)."""
