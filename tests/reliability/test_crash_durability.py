"""Acknowledged study answers survive a server killed with SIGKILL while 50 annotators submit over real HTTP.

The server is killed three times, each time once a seeded random number of answers has been acknowledged (so every
kill lands in the middle of the traffic), and started again on the same store. An annotator whose request got no
answer (connection refused or cut) sends the same answer again until one comes: saving is idempotent (one answer
per assignment). Afterwards every acknowledged answer is in the store exactly once and whole, the database passes
SQLite's integrity check, and the study's export (over HTTP, from the last server) is the acknowledged set.
"""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from interpeval.store.studies import Studies

ANNOTATORS, ITEMS, KILLS, SEED = 50, 8, 3, 33


@pytest.mark.slow
def test_answers_acknowledged_before_sigkill_are_all_in_the_store_once(tmp_path, server, study_with_annotators):
    store = tmp_path / "studies.sqlite"
    study_id, admin_token, people = study_with_annotators(store, "crash", ANNOTATORS, ITEMS)
    total = ANNOTATORS * ITEMS
    kill_at = sorted(random.Random(SEED).sample(range(total // 10, total * 9 // 10), KILLS))
    live = {"server": server(store)}
    acknowledged: dict[int, dict] = {}
    unanswered = []  # (assignment id, error) of requests that got no answer
    lock = threading.Lock()
    deadline = time.time() + 240

    def annotate(person):
        user, token, assignments = person
        name = user.name
        with httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=20) as http:
            for k, aid in enumerate(assignments):
                answer = {"user": name, "assignment": aid, "k": k, "text": "ünïcode ✓ " * k}
                while True:
                    assert time.time() < deadline, "the server did not come back"
                    try:
                        response = http.post(f"{live['server'].url}/api/assignments/{aid}", json={"answer": answer})
                    except httpx.HTTPError as err:
                        with lock:
                            unanswered.append((aid, type(err).__name__))
                        time.sleep(0.1)
                        continue
                    assert response.status_code == 200, response.text
                    assert response.json()["answer"] == answer
                    with lock:
                        acknowledged[aid] = answer
                    break

    def killer():
        for point in kill_at:
            while len(acknowledged) < point:
                if time.time() > deadline:
                    return
                time.sleep(0.002)
            victim = live["server"]
            os.kill(victim.proc.pid, signal.SIGKILL)
            victim.proc.wait()
            live["server"] = server(store)

    kills = threading.Thread(target=killer)
    kills.start()
    with ThreadPoolExecutor(ANNOTATORS) as pool:
        list(pool.map(annotate, people))
    kills.join()

    with Studies(store) as studies:
        rows = studies._rows("SELECT assignment_id, answer_json, final FROM study_answers")
        resaved = studies._rows("SELECT COUNT(*) FROM study_answers WHERE saves > 1")[0][0]
        integrity = studies._rows("PRAGMA integrity_check")
        states = dict(studies._rows("SELECT state, COUNT(*) FROM study_assignments GROUP BY state"))
    stored: dict[int, list[dict]] = {}
    for aid, answer_json, final in rows:
        assert final == 1
        stored.setdefault(aid, []).append(json.loads(answer_json))
    lost = [aid for aid, answer in acknowledged.items() if stored.get(aid, [None])[0] != answer]
    duplicated = [aid for aid, answers in stored.items() if len(answers) > 1]
    export = httpx.get(f"{live['server'].url}/api/studies/{study_id}/export",
                       headers={"Authorization": f"Bearer {admin_token}"}, timeout=60).json()
    exported = sorted(json.dumps(a["answer"], sort_keys=True) for item in export for a in item["answers"])
    cut = Counter(kind for _, kind in unanswered)
    print(f"crash durability: {KILLS} SIGKILL rounds at {kill_at} acknowledged answers; {len(acknowledged)} "
          f"acknowledged, {len(lost)} lost, {len(duplicated)} duplicated; requests without an answer, sent again: "
          f"{dict(cut)}; answers stored before a kill cut their reply, then saved again: {resaved}")

    assert len(acknowledged) == total
    assert integrity == [("ok",)]
    assert lost == [] and duplicated == []
    assert set(stored) == set(acknowledged)  # nothing stored that was never acknowledged
    assert exported == sorted(json.dumps(a, sort_keys=True) for a in acknowledged.values())
    assert states == {"done": total}
    assert cut.keys() - {"ConnectError"}, "no request was cut by a kill: the kills missed the traffic"
