"""The Table 3 files `interpeval expmrc baselines` writes, against values worked out by hand from the same inputs.

No answer model is given (``--qa-model ""``), so the rows are the ones that need none: the gold-answer and
gold-evidence upper bounds, human performance and, on the multiple-choice subset, GA Sent. Every expected cell
below is derived in the comments from the hand-made files of ``conftest.py`` by the official rules (REFERENCE §2.3):
NLTK words, the articles a/an/the and 1-character punctuation dropped, lowercased, bag-of-words F1, the maximum over
the references; a dataset score is 100 × the mean over questions, the overall score the mean of the products.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from interpeval.benchmarks.expmrc.cli import app


def _f1(same: int, pred: int, gold: int) -> float:
    precision, recall = same / pred, same / gold
    return 2 * precision * recall / (precision + recall)


# Passage "Tom lives in Paris. He likes the city. It is big." → S1 [tom lives in paris], S2 [he likes city],
# S3 [it is big].
# q1: answers Paris / Paris / in Paris; evidences E1 = "Tom lives in Paris." [tom lives in paris],
#     E2 = "Tom lives in Paris. He likes the city." [tom lives in paris he likes city] and, added here, a third,
#     E3 = "He likes the city." [he likes city].
# q2: answer "the city"; evidence "likes the city. It is" [likes city it is].
GA_EVIDENCE = {"q1": 1.0,  # S1 holds "Paris" and is E1 itself
               "q2": _f1(2, 3, 4)}  # S2 holds "the city": [he likes city] vs [likes city it is], 2 shared = 4/7
GE_EVIDENCE = {"q1": 1.0,  # the sentences covering E1: S1
               "q2": _f1(4, 6, 4)}  # E covers S2 and S3: [he likes city it is big] vs 4 words, all shared = 4/5
# Human, q1 only (q2 has one answer and one evidence: skipped); annotator k = 0, 1, 2 against the other references.
# Answers: "Paris" vs {Paris, in Paris} = 1 (k = 0, 1); "in Paris" vs {Paris, Paris}: 1 shared of 2 / 1 = 2/3.
# Evidences: E1 vs {E2 (4 shared of 4 / 7: 8/11), E3 (0)} = 8/11; E2 vs {E1: 8/11, E3: 3 shared of 7 / 3 = 3/5} =
# 8/11; E3 vs {E1: 0, E2: 3 shared of 3 / 7 = 3/5} = 3/5. Overall: the mean over k of answer k × evidence k.
HUMAN_ANSWER = (1 + 1 + _f1(1, 2, 1)) / 3
HUMAN_EVIDENCE = (_f1(4, 4, 7) + _f1(4, 7, 4) + _f1(3, 3, 7)) / 3
HUMAN_ALL = (_f1(4, 4, 7) + _f1(4, 7, 4) + _f1(1, 2, 1) * _f1(3, 3, 7)) / 3


def test_table3_files_against_hand_worked_values(tmp_path, span_file, choice_file):
    data = tmp_path / "data"
    squad = json.loads(span_file.read_text())
    squad["data"][0]["paragraphs"][0]["qas"][0]["evidences"].append("He likes the city.")
    for subset, text in (("squad", json.dumps(squad)), ("race", choice_file.read_text())):
        (data / subset).mkdir(parents=True)
        (data / subset / f"expmrc-{subset}-dev.json").write_text(text)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["baselines", "--subsets", "squad,race", "--data-dir", str(data),
                                      "--qa-model", "", "--out", str(out), "--no-store"])
    assert result.exit_code == 0, result.output
    table = json.loads((out / "table3.json").read_text())
    rows = {r["System"]: r for r in table["rows"]}

    ga = rows["GA Sent. (gold answer; upper bound)"]
    ga_evidence = 100 * sum(GA_EVIDENCE.values()) / 2  # 78.57
    assert (ga["SQuAD Ans."], ga["SQuAD Evi."], ga["SQuAD All"]) == pytest.approx((100.0, ga_evidence, ga_evidence))
    ge = rows["GE Sent. (gold answer; upper bound)"]
    assert (ge["SQuAD Ans."], ge["SQuAD Evi."], ge["SQuAD All"]) == pytest.approx((100.0, 90.0, 90.0))
    human = rows["Human (cross-validation over references)"]
    assert (human["SQuAD Ans."], human["SQuAD Evi."], human["SQuAD All"]) == pytest.approx(
        (100 * HUMAN_ANSWER, 100 * HUMAN_EVIDENCE, 100 * HUMAN_ALL))  # 88.89, 68.48, 61.82 (88.89 × 68.48 would be 60.87)

    # RACE+: GA Sent. is the sentence most similar to the gold option. "Paris" → S1 (F1 2/5; 0 elsewhere), "big" →
    # S3 (1/2), "Tom" → S1 (2/5). Labels are the gold ones: answer 1 each. Evidence: S1 = the reference (1), S3 = the
    # reference (1), art2 has no reference evidence (0) → 200/3; overall = the same products.
    assert (ga["RACE+ Ans."], ga["RACE+ Evi."], ga["RACE+ All"]) == pytest.approx((100.0, 200 / 3, 200 / 3))
    # GE Sent. and human performance need reference evidences on every question: art2 has none
    for row in (ge, human):
        assert all(row[f"RACE+ {m}"] is None or row[f"RACE+ {m}"] != row[f"RACE+ {m}"] for m in ("Ans.", "Evi.", "All"))
    # the model rows are left out (no answer model), and the Markdown file shows the same cells at one decimal
    assert not {"PA Sent.", "Pseudo-data training (evidence head)"} & set(rows)
    markdown = (out / "table3.md").read_text()
    ga_line = next(line for line in markdown.splitlines() if line.startswith("| GA Sent."))
    assert [c.strip() for c in ga_line.strip("|").split("|")][1:] == ["100.0", "78.6", "78.6", "100.0", "66.7",
                                                                       "66.7"]
