"""What each study and auth route answers, worked out by hand on a fresh store (no run, no model: fast enough for
mutation testing per mutant): bodies, headers, redirects and the message of every refusal.

The permission table (test_permissions.py) pins who gets which status; this file pins what they get.
"""

from __future__ import annotations

import hmac
from hashlib import sha256

import pytest
from fastapi.testclient import TestClient

from interpeval.store.studies import Studies
from interpeval.web import create_app

SECRET = b"by-hand"
ITEMS = [{"key": "k1", "payload": {"text": "one"}}, {"key": "k2", "payload": {"text": "two"}}]


def _csrf(token: str) -> str:
    """The CSRF token of a cookie session: HMAC-SHA256 of the token under the app's secret."""
    return hmac.new(SECRET, token.encode(), sha256).hexdigest()


@pytest.fixture
def site(tmp_path):
    """A generic study S (two items, both assigned to the annotator) and an IQS study T whose item's ``iqs`` field
    is private; the admin, the annotator, the checker and a second annotator with nothing assigned."""
    path = tmp_path / "results.sqlite"
    with Studies(path) as db:
        admin, admin_t = db.add_user("boss", "admin")
        ann, ann_t = db.add_user("ann", "annotator")
        chk, chk_t = db.add_user("chk", "checker")
        idle, idle_t = db.add_user("idle", "annotator")
        s = db.create_study("S1", "generic", ITEMS, {"note": "admins only"}, created_by=admin.id)
        t = db.create_study("T1", "iqs", [{"key": "s|method", "payload": {"text": "x", "iqs": {"m": "lime"}}}],
                            created_by=admin.id)
        a1, a2 = db.assign(s.id, ann.id)
        (t1,) = db.assign(t.id, admin.id)
        (item1, item2), (titem,) = db.items(s.id), db.items(t.id)
    client = TestClient(create_app(path, secret=SECRET), base_url="http://127.0.0.1")
    ids = {"S": s.id, "T": t.id, "a1": a1.id, "a2": a2.id, "t1": t1.id, "i1": item1.id, "i2": item2.id,
           "ti": titem.id, "admin": admin.id, "ann": ann.id, "chk": chk.id, "idle": idle.id}
    tokens = {"admin": admin_t, "ann": ann_t, "chk": chk_t, "idle": idle_t}
    with client:
        yield client, ids, tokens, path


def _as(tokens, who):
    return {"Authorization": f"Bearer {tokens[who]}"}


def _assignment(id_, study, item, state="pending", final=False, answer=None, task="annotate"):
    return {"id": id_, "study_id": study, "item_id": item, "task": task, "round": 1, "state": state, "final": final,
            "answer": answer}


def test_me_studies_and_assignments_as_each_user_sees_them(site):
    client, ids, tokens, _ = site
    assert client.get("/api/me", headers=_as(tokens, "ann")).json() == {"id": ids["ann"], "name": "ann",
                                                                          "role": "annotator"}
    # the annotator sees S only, without its config; the admin sees both, with their configs
    progress_s = {"annotating": 2, "assignments_pending": 2}
    assert client.get("/api/studies", headers=_as(tokens, "ann")).json() == [
        {"id": ids["S"], "name": "S1", "kind": "generic", "progress": progress_s}]
    assert client.get("/api/studies", headers=_as(tokens, "admin")).json() == [
        {"id": ids["S"], "name": "S1", "kind": "generic", "config": {"note": "admins only"}, "progress": progress_s},
        {"id": ids["T"], "name": "T1", "kind": "iqs", "config": {}, "progress": {"annotating": 1,
                                                                                  "assignments_pending": 1}}]
    assert client.get("/api/studies", headers=_as(tokens, "idle")).json() == []
    mine = [_assignment(ids["a1"], ids["S"], ids["i1"]), _assignment(ids["a2"], ids["S"], ids["i2"])]
    assert client.get("/api/me/assignments", headers=_as(tokens, "ann")).json() == mine
    assert client.get(f"/api/me/assignments?study_id={ids['S']}&state=pending", headers=_as(tokens, "ann")).json() \
        == mine
    assert client.get(f"/api/me/assignments?study_id={ids['T']}", headers=_as(tokens, "ann")).json() == []
    assert client.get("/api/me/assignments?state=done", headers=_as(tokens, "ann")).json() == []


