"""The study framework without HTTP: roles, one-time invites, ownership, review rounds and the gold export."""

import pytest

from interpeval.store.studies import Studies

TOKENS = ["迈", "向", "充", "满", "希", "望", "的", "[MASK]", "世", "纪"]


def _rationale_study(studies, admin, n_items=1):
    items = [{"key": str(i), "payload": {"sent_id": i, "sent_token": TOKENS, "answers": "新", "sample_type": "ori"}}
             for i in range(n_items)]
    return studies.create_study("gold", "plm-rationale", items, created_by=admin.id)


def test_tokens_are_hashed_and_checked(tmp_path):
    with Studies(tmp_path / "s.sqlite") as studies:
        admin, token = studies.add_user("ada", "admin")
        assert studies.user_by_token(token) == admin
        assert studies.user_by_token(token + "x") is None
        assert studies.user_by_token(f"{admin.id}.wrong") is None
        assert studies.user_by_token("") is None and studies.user_by_token("garbage") is None
        stored = studies._rows("SELECT token_hash FROM study_users")[0][0]
        assert token.split(".", 1)[1] not in stored
        fresh = studies.new_token(admin.id)
        assert studies.user_by_token(token) is None and studies.user_by_token(fresh) == admin
        with pytest.raises(ValueError, match="role"):
            studies.add_user("x", "root")


def test_invites_are_one_time_and_admin_only(tmp_path):
    with Studies(tmp_path / "s.sqlite") as studies:
        admin, _ = studies.add_user("ada", "admin")
        annotator, _ = studies.add_user("bo", "annotator")
        with pytest.raises(PermissionError):
            studies.invite("annotator", created_by=annotator.id)
        code = studies.invite("checker", created_by=admin.id)
        assert studies.invite_role(code) == "checker"
        user, token = studies.accept_invite(code, "cy")
        assert user.role == "checker" and studies.user_by_token(token) == user
        assert studies.invite_role(code) is None
        with pytest.raises(PermissionError, match="used"):
            studies.accept_invite(code, "dee")


def test_only_own_assignments_can_be_seen_and_changed(tmp_path):
    with Studies(tmp_path / "s.sqlite") as studies:
        admin, _ = studies.add_user("ada", "admin")
        a, _ = studies.add_user("bo", "annotator")
        b, _ = studies.add_user("cy", "annotator")
        study = studies.create_study("g", "generic", [{"key": "k", "payload": {"text": "t"}}], created_by=admin.id)
        (mine,) = studies.assign(study.id, a.id)
        with pytest.raises(PermissionError):
            studies.save(b.id, mine.id, {"x": 1})
        with pytest.raises(PermissionError):
            studies.assignment(mine.id, b.id)
        assert studies.assignments(b.id) == []
        studies.save(a.id, mine.id, {"x": 1}, final=False)
        assert studies.assignment(mine.id, a.id).state == "pending"
        done = studies.save(a.id, mine.id, {"x": 2})
        assert done.answer == {"x": 2} and done.final and done.state == "done"
        assert studies.items(study.id)[0].state == "done"
        assert studies.export_gold(study.id) == [{"key": "k", "payload": {"text": "t"}, "answers": [{"x": 2}]}]


def test_rationale_rounds_return_then_accept_and_export_gold(tmp_path):
    with Studies(tmp_path / "s.sqlite") as studies:
        admin, _ = studies.add_user("ada", "admin")
        ann, _ = studies.add_user("bo", "annotator")
        chk, _ = studies.add_user("cy", "checker")
        study = _rationale_study(studies, admin)
        studies.add_member(study.id, chk.id, "checker")
        (first,) = studies.assign(study.id, ann.id)
        with pytest.raises(ValueError, match="masked"):
            studies.save(ann.id, first.id, {"rationale": [7]})
        with pytest.raises(ValueError, match="outside"):
            studies.save(ann.id, first.id, {"rationale": [10]})
        studies.save(ann.id, first.id, {"rationale": [0, 1, 8]})
        with pytest.raises(PermissionError, match="locked"):
            studies.save(ann.id, first.id, {"rationale": [0]})
        (check,) = studies.assignments(chk.id, study.id, state="pending")
        with pytest.raises(ValueError, match="compactness"):
            studies.save(chk.id, check.id, {"sufficiency": 3, "compactness": 5})
        # sufficiency 3 passes, compactness 3 < 3.6 fails: back to the annotator with the last answer as a draft
        studies.save(chk.id, check.id, {"sufficiency": 3, "compactness": 3})
        item = studies.items(study.id)[0]
        assert (item.state, item.round) == ("annotating", 2)
        assert studies.rounds(item.id)[0]["outcome"] == "returned"
        (second,) = studies.assignments(ann.id, study.id, state="pending")
        assert second.round == 2 and second.answer == {"rationale": [0, 1, 8]} and not second.final
        studies.save(ann.id, second.id, {"rationale": [9, 8, 1, 0]})
        (check2,) = studies.assignments(chk.id, study.id, state="pending")
        studies.save(chk.id, check2.id, {"sufficiency": 3, "compactness": 4})
        assert studies.items(study.id)[0].state == "accepted"
        (gold,) = studies.export_gold(study.id)
        assert gold["sent_id"] == 0 and gold["answers"] == "新"
        assert gold["rationale_ids"] == [[[0, 1, 8, 9]]]
        assert gold["rationale_tokens"] == [[["迈", "向", "世", "纪"]]] and gold["rationale"] == "迈向世纪"
        assert gold["interpeval"] == {"label": "gold", "annotation": {"round": 2, "annotators": 1}}


