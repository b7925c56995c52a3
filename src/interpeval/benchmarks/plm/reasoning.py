"""Reasoning instances from XCOPA: the premise and its correct alternative joined by the connective, masked.

"premise，因为 cause。" for a cause question and "premise，所以 effect。" for an effect question: which connective
fits depends on the causal direction between the two events. The rationale (``copa_events``) is the event words —
jieba's verbs and adjectives, nouns when a clause has neither — of the premise and the alternative.
XCOPA has no English (it translates English COPA, which is not among the sources), so reasoning is Chinese only.
"""

from __future__ import annotations

import json
from pathlib import Path

from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.words import text_hash, zh_words
from interpeval.errors import DataError

SOURCES = {"zh": ("plm_rationale/xcopa/zh/val.zh.jsonl", "plm_rationale/xcopa/zh/test.zh.jsonl")}
CONNECTIVES = {"zh": {"cause": "因为", "effect": "所以"}}


def _events(flags: list[str]) -> list[int]:
    found = [i for i, f in enumerate(flags) if f.startswith(("v", "a"))]
    return found or [i for i, f in enumerate(flags) if f.startswith("n")]


def reasoning_items(data_dir: Path, lang: str) -> dict[str, list[Item]]:
    if lang not in SOURCES:
        return {}
    out = []
    for rel in SOURCES[lang]:
        path = data_dir / rel
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                premise, question = row["premise"], row["question"]
                alternative = row["choice1" if int(row["label"]) == 0 else "choice2"]
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
                raise DataError(path, f"line {number}", f"is not an XCOPA record ({err})") from None
            if question not in CONNECTIVES[lang]:
                raise DataError(path, f"line {number}", f"question must be 'cause' or 'effect', got {question!r}")
            left = zh_words(premise.strip().rstrip("。"))
            right = zh_words(alternative.strip().rstrip("。"))
            words = [w for w, _ in left] + ["，", CONNECTIVES[lang][question]] + [w for w, _ in right] + ["。"]
            offset = len(left) + 2
            rationale = _events([f for _, f in left]) + [offset + i for i in _events([f for _, f in right])]
            out.append(Item(lang, "reasoning", words, len(left) + 1, rationale, "copa_events",
                            {"source": rel, "line": number, "idx": row.get("idx"), "question": question,
                             "text_sha1": text_hash(premise)}))
    return {"copa_connective": out}
