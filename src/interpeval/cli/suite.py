"""`interpeval suite`: the main job — every benchmark on the bundled real data with the offline zoo.

Each step is exactly a command a user could type (shown in the index page), run in-process one after another
against one results store, so a killed suite resumes: finished runs are found in the store and skipped.
"""

from __future__ import annotations

import contextlib
import io
import time
from importlib import resources
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

# The QUACKIE leaderboard set split by cost: the cheap methods get enough questions for informative 95 % intervals,
# the slow ones keep the original sample (one SQuAD cell on a loaded 2-core machine: 6 questions with Gradient in
# 7 s, 4 with IG-50 in 105 s; LIME/SHAP-100 cost 100 forward passes per question).
FAST_QUACKIE = ("Random", "Gradient=saliency", "SmoothGrad_5=smoothgrad:n_samples=5")
SLOW_QUACKIE = ("IntegratedGradients_50=integrated_gradients:n_steps=50", "LIME_10=lime:n_samples=10",
                "LIME_100=lime:n_samples=100", "SHAP_10=kernel_shap:n_samples=10",
                "SHAP_100=kernel_shap:n_samples=100")


#: the sizes of each step; ``tiny`` runs the same steps (same commands, same code) on a few items each, for tests
PROFILES = {
    "full": {"expmrc": [], "expmrc_title": "baselines, upper bounds, human performance, trained model",
             "quackie": [], "quackie_where": "all domains, both classifiers", "fast": FAST_QUACKIE, "fast_limit": 20,
             "slow": SLOW_QUACKIE, "slow_limit": 3, "encoder": "me5-small", "aggregations": "avg,cls", "ig_steps": 50},
    "tiny": {"expmrc": ["--subsets", "squad,race", "--qa-model", "", "--qa-model-zh", ""],
             "expmrc_title": "baselines, upper bounds, human performance (squad, race; no trained model)",
             "quackie": ["--dataset", "SQuAD"], "quackie_where": "SQuAD, both classifiers",
             "fast": FAST_QUACKIE[:2], "fast_limit": 2, "slow": SLOW_QUACKIE[3:4], "slow_limit": 1,
             "encoder": "tiny-encoder", "aggregations": "avg", "ig_steps": 4},
}


def _methods(specs: tuple[str, ...]) -> list[str]:
    return [arg for spec in specs for arg in ("--method", spec)]


def _labels(specs: tuple[str, ...]) -> str:
    return ", ".join(spec.split("=")[0] for spec in specs)


def _steps(out: Path, store: Path, profile: str = "full") -> list[tuple[str, list[str], Path | None]]:
    """(title, argv, output file to capture stdout into) for every step of the suite."""
    size = PROFILES[profile]
    samples = Path(str(resources.files("interpeval") / "data" / "expmrc" / "sample_submission"))
    sentences = out / "sst2-dev-20.txt"
    steps: list[tuple[str, list[str], Path | None]] = [
        (f"ExpMRC official scorer on the {subset} sample submission",
         ["expmrc", "score", subset, str(samples / f"{subset}.json")], out / "expmrc" / f"score-{subset}.json")
        for subset in ("squad", "cmrc2018", "race", "c3")
    ]
    steps += [
        (f"ExpMRC Table 3: {size['expmrc_title']}",
         ["expmrc", "baselines", *size["expmrc"], "--out", str(out / "expmrc"), "--store", str(store)], None),
        (f"QUACKIE: {size['quackie_where']}; {_labels(size['fast'])} on {size['fast_limit']} questions per cell",
         ["quackie", "run", *size["quackie"], *_methods(size["fast"]), "--limit", str(size["fast_limit"]),
          "--out", str(out / "quackie" / "fast"), "--store", str(store)], None),
        (f"QUACKIE: the slow explainers ({_labels(size['slow'])}) on {size['slow_limit']} questions per cell",
         ["quackie", "run", *size["quackie"], *_methods(size["slow"]), "--limit", str(size["slow_limit"]),
          "--out", str(out / "quackie" / "slow"), "--store", str(store)], None),
        ("UD → SentEval conversion of the bundled treebank samples",
         ["probing", "convert", "--out", str(out / "probing" / "tasks")], None),
        (f"Layer-wise probing with {size['encoder']} (all layers, "
         f"{' + '.join(size['aggregations'].upper().split(','))}, LogReg, shuffled-label control tasks)",
         ["probing", "run", str(out / "probing" / "tasks"), "--model", size["encoder"], "--aggregations",
          size["aggregations"], "--control", "--store", str(store), "--cache", str(out / "probing" / "cache")], None),
        ("Probing views: heatmaps, language matrix, layer curves, clusters",
         ["probing", "report", "--out", str(out / "probing" / "report"), "--store", str(store)], None),
        (f"Integrated gradients ({size['ig_steps']} steps) on the trained SST-2 classifier, 20 real sentences",
         ["attribute", str(sentences), "--model", "minilm-sst2", "--method", "integrated_gradients",
          "--param", f"n_steps={size['ig_steps']}", "--store", str(store)], None),
    ]
    steps += [(step.title, step.argv, step.capture) for step in plugin_steps(out, store, profile)]
    return steps


