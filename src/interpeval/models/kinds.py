"""One :class:`~interpeval.models.base.Model` adapter per task kind.

Each adapter turns the HF output of its kind into the scalar targets explainers differentiate, and decodes
predictions (class ids, spans with character offsets, token ids, choice ids, sentence embeddings).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch
from transformers import BatchEncoding

from interpeval.models.base import Model, Target, _as_list


def _pick(probs: torch.Tensor, index: int | None) -> torch.Tensor:
    """``probs[b, index]`` for every row, or the row maximum when ``index`` is None (the predicted one)."""
    if index is None:
        return probs.max(dim=-1).values
    if not -probs.shape[-1] <= index < probs.shape[-1]:
        raise ValueError(f"target index {index} out of range for {probs.shape[-1]} outputs")
    return probs[..., index]


class SequenceClassificationModel(Model):
    """Text (or text pair) → class; ``class_prob`` is the softmax probability of a class."""

    kind = "sequence-classification"
    targets = ("class_prob",)

    def _score(self, output: Any, inputs: dict[str, Any], target: Target) -> torch.Tensor:
        return _pick(torch.softmax(output.logits, dim=-1), target.index)

    def predict_proba(self, texts: str | Sequence[str], pairs: Sequence[str] | None = None) -> np.ndarray:
        """Class probabilities ``[N, n_classes]``."""
        probs = [torch.softmax(out.logits, -1).float().cpu().numpy()
                 for _, out in self._batches(_as_list(texts, "texts"), pairs)]
        return np.concatenate(probs)

    def predict(self, texts: str | Sequence[str], pairs: Sequence[str] | None = None) -> np.ndarray:
        """Predicted class ids ``[N]``."""
        return self.predict_proba(texts, pairs).argmax(-1)


class RegressionModel(Model):
    """Text (or pair) → real value (e.g. STS-B similarity); ``regression`` is the raw output."""

    kind = "regression"
    targets = ("regression",)

    def _score(self, output: Any, inputs: dict[str, Any], target: Target) -> torch.Tensor:
        return output.logits[:, 0 if target.index is None else target.index]

    def predict(self, texts: str | Sequence[str], pairs: Sequence[str] | None = None) -> np.ndarray:
        """Predicted values ``[N]``."""
        return np.concatenate([out.logits[:, 0].float().cpu().numpy()
                               for _, out in self._batches(_as_list(texts, "texts"), pairs)])


class MaskedLMModel(Model):
    """Masked language model; ``masked_token_prob`` sums the probabilities at the [MASK] positions.

    The [MASK] positions are read from ``input_ids``; explainers that feed ``inputs_embeds`` pass ``input_ids``
    alongside (they are then only used to find the masks) or give ``Target.params["positions"]`` (one list of
    positions per row).
    """

    kind = "masked-lm"
    targets = ("masked_token_prob",)

    def _mask(self, inputs: dict[str, Any], target: Target, shape: torch.Size) -> torch.Tensor:
        positions = target.params.get("positions")
        if positions is not None:
            mask = torch.zeros(shape[:2], dtype=torch.bool, device=self.device)
            for row, pos in enumerate(positions):
                mask[row, list(pos)] = True
            return mask
        if inputs.get("input_ids") is None:
            raise ValueError("masked_token_prob needs input_ids (next to inputs_embeds) or "
                             "Target.params['positions'] to find the [MASK] positions")
        return inputs["input_ids"] == self.tokenizer.mask_token_id

    def lm_head(self) -> torch.nn.Module:
        """The vocabulary head (BERT ``cls``, RoBERTa / XLM-R ``lm_head``)."""
        for name in ("cls", "lm_head", "predictions", "generator_lm_head"):
            head = getattr(self.hf, name, None)
            if head is not None:
                return head
        raise ValueError(f"{self.name}: no masked-LM head found (cls / lm_head)")

    def masked_logits(self, inputs: dict[str, Any], target: Target | None = None
                      ) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits [n_masks, V], mask [B, L])``: the vocabulary head runs only at the [MASK] positions (those of
        ``target`` when it gives them). Every masked-LM output reads nothing else, and for a 250k-piece vocabulary
        (multilingual-e5) the head over every position costs tens of times the encoder."""
        hidden = self.hf.base_model(**self.model_inputs(inputs)).last_hidden_state
        mask = self._mask(inputs, target or Target("masked_token_prob"), hidden.shape)
        return self.lm_head()(hidden[mask]), mask

    def _states_forward(self, inputs: dict[str, Any], **kwargs: Any) -> Any:
        """The encoder alone: layers and attentions do not need the vocabulary head."""
        return self.hf.base_model(**self.model_inputs(inputs), **kwargs)

    def _masked_batches(self, texts: list[str], pairs: Sequence[str] | None = None, target: Target | None = None):
        """Yield ``(logits [n_masks, V], mask)`` per batch, without gradients."""
        with torch.no_grad():
            for enc in self._encodings(texts, pairs):
                yield self.masked_logits(enc, target)

    def score(self, inputs: dict[str, Any], target: Target) -> torch.Tensor:
        self.check_target(target)
        return self._pick_masked(*self.masked_logits(inputs, target), target).float()

    def score_texts(self, texts: str | Sequence[str], pairs: Sequence[Any] | None = None,
                    target: Target | None = None) -> np.ndarray:
        target = target or self.default_target()
        self.check_target(target)
        return np.concatenate([self._pick_masked(logits, mask, target).float().cpu().numpy()
                               for logits, mask in self._masked_batches(_as_list(texts, "texts"), pairs, target)])

    def _pick_masked(self, logits: torch.Tensor, mask: torch.Tensor, target: Target) -> torch.Tensor:
        """Per row, the summed probability of the target's token at each [MASK] (``logits``: [n_masks, V])."""
        rows = mask.nonzero(as_tuple=True)[0]
        probs = torch.softmax(logits, dim=-1)  # [n_masks, vocab]
        if target.token_ids is None:
            picked = probs.max(dim=-1).values
        else:
            counts = mask.sum(1).tolist()
            if any(c != len(target.token_ids) for c in counts):
                raise ValueError(f"target gives {len(target.token_ids)} gold token ids but the rows have "
                                 f"{counts} [MASK] positions")
            slot = (mask.cumsum(1) - 1)[mask]  # k-th mask of its row
            gold = torch.tensor(target.token_ids, device=logits.device)[slot]
            picked = probs.gather(1, gold[:, None])[:, 0]
        return torch.zeros(mask.shape[0], dtype=picked.dtype, device=logits.device).index_add(0, rows, picked)

    def predict(self, texts: str | Sequence[str], pairs: Sequence[str] | None = None) -> list[list[int]]:
        """Predicted token id at each [MASK] position, per text."""
        out: list[list[int]] = []
        for logits, mask in self._masked_batches(_as_list(texts, "texts"), pairs):
            out.extend(row.tolist() for row in logits.argmax(-1).split(mask.sum(1).tolist()))
        return out

    def answer_ids(self, answer: str) -> tuple[int, ...]:
        """The token ids of ``answer`` as the masked segment that stands for it: one [MASK] per id.

        The answer is tokenised on its own (no special tokens); a leading piece that decodes to nothing (the lone
        sentencepiece ``▁`` that XLM-R puts before text without a space, e.g. Chinese) is dropped.
        """
        ids = list(self.tokenizer(answer, add_special_tokens=False)["input_ids"])
        while len(ids) > 1 and not self.tokenizer.decode(ids[:1]).strip():
            ids.pop(0)
        if not ids:
            raise ValueError(f"the answer {answer!r} has no tokens for {self.name}")
        return tuple(int(i) for i in ids)

    def fill_mask(self, texts: str | Sequence[str], k: int = 3) -> list[list[tuple[tuple[int, ...], float]]]:
        """The ``k`` best fillings of each text's masked segment, best first, as ``(token ids, log-probability)``.

        A segment of n [MASK] tokens (an n-token answer) is predicted in one forward pass; a filling's score is the
        sum of the per-position log-probabilities (the positions are scored independently, as a masked LM
        predicts them), and the k best sequences are found exactly by a beam of width k over the positions.
        """
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        out: list[list[tuple[tuple[int, ...], float]]] = []
        for logits, mask in self._masked_batches(_as_list(texts, "texts")):
            logp = torch.log_softmax(logits.float(), dim=-1)  # [n_masks, V], rows in text order
            for row in logp.split(mask.sum(1).tolist()):
                if len(row) == 0:
                    raise ValueError(f"text {len(out)} has no {self.tokenizer.mask_token} token to fill")
                top = row.topk(min(k, row.shape[-1]), dim=-1)
                beams: list[tuple[tuple[int, ...], float]] = [((), 0.0)]
                for values, ids in zip(top.values.tolist(), top.indices.tolist(), strict=True):
                    grown = [(seq + (i,), score + v) for seq, score in beams for v, i in zip(values, ids, strict=True)]
                    beams = sorted(grown, key=lambda item: -item[1])[:k]
                out.append(beams)
        return out


