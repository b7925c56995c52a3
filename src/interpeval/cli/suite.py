"""`interpeval suite`: the main job — every benchmark on the bundled real data with the offline zoo.

Each step is exactly a command a user could type (shown in the index page), run in-process one after another
against one results store, so a killed suite resumes: finished runs are found in the store and skipped.
"""

from __future__ import annotations

import contextlib
import html
import io
import time
from importlib import resources
from pathlib import Path

import typer
from rich.console import Console


def _steps(out: Path, store: Path) -> list[tuple[str, list[str], Path | None]]:
    """(title, argv, output file to capture stdout into) for every step of the suite."""
    samples = Path(str(resources.files("interpeval") / "data" / "expmrc" / "sample_submission"))
    sentences = out / "sst2-dev-20.txt"
    steps: list[tuple[str, list[str], Path | None]] = [
        (f"ExpMRC official scorer on the {subset} sample submission",
         ["expmrc", "score", subset, str(samples / f"{subset}.json")], out / "expmrc" / f"score-{subset}.json")
        for subset in ("squad", "cmrc2018", "race", "c3")
    ]
    steps += [
        ("ExpMRC Table 3: baselines, upper bounds, human performance, trained model",
         ["expmrc", "baselines", "--out", str(out / "expmrc"), "--store", str(store)], None),
        ("QUACKIE: all domains, both classifiers, the leaderboard explainers",
         ["quackie", "run", "--out", str(out / "quackie"), "--store", str(store)], None),
        ("UD → SentEval conversion of the bundled treebank samples",
         ["probing", "convert", "--out", str(out / "probing" / "tasks")], None),
        ("Layer-wise probing with me5-small (all layers, AVG + CLS, LogReg)",
         ["probing", "run", str(out / "probing" / "tasks"), "--model", "me5-small", "--store", str(store),
          "--cache", str(out / "probing" / "cache")], None),
        ("Probing views: heatmaps, language matrix, layer curves, clusters",
         ["probing", "report", "--out", str(out / "probing" / "report"), "--store", str(store)], None),
        ("Integrated gradients on the trained SST-2 classifier, 20 real sentences",
         ["attribute", str(sentences), "--model", "minilm-sst2", "--method", "integrated_gradients",
          "--param", "n_steps=50", "--store", str(store)], None),
    ]
    return steps


def suite(out: Path = typer.Option(Path("out/suite"), help="Folder for every report and the index page."),
          store: Path = typer.Option(None, help="SQLite store (default: OUT/results.sqlite).")) -> None:
    """Run every benchmark on the bundled data; write OUT/index.html linking the reports."""
    from interpeval.cli import app

    console = Console()
    out.mkdir(parents=True, exist_ok=True)
    store = store or out / "results.sqlite"
    rows = (resources.files("interpeval") / "data" / "sentences" / "sst2-dev-20.tsv").read_text().splitlines()[1:]
    (out / "sst2-dev-20.txt").write_text("\n".join(r.split("\t")[0] for r in rows) + "\n")
    command = typer.main.get_command(app)
    done = []
    for title, argv, capture in _steps(out, store):
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
        done.append((title, argv, time.perf_counter() - started))
    _write_index(out, done)
    console.print(f"wrote {out / 'index.html'}")


def _write_index(out: Path, done: list[tuple[str, list[str], float]]) -> None:
    reports = sorted(p.relative_to(out) for p in out.rglob("*.html") if p.name != "index.html")
    items = "".join(f"<li><b>{html.escape(t)}</b> ({s:.0f} s)<br><code>interpeval {html.escape(' '.join(a))}</code>"
                    "</li>" for t, a, s in done)
    links = "".join(f'<li><a href="{p}">{p}</a></li>' for p in reports)
    (out / "index.html").write_text(
        "<!doctype html><meta charset='utf-8'><title>interpeval suite</title><h1>interpeval suite</h1>"
        f"<h2>Reports</h2><ul>{links}</ul><h2>Steps</h2><ol>{items}</ol>", encoding="utf-8")