def plugin_steps(out: Path, store: Path, profile: str) -> list[Any]:
    """The plug-ins' ``suite`` parts (today: the masked-LM and IQS jobs), then — in the full profile — one
    ``interpeval reproduce PAPER --profile quick`` step for every plug-in with a ``reproduce`` part whose jobs do
    not already run it, so the index page opens with every paper next to ours."""
    from interpeval.benchmarks.paper import reproduce_step
    from interpeval.benchmarks.plugin import plugins

    steps = [step for plugin in plugins() if plugin.suite
             for step in plugin.part("suite")(out, store, profile)]
    if profile != "tiny":
        done = {tuple(step.argv[:2]) for step in steps}
        steps += [reproduce_step(plugin.name, plugin.title, out, store) for plugin in plugins()
                  if plugin.reproduce and ("reproduce", plugin.name) not in done]
    return steps


def suite(out: Path = typer.Option(Path("out/suite"), help="Folder for every report and the index page."),
          store: Path = typer.Option(None, help="SQLite store (default: OUT/results.sqlite)."),
          profile: str = typer.Option("full", help="full (the published run) or tiny (the same steps on a few "
                                                   "items each, for tests).")) -> None:
    """Run every benchmark on the bundled data; write OUT/index.html: the summary, leaderboards, probing dashboard
    and example instances (self-contained), linking every benchmark's own pages."""
    from interpeval import validate
    from interpeval.cli import app

    if profile not in PROFILES:
        raise typer.BadParameter(f"choose from {', '.join(PROFILES)}", param_hint="--profile")
    validate.output_dir(out, "--out")
    validate.store(store or out / "results.sqlite", "--store" if store else "--out")
    console = Console()
    out.mkdir(parents=True, exist_ok=True)
    store = store or out / "results.sqlite"
    rows = (resources.files("interpeval") / "data" / "sentences" / "sst2-dev-20.tsv").read_text().splitlines()[1:]
    (out / "sst2-dev-20.txt").write_text("\n".join(r.split("\t")[0] for r in rows) + "\n")
    command = typer.main.get_command(app)
    done = []
    suite_started = time.perf_counter()
    for title, argv, capture in _steps(out, store, profile):
        console.rule(title)
        console.print("$ interpeval " + " ".join(argv), markup=False, highlight=False)
        started = time.perf_counter()
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer) if capture else contextlib.nullcontext():
            command.main(argv, prog_name="interpeval", standalone_mode=False)
        if capture:
            capture.parent.mkdir(parents=True, exist_ok=True)
            capture.write_text(buffer.getvalue())
            console.print(buffer.getvalue().strip(), markup=False, highlight=False)
        done.append({"title": title, "command": "interpeval " + " ".join(argv),
                     "seconds": time.perf_counter() - started})
    console.rule("Report")
    from interpeval.report.static import suite_summary, write_static_report

    links = sorted(str(p.relative_to(out)) for p in out.rglob("*.html") if p.name != "index.html")
    tasks = out / "probing" / "tasks"
    summary = suite_summary(store, done, time.perf_counter() - suite_started, links, tasks, out / "reproduce")
    index = write_static_report(store, out / "index.html", title="interpeval suite", summary=summary,
                                tasks_dir=tasks, examples=2)
    console.print(f"main job wall time {summary['wall_s']:.0f} s; report: {index.resolve()}", markup=False,
                  highlight=False)