class ExtractiveQAModel(Model):
    """Question + context → answer span, optionally with an evidence span head.

    ``tokenize(questions, contexts)`` truncates only the context. The evidence head is a linear layer (hidden → 2)
    over the last hidden states giving evidence start/end logits; it is trained by :mod:`interpeval.training`
    and stored next to the model as ``evidence_head.safetensors``.
    """

    kind = "extractive-qa"
    truncation = "only_second"

    def __init__(self, hf: Any, tokenizer: Any, name: str, device: str | torch.device = "cpu",
                 batch_size: int = 32, max_length: int = 512, evidence_head: torch.nn.Module | None = None) -> None:
        super().__init__(hf, tokenizer, name, device, batch_size, max_length)
        self.evidence_head = evidence_head

    @property
    def targets(self) -> tuple[str, ...]:  # type: ignore[override]
        base = ("p_answer", "span_start", "span_end")
        return base + (("evidence_start", "evidence_end") if self.evidence_head is not None else ())

    def forward(self, inputs: dict[str, Any], **kwargs: Any) -> Any:
        """HF forward plus ``evidence_start_logits`` / ``evidence_end_logits`` when there is an evidence head."""
        if self.evidence_head is None:
            return super().forward(inputs, **kwargs)
        out = super().forward(inputs, **{**kwargs, "output_hidden_states": True})
        logits = self.evidence_head(out.hidden_states[-1].to(self.evidence_head.weight.dtype))  # bf16 under autocast
        out["evidence_start_logits"] = logits[..., 0]
        out["evidence_end_logits"] = logits[..., 1]
        return out

    def context_start(self, inputs: dict[str, Any]) -> torch.Tensor:
        """c0 per row: the first token with ``token_type_ids != 0`` (REFERENCE §1.5).

        Tokenizers without token types (XLM-R, RoBERTa) use the first token after the first separator, skipping
        separators that follow it directly (``</s></s>``), so c0 is the first context token for them too.
        Rows without a context get c0 = L (P_answer = 0).
        """
        ref = inputs.get("input_ids")
        if ref is None:
            ref = inputs["inputs_embeds"][..., 0]
        length = ref.shape[-1]
        pos = torch.arange(length, device=ref.device)
        if "token_type_ids" in self.tokenizer.model_input_names:
            if inputs.get("token_type_ids") is None:
                raise ValueError("p_answer needs token_type_ids for this tokenizer")
            return torch.where(inputs["token_type_ids"] != 0, pos, length).min(-1).values
        if inputs.get("input_ids") is None:
            raise ValueError("p_answer needs input_ids next to inputs_embeds for a tokenizer without token types")
        sep = inputs["input_ids"] == self.tokenizer.sep_token_id
        first_sep = torch.where(sep, pos, length).min(-1).values
        after = (pos[None, :] > first_sep[:, None]) & ~sep
        return torch.where(after, pos, length).min(-1).values

    def p_answer(self, start_logits: torch.Tensor, end_logits: torch.Tensor, c0: torch.Tensor,
                 attention_mask: torch.Tensor | None = None) -> torch.Tensor:
        """QUACKIE's P(answer in context), REFERENCE §1.5: Σ_{i≥c0, j≥i} softmax(s)_i · softmax(e)_j.

        The joint P(i,j) = exp(s_i + e_j)/Σ exp(s_i' + e_j') over all L×L pairs factorises into
        softmax(s)_i · softmax(e)_j, so the double sum is Σ_{i≥c0} softmax(s)_i · Σ_{j≥i} softmax(e)_j.
        Like the original, padding positions take part in both softmaxes; with ``attention_mask`` given they are left
        out, which gives each row of a padded batch the value it gets when scored alone (the original's ``predict``).
        """
        if attention_mask is not None:
            padding = attention_mask == 0
            start_logits = start_logits.float().masked_fill(padding, float("-inf"))
            end_logits = end_logits.float().masked_fill(padding, float("-inf"))
        ps = torch.softmax(start_logits.float(), dim=-1)
        pe = torch.softmax(end_logits.float(), dim=-1)
        tail = pe.flip(-1).cumsum(-1).flip(-1)
        pos = torch.arange(ps.shape[-1], device=ps.device)
        return (ps * tail * (pos[None, :] >= c0[:, None])).sum(-1)

    def _score(self, output: Any, inputs: dict[str, Any], target: Target) -> torch.Tensor:
        if target.name == "p_answer":
            mask = inputs.get("attention_mask") if target.params.get("exclude_padding") else None
            return self.p_answer(output.start_logits, output.end_logits, self.context_start(inputs), mask)
        key = {"span_start": "start_logits", "span_end": "end_logits",
               "evidence_start": "evidence_start_logits", "evidence_end": "evidence_end_logits"}[target.name]
        return _pick(torch.softmax(output[key], dim=-1), target.index)

    @staticmethod
    def _best_span(start: torch.Tensor, end: torch.Tensor, allowed: torch.Tensor,
                   max_tokens: int) -> tuple[int, int, float]:
        """Highest ``start_i + end_j`` with ``i ≤ j < i + max_tokens`` and both tokens allowed."""
        n = start.shape[0]
        pos = torch.arange(n, device=start.device)
        band = (pos[None, :] >= pos[:, None]) & (pos[None, :] < pos[:, None] + max_tokens)
        valid = band & allowed[:, None] & allowed[None, :]
        scores = torch.where(valid, start[:, None] + end[None, :], torch.tensor(float("-inf"), device=start.device))
        flat = int(scores.argmax())
        return flat // n, flat % n, float(scores.view(-1)[flat])

    def predict(self, texts: str | Sequence[str], pairs: Sequence[str] | None = None, *,
                max_answer_tokens: int = 30, max_evidence_tokens: int = 128) -> list[dict[str, Any]]:
        """Best answer span per (question, context), with character offsets into the context and P_answer.

        Returns dicts ``{"text", "start", "end", "score", "p_answer"}`` (and ``"evidence"``: a dict with
        ``text/start/end/score`` when the model has an evidence head). Contexts longer than ``max_length``
        are truncated (no sliding window).
        """
        questions = _as_list(texts, "questions")
        if pairs is None:
            raise ValueError("extractive-qa predict needs contexts as pairs")
        contexts = _as_list(pairs, "contexts")
        results: list[dict[str, Any]] = []
        done = 0
        for enc, out in self._batches(questions, contexts):
            p = self.p_answer(out.start_logits, out.end_logits, self.context_start(enc))
            for row in range(enc["input_ids"].shape[0]):
                context = contexts[done + row]
                allowed = torch.tensor([s == 1 for s in enc.sequence_ids(row)], device=self.device)
                item = self._span(enc, row, context, out.start_logits[row], out.end_logits[row], allowed,
                                  max_answer_tokens)
                item["p_answer"] = float(p[row])
                if self.evidence_head is not None:
                    item["evidence"] = self._span(enc, row, context, out["evidence_start_logits"][row],
                                                  out["evidence_end_logits"][row], allowed, max_evidence_tokens)
                results.append(item)
            done += enc["input_ids"].shape[0]
        return results

    def _span(self, enc: BatchEncoding, row: int, context: str, start: torch.Tensor, end: torch.Tensor,
              allowed: torch.Tensor, max_tokens: int) -> dict[str, Any]:
        return context_span(enc["offset_mapping"][row], context, start, end, allowed, max_tokens)


