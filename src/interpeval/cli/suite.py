"""`interpeval suite`: the main job — every benchmark on the bundled real data with the offline zoo.

Each step is exactly a command a user could type (shown in the index page), run in-process one after another
against one results store, so a killed suite resumes: finished runs are found in the store and skipped. The steps
are the benchmark plug-ins' (their ``suite`` part, :mod:`interpeval.plugins`), then the generic ones.
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

from interpeval.plugins import SuiteStep, with_part

#: the sizes of the generic steps; each benchmark's ``jobs`` module keeps its own (``tiny`` runs the same steps, same
#: commands and code, on a few items each, for tests)
PROFILES = {"full": {"ig_steps": 50}, "tiny": {"ig_steps": 4}}


def _steps(out: Path, store: Path, profile: str = "full") -> list[SuiteStep]:
    """Every step of the suite: each benchmark plug-in's ``suite`` steps in plug-in order; in the full profile one
    ``interpeval reproduce PAPER --profile quick`` step for every plug-in with a ``reproduce`` part whose own steps
    do not already run it (so the index page opens with every paper next to ours); then the generic ones."""
    from interpeval.paper import reproduce_step
    from interpeval.plugins import plugins

    steps = [step for _, plugin_steps in with_part("suite") for step in plugin_steps(out, store, profile)]
    if profile != "tiny":
        done = {tuple(step.argv[:2]) for step in steps}
        steps += [reproduce_step(plugin.name, plugin.title, out, store) for plugin in plugins()
                  if plugin.reproduce and ("reproduce", plugin.name) not in done]
    ig_steps = PROFILES[profile]["ig_steps"]
    steps.append(SuiteStep(
        f"Integrated gradients ({ig_steps} steps) on the trained SST-2 classifier, 20 real sentences",
        ["attribute", str(out / "sst2-dev-20.txt"), "--model", "minilm-sst2",
         "--explainer", f"integrated_gradients:n_steps={ig_steps}", "--store", str(store)]))
    return steps


def run_step(step: SuiteStep, console: Console) -> dict[str, Any]:
    """Run one step in-process as the command line it shows (its stdout captured into its file, if it names one);
    what the index page lists of it."""
    from interpeval.cli import app

    console.rule(step.title)
    console.print("$ interpeval " + " ".join(step.argv), markup=False, highlight=False)
    started = time.perf_counter()
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer) if step.capture else contextlib.nullcontext():
        typer.main.get_command(app).main(step.argv, prog_name="interpeval", standalone_mode=False)
    if step.capture:
        step.capture.parent.mkdir(parents=True, exist_ok=True)
        step.capture.write_text(buffer.getvalue())
        console.print(buffer.getvalue().strip(), markup=False, highlight=False)
    return {"title": step.title, "command": "interpeval " + " ".join(step.argv),
            "seconds": time.perf_counter() - started}


def suite(out: Path = typer.Option(Path("out/suite"), help="Folder for every report and the index page."),
          store: Path = typer.Option(None, help="SQLite store (default: OUT/results.sqlite)."),
          profile: str = typer.Option("full", help="full (the published run) or tiny (the same steps on a few "
                                                   "items each, for tests).")) -> None:
    """Run every benchmark on the bundled data; write OUT/index.html: the summary, leaderboards, probing dashboard
    and example instances (self-contained), linking every benchmark's own pages."""
    from interpeval import validate

    if profile not in PROFILES:
        raise typer.BadParameter(f"choose from {', '.join(PROFILES)}", param_hint="--profile")
    validate.output_dir(out, "--out")
    validate.store(store or out / "results.sqlite", "--store" if store else "--out")
    console = Console()
    out.mkdir(parents=True, exist_ok=True)
    store = store or out / "results.sqlite"
    rows = (resources.files("interpeval") / "data" / "sentences" / "sst2-dev-20.tsv").read_text().splitlines()[1:]
    (out / "sst2-dev-20.txt").write_text("\n".join(r.split("\t")[0] for r in rows) + "\n")
    suite_started = time.perf_counter()
    done = [run_step(step, console) for step in _steps(out, store, profile)]
    console.rule("Report")
    from interpeval.report.static import suite_summary, write_static_report

    links = sorted(str(p.relative_to(out)) for p in out.rglob("*.html") if p.name != "index.html")
    tasks = out / "probing" / "tasks"
    summary = suite_summary(store, done, time.perf_counter() - suite_started, links, tasks, out / "reproduce")
    index = write_static_report(store, out / "index.html", title="interpeval suite", summary=summary,
                                tasks_dir=tasks, examples=2)
    console.print(f"main job wall time {summary['wall_s']:.0f} s; report: {index.resolve()}", markup=False,
                  highlight=False)