def test_an_assignment_is_shown_blinded_to_all_but_an_admin(site):
    client, ids, tokens, path = site
    got = client.get(f"/api/assignments/{ids['a1']}", headers=_as(tokens, "ann")).json()
    assert got == {**_assignment(ids["a1"], ids["S"], ids["i1"]), "item": f"item {ids['i1']}",
                   "payload": {"text": "one"}}
    # the admin's own assignment in T: the key and the private "iqs" field shown
    got = client.get(f"/api/assignments/{ids['t1']}", headers=_as(tokens, "admin")).json()
    assert got["item"] == "s|method" and got["payload"] == {"text": "x", "iqs": {"m": "lime"}}
    with Studies(path) as db:
        (t2,) = db.assign(ids["T"], ids["idle"])
    got = client.get(f"/api/assignments/{t2.id}", headers=_as(tokens, "idle")).json()
    assert got["item"] == f"item {ids['ti']}" and got["payload"] == {"text": "x"}
    other = client.get(f"/api/assignments/{ids['a1']}", headers=_as(tokens, "idle"))
    assert (other.status_code, other.json()) == (403, {"detail": "this assignment belongs to another user"})
    missing = client.get("/api/assignments/999", headers=_as(tokens, "ann"))
    assert (missing.status_code, missing.json()) == (404, {"detail": "no assignment 999"})


def test_saving_answers_drafts_then_final(site):
    client, ids, tokens, _ = site
    url = f"/api/assignments/{ids['a1']}"
    draft = client.post(url, json={"answer": {"x": 1}, "final": False}, headers=_as(tokens, "ann"))
    assert draft.json() == _assignment(ids["a1"], ids["S"], ids["i1"], answer={"x": 1})
    final = client.post(url, json={"answer": {"x": 2}}, headers=_as(tokens, "ann"))  # final by default
    assert final.json() == _assignment(ids["a1"], ids["S"], ids["i1"], "done", True, {"x": 2})
    refusals = [
        (client.post("/api/assignments/999", json={"answer": {}}, headers=_as(tokens, "ann")), 404,
         "no assignment 999"),
        (client.post(url, json={"answer": {}}, headers=_as(tokens, "idle")), 403,
         "this assignment belongs to another user"),
        (client.post(url, json={"answer": 1}, headers=_as(tokens, "ann")), 400,
         "bad request body: answer: Input should be a valid dictionary (1 error(s))"),
        (client.post(url, json={"answer": {}, "final": "yes", "x": 1}, headers=_as(tokens, "ann")), 400,
         "bad request body: final: Input should be a valid boolean (1 error(s))"),
        (client.post(url, json={}, headers=_as(tokens, "ann")), 400,
         "bad request body: answer: Field required (1 error(s))"),
        (client.post(url, json=[1], headers=_as(tokens, "ann")), 400, "the request body must be a JSON object"),
        (client.post(url, json={"answer": {"t": "x" * 70000}}, headers=_as(tokens, "ann")), 400,
         "the answer is 70009 bytes; at most 65536 are stored"),  # '{"t": "' 7 + 70000 + '"}' 2
    ]
    for response, status, detail in refusals:
        assert (response.status_code, response.json()) == (status, {"detail": detail})
    not_json = client.post(url, content=b"{oops", headers=_as(tokens, "ann"))
    assert not_json.status_code == 400
    assert not_json.json()["detail"].startswith("the request body is not JSON: Expecting property name")
    empty = client.post(url, content=b"", headers=_as(tokens, "ann"))  # no body reads as {}: answer missing
    assert empty.json() == {"detail": "bad request body: answer: Field required (1 error(s))"}