def test_gold_export_is_read_by_the_masked_lm_benchmark(tmp_path):
    import json

    from interpeval.benchmarks.plm.records import read_golden

    with Studies(tmp_path / "s.sqlite") as studies:
        admin, _ = studies.add_user("ada", "admin")
        ann, _ = studies.add_user("bo", "annotator")
        chk, _ = studies.add_user("cy", "checker")
        words = ["The", "capital", "of", "[MASK]", "is", "Paris", "."]
        payload = {"sent_id": 3, "sent_text": "The capital of [MASK] is Paris .", "sent_token": words,
                   "answers": "France", "sample_type": "ori", "rel_ids": [],
                   "interpeval": {"lang": "en", "label": "silver", "dimension": "knowledge"}}
        study = studies.create_study("gold", "plm-rationale", [{"key": "3", "payload": payload}], created_by=admin.id)
        studies.add_member(study.id, chk.id, "checker")
        (a,) = studies.assign(study.id, ann.id)
        studies.save(ann.id, a.id, {"rationale": [5, 1]})
        (c,) = studies.assignments(chk.id)
        studies.save(chk.id, c.id, {"sufficiency": 3, "compactness": 4})
        path = tmp_path / "gold.jsonl"
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in studies.export_gold(study.id)))
    (record,) = read_golden(path)
    assert record.sent_id == 3 and record.rationale_ids == [[1, 5]] and record.label == "gold"
    assert record.meta["dimension"] == "knowledge"
    assert json.loads(path.read_text())["rationale"] == "capital Paris"


def test_three_failed_rounds_drop_the_item(tmp_path):
    with Studies(tmp_path / "s.sqlite") as studies:
        admin, _ = studies.add_user("ada", "admin")
        ann, _ = studies.add_user("bo", "annotator")
        chk, _ = studies.add_user("cy", "checker")
        study = _rationale_study(studies, admin)
        studies.assign(study.id, ann.id)
        studies.save(ann.id, studies.assignments(ann.id)[0].id, {"rationale": [0]})
        assert studies.assignments(chk.id) == []  # no checker yet: the item waits
        studies.add_member(study.id, chk.id, "checker")
        for rnd in (1, 2, 3):
            (check,) = studies.assignments(chk.id, study.id, state="pending")
            assert check.round == rnd
            studies.save(chk.id, check.id, {"sufficiency": 2, "compactness": 4})
            pending = studies.assignments(ann.id, study.id, state="pending")
            if rnd < 3:
                studies.save(ann.id, pending[0].id, {"rationale": [0, 1]})
            else:
                assert pending == []
        assert studies.items(study.id)[0].state == "dropped"
        assert [r["outcome"] for r in studies.rounds(studies.items(study.id)[0].id)] == ["returned"] * 2 + ["dropped"]
        assert studies.export_gold(study.id) == []
        assert studies.export(study.id)[0]["state"] == "dropped"


def test_two_checkers_average(tmp_path):
    with Studies(tmp_path / "s.sqlite") as studies:
        admin, _ = studies.add_user("ada", "admin")
        ann, _ = studies.add_user("bo", "annotator")
        c1, _ = studies.add_user("c1", "checker")
        c2, _ = studies.add_user("c2", "checker")
        study = studies.create_study("two", "plm-rationale", [{"key": "a", "payload": {"sent_token": TOKENS}}],
                                     config={"review": {"scores": {"sufficiency": [1, 3], "compactness": [1, 4]},
                                                        "pass_mean": {"sufficiency": 3, "compactness": 3.5},
                                                        "max_rounds": 3, "checks_per_round": 2}},
                                     created_by=admin.id)
        studies.add_member(study.id, c1.id, "checker")
        studies.add_member(study.id, c2.id, "checker")
        (a,) = studies.assign(study.id, ann.id)
        studies.save(ann.id, a.id, {"rationale": [0]})
        (x,) = studies.assignments(c1.id, study.id)
        (y,) = studies.assignments(c2.id, study.id)
        studies.save(c1.id, x.id, {"sufficiency": 3, "compactness": 4})
        assert studies.items(study.id)[0].state == "checking"
        studies.save(c2.id, y.id, {"sufficiency": 3, "compactness": 3})  # mean compactness 3.5 reaches 3.5
        assert studies.items(study.id)[0].state == "accepted"


