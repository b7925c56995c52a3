"""End to end in Debian's headless Chromium (Selenium + chromedriver) against `interpeval serve` on loopback.

Screenshots go to ``out/test-artifacts/`` (gitignored). The tests are skipped, saying why, only where the
``chromium`` / ``chromium-driver`` packages are not installed (``make test`` installs them, and fails on a skip).
"""

import json
import shutil
import time
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "out" / "test-artifacts"
CHROMIUM, CHROMEDRIVER = shutil.which("chromium") or "/usr/bin/chromium", shutil.which("chromedriver") or \
    "/usr/bin/chromedriver"
TOKENS = ["The", "capital", "of", "[MASK]", "is", "Paris", "."]

pytestmark = pytest.mark.skipif(
    not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()),
    reason="Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver; "
           ".ci/run does this on CI)")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    downloads = tmp_path_factory.mktemp("downloads")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,1400",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # console errors (CSP, failed fetches)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(5)
    driver.downloads = downloads
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def site(seeded, server_class):
    path, ids = seeded
    with server_class(path) as server:
        yield server, path, ids


def shot(driver, name):
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def log_in(driver, site, token):
    driver.delete_all_cookies()
    driver.get(site.url + "/login")
    driver.find_element("id", "token").send_keys(token)
    driver.find_element("css selector", "form button[type=submit]").click()
    wait_for(lambda: "/studies" in driver.current_url)