def test_creating_assigning_and_inviting_through_the_api(site):
    client, ids, tokens, _ = site
    admin = _as(tokens, "admin")
    made = client.post("/api/studies", json={"kind": "generic", "items": [{"key": "a", "payload": {"p": 1}}]},
                       headers=admin)
    assert made.status_code == 201 and made.json() == {"id": ids["T"] + 1, "items": 1}
    listed = {s["id"]: s for s in client.get("/api/studies", headers=admin).json()}
    assert listed[ids["T"] + 1]["name"] == "study" and listed[ids["T"] + 1]["config"] == {}
    assert client.post("/api/studies", json={"name": "N", "kind": "generic"}, headers=admin).json()["items"] == 0
    refused = [
        (client.post("/api/studies", json={"kind": "nope"}, headers=admin), 400, "unknown study kind 'nope'; known: "),
        (client.post("/api/studies", json={"kind": "generic", "items": [{"key": "a", "payload": {}}] * 2},
                     headers=admin), 400, "item keys must be unique within a study"),
        (client.post("/api/studies", json={"kind": "generic", "config": {"review": {"checkers": "two"}}},
                     headers=admin), 400, "review config lacks scores, pass_mean, max_rounds, checks_per_round"),
        (client.post("/api/studies", json={"kind": "generic", "config": {"review": dict.fromkeys(
            ("scores", "pass_mean", "max_rounds", "checks_per_round"), 1)}}, headers=admin), 400,
         "bad study config: TypeError(\"'int' object is not iterable\")"),
        (client.post("/api/studies", json={"name": 1, "kind": "generic"}, headers=admin), 400,
         "bad request body: name: Input should be a valid string (1 error(s))"),
    ]
    for response, status, start in refused:
        assert response.status_code == status and response.json()["detail"].startswith(start), response.json()
    # assign: one item to the idle annotator, then the checker; refusals name what is wrong
    url = f"/api/studies/{ids['S']}/assign"
    got = client.post(url, json={"user_id": ids["idle"], "item_ids": [ids["i2"]]}, headers=admin)
    (one,) = got.json()
    assert one == _assignment(one["id"], ids["S"], ids["i2"])
    assert client.post(url, json={"user_id": ids["chk"], "as": "checker"}, headers=admin).json() == \
        {"checker": ids["chk"]}
    assert client.post(url, json={"user_id": ids["idle"], "task": "check"}, headers=admin).json() == \
        {"checker": ids["idle"]}
    with Studies(_path(client)) as db:
        assert [u.id for u in db.members(ids["S"], "checker")] == [ids["chk"], ids["idle"]]
        assert [u.id for u in db.members(ids["S"], "annotator")] == [ids["ann"], ids["idle"]]
    all_items = client.post(url, json={"user_id": ids["chk"], "as": "annotator"}, headers=admin).json()
    assert [a["item_id"] for a in all_items] == [ids["i1"], ids["i2"]]
    refused = [
        (client.post(url, json={"user_id": 999}, headers=admin), 404, "no user with id 999"),
        (client.post(url, json={"user_id": ids["ann"], "item_ids": [ids["ti"], 999]}, headers=admin), 404,
         f"items [{ids['ti']}, 999] are not in study {ids['S']}"),  # sorted
        (client.post("/api/studies/999/assign", json={"user_id": ids["ann"]}, headers=admin), 404, "no study 999"),
        (client.post(url, json={"user_id": "1"}, headers=admin), 400,
         "bad request body: user_id: Input should be a valid integer (1 error(s))"),
    ]
    for response, status, detail in refused:
        assert (response.status_code, response.json()) == (status, {"detail": detail})
    # invites: a code whose link is on this server and whose role is the one asked for
    invite = client.post("/api/invites", json={"role": "checker", "study_id": ids["S"]}, headers=admin)
    code = invite.json()["code"]
    assert invite.status_code == 201 and invite.json() == {"code": code, "link": f"http://127.0.0.1/invite/{code}"}
    with Studies(_path(client)) as db:
        assert db.invite_role(code) == "checker"
    refused = [
        (client.post("/api/invites", json={"role": "boss"}, headers=admin), 400,
         "role must be one of admin, annotator, checker, got 'boss'"),
        (client.post("/api/invites", json={"role": "annotator", "study_id": 999}, headers=admin), 404,
         "no study with id 999"),
    ]
    for response, status, detail in refused:
        assert (response.status_code, response.json()) == (status, {"detail": detail})


