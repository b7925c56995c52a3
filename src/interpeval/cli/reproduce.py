"""`interpeval reproduce PAPER`: run a paper's protocol and write its tables with ours beside every published cell.

PAPER is a benchmark plug-in with a ``reproduce`` part (:mod:`interpeval.plugins`). The plug-in prints its
cost estimate before any work and its progress as it goes (through ``context.extra["log"]``); all its work is stored
runs, so the same command after a kill resumes where it stopped and after a finished run computes nothing. The
report is also kept in the store with the ids of the runs it was built from (``interpeval serve`` shows it at
``/paper``).
"""


import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from interpeval.cli.executors import executor_options

PROFILES = ("quick", "paper", "tiny")
# no `from __future__ import annotations` here: with string annotations, @executor_options loses the options' help


@executor_options
def reproduce(
    paper: Annotated[str, typer.Argument(help="the benchmark whose paper to reproduce: quackie, expmrc, plm, "
                                              "probing or iqs (a name without a reproduction lists those that have "
                                              "one)")],
    profile: Annotated[str, typer.Option(help="quick (the main job's sizes), paper (the paper's sample sizes on "
                                              "everything the data holds) or tiny (a smoke test)")] = "quick",
    out: Annotated[Path, typer.Option(help="folder for reproduce-PAPER.md / .json / .html")] = Path("reproduce"),
    store: Annotated[Path | None, typer.Option(help="results database; a rerun with the same store resumes "
                                                    "(default: $INTERPEVAL_STORE or the user data dir)")] = None,
    data_dir: Annotated[Path | None, typer.Option(help="folder with the full data files (default: the data "
                                                       "shipped with interpeval)")] = None,
    only: Annotated[list[str] | None, typer.Option(help="run only these parts of the profile (a dataset, "
                                                        "classifier or method the paper's plug-in knows; repeat for "
                                                        "several) and report everything the store holds — a long "
                                                        "paper profile in pieces")] = None,
) -> None:
    """Reproduce a paper: its tables with ours beside every published cell (n, 95 % interval, why it differs) and
    its findings, each holds / does not hold / cannot be tested here."""
    from interpeval import plugins as plugin
    from interpeval import validate
    from interpeval.errors import OptionError
    from interpeval.exec import current_executor
    from interpeval.paper import ReproduceContext
    from interpeval.report.reproduce import to_json, write_reproduction
    from interpeval.store import Store
    from interpeval.store.sqlite import default_store_path, recording_runs

    available = [p.name for p in plugin.plugins() if p.reproduce]
    if paper not in available:
        raise OptionError("PAPER", f"no reproduction for {paper!r}; choose from {', '.join(available) or 'none'}")
    validate.one_of(profile, PROFILES, "--profile")
    validate.output_dir(out, "--out")
    validate.store(store)
    if data_dir is not None:
        validate.input_dir(data_dir, "--data-dir")
    run = plugin.get(paper).part("reproduce")
    if not callable(run):
        run = run.reproduce
    # a paper's plug-in may offer fewer profiles than the command knows (no tiny ExpMRC or IQS run)
    validate.one_of(profile, tuple(getattr(sys.modules[run.__module__], "PROFILES", PROFILES)), "--profile")
    context = ReproduceContext(profile=profile, out=out, store=store or default_store_path(),
                               executor=_executor_name(current_executor()), data_dir=data_dir,
                               extra={"log": typer.echo, "only": tuple(only or ())})
    start = time.perf_counter()
    with recording_runs() as used:
        report = run(context)
    paths = write_reproduction(report, out)
    with Store(context.store) as results:  # the web app's /paper page shows it, linked to the runs it read
        results.put_paper_report(report.paper, report.profile, to_json(report), used)
    typer.echo(f"reproduce {paper} ({profile}): {time.perf_counter() - start:.0f} s; wrote "
               + ", ".join(str(p) for p in paths.values()))
    for finding in report.findings:
        typer.echo(f"  {finding.verdict}: {finding.claim}")


def _executor_name(executor: object) -> str:
    """``ray`` for a Ray executor, else ``local`` (the names ``--executor`` takes)."""
    return "ray" if "ray" in type(executor).__name__.lower() else "local"
