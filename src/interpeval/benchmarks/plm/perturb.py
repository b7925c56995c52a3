"""The paper's three perturbation types, each mapping the answer and the rationale onto the perturbed words.

- ``ins_del`` (Ins./Del.): delete a dispensable word the tree marks as a leaf modifier (adverb, adjective,
  interjection; never a negation, the answer or a rationale word) — ``delete_leaf_modifier`` — or, without a
  tree, insert a discourse marker at the start ("In fact ," / "其实，") — ``insert_discourse_marker``;
- ``replace`` (Rep.): replace one rationale word by a related word that a masked LM proposes for its slot, with
  the answer filled in (``mlm_substitute``; the first of its 10 best fillers that is a different word, not the
  answer, and made of letters / Chinese characters). A masked LM proposes *related* words, not guaranteed
  synonyms; the answer-uniqueness check of the builder runs on the perturbed text too;
- ``transform`` (Trans.): active → passive from the UD tree (English ``active_to_passive`` with lemminflect,
  Chinese ``bei_passive``), or the causal clauses of a reasoning item swapped into "因为…，所以…"
  (``clause_swap``). Transformed pairs are left out of the consistency metrics, as in the paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace as dc_replace
from typing import TYPE_CHECKING

from interpeval.benchmarks.plm.inputs import decode
from interpeval.benchmarks.plm.records import Item
from interpeval.benchmarks.plm.words import has_cjk, is_en_stop

if TYPE_CHECKING:
    from interpeval.models.kinds import MaskedLMModel

Piece = tuple[int | None, str]  # (index in the original item or None for a new word, the word)
_NEGATIONS = {"not", "n't", "never", "no", "不", "沒", "没", "別", "别", "未", "非", "無", "无"}
_INSERT = {"en": ["In", "fact", ","], "zh": ["其实", "，"]}
_SUBJECT_TO_AGENT = {"i": "me", "he": "him", "she": "her", "we": "us", "they": "them"}
#: verbs whose passive is not English ("a feeling is had by …")
_STATIVE = {"have", "be", "get", "lack", "resemble", "cost", "weigh", "want", "need", "become", "seem", "mean",
            "contain", "fit", "suit", "equal", "like", "love", "hate", "know"}
_OBJECT_TO_SUBJECT = {"me": "I", "him": "he", "her": "she", "us": "we", "them": "they"}


def derive(item: Item, pieces: Sequence[Piece], perturbation: str, rule: str) -> Item | None:
    """The perturbed item made of ``pieces``; None when the answer or every rationale word is lost."""
    where = {old: new for new, (old, _) in enumerate(pieces) if old is not None}
    if item.mask not in where:
        return None
    rationale = sorted(where[r] for r in item.rationale if r in where)
    if not rationale:
        return None
    return Item(item.lang, item.dimension, [w for _, w in pieces], where[item.mask], rationale, item.rule,
                dict(item.provenance), None, perturbation, rule)


# ------------------------------------------------------------------------------------------------ Ins./Del.
def insert_or_delete(item: Item) -> Item | None:
    if item.tree is not None:
        deleted = _delete_leaf_modifier(item)
        if deleted is not None:
            return deleted
    words = list(item.words)
    if item.lang == "en" and words and words[0] != "I" and is_en_stop(words[0]) and item.mask != 0:
        words[0] = words[0].lower()
    pieces: list[Piece] = [(None, w) for w in _INSERT[item.lang]] + list(enumerate(words))
    return derive(item, pieces, "ins_del", "insert_discourse_marker")


def _delete_leaf_modifier(item: Item) -> Item | None:
    assert item.tree is not None
    heads = {h for h, _, _, _ in item.tree}
    keep = set(item.rationale) | {item.mask}
    for i, (_head, deprel, upos, feats) in enumerate(item.tree):
        if (i in heads or i in keep or deprel not in ("advmod", "amod", "discourse") or upos not in ("ADV", "ADJ", "INTJ")
                or feats.get("Polarity") == "Neg" or item.words[i].lower() in _NEGATIONS or i == 0):
            continue
        pieces = [(j, w) for j, w in enumerate(item.words) if j != i]
        return derive(item, pieces, "ins_del", "delete_leaf_modifier")
    return None


# ------------------------------------------------------------------------------------------------ Trans.
def transform(item: Item) -> Item | None:
    if item.rule == "copa_events":
        return _clause_swap(item)
    if item.tree is None:
        return None
    return _passive_en(item) if item.lang == "en" else _bei_passive(item)


def _clause_swap(item: Item) -> Item | None:
    words, m = item.words, item.mask
    left = list(range(0, m - 1))
    right = list(range(m + 1, len(words) - 1))
    if item.answer == "因为":  # "P，因为 C。" -> "因为 C，所以 P。"
        pieces: list[Piece] = [(m, words[m]), *[(i, words[i]) for i in right], (m - 1, "，"), (None, "所以"),
                               *[(i, words[i]) for i in left], (len(words) - 1, words[-1])]
    elif item.answer == "所以":  # "P，所以 E。" -> "因为 P，所以 E。"
        pieces = [(None, "因为"), *[(i, w) for i, w in enumerate(words)]]
    else:
        return None
    return derive(item, pieces, "transform", "clause_swap")


def _span(item: Item, root: int) -> tuple[int, int]:
    """The first and last index of the subtree of ``root`` (None-safe: tree must be given)."""
    assert item.tree is not None
    members = {root}
    changed = True
    while changed:
        changed = False
        for i, (head, *_rest) in enumerate(item.tree):
            if head in members and i not in members:
                members.add(i)
                changed = True
    return min(members), max(members)


def _contiguous(item: Item, root: int) -> tuple[int, int] | None:
    assert item.tree is not None
    lo, hi = _span(item, root)
    inside = set(range(lo, hi + 1))
    for i in inside:
        j = i
        while j != root and j != -1:
            j = item.tree[j][0]
        if j != root:
            return None
    return lo, hi


def _clause(item: Item, lang: str) -> tuple[int, int, int, tuple[int, int], tuple[int, int]] | None:
    """``(verb, subject, object, subject span, object span)`` of a simple transitive main clause S V O."""
    assert item.tree is not None
    for v, (head, _deprel, upos, feats) in enumerate(item.tree):
        if head != -1 or upos != "VERB" or (lang == "en" and feats.get("VerbForm") != "Fin"):
            continue
        kids = [(i, t[1]) for i, t in enumerate(item.tree) if t[0] == v]
        rels = [r for _, r in kids]
        if any(r in ("aux:pass", "cop", "expl", "nsubj:pass", "iobj", "ccomp", "xcomp") for r in rels):
            continue
        if lang == "en" and "aux" in rels:
            continue
        subjects = [i for i, r in kids if r == "nsubj"]
        objects = [i for i, r in kids if r == "obj"]
        if len(subjects) != 1 or len(objects) != 1 or not subjects[0] < v < objects[0]:
            continue
        s_span, o_span = _contiguous(item, subjects[0]), _contiguous(item, objects[0])
        if s_span is None or o_span is None or s_span[1] != v - 1:
            continue
        between = [i for i in range(v + 1, o_span[0])]
        if lang == "en" and between:
            continue
        if lang == "zh" and any(item.tree[i][1] != "aux" or item.tree[i][0] != v for i in between):
            continue
        return v, subjects[0], objects[0], s_span, o_span
    return None


def _passive_en(item: Item) -> Item | None:
    from lemminflect import getInflection, getLemma

    found = _clause(item, "en")
    if found is None:
        return None
    v, s, o, (s0, s1), (o0, o1) = found
    assert item.tree is not None
    tense = item.tree[v][3].get("Tense")
    if tense not in ("Past", "Pres") or v == item.mask:
        return None
    lemma = (getLemma(item.words[v].lower(), "VERB") or ("",))[0]
    if lemma in _STATIVE:
        return None
    participle = (getInflection(lemma, "VBN") or (None,))[0] if lemma else None
    if not participle:
        return None
    obj_word = item.words[o].lower()
    plural = item.tree[o][3].get("Number") == "Plur" or obj_word in ("we", "they", "them", "us", "you")
    first_person = obj_word in ("me", "i")
    be = {("Past", False): "was", ("Past", True): "were", ("Pres", False): "is", ("Pres", True): "are"}[
        (tense, plural)]
    if first_person:
        be = "was" if tense == "Past" else "am"
    obj_piece: list[Piece] = []
    for i in range(o0, o1 + 1):
        w = item.words[i]
        if i == o and item.tree[o][2] == "PRON" and w.lower() in _OBJECT_TO_SUBJECT:
            if i == item.mask:
                return None
            w = _OBJECT_TO_SUBJECT[w.lower()]
        obj_piece.append((i, w))
    subj_piece: list[Piece] = []
    for i in range(s0, s1 + 1):
        w = item.words[i]
        if i == s and w.lower() in _SUBJECT_TO_AGENT:
            if i == item.mask:
                return None
            w = _SUBJECT_TO_AGENT[w.lower()]
        elif i == s0 and s0 == 0 and w != "I" and item.tree[i][2] != "PROPN":
            w = w.lower()
        subj_piece.append((i, w))
    if s0 == 0 and obj_piece:
        i, w = obj_piece[0]
        obj_piece[0] = (i, w[:1].upper() + w[1:])
    pieces: list[Piece] = [*[(i, item.words[i]) for i in range(s0)], *obj_piece, (None, be), (v, participle),
                           (None, "by"), *subj_piece, *[(i, item.words[i]) for i in range(o1 + 1, len(item.words))]]
    changed = {i for i, w in pieces if i is not None and w != item.words[i]}
    if item.mask in changed:
        return None
    return derive(item, pieces, "transform", "active_to_passive")


def _bei_passive(item: Item) -> Item | None:
    found = _clause(item, "zh")
    if found is None:
        return None
    v, _s, _o, (s0, s1), (o0, o1) = found
    words = item.words
    pieces: list[Piece] = [*[(i, words[i]) for i in range(s0)], *[(i, words[i]) for i in range(o0, o1 + 1)],
                           (None, "被"), *[(i, words[i]) for i in range(s0, s1 + 1)],
                           *[(i, words[i]) for i in range(v, o0)],
                           *[(i, words[i]) for i in range(o1 + 1, len(words))]]
    return derive(item, pieces, "transform", "bei_passive")


# ------------------------------------------------------------------------------------------------ Rep.
def _replaceable(item: Item, i: int) -> bool:
    w = item.words[i]
    if item.lang == "en":
        return w.isalpha() and len(w) >= 3 and not is_en_stop(w)
    return all(has_cjk(c) for c in w)


def substitutes(items: Sequence[Item], model: MaskedLMModel, k: int = 10) -> list[Item | None]:
    """One ``replace`` partner per item (None where no rationale word can be replaced), in one batched pass."""
    requests: list[tuple[int, int, str]] = []
    for n, item in enumerate(items):
        slot = next((i for i in item.rationale if _replaceable(item, i)), None)
        if slot is None:
            continue
        masks = model.tokenizer.mask_token * len(model.answer_ids(item.words[slot]))
        text = item.sep.join(masks if i == slot else w for i, w in enumerate(item.words))
        requests.append((n, slot, text))
    out: list[Item | None] = [None] * len(items)
    if not requests:
        return out
    fillings = model.fill_mask([t for _, _, t in requests], k=k)
    for (n, slot, _), options in zip(requests, fillings, strict=True):
        item = items[n]
        old = item.words[slot]
        for ids, _score in options:
            word = decode(model, ids, item.lang)
            ok = (word.isalpha() and len(word) >= 2) if item.lang == "en" else bool(word) and all(has_cjk(c) for c in word)
            if not ok or word.lower() in (old.lower(), item.answer.lower()):
                continue
            if item.lang == "en" and old[:1].isupper():
                word = word[:1].upper() + word[1:]
            words = list(item.words)
            words[slot] = word
            out[n] = dc_replace(item, words=words, tree=None, perturbation="replace",
                                perturbation_rule="mlm_substitute", provenance=dict(item.provenance))
            break
    return out