def _path(client):
    return client.app.state.web.store_file


def test_exports_by_hand(site):
    client, ids, tokens, _ = site
    admin = _as(tokens, "admin")
    for aid, answer in ((ids["a1"], {"x": 1}), (ids["a2"], {"x": 2, "w": "två"})):
        client.post(f"/api/assignments/{aid}", json={"answer": answer}, headers=_as(tokens, "ann"))
    full = client.get(f"/api/studies/{ids['S']}/export", headers=admin)
    assert full.headers["content-disposition"] == f'attachment; filename="study-{ids["S"]}.json"'
    assert full.json() == [
        {"key": key, "state": "done", "round": 1, "payload": {"text": text}, "rounds": [],
         "answers": [{"user": "ann", "task": "annotate", "round": 1, "final": True, "answer": answer}]}
        for answer, (key, text) in zip(({"x": 1}, {"x": 2, "w": "två"}), (("k1", "one"), ("k2", "two")), strict=True)]
    gold = client.get(f"/api/studies/{ids['S']}/export?gold=true", headers=admin)
    assert gold.headers["content-type"] == "application/x-ndjson"
    assert gold.headers["content-disposition"] == f'attachment; filename="study-{ids["S"]}-gold.jsonl"'
    assert gold.text == ('{"key": "k1", "payload": {"text": "one"}, "answers": [{"x": 1}]}\n'
                         '{"key": "k2", "payload": {"text": "two"}, "answers": [{"x": 2, "w": "två"}]}\n')  # not \u00e5
    missing = client.get("/api/studies/999/export", headers=admin)
    assert (missing.status_code, missing.json()) == (404, {"detail": "no study 999"})


def test_pages_of_studies_and_assignments(site):
    client, ids, tokens, _ = site
    studies = client.get("/studies", headers=_as(tokens, "ann")).text
    assert "S1" in studies and "T1" not in studies
    everything = client.get("/studies", headers=_as(tokens, "admin")).text
    assert "S1" in everything and "T1" in everything
    page = client.get(f"/studies/{ids['S']}", headers=_as(tokens, "admin"))
    assert page.status_code == 200 and "k1" in page.text and "boss" in page.text
    assert "k1" not in client.get(f"/studies/{ids['S']}", headers=_as(tokens, "ann")).text  # blinded
    refused = client.get(f"/studies/{ids['S']}", headers=_as(tokens, "idle"))
    assert refused.status_code == 403 and '<p class="message">you have no assignments in this study</p>' in refused.text
    # the annotator's own assignments are linked; the admin page names the study's annotators
    assert f'<a href="/a/{ids["a1"]}">item {ids["i1"]}</a>' in client.get(f"/studies/{ids['S']}",
                                                                          headers=_as(tokens, "ann")).text
    assert "Annotators: ann · checkers: none" in page.text
    # the studies list counts items by state
    assert "annotating 2" in studies
    missing = client.get("/studies/999", headers=_as(tokens, "admin"))
    assert missing.status_code == 404 and "no study 999" in missing.text
    own = client.get(f"/a/{ids['a1']}", headers=_as(tokens, "ann"))
    assert own.status_code == 200 and "one" in own.text and "k1" not in own.text
    assert client.get(f"/a/{ids['t1']}", headers=_as(tokens, "admin")).text.count("s|method") >= 1
    other = client.get(f"/a/{ids['a1']}", headers=_as(tokens, "idle"))
    assert other.status_code == 403 and "this assignment belongs to another user" in other.text
    assert client.get("/a/999", headers=_as(tokens, "ann")).status_code == 404


