"""The English heads' data: SST-2, STS-B, QNLI, the QA / answerability heads, RACE+ and the masked LM."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from interpeval.benchmarks.quackie.data import SQUAD2_TRAIN_ARTICLES
from interpeval.errors import InterpevalError
from interpeval.text.ptb import detokenize_ptb
from interpeval.training.data import (
    SQUADSHIFTS,
    Prepared,
    TestSet,
    glue_rows,
    mlm_texts,
    qa_example,
    shift_part,
    squad_records,
    unique_contexts,
    vendored_contexts,
)
from interpeval.training.examples import ChoiceExample, ClassificationExample
from interpeval.training.heldout import expmrc_span_test, majority_baseline, xquad_test
from interpeval.training.splits import bucket, linked_groups, thirds


def _without_answer_sentence(record: dict[str, Any]) -> str | None:
    """The context with the sentence holding the answer start removed (None when one sentence is all there is)."""
    from interpeval.text.sentences import sent_spans

    spans = sent_spans(record["context"])
    start = record["answers"][0][0]
    keep = [record["context"][s:e] for s, e in spans if not s <= start < e]
    return " ".join(keep) if 0 < len(keep) < len(spans) else None


def _answerability_records(root: Path, vendored: set[str]) -> dict[str, list[dict[str, Any]]]:
    """Question records by part for the English QA and answerability heads (see :func:`_english_qa_split`)."""
    parts: dict[str, list[dict[str, Any]]] = {"train": [], "dev": [], "test_squad2": []}
    for domain in SQUADSHIFTS:
        for record in squad_records(root / "squad" / f"squadshifts-{domain}.json"):
            part = shift_part(domain, record, vendored)
            record["source"] = domain
            if part != "test":
                parts[part].append(record)
    for record in squad_records(root / "squad" / "squad2-dev-part.json"):
        record["source"] = "squad2"
        if record["title"] in SQUAD2_TRAIN_ARTICLES and record["context"] not in vendored:
            parts["train"].append(record)
        else:
            parts["test_squad2"].append(record)
    return parts


def _silver_negatives(records: Sequence[dict[str, Any]], seed: int, removed: float = 0.2,
                      mismatched: float = 0.1) -> list[dict[str, Any]]:
    """Rule-made unanswerable pairs (silver): the answer's sentence removed from the context, or a context of
    another article. They teach the heads that the answer sentence is what makes a question answerable."""
    rng = random.Random(seed)
    answerable = [r for r in records if not r["impossible"]]
    contexts_by_title: dict[str, list[str]] = {}
    for r in answerable:
        contexts_by_title.setdefault(f"{r['source']}/{r['title']}", []).append(r["context"])
    titles = sorted(contexts_by_title)
    out = []
    for r in rng.sample(answerable, int(removed * len(answerable))):
        context = _without_answer_sentence(r)
        if context:
            out.append({**r, "context": context, "answers": [], "impossible": True, "silver": "answer-sentence-removed"})
    for r in rng.sample(answerable, int(mismatched * len(answerable))):
        title = rng.choice(titles)
        if title != f"{r['source']}/{r['title']}":
            out.append({**r, "context": rng.choice(contexts_by_title[title]), "answers": [], "impossible": True,
                        "silver": "other-article-context"})
    return out



def _english_qa_split(root: Path, removed: float = 0.2, mismatched: float = 0.1) -> dict[str, Any]:
    """The card's split of the English QA recipes; ``removed`` / ``mismatched`` as for :func:`_silver_negatives`."""
    return {
        "squad/squadshifts-{new_wiki,amazon_reviews}.json": "by article: sha1('<domain>/<title>') % 20 → 0-3 test, "
                                                            "4 dev, else train",
        "squad/squadshifts-reddit.json": "by paragraph: sha1(context) % 20 → 0-3 test, 4 dev, else train",
        "squad/squad2-dev-part.json": f"train articles {list(SQUAD2_TRAIN_ARTICLES)}; the other 6 (ExpMRC's and "
                                      "QUACKIE's held-out articles) are test only",
        "package samples": "every paragraph of interpeval/data/squad/*.json (QUACKIE's samples) is test only",
        "silver negatives": f"{removed:.0%} of training questions with their answer sentence removed, "
                            f"{mismatched:.0%} paired with a context of another article (rule-made, label "
                            "'unanswerable')",
    }



