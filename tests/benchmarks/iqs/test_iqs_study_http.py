"""A complete IQS study: create → three (simulated) annotators answer through the real HTTP API of a uvicorn server
on loopback → score → Tables 1 and 2, agreement, cost and Figure 5, labelled SIMULATED everywhere."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import httpx
import numpy as np
import pytest

from interpeval.benchmarks.iqs.simulated import simulated_answer
from interpeval.benchmarks.iqs.study import build_study, create, load_answers, score_studies
from interpeval.benchmarks.iqs.tables import SIMULATED_BANNER, table1, table2, write_outputs
from interpeval.benchmarks.iqs.tasks import TASKS
from interpeval.errors import InterpevalError
from interpeval.store.studies import Studies

METHODS = {"input_x_gradient": {}, "integrated_gradients": {"n_steps": 4, "baseline": "zero"},
           "lime": {"n_samples": 40, "regression": "lasso", "alpha": 3e-4}}


def test_complete_study_through_the_http_api(server, tmp_path):
    base, store = server
    items, config = build_study("sst2", "tiny-sequence-classification", per_class=2, seed=0, methods=METHODS)
    assert len(items) == 4 * len(METHODS)
    with Studies(store) as studies:
        admin, admin_token = studies.add_user("ada", "admin")
        annotators = [studies.add_user(f"simulated-{k}", "annotator") for k in (1, 2, 3)]
        study_id = create(studies, "IQS sst2 test", items, config, created_by=admin.id)
    task = TASKS["sst2"]
    with httpx.Client(base_url=base, timeout=30) as client:
        for user, _ in annotators:  # the admin assigns every item to each annotator
            r = client.post(f"/api/studies/{study_id}/assign", json={"user_id": user.id},
                            headers={"Authorization": f"Bearer {admin_token}"})
            assert r.status_code == 200 and len(r.json()) == len(items)
        for k, (_, token) in enumerate(annotators, start=1):
            auth = {"Authorization": f"Bearer {token}"}
            mine = client.get("/api/me/assignments", params={"study_id": study_id}, headers=auth).json()
            assert len(mine) == len(items) and all(a["state"] == "pending" for a in mine)
            for n, a in enumerate(mine):
                payload = client.get(f"/api/assignments/{a['id']}", headers=auth).json()["payload"]
                assert payload["legend"]["green"].endswith("positive") and len(payload["questions"]) == 5
                assert "method" not in payload["legend"]["green"]
                assert "iqs" not in payload  # blinded: the method and its scores stay with the admin
                with Studies(store) as studies:  # the simulated annotator reads the full item the admin's way
                    full = studies.item(a["item_id"]).payload
                answer = simulated_answer(task, full, full["iqs"]["scores"], seed=k * 1000 + n, noise=0.0)
                if n == 0:  # progress is saved and can be resumed before the final answer
                    r = client.post(f"/api/assignments/{a['id']}", json={"answer": answer, "final": False},
                                    headers=auth)
                    assert r.status_code == 200 and r.json()["state"] == "pending" and not r.json()["final"]
                r = client.post(f"/api/assignments/{a['id']}", json={"answer": answer, "final": True}, headers=auth)
                assert r.status_code == 200, r.text
                assert r.json()["final"]
            bad = client.post(f"/api/assignments/{mine[0]['id']}", headers=auth,
                              json={"answer": {"answers": {"label": "maybe"}}, "final": True})
            assert bad.status_code == 400 and "pick one of" in bad.json()["detail"]
        other = annotators[0][1]  # nobody answers for somebody else
        theirs = client.get("/api/me/assignments", params={"study_id": study_id},
                            headers={"Authorization": f"Bearer {annotators[1][1]}"}).json()[0]
        r = client.post(f"/api/assignments/{theirs['id']}", json={"answer": {}, "final": True},
                        headers={"Authorization": f"Bearer {other}"})
        assert r.status_code == 403

    with Studies(store) as studies:
        answers = load_answers(studies, study_id)
        assert len(answers) == 3 * len(items) and all(a.simulated for a in answers)
        exported = studies.export(study_id)
        assert all(given["answer"]["simulated"]["kind"] == "model-output" for record in exported
                   for given in record["answers"])
        with pytest.raises(InterpevalError, match="no human answers"):
            score_studies(studies, [study_id])
        (result,) = score_studies(studies, [study_id], simulated=True)

    # noise 0: every annotator answers the model's most probable class, so reproducibility = mean 1/(1 − ln max p)
    y = [item["payload"]["iqs"]["y_model"] for item in items]
    per_sample = {item["payload"]["iqs"]["sample_id"]: 1 / (1 - math.log(max(p))) for item, p in zip(items, y,
                                                                                                       strict=True)}
    for score in result.scores:
        assert score.reproducibility["mean"] == pytest.approx(np.mean(list(per_sample.values())))
        assert score.plausibility["n"] == 3 * 4 and score.simplicity["n"] == 4
        assert 0 <= score.iqs <= 1 and score.grid["n"] == 66
    assert result.agreement["label_agreement"] == 1.0 and result.agreement["pairs"] == 3 * len(items)
    assert sorted(s.rank for s in result.scores) == [1, 2, 3]

    t1, t2 = table1(result), table2(result)
    assert SIMULATED_BANNER in t1.title and SIMULATED_BANNER in t2.title
    assert [row[0] for row in t1.rows][-1] == "trivial baseline" and len(t1.rows) == 4
    assert t1.provenance["model"] == "tiny-sequence-classification" and "score ≠ 0" in t1.provenance["marked words"]
    written = write_outputs([result], tmp_path / "out")
    names = {p.name for p in written}
    assert {"table1-sst2.md", "table2-sst2.md", "agreement-sst2.md", "cost-sst2.md", "figure5.png",
            "report.html", "scores.json"} <= names
    for path in written:
        if path.suffix in (".md", ".html"):
            assert SIMULATED_BANNER in path.read_text(), path
    assert all(entry["simulated"] for entry in json.loads((tmp_path / "out" / "scores.json").read_text()))
    assert (tmp_path / "out" / "figure5.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _wait(condition, timeout=15.0):
    deadline = time.time() + timeout
    while not condition():
        assert time.time() < deadline, "condition not met in time"
        time.sleep(0.05)


def test_an_annotator_answers_by_clicking_words_in_the_browser(server, browser):
    from interpeval.benchmarks.iqs.marking import Marking
    from interpeval.benchmarks.iqs.score import human_sets

    base, store = server
    items, config = build_study("qnli", "tiny-sequence-classification", per_class=2, seed=0,
                                methods={"input_x_gradient": {}}, marking=Marking(top_k=6))
    with Studies(store) as studies:
        user, token = studies.add_user("simulated-browser", "annotator")  # a test driving a browser: not human
        study_id = create(studies, "IQS qnli browser", items, config)
        first = next(a for a in studies.assign(study_id, user.id) if studies.item(a.item_id).payload["iqs"]["red"])
        payload = studies.item(first.item_id).payload
    red, green = payload["iqs"]["red"], payload["iqs"]["green"]
    browser.get(base + "/login")
    browser.find_element("id", "token").send_keys(token)
    browser.find_element("css selector", "form button[type=submit]").click()
    _wait(lambda: "/studies" in browser.current_url)  # logged in: the cookie is set
    browser.get(f"{base}/a/{first.id}")
    shown = browser.find_elements("css selector", "#iqs-text span.iqs")
    assert [w.text for w in shown] == payload["words"]
    assert [i for i, w in enumerate(shown) if "red" in w.get_attribute("class").split()] == red
    assert [i for i, w in enumerate(shown) if "green" in w.get_attribute("class").split()] == green
    assert "entailment" in browser.find_element("css selector", ".legend").text
    browser.find_element("css selector", "input[name=q-label][value=entailment]").click()
    remove = browser.find_elements("css selector", ".tokens[data-question=remove_red] button.tokbtn:enabled")
    add = browser.find_elements("css selector", ".tokens[data-question=add_green] button.tokbtn:enabled")
    assert len(remove) == len(red) and len(add) == len(payload["words"]) - len(green)
    clicked_remove = [int(b.get_attribute("data-index")) for b in remove[:1]]
    clicked_add = [int(add[-1].get_attribute("data-index"))]
    remove[0].click()
    add[-1].click()
    artifacts = Path(__file__).resolve().parents[3] / "out" / "test-artifacts"  # gitignored
    artifacts.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(artifacts / "iqs-item.png"))
    browser.find_element("id", "save").click()  # progress is kept per item
    _wait(lambda: "saved=1" in browser.current_url)
    browser.get(f"{base}/a/{first.id}")
    on = browser.find_elements("css selector", ".tokens[data-question=add_green] button.tokbtn.on")
    assert [int(b.get_attribute("data-index")) for b in on] == clicked_add
    browser.find_element("id", "submit").click()
    _wait(lambda: browser.current_url != f"{base}/a/{first.id}")  # on to the next item
    with Studies(store) as studies:
        saved = studies.assignment(first.id, user.id)
        (answer,) = [a for a in load_answers(studies, study_id) if a.annotator == "simulated-browser"]
    assert saved.final and saved.answer["answers"]["label"] == "entailment"
    assert saved.answer["answers"]["remove_red"] == clicked_remove and answer.simulated
    from interpeval.benchmarks.iqs.study import load_items

    with Studies(store) as studies:
        item = next(it for it in load_items(studies, study_id) if it.id == answer.item_id)
    sets = human_sets(TASKS["qnli"], item, answer)
    assert sets["not_entailment"] == set(red) - set(clicked_remove)
    assert sets["entailment"] == set(green) | set(clicked_add)