def test_forms_redirect_where_they_should(site):
    client, ids, tokens, path = site
    admin, ann = _as(tokens, "admin"), _as(tokens, "ann")
    url = f"/a/{ids['a1']}"
    saved = client.post(url, data={"answer": '{"x": 1}', "action": "save"}, headers=ann, follow_redirects=False)
    assert (saved.status_code, saved.headers["location"]) == (303, f"/a/{ids['a1']}?saved=1")
    with Studies(path) as db:
        assert db.assignment(ids["a1"], ids["ann"]).final is False
    done = client.post(url, data={"answer": '{"x": 1}'}, headers=ann, follow_redirects=False)
    assert done.headers["location"] == f"/a/{ids['a2']}"  # the next pending one
    last = client.post(f"/a/{ids['a2']}", data={"answer": "{}"}, headers=ann, follow_redirects=False)
    assert last.headers["location"] == f"/studies/{ids['S']}"
    bad = client.post(url, data={"answer": "{oops"}, headers=ann, follow_redirects=False)
    assert bad.status_code == 400 and "Expecting property name" in bad.text
    theirs = client.post(url, data={"answer": "{}"}, headers=_as(tokens, "idle"), follow_redirects=False)
    assert theirs.status_code == 403 and "this assignment belongs to another user" in theirs.text
    # an admin's forms: a study from JSON lines, members, invites
    made = client.post("/studies", data={"name": " ", "kind": "generic", "items": '{"key": "a", "payload": {}}\n\n'},
                       headers=admin, follow_redirects=False)
    new = ids["T"] + 1
    assert (made.status_code, made.headers["location"]) == (303, f"/studies/{new}")
    with Studies(path) as db:
        assert db.study(new).name == "study" and [i.key for i in db.items(new)] == ["a"]
    for items, message in (("{oops", "could not create the study: Expecting property name"),
                           ('{"key": "a"}', "could not create the study: item 0: expected")):
        wrong = client.post("/studies", data={"kind": "generic", "items": items}, headers=admin)
        assert wrong.status_code == 400 and message in wrong.text
    members = f"/studies/{ids['S']}/members"
    to = client.post(members, data={"user_id": str(ids["chk"]), "as": "checker"}, headers=admin,
                     follow_redirects=False)
    assert (to.status_code, to.headers["location"]) == (303, f"/studies/{ids['S']}")
    client.post(members, data={"user_id": str(ids["idle"])}, headers=admin, follow_redirects=False)
    with Studies(path) as db:
        assert [u.id for u in db.members(ids["S"], "checker")] == [ids["chk"]]
        assert len(db.assignments(ids["idle"], ids["S"])) == 2
    for data in ({"user_id": "999"}, {"user_id": "x"}):
        assert client.post(members, data=data, headers=admin).status_code == 400
    invite = client.post(f"/studies/{ids['S']}/invite", data={"role": "annotator"}, headers=admin)
    assert invite.status_code == 200 and "Invite link (shown once)" in invite.text
    assert 'readonly value="http://127.0.0.1/invite/' in invite.text  # the link to copy
    assert "joins this study as a new annotator: http://127.0.0.1/invite/" in invite.text
    wrong = client.post(f"/studies/{ids['S']}/invite", data={"role": "boss"}, headers=admin)
    assert wrong.status_code == 400 and "role must be one of admin, annotator, checker" in wrong.text
    assert client.post("/studies/999/invite", data={"role": "annotator"}, headers=admin).status_code == 404
    assert client.post("/studies/999/members", data={"user_id": "1"}, headers=admin).status_code == 404