def build_sst2(root: Path) -> Prepared:
    def read(name: str) -> list[ClassificationExample]:
        path = root / "sst2-sentences" / f"stsa.binary.{name}"
        if not path.is_file():
            raise InterpevalError(f"{path}: missing (is --data-root the shared data folder?)")
        rows = [line.split(" ", 1) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        return [ClassificationExample(detokenize_ptb(text), int(label)) for label, text in rows]

    train_set, dev, test = read("train"), read("dev"), read("test")
    baseline = majority_baseline([e.label for e in train_set], [e.label for e in test])
    return Prepared(train_set, dev, {"sst2-test": TestSet(test, "SST-2 test (sentence level)", "majority class",
                                                          baseline)},
                    {"sst2-sentences/stsa.binary.train": "train (6,920)", "sst2-sentences/stsa.binary.dev":
                     "dev: model selection (872)", "sst2-sentences/stsa.binary.test": "test (1,821)",
                     "text": "PTB tokenisation undone (detokenize_ptb)"}, ["0", "1"])



def build_stsb(root: Path) -> Prepared:
    rows = glue_rows(root, "STS-B")
    examples = [ClassificationExample(r["sentence1"], float(r["score"]), r["sentence2"]) for r in rows]
    tr, dv, te = thirds(len(examples))
    test = [examples[i] for i in te]
    mean = float(np.mean([examples[i].label for i in tr]))
    baseline = {"mse": float(np.mean([(e.label - mean) ** 2 for e in test])), "pearson": 0.0}
    return Prepared([examples[i] for i in tr], [examples[i] for i in dv],
                    {"stsb-test": TestSet(test, "a held-out third of GLUE STS-B dev", "the training mean (Pearson "
                                          "undefined, reported 0)", baseline)},
                    {"glue/STS-B/dev.tsv": f"seeded permutation (numpy RandomState(0)) of its {len(rows)} rows: "
                                           f"first {len(te)} test, next {len(dv)} dev, the rest train"})


def build_qnli(root: Path) -> Prepared:
    rows = glue_rows(root, "QNLI")
    names = ["entailment", "not_entailment"]
    examples = [ClassificationExample(r["question"], names.index(r["label"]), r["sentence"]) for r in rows]
    groups = linked_groups([(r["question"], r["sentence"]) for r in rows])
    part = [("test" if b < 10 else "dev" if b < 12 else "train") for b in (bucket(g, 30) for g in groups)]
    silver = []
    from interpeval.text.sentences import sent_spans

    rng = random.Random(0)
    for record in squad_records(root / "squad" / "squadshifts-new_wiki.json"):
        spans = sent_spans(record["context"])
        start = record["answers"][0][0]
        holding = [(s, e) for s, e in spans if s <= start < e]
        others = [(s, e) for s, e in spans if not s <= start < e]
        if holding and others:
            s, e = holding[0]
            silver.append(ClassificationExample(record["question"], 0, record["context"][s:e]))
            s, e = rng.choice(others)
            silver.append(ClassificationExample(record["question"], 1, record["context"][s:e]))
    silver = silver[:1000]
    train_set = [e for e, p in zip(examples, part, strict=True) if p == "train"] + silver
    dev = [e for e, p in zip(examples, part, strict=True) if p == "dev"]
    test = [e for e, p in zip(examples, part, strict=True) if p == "test"]
    baseline = majority_baseline([e.label for e in train_set], [e.label for e in test])
    return Prepared(train_set, dev,
                    {"qnli-test": TestSet(test, f"a third of GLUE QNLI dev held out by paragraph: {len(test)} rows "
                                          f"of {sum(b < 10 for b in (bucket(g, 30) for g in set(groups)))} "
                                          "paragraphs, none of whose questions or sentences is in training",
                                          "majority class", baseline)},
                    {"glue/QNLI/dev.tsv": f"{len(rows)} rows grouped into {len(set(groups))} paragraphs (rows that "
                                          "share a question or a sentence, transitively); sha1(group's smallest "
                                          "text) % 30 → 0-9 test, 10-11 dev, else train",
                     "squad/squadshifts-new_wiki.json": f"the first {len(silver)} silver pairs built by QNLI's own rule "
                                                       "(question + the sentence holding the answer = entailment, "
                                                       "+ another sentence of the paragraph = not_entailment)"},
                    names)


def build_squad(root: Path) -> Prepared:
    vendored = vendored_contexts()
    parts = _answerability_records(root, vendored)
    train_records = parts["train"] + _silver_negatives(parts["train"], seed=0)
    train_set = [qa_example(r) for r in train_records]
    dev = [qa_example(r) for r in parts["dev"][:200]]
    trained_titles = set(SQUAD2_TRAIN_ARTICLES)
    squad2 = [qa_example(r, evidence=False) for r in parts["test_squad2"]]
    null_f1 = float(np.mean([e.answer_start < 0 for e in squad2]))
    return Prepared(train_set, dev, {
        "xquad-en": xquad_test(root, trained_titles),
        "expmrc-squad": expmrc_span_test(root, "squad", "en"),
        "squad2-heldout": TestSet(squad2, "SQuAD 2.0 dev-part, the 6 articles not trained on (with unanswerables; "
                                  "an answer with P(answer) < 0.5 counts as 'no answer')",
                                  "always 'no answer'", {"answer_f1": null_f1}),
    }, {**_english_qa_split(root), "dev": "the first 200 dev-part questions"})


def build_quackie_cls(root: Path) -> Prepared:
    vendored = vendored_contexts()
    parts = _answerability_records(root, vendored)

    def pairs(records: Sequence[dict[str, Any]]) -> list[ClassificationExample]:
        return [ClassificationExample(r["question"], 0 if r["impossible"] else 1, r["context"]) for r in records]

    # half the answerable questions also come back unanswerable (answer sentence removed, or another article's
    # context): with the default 30 % the classes are 3:1 and the classifier collapses onto "answerable"
    removed, mismatched = 0.35, 0.15
    # SQuAD 2.0's real unanswerable questions are what the held-out test asks; among all 19.6k SQuADShifts
    # questions they were 1 training pair in 17 and the classifier learnt little of them (ROC AUC 0.63), so the
    # SQuADShifts part is a seeded sample the size of the SQuAD 2.0 part
    real = [r for r in parts["train"] if r["source"] == "squad2"]
    kept = real + random.Random(0).sample([r for r in parts["train"] if r["source"] != "squad2"], len(real))
    train_set = pairs(kept + _silver_negatives(kept, 0, removed, mismatched))
    dev_records = parts["dev"][:200]
    dev = pairs(dev_records + _silver_negatives(dev_records, seed=1, removed=0.5, mismatched=0.0))
    test = pairs(parts["test_squad2"])
    baseline = majority_baseline([e.label for e in train_set], [e.label for e in test])
    return Prepared(train_set, dev, {"squad2-heldout": TestSet(
        test, "SQuAD 2.0 dev-part, the 6 articles not trained on (real unanswerable questions)", "majority class",
        baseline)}, {**_english_qa_split(root, removed, mismatched),
                     "dev": "the first 200 dev-part questions + silver negatives",
                     "training questions": f"all {len(real)} SQuAD 2.0 train-article questions + {len(real)} of "
                                           "the SQuADShifts train part (random.Random(0).sample), each with its "
                                           "silver negatives"},
        ["unanswerable", "answerable"])


def _choice_examples(path: Path) -> list[tuple[str, ChoiceExample]]:
    from interpeval.benchmarks.expmrc.data import CHOICE_LABELS, load_dataset

    out = []
    for q in load_dataset(path).questions:
        out.append((q.article_id, ChoiceExample(q.context, q.question, list(q.options),
                                                CHOICE_LABELS.index(q.answers[0]))))
    return out


def build_choice(root: Path, subset: str) -> Prepared:
    from interpeval.benchmarks.expmrc.baselines import overlap_choice, sentence_spans
    from interpeval.benchmarks.expmrc.data import CHOICE_LABELS, load_dataset

    path = root / "expmrc" / subset / f"expmrc-{subset}-dev.json"
    items = _choice_examples(path)
    folds = []
    for k in range(5):
        held = [e for a, e in items if bucket(a, 5) == k]
        rest = [e for a, e in items if bucket(a, 5) != k]
        folds.append((rest, held))
    language = "zh" if subset == "c3" else "en"
    questions = load_dataset(path).questions
    overlap = float(np.mean([CHOICE_LABELS.index(overlap_choice(q, sentence_spans(q.context, language)).label)
                             == CHOICE_LABELS.index(q.answers[0]) for q in questions]))
    all_examples = [e for _, e in items]
    majority = majority_baseline([e.label for e in all_examples], [e.label for e in all_examples])
    test = TestSet(all_examples, f"ExpMRC {subset} dev, 5-fold cross-validation over articles (each question "
                   "scored by the fold model that never saw its article)",
                   "overlap scorer (no model) / majority option",
                   {"accuracy": overlap, "majority_accuracy": majority["accuracy"]})
    return Prepared(all_examples, [], {f"{subset}-cv": test},
                    {f"expmrc/{subset}/expmrc-{subset}-dev.json": "5 folds by article: sha1(article id) % 5; the "
                     "shipped model is trained on all folds after the cross-validation"}, folds=folds)



def build_mlm_en(root: Path) -> Prepared:
    vendored = vendored_contexts()
    train_texts, dev_texts = [], []
    for domain in SQUADSHIFTS:
        for record in squad_records(root / "squad" / f"squadshifts-{domain}.json"):
            part = shift_part(domain, record, vendored)
            (train_texts if part == "train" else dev_texts if part == "dev" else []).append(record["context"])
    test = mlm_texts(unique_contexts(root / "xquad" / "xquad.en.json"))
    return Prepared(mlm_texts(list(dict.fromkeys(train_texts))), mlm_texts(list(dict.fromkeys(dev_texts)))[:300],
                    {"xquad-en-text": TestSet(test, "XQuAD-en paragraphs (Wikipedia, never trained on), whole-word "
                                              "masking of 15 % of words, seed 0", "unigram: always the most "
                                              "frequent training token", {})},
                    {**{k: v for k, v in _english_qa_split(root).items() if "squadshifts" in k},
                     "text": "unique SQuADShifts paragraphs of the train part, cut into 90-word chunks",
                     "not used": "SQuAD / XQuAD / ExpMRC paragraphs and UD sentences (the masked-LM benchmark is "
                                 "built from them)"}, trained_texts=(train_texts + dev_texts))
