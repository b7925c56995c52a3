"""Permissions as a table: every route × every role, with the expected status, over real HTTP.

`interpeval serve` (uvicorn) runs on a loopback port for the module. Roles: anonymous, an annotator of study S (who
owns assignment A), a checker of S, the admin who made S, and the admin of another study T. The app's admin role is
global (``need_user(request, ("admin",))``), so another study's admin may manage S as well; the table pins that
rule, so a change to per-study admins shows up here. Requests carry ``Authorization: Bearer`` tokens (no CSRF
check applies to a header a browser never sends on its own; the cookie + CSRF path is tested in test_app.py).

HTML pages answer an anonymous request with 303 to /login; the JSON API answers 401. Every expected status follows
from the rules in ``web/app.py``'s docstrings, not from a recorded run: public pages 200, study management admin
only, an assignment only for its own user (not even an admin), a study page for admins and users with an
assignment in it (a checker with nothing to check yet gets 403).
"""

from __future__ import annotations

import pytest

from interpeval.store.studies import Studies

ROLES = ("anonymous", "annotator", "checker", "admin", "other_admin")
PAYLOAD = {"sent_id": 0, "sent_token": ["a", "b", "[MASK]", "c"], "answers": "x"}


def _all(status: int) -> dict[str, int]:
    return dict.fromkeys(ROLES, status)


def _admin_only(ok: int, anonymous: int) -> dict[str, int]:
    return {"anonymous": anonymous, "annotator": 403, "checker": 403, "admin": ok, "other_admin": ok}


def _users(ok: int, anonymous: int) -> dict[str, int]:
    return {**_all(ok), "anonymous": anonymous}


def _owner(ok: int, anonymous: int) -> dict[str, int]:
    return {**_all(403), "anonymous": anonymous, "annotator": ok}


# (method, path, body: ("json"|"form", value) or None, expected status per role); {S} study, {A} assignment,
# {R} a run, {I} an instance of it, {checker} the checker's user id
ROUTES = [
    ("GET", "/", None, _all(200)),
    ("GET", "/runs", None, _all(200)),
    ("GET", "/runs/{R}", None, _all(200)),
    ("GET", "/runs/{R}/instances/{I}", None, _all(200)),
    ("GET", "/leaderboards", None, _all(200)),
    ("GET", "/leaderboards/quackie.csv", None, _all(200)),
    ("GET", "/probing", None, _all(200)),
    ("GET", "/paper", None, _all(200)),
    ("GET", "/static/plotly.min.js", None, _all(200)),
    ("GET", "/static/swagger/swagger-ui.css", None, _all(200)),
    ("GET", "/api/docs/openapi-3.0.json", None, _all(200)),
    ("GET", "/api/runs", None, _all(200)),
    ("GET", "/api/runs/{R}", None, _all(200)),
    ("GET", "/api/runs/{R}/instances/{I}", None, _all(200)),
    ("GET", "/api/leaderboards", None, _all(200)),
    ("GET", "/api/probing", None, _all(200)),
    ("GET", "/login", None, _all(200)),
    ("POST", "/login", ("form", {"token": "1.wrong"}), _all(401)),
    ("POST", "/logout", ("form", {}), _users(303, 403)),  # anonymous: no token, so no CSRF token can match
    ("GET", "/invite/not-a-code", None, _all(403)),
    ("POST", "/invite/not-a-code", ("form", {"name": "x"}), _all(403)),
    ("GET", "/studies", None, _users(200, 303)),
    ("POST", "/studies", ("form", {"name": "f", "kind": "generic", "items": '{"key": "1", "payload": {}}'}),
     _admin_only(303, 303)),
    ("GET", "/studies/{S}", None, {"anonymous": 303, "annotator": 200, "checker": 403, "admin": 200,
                                   "other_admin": 200}),
    ("POST", "/studies/{S}/invite", ("form", {"role": "annotator"}), _admin_only(200, 303)),
    ("POST", "/studies/{S}/members", ("form", {"user_id": "{checker}", "as": "checker"}), _admin_only(303, 303)),
    ("GET", "/a/{A}", None, _owner(200, 303)),
    ("POST", "/a/{A}", ("form", {"answer": '{"rationale": [0]}', "action": "save"}), _owner(303, 303)),
    ("GET", "/api/studies", None, _users(200, 401)),
    ("POST", "/api/studies", ("json", {"name": "j", "kind": "generic", "items": [{"key": "1", "payload": {}}]}),
     _admin_only(201, 401)),
    ("POST", "/api/studies/{S}/assign", ("json", {"user_id": "{checker}", "as": "checker"}), _admin_only(200, 401)),
    ("POST", "/api/invites", ("json", {"role": "annotator"}), _admin_only(201, 401)),
    ("GET", "/api/me", None, _users(200, 401)),
    ("GET", "/api/me/assignments", None, _users(200, 401)),
    ("GET", "/api/assignments/{A}", None, _owner(200, 401)),
    ("POST", "/api/assignments/{A}", ("json", {"answer": {"rationale": [0]}, "final": False}), _owner(200, 401)),
    ("GET", "/api/studies/{S}/export", None, _admin_only(200, 401)),
    ("GET", "/api/studies/{S}/export?gold=true", None, _admin_only(200, 401)),
]


