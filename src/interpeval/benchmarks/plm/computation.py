"""Computation instances from math word problems: the problem followed by "The answer is [MASK] ." / "答案是[MASK]。".

English: Alg514 and Dolphin1878 (MWPToolkit splits), Chinese: Math23K (valid/test). Only problems with one whole
answer are kept. The rationale (``equation_numbers``) is every word of the problem that writes a number the
equation uses (digits, and English number words such as "five" or "twice").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.words import en_tokens, integer_answer, numbers_in, text_hash
from interpeval.errors import DataError

SOURCES = {"en": ("plm_rationale/mwp/alg514/trainset.json", "plm_rationale/mwp/alg514/validset.json",
                  "plm_rationale/mwp/alg514/testset.json", "plm_rationale/mwp/dolphin1878/trainset.json",
                  "plm_rationale/mwp/dolphin1878/validset.json", "plm_rationale/mwp/dolphin1878/testset.json"),
           "zh": ("plm_rationale/mwp/math23k/validset.json", "plm_rationale/mwp/math23k/testset.json")}
MAX_WORDS = {"en": 60, "zh": 60}


def _problem(row: dict[str, Any]) -> tuple[str, str, str | None]:
    """``(text, equation, whole answer or None)`` across the three datasets' field names."""
    if "original_text" in row and "equation" in row:
        answer = row["ans"]
        if isinstance(answer, list):
            answer = answer[0] if len(answer) == 1 else None
        return row["original_text"], row["equation"], None if answer is None else integer_answer(answer)
    answers = row.get("ans_simple") or []
    equation = " ".join(e for e in row.get("equations", []) if e.startswith("equ:"))
    return row["text"], equation, integer_answer(answers[0]) if len(answers) == 1 else None


def computation_items(data_dir: Path, lang: str) -> dict[str, list[Item]]:
    out = []
    for rel in SOURCES[lang]:
        path = data_dir / rel
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise DataError(path, f"line {err.lineno}", f"is not valid JSON ({err.msg})") from None
        for number, row in enumerate(rows):
            try:
                text, equation, answer = _problem(row)
            except (KeyError, TypeError) as err:
                raise DataError(path, f"record {number}", f"is not a math word problem record ({err})") from None
            if answer is None:
                continue
            used = set(numbers_in(equation))
            if lang == "en":
                words = en_tokens(text) + ["The", "answer", "is", answer, "."]
            else:
                segmented = row.get("segmented_text", "").split()
                words = [*segmented, "答案", "是", answer, "。"] if segmented else []
            if not words or len(words) > MAX_WORDS[lang]:
                continue
            mask = len(words) - 2
            rationale = [i for i, w in enumerate(words[:mask]) if set(numbers_in(w)) & used]
            if not rationale:
                continue
            out.append(Item(lang, "computation", words, mask, rationale, "equation_numbers",
                            {"source": rel, "record": number, "id": row.get("id"), "text_sha1": text_hash(text)}))
    return {"mwp_answer": out}