def test_login_logout_and_invites_in_a_browser_session(site):
    client, ids, tokens, path = site
    token = tokens["ann"]
    form = client.get("/login?next=/studies/1")
    assert form.status_code == 200 and 'value="/studies/1"' in form.text
    assert 'value="/studies"' in client.get("/login?next=//evil.example").text  # no open redirect
    wrong = client.post("/login", data={"token": "1.wrong", "next": "/runs"})
    assert wrong.status_code == 401 and "That token is not valid." in wrong.text
    for nxt, where in (("/runs", "/runs"), ("https://evil.example", "/studies"), ("//evil.example", "/studies")):
        ok = client.post("/login", data={"token": f"  {token} ", "next": nxt}, follow_redirects=False)
        assert (ok.status_code, ok.headers["location"]) == (303, where)
        cookie = ok.headers["set-cookie"]
        assert cookie.startswith(f"ie_token={token};") and "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert "Path=/" in cookie and "Max-Age=2592000" in cookie
    assert client.post("/login", data={"token": token}, follow_redirects=False).headers["location"] == "/studies"
    # the cookie session: its pages carry the CSRF token; a form without it is refused
    client.cookies.set("ie_token", token)
    assert _csrf(token) in client.get("/studies").text
    refused = client.post("/logout", data={"csrf": "nope"}, follow_redirects=False)
    assert refused.status_code == 403 and "missing or wrong CSRF token" in refused.text
    save = client.post(f"/api/assignments/{ids['a1']}", json={"answer": {}}, headers={"X-CSRF-Token": _csrf(token)})
    assert save.status_code == 200
    assert client.post(f"/api/assignments/{ids['a1']}", json={"answer": {}}).status_code == 403
    out = client.post("/logout", data={"csrf": _csrf(token)}, follow_redirects=False)
    assert (out.status_code, out.headers["location"]) == (303, "/")
    assert out.headers["set-cookie"].startswith('ie_token="";') and "Max-Age=0" in out.headers["set-cookie"]
    client.cookies.clear()
    # an invite link: its page names the role; accepting it makes the user, logs them in, and works once
    with Studies(path) as db:
        code = db.invite("annotator", ids["admin"], ids["S"])
    page = client.get(f"/invite/{code}")
    assert page.status_code == 200 and "<h1>Join as annotator</h1>" in page.text and 'class="error"' not in page.text
    for data in ({"name": " "}, {}):  # a blank name, or none at all
        unnamed = client.post(f"/invite/{code}", data=data)
        assert unnamed.status_code == 400 and "<h1>Join as annotator</h1>" in unnamed.text
        assert '<p class="error">a user name must have 1 to 64 characters</p>' in unnamed.text
    welcome = client.post(f"/invite/{code}", data={"name": "newbie"})
    new_token = welcome.headers["set-cookie"].split(";")[0].removeprefix("ie_token=")
    assert welcome.status_code == 200 and new_token in welcome.text and "HttpOnly" in welcome.headers["set-cookie"]
    assert "Welcome, newbie" in welcome.text and "<b>annotator</b>" in welcome.text
    with Studies(path) as db:
        user = db.user_by_token(new_token)
        assert (user.name, user.role) == ("newbie", "annotator") and len(db.assignments(user.id, ids["S"])) == 2
    again = client.post(f"/invite/{code}", data={"name": "twice"})
    assert again.status_code == 403 and "this invite link is wrong or has been used already" in again.text
    used = client.get(f"/invite/{code}").text
    assert '<p class="message">this invite link is wrong or has been used already</p>' in used


def test_refusals_of_the_auth_checks_say_what_is_needed(site):
    client, ids, tokens, _ = site
    anonymous = client.get("/api/me")
    assert (anonymous.status_code, anonymous.json()) == (
        401, {"detail": "a valid token is needed (log in or send Authorization: Bearer <token>)"})
    for header in ({"Authorization": "Bearer 1.wrong"}, {"Authorization": f"Basic {tokens['ann']}"}):
        assert client.get("/api/me", headers=header).status_code == 401
    assert client.get("/api/me", headers={"Authorization": f"bearer   {tokens['ann']} "}).json()["name"] == "ann"
    role = client.post("/api/invites", json={"role": "annotator"}, headers=_as(tokens, "ann"))
    assert (role.status_code, role.json()) == (403, {"detail": "this needs the role admin"})
    # a cookie session's API write needs the X-CSRF-Token header; a bearer header needs none
    client.cookies.set("ie_token", tokens["admin"])
    csrf = client.post("/api/invites", json={"role": "annotator"}, headers={"X-CSRF-Token": _csrf(tokens["ann"])})
    assert (csrf.status_code, csrf.json()) == (403, {"detail": "missing or wrong CSRF token: reload the page and try "
                                                               "again"})
    assert client.post("/api/invites", json={"role": "annotator"},
                       headers={"X-CSRF-Token": _csrf(tokens["admin"])}).status_code == 201
    client.cookies.clear()
    # a page for an anonymous visitor carries no CSRF token; the login page names where it came from
    assert _csrf(tokens["admin"]) not in client.get("/login").text
    assert _csrf("1.wrong") not in client.get("/login", headers={"Authorization": "Bearer 1.wrong"}).text
    assert client.get(f"/studies/{ids['S']}", follow_redirects=False).headers["location"] == f"/login?next=/studies/{ids['S']}"


