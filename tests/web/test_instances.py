"""Instance pages of every benchmark from one view model, the worst-first instance table, the per-version cache,
Swagger UI from the installed package, 413 for oversized bodies however sent, and stores written by d35c524."""

import math
import shutil
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from interpeval.report import views
from interpeval.store import Store
from interpeval.store.sqlite import SCHEMA_VERSION
from interpeval.store.studies import Studies
from interpeval.web import create_app

V1_STORE = Path(__file__).resolve().parents[1] / "fixtures" / "store-v1.sqlite"


@pytest.fixture(scope="module")
def client(seeded):
    path, _ = seeded
    return TestClient(create_app(path, max_body=64 * 1024))


def test_masked_lm_instance_shows_sentence_gold_prediction_and_rationale(client, seeded, seed_facts):
    path, ids = seeded
    golden = seed_facts["plm_golden"]
    with Store(path) as store:
        stored = store.instance(ids["plm_real"], "0")
    assert "sent_token" not in stored  # the run stores no words: the page rebuilds them from the golden file
    view = client.get(f"/api/runs/{ids['plm_real']}/instances/0").json()
    facts = view["facts"]
    assert facts["text"] == golden[0][0] and facts["gold"] == "paris"
    assert facts["prediction"] == stored["top_k"][0]
    assert facts["probability"] == pytest.approx(math.exp(stored["log_probs"][0]))
    assert facts["correct"] == bool(stored["hit1"])
    (heat,) = view["explanations"]
    assert heat["label"] == "Saliency" and [t["text"] for t in heat["tokens"]] == golden[0][0].split()
    assert [t["index"] for t in heat["tokens"] if t["gold"]] == golden[0][1]
    assert sorted(t["index"] for t in heat["tokens"] if t["rationale"]) == sorted(stored["rationale"])
    assert [p["label"] for p in view["pair"]] == ["original", "perturbed (ins_del)"]
    page = client.get(f"/runs/{ids['plm_real']}/instances/0").text
    assert 'class="gold-answer">paris<' in page and f'class="prediction">{stored["top_k"][0]}' in page


def test_an_answer_models_instance_shows_question_passage_evidence_gold_prediction_and_its_f1s(client, seeded):
    from interpeval.benchmarks.expmrc.data import dev_path, load_dataset

    path, ids = seeded
    with Store(path) as store:
        outputs = store.instances(ids["expmrc_answers"])
        stored = {run: {(m["instance_id"], m["name"]): m["value"] for m in store.metrics(ids[run])}
                  for run in ("expmrc_mss", "expmrc_pseudo")}
    questions = {q.qid: q for q in load_dataset(dev_path("squad")).questions}
    assert len(outputs) == 4
    for output in outputs:
        qid, question = output["instance_id"], questions[output["instance_id"]]
        view = client.get(f"/api/runs/{ids['expmrc_answers']}/instances/{qid}").json()
        facts, evidence = view["facts"], view["evidence"]
        assert (facts["text"], facts["prediction"]) == (question.question, output["text"])
        assert facts["gold"].split(" | ") == list(dict.fromkeys(question.answers))
        assert evidence["gold_evidence"] == list(dict.fromkeys(question.evidences))
        marked = "".join(p["text"] for p in evidence["pieces"] if "gold" in p["cls"].split())
        assert marked and all(e in marked for e in question.evidences if e in question.context)
        assert evidence["evidence"] == output["evidence"]
        # the F1s of this answer and evidence-head span are what the official scorer stored for the systems that
        # used them: MSS took the answer, the evidence-head row the answer and the span
        scores = evidence["scores"]
        assert scores["answer F1"] == stored["expmrc_mss"][(qid, "answer")] == stored["expmrc_pseudo"][(qid, "answer")]
        assert scores["evidence F1"] == stored["expmrc_pseudo"][(qid, "evidence")]
        assert scores["all (answer × evidence)"] == stored["expmrc_pseudo"][(qid, "all")]
        assert [(r["run_id"], r["f1"]["evidence"]) for r in evidence["systems"]] == [
            (ids[run], stored[run][(qid, "evidence")]) for run in ("expmrc_mss", "expmrc_pseudo")]
    page = client.get(f"/runs/{ids['expmrc_answers']}/instances/{outputs[0]['instance_id']}").text
    for shown in ("input-text", "gold-answer", "prediction", "gold-evidence", "predicted-evidence", 'class="hl gold',
                  "table class=\"plain systems\""):
        assert shown in page


