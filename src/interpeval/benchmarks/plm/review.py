"""A review sheet for people: a seeded random sample of originals per language × dimension with all their
partners, as TSV (one row per record, empty columns for the reviewer's verdicts) and an HTML page with the
masked word and the rationale marked — the paper's iterative workflow of turning silver rationales into gold."""

from __future__ import annotations

import html
import random
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from interpeval.benchmarks.plm.records import DIMENSIONS, MASK, GoldenRecord

VERDICTS = ("original acceptable", "rationale sufficient and compact", "partner acceptable")


def sample(records: Sequence[GoldenRecord], n: int, seed: int) -> list[list[GoldenRecord]]:
    """``n`` originals per (language, dimension), drawn with ``random.Random(seed)``; each with its partners."""
    by_id = {(r.lang, r.sent_id): r for r in records}  # two languages' files both count sent_id from 0
    pools: dict[tuple[str, str], list[GoldenRecord]] = defaultdict(list)
    for r in records:
        if r.sample_type == "ori":
            pools[(r.lang, r.dimension)].append(r)
    rng = random.Random(seed)
    order = sorted(pools, key=lambda k: (k[0], DIMENSIONS.index(k[1]) if k[1] in DIMENSIONS else 99, k[1]))
    groups = []
    for key in order:
        for ori in rng.sample(pools[key], min(n, len(pools[key]))):
            groups.append([ori, *[by_id[(ori.lang, i)] for i in ori.rel_ids if (ori.lang, i) in by_id]])
    return groups


def _marked_text(r: GoldenRecord) -> str:
    sep = "" if r.lang == "zh" else " "
    keep = set(r.rationale)
    return sep.join(f"[{t}]" if i in keep else (f"<{r.answers}>" if t == MASK else t)
                    for i, t in enumerate(r.sent_token))


def write_sheet(groups: Sequence[Sequence[GoldenRecord]], out_dir: str | Path) -> tuple[Path, Path]:
    """``review.tsv`` and ``review.html`` under ``out_dir``; in the TSV the answer is shown as <answer> and the
    rationale tokens as [token]."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    head = ["group", "sent_id", "lang", "dimension", "type", "rule", "answer", "text", "rationale", *VERDICTS,
            "note"]
    rows = ["\t".join(head)]
    blocks = []
    for g, group in enumerate(groups):
        cells = []
        for r in group:
            kind = r.perturbation or "original"
            rule = r.meta.get("perturbation_rule") or r.meta.get("rule", "")
            rationale = " ".join(r.sent_token[i] for i in r.rationale)
            rows.append("\t".join([str(g), str(r.sent_id), r.lang, r.dimension, kind, rule, r.answers,
                                   _marked_text(r).replace("\t", " "), rationale, "", "", "", ""]))
            keep = set(r.rationale)
            sep = "" if r.lang == "zh" else " "
            text = sep.join(f"<mark>{html.escape(t)}</mark>" if i in keep else
                            (f"<b class='mask'>[{html.escape(r.answers)}]</b>" if t == MASK else html.escape(t))
                            for i, t in enumerate(r.sent_token))
            cells.append(f"<tr><td>{r.sent_id}</td><td>{html.escape(kind)}</td><td>{html.escape(rule)}</td>"
                         f"<td>{text}</td></tr>")
        ori = group[0]
        blocks.append(f"<h3>{g}. {ori.lang} {html.escape(ori.dimension)}</h3><table>{''.join(cells)}</table>")
    tsv = out_dir / "review.tsv"
    tsv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    page = out_dir / "review.html"
    page.write_text("<!doctype html><meta charset='utf-8'><title>interpeval plm review</title><style>"
                    "mark{background:#ffe08a} .mask{color:#b00} td{padding:2px 8px;vertical-align:top}"
                    "</style><h1>Masked-LM benchmark review sheet</h1><p>Rationale words are highlighted; the "
                    "masked answer is in red brackets. Judge: " + ", ".join(VERDICTS) + ".</p>"
                    + "".join(blocks), encoding="utf-8")
    return tsv, page