def test_a_cookie_session_posts_every_form_with_its_csrf_field(site):
    client, ids, tokens, path = site
    admin, ann = tokens["admin"], tokens["ann"]
    client.cookies.set("ie_token", admin)
    made = client.post("/studies", data={"csrf": _csrf(admin), "kind": "generic", "items": "", "name": "Named"},
                       follow_redirects=False)
    assert made.status_code == 303
    with Studies(path) as db:
        assert db.studies()[-1].name == "Named"
    header_only = client.post("/studies", data={"kind": "generic"}, headers={"X-CSRF-Token": _csrf(admin)},
                              follow_redirects=False)
    assert header_only.status_code == 303  # no form field: the header is read
    no_kind = client.post("/studies", data={"csrf": _csrf(admin)})
    assert no_kind.status_code == 400 and "unknown study kind &#39;&#39;" in no_kind.text
    members = f"/studies/{ids['S']}/members"
    assert client.post(members, data={"csrf": _csrf(admin), "user_id": str(ids["idle"])},
                       follow_redirects=False).status_code == 303
    no_user = client.post(members, data={"csrf": _csrf(admin)})  # the user id defaults to 0, which names no one
    assert no_user.status_code == 400 and "no user with id 0" in no_user.text
    invite = client.post(f"/studies/{ids['S']}/invite", data={"csrf": _csrf(admin), "role": "checker"})
    assert invite.status_code == 200 and "as a new checker" in invite.text
    # without the form field the X-CSRF-Token header is read
    header = client.post("/logout", headers={"X-CSRF-Token": _csrf(admin)}, follow_redirects=False)
    assert header.status_code == 303
    client.cookies.set("ie_token", ann)
    page = client.get(f"/a/{ids['a1']}")
    assert "2 pending" in page.text and "of at most" not in page.text  # a1 and a2; no review
    saved = client.post(f"/a/{ids['a1']}", data={"csrf": _csrf(ann), "answer": "{}"}, follow_redirects=False)
    assert saved.headers["location"] == f"/a/{ids['a2']}"
    assert "1 pending" in client.get(f"/a/{ids['a2']}").text
    client.cookies.clear()
    # a reviewed study's page says how many rounds an item may take
    review = {"scores": {"ok": [1, 2]}, "pass_mean": {"ok": 2}, "max_rounds": 3, "checks_per_round": 1}
    with Studies(path) as db:
        study = db.create_study("R", "generic", ITEMS[:1], {"review": review}, created_by=ids["admin"])
        (a,) = db.assign(study.id, ids["idle"])
    assert "round 1 of at most 3" in client.get(f"/a/{a.id}", headers=_as(tokens, "idle")).text
    # a final answer under review locks the assignment: a second one is refused (403, not 404)
    idle = _as(tokens, "idle")
    assert client.post(f"/a/{a.id}", data={"answer": "{}"}, headers=idle, follow_redirects=False).status_code == 303
    locked = client.post(f"/a/{a.id}", data={"answer": "{}"}, headers=idle, follow_redirects=False)
    assert locked.status_code == 403 and f"assignment {a.id} is locked: it can no longer change" in locked.text
    # an annotator's view of an IQS study never shows the method under judgement (its private field)
    with Studies(path) as db:
        db.assign(ids["T"], ids["idle"])
    iqs = client.get(f"/studies/{ids['T']}", headers=idle)
    assert iqs.status_code == 200 and "lime" not in iqs.text and "s|method" not in iqs.text