def wait_for(condition, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def rationale_study(path, name):
    from interpeval.store.studies import Studies

    with Studies(path) as studies:
        n = len(studies.users())
        admin, admin_t = studies.add_user(f"{name}-admin-{n}", "admin")
        ann, ann_t = studies.add_user(f"{name}-annotator-{n}", "annotator")
        chk, chk_t = studies.add_user(f"{name}-checker-{n}", "checker")
        study = studies.create_study(name, "plm-rationale", [{"key": "capital", "payload": {
            "sent_id": 7, "sent_token": TOKENS, "answers": "France", "sample_type": "ori", "rel_ids": []}}],
            created_by=admin.id)
        studies.add_member(study.id, chk.id, "checker")
        (assignment,) = studies.assign(study.id, ann.id)
    return {"study": study.id, "assignment": assignment.id, "admin": admin_t, "annotator": ann_t,
            "checker": chk_t, "ids": (admin.id, ann.id, chk.id)}


def test_open_a_run_and_see_its_heatmap(browser, site):
    server, _, ids = site
    browser.get(server.url + "/runs?benchmark=attribute")
    browser.find_element("link text", str(ids["saliency"])).click()
    tokens = browser.find_elements("css selector", ".heatmap .tok")
    assert len(tokens) > 5
    colours = {t.value_of_css_property("background-color") for t in tokens}
    assert any(c.startswith("rgba(0, 150, 60") for c in colours)  # positive scores are green
    assert browser.find_element("css selector", ".legend").is_displayed()
    shot(browser, "run-heatmap")
    # the hostile dataset text is shown as text and never runs
    browser.get(f"{server.url}/runs/{ids['saliency']}/instances/line-4")
    assert "<script>document.title" in browser.find_element("css selector", ".input-text").text
    assert browser.title != "pwned"
    shot(browser, "instance-side-by-side")


def test_filter_the_probing_dashboard(browser, site):
    from selenium.webdriver.support.ui import Select

    server, _, _ = site
    browser.get(server.url + "/probing")
    status = browser.find_element("id", "probing-status")
    wait_for(lambda: status.get_attribute("data-count") == "12")
    assert browser.execute_script("return document.getElementById('plot-lang-cat').data[0].y") == ["en", "ru"] or \
        sorted(browser.execute_script("return document.getElementById('plot-lang-cat').data[0].y")) == ["en", "ru"]
    Select(browser.find_element("id", "filter-language")).select_by_value("ru")
    wait_for(lambda: status.get_attribute("data-count") == "6")
    assert browser.execute_script("return document.getElementById('plot-lang-cat').data[0].y") == ["ru"]
    Select(browser.find_element("id", "filter-category")).select_by_value("Tense")
    wait_for(lambda: status.get_attribute("data-count") == "3")
    curves = browser.execute_script("return document.getElementById('plot-curves').data"
                                    ".map(function (t) { return [t.name, t.y]; })")
    accuracy = [y for name, y in curves if name.startswith("ru_ewt_no_sorting_Tense")][0]
    assert accuracy == pytest.approx([0.5, 0.6, 0.7])  # 0.5 + 0.1·layer − 0.1 for Tense, as seeded
    assert any(name.startswith("control") for name, _ in curves)
    # one category left: r between language profiles is undefined, shown as "—" and a blank cell, never as 0
    clusters = browser.execute_script("var d = document.getElementById('plot-clusters').data[0];"
                                      "return [d.z, d.text];")
    assert clusters[0] == [[None]] and clusters[1][0][0].startswith("—")
    shot(browser, "probing-filtered")
    Select(browser.find_element("id", "filter-category")).select_by_value("")
    Select(browser.find_element("id", "filter-language")).select_by_value("")
    wait_for(lambda: status.get_attribute("data-count") == "12")
    for plot in ("plot-lang-cat", "plot-layer-cat", "plot-clusters"):  # the toolbar never covers a title
        boxes = browser.execute_script(
            f"var p = document.getElementById('{plot}'); var t = p.querySelector('.gtitle').getBoundingClientRect();"
            " var m = p.querySelector('.modebar').getBoundingClientRect();"
            " return [t.left, t.right, t.top, t.bottom, m.left, m.right, m.top, m.bottom];")
        t_left, t_right, t_top, t_bottom, m_left, m_right, m_top, m_bottom = boxes
        assert t_right <= m_left or m_right <= t_left or t_bottom <= m_top or m_bottom <= t_top, plot
    ticks = browser.execute_script("return Array.from(document.querySelectorAll('#plot-layer-cat .ytick text'))"
                                   ".map(function (t) { return t.textContent; });")
    assert sorted(ticks) == ["Number", "Tense"]  # every category labelled
    assert "balanced" in browser.find_element("css selector", "#probing-dashboard .how").text
    shot(browser, "probing-dashboard")


def test_an_annotator_completes_an_item_by_clicks(browser, site):
    from interpeval.store.studies import Studies

    server, path, _ = site
    s = rationale_study(path, "annotate")
    log_in(browser, server, s["annotator"])
    browser.find_element("link text", "annotate").click()
    browser.find_element("css selector", "#my-assignments a").click()  # items are listed blinded: "item <id>"
    buttons = browser.find_elements("css selector", "#rationale-tokens button.tokbtn")
    assert [b.text for b in buttons] == TOKENS and not buttons[3].is_enabled()  # [MASK] cannot be picked
    for index in (1, 5, 4, 1, 1):  # capital, Paris, is, capital off, capital on again
        buttons[index].click()
    assert [b.get_attribute("aria-pressed") for b in buttons].count("true") == 3
    shot(browser, "annotator-item")
    browser.find_element("id", "submit").click()
    wait_for(lambda: f"/studies/{s['study']}" in browser.current_url)
    assert "locked" in browser.find_element("id", "my-assignments").text
    with Studies(path) as studies:
        assignment = studies.assignment(s["assignment"], s["ids"][1])
    assert assignment.final and assignment.answer == {"rationale": [1, 4, 5]}


def test_a_checker_sends_a_rationale_back(browser, site):
    from interpeval.store.studies import Studies

    server, path, _ = site
    s = rationale_study(path, "check")
    with Studies(path) as studies:
        studies.save(s["ids"][1], s["assignment"], {"rationale": [0, 1, 2, 4, 5, 6]})
    log_in(browser, server, s["checker"])
    browser.get(f"{server.url}/studies/{s['study']}")
    browser.find_element("css selector", "#my-assignments a").click()
    highlighted = [e.text for e in browser.find_elements("css selector", ".tokens.readonly .tokbtn.on")]
    assert highlighted == ["The", "capital", "of", "is", "Paris", "."]
    browser.find_element("css selector", "input[name=sufficiency][value='3']").click()
    browser.find_element("css selector", "input[name=compactness][value='2']").click()  # too much highlighted
    shot(browser, "checker-sends-back")
    browser.find_element("id", "submit").click()
    wait_for(lambda: f"/studies/{s['study']}" in browser.current_url)
    with Studies(path) as studies:
        (item,) = studies.items(s["study"])
        assert (item.state, item.round) == ("annotating", 2)
        assert studies.rounds(item.id)[0]["means"] == {"sufficiency": 3.0, "compactness": 2.0}
        (again,) = studies.assignments(s["ids"][1], s["study"], state="pending")
    # the annotator finds the item back, with the previous selection to correct
    log_in(browser, server, s["annotator"])
    browser.get(f"{server.url}/a/{again.id}")
    assert "round 1 returned" in browser.page_source
    assert len(browser.find_elements("css selector", "#rationale-tokens .tokbtn.on")) == 6


def test_the_admin_invites_and_exports(browser, site):
    from interpeval.store.studies import Studies

    server, path, _ = site
    s = rationale_study(path, "export")
    with Studies(path) as studies:
        studies.save(s["ids"][1], s["assignment"], {"rationale": [1, 5]})
        (check,) = studies.assignments(s["ids"][2], s["study"])
        studies.save(s["ids"][2], check.id, {"sufficiency": 3, "compactness": 4})
    log_in(browser, server, s["admin"])
    browser.get(f"{server.url}/studies/{s['study']}")
    assert "accepted" in browser.find_element("id", "items").text
    shot(browser, "admin-study")
    browser.find_element("id", "invite").click()
    link = browser.find_element("id", "invite-link").get_attribute("value")
    assert link.startswith(server.url + "/invite/")
    browser.get(f"{server.url}/studies/{s['study']}")
    browser.find_element("id", "export-gold").click()
    target = browser.downloads / f"study-{s['study']}-gold.jsonl"
    wait_for(target.exists)
    (record,) = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert record["sent_id"] == 7 and record["answers"] == "France"
    assert record["rationale_ids"] == [[[1, 5]]] and record["rationale_tokens"] == [[["capital", "Paris"]]]
    assert record["rationale"] == "capital Paris"


def test_an_iqs_item_is_answered_by_clicking_words(browser, site):
    from interpeval.store.studies import Studies

    server, path, _ = site
    words = ["a", "gripping", ",", "funny", "film", "with", "a", "dull", "ending", "."]
    marks = ["", "green", "", "green", "", "", "", "red", "", ""]
    questions = [{"id": "label", "text": "What did the model predict?", "type": "choice",
                  "options": ["negative", "positive"]},
                 {"id": "remove_red", "text": "Which RED words should not be red?", "type": "words", "among": "red"},
                 {"id": "add_green", "text": "Which words that are not green should be green?", "type": "words",
                  "among": "not-green"}]
    with Studies(path) as studies:
        n = len(studies.users())
        admin, _ = studies.add_user(f"iqs-admin-{n}", "admin")
        ann, token = studies.add_user(f"iqs-annotator-{n}", "annotator")
        study = studies.create_study("iqs", "iqs", [{"key": "s1|ig", "payload": {
            "text": " ".join(words), "words": words, "marks": marks, "questions": questions,
            "legend": {"green": "pushes the prediction towards positive", "red": "towards negative"}}}],
            created_by=admin.id)
        (assignment,) = studies.assign(study.id, ann.id)
    log_in(browser, server, token)
    browser.get(f"{server.url}/a/{assignment.id}")
    shown = browser.find_elements("css selector", "#iqs-text .iqs")
    assert [e.get_attribute("class") for e in shown][:4] == ["iqs ", "iqs green", "iqs ", "iqs green"]
    assert "pushes the prediction towards positive" in browser.find_element("css selector", ".legend").text
    browser.find_element("css selector", "input[name=q-label][value=positive]").click()
    red_only = browser.find_elements("css selector", "[data-question=remove_red] button.tokbtn")
    assert [b.is_enabled() for b in red_only] == [m == "red" for m in marks]
    red_only[7].click()
    not_green = browser.find_elements("css selector", "[data-question=add_green] button.tokbtn")
    not_green[4].click()
    not_green[8].click()
    shot(browser, "iqs-item")
    browser.find_element("id", "save").click()  # progress is kept before the final submission
    wait_for(lambda: "saved=1" in browser.current_url)
    with Studies(path) as studies:
        draft = studies.assignment(assignment.id, ann.id)
    assert not draft.final and draft.answer["answers"]["remove_red"] == [7]
    browser.find_element("id", "submit").click()
    wait_for(lambda: f"/studies/{study.id}" in browser.current_url)
    with Studies(path) as studies:
        done = studies.assignment(assignment.id, ann.id)
    assert done.final and done.answer == {"answers": {"label": "positive", "remove_red": [7], "add_green": [4, 8]}}


def test_report_first_page(browser, seeded, tmp_path):
    from interpeval.report.static import write_static_report

    path, _ = seeded
    report = write_static_report(path, tmp_path / "report.html", title="interpeval test report")
    browser.get(report.as_uri())
    status = browser.find_element("id", "probing-status")
    wait_for(lambda: status.get_attribute("data-count") == "12")  # the dashboard runs in the file, offline
    rows = browser.find_elements("css selector", "#board-quackie tbody tr")
    assert len(rows) == 1
    shot(browser, "report-first-page")
    header = [h for h in browser.find_elements("css selector", "#board-probing th") if h.text == "accuracy"][0]
    first = lambda: browser.find_element("css selector", "#board-probing tbody tr").text  # noqa: E731
    header.click()
    assert first().startswith("tiny-encoder en Number") and "0.850" in first()
    header.click()
    assert first().startswith("tiny-encoder ru Tense") and "0.700" in first()


def test_masked_lm_instance_page_shows_sentence_gold_prediction_and_heatmap(browser, site, seed_facts):
    server, path, ids = site
    from interpeval.store import Store

    with Store(path) as store:
        stored = store.instance(ids["plm_real"], "0")
    browser.get(f"{server.url}/runs/{ids['plm_real']}/instances/0")
    assert browser.find_element("css selector", ".input-text").text == seed_facts["plm_golden"][0][0]
    assert browser.find_element("css selector", ".gold-answer").text == "paris"
    assert browser.find_element("css selector", ".prediction").text.startswith(stored["top_k"][0])
    tokens = browser.find_elements("css selector", ".explanations .heatmap .tok")
    assert [t.text for t in tokens] == seed_facts["plm_golden"][0][0].split()
    boxed = [t.text for t in browser.find_elements("css selector", ".explanations .tok.gold")]
    assert boxed == [seed_facts["plm_golden"][0][0].split()[i] for i in seed_facts["plm_golden"][0][1]]
    assert tokens[0].value_of_css_property("outline-style") in ("none", "") and \
        browser.find_element("css selector", ".explanations .tok.gold").value_of_css_property("outline-style") == "solid"
    assert len(browser.find_elements("css selector", "table.pair tr")) == 2  # the original and its perturbed twin
    shot(browser, "instance-masked-lm")


def test_iqs_instance_page_shows_three_explainers_side_by_side(browser, site, seed_facts):
    server, _, ids = site
    run = ids["iqs_input_x_gradient"]
    browser.get(f"{server.url}/runs/{run}")
    browser.find_element("css selector", "#instance-table tbody a").click()
    rows = browser.find_elements("css selector", "table.explanations tr")
    assert [r.find_element("css selector", ".explainer").text.split()[0] for r in rows] == \
        list(seed_facts["iqs_methods"])
    widths = {len(r.find_elements("css selector", ".tok")) for r in rows}
    assert len(widths) == 1 and widths.pop() > 5  # the same words under each explainer
    colours = {t.value_of_css_property("background-color") for t in browser.find_elements("css selector", ".tok")}
    assert any(c.startswith("rgba(0, 150, 60") for c in colours) and any(c.startswith("rgba(210, 30, 30")
                                                                          for c in colours)
    assert browser.find_element("css selector", ".gold-answer").text in ("positive", "negative")
    assert browser.find_element("css selector", ".prediction").text.split()[0] in ("positive", "negative")
    assert browser.find_element("css selector", ".legend .scale").text  # one scale for all, and its value
    from interpeval.store import Store

    with Store(site[1]) as store:
        stored = store.instance(run, browser.current_url.rsplit("/instances/", 1)[1].replace("%3A", ":"))
    assert browser.find_element("css selector", ".input-text").text.split() == stored["words"]  # the input's text
    shot(browser, "instance-iqs-side-by-side")
    browser.get(f"{server.url}/runs/{run}")
    shot(browser, "run-instance-table")


def test_an_iqs_annotator_sees_no_method_name(browser, site, seed_facts):
    from interpeval.store.studies import Studies

    server, path, ids = site
    with Studies(path) as studies:
        n = len(studies.users())
        ann, token = studies.add_user(f"blind-browser-{n}", "annotator")
        (first, *_) = studies.assign(ids["iqs_study"], ann.id)
    log_in(browser, server, token)
    browser.get(f"{server.url}/studies/{ids['iqs_study']}")
    listed = browser.find_element("id", "my-assignments").text
    browser.find_element("css selector", "#my-assignments a").click()
    wait_for(lambda: f"/a/{first.id}" in browser.current_url)
    shot(browser, "iqs-item-blinded")
    for page in (listed, browser.find_element("tag name", "body").text, browser.title, browser.page_source):
        assert not [m for m in seed_facts["iqs_methods"] if m in page]
    assert f"item {first.item_id}" in listed


def test_swagger_ui_renders_offline(browser, site):
    server, _, _ = site
    browser.get(f"{server.url}/api/docs")
    wait_for(lambda: len(browser.find_elements("css selector", ".opblock")) > 5)  # every operation, drawn
    assert "interpeval" in browser.find_element("css selector", ".info .title").text
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]  # no CSP or fetch errors
    shot(browser, "api-docs-offline")


