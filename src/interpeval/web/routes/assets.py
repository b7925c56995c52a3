"""Static files (ours, plotly.js and Swagger UI from their installed packages) and the API docs page."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from interpeval.report.render import asset, plotly_js_path, render
from interpeval.web.openapi import openapi_30

router = APIRouter(include_in_schema=False)
#: the files of Swagger UI that /api/docs loads, served from the installed ``swagger-ui-bundle`` package
SWAGGER_FILES = {"swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css"}


@router.get("/static/plotly.min.js")
def plotly_js() -> FileResponse:
    return FileResponse(plotly_js_path(), media_type="text/javascript",
                        headers={"Cache-Control": "public, max-age=86400"})


@router.get("/api/docs", response_class=HTMLResponse)
def api_docs() -> HTMLResponse:
    return HTMLResponse(render("api_docs.html"))


@router.get("/api/docs/openapi-3.0.json")
def api_docs_schema(request: Request) -> JSONResponse:
    return JSONResponse(openapi_30(request.app.openapi()))


@router.get("/static/swagger/{name}")
def swagger_file(name: str) -> FileResponse:
    if name not in SWAGGER_FILES:
        raise HTTPException(404, "no such file")
    return FileResponse(swagger_ui_path(name), media_type=SWAGGER_FILES[name],
                        headers={"Cache-Control": "public, max-age=86400"})


@router.get("/static/{name}")
def static_file(name: str) -> Response:
    try:
        text = asset(name)
    except KeyError:
        raise HTTPException(404, "no such file") from None
    media = "text/css" if name.endswith(".css") else "text/javascript"
    return Response(text, media_type=media)


def swagger_ui_path(name: str) -> Path:
    """One of :data:`SWAGGER_FILES` as shipped inside the installed ``swagger-ui-bundle`` package (never a CDN)."""
    if name not in SWAGGER_FILES:
        raise KeyError(name)
    try:
        from swagger_ui_bundle import swagger_ui_path as folder
    except ImportError as err:
        raise RuntimeError("the API docs page needs swagger-ui-bundle: pip install 'interpeval[web]'") from err
    return Path(folder) / name
