"""The web server when its store cannot be written (``StoreUnavailable``): over real HTTP, a 503 naming the store and
the cause — a JSON ``{"detail": ...}`` on /api/, a page elsewhere — never a 500; nothing of the refused request is
kept, and the same request succeeds once the store can be written again.

Two causes: another process holding the write lock past ``$INTERPEVAL_STORE_TIMEOUT`` (runs everywhere) and a full
disk (a real 4 MiB tmpfs, ``small_disk``; skipped where mounting is not allowed).
"""

from __future__ import annotations

import sqlite3

import httpx
import pytest
from test_disk_full import fill

from interpeval.store.studies import Studies


def _people(store):
    with Studies(store) as studies:
        admin, admin_token = studies.add_user("admin", "admin")
        annotator, token = studies.add_user("annotator", "annotator")
        study = studies.create_study("s", "generic", [{"key": "a", "payload": {"text": "x"}}], created_by=admin.id)
        (assignment,) = studies.assign(study.id, annotator.id)
    return admin_token, token, assignment.id


def _refused(response: httpx.Response, store, cause: str, api: bool) -> None:
    assert response.status_code == 503, response.text
    if api:
        assert response.headers["content-type"].startswith("application/json")
        detail = response.json()["detail"]
    else:
        assert response.headers["content-type"].startswith("text/html")
        detail = " ".join(response.text.split())
    assert str(store) in detail and cause in detail, detail


@pytest.mark.slow
def test_a_write_lock_held_elsewhere_answers_503_and_the_same_request_succeeds_later(tmp_path, server, monkeypatch):
    store = tmp_path / "results.sqlite"
    admin_token, token, aid = _people(store)
    monkeypatch.setenv("INTERPEVAL_STORE_TIMEOUT", "0.5")
    live = server(store)
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's write transaction, held
    with httpx.Client(base_url=live.url, timeout=30) as http:
        save = dict(json={"answer": {"label": "yes"}}, headers={"Authorization": f"Bearer {token}"})
        _refused(http.post(f"/api/assignments/{aid}", **save), store, "locked by another writing process", api=True)
        page = http.post(f"/a/{aid}", data={"answer": '{"label": "yes"}'}, headers=save["headers"])
        _refused(page, store, "locked by another writing process", api=False)
        holder.execute("ROLLBACK")
        again = http.post(f"/api/assignments/{aid}", **save)
        assert again.status_code == 200 and again.json()["answer"] == {"label": "yes"}, again.text
    holder.close()
    print("store locked elsewhere: POST /api/assignments 503 JSON, POST /a/ 503 page, the same request then 200")


@pytest.mark.slow
def test_a_full_disk_under_the_server_answers_503_and_keeps_nothing_of_the_request(small_disk, server):
    store = small_disk / "results.sqlite"
    admin_token, _, _ = _people(store)
    live = server(store)
    admin = {"Authorization": f"Bearer {admin_token}"}
    items = [{"key": str(i), "payload": {"text": "ünïcode " * 125}} for i in range(500)]  # ~0.5 MB: no slack fits it
    filler = fill(small_disk, leave=64 * 1024)
    with httpx.Client(base_url=live.url, timeout=60) as http:
        full = http.post("/api/studies", json={"name": "big", "kind": "generic", "items": items}, headers=admin)
        _refused(full, store, "the disk is full", api=True)
        assert [s["name"] for s in http.get("/api/studies", headers=admin).json()] == ["s"]  # reads still work
        filler.unlink()
        made = http.post("/api/studies", json={"name": "big", "kind": "generic", "items": items}, headers=admin)
        assert made.status_code == 201 and made.json()["items"] == 500, made.text
    print("disk full under the server: POST /api/studies (0.5 MB) 503 JSON naming the store, nothing kept; "
          "201 once space was back")
