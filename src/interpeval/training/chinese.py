"""The Chinese heads' data: CMRC 2018 (clean part), ExpMRC's pseudo-data training sets and the masked LM."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from interpeval.errors import DataError
from interpeval.training.data import (
    Prepared,
    TestSet,
    mlm_texts,
    qa_example,
    read_json,
    squad_records,
    unique_contexts,
)
from interpeval.training.examples import ChoiceExample, QAExample
from interpeval.training.heldout import expmrc_choice_test, expmrc_span_test, xquad_test
from interpeval.training.splits import bucket, part_of


def chinese_records(root: Path) -> tuple[list[dict[str, Any]], set[str]]:
    """CMRC 2018 trial + the dev questions that share no paragraph with ExpMRC (SOURCES.md: 2,775 clean)."""
    expmrc = squad_records(root / "expmrc" / "cmrc2018" / "expmrc-cmrc2018-dev.json")
    banned_ids = {r["id"] for r in expmrc}
    banned_contexts = {r["context"] for r in expmrc}
    records = []
    for name in ("cmrc2018_trial", "cmrc2018_dev"):
        for r in squad_records(root / "cmrc2018" / f"{name}.json"):
            if r["id"] not in banned_ids and r["context"] not in banned_contexts:
                r["source"] = name
                records.append(r)
    return records, banned_contexts


def build_cmrc(root: Path) -> Prepared:
    records, _ = chinese_records(root)
    xquad_zh = squad_records(root / "xquad" / "xquad.zh.json")
    for r in xquad_zh:
        r["source"] = "xquad_zh"
    dev_records = [r for r in records if part_of(r["context"]) == "dev"]
    train_records = [r for r in records + xquad_zh if part_of(r["context"]) != "dev" or r["source"] == "xquad_zh"]
    return Prepared([qa_example(r, "zh") for r in train_records], [qa_example(r, "zh") for r in dev_records],
                    {"expmrc-cmrc2018": expmrc_span_test(root, "cmrc2018", "zh")},
                    {"cmrc2018/cmrc2018_{trial,dev}.json": "every question whose id or paragraph is in ExpMRC "
                     "CMRC 2018 dev is left out (2,775 clean); of those, sha1(context) % 20 == 4 is dev",
                     "xquad/xquad.zh.json": "all 1,190 questions trained on (translated SQuAD dev; not in CMRC)",
                     "evidence": "pseudo evidence: the sentence most similar to question + answer (mss_q)"})


#: ExpMRC's pseudo-data training input (the CMRC 2018 and C3 train sets with silver evidence), under the data root
PSEUDO_DATA = Path("expmrc") / "pseudo_training_data"


def _realigned(record: dict[str, Any], path: Path) -> bool:
    """Move an answer whose offset does not point at its text to the nearest occurrence (21 answers of the CMRC
    2018 train file and 7 of trial/dev are one character off); True when it moved."""
    start, text = record["answers"][0]
    context = record["context"]
    if context[start:start + len(text)] == text:
        return False
    found = [m.start() for m in re.finditer(re.escape(text), context)]
    if not found:
        raise DataError(path, f"question {record['id']}", f"answer {text!r} is not in its paragraph")
    record["answers"][0] = (min(found, key=lambda i: abs(i - start)), text)
    return True


def _silver_example(record: dict[str, Any]) -> QAExample:
    """A CMRC 2018 train question with ExpMRC's silver evidence (its first ``evidences`` entry), as the paper trains."""
    start, text = record["answers"][0]
    evidence = record["evidences"][0] if record["evidences"] else ""
    found = record["context"].find(evidence) if evidence else -1
    return QAExample(record["question"], record["context"], start, text, found, evidence if found >= 0 else None)


def build_cmrc_pseudo(root: Path) -> Prepared:
    clean, expmrc_contexts = chinese_records(root)
    xquad_zh = xquad_test(root, set(), "zh")
    held_out = expmrc_contexts | {e.context for e in xquad_zh.examples}
    path = root / PSEUDO_DATA / "train-pseudo-cmrc2018.json"
    silver = [{**r, "source": "cmrc2018_train"} for r in squad_records(path)]
    dropped = sum(r["context"] in held_out for r in silver)
    silver = [r for r in silver if r["context"] not in held_out]
    moved = sum(_realigned(r, path) for r in silver)
    moved_clean = sum(_realigned(r, root / "cmrc2018" / f"{r['source']}.json") for r in clean)
    records = silver + clean

    def example(record: dict[str, Any]) -> QAExample:
        return _silver_example(record) if record["source"] == "cmrc2018_train" else qa_example(record, "zh")

    dev = [example(r) for r in records if part_of(r["context"]) == "dev"]
    train_set = [example(r) for r in records if part_of(r["context"]) != "dev"]
    return Prepared(train_set, dev, {"expmrc-cmrc2018": expmrc_span_test(root, "cmrc2018", "zh"), "xquad-zh": xquad_zh},
                    {str(path.relative_to(root)): f"CMRC 2018 train, {len(silver)} questions with ExpMRC's silver "
                     f"evidence (evidences[0]); {dropped} whose paragraph is in ExpMRC CMRC 2018 dev or XQuAD-zh left "
                     f"out; {moved} answer offsets one character off moved to the answer's nearest occurrence",
                     "cmrc2018/cmrc2018_{trial,dev}.json": "every question whose id or paragraph is in ExpMRC CMRC "
                     "2018 dev is left out (2,775 clean); evidence: the sentence most similar to question + answer "
                     f"(mss_q, as ExpMRC's silver evidence); {moved_clean} answer offsets one character off moved",
                     "dev": f"sha1(context) % 20 == 4 of both: {len(dev)} questions for model selection, the other "
                            f"{len(train_set)} trained on",
                     "xquad/xquad.zh.json": "held-out test only (not trained on)"})


