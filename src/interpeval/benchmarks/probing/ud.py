"""Universal Dependencies → SentEval probing tasks, one task per morphological category (REFERENCE §3.1).

Every FEATS key (layered ones such as ``Gender[psor]`` included) becomes a task whose label for a sentence is
that feature's value on one word of the sentence, optionally per UPOS / deprel group. Each CoNLL-U file is read
once, streaming, for all categories at the same time, and files are read in parallel processes.

Two modes:

* ``official=True`` reproduces the Universal Probing Framework's ``ConlluUDParser`` exactly: the labelled word is
  the first match of a pre-order depth-first search from the root, sentence text is
  ``" ".join(nltk.wordpunct_tokenize(# text))``, sentences without metadata are skipped, the split plan depends on
  the number of files (1: 80/10/10, 2: tr + 50/50, 3: as given) with ``train_test_split(stratify, seed 42)`` and the
  rare-value filter, ``va``/``te`` are swapped in the 3-way split, a category is dropped when any file cannot be
  split, by-deprel groups compare the *full* deprel (so ``nsubj:pass`` never joins group ``nsubj``), and the
  ``upos``/``deprel`` constraints are OR-ed when both are given (as the original's ``find_category_token`` does).
* the default fixes what is broken there, each difference pinned by a test:
  the labelled word is the one closest to the root by true tree depth (ties: leftmost); the sentence text is the
  treebank's own ``# text`` (rebuilt from the words and ``SpaceAfter=No`` when missing, never skipped); UD's own
  train/dev/test files are kept as tr/va/te (a missing part is carved out of the training side, stratified);
  part names are correct; a sentence text occurs once per task (test wins over dev over train); deprel groups and
  filters use the base relation (``nsubj:pass`` is in ``nsubj``); a group's label comes from the highest word *of
  that group* (not the highest word overall when it happens to be in the group); both constraints must hold;
  labels with fewer than ``min_count`` training sentences are dropped and every drop is counted in the manifest.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpeval.benchmarks.conllu import ReadStats, read_conllu
from interpeval.benchmarks.probing.splits import OFFICIAL_PLANS, official_file_parts, stratified_parts
from interpeval.errors import DataError, OptionError

SORTINGS = (None, "by_pos", "by_deprel", "by_pos_and_deprel")
SPLIT_FILE = re.compile(r".*-(train|dev|test).*\.conllu")
PART_NAMES = ("tr", "va", "te")


@dataclass
class Treebank:
    """The CoNLL-U files of one treebank in the order the converter uses them, and its language prefix."""

    language: str
    files: list[Path]


@dataclass
class Task:
    """One output file: ``rows`` are ``(part, label, sentence)`` in write order."""

    language: str
    group: str
    category: str
    rows: list[tuple[str, str, str]]
    dropped: dict[str, int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.language}_{self.group}_{self.category}"

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(PART_NAMES, 0)
        for part, _, _ in self.rows:
            out[part] += 1
        return out


@dataclass
class FileExtract:
    """What one pass over one file yields for all categories at once (picklable, sent back from workers)."""

    path: str
    texts: list[str]
    records: dict[Any, list[tuple[int, str, str, str]]]
    categories: dict[str, set[str]]
    stats: ReadStats


def _base(deprel: str) -> str:
    return deprel.split(":")[0]


def _groups(sorting: str | None, upos: str, deprel: str) -> list[str]:
    if sorting is None:
        return ["no_sorting"]
    if sorting == "by_pos":
        return [upos]
    if sorting == "by_deprel":
        return [_base(deprel)]
    return [f"{upos}_{_base(deprel)}"]


def extract_file(job: tuple[str, bool, str | None, str | None, str | None, bool]) -> FileExtract:
    """Read one file and find, per category (and group), the labelled word of every sentence."""
    path, official, sorting, upos, deprel, skip_bad = job
    stats = ReadStats()
    texts: list[str] = []
    records: dict[Any, list[tuple[int, str, str, str]]] = defaultdict(list)
    categories: dict[str, set[str]] = defaultdict(set)
    if official:
        from nltk.tokenize import wordpunct_tokenize
    for sentence in read_conllu(path, skip_bad=skip_bad, stats=stats):
        words = sentence.words
        if official:
            for _, _, w_upos, feats, _, w_deprel, _ in words:
                if feats:
                    for group in (_official_category_groups(sorting, w_upos, w_deprel)):
                        categories[group].update(feats)
            for e_upos, feats, e_deprel in sentence.extra:
                if feats:
                    for group in (_official_category_groups(sorting, e_upos, e_deprel)):
                        categories[group].update(feats)
            if not sentence.metadata:  # the original skips sentences without any metadata
                continue
            if "text" not in sentence.metadata:
                raise DataError(path, f"line {sentence.line}", "sentence has metadata but no '# text' "
                                "(the original converter fails with KeyError here)")
            index = len(texts)
            texts.append(" ".join(wordpunct_tokenize(sentence.metadata["text"] or "")))
            found: set[str] = set()
            for wid in sentence.preorder():
                _, _, w_upos, feats, _, w_deprel, _ = words[wid - 1]
                if not feats or not _official_constraint(upos, deprel, w_upos, w_deprel):
                    continue
                for key, value in feats.items():
                    if key not in found:
                        found.add(key)
                        records[key].append((index, value, w_upos, w_deprel))
        else:
            index = len(texts)
            texts.append(sentence.surface())
            found_groups: set[tuple[str, str]] = set()
            for wid in sentence.by_depth():
                _, _, w_upos, feats, _, w_deprel, _ = words[wid - 1]
                if not feats or not _default_constraint(upos, deprel, w_upos, w_deprel):
                    continue
                for group in _groups(sorting, w_upos, w_deprel):
                    for key, value in feats.items():
                        if (group, key) not in found_groups:
                            found_groups.add((group, key))
                            records[(group, key)].append((index, value, w_upos, w_deprel))
    return FileExtract(str(path), texts, dict(records), dict(categories), stats)


def _official_category_groups(sorting: str | None, upos: str, deprel: str) -> list[str]:
    return ["no_sorting"] if sorting is None else _groups(sorting, upos, deprel)


def _official_constraint(upos: str | None, deprel: str | None, w_upos: str, w_deprel: str) -> bool:
    """QUIRK: the original returns a word when *either* given constraint matches (full deprel compared)."""
    if not upos and not deprel:
        return True
    return bool((deprel and w_deprel == deprel) or (upos and w_upos == upos))


def _default_constraint(upos: str | None, deprel: str | None, w_upos: str, w_deprel: str) -> bool:
    """Both given constraints must hold; a deprel without ':' matches the base relation."""
    if upos and w_upos != upos:
        return False
    if deprel:
        return w_deprel == deprel if ":" in deprel else _base(w_deprel) == deprel
    return True


def _official_in_group(sorting: str | None, group: str, w_upos: str, w_deprel: str) -> bool:
    if sorting is None:
        return True
    if sorting == "by_pos":
        return w_upos == group
    if sorting == "by_deprel":
        return w_deprel == group  # QUIRK: full deprel against the base-relation group name
    pos, _, rel = group.partition("_")
    return w_upos == pos and w_deprel == rel


def language_of(path: str | os.PathLike[str]) -> str:
    """The original's language prefix: ``hi_pud-ud-test.conllu`` → ``hi_pud``."""
    return Path(path).stem.split("-")[0]