def test_a_chunked_oversized_body_is_refused_with_413(site):
    """Browsers stream request bodies only over HTTP/2, so the chunked upload is sent by httpx to the same server."""
    import httpx

    server, _, _ = site
    chunks = (b"x" * 65536 for _ in range(48))  # 3 MB, no Content-Length: Transfer-Encoding chunked
    response = httpx.post(f"{server.url}/api/assignments/1", content=chunks, timeout=30,
                          headers={"Authorization": "Bearer 1.x", "Content-Type": "application/json"})
    assert response.status_code == 413 and response.json()["detail"].startswith("request body over")
    assert httpx.get(f"{server.url}/api/runs", timeout=10).status_code == 200  # and the server carries on


def test_an_old_store_opens_in_the_browser(browser, server, tmp_path):
    import shutil

    from interpeval.store.studies import Studies

    store = tmp_path / "old.sqlite"
    shutil.copy(Path(__file__).resolve().parents[1] / "fixtures" / "store-v1.sqlite", store)
    old = server(store)
    with Studies(store) as studies:
        token = studies.new_token(1)  # ada, the admin the old version created
    browser.get(f"{old.url}/runs")
    assert "plm_rationale" in browser.find_element("tag name", "body").text
    log_in(browser, old, token)
    browser.get(f"{old.url}/studies/1")
    assert "answered before the migration" in browser.find_element("id", "items").text
    shot(browser, "old-store-study")