def context_span(offsets: Sequence[tuple[int, int]], context: str, start: torch.Tensor, end: torch.Tensor,
                 allowed: torch.Tensor, max_tokens: int) -> dict[str, Any]:
    """The best span of the ``allowed`` (context) tokens as ``{"text", "start", "end", "score"}`` (char offsets)."""
    if not bool(allowed.any()):
        return {"text": "", "start": 0, "end": 0, "score": float("-inf")}
    i, j, score = ExtractiveQAModel._best_span(start.float(), end.float(), allowed, max_tokens)
    char_start, char_end = offsets[i][0], offsets[j][1]
    return {"text": context[char_start:char_end], "start": char_start, "end": char_end, "score": score}


class MultipleChoiceModel(Model):
    """Context + options → choice; ``tokenize(texts, options)`` where ``options[b]`` lists the choices of text b.

    Each choice is encoded as the pair (text, option); tensors are ``[B, n_choices, L]``. An optional evidence head
    (hidden → 2, as ExpMRC's multiple-choice baseline ``run_mc_mrc.py``) scores evidence start/end over the context
    tokens from the last hidden states averaged over the choices; it is trained by :mod:`interpeval.training`.
    """

    kind = "multiple-choice"
    targets = ("choice_prob",)

    def __init__(self, hf: Any, tokenizer: Any, name: str, device: str | torch.device = "cpu",
                 batch_size: int = 32, max_length: int = 512, evidence_head: torch.nn.Module | None = None) -> None:
        super().__init__(hf, tokenizer, name, device, batch_size, max_length)
        self.evidence_head = evidence_head

    def tokenize(self, texts: str | Sequence[str], pairs: Sequence[Sequence[str]] | None = None) -> BatchEncoding:
        """Encode every (text, option) pair; all items of a batch must have the same number of options.

        ``offset_mapping[b][k]`` and ``sequence_ids[b][k]`` (0 = text, 1 = option, None = special) describe the
        row of text b with option k."""
        texts = _as_list(texts, "texts")
        if pairs is None or len(pairs) != len(texts):
            raise ValueError("multiple-choice needs one list of options per text (pairs)")
        sizes = {len(opts) for opts in pairs}
        if len(sizes) != 1 or 0 in sizes:
            raise ValueError(f"every item of a batch needs the same, non-zero number of options; got {sorted(sizes)}")
        n = sizes.pop()
        flat = super().tokenize([t for t in texts for _ in range(n)], [o for opts in pairs for o in opts])
        offsets = flat.pop("offset_mapping")
        sequence_ids = [flat.sequence_ids(i) for i in range(len(texts) * n)]
        enc = BatchEncoding({k: v.view(len(texts), n, -1) for k, v in flat.items()})
        enc["offset_mapping"] = [offsets[b * n:(b + 1) * n] for b in range(len(texts))]
        enc["sequence_ids"] = [sequence_ids[b * n:(b + 1) * n] for b in range(len(texts))]
        return enc

    def forward(self, inputs: dict[str, Any], **kwargs: Any) -> Any:
        """HF forward plus ``evidence_start_logits`` / ``evidence_end_logits`` ``[B, L]`` with an evidence head."""
        if self.evidence_head is None:
            return super().forward(inputs, **kwargs)
        out = super().forward(inputs, **{**kwargs, "output_hidden_states": True})
        batch, n = out.logits.shape
        hidden = out.hidden_states[-1]
        logits = self.evidence_head(hidden.view(batch, n, *hidden.shape[1:]).mean(1).to(self.evidence_head.weight.dtype))
        out["evidence_start_logits"] = logits[..., 0]
        out["evidence_end_logits"] = logits[..., 1]
        return out

    def _score(self, output: Any, inputs: dict[str, Any], target: Target) -> torch.Tensor:
        return _pick(torch.softmax(output.logits, dim=-1), target.index)

    def _by_option_count(self, texts: list[str], pairs: Sequence[Sequence[str]] | None,
                         run: Callable[[list[str], list[Sequence[str]]], list[Any]]) -> list[Any]:
        """``run`` on the items grouped by their number of options (a batch needs one), results in input order:
        C3's questions have two to four options."""
        if pairs is None or len(pairs) != len(texts):
            raise ValueError("multiple-choice needs one list of options per text (pairs)")
        groups: dict[int, list[int]] = {}
        for i, options in enumerate(pairs):
            groups.setdefault(len(options), []).append(i)
        results: list[Any] = [None] * len(texts)
        for indices in groups.values():
            for i, result in zip(indices, run([texts[i] for i in indices], [pairs[i] for i in indices]), strict=True):
                results[i] = result
        return results

    def predict(self, texts: str | Sequence[str], pairs: Sequence[Sequence[str]] | None = None) -> np.ndarray:
        """Predicted choice ids ``[N]``; items may differ in their number of options."""
        def choices(group_texts: list[str], group_pairs: list[Sequence[str]]) -> list[int]:
            return [int(i) for _, out in self._batches(group_texts, group_pairs) for i in out.logits.argmax(-1)]
        return np.array(self._by_option_count(_as_list(texts, "texts"), pairs, choices), dtype=np.int64)

    def predict_evidence(self, texts: str | Sequence[str], pairs: Sequence[Sequence[str]] | None = None, *,
                         max_evidence_tokens: int = 200) -> list[dict[str, Any]]:
        """Predicted choice and evidence per text: ``{"choice": int, "evidence": {"text", "start", "end",
        "score"}}``, the evidence being the best span of at most ``max_evidence_tokens`` tokens (ExpMRC's 200) of
        the context part every choice's row kept."""
        if self.evidence_head is None:
            raise ValueError(f"{self.name}: no evidence head (train one with evidence on the examples)")
        return self._by_option_count(_as_list(texts, "texts"), pairs,
                                     lambda group_texts, group_pairs: self._evidence(group_texts, group_pairs,
                                                                                     max_evidence_tokens))

    def _evidence(self, texts: list[str], pairs: Sequence[Sequence[str]],
                  max_evidence_tokens: int) -> list[dict[str, Any]]:
        """:meth:`predict_evidence` on items with one number of options."""
        results: list[dict[str, Any]] = []
        for enc, out in self._batches(texts, pairs):
            for b in range(out.logits.shape[0]):
                rows = enc["sequence_ids"][b]
                allowed = torch.tensor([all(r[i] == 0 for r in rows) for i in range(len(rows[0]))], device=self.device)
                evidence = context_span(enc["offset_mapping"][b][0], texts[len(results)],
                                        out["evidence_start_logits"][b], out["evidence_end_logits"][b], allowed,
                                        max_evidence_tokens)
                results.append({"choice": int(out.logits[b].argmax()), "evidence": evidence})
        return results