def test_iqs_explainers_side_by_side_on_one_colour_scale(client, seeded, seed_facts):
    from interpeval.benchmarks.iqs.tasks import get_task, load_samples

    path, ids = seeded
    methods = seed_facts["iqs_methods"]
    run = ids["iqs_input_x_gradient"]
    with Store(path) as store:
        (first, *_) = store.instances(run)
        outputs = {m: store.instance(ids[f"iqs_{m}"], first["instance_id"]) for m in methods}
        (payload, *_) = store.study_payloads("iqs", "$.iqs.sample_id", first["sample_id"])
    view = client.get(f"/api/runs/{run}/instances/{first['instance_id']}").json()
    shown = view["explanations"]
    assert [h["label"].split()[0] for h in shown] == list(methods)  # this run first, then the others by id
    assert [h["this"] for h in shown] == [True, False, False]
    top = max(abs(s) for out in outputs.values() for s in out["scores"])
    assert view["scale"] == pytest.approx(top)
    for heat in shown:
        out = outputs[heat["label"].split()[0]]
        assert [t["text"] for t in heat["tokens"]] == out["words"]
        alphas = [float(t["style"].rsplit(",", 1)[1].rstrip(")")) for t in heat["tokens"]]
        assert alphas == pytest.approx([abs(s) / top for s in out["scores"]], abs=1e-3)
    sample = {s.id: s for s in load_samples(get_task("sst2"))}[first["sample_id"]]
    y = payload["iqs"]["y_model"]
    assert view["facts"]["text"] == sample.text and view["facts"]["gold"] == sample.label
    assert view["facts"]["prediction"] == ("positive" if y[1] > y[0] else "negative")
    page = client.get(f"/runs/{run}/instances/{first['instance_id']}").text
    assert page.count('<div class="heatmap"') == 3 and "3 side by side" in page


def test_instance_table_is_worst_first_sortable_and_filterable(seeded):
    path, ids = seeded
    with Store(path) as store:
        f1 = {r["instance_id"]: r["f1"] for r in store.instances(ids["plm_real"])}
        table = views.instance_table(store, ids["plm_real"])
        assert table["sort"] == "token_f1" and not table["descending"]
        assert [r["id"] for r in table["rows"]] == sorted(f1, key=f1.get)
        best = max(f1.values())
        kept = views.instance_table(store, ids["plm_real"], query=f"token_f1>={best}")
        assert [r["id"] for r in kept["rows"]] == [i for i in f1 if f1[i] >= best]
        assert [r["id"] for r in views.instance_table(store, ids["plm_real"], "id", True)["rows"]] == \
            sorted(f1, reverse=True)


def test_views_are_cached_until_the_store_changes(seeded, monkeypatch, tmp_path):
    path, _ = seeded
    copy = tmp_path / "copy.sqlite"
    with sqlite3.connect(path) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    calls = []
    original = views.leaderboards
    monkeypatch.setattr(views, "leaderboards", lambda *a: calls.append(1) or original(*a))
    client = TestClient(create_app(copy))
    for _ in range(3):
        assert client.get("/leaderboards").status_code == 200
    assert client.get("/leaderboards/expmrc.csv").status_code == 200
    assert len(calls) == 1
    with Store(copy) as other:  # another process's write (the CLI recording a run) makes a new store version
        run = other.run("attribute", {"method": "new"}, model="m")
        run.record("x", {"text": "new"}, {"sum": 1.0})
    assert client.get("/leaderboards").status_code == 200 and len(calls) == 2


def test_a_cached_page_is_served_without_the_thread_pool_until_the_store_changes(seeded, monkeypatch, tmp_path):
    from interpeval.web import context

    path, _ = seeded
    copy = tmp_path / "copy.sqlite"
    with sqlite3.connect(path) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    client = TestClient(create_app(copy))
    pages = ["/", "/runs", "/leaderboards", "/api/leaderboards", "/leaderboards/expmrc.csv", "/probing", "/paper"]
    first = {page: client.get(page) for page in pages}
    original = context.run_in_threadpool
    pooled = []

    async def counted(function, *args):
        pooled.append(function)
        return await original(function, *args)

    monkeypatch.setattr(context, "run_in_threadpool", counted)
    for page in pages:
        again = client.get(page)
        assert again.status_code == 200 and again.content == first[page].content
        assert again.headers["content-type"] == first[page].headers["content-type"]
    assert pooled == []  # every repeat answered from the event loop
    assert client.get("/leaderboards/expmrc.csv").headers["content-disposition"] == 'attachment; filename="expmrc.csv"'
    with Store(copy) as other:  # another process's write makes a new store version
        other.run("attribute", {"method": "new"}, model="a-new-model").record("x", {"text": "new"}, {"sum": 1.0})
    assert "a-new-model" in client.get("/runs").text and len(pooled) == 1