def test_a_store_from_7c644cb_opens_in_the_browser_with_its_leaderboard_numbers(browser, server, tmp_path):
    import shutil

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    store = tmp_path / "v3.sqlite"
    shutil.copy(fixtures / "store-v3.sqlite", store)
    before = json.loads((fixtures / "store-v3-leaderboards.json").read_text())  # what 7c644cb computed of it
    for restart in (False, True):  # computed and kept by the first server, read back by the second
        site = server(store)
        browser.get(f"{site.url}/leaderboards")
        for benchmark, stats, column in (("expmrc", ("ANS", "EVI", "ALL"), "ALL"), ("quackie", ("IoU", "HPD", "SNR"),
                                                                                 "IoU")):
            cells = [r.find_elements("tag name", "td")[3 + stats.index(column)]  # after the 3 key columns
                     for r in browser.find_elements("css selector", f"#board-{benchmark} tbody tr")]
            assert [c.text for c in cells] == [f"{r[column]['value']:.1f} [{r[column]['low']:.1f}, "
                                               f"{r[column]['high']:.1f}]" for r in before[benchmark]]
        if not restart:
            site.stop()
    shot(browser, "old-store-v3-leaderboards")


def test_an_evaluate_run_reads_as_explainer_by_metric(browser, site):
    server, _, ids = site
    browser.get(f"{server.url}/runs/{ids['evaluate']}")
    rows = browser.find_elements("css selector", "#evaluate-table tbody tr")
    assert [r.find_element("tag name", "td").text for r in rows] == ["gradient", "input_x_gradient",
                                                                     "random (random baseline)"]
    assert "baseline" in rows[2].get_attribute("class")
    assert browser.find_elements("css selector", "#evaluate-table td.best")  # the best per column, marked
    assert not browser.find_elements("xpath", "//td[text()='ci_low']")  # no long-form rows
    shot(browser, "run-evaluate")


