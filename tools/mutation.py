"""Mutation testing (mutmut) of the modules that produce published numbers, each against its own tests.

`make mutation` runs it (not part of CI: it is CPU-heavy). Each module is mutated in a scratch copy of the working
tree (so the checkout and its pyproject stay untouched) with only that module's test files selected, under
``nice``; the score per module is killed / (killed + survived + no tests) (figure-drawing functions apart, see
``PRESENTATION``), and the survivors are listed with
`mutmut show` so each can be killed by a test or recorded as equivalent.

    python tools/mutation.py                 # every module below
    python tools/mutation.py evaluate plm    # modules whose key contains one of the words
    python tools/mutation.py --max-children 2
    python tools/mutation.py --tests-from d35c524 evaluate   # the score with an older revision's tests ("before")
    python tools/mutation.py --again consistency   # only the last run's survivors, against today's tests ("after")
    python tools/mutation.py --again --tests-from d35c524 evaluate   # the same after a "before" run
    python tools/mutation.py quackie/tables --tests tests/x/test_fast.py   # every mutant against fast tests only,
    python tools/mutation.py --again quackie/tables    # then only their survivors against all the module's tests
    python tools/mutation.py iqs/tables --mutants '*.x_[!f]*'   # mutmut's name patterns (here: not figure5's)
    python tools/mutation.py evaluate/engine --sample 60   # a random sample (seed 32) when all would take hours:
    python tools/mutation.py evaluate/engine --sample 60 --tests-from 3e2fa71   # the same sample, older tests
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRATCH = Path(os.environ.get("INTERPEVAL_MUTATION_DIR", "/tmp/interpeval-mutation"))
# key → (files to mutate, the tests that own them); a module's figure code is scored apart (see PRESENTATION)
MODULES: dict[str, tuple[list[str], list[str]]] = {
    "stats": (["src/interpeval/stats.py"], [
        "tests/evaluate/test_intervals.py", "tests/evaluate/test_engine.py::test_bootstrap_ci_by_hand"]),
    "metrics/probing": (["src/interpeval/metrics/probing.py"], ["tests/metrics/test_probing_prediction.py",
                                                                "tests/benchmarks/probing/test_grid_by_hand.py"]),
    "metrics/localisation": (["src/interpeval/metrics/localisation.py"], ["tests/metrics/test_localisation.py"]),
    "metrics/mrc": (["src/interpeval/metrics/mrc.py"], ["tests/metrics/test_mrc.py"]),
    "metrics/consistency": (["src/interpeval/metrics/consistency.py"], ["tests/metrics/test_consistency.py"]),
    "metrics/plausibility": (["src/interpeval/metrics/plausibility.py"], ["tests/metrics/test_plausibility.py"]),
    "metrics/faithfulness": (["src/interpeval/metrics/faithfulness.py"], ["tests/metrics/test_faithfulness.py"]),
    "metrics/iqs": (["src/interpeval/metrics/iqs.py"], ["tests/metrics/test_iqs.py"]),
    "metrics/prediction": (["src/interpeval/metrics/prediction.py"], ["tests/metrics/test_probing_prediction.py"]),
    "metrics/rationale": (["src/interpeval/metrics/rationale.py"], ["tests/metrics/test_consistency.py"]),
    # the registry, the Evidence → parameter filling and the input checks every metric goes through
    "metrics/base": (["src/interpeval/metrics/base.py"], ["tests/metrics"]),
    "metrics/_checks": (["src/interpeval/metrics/_checks.py"], ["tests/metrics"]),
    "metrics/catalogue": (["src/interpeval/metrics/catalogue.py"], ["tests/metrics/test_catalogue.py"]),
    "quackie/score": (["src/interpeval/benchmarks/quackie/score.py"], [
        "tests/metrics/test_localisation.py",
        "tests/benchmarks/quackie/test_run.py::test_run_rows_stored_metrics_and_report_are_one_scoring",
        "tests/benchmarks/quackie/test_run.py::test_gt_selected_alone_and_several_annotators"]),
    "quackie/tables": (["src/interpeval/benchmarks/quackie/tables.py"], [
        "tests/benchmarks/quackie/test_quackie_tables_by_hand.py",
        "tests/benchmarks/quackie/test_run.py::test_outputs_results_json_and_report",
        "tests/benchmarks/quackie/test_run.py::test_cli_run_writes_the_outputs",
        "tests/benchmarks/quackie/test_run.py::test_run_rows_stored_metrics_and_report_are_one_scoring"]),
    "expmrc/score": (["src/interpeval/benchmarks/expmrc/score.py"], ["tests/benchmarks/expmrc/test_expmrc_score.py"]),
    "expmrc/tables": (["src/interpeval/benchmarks/expmrc/tables.py"], [
        "tests/benchmarks/expmrc/test_expmrc_table_by_hand.py", "tests/benchmarks/expmrc/test_expmrc_cli.py",
        "tests/benchmarks/expmrc/test_expmrc_reproduce.py::test_human_row_labels_the_fixed_answer_score"]),
    "iqs/score": (["src/interpeval/benchmarks/iqs/score.py"], [
        "tests/benchmarks/iqs/test_iqs_score.py", "tests/benchmarks/iqs/test_iqs_report_by_hand.py"]),
    "iqs/tables": (["src/interpeval/benchmarks/iqs/tables.py"], [
        "tests/benchmarks/iqs/test_iqs_tables_by_hand.py",
        "tests/benchmarks/iqs/test_iqs_report_by_hand.py", "tests/benchmarks/iqs/test_iqs_score.py",
        "tests/benchmarks/iqs/test_iqs_cli.py"]),
    "plm/tables": (["src/interpeval/benchmarks/plm/tables.py"], [
        "tests/benchmarks/plm/test_plm_tables.py",
        "tests/benchmarks/plm/test_plm_run.py::test_map_over_pairs_leaves_transformations_out",
        "tests/benchmarks/plm/test_plm_run.py::test_majority_baseline_leaves_each_original_and_its_partners_out"]),
    "web/permissions": (["src/interpeval/web/context.py", "src/interpeval/web/routes/auth.py",
                         "src/interpeval/web/routes/studies.py"], [
        # the same table as the real-HTTP one, in process on a fresh store (the seeded store's public pages add no
        # code of these files, and cost a minute per mutant), and what each route answers
        "tests/web/test_permissions.py::test_study_route_by_role_in_a_fresh_store",
        "tests/web/test_study_routes_by_hand.py"]),
    "evaluate/engine": (["src/interpeval/evaluate/engine.py"], ["tests/evaluate/test_engine_by_hand.py",
                                                                "tests/evaluate/test_engine.py"]),
}
# Functions that only draw a figure (colours, sizes, layout): their mutants are counted apart from the score of
# the numbers a module publishes, as ``presentation``.
PRESENTATION = {"figure", "figure5"}
IGNORE = shutil.ignore_patterns(".git", ".venv", "out", "mutants", "__pycache__", "*.egg-info")


def _scratch(key: str, files: list[str], tests: list[str], tests_from: str | None) -> Path:
    where = SCRATCH / (key.replace("/", "-") + (f"-{tests_from}" if tests_from else ""))
    shutil.rmtree(where, ignore_errors=True)
    shutil.copytree(ROOT, where, ignore=IGNORE)
    if tests_from:  # that revision's tests/ in place of today's; test files it did not have are left out
        shutil.rmtree(where / "tests")
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", tests_from, "tests"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
        tests = [t for t in tests if (where / t.split("::")[0]).exists()]
        if not tests:  # an empty selection would make mutmut run the whole suite for every mutant
            raise SystemExit(f"{key}: none of its tests exist at {tests_from}")
    for f in files:
        (where / f).write_text(_undecorated((where / f).read_text()))
    config = where / "pyproject.toml"  # mutmut reads [tool.mutmut] from here: the copy's own settings
    text = config.read_text()
    text += ("\n[tool.mutmut]\n"
             f"source_paths = [\"src\"]\nonly_mutate = {json.dumps(files)}\n"
             f"pytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
             "pytest_add_cli_args = [\"-p\", \"no:cacheprovider\", \"-x\", \"-q\"]\n"
             "also_copy = [\"docs\"]\n")  # tests/metrics/test_catalogue.py reads docs/metrics.md
    config.write_text(text)
    return where


def _undecorated(source: str) -> str:
    """mutmut 3 leaves decorated functions unmutated, and every metric is registered by a decorator: in the scratch
    copy only, ``@deco(...)`` above a top-level ``def f`` becomes ``f = deco(...)(f)`` after it (same behaviour)."""
    import ast

    lines = source.splitlines(keepends=True)
    # a cached function stays decorated: its cache, filled in mutmut's parent before the fork, would answer for
    # the mutant (every mutant of metrics/mrc.py's ``_segmentation`` "survived" that way)
    nodes = [n for n in ast.parse(source).body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
             and n.decorator_list and not any("cache" in ast.get_source_segment(source, d) for d in n.decorator_list)]
    for node in reversed(nodes):  # bottom-up: earlier line numbers stay valid
        wrapped = node.name
        for deco in reversed(node.decorator_list):
            wrapped = f"({ast.get_source_segment(source, deco)})({wrapped})"
        first = node.decorator_list[0].lineno - 1
        lines[node.end_lineno:node.end_lineno] = [f"{node.name} = {wrapped}\n"]
        del lines[first:node.lineno - 1]
    return "".join(lines)


def _function(mutant: str) -> str:
    """``pkg.mod.x_name__mutmut_3`` (or ``xǁClassǁname__mutmut_3``) → ``name``."""
    return re.sub(r"__mutmut_\d+$", "", mutant.rsplit(".", 1)[-1]).split("ǁ")[-1].removeprefix("x_")


def _codes(where: Path) -> dict[str, int | None]:
    """Every generated mutant's exit code from mutmut's per-file ``.meta`` records (None: not run)."""
    codes: dict[str, int | None] = {}
    for meta in (where / "mutants").rglob("*.meta"):
        codes.update(json.loads(meta.read_text()).get("exit_code_by_key", {}))
    return codes


def _counts(where: Path, only: list[str] | None = None) -> dict[str, int]:
    """Outcomes (exit 0 = survived, 33 = no tests, timeouts apart) of every mutant or of ``only``; mutants of
    :data:`PRESENTATION` functions are counted once, as ``presentation``."""
    counts = {"killed": 0, "survived": 0, "no tests": 0, "timeout": 0, "other": 0, "presentation": 0}
    codes = _codes(where)
    for mutant in codes if only is None else only:
        name = {0: "survived", 1: "killed", 33: "no tests", 36: "timeout", None: "other"}.get(codes.get(mutant),
                                                                                                "killed")
        counts["presentation" if _function(mutant) in PRESENTATION else name] += 1
    return counts


def _survivors(where: Path, mutmut: list[str], env: dict[str, str], outcomes: tuple[str, ...] = ("survived",)
               ) -> list[str]:
    listing = subprocess.run([*mutmut, "results"], cwd=where, env=env, capture_output=True, text=True).stdout
    return [m.strip() for m, _, outcome in (line.partition(":") for line in listing.splitlines())
            if outcome.strip() in outcomes and _function(m.strip()) not in PRESENTATION]


def run(key: str, max_children: int, tests_from: str | None = None, again: bool = False,
        only_tests: list[str] | None = None, patterns: list[str] | None = None, sample: int | None = None,
        seed: int = 32) -> dict[str, object]:
    """Mutate ``key`` in a fresh scratch copy; ``again``: re-run only the survivors of the last run there, with the
    working tree's tests copied in (the source must be unchanged since that run); ``only_tests``: select these
    tests instead of the module's own (a fast first pass whose survivors ``again`` then runs against them all);
    ``patterns``: run only the mutants whose names match (fnmatch), e.g. to leave a figure's out; ``sample``: score
    only a random sample of that many (of those matching ``patterns``; the same ``seed`` draws the same sample
    whatever the tests), in the scratch copy a run with the same ``tests_from`` left (made first when there is
    none), re-running the sampled mutants not yet killed against the selected tests."""
    files, tests = MODULES[key]
    if only_tests and not again:
        tests = only_tests
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the mutated copy must win over any tree
    # mutmut forks each mutant from a process that has run the tests: a torch op there started OpenMP threads, and
    # a forked child then waits forever on their barrier (seen on the model-running QUACKIE / ExpMRC tests)
    env["OMP_NUM_THREADS"] = "1"
    mutmut = [sys.executable, "-m", "mutmut"]
    names: list[str] = []
    sampled: list[str] | None = None
    where = SCRATCH / (key.replace("/", "-") + (f"-{tests_from}" if tests_from else ""))
    if sample and not (where / "mutants").is_dir():  # generate the mutants (and mutmut's test map), run none
        where = _scratch(key, files, tests, tests_from)
        subprocess.run(["nice", "-n", "15", *mutmut, "run", "--max-children", str(max_children), "no mutant*"],
                       cwd=where, env=env, check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)  # it ends with "nothing matches", as asked
    elif sample and not tests_from:  # today's tests, as --again copies them (the selection stays: changing it
        shutil.rmtree(where / "tests")  # makes mutmut forget every result)
        shutil.copytree(ROOT / "tests", where / "tests", ignore=IGNORE)
    if sample:
        for f in files:
            if (where / f).read_text() != _undecorated((ROOT / f).read_text()):
                raise SystemExit(f"{f} changed since the last run in {where}: start a fresh scratch")
        codes = _codes(where)
        population = sorted(m for m in codes if not patterns or any(fnmatch.fnmatch(m, p) for p in patterns))
        sampled = sorted(random.Random(seed).sample(population, min(sample, len(population))))
        names = [m for m in sampled if codes[m] in (None, 0, 33)]
    elif again:  # the scratch copy the last run of ``key`` (with ``tests_from``'s tests, if given) left
        where = SCRATCH / (key.replace("/", "-") + (f"-{tests_from}" if tests_from else ""))
        for f in files:
            if (where / f).read_text() != _undecorated((ROOT / f).read_text()):
                raise SystemExit(f"{f} changed since the last run in {where}: run it in full")
        names = _survivors(where, mutmut, env, ("survived", "no tests"))
        shutil.rmtree(where / "tests")
        shutil.copytree(ROOT / "tests", where / "tests", ignore=IGNORE)
        config = where / "pyproject.toml"  # today's selection: test files added since a --tests-from run included
        config.write_text(re.sub(r"^pytest_add_cli_args_test_selection = .*$",
                                 lambda _: f"pytest_add_cli_args_test_selection = {json.dumps(tests)}",
                                 config.read_text(), flags=re.M))
    else:
        where = _scratch(key, files, tests, tests_from)
        names = list(patterns or [])
    if names or not sample:
        subprocess.run(["nice", "-n", "15", *mutmut, "run", "--max-children", str(max_children), *names],
                       cwd=where, env=env, check=False, stdout=subprocess.DEVNULL)
    counts = _counts(where, sampled)
    scored = counts["killed"] + counts["survived"] + counts["no tests"]
    if sampled is None:
        survivors = _survivors(where, mutmut, env)
    else:
        codes = _codes(where)
        survivors = [m for m in sampled if codes[m] in (0, 33)]
    out = {"module": key, "tests": "working tree" if again or not tests_from else tests_from, "again": again,
           "selection": tests, **counts, "score": round(counts["killed"] / scored, 3) if scored else None,
           "survivors": survivors}
    if sampled is not None:
        from interpeval.stats import wilson

        out["sample"] = {"n": len(sampled), "of": len(population), "seed": seed,
                         "score_95": [round(v, 3) for v in wilson(counts["killed"], scored)]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="*", help="run only modules whose key contains one of these words")
    parser.add_argument("--max-children", type=int, default=1)
    parser.add_argument("--tests-from", help="a git revision whose tests/ to use (a 'before' score)")
    parser.add_argument("--tests", nargs="+", metavar="TEST",
                        help="select these tests instead of the module's own (not with --again)")
    parser.add_argument("--mutants", nargs="+", metavar="PATTERN", help="run only the mutants matching these")
    parser.add_argument("--sample", type=int, metavar="N", help="score a random sample of N mutants (see run())")
    parser.add_argument("--seed", type=int, default=32, help="the sample's seed")
    parser.add_argument("--again", action="store_true",
                        help="re-run only the last run's survivors, with the working tree's tests (an 'after' score)")
    args = parser.parse_args()
    if args.sample and args.again:
        parser.error("--sample re-runs its sampled mutants not yet killed by itself: give it without --again")
    keys = [k for k in MODULES if not args.only or any(word in k for word in args.only)]
    for key in keys:
        print(json.dumps(run(key, args.max_children, args.tests_from, args.again, args.tests, args.mutants,
                             args.sample, args.seed), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
