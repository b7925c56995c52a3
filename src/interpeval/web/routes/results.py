"""Results pages and the results API: read-only views of the store's runs (no token needed).

Every route here is served through :meth:`Web.serve`: the finished response is kept per store version and a repeat
is answered from the event loop, without the thread pool or the template engine."""

from __future__ import annotations

import math
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from interpeval.paper import VERDICTS
from interpeval.report import views
from interpeval.web.context import Id, Web, WebDep, found

router = APIRouter()


@router.get("/", response_class=HTMLResponse)
async def home(request: Request, web: WebDep) -> Response:
    def produce() -> Response:
        runs = web.cached("runs", views.list_runs)
        counts: dict[str, int] = {}
        for r in runs:
            counts[r["benchmark"]] = counts.get(r["benchmark"], 0) + 1
        return web.page(request, "index.html", counts=counts, n_runs=len(runs), store=str(web.store_file))

    return await web.serve(request, ("home",), produce, personal=True)


@router.get("/runs", response_class=HTMLResponse)
async def runs_page(request: Request, web: WebDep, benchmark: str = "", model: str = "", status: str = "",
                    q: str = "") -> Response:
    def produce() -> Response:
        everything = web.cached("runs", views.list_runs)
        rows = web.cached("runs", views.list_runs, benchmark or None, model or None, status or None, q or None)
        return web.page(request, "runs.html", runs=rows, filters={"benchmark": benchmark, "model": model,
                                                                   "status": status, "q": q},
                        benchmarks=sorted({r["benchmark"] for r in everything}),
                        models=sorted({r["model"] for r in everything}))

    return await web.serve(request, ("runs", benchmark, model, status, q), produce, personal=True)


def _run_or_404(web: Web, run_id: int) -> Any:
    return found(web.store.get_run, run_id, "run")


@router.get("/runs/{run_id}", response_class=HTMLResponse)
async def run_page(request: Request, web: WebDep, run_id: Id, page_no: int = 1, sort: str = "", desc: int = 0,
                   q: str = "") -> Response:
    def produce() -> Response:
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

    return await web.serve(request, ("run", run_id, page_no, sort, desc, q), produce, personal=True)


def _instance_view(web: Web, run_id: int, instance_id: str, agg: str = "") -> dict[str, Any]:
    _run_or_404(web, run_id)
    try:
        return views.instance_view(web.store, run_id, instance_id, agg or None)
    except KeyError as err:
        raise HTTPException(404, str(err.args[0])) from None


@router.get("/runs/{run_id}/instances/{instance_id}", response_class=HTMLResponse)
async def instance_page(request: Request, web: WebDep, run_id: Id, instance_id: str, agg: str = "") -> Response:
    def produce() -> Response:
        return web.page(request, "instance.html", view=_instance_view(web, run_id, instance_id, agg))

    return await web.serve(request, ("instance", run_id, instance_id, agg), produce, personal=True)


@router.get("/leaderboards", response_class=HTMLResponse)
async def leaderboards_page(request: Request, web: WebDep) -> Response:
    def produce() -> Response:
        return web.page(request, "leaderboards.html",
                        tables=web.cached("leaderboards", views.leaderboards, web.tasks_dir))

    return await web.serve(request, ("leaderboards",), produce, personal=True)


@router.get("/leaderboards/{benchmark}.csv")
async def leaderboard_csv(request: Request, benchmark: str, web: WebDep) -> Response:
    def produce() -> Response:
        for table in web.cached("leaderboards", views.leaderboards, web.tasks_dir):
            if table["benchmark"] == benchmark:
                return Response(views.leaderboard_csv(table), media_type="text/csv",
                                headers={"Content-Disposition": f'attachment; filename="{benchmark}.csv"'})
        raise HTTPException(404, f"no leaderboard for {benchmark!r}")

    return await web.serve(request, ("leaderboard_csv", benchmark), produce)


@router.get("/probing", response_class=HTMLResponse)
async def probing_page(request: Request, web: WebDep) -> Response:
    def produce() -> Response:
        return web.page(request, "probing.html", needs_plotly=True,
                        rows=views.jsonable(web.cached("probing", views.probing_rows, None, web.tasks_dir)))

    return await web.serve(request, ("probing",), produce, personal=True)


@router.get("/paper", response_class=HTMLResponse)
async def paper_page(request: Request, web: WebDep) -> Response:
    def produce() -> Response:
        return web.page(request, "paper.html", reports=web.cached("paper", views.paper_reports),
                        verdicts=VERDICTS, store=str(web.store_file))

    return await web.serve(request, ("paper",), produce, personal=True)


# results API ----------------------------------------------------------------------------------------------------

def _json(value: Any) -> JSONResponse:
    return JSONResponse(views.jsonable(value))


@router.get("/api/runs")
async def api_runs(request: Request, web: WebDep, benchmark: str = "", model: str = "", status: str = "",
                   q: str = "") -> Response:
    return await web.serve(request, ("api_runs", benchmark, model, status, q), lambda: _json(web.cached(
        "runs", views.list_runs, benchmark or None, model or None, status or None, q or None)))


@router.get("/api/runs/{run_id}")
async def api_run(request: Request, run_id: Id, web: WebDep) -> Response:
    def produce() -> Response:
        info = _run_or_404(web, run_id)
        return _json({**views.run_summary(info), "metrics": views.run_metrics(web.store, run_id),
                      "explainers_by_metric": views.evaluate_table(web.store, run_id),
                      "instances": views.instance_ids(web.store, run_id)})

    return await web.serve(request, ("api_run", run_id), produce)


@router.get("/api/runs/{run_id}/instances/{instance_id}")
async def api_instance(request: Request, run_id: Id, instance_id: str, web: WebDep) -> Response:
    return await web.serve(request, ("api_instance", run_id, instance_id),
                           lambda: _json(_instance_view(web, run_id, instance_id)))


@router.get("/api/leaderboards")
async def api_leaderboards(request: Request, web: WebDep) -> Response:
    return await web.serve(request, ("api_leaderboards",),
                           lambda: _json(web.cached("leaderboards", views.leaderboards, web.tasks_dir)))


@router.get("/api/probing")
async def api_probing(request: Request, web: WebDep) -> Response:
    return await web.serve(request, ("api_probing",),
                           lambda: _json(web.cached("probing", views.probing_rows, None, web.tasks_dir)))
