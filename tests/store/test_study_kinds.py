"""The study store knows no benchmark: its only kind is ``generic``; the benchmarks' kinds come with their plug-ins'
``studies`` parts, which the web app loads before it creates or shows a study."""

import json
import subprocess
import sys

import pytest


def _kinds_after(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport json; print(json.dumps(sorted(KINDS)))"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


def test_the_store_alone_registers_only_the_generic_kind():
    assert _kinds_after("from interpeval.store.studies import KINDS") == ["generic"]


def test_the_plugins_bring_their_kinds_and_the_web_app_loads_them():
    assert _kinds_after("from interpeval.plugins import study_kinds; KINDS = study_kinds()") == [
        "generic", "iqs", "plm-rationale"]
    assert _kinds_after("from interpeval.web.routes.studies import KINDS") == ["generic", "iqs", "plm-rationale"]


def test_a_benchmark_kind_still_validates_its_answers(tmp_path):
    from interpeval.store.studies import Studies

    with Studies(tmp_path / "s.sqlite") as studies:
        admin, _ = studies.add_user("ada", "admin")
        study = studies.create_study("gold", "plm-rationale", [{"key": "0", "payload": {
            "sent_token": ["the", "capital", "is", "[MASK]"], "answers": "paris"}}], created_by=admin.id)
        (assignment,) = studies.assign(study.id, admin.id)
        with pytest.raises(ValueError, match="the masked position itself cannot be part of the rationale"):
            studies.save(admin.id, assignment.id, {"rationale": [3]}, final=True)
        assert study.config["review"]["max_rounds"] == 3  # the kind's default config: review rounds
