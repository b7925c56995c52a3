import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import pytest  # noqa: E402


@pytest.fixture
def one_torch_thread():
    """Tiny models on shared cores: torch's intra-op threads spin instead of helping. Folders whose tests use tiny
    models request it from an autouse fixture of their own conftest."""
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)


@pytest.fixture(autouse=True, scope="session")
def benchmark_study_kinds():
    """Tests drive studies of the benchmarks' kinds (``plm-rationale``, ``iqs``) through :class:`Studies` directly:
    their plug-ins' ``studies`` parts are loaded first, as the web app and ``interpeval iqs study`` do."""
    from interpeval.plugins import study_kinds

    study_kinds()


BROWSER_TESTS = "test_browser.py"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """With INTERPEVAL_REQUIRE_BROWSER=1 (set by `make test`), a skipped browser test is a failure: a missing
    Chromium must not pass for a green run."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and item.path.name == BROWSER_TESTS and os.environ.get("INTERPEVAL_REQUIRE_BROWSER") == "1":
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.longrepr = f"browser test skipped under INTERPEVAL_REQUIRE_BROWSER=1: {reason}"