def test_the_paper_page_shows_paper_vs_ours_and_findings(browser, server, reproduce_toy, tmp_path):
    from html import unescape

    from interpeval.report.reproduce import cell_parts

    store = tmp_path / "paper.sqlite"
    report = reproduce_toy(store, tmp_path / "out")
    site = server(store)
    browser.get(site.url + "/")
    shot(browser, "home")
    browser.find_element("link text", "Paper vs ours").click()
    wait_for(lambda: browser.current_url.endswith("/paper"))
    (listed,) = browser.find_elements("css selector", "#papers tbody tr")
    assert [c.text for c in listed.find_elements("tag name", "td")][:6] == ["toy", "quick", "1", *(
        str(sum(f.verdict == v for f in report.findings)) for v in ("holds", "does not hold", "cannot be tested here"))]
    section = browser.find_element("id", "reproduce-toy")
    header = [th.text for th in section.find_elements("css selector", "table th")]
    assert header == ["row", *report.tables[0].columns, "differs because"]
    (row,) = report.tables[0].rows
    cells = section.find_elements("css selector", "table tr:nth-child(2) td")
    for column, cell in zip(report.tables[0].columns, cells[1:-1], strict=True):
        paper, ours, interval = cell_parts(row.cells[column])
        assert cell.text.split("\n") == [f"{paper} → {ours}", interval]
    assert cells[-1].text == row.differs
    (finding,) = report.findings
    verdict = section.find_element("css selector", ".findings .verdict")
    assert verdict.text == finding.verdict and unescape(finding.claim) in section.text
    assert verdict.value_of_css_property("background-color") != "rgba(0, 0, 0, 0)"  # the verdict's colour
    shot(browser, "paper-vs-ours")
    listed.find_element("css selector", ".run-ids a").click()
    wait_for(lambda: "/runs/" in browser.current_url)
    assert "toy" in browser.find_element("tag name", "body").text