def _roles(seeded) -> tuple[dict, dict]:
    """Five new roles and a new study S in the seeded store: the values to fill into paths, the tokens by role."""
    path, ids = seeded
    with Studies(path) as studies:
        n = len(studies.users())
        admin, admin_t = studies.add_user(f"perm-admin{n}", "admin")
        other, other_t = studies.add_user(f"perm-other{n}", "admin")
        annotator, annotator_t = studies.add_user(f"perm-ann{n}", "annotator")
        checker, checker_t = studies.add_user(f"perm-chk{n}", "checker")
        study = studies.create_study("perm", "plm-rationale", [{"key": "0", "payload": PAYLOAD}], created_by=admin.id)
        studies.create_study("theirs", "generic", [{"key": "0", "payload": {}}], created_by=other.id)
        studies.add_member(study.id, checker.id, "checker")
        (assignment,) = studies.assign(study.id, annotator.id)
    values = {"S": study.id, "A": assignment.id, "R": ids["saliency"], "I": "line-1", "checker": checker.id}
    tokens = {"anonymous": None, "annotator": annotator_t, "checker": checker_t, "admin": admin_t,
              "other_admin": other_t}
    return values, tokens


@pytest.fixture(scope="module")
def site(seeded, server_class):
    """The seeded store with the five roles, served by `interpeval serve` for the whole module."""
    values, tokens = _roles(seeded)
    with server_class(seeded[0]) as server:
        yield server, values, tokens


@pytest.fixture(scope="module")
def site_in_process(seeded):
    """The same table against the app in this process (FastAPI's TestClient, no socket), with roles of its own:
    what mutation testing of the permission layer runs, since mutmut sees only code run in its own process."""
    from fastapi.testclient import TestClient

    from interpeval.web import create_app

    values, tokens = _roles(seeded)
    with TestClient(create_app(seeded[0]), base_url="http://127.0.0.1") as client:
        yield client, values, tokens


#: the routes of web/routes/studies.py and web/routes/auth.py (the rest are public result pages)
STUDY_ROUTES = [r for r in ROUTES if r[1].startswith(("/login", "/logout", "/invite", "/studies", "/a/", "/api/studies",
                                                         "/api/invites", "/api/me", "/api/assignments"))]


@pytest.fixture(scope="module")
def study_site(tmp_path_factory):
    """The same roles in a fresh store with no runs (no model is loaded: a second, not the seeded store's minute),
    in process: mutation testing's fast selection for the permission layer."""
    from fastapi.testclient import TestClient

    from interpeval.web import create_app

    path = tmp_path_factory.mktemp("perm") / "results.sqlite"
    values, tokens = _roles((path, {"saliency": 0}))
    with TestClient(create_app(path), base_url="http://127.0.0.1") as client:
        yield client, values, tokens


