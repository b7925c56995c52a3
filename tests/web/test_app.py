"""The FastAPI app in-process: every view over a real seeded store, the JSON API, and the security rules."""

import csv
import io
import json
import re

import numpy as np
import pytest
from fastapi.testclient import TestClient

from interpeval import stats
from interpeval.report import views
from interpeval.store import Store
from interpeval.store.studies import Studies
from interpeval.web import create_app


@pytest.fixture(scope="module")
def client(seeded):
    path, _ = seeded
    return TestClient(create_app(path, max_body=64 * 1024))


@pytest.fixture
def people(seeded):
    """A fresh admin, two annotators and a checker with their tokens, and a rationale study."""
    path, _ = seeded
    with Studies(path) as studies:
        n = len(studies.users())
        admin, admin_t = studies.add_user(f"admin{n}", "admin")
        a, a_t = studies.add_user(f"ann{n}", "annotator")
        b, b_t = studies.add_user(f"bnn{n}", "annotator")
        c, c_t = studies.add_user(f"chk{n}", "checker")
        tokens = ["迈", "向", "充", "满", "希", "望", "的", "[MASK]", "世", "纪"]
        study = studies.create_study("gold", "plm-rationale",
                                     [{"key": "0", "payload": {"sent_id": 0, "sent_token": tokens, "answers": "新"}}],
                                     created_by=admin.id)
        studies.add_member(study.id, c.id, "checker")
        (mine,) = studies.assign(study.id, a.id)
    return {"admin": admin_t, "a": a_t, "b": b_t, "c": c_t, "study": study.id, "assignment": mine.id}


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def test_every_page_renders_from_the_store(client, seeded):
    _, ids = seeded
    for url in ["/", "/runs", "/runs?benchmark=quackie", f"/runs/{ids['saliency']}", f"/runs/{ids['quackie']}",
                f"/runs/{ids['expmrc']}", f"/runs/{ids['probing']}", "/leaderboards", "/probing", "/login"]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "default-src 'self'" in response.headers["content-security-policy"]
    assert client.get("/runs/999").status_code == 404
    assert client.get("/static/plotly.min.js").text.startswith("/**")  # served from the plotly package


def test_runs_filter(client, seeded):
    _, ids = seeded
    rows = client.get("/api/runs", params={"benchmark": "attribute", "q": "input_x"}).json()
    assert [r["id"] for r in rows] == [ids["input_x_gradient"]]
    page = client.get("/runs", params={"benchmark": "expmrc"}).text
    assert f'href="/runs/{ids["expmrc"]}"' in page and f'href="/runs/{ids["quackie"]}"' not in page


def test_heatmap_signed_colours_and_side_by_side(client, seeded):
    path, ids = seeded
    with Store(path) as store:
        stored = store.instances(ids["input_x_gradient"])[0]
        other = store.instances(ids["saliency"])[0]
    response = client.get(f"/runs/{ids['input_x_gradient']}/instances/line-1")
    spans = re.findall(r'<span class="tok[^"]*" style="background-color: rgba\((\d+),(\d+),(\d+),([\d.]+)\)" '
                       r'title="([-\d.e]+|–)">', response.text)
    # the first heatmap is this run's: one span per non-special token, colour by sign, strength by |score| over the
    # largest |score| of both explanations shown (one scale for the side-by-side view)
    scores = [s for s, seg in zip(stored["scores"], stored["segments"], strict=True) if seg != -1]
    mine = spans[:len(scores)]
    top = max(abs(s) for row in (stored, other) for s, seg in zip(row["scores"], row["segments"], strict=True)
              if seg != -1)
    for (r, _, _, alpha, _), score in zip(mine, scores, strict=True):
        assert r == ("0" if score >= 0 else "210")
        assert float(alpha) == pytest.approx(abs(score) / top, abs=1e-3)
    assert len(spans) == 2 * len(scores)  # the saliency run's heatmap of the same input sits beside it
    assert f'href="/runs/{ids["saliency"]}/instances/line-1"' in response.text


def test_quackie_sentences_mark_the_ground_truth(client, seeded):
    path, ids = seeded
    with Store(path) as store:
        first = store.instances(ids["quackie"])[0]
    page = client.get(f"/runs/{ids['quackie']}/instances/{first['instance_id']}").text
    sentences = re.findall(r'<span class="sent( gt)?"', page)
    assert len(sentences) == first["n_sentences"]
    assert [i for i, s in enumerate(sentences) if s] == sorted(set(first["gt"]))
    assert page.count("★") == 2  # the legend's star and the top-scored sentence's