def test_an_expmrc_answer_models_instance_page_shows_question_passage_evidence_and_f1s(browser, site):
    from interpeval.benchmarks.expmrc.data import dev_path, load_dataset
    from interpeval.store import Store

    server, path, ids = site
    with Store(path) as store:
        first = store.instances(ids["expmrc_answers"])[0]
        stored = {m["name"]: m["value"] for m in store.metrics(ids["expmrc_pseudo"], first["instance_id"])}
    question = {q.qid: q for q in load_dataset(dev_path("squad")).questions}[first["instance_id"]]
    browser.get(f"{server.url}/runs/{ids['expmrc_answers']}")
    browser.find_element("css selector", "#instance-table tbody a").click()
    wait_for(lambda: "/instances/" in browser.current_url)
    assert browser.find_element("css selector", ".input-text").text == question.question
    assert browser.find_element("css selector", ".gold-answer").text == " | ".join(dict.fromkeys(question.answers))
    assert browser.find_element("css selector", ".prediction").text == first["text"].strip()
    gold = " ".join(m.text for m in browser.find_elements("css selector", ".passage mark.hl.gold"))
    assert question.evidences[0] in gold  # the gold evidence marked in the passage
    assert browser.find_element("css selector", ".gold-evidence").text.split("\n")[0] == question.evidences[0]
    assert browser.find_element("css selector", ".predicted-evidence").text == (first["evidence"].strip() or "–")
    scores = [c.text for c in browser.find_elements("css selector", ".evidence-facts td.score")]
    assert scores == [f"{stored[k]:.3f}" for k in ("answer", "evidence", "all")]  # as the scorer stored them
    systems = browser.find_elements("css selector", "table.systems tr")[1:]
    assert [r.find_elements("tag name", "td")[1].text for r in systems] == ["MSS",
                                                                            "Pseudo-data training (evidence head)"]
    shot(browser, "instance-expmrc-answers")


