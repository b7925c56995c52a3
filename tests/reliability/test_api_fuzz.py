"""The web app fuzzed from its own OpenAPI schema (Schemathesis) over real HTTP on loopback, anonymous and as admin.

Every operation of ``/api/openapi.json`` gets schema-valid (positive) and schema-violating (negative) requests,
a bounded number each; the ``/api/`` POST operations declare their JSON bodies, so bodies are generated too. On
``/api/`` operations all of Schemathesis' own checks run on every answer (no 5xx; status codes, content types and
bodies as the schema declares; schema-violating data rejected; schema-valid data accepted, i.e. answered 2xx, or
401/403/404/409 for what a schema cannot promise: credentials, roles, ids that exist), and every 4xx must carry a
JSON body ``{"detail": ...}``. On the HTML pages only "no 5xx" (their errors are pages, a 401 a redirect to /login). The store holds a real study with an annotator's assignments, so ids that exist are reachable.
"""

from __future__ import annotations

from collections import Counter

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.core import NOT_SET  # noqa: E402

from interpeval.store.studies import Studies  # noqa: E402

EXAMPLES = 3  # per operation, per generation mode, per identity: ~25 operations → a few hundred requests


def _study_store(path):
    with Studies(path) as studies:
        admin, admin_token = studies.add_user("admin", "admin")
        annotator, _ = studies.add_user("annotator", "annotator")
        study = studies.create_study("fuzz", "generic", [{"key": f"item-{i}", "payload": {"text": f"sentence {i}"}}
                                                         for i in range(3)], created_by=admin.id)
        studies.assign(study.id, annotator.id)
    return admin_token


def _json_error(response) -> str | None:
    """Why a 4xx answer under /api/ is not a JSON error body, or None."""
    try:
        body = response.json()
    except ValueError:
        return f"body is not JSON: {response.text[:200]!r}"
    if not isinstance(body, dict) or "detail" not in body:
        return f"JSON body without 'detail': {body!r:.200}"
    return None


@pytest.mark.slow
def test_generated_requests_get_no_server_error_and_conform_to_the_schema(tmp_path, server, seeded):
    store, _ = seeded
    token = _study_store(store)
    live = server(store)
    schema = schemathesis.openapi.from_url(f"{live.url}/api/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20
    sent: Counter[str] = Counter()
    failures: list[str] = []

    for identity, headers in (("anonymous", {}), ("admin", {"Authorization": f"Bearer {token}"})):
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            for operation in operations:
                _fuzz(operation, mode, live.url, identity, headers, sent, failures)

    failures += _out_of_range_ids(live.url, token)
    bodies = {key: n for key, n in sent.items() if key.endswith("with body")}
    print(f"API fuzz: {len(operations)} operations, {sum(sent.values()) - sum(bodies.values())} generated requests "
          f"({dict(sent)}), {len(failures)} failures")
    assert sent["anonymous"] >= len(operations) and sent["admin"] >= len(operations)
    assert sent["admin with body"] >= 4 * EXAMPLES  # the four /api/ POST operations, positive and negative
    assert not failures, "\n".join(failures[:20])


def _out_of_range_ids(base_url: str, token: str) -> list[str]:
    """The ids the first fuzzing found (beyond SQLite's integer range: OverflowError, 500), asked on purpose: a 4xx
    with a JSON body under /api/, no 5xx anywhere; a token or invite code with such an id is just wrong."""
    import httpx

    problems = []
    with httpx.Client(base_url=base_url, timeout=30, follow_redirects=False) as http:
        for bad in (2**63, 2**64 + 1, 0, -1):
            for method, path in (("POST", f"/a/{bad}"), ("GET", f"/a/{bad}"), ("GET", f"/api/runs/{bad}"),
                                 ("GET", f"/api/assignments/{bad}"), ("POST", f"/api/assignments/{bad}"),
                                 ("GET", f"/api/me/assignments?study_id={bad}"), ("GET", f"/invite/{bad}.x"),
                                 ("GET", "/api/me")):
                headers = {"Authorization": f"Bearer {token if path != '/api/me' else f'{bad}.secret'}"}
                response = http.request(method, path, headers=headers, json={"answer": {}})
                if response.status_code >= 500 or (path.startswith("/api/") and (
                        not 400 <= response.status_code < 500 or _json_error(response))):
                    problems.append(f"{method} {path}: {response.status_code} {response.text[:200]}")
    return problems


def _fuzz(operation, mode, base_url: str, identity: str, headers: dict, sent: Counter, failures: list[str]) -> None:
    """Send up to :data:`EXAMPLES` generated requests for one operation; count them, collect every failed check."""

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode))
    def fuzz(case):
        sent[identity] += 1
        if case.body is not NOT_SET:
            sent[f"{identity} with body"] += 1
        label = f"{identity} {case.method} {case.formatted_path}"
        api = case.formatted_path.startswith("/api/")
        try:  # pages answer errors in HTML by design (a 401 is a redirect to /login): only "no 5xx" for them
            response = case.call_and_validate(base_url=base_url, headers=headers, timeout=30,
                                              checks=None if api else [not_a_server_error])
        except BaseException as err:  # failed checks (an exception group): collect them all, judge at the end
            if isinstance(err, (KeyboardInterrupt, SystemExit)):
                raise
            failures.append(f"{label}: {str(err)[:600]}")
            return
        if api and 400 <= response.status_code < 500:
            problem = _json_error(response)
            if problem:
                failures.append(f"{label}: {response.status_code} {problem}")

    try:
        fuzz()
    except Exception as err:  # an operation without a negative form cannot be generated
        if type(err).__name__ != "Unsatisfiable":
            raise
