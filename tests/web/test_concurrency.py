"""50 annotators × 20 submissions at once through the HTTP API of a real server: nothing lost, nothing doubled."""

from concurrent.futures import ThreadPoolExecutor

import httpx

from interpeval.store.studies import Studies

ANNOTATORS, ITEMS = 50, 20


def test_concurrent_annotators_lose_and_duplicate_nothing(tmp_path, server, study_with_annotators):
    store = tmp_path / "load.sqlite"
    study_id, _, people = study_with_annotators(store, "load", ANNOTATORS, ITEMS)
    live = server(store)

    def annotate(person):
        user, token, assignments = person
        codes = []
        with httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {token}"}, timeout=60) as http:
            for k, aid in enumerate(assignments):
                answer = {"user": user.name, "assignment": aid, "k": k}
                codes.append(http.post(f"/api/assignments/{aid}", json={"answer": answer}).status_code)
        return codes

    with ThreadPoolExecutor(ANNOTATORS) as pool:
        codes = [c for person in pool.map(annotate, people) for c in person]
    assert codes == [200] * (ANNOTATORS * ITEMS)

    with Studies(store) as studies:
        rows = studies._rows("SELECT a.id, a.user_id, s.answer_json, s.final, s.saves FROM study_assignments a"
                             " JOIN study_answers s ON s.assignment_id = a.id")
        assert len(rows) == ANNOTATORS * ITEMS
        assert all(final == 1 and saves == 1 for *_, final, saves in rows)
        for user, _, assignments in people:
            mine = studies.assignments(user.id, study_id)
            assert [a.id for a in mine] == assignments
            assert [a.answer for a in mine] == [{"user": user.name, "assignment": aid, "k": k}
                                                for k, aid in enumerate(assignments)]
        assert studies.progress(study_id) == {"done": ITEMS, "assignments_done": ANNOTATORS * ITEMS}