def test_leaderboards_show_every_table_with_the_apis_numbers(browser, site):
    import httpx

    server, _, _ = site
    tables = httpx.get(f"{server.url}/api/leaderboards", timeout=30).json()
    browser.get(f"{server.url}/leaderboards")
    assert [s.get_attribute("id") for s in browser.find_elements("css selector", "section.board")] == [
        f"board-{t['benchmark']}" for t in tables]
    expmrc = next(t for t in tables if t["benchmark"] == "expmrc")
    rows = browser.find_elements("css selector", "#board-expmrc tbody tr")
    assert len(rows) == len(expmrc["rows"])
    for row, data in zip(rows, expmrc["rows"], strict=True):
        cell = row.find_elements("tag name", "td")[len(expmrc["key_columns"])]  # ANS: value [low, high]
        assert cell.text.split(" ")[0] == f"{data['ANS']['value']:.1f}"
    shot(browser, "leaderboards")


def test_quackie_side_by_side_rows_each_name_their_own_scores(browser, server, quackie_pair):
    copy, info, gradient, (first, *_) = quackie_pair
    site = server(copy)
    browser.get(f"{site.url}/runs/{info.id}/instances/{first['instance_id']}")  # from the Random run
    rows = browser.find_elements("css selector", "table.quackie-sentences tr")
    assert [(r.find_element("css selector", ".explainer").text, r.find_element("css selector", ".scored-by").text)
            for r in rows] == [("Random", "random scores (no explainer, nothing aggregated)"),
                               ("Gradient", "token scores aggregated by sum")]
    assert "aggregated with" not in browser.find_element("tag name", "body").text
    shot(browser, "instance-quackie-side-by-side-from-random")
    browser.get(f"{site.url}/runs/{gradient}/instances/{first['instance_id']}?agg=max")
    rows = browser.find_elements("css selector", "table.quackie-sentences tr")
    assert [r.find_element("css selector", ".scored-by").text for r in rows] == [
        "token scores aggregated by max", "random scores (no explainer, nothing aggregated)"]
    assert browser.find_element("css selector", "p.muted .scored-by").text == "token scores aggregated by max"