def c3_pseudo_examples(path: Path, held_out: set[str]) -> list[tuple[str, ChoiceExample]]:
    """(article, example) per question of ``train-pseudo-c3.json`` whose article is not in ``held_out``: the empty
    options that pad every question to four are dropped; the evidence is ExpMRC's silver ``evidences[j][0]``."""
    from interpeval.benchmarks.expmrc.data import CHOICE_LABELS

    out = []
    for i, doc in enumerate(read_json(path)["data"]):
        where = f"data[{i}] (id {doc.get('id')!r})"
        n = len(doc["questions"]) if isinstance(doc.get("questions"), list) else 0
        if not isinstance(doc.get("article"), str) or not n or any(
                not isinstance(doc.get(k), list) or len(doc[k]) != n for k in ("options", "answers", "evidences")):
            raise DataError(path, where, "needs an 'article' string and 'questions', 'options', 'answers' and "
                                         "'evidences' lists of one entry per question")
        if doc["article"] in held_out:
            continue
        for j, question in enumerate(doc["questions"]):
            options = [o for o in doc["options"][j] if o]
            answer = doc["answers"][j]
            if answer not in CHOICE_LABELS[:len(options)]:
                raise DataError(path, f"{where} question {j}", f"answer {answer!r} is not one of the "
                                                               f"{len(options)} non-empty options")
            evidence = (doc["evidences"][j] or [""])[0]
            found = doc["article"].find(evidence) if evidence else -1
            out.append((doc["article"], ChoiceExample(doc["article"], question, options, CHOICE_LABELS.index(answer),
                                                      found, evidence if found >= 0 else None)))
    return out


def build_c3_pseudo(root: Path) -> Prepared:
    from interpeval.benchmarks.expmrc.data import load_dataset

    dev_articles = {q.context for q in load_dataset(root / "expmrc" / "c3" / "expmrc-c3-dev.json").questions}
    path = root / PSEUDO_DATA / "train-pseudo-c3.json"
    items = c3_pseudo_examples(path, dev_articles)
    dev = [e for article, e in items if part_of(article) == "dev"]
    train_set = [e for article, e in items if part_of(article) != "dev"]
    n_docs = len({article for article, _ in items})
    return Prepared(train_set, dev, {"expmrc-c3": expmrc_choice_test(root, "c3", [e.label for e in train_set])},
                    {str(path.relative_to(root)): f"C3 train, {len(items)} questions of {n_docs} documents with "
                     "ExpMRC's silver evidence (evidences[j][0]); the empty options padding a question to four are "
                     "dropped; documents whose text is in ExpMRC C3 dev left out",
                     "dev": f"sha1(document text) % 20 == 4: {len(dev)} questions for model selection, the other "
                            f"{len(train_set)} trained on"})


def build_mlm_zh(root: Path) -> Prepared:
    records, banned = chinese_records(root)
    contexts = list(dict.fromkeys(r["context"] for r in records if r["context"] not in banned))
    c3 = read_json(root / "expmrc" / "c3" / "expmrc-c3-dev.json")["data"]
    c3_docs = [a["article"] if isinstance(a["article"], str) else "".join(a["article"]) for a in c3]
    english = [r["context"] for r in squad_records(root / "squad" / "squadshifts-new_wiki.json")
               if part_of(f"new_wiki/{r['title']}") == "train"]
    texts = mlm_texts(contexts + c3_docs) + mlm_texts(list(dict.fromkeys(english)))
    dev = [e for e in texts if bucket(e.text) == 0][:300]
    train_set = [e for e in texts if bucket(e.text) != 0]
    test_zh = mlm_texts(unique_contexts(root / "xquad" / "xquad.zh.json"))
    test_en = mlm_texts(unique_contexts(root / "xquad" / "xquad.en.json"))
    return Prepared(train_set, dev, {
        "xquad-zh-text": TestSet(test_zh, "XQuAD-zh paragraphs (never trained on), 15 % of words (CJK pieces) "
                                 "masked, seed 0", "unigram", {}),
        "xquad-en-text": TestSet(test_en, "XQuAD-en paragraphs (never trained on)", "unigram", {})},
        {"cmrc2018/cmrc2018_{trial,dev}.json": "clean CMRC 2018 paragraphs (as for the QA head)", "expmrc/c3/expmrc-c3-dev.json":
         "C3 documents", "squad/squadshifts-new_wiki.json": "train-part paragraphs (English)",
         "chunks": "sha1(chunk) % 20 == 0 is dev"}, trained_texts=(contexts + c3_docs + english))