def test_expmrc_evidence_highlight(client, seeded):
    _, ids = seeded
    view = client.get(f"/api/runs/{ids['expmrc']}/instances/570d2417fed7b91900d45c40").json()
    pieces = view["evidence"]["pieces"]
    gold = "".join(p["text"] for p in pieces if "gold" in p["cls"])
    assert gold in view["evidence"]["gold_evidence"]
    # the first question's predicted evidence is its gold evidence: highlighted as both
    assert {p["cls"] for p in pieces if p["cls"]} == {"gold pred"}


def test_masked_lm_original_beside_perturbed(client, seeded):
    _, ids = seeded
    for iid in ("0", "100"):
        view = client.get(f"/api/runs/{ids['plm']}/instances/{iid}").json()
        assert [p["label"] for p in view["pair"]] == ["original", "perturbed (敏感-重要词)"]
        first = [t["text"] for t in view["pair"][1]["tokens"][:2]]
        assert first == ["走", "进"] and [t.get("rationale", False) for t in view["pair"][0]["tokens"]][:3] == [
            True, True, False]
    page = client.get(f"/runs/{ids['plm']}/instances/0").text
    # four rationale words in this record's explanation and in each row of the pair, plus the legend's sample
    assert page.count('class="tok rationale"') == 4 + 2 * 4 + 1


def test_leaderboards_have_n_intervals_and_csv(client, seeded):
    path, ids = seeded
    with Store(path) as store:
        answer = [m["value"] for m in store.metrics(ids["expmrc"]) if m["name"] == "answer"]
        evidence = [m["value"] for m in store.metrics(ids["expmrc"]) if m["name"] == "evidence"]
    rows = list(csv.DictReader(io.StringIO(client.get("/leaderboards/expmrc.csv").text)))
    assert [r["system"] for r in rows] == ["gold answer, alternating evidence", "MSS",
                                           "Pseudo-data training (evidence head)"]  # and the answer model's systems
    assert float(rows[0]["EVI"]) == pytest.approx(100 * np.mean(evidence), rel=1e-5)
    assert float(rows[0]["ANS"]) == pytest.approx(100 * np.mean(answer), rel=1e-5)
    assert int(rows[0]["EVI_n"]) == len(evidence) == 5
    assert float(rows[0]["EVI_low"]) <= float(rows[0]["EVI"]) <= float(rows[0]["EVI_high"])
    probing = list(csv.DictReader(io.StringIO(client.get("/leaderboards/probing.csv").text)))
    best = {(r["language"], r["category"]): r for r in probing}
    # seeded accuracy 0.5 + 0.1·layer + 0.05 (en) − 0.1 (Tense): the best layer is 3 everywhere
    assert best[("en", "Number")]["layer"] == "3" and float(best[("en", "Number")]["accuracy"]) == pytest.approx(0.85)
    assert float(best[("ru", "Tense")]["selectivity"]) == pytest.approx(0.2)
    page = client.get("/leaderboards").text
    assert page.count("How to read this") == 5 and 'class="sortable"' in page  # + evaluate's explainer × metric
    assert client.get("/leaderboards/nothing.csv").status_code == 404


def test_wilson_interval_matches_the_textbook():
    low, high = stats.wilson(8, 10)  # Newcombe (1998), Table I: 8/10 → 0.4902 – 0.9433
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)


def test_probing_rows_add_family_and_majority(seeded, tmp_path):
    path, _ = seeded
    task = tmp_path / "en_ewt_no_sorting_Number.txt"
    task.write_text("tr\tSing\ta\ntr\tSing\tb\ntr\tPlur\tc\nte\tSing\td\nte\tPlur\te\nte\tPlur\tf\n")
    with Store(path) as store:
        rows = views.probing_rows(store, tasks_dir=tmp_path)
    en = [r for r in rows if r["task"] == "en_ewt_no_sorting_Number"]
    assert en and all(r["family"] == "Indo-European" for r in en)
    assert all(r["majority"] == pytest.approx(1 / 3) for r in en)  # train majority "Sing" is 1 of 3 test labels
    assert all(r["majority"] is None for r in rows if r["task"] != "en_ewt_no_sorting_Number")


