import sys
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).parent))  # the hand-made CoNLL-U helpers (conllu_cases.py)


@pytest.fixture(autouse=True)
def _one_torch_thread():
    """The cores are shared: torch's intra-op threads spin instead of helping on these tiny models."""
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)
