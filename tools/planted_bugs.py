"""Plant each of issue 32's seven bugs in a scratch copy of src/ and run their tests against it (never in the tree).

    python tools/planted_bugs.py                        # all seven; prints each bug's failing tests
    python tools/planted_bugs.py bootstrap_80_percent   # one

A bug printed with no test under it is no longer caught. Copies go to $INTERPEVAL_PLANT_DIR (/tmp/interpeval-planted).
"""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# name → (file under src/, the original text, the planted text, the tests that should fail)
BUGS = {
    "quackie_ties_first_k": (
        "interpeval/benchmarks/quackie/score.py",
        "    kth = np.partition(pred, -k)[-k]\n    return pred >= kth",
        "    out = np.zeros(len(pred), dtype=bool)\n    out[np.argsort(-pred, kind='stable')[:k]] = True\n"
        "    return out",
        ["tests/metrics/test_localisation.py",
         "tests/benchmarks/quackie/test_run.py::test_gt_selected_alone_and_several_annotators"]),
    "expmrc_all_f1_product_of_means": (
        "interpeval/metrics/mrc.py",
        "    return 100.0 * _running_sum([x * y for x, y in zip(a, e, strict=True)]) / len(a)",
        "    return 100.0 * (_running_sum(a) / len(a)) * (_running_sum(e) / len(e))",
        ["tests/metrics/test_mrc.py", "tests/benchmarks/expmrc/test_expmrc_score.py",
         "tests/benchmarks/expmrc/test_expmrc_table_by_hand.py"]),
    "probing_train_as_test": (
        "interpeval/benchmarks/probing/grid.py",
        '        results[layer] = {"accuracy": float(accuracy(ys["te"], pred[i])),',
        '        results[layer] = {"accuracy": float(accuracy(ys["tr"], probe.predict(xs["tr"])[i])),',
        ["tests/benchmarks/probing/test_grid_by_hand.py"]),
    "plm_table4_columns_swapped": (
        "interpeval/benchmarks/plm/tables.py",
        '("ori", [g for g in recs if g.sample_type == "ori"]),\n'
        '                                 ("per", [g for g in recs if g.sample_type == "disturb"])',
        '("per", [g for g in recs if g.sample_type == "ori"]),\n'
        '                                 ("ori", [g for g in recs if g.sample_type == "disturb"])',
        ["tests/benchmarks/plm/test_plm_tables.py"]),
    "plm_interval_z1_ddof0": (
        "interpeval/benchmarks/plm/tables.py",
        "    half = normal_half_width(v)",
        "    half = 1.0 * float(v.std(ddof=0)) / np.sqrt(len(v))",
        ["tests/benchmarks/plm/test_plm_tables.py", "tests/evaluate/test_intervals.py"]),
    "bootstrap_80_percent": (
        "interpeval/stats.py",
        "def bootstrap_ci(values: Sequence[float] | np.ndarray, level: float = 0.95,",
        "def bootstrap_ci(values: Sequence[float] | np.ndarray, level: float = 0.80,",
        ["tests/evaluate/test_intervals.py", "tests/evaluate/test_engine.py::test_bootstrap_ci_by_hand"]),
    "assign_without_admin": (
        "interpeval/web/routes/studies.py",
        '    web.need_user(request, ("admin",))\n    web.check_csrf(request)\n    _study_or_404(web, study_id)\n'
        '    body = await _json_body(request, AssignBody)',
        '    web.need_user(request)\n    web.check_csrf(request)\n    _study_or_404(web, study_id)\n'
        '    body = await _json_body(request, AssignBody)',
        ["tests/web/test_permissions.py"]),
}


def main() -> None:
    only = sys.argv[1:]
    for name, (path, old, new, tests) in BUGS.items():
        if only and name not in only:
            continue
        where = os.path.join(os.environ.get("INTERPEVAL_PLANT_DIR", "/tmp/interpeval-planted"), name)
        shutil.rmtree(where, ignore_errors=True)
        shutil.copytree(os.path.join(ROOT, "src"), os.path.join(where, "src"),
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        planted = os.path.join(where, "src", path)
        with open(planted, encoding="utf-8") as f:
            text = f.read()
        if text.count(old) != 1:
            raise SystemExit(f"{name}: the original text is not found once in {path}; update this script")
        with open(planted, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new))
        env = {**os.environ, "PYTHONPATH": os.path.join(where, "src")}
        run = subprocess.run(["nice", "-n", "10", sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              "-rf", "--no-header", *tests], cwd=ROOT, env=env, capture_output=True, text=True)
        lines = run.stdout.strip().splitlines()
        print(f"## {name}: {lines[-1] if lines else run.stderr[-300:]}", flush=True)
        for line in lines:
            if line.startswith("FAILED "):
                print("   " + line.removeprefix("FAILED ").split(" - ")[0], flush=True)


if __name__ == "__main__":
    main()