def test_dataset_text_is_escaped(client, seeded):
    _, ids = seeded
    page = client.get(f"/runs/{ids['saliency']}/instances/line-4").text
    assert "<script>document" not in page and "<b>film" not in page
    assert "&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt; great &lt;b&gt;film&lt;/b&gt;" in page


def test_study_api_needs_a_token(client, people):
    assert client.get("/api/studies").status_code == 401
    assert client.get("/api/studies", headers=bearer("1.forged")).status_code == 401
    assert client.get("/api/studies", headers=bearer(people["a"][:-2] + "xx")).status_code == 401
    assert client.get("/studies", follow_redirects=False).status_code == 303  # pages send you to /login
    mine = client.get("/api/studies", headers=bearer(people["a"])).json()
    assert [s["id"] for s in mine] == [people["study"]]
    assert client.get("/api/studies", headers=bearer(people["b"])).json() == []


def test_another_users_assignment_is_refused(client, people):
    aid = people["assignment"]
    assert client.get(f"/api/assignments/{aid}", headers=bearer(people["b"])).status_code == 403
    denied = client.post(f"/api/assignments/{aid}", headers=bearer(people["b"]), json={"answer": {"rationale": [0]}})
    assert denied.status_code == 403
    assert client.get(f"/a/{aid}", headers=bearer(people["b"])).status_code == 403
    bad = client.post(f"/api/assignments/{aid}", headers=bearer(people["a"]), json={"answer": {"rationale": [7]}})
    assert bad.status_code == 400 and "masked" in bad.json()["detail"]
    ok = client.post(f"/api/assignments/{aid}", headers=bearer(people["a"]), json={"answer": {"rationale": [0, 9]}})
    assert ok.status_code == 200 and ok.json()["state"] == "locked"
    assert client.post("/api/studies", headers=bearer(people["a"]), json={"name": "x", "kind": "generic"}).status_code == 403
    assert client.get(f"/api/studies/{people['study']}/export", headers=bearer(people["c"])).status_code == 403


def test_forms_need_the_csrf_token(seeded, people):
    path, _ = seeded
    browser = TestClient(create_app(path))
    login = browser.post("/login", data={"token": people["a"], "next": "/studies"}, follow_redirects=False)
    assert login.status_code == 303 and "httponly" in login.headers["set-cookie"].lower()
    page = browser.get(f"/a/{people['assignment']}").text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
    answer = json.dumps({"rationale": [1, 8]})
    forged = browser.post(f"/a/{people['assignment']}", data={"answer": answer, "action": "submit"})
    assert forged.status_code == 403
    wrong = browser.post(f"/a/{people['assignment']}", data={"answer": answer, "action": "submit", "csrf": "0" * 64})
    assert wrong.status_code == 403
    api = browser.post(f"/api/assignments/{people['assignment']}", json={"answer": {"rationale": [1]}})
    assert api.status_code == 403  # cookie-authenticated API calls need X-CSRF-Token too
    done = browser.post(f"/a/{people['assignment']}", data={"answer": answer, "action": "submit", "csrf": csrf},
                        follow_redirects=False)
    assert done.status_code == 303
    with Studies(path) as studies:
        assert studies.export(people["study"])[0]["answers"][0]["answer"] == {"rationale": [1, 8]}


def test_invite_links_work_once(seeded, people):
    path, _ = seeded
    admin = TestClient(create_app(path))
    code = admin.post("/api/invites", headers=bearer(people["admin"]), json={"role": "annotator"}).json()["code"]
    guest = TestClient(create_app(path))
    assert "Join as annotator" in guest.get(f"/invite/{code}").text
    joined = guest.post(f"/invite/{code}", data={"name": "<i>eve</i>"})
    assert joined.status_code == 200 and "&lt;i&gt;eve&lt;/i&gt;" in joined.text and "<i>eve" not in joined.text
    token = re.search(r'id="new-token" value="([^"]+)"', joined.text) or re.search(r'value="([^"]+)" size="70"',
                                                                                  joined.text)
    assert guest.get("/api/me").json()["role"] == "annotator"  # the cookie was set
    assert guest.get("/api/me", headers=bearer(token.group(1))).json()["name"] == "<i>eve</i>"
    again = TestClient(create_app(path))
    assert again.post(f"/invite/{code}", data={"name": "mallory"}).status_code == 403
    assert again.get(f"/invite/{code}").status_code == 403