def test_iqs_answers_are_validated_against_the_marks(tmp_path):
    payload = {"text": "good bad movie", "words": ["good", "bad", "movie"], "marks": ["green", "red", ""],
               "questions": [{"id": "label", "text": "?", "type": "choice", "options": ["positive", "negative"]},
                             {"id": "red_not_red", "text": "?", "type": "words", "among": "red"}]}
    with Studies(tmp_path / "s.sqlite") as studies:
        admin, _ = studies.add_user("ada", "admin")
        ann, _ = studies.add_user("bo", "annotator")
        study = studies.create_study("iqs", "iqs", [{"key": "1", "payload": payload}], created_by=admin.id)
        (a,) = studies.assign(study.id, ann.id)
        with pytest.raises(ValueError, match="not red"):
            studies.save(ann.id, a.id, {"answers": {"label": "positive", "red_not_red": [0]}})
        with pytest.raises(ValueError, match="pick one"):
            studies.save(ann.id, a.id, {"answers": {"label": "meh", "red_not_red": []}})
        assert studies.save(ann.id, a.id, {"answers": {"label": "positive", "red_not_red": [1]}}).final


def test_an_invite_from_a_study_joins_it(tmp_path):
    with Studies(tmp_path / "s.sqlite") as studies:
        admin, _ = studies.add_user("ada", "admin")
        study = _rationale_study(studies, admin, n_items=2)
        other = _rationale_study(studies, admin)
        annotator, _ = studies.accept_invite(studies.invite("annotator", admin.id, study_id=study.id), "bo")
        assert [(a.study_id, a.task) for a in studies.assignments(annotator.id)] == [(study.id, "annotate")] * 2
        checker, _ = studies.accept_invite(studies.invite("checker", admin.id, study_id=study.id), "cy")
        assert [u.name for u in studies.members(study.id, "checker")] == ["cy"]
        assert studies.members(other.id, "checker") == [] and studies.assignments(checker.id) == []
        plain, _ = studies.accept_invite(studies.invite("annotator", admin.id), "dee")  # no study: nothing joined
        assert studies.assignments(plain.id) == []
        with pytest.raises(KeyError):
            studies.invite("annotator", admin.id, study_id=999)


def test_drafts_are_validated_like_final_answers_but_may_be_incomplete(tmp_path):
    with Studies(tmp_path / "s.sqlite") as studies:
        admin, _ = studies.add_user("ada", "admin")
        ann, _ = studies.add_user("bo", "annotator")
        (mine,) = studies.assign(_rationale_study(studies, admin).id, ann.id)
        assert studies.save(ann.id, mine.id, {}, final=False).answer == {}  # nothing chosen yet
        assert studies.save(ann.id, mine.id, {"rationale": []}, final=False).answer == {"rationale": []}
        for bad, problem in (({"rationale": [10]}, "outside"), ({"rationale": [7]}, "masked"),
                             ({"rationale": "0 1"}, "list"), ({"note": "x"}, "unknown answer fields"),
                             ({"rationale": list(range(9)) * 4000}, "bytes")):
            with pytest.raises(ValueError, match=problem):
                studies.save(ann.id, mine.id, bad, final=False)
        with pytest.raises(ValueError, match="at least one"):
            studies.save(ann.id, mine.id, {"rationale": []})  # a final answer must be complete
        assert studies.assignment(mine.id, ann.id).answer == {"rationale": []}  # the refused ones left no trace


def test_agreement_per_item():
    from interpeval.store.studies import agreement

    assert agreement([{"rationale": [0, 1]}]) is None
    assert agreement([{"rationale": [0, 1]}, {"rationale": [1, 2]}]) == pytest.approx(1 / 3)
    iqs = [{"answers": {"label": "positive", "remove_red": []}}, {"answers": {"label": "negative", "remove_red": []}},
           {"answers": {"label": "positive", "remove_red": []}}]
    # label: 1 of 3 pairs agree; remove_red: all 3 pairs (two empty selections agree)
    assert agreement(iqs) == pytest.approx((1 / 3 * 3 + 3) / 6)


def test_admin_review_lists_answers_and_agreement(tmp_path):
    with Studies(tmp_path / "s.sqlite") as studies:
        admin, _ = studies.add_user("ada", "admin")
        study = studies.create_study("g", "generic", [{"key": "s1|secret-method", "payload": {"text": "t"}}],
                                     created_by=admin.id)
        people = [studies.add_user(name, "annotator")[0] for name in ("bo", "cy")]
        for user, choice in zip(people, ([1, 2], [2, 3]), strict=True):
            (a,) = studies.assign(study.id, user.id)
            studies.save(user.id, a.id, {"words": choice})
        (row,) = studies.review(study.id)
        assert row["n_final"] == 2 and row["agreement"] == pytest.approx(1 / 3)
        assert [a["user"] for a in row["answers"]] == ["bo", "cy"]