def _fill(value, values):
    if isinstance(value, str):
        for key, filled in values.items():
            value = value.replace("{" + key + "}", str(filled))
        return value
    if isinstance(value, dict):
        return {k: _fill(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, values) for v in value]
    return value


def _json_ready(value):
    """``{checker}`` filled into a JSON body is an id: send it as a number."""
    return {k: int(v) if k == "user_id" else v for k, v in value.items()}


def _statuses(request, path, body, values, tokens) -> dict[str, int]:
    """The status each role gets; ``request(headers, **kwargs)`` sends one request with no cookie carried over."""
    got = {}
    for role in ROLES:
        headers = {"Authorization": f"Bearer {tokens[role]}"} if tokens[role] else {}
        kwargs = {}
        if body is not None:
            kind, value = body
            value = _fill(value, values)
            kwargs = {"json": _json_ready(value)} if kind == "json" else {"data": value}
        got[role] = request(headers, **kwargs).status_code
    return got


@pytest.mark.parametrize(("method", "path", "body", "expected"), ROUTES, ids=[f"{m} {p}" for m, p, *_ in ROUTES])
def test_route_by_role(site, method, path, body, expected):
    import httpx

    server, values, tokens = site
    url = server.url + _fill(path, values)

    def request(headers, **kwargs):
        with httpx.Client(follow_redirects=False, timeout=30) as client:  # no cookie carried between roles
            return client.request(method, url, headers=headers, **kwargs)

    assert _statuses(request, path, body, values, tokens) == expected


def _check_in_process(site, method, path, body, expected):
    client, values, tokens = site

    def request(headers, **kwargs):
        client.cookies.clear()
        return client.request(method, _fill(path, values), headers=headers, follow_redirects=False, **kwargs)

    assert _statuses(request, path, body, values, tokens) == expected


@pytest.mark.parametrize(("method", "path", "body", "expected"), ROUTES, ids=[f"{m} {p}" for m, p, *_ in ROUTES])
def test_route_by_role_in_process(site_in_process, method, path, body, expected):
    _check_in_process(site_in_process, method, path, body, expected)


@pytest.mark.parametrize(("method", "path", "body", "expected"), STUDY_ROUTES,
                         ids=[f"{m} {p}" for m, p, *_ in STUDY_ROUTES])
def test_study_route_by_role_in_a_fresh_store(study_site, method, path, body, expected):
    _check_in_process(study_site, method, path, body, expected)


def test_every_route_of_the_app_is_in_the_table(seeded):
    from interpeval.web import create_app

    app = create_app(seeded[0])
    served = {(method, route.path) for route in _routes(app) for method in getattr(route, "methods", ()) or ()
              if method != "HEAD" and route.path not in ("/api/docs", "/api/openapi.json", "/docs/oauth2-redirect", "/static/{name}")}
    tabled = {(m, p.split("?")[0].replace("{R}", "{run_id}").replace("{I}", "{instance_id}")
               .replace("{S}", "{study_id}").replace("{A}", "{assignment_id}")
               .replace("/invite/not-a-code", "/invite/{code}").replace("quackie.csv", "{benchmark}.csv").replace("swagger-ui.css", "{name}"))
              for m, p, *_ in ROUTES}
    assert served <= tabled, sorted(served - tabled)
    assert ("GET", "/runs/{run_id}") in served and ("POST", "/api/studies") in served  # the routers' routes are seen


def _routes(app):
    """Every route of the app, those of its included routers too (FastAPI >= 0.16x keeps a router whole in
    ``app.routes``; ``iter_route_contexts`` walks into it)."""
    try:
        from fastapi.routing import iter_route_contexts
    except ImportError:  # older FastAPI copies an included router's routes into app.routes
        return app.routes
    return [context.original_route for context in iter_route_contexts(app.routes)]