def test_request_size_is_limited(client, people):
    huge = {"answer": {"rationale": [0], "pad": "x" * (70 * 1024)}}
    response = client.post(f"/api/assignments/{people['assignment']}", headers=bearer(people["a"]), json=huge)
    assert response.status_code == 413


def test_serve_add_user_prints_a_working_token_once(tmp_path):
    from typer.testing import CliRunner

    from interpeval.cli import app

    store = tmp_path / "s.sqlite"
    result = CliRunner().invoke(app, ["serve", "--store", str(store), "--add-user", "ada"])
    assert result.exit_code == 0, result.output
    token = result.output.split("token (shown once): ")[1].strip()
    with Studies(store) as studies:
        assert studies.user_by_token(token).role == "admin"
    again = CliRunner().invoke(app, ["serve", "--store", str(store), "--add-user", "ada"])
    assert again.exit_code != 0 and "already exists" in str(again.exception)


def test_annotators_never_see_which_method_an_item_shows(seeded, seed_facts):
    """IQS blinding: an item's key (``<sample>|<method>``), its private ``iqs`` block and the study's config name
    the explainer under judgement; no page or API answer an annotator gets contains any of them."""
    path, ids = seeded
    with Studies(path) as studies:
        n = len(studies.users())
        ann, token = studies.add_user(f"blind{n}", "annotator")
        assigned = studies.assign(ids["iqs_study"], ann.id)
        keys = [studies.item(a.item_id).key for a in assigned]
    assert all("|" in k for k in keys)  # the stored keys do name the method
    client = TestClient(create_app(path))
    auth = bearer(token)
    seen = [client.get(f"/studies/{ids['iqs_study']}", headers=auth).text,
            client.get("/api/studies", headers=auth).text, client.get("/api/me/assignments", headers=auth).text]
    for a in assigned:
        seen += [client.get(f"/a/{a.id}", headers=auth).text, client.get(f"/api/assignments/{a.id}", headers=auth).text]
    assert all(page for page in seen)
    for method in seed_facts["iqs_methods"]:
        assert not [page for page in seen if method in page], method
    assert not [k for k in keys if any(k in page for page in seen)]
    item = client.get(f"/api/assignments/{assigned[0].id}", headers=auth).json()
    assert item["item"] == f"item {assigned[0].item_id}" and "iqs" not in item["payload"]
    assert item["payload"]["words"] and item["payload"]["marks"]  # what the annotator needs is still there


def test_invite_from_the_study_page_and_the_admin_view(seeded, people):
    path, _ = seeded
    client = TestClient(create_app(path))
    admin = bearer(people["admin"])
    page = client.post(f"/studies/{people['study']}/invite", data={"role": "annotator"}, headers=admin).text
    code = re.search(r"/invite/([\w.-]+)", page).group(1)
    guest = TestClient(create_app(path))
    assert guest.post(f"/invite/{code}", data={"name": f"joiner-{people['study']}"}).status_code == 200
    mine = guest.get("/api/me/assignments").json()
    assert [a["study_id"] for a in mine] == [people["study"]]
    client.post(f"/api/assignments/{people['assignment']}", headers=bearer(people["a"]),
                json={"answer": {"rationale": [0, 1]}, "final": True})
    guest.post(f"/api/assignments/{mine[0]['id']}", json={"answer": {"rationale": [1, 2]}, "final": True},
               headers={"X-CSRF-Token": _csrf(guest)})
    admin_page = client.get(f"/studies/{people['study']}", headers=admin).text
    agreement = re.search(r'class="agreement">([^<]+)<', admin_page).group(1)
    assert agreement == "0.33"  # Jaccard of {0, 1} and {1, 2}
    assert "[0, 1]" in admin_page and "[1, 2]" in admin_page


def _csrf(client):
    page = client.get("/studies").text
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def test_the_403_page_knows_who_is_logged_in(seeded, people):
    path, _ = seeded
    client = TestClient(create_app(path))
    forbidden = client.post(f"/studies/{people['study']}/invite", data={"role": "annotator"},
                            headers=bearer(people["a"]))
    assert forbidden.status_code == 403 and ">log in<" not in forbidden.text and "log out" in forbidden.text
