"""``build``: from the real source files to one golden file per language, with provenance on every record.

Per language and dimension the rules' candidates are taken evenly (the same share from every rule, spread over
each rule's candidates in file order, so every source file contributes), as many as the paper's Table 3 has
(``PAPER_SIZES``) where the sources give that many; every original gets its partners of the three types where the
rules allow (:func:`~interpeval.benchmarks.plm.perturb.partners`, each re-checked). Candidates the rules reject
and partners that fail their re-check are counted per reason (``BuildSummary.dropped``). The paragraphs, sentences
and problems any zoo masked LM was trained on are always left out. With a masked LM the builder also checks each
original's answer for uniqueness (:mod:`~interpeval.benchmarks.plm.unique`: ``ambiguous_flag`` with its reason
when the model is confident in another word that fits the rule and the gold is not in its top k), a second signal
for review that marks the record and is counted, never a filter. Every rationale is ``silver`` and names the rule that made it.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpeval.benchmarks.plm import computation, grammar, knowledge, reasoning, semantics
from interpeval.benchmarks.plm.perturb import partners as make_partners
from interpeval.benchmarks.plm.records import (
    DIMENSIONS,
    LANGS,
    GoldenRecord,
    Item,
    to_record,
    write_golden,
    write_jsonl,
)
from interpeval.benchmarks.plm.run import rationale_ratios
from interpeval.benchmarks.plm.unique import check as check_uniqueness
from interpeval.errors import DataError, OptionError
from interpeval.models.lineage import content_hash

BUILDERS: dict[str, Callable[[Path, str, Counter[str]], dict[str, list[Item]]]] = {
    "grammar": grammar.grammar_items, "semantics": semantics.semantics_items, "knowledge": knowledge.knowledge_items,
    "reasoning": reasoning.reasoning_items, "computation": computation.computation_items,
}
SOURCES: dict[str, dict[str, tuple[str, ...]]] = {
    "grammar": grammar.SOURCES,
    "semantics": {"en": (semantics.WSC,)},
    "knowledge": knowledge.SOURCES, "reasoning": reasoning.SOURCES, "computation": computation.SOURCES,
}
#: dimensions a language cannot have from the shipped sources, and why
UNAVAILABLE = {("zh", "semantics"): "no Chinese source fixes a word by meaning alone (no Chinese Winograd schemas "
                                    "among the sources; an adjective of a noun has many right answers)"}
#: the paper's Table 3: original/perturbed pairs per language and dimension, and the rationale length ratio (%)
PAPER_SIZES = {"en": {"grammar": 1365, "semantics": 793, "knowledge": 295, "reasoning": 300, "computation": 307},
               "zh": {"grammar": 701, "semantics": 1210, "knowledge": 300, "reasoning": 300, "computation": 400}}
PAPER_RRL = {"en": {"grammar": 29.8, "semantics": 31.6, "knowledge": 45.8, "reasoning": 48.5, "computation": 59.7},
             "zh": {"grammar": 20.7, "semantics": 27.1, "knowledge": 51.5, "reasoning": 43.4, "computation": 54.5}}


@dataclass
class BuildSummary:
    """Counts per language and dimension: originals, partners per perturbation type, unique-flagged records."""

    counts: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    models: dict[str, str | None] = field(default_factory=dict)
    #: candidates skipped per language and dimension because their source text is in ``exclude``
    excluded: dict[str, dict[str, int]] = field(default_factory=dict)
    #: candidates the rules rejected and partners that failed their re-check, per reason
    dropped: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    #: the built RRL (%) per language and dimension, next to the paper's
    rrl: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"counts": self.counts, "unavailable": self.unavailable, "files": self.files, "models": self.models,
                "excluded": self.excluded, "dropped": self.dropped, "rrl": self.rrl}


def source_files(data_dir: Path, langs: Sequence[str]) -> list[Path]:
    """Every source file the build reads; a missing one is an error before any work starts."""
    paths = [data_dir / rel for dim in DIMENSIONS for lang in langs for rel in SOURCES[dim].get(lang, ())]
    missing = [p for p in paths if not p.is_file()]
    if missing:
        raise DataError(missing[0], None, f"source file missing ({len(missing)} missing in all); --data-dir must be a "
                                          "folder laid out like shared/data (ud/, squad/, xquad/, cmrc2018/, "
                                          "plm_rationale/)")
    return paths


def exclusion_hashes(paths: Sequence[str | Path]) -> frozenset[str]:
    """Hashes of every non-empty line of UTF-8 text files — e.g. the ``.txt`` a masked LM was trained on with
    ``interpeval train masked-lm`` (one text per line) — for ``build(exclude=...)``."""
    out = set()
    for path in paths:
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError as err:
            raise DataError(path, None, f"is not UTF-8 text ({err.reason})") from None
        except OSError as err:
            raise DataError(path, None, f"cannot be read ({err.strerror})") from None
        out.update(content_hash(line) for line in lines if line.strip())
    return frozenset(out)


def zoo_trained_hashes() -> frozenset[str]:
    """The texts every shipped zoo masked LM trained on (their ``lineage.json``), whatever is evaluated: the
    build never draws an item from text a zoo model saw."""
    from interpeval.models import lineage
    from interpeval.models.zoo import shipped_heads

    return frozenset().union(*(lineage.read(name).hashes for name in shipped_heads("masked-lm")))


def spread(pools: dict[str, list[Item]], limit: int) -> list[Item]:
    """``limit`` items shared equally among the rules (a short rule's rest goes to the others), each rule's share
    taken at even steps through its candidates."""
    quotas = dict.fromkeys(pools, 0)
    left = limit
    open_rules = [r for r in sorted(pools) if pools[r]]
    while left > 0 and open_rules:
        share = max(1, left // len(open_rules))
        for rule in list(open_rules):
            add = min(share, len(pools[rule]) - quotas[rule], left)
            quotas[rule] += add
            left -= add
            if quotas[rule] >= len(pools[rule]):
                open_rules.remove(rule)
            if left == 0:
                break
    out = []
    for rule in sorted(pools):
        pool, q = pools[rule], quotas[rule]
        out.extend(pool[math.floor(i * len(pool) / q)] for i in range(q))
    return out


def default_data_dir(given: Path | None = None) -> Path:
    """``given``, else ``$INTERPEVAL_DATA``, else the nearest ``shared/data`` above the working directory."""
    if given is not None:
        return Path(given)
    if os.environ.get("INTERPEVAL_DATA"):
        return Path(os.environ["INTERPEVAL_DATA"])
    for folder in [Path.cwd(), *Path.cwd().parents]:
        if (folder / "shared" / "data").is_dir():
            return folder / "shared" / "data"
    raise OptionError("--data-dir", "no source data folder: pass --data-dir (a folder laid out like shared/data) "
                                    "or set INTERPEVAL_DATA")


def build(data_dir: str | Path, out_dir: str | Path, langs: Sequence[str] = LANGS, per_dimension: int | None = None,
          models: dict[str, Any] | None = None, unique_ratio: float = 2.0,
          dimensions: Sequence[str] = DIMENSIONS, exclude: frozenset[str] = frozenset(),
          exclude_zoo: bool = True, flag_k: int = 5, flag_confident: float = 0.3) -> BuildSummary:
    """Build ``plm-<lang>.golden.jsonl`` under ``out_dir`` for each language; returns the counts.

    ``per_dimension``: originals per language and dimension (default: the paper's size, ``PAPER_SIZES``).
    ``models`` maps a language to a loaded masked LM (or None) used for the uniqueness check: an original is
    flagged ``ambiguous_flag`` when the gold is not in the model's ``flag_k`` best fillings and the model gives
    ``flag_confident`` probability to another word that fits the rule.
    ``exclude`` holds :func:`~interpeval.models.lineage.content_hash` values of texts an evaluated model was
    trained on (sentences, paragraphs, problems); candidates from those texts are skipped, and so are those of
    every installed zoo masked LM unless ``exclude_zoo`` is False.
    """
    data_dir, out_dir = Path(data_dir), Path(out_dir)
    unknown = [x for x in langs if x not in LANGS] + [d for d in dimensions if d not in DIMENSIONS]
    if unknown:
        raise ValueError(f"unknown language or dimension {unknown}; languages {LANGS}, dimensions {DIMENSIONS}")
    if per_dimension is not None and per_dimension < 1:
        raise ValueError(f"per_dimension must be >= 1, got {per_dimension}")
    source_files(data_dir, langs)
    if exclude_zoo:
        exclude = exclude | zoo_trained_hashes()
    summary = BuildSummary()
    models = models or {}
    for lang in langs:
        model = models.get(lang)
        summary.models[lang] = None if model is None else model.name
        records: list[GoldenRecord] = []
        summary.counts[lang] = {}
        for dim in dimensions:
            if (lang, dim) in UNAVAILABLE:
                summary.unavailable[f"{lang}/{dim}"] = UNAVAILABLE[(lang, dim)]
                continue
            drops: Counter[str] = Counter()
            candidates = BUILDERS[dim](data_dir, lang, drops)
            pools = {rule: [it for it in pool if it.provenance.get("text_sha1") not in exclude]
                     for rule, pool in candidates.items()}
            summary.excluded.setdefault(lang, {})[dim] = (sum(map(len, candidates.values()))
                                                          - sum(map(len, pools.values())))
            originals = spread(pools, per_dimension or PAPER_SIZES[lang][dim])
            counts = {"originals": len(originals), "ins_del": 0, "replace": 0, "transform": 0}
            for item in originals:
                ori = to_record(item, len(records), _meta(item))
                records.append(ori)
                for partner in make_partners(item, drops):
                    rec = to_record(partner, len(records), {**_meta(partner), "ori_id": ori.sent_id})
                    ori.rel_ids.append(rec.sent_id)
                    records.append(rec)
                    counts[partner.perturbation or ""] += 1
            summary.counts[lang][dim] = counts
            summary.dropped.setdefault(lang, {})[dim] = dict(drops.most_common())
            built = rationale_ratios([r for r in records if r.dimension == dim and r.sample_type == "ori"])
            summary.rrl.setdefault(lang, {})[dim] = {"built": round(100 * built.get(dim, 0.0), 1),
                                                     "paper": PAPER_RRL[lang][dim]}
        if model is not None and records:
            check_uniqueness(records, model, flag_k, flag_confident, unique_ratio)
            for dim, counts in summary.counts[lang].items():
                counts["unique"] = sum(1 for r in records if r.dimension == dim and r.meta["unique"]["unique"])
                counts["ambiguous_flag"] = sum(1 for r in records if r.dimension == dim
                                               and r.meta.get("ambiguous_flag"))
        path = write_golden(out_dir / f"plm-{lang}.golden.jsonl", records)
        summary.files[lang] = str(path)
    write_jsonl(out_dir / "build-summary.jsonl", [summary.to_json()])
    return summary


def _meta(item: Item) -> dict[str, Any]:
    meta: dict[str, Any] = {"lang": item.lang, "dimension": item.dimension, "perturbation": item.perturbation,
                            "label": "silver", "rule": item.rule, "provenance": item.provenance}
    if item.perturbation_rule:
        meta["perturbation_rule"] = item.perturbation_rule
    return meta
