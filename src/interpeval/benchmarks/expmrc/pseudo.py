"""Pseudo-evidence training data (ExpMRC paper §4.1 "pseudo-data training"): SQuAD-format QA + a pseudo evidence.

The pseudo evidence of a question is the passage sentence most similar to "question + gold answer" (the ``mss_q``
selector with the gold answer, see :mod:`interpeval.benchmarks.expmrc.baselines`); the official pseudo data used
whole sentences too (REFERENCE §2.5). The default training file is a vendored SQuADShifts new-wiki subset that shares
no passage with the ExpMRC dev sets (see ``interpeval/data/expmrc/SOURCES.md``).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from interpeval.benchmarks.expmrc.baselines import Answer, mss_q, sentence_spans
from interpeval.benchmarks.expmrc.data import Question
from interpeval.errors import DataError


def default_training_file() -> Path:
    """The vendored SQuADShifts new-wiki subset (16 articles, 3,227 questions)."""
    return Path(str(resources.files("interpeval") / "data" / "expmrc" / "train" / "squadshifts-new_wiki-train.json"))


def pseudo_examples(path: str | Path, language: str = "en", exclude_contexts: frozenset[str] = frozenset()
                    ) -> list[dict[str, Any]]:
    """One extractive-QA training record (the fields ``interpeval train extractive-qa`` reads from JSON lines)
    with a pseudo evidence per answerable question of a SQuAD-format file.

    Unanswerable questions (SQuAD 2.0 ``is_impossible``) are skipped, and so are passages in ``exclude_contexts``
    (pass the ExpMRC dev passages when training on SQuAD 2.0 dev, which shares articles with them).
    """
    with open(path, encoding="utf-8") as handle:
        raw = json.load(handle)
    examples = []
    for i, article in enumerate(raw.get("data", [])):
        for j, para in enumerate(article.get("paragraphs", [])):
            context = para.get("context")
            if not isinstance(context, str):
                raise DataError(path, f"data[{i}].paragraphs[{j}]", "missing string 'context'")
            if context in exclude_contexts:
                continue
            spans = sentence_spans(context, language)
            for qa in para.get("qas", []):
                if qa.get("is_impossible") or not qa.get("answers"):
                    continue
                gold = qa["answers"][0]
                start, text = int(gold["answer_start"]), gold["text"]
                if context[start:start + len(text)] != text:
                    raise DataError(path, f"question {qa.get('id')}",
                                    f"answer {text!r} is not at answer_start {start} of its context")
                q = Question(qid=str(qa["id"]), question=qa["question"], context=context, answers=(text,),
                             evidences=None, answer_starts=(start,))
                evidence = mss_q(q, Answer(text, start), spans)
                examples.append({"question": qa["question"], "context": context, "answer_start": start,
                                 "answer_text": text, "evidence_start": context.find(evidence),
                                 "evidence_text": evidence})
    return examples