def test_cached_pages_are_gzipped_when_asked_and_never_shared_with_a_logged_in_user(client, seeded):
    path, _ = seeded
    plain = client.get("/leaderboards", headers={"Accept-Encoding": "identity"})
    packed = client.get("/leaderboards", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers and packed.headers["content-encoding"] == "gzip"
    assert packed.content == plain.content and "Accept-Encoding" in packed.headers["vary"]  # httpx unpacked it
    assert packed.headers["content-security-policy"].startswith("default-src 'self'")
    with Studies(path) as studies:
        user, token = studies.add_user(f"cache-reader-{len(studies.users())}", "annotator")
    mine = client.get("/leaderboards", headers={"Authorization": f"Bearer {token}"}).text
    assert f"{user.name} (annotator)" in mine and "log out" in mine
    assert user.name not in client.get("/leaderboards").text and "log in" in client.get("/leaderboards").text


def test_leaderboards_name_every_held_out_test_of_the_head_behind_them():
    import json

    from interpeval.models.zoo import artifacts_dir

    card = json.loads((artifacts_dir() / "minilm-squad" / "card.json").read_text())
    line = views.held_out("minilm-squad")
    assert card["heldout"] and not card["metrics"]  # the card keeps its scores per held-out test
    for test in card["heldout"].values():
        assert test["what"] in line and f"(n={test['n']};" in line
        assert all(f"{name} {value:.3f}" in line for name, value in test["metrics"].items())
        assert f"{test['baseline_name']}: answer_f1 {test['baseline']['answer_f1']:.3f}" in line
    assert views.held_out("tiny-sequence-classification") is None  # no card: nothing claimed


def test_quackie_explainers_are_shown_side_by_side_on_one_scale(quackie_pair):
    copy, info, gradient, outputs = quackie_pair
    scores = {out["instance_id"]: [float(i) for i in range(out["n_sentences"])] for out in outputs}  # Gradient's sum
    with Store(copy) as store:
        other = store.run("quackie", {**info.config, "classifier": "other", "method": {"label": "Other"}},
                          model=info.model, data_fingerprint=info.data_fingerprint)
        other.record(outputs[0]["instance_id"], outputs[0])  # another classifier: not the same setting
    first = outputs[0]
    client = TestClient(create_app(copy))
    shown = client.get(f"/api/runs/{info.id}/instances/{first['instance_id']}").json()["sentences"]
    assert [(r["run_id"], r["label"], r["this"]) for r in shown["rows"]] == [(info.id, "Random", True),
                                                                            (gradient, "Gradient", False)]
    random_scores = first["scores"]["random"]
    assert shown["scale"] == pytest.approx(max(max(map(abs, random_scores)), first["n_sentences"] - 1))
    for row, values in zip(shown["rows"], (random_scores, scores[first["instance_id"]]), strict=True):
        assert [s["top"] for s in row["sentences"]] == [i == values.index(max(values)) for i in range(len(values))]
        assert [s["gt"] for s in row["sentences"]] == [i in first["gt"] for i in range(len(values))]
        alphas = [float(s["style"].rsplit(",", 1)[1].rstrip(")")) for s in row["sentences"]]
        assert alphas == pytest.approx([abs(v) / shown["scale"] for v in values], abs=1e-3)
    page = client.get(f"/runs/{info.id}/instances/{first['instance_id']}").text
    assert page.count("<tr", page.index('class="side quackie-sentences"')) >= 2 and "2 explainers side by side" in page
    # opened from the Random run, each row names how its own scores were made (Gradient's first aggregation: sum)
    assert [(r["agg"], r["scored_by"]) for r in shown["rows"]] == [
        ("random", "random scores (no explainer, nothing aggregated)"), ("sum", "token scores aggregated by sum")]
    assert "aggregated with" not in page and page.count("token scores aggregated by sum") == 1
    from_gradient = client.get(f"/api/runs/{gradient}/instances/{first['instance_id']}").json()["sentences"]
    assert [(r["label"], r["agg"]) for r in from_gradient["rows"]] == [("Gradient", "sum"), ("Random", "random")]


def test_swagger_ui_is_served_from_the_installed_package(client):
    page = client.get("/api/docs")
    assert page.status_code == 200 and "http" not in page.text.replace("http-equiv", "")  # nothing remote
    for name in ("swagger-ui-bundle.js", "swagger-ui.css"):
        assert client.get(f"/static/swagger/{name}").status_code == 200
    assert client.get("/static/swagger/../app.py").status_code == 404
    assert "SwaggerUIBundle" in client.get("/static/swagger-init.js").text
    original, shown = client.get("/api/openapi.json"), client.get("/api/docs/openapi-3.0.json")
    assert original.json()["openapi"].startswith("3.1") and '{"type":"null"}' in original.text.replace(" ", "")
    assert shown.json()["openapi"] == "3.0.3" and '{"type":"null"}' not in shown.text.replace(" ", "")
    assert shown.json()["paths"].keys() == original.json()["paths"].keys()


@pytest.mark.parametrize("chunked", [True, False])
def test_an_oversized_body_is_413_however_it_is_sent(client, chunked):
    body = b'{"answer": {"pad": "' + b"x" * (100 * 1024) + b'"}}'
    content = (body[i:i + 4096] for i in range(0, len(body), 4096)) if chunked else body
    response = client.post("/api/assignments/1", content=content, headers={"Authorization": "Bearer 1.x",
                                                                            "Content-Type": "application/json"})
    assert response.status_code == 413 and "over 65536 bytes" in response.json()["detail"]


def test_a_store_written_by_d35c524_opens_and_is_migrated(tmp_path):
    store = tmp_path / "old.sqlite"
    shutil.copy(V1_STORE, store)
    with sqlite3.connect(store) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0  # written before versions were kept
    client = TestClient(create_app(store))
    assert [r["benchmark"] for r in client.get("/api/runs").json()] == ["attribute", "attribute", "plm_rationale"]
    assert client.get("/runs/1/instances/line-1").status_code == 200
    view = client.get("/api/runs/3/instances/0").json()  # an old masked-LM record whose golden file is gone
    assert view["facts"]["prediction"] == "paris" and view["facts"]["gold"] is None
    with Studies(store) as studies:
        assert studies.store.schema_version == SCHEMA_VERSION
        (record,) = studies.export(1)
        assert record["answers"][0]["answer"] == {"note": "answered before the migration"}
        code = studies.invite("annotator", created_by=1, study_id=1)  # the column migration 2 added
        user, _ = studies.accept_invite(code, "new")
        assert [a.study_id for a in studies.assignments(user.id)] == [1]


def test_a_store_from_a_newer_version_is_refused(tmp_path):
    from interpeval.errors import DataError

    store = tmp_path / "new.sqlite"
    Store(store).close()
    with sqlite3.connect(store) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(DataError, match="newer interpeval"):
        Store(store)


def test_evaluate_run_is_one_explainer_by_metric_table(client, seeded):
    import re

    from interpeval import metrics as registry

    path, ids = seeded
    with Store(path) as store:
        info = store.get_run(ids["evaluate"])
        stored = {(m["group"], m["name"]): m["value"] for m in store.metrics(ids["evaluate"]) if m["instance_id"] == ""}
        table = views.evaluate_table(store, ids["evaluate"])
        assert views.run_metrics(store, ids["evaluate"]) == []  # no long-form duplicate rows
    assert [r["explainer"] for r in table["rows"]] == ["gradient", "input_x_gradient", "random"]
    assert [r["baseline"] for r in table["rows"]] == [False, False, True]
    assert table["metrics"] == [m for m in info.config["metrics"]]
    for name in table["metrics"]:
        cells = {r["explainer"]: r["cells"][name] for r in table["rows"]}
        assert cells["gradient"]["value"] == stored[(f"gradient/{name}", "mean")]
        assert cells["gradient"]["n"] == stored[(f"gradient/{name}", "n")]
        better = max if registry.get(name).info.higher_is_better else min
        best = better(("gradient", "input_x_gradient"), key=lambda label: cells[label]["value"])
        assert [label for label, c in cells.items() if c["best"]] == [best]
    page = client.get(f"/runs/{ids['evaluate']}").text
    section = page.split('id="evaluate-table"')[1].split("</table>")[0]
    assert section.count("<tr") == 4 and section.count("★") == len(table["metrics"])
    first = table["rows"][0]["cells"][table["metrics"][0]]["value"]
    assert f"{first:#.3g}".rstrip(".") in section  # 3 significant digits, not one decimal
    assert re.search(r"\[[-\d.e]+, [-\d.e]+\] n=3", section)
    board = next(t for t in client.get("/api/leaderboards").json() if t["benchmark"] == "evaluate")
    assert [r["explainer"] for r in board["rows"]] == ["gradient", "input_x_gradient", "random (random baseline)"]