def split_files_in(directory: Path) -> list[Path]:
    """CoNLL-U files of one treebank folder ordered train, dev, then others, as the original orders them.

    The original tests ``'train' in str(path)`` on the whole path, so a folder named like ``.../train_runs/``
    ranks every file as train; this looks at the file name only (ties: by name, not ``os.listdir`` order).
    """

    def rank(p: Path) -> int:
        text = p.name
        return 0 if "train" in text else 1 if "dev" in text else 2

    found = sorted((directory.resolve() / name for name in os.listdir(directory) if SPLIT_FILE.match(name)),
                   key=lambda p: p.name)
    return sorted(found, key=rank)


def find_treebanks(inputs: Sequence[str | os.PathLike[str]]) -> list[Treebank]:
    """Files given one by one form one treebank (in the given order, as tr, va, te); a folder is one treebank
    when it holds ``*-(train|dev|test)*.conllu`` files, else every such folder below it (a UD release tree)."""
    paths = [Path(p) for p in inputs]
    for p in paths:
        if not p.exists():
            raise DataError(p, None, "no such file or folder")
    files = [p for p in paths if p.is_file()]
    dirs = [p for p in paths if p.is_dir()]
    if files and dirs:
        raise OptionError("INPUTS", "give either CoNLL-U files of one treebank or folders, not both")
    if files:
        return [Treebank(language_of(files[0]), files)]
    banks = []
    for directory in dirs:
        own = split_files_in(directory)
        if own:
            banks.append(Treebank(language_of(own[0]), own))
            continue
        for sub in sorted(d for d in directory.rglob("*") if d.is_dir()):
            found = split_files_in(sub)
            if found:
                banks.append(Treebank(language_of(found[0]), found))
    if not banks:
        raise DataError(", ".join(map(str, dirs)), None, "no *-(train|dev|test)*.conllu files in it or below it")
    return banks