class EncoderModel(Model):
    """A bare encoder: hidden states of all layers (``hidden_states``) and sentence embeddings (``predict``)."""

    kind = "encoder"
    targets = ()

    def predict(self, texts: str | Sequence[str], pairs: Sequence[str] | None = None) -> np.ndarray:
        """Sentence embeddings ``[N, H]``: attention-masked mean of the last layer, L2-normalised.

        This is the pooling of sentence-transformers' all-MiniLM-L6-v2 and of multilingual-e5 (whose users add
        the ``"query: "`` / ``"passage: "`` prefixes themselves).
        """
        out = []
        for enc, res in self._batches(_as_list(texts, "texts"), pairs):
            mask = enc["attention_mask"].unsqueeze(-1).to(res.last_hidden_state.dtype)
            mean = (res.last_hidden_state * mask).sum(1) / mask.sum(1).clamp(min=1)
            out.append(torch.nn.functional.normalize(mean.float(), dim=-1).cpu().numpy())
        return np.concatenate(out)


#: the kinds that may carry an evidence head (ExpMRC's evidence span over the context)
EVIDENCE_KINDS = ("extractive-qa", "multiple-choice")

KIND_CLASSES: dict[str, type[Model]] = {
    cls.kind: cls for cls in (MaskedLMModel, SequenceClassificationModel, RegressionModel, ExtractiveQAModel,
                              MultipleChoiceModel, EncoderModel)
}

