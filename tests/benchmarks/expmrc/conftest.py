import json

import pytest

PASSAGE = "Tom lives in Paris. He likes the city. It is big."


@pytest.fixture
def span_file(tmp_path):
    """A hand-made span-format file (two questions) for hand-derived scores."""
    data = {"version": "expmrc-squad-handmade", "data": [{"title": "t", "paragraphs": [{"context": PASSAGE, "qas": [
        {"id": "q1", "question": "Where does Tom live?",
         "answers": [{"text": "Paris", "answer_start": 13}, {"text": "Paris", "answer_start": 13},
                     {"text": "in Paris", "answer_start": 10}],
         "evidences": ["Tom lives in Paris.", "Tom lives in Paris. He likes the city."]},
        {"id": "q2", "question": "What does he like?", "answers": [{"text": "the city", "answer_start": 29}],
         "evidences": ["likes the city. It is"]},
    ]}]}]}
    path = tmp_path / "span.json"
    path.write_text(json.dumps(data))
    return path


@pytest.fixture
def choice_file(tmp_path):
    """A hand-made multiple-choice file: one article with evidences, one without."""
    data = {"version": "expmrc-race-handmade", "data": [
        {"id": "art1", "article": PASSAGE, "questions": ["Where?", "How big?"],
         "options": [["Paris", "Rome"], ["small", "tiny", "big"]], "answers": ["A", "C"],
         "evidences": [["Tom lives in Paris."], ["It is big."]]},
        {"id": "art2", "article": PASSAGE, "questions": ["Who?"], "options": [["Tom", "Ann"]], "answers": ["A"]},
    ]}
    path = tmp_path / "choice.json"
    path.write_text(json.dumps(data))
    return path