def _role(path: Path) -> str:
    match = re.search(r"-(train|dev|test)", path.name)
    return match.group(1) if match else "data"


class UDConverter:
    """Convert treebanks to SentEval tasks; see the module docstring for the two modes.

    ``sorting`` groups tasks by ``by_pos``, ``by_deprel`` or ``by_pos_and_deprel``; ``upos`` / ``deprel``
    restrict which word may carry the label; ``workers`` reads files in parallel; ``skip_bad`` skips malformed
    sentences (counted in the manifest) instead of failing; ``va_fraction`` and ``min_count`` apply to the
    default mode only.
    """

    def __init__(self, official: bool = False, sorting: str | None = None, upos: str | None = None,
                 deprel: str | None = None, seed: int = 42, skip_bad: bool = False, workers: int = 1,
                 va_fraction: float = 0.1, min_count: int = 3) -> None:
        self.official = official
        self.sorting = sorting
        self.upos = upos
        self.deprel = deprel
        self.seed = seed
        self.skip_bad = skip_bad
        self.workers = workers
        self.va_fraction = va_fraction
        self.min_count = min_count

    def _check(self) -> None:
        if self.sorting not in SORTINGS:
            raise OptionError("--sorting", f"must be one of {', '.join(map(str, SORTINGS[1:]))} (or not given), got "
                                           f"{self.sorting!r}")
        if self.workers < 1:
            raise OptionError("--workers", f"must be >= 1, got {self.workers}")
        if not 0 < self.va_fraction < 0.5:
            raise OptionError("va_fraction", f"must be in (0, 0.5), got {self.va_fraction}")
        if self.min_count < 1:
            raise OptionError("min_count", f"must be >= 1, got {self.min_count}")

    def extract(self, treebanks: list[Treebank]) -> dict[str, FileExtract]:
        """Read every file once (in parallel when ``workers > 1``)."""
        from interpeval.exec import LocalExecutor

        jobs = [(str(f), self.official, self.sorting, self.upos, self.deprel, self.skip_bad)
                for bank in treebanks for f in bank.files]
        with LocalExecutor(workers=min(self.workers, len(jobs))) as executor:
            results = executor.map(extract_file, jobs)
        return {r.path: r for r in results}

    def tasks(self, inputs: Sequence[str | os.PathLike[str]]) -> tuple[list[Task], dict[str, Any]]:
        """All tasks of all treebanks under ``inputs`` and a manifest of what was read, kept and dropped."""
        self._check()
        treebanks = find_treebanks(inputs)
        if self.official:
            for bank in treebanks:
                if len(bank.files) > 3:
                    raise DataError(bank.files[0].parent, None, "the official converter takes at most 3 files, "
                                    f"found {len(bank.files)}")
        extracts = self.extract(treebanks)
        tasks: list[Task] = []
        manifest: dict[str, Any] = {"mode": "official" if self.official else "default",
                                    "params": self._params(), "treebanks": [], "tasks": [], "dropped": []}
        for bank in treebanks:
            files = [extracts[str(f)] for f in bank.files]
            manifest["treebanks"].append({
                "language": bank.language, "files": [str(f) for f in bank.files],
                "sentences": sum(f.stats.sentences for f in files), "words": sum(f.stats.words for f in files),
                "skipped_sentences": sum(f.stats.skipped for f in files),
                "skip_reasons": [r for f in files for r in f.stats.reasons][:20]})
            made, dropped = (self._official_tasks if self.official else self._default_tasks)(bank, files)
            tasks.extend(made)
            manifest["dropped"].extend(dropped)
        for task in tasks:
            manifest["tasks"].append({"file": f"{task.name}.csv", "language": task.language, "group": task.group,
                                      "category": task.category, "counts": task.counts(),
                                      "dropped": task.dropped})
        return tasks, manifest

    def convert(self, inputs: Sequence[str | os.PathLike[str]], out_dir: str | os.PathLike[str]) -> dict[str, Any]:
        """Write one ``{language}_{group}_{category}.csv`` per task and ``manifest.json`` into ``out_dir``."""
        tasks, manifest = self.tasks(inputs)
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        for task in tasks:
            write_task(out / f"{task.name}.csv", task.rows)
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")
        return manifest

    def _params(self) -> dict[str, Any]:
        return {"sorting": self.sorting, "upos": self.upos, "deprel": self.deprel, "seed": self.seed,
                "skip_bad": self.skip_bad, "va_fraction": self.va_fraction, "min_count": self.min_count}

    def _official_tasks(self, bank: Treebank, files: list[FileExtract]) -> tuple[list[Task], list[dict[str, str]]]:
        splits, partitions = OFFICIAL_PLANS[len(files)]
        groups: dict[str, set[str]] = {}
        for extract in files:
            for group, keys in extract.categories.items():
                groups.setdefault(group, set()).update(keys)
        if self.sorting is None:
            groups = {"no_sorting": groups.get("no_sorting", set())}
        tasks, dropped = [], []
        for group, keys in groups.items():
            for category in sorted(keys):
                rows: list[tuple[str, str, str]] = []
                reason = ""
                for extract, split, partition in zip(files, splits, partitions, strict=True):
                    classified: dict[str, list[str]] = {}
                    for index, label, w_upos, w_deprel in extract.records.get(category, []):
                        if _official_in_group(self.sorting, group, w_upos, w_deprel):
                            classified.setdefault(label, []).append(extract.texts[index])
                    try:
                        parts, why = official_file_parts(classified, split, partition, self.seed)
                    except ValueError as err:
                        raise DataError(extract.path, f"category {category}",
                                        f"stratified split failed ({err}); the original converter fails here too"
                                        ) from None
                    if not parts:
                        reason = f"{Path(extract.path).name}: {why}"
                        break
                    for part, (texts, labels) in parts.items():
                        rows.extend((part, str(label), str(text)) for text, label in zip(texts, labels, strict=True))
                if reason:
                    dropped.append({"task": f"{bank.language}_{group}_{category}", "reason": reason})
                else:
                    tasks.append(Task(bank.language, group, category, rows))
        return tasks, dropped

    def _default_tasks(self, bank: Treebank, files: list[FileExtract]) -> tuple[list[Task], list[dict[str, str]]]:
        roles: dict[str, list[FileExtract]] = defaultdict(list)
        for path, extract in zip(bank.files, files, strict=True):
            roles[_role(path)].append(extract)
        if len(roles) == 1:
            sources = {"all": next(iter(roles.values()))}
        else:
            if "data" in roles:
                raise DataError(roles["data"][0].path, None, "cannot tell its split among several files: the name "
                                "needs -train, -dev or -test")
            sources = {"te": roles["test"] if "test" in roles else roles["dev"]}
            if len(roles) == 3:
                sources["va"] = roles["dev"]
            sources["tr"] = roles["train"] if "train" in roles else roles["dev"]
        keys = sorted({key for extract in files for key in extract.records},
                      key=lambda k: (k[0] != "no_sorting", k[0], k[1]))
        tasks, dropped = [], []
        for group, category in keys:
            task, reason = self._default_task(bank.language, group, category, sources)
            if task is None:
                dropped.append({"task": f"{bank.language}_{group}_{category}", "reason": reason})
            else:
                tasks.append(task)
        return tasks, dropped

    def _default_task(self, language: str, group: str, category: str,
                      sources: dict[str, list[FileExtract]]) -> tuple[Task | None, str]:
        def collect(extracts: Iterable[FileExtract]) -> list[tuple[str, str]]:
            return [(e.texts[i], label) for e in extracts for i, label, _, _ in e.records.get((group, category), [])]

        dropped: dict[str, int] = defaultdict(int)
        parts: dict[str, list[tuple[str, str]]] = {}
        if "all" in sources:
            rows = _dedupe(collect(sources["all"]), set(), dropped, "all")
            fractions = {"tr": 1 - 2 * self.va_fraction, "va": self.va_fraction, "te": self.va_fraction}
            idx = stratified_parts([label for _, label in rows], fractions, self.seed)
            parts = {name: [rows[i] for i in idx[name]] for name in PART_NAMES}
        else:
            seen: set[str] = set()
            parts["te"] = _dedupe(collect(sources["te"]), seen, dropped, "te")
            if "va" in sources:
                parts["va"] = _dedupe(collect(sources["va"]), seen, dropped, "va")
                parts["tr"] = _dedupe(collect(sources["tr"]), seen, dropped, "tr")
            else:
                train = _dedupe(collect(sources["tr"]), seen, dropped, "tr")
                idx = stratified_parts([label for _, label in train], {"tr": 1 - self.va_fraction,
                                                                        "va": self.va_fraction}, self.seed)
                parts["tr"] = [train[i] for i in idx["tr"]]
                parts["va"] = [train[i] for i in idx["va"]]
        counts: dict[str, int] = defaultdict(int)
        for _, label in parts["tr"]:
            counts[label] += 1
        keep = {label for label, n in counts.items() if n >= self.min_count}
        for name in PART_NAMES:
            before = len(parts[name])
            parts[name] = [row for row in parts[name] if row[1] in keep]
            if before - len(parts[name]):
                dropped[f"{name}_rare_or_unseen_label"] += before - len(parts[name])
        if len(keep) < 2:
            return None, f"fewer than 2 labels with >= {self.min_count} training sentences"
        if not parts["va"] or not parts["te"]:
            return None, "no va or te sentences left"
        rows_out = [(name, label, text) for name in PART_NAMES for text, label in parts[name]]
        return Task(language, group, category, rows_out, dict(dropped)), ""


def _dedupe(rows: list[tuple[str, str]], seen: set[str], dropped: dict[str, int], part: str) -> list[tuple[str, str]]:
    """Keep the first occurrence of each sentence text not already in ``seen`` (a later, higher-priority part)."""
    out = []
    for text, label in rows:
        if text in seen:
            dropped[f"{part}_duplicate_sentence"] += 1
            continue
        seen.add(text)
        out.append((text, label))
    return out


def write_task(path: str | os.PathLike[str], rows: Iterable[tuple[str, str, str]]) -> None:
    """SentEval format as the original writes it: tab-separated, ``\\n`` line ends, minimal quoting."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerows(rows)


def task_summary(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """Flat rows (file, tr, va, te) for printing a conversion."""
    return [{"file": t["file"], **t["counts"]} for t in manifest["tasks"]]



def bundled_ud() -> Path:
    """The vendored UD samples (Hindi-PUD test, slices of English-EWT and Russian-Taiga)."""
    from importlib import resources

    return Path(str(resources.files("interpeval") / "data" / "ud"))
