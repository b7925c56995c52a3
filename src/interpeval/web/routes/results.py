"""Results pages and the results API: read-only views of the store's runs (no token needed)."""

from __future__ import annotations

import math
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from interpeval.report import views
from interpeval.web.context import Id, Web, WebDep, found

router = APIRouter()


@router.get("/", response_class=HTMLResponse)
def home(request: Request, web: WebDep) -> HTMLResponse:
    runs = web.cached("runs", views.list_runs)
    counts: dict[str, int] = {}
    for r in runs:
        counts[r["benchmark"]] = counts.get(r["benchmark"], 0) + 1
    return web.page(request, "index.html", counts=counts, n_runs=len(runs), store=str(web.store_file))


@router.get("/runs", response_class=HTMLResponse)
def runs_page(request: Request, web: WebDep, benchmark: str = "", model: str = "", status: str = "",
              q: str = "") -> HTMLResponse:
    everything = web.cached("runs", views.list_runs)
    rows = web.cached("runs", views.list_runs, benchmark or None, model or None, status or None, q or None)
    return web.page(request, "runs.html", runs=rows, filters={"benchmark": benchmark, "model": model,
                                                               "status": status, "q": q},
                    benchmarks=sorted({r["benchmark"] for r in everything}),
                    models=sorted({r["model"] for r in everything}))


def _run_or_404(web: Web, run_id: int) -> Any:
    return found(web.store.get_run, run_id, "run")


@router.get("/runs/{run_id}", response_class=HTMLResponse)
def run_page(request: Request, web: WebDep, run_id: Id, page_no: int = 1, sort: str = "", desc: int = 0,
             q: str = "") -> HTMLResponse:
    info = _run_or_404(web, run_id)
    table = web.cached("instance_table", views.instance_table, run_id, sort, bool(desc), q)
    per_page = 100
    shown = table["rows"][(page_no - 1) * per_page: page_no * per_page]
    first = views.instance_view(web.store, run_id, table["rows"][0]["id"]) if table["rows"] else None
    return web.page(request, "run.html", run=views.run_summary(info),
                    metrics=web.cached("run_metrics", views.run_metrics, run_id),
                    evaluation=web.cached("evaluate_table", views.evaluate_table, run_id),
                    table=table, shown=shown, page_no=page_no,
                    pages=max(1, math.ceil(len(table["rows"]) / per_page)), first=first)


@router.get("/runs/{run_id}/instances/{instance_id}", response_class=HTMLResponse)
def instance_page(request: Request, web: WebDep, run_id: Id, instance_id: str, agg: str = "") -> HTMLResponse:
    _run_or_404(web, run_id)
    try:
        view = views.instance_view(web.store, run_id, instance_id, agg or None)
    except KeyError as err:
        raise HTTPException(404, str(err.args[0])) from None
    return web.page(request, "instance.html", view=view)


@router.get("/leaderboards", response_class=HTMLResponse)
def leaderboards_page(request: Request, web: WebDep) -> HTMLResponse:
    return web.page(request, "leaderboards.html", tables=web.cached("leaderboards", views.leaderboards, web.tasks_dir))


@router.get("/leaderboards/{benchmark}.csv")
def leaderboard_csv(benchmark: str, web: WebDep) -> Response:
    for table in web.cached("leaderboards", views.leaderboards, web.tasks_dir):
        if table["benchmark"] == benchmark:
            return Response(views.leaderboard_csv(table), media_type="text/csv",
                            headers={"Content-Disposition": f'attachment; filename="{benchmark}.csv"'})
    raise HTTPException(404, f"no leaderboard for {benchmark!r}")


@router.get("/probing", response_class=HTMLResponse)
def probing_page(request: Request, web: WebDep) -> HTMLResponse:
    return web.page(request, "probing.html", needs_plotly=True,
                    rows=views.jsonable(web.cached("probing", views.probing_rows, None, web.tasks_dir)))


# results API ----------------------------------------------------------------------------------------------------

@router.get("/api/runs")
def api_runs(web: WebDep, benchmark: str = "", model: str = "", status: str = "", q: str = "") -> JSONResponse:
    return JSONResponse(views.jsonable(web.cached("runs", views.list_runs, benchmark or None, model or None,
                                                  status or None, q or None)))


@router.get("/api/runs/{run_id}")
def api_run(run_id: Id, web: WebDep) -> JSONResponse:
    info = _run_or_404(web, run_id)
    return JSONResponse(views.jsonable({**views.run_summary(info), "metrics": views.run_metrics(web.store, run_id),
                                        "explainers_by_metric": views.evaluate_table(web.store, run_id),
                                        "instances": views.instance_ids(web.store, run_id)}))


@router.get("/api/runs/{run_id}/instances/{instance_id}")
def api_instance(run_id: Id, instance_id: str, web: WebDep) -> JSONResponse:
    _run_or_404(web, run_id)
    try:
        return JSONResponse(views.jsonable(views.instance_view(web.store, run_id, instance_id)))
    except KeyError as err:
        raise HTTPException(404, str(err.args[0])) from None


@router.get("/api/leaderboards")
def api_leaderboards(web: WebDep) -> JSONResponse:
    return JSONResponse(views.jsonable(web.cached("leaderboards", views.leaderboards, web.tasks_dir)))


@router.get("/api/probing")
def api_probing(web: WebDep) -> JSONResponse:
    return JSONResponse(views.jsonable(web.cached("probing", views.probing_rows, None, web.tasks_dir)))