_HEAD_SUFFIXES = (
    ("ForMaskedLM", "masked-lm"), ("ForPreTraining", "masked-lm"), ("ForQuestionAnswering", "extractive-qa"),
    ("ForMultipleChoice", "multiple-choice"), ("Model", "encoder"),
)


def kind_from_config(config: Any) -> str:
    """The kind of a checkpoint, from its config's ``architectures`` (regression = one-label classifier)."""
    archs = getattr(config, "architectures", None) or []
    if not archs:
        raise ValueError("the config names no architectures; pass kind= explicitly")
    arch = archs[0]
    if arch.endswith("ForSequenceClassification"):
        single = config.num_labels == 1 or getattr(config, "problem_type", None) == "regression"
        return "regression" if single else "sequence-classification"
    for suffix, kind in _HEAD_SUFFIXES:
        if arch.endswith(suffix):
            return kind
    raise ValueError(f"architecture {arch!r} is not one of the supported kinds; pass kind= explicitly")


def hf_class(kind: str) -> Any:
    """The ``transformers`` auto class that builds a model of ``kind``."""
    import transformers as tf

    classes = {
        "masked-lm": tf.AutoModelForMaskedLM, "sequence-classification": tf.AutoModelForSequenceClassification,
        "regression": tf.AutoModelForSequenceClassification, "extractive-qa": tf.AutoModelForQuestionAnswering,
        "multiple-choice": tf.AutoModelForMultipleChoice, "encoder": tf.AutoModel,
    }
    if kind not in classes:
        raise ValueError(f"unknown kind {kind!r}; kinds: {', '.join(classes)}")
    return classes[kind]
