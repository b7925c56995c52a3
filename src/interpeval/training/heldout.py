"""Held-out tests of the recipes: test sets, their trivial baselines and the scorers that score a head on them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from interpeval.training.batching import choice_pair
from interpeval.training.data import TestSet, qa_example, read_json, squad_records
from interpeval.training.examples import ChoiceExample, MLMExample, QAExample
from interpeval.training.scoring import answer_f1, classification_scores, evaluate, predict_examples


def majority_baseline(train_labels: Sequence[int], test_labels: Sequence[int]) -> dict[str, float]:
    label = Counter(train_labels).most_common(1)[0][0]
    gold = np.asarray(test_labels)
    recalls = [float((gold[gold == c] == label).mean()) for c in np.unique(gold)]
    return {"accuracy": float((gold == label).mean()), "balanced_accuracy": float(np.mean(recalls))}


def _overlap_sentence(question: str, context: str, language: str = "en") -> str:
    """The context sentence with the most question words: the trivial answer of an extractive QA baseline."""
    from interpeval.benchmarks.expmrc.baselines import most_similar, sentence_spans

    return most_similar(question, context, sentence_spans(context, language))


def _qa_baseline(examples: Sequence[QAExample], language: str = "en") -> dict[str, float]:
    f1 = [answer_f1(e.answer_text, _overlap_sentence(e.question, e.context, language)) for e in examples]
    return {"answer_f1": float(np.mean(f1))}



def xquad_test(root: Path, trained_titles: set[str], language: str = "en") -> TestSet:
    records = [r for r in squad_records(root / "xquad" / f"xquad.{language}.json") if r["title"] not in trained_titles]
    examples = [qa_example(r, language, evidence=False) for r in records]
    n_articles = len({r["title"] for r in records})
    return TestSet(examples, f"XQuAD-{language}, the {n_articles} of 48 articles no paragraph of which was trained "
                   "on", "the context sentence with the most question words", _qa_baseline(examples, language))


def expmrc_span_test(root: Path, subset: str, language: str) -> TestSet:
    """ExpMRC span dev with its official scorer (every reference answer and evidence, mixed segmentation); with an
    evidence head also MSS w/ Ques. on the model's own answers (``mss_q_evidence_f1``), the paper's comparison."""
    from interpeval.benchmarks.expmrc.baselines import Answer, mss_q, sentence_spans
    from interpeval.benchmarks.expmrc.data import load_dataset
    from interpeval.metrics.mrc import expmrc_all_f1, expmrc_f1

    path = root / "expmrc" / subset / f"expmrc-{subset}-dev.json"
    raw = read_json(path)
    examples, references = [], {}
    for article in raw["data"]:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                answer = qa["answers"][0]
                evidence = qa["evidences"][0] if qa.get("evidences") else ""
                examples.append(QAExample(qa["question"], paragraph["context"], int(answer["answer_start"]),
                                          answer["text"], paragraph["context"].find(evidence), evidence))
                references[id(examples[-1])] = ([a["text"] for a in qa["answers"]], list(qa.get("evidences") or []))

    def score(model: Any, items: list[Any]) -> dict[str, float]:
        """Any subset of the examples (a slice re-scores a shipped head in the tests)."""
        preds = model.predict([e.question for e in items], [e.context for e in items])
        refs_of = [references[id(e)] for e in items]
        answer = [expmrc_f1(refs[0], p["text"]) for refs, p in zip(refs_of, preds, strict=True)]
        scores = {"answer_f1": float(np.mean(answer))}
        if preds and "evidence" in preds[0]:
            evidence = [expmrc_f1(refs[1], p["evidence"]["text"]) for refs, p in zip(refs_of, preds, strict=True)]
            question_of = dict(zip(map(id, examples), load_dataset(path).questions, strict=True))
            mss = [expmrc_f1(refs[1], mss_q(q, Answer(p["text"], p["start"]), sentence_spans(q.context, language)))
                   for refs, q, p in zip(refs_of, (question_of[id(e)] for e in items), preds, strict=True)]
            scores.update(evidence_f1=float(np.mean(evidence)), all_f1=float(expmrc_all_f1(answer, evidence)) / 100,
                          mss_q_evidence_f1=float(np.mean(mss)))
        return scores

    baseline_f1 = [expmrc_f1(references[id(e)][0], _overlap_sentence(e.question, e.context, language))
                   for e in examples]
    return TestSet(examples, f"ExpMRC {subset} dev, official scorer (no paragraph trained on)",
                   "the context sentence with the most question words", {"answer_f1": float(np.mean(baseline_f1))},
                   score)



def expmrc_choice_test(root: Path, subset: str, train_labels: Sequence[int]) -> TestSet:
    """ExpMRC multiple-choice dev scored by the official scorer (answer accuracy, evidence F1, all F1), next to the
    overlap scorer with MSS w/ Ques. evidence and the majority option of training."""
    from interpeval.benchmarks.expmrc.baselines import Answer
    from interpeval.benchmarks.expmrc.data import CHOICE_LABELS, load_dataset
    from interpeval.benchmarks.expmrc.run import SYSTEMS, ModelOutput, choice_outputs, score_system

    dataset = load_dataset(root / "expmrc" / subset / f"expmrc-{subset}-dev.json")
    systems = {s.key: s for s in SYSTEMS}
    examples = [ChoiceExample(q.context, q.question, list(q.options), CHOICE_LABELS.index(q.answers[0]))
                for q in dataset.questions]

    def official(outputs: dict[str, ModelOutput], system: str) -> dict[str, float]:
        score, _ = score_system(systems[system], dataset, outputs)
        return {"accuracy": score.ans_f1 / 100, "evidence_f1": score.evi_f1 / 100, "all_f1": score.all_f1 / 100}

    def score(model: Any, items: list[Any]) -> dict[str, float]:
        outputs = {}
        texts, pairs = [e.context for e in items], [[choice_pair(e.question, o) for o in e.options] for e in items]
        preds = (model.predict_evidence(texts, pairs) if model.evidence_head is not None else
                 [{"choice": int(i), "evidence": None} for i in model.predict(texts, pairs)])
        for e, q, p in zip(items, dataset.questions, preds, strict=True):
            outputs[q.qid] = ModelOutput(Answer(e.options[p["choice"]], label=CHOICE_LABELS[p["choice"]]),
                                         p["evidence"] and p["evidence"]["text"])
        mss = official(outputs, "mss_q")
        scores = official(outputs, "pseudo") if model.evidence_head is not None else {"accuracy": mss["accuracy"]}
        return {**scores, "mss_q_evidence_f1": mss["evidence_f1"]}

    overlap = official(choice_outputs(None, dataset), "mss_q")
    majority = majority_baseline(train_labels, [e.label for e in examples])["accuracy"]
    return TestSet(examples, f"ExpMRC {subset} dev, official scorer (no article trained on); mss_q_evidence_f1: "
                   "MSS w/ Ques. on the model's own choices", "overlap scorer (no model) with MSS w/ Ques. "
                   "evidence / the majority option of training", {**overlap, "majority_accuracy": majority}, score)



def unigram_baseline(model: Any, train_set: Sequence[MLMExample], test: Sequence[MLMExample]) -> dict[str, float]:
    """Top-1 / top-3 of always predicting the most frequent training tokens at the masked positions."""
    import torch

    from interpeval.training.batching import make_batch

    counts: Counter[int] = Counter()
    for e in train_set[:3000]:
        counts.update(model.tokenizer(e.text, add_special_tokens=False)["input_ids"])
    top = [t for t, _ in counts.most_common(3)]
    generator = torch.Generator().manual_seed(0)
    hits1 = hits3 = total = 0
    for start in range(0, len(test), 64):
        labels = make_batch(model, "masked-lm", test[start:start + 64], generator)["labels"]
        gold = labels[labels != -100].tolist()
        hits1 += sum(g == top[0] for g in gold)
        hits3 += sum(g in top for g in gold)
        total += len(gold)
    return {"masked_accuracy": hits1 / max(total, 1), "masked_top3": hits3 / max(total, 1)}



def score_heldout(model: Any, kind: str, test: TestSet, examples: Sequence[Any] | None = None) -> dict[str, float]:
    """A head's scores on a held-out test (or on ``examples``, a part of it), as its card reports them."""
    items = list(test.examples if examples is None else examples)
    if test.scorer is not None:
        return test.scorer(model, items)
    if kind == "sequence-classification":  # one prediction pass for every score
        return classification_scores(predict_examples(model, items), [e.label for e in items], balanced=True)
    return evaluate(model, kind, items)
