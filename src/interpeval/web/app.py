"""The FastAPI application: server-rendered pages (Jinja2) and a JSON API under ``/api/`` over one SQLite store.

Results pages are read-only views of the store. Study pages and ``/api/studies`` need a user token, sent as
``Authorization: Bearer <token>`` (scripts) or the ``ie_token`` cookie set by ``/login`` or an invite link
(browsers). Every state-changing request made with the cookie must carry the CSRF token (a form field ``csrf`` or
the ``X-CSRF-Token`` header), an HMAC of the user's token under a per-server secret. Bodies over ``max_body`` bytes
are refused with 413 before they are read in full.

The routes live in :mod:`interpeval.web.routes` (assets, results, auth, studies); what they share (the store, the
view cache, the auth helpers) in :class:`interpeval.web.context.Web`. This module assembles them with the security
headers, the error pages and the body limit.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders

from interpeval.report import views
from interpeval.report.render import render
from interpeval.store.sqlite import StoreUnavailable
from interpeval.web.context import Web
from interpeval.web.openapi import document_api_errors
from interpeval.web.routes import assets, auth, results, studies

_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
_SECURITY_HEADERS = {"Content-Security-Policy": _CSP, "X-Content-Type-Options": "nosniff",
                     "Referrer-Policy": "no-referrer"}


class _SecurityHeaders:
    """ASGI middleware: the security headers on every response a route has not set them on (plain ASGI, not
    ``@app.middleware``, whose per-request task and body streaming cost more than a cached page itself)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in _SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _BodyLimit:
    """ASGI middleware: 413 for a body larger than ``limit`` bytes, declared (``Content-Length``) or streamed
    (chunked). A body without a declared length is read here, at most ``limit`` bytes of it, before the app runs,
    so the refusal never happens half-way through a handler."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            if not declared.isdigit() or int(declared) > self.limit:
                await self._refuse(scope, receive, send)
                return
            await self.app(scope, receive, send)  # the server holds the body to its declared length
            return
        messages, seen = [], 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            seen += len(message.get("body", b""))
            if seen > self.limit:
                await self._refuse(scope, receive, send)
                return
            if not message.get("more_body"):
                break

        async def replay() -> dict[str, Any]:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await JSONResponse({"detail": f"request body over {self.limit} bytes"}, status_code=413,
                           headers={"Connection": "close"})(scope, receive, send)


def _import_views() -> None:
    from interpeval import metrics

    views.plugin_views()
    metrics.names()


def create_app(store_path: str | Path | None = None, *, max_body: int = 2 << 20,
               tasks_dir: str | Path | None = None, secret: bytes | None = None,
               cache: bool | str = True) -> FastAPI:
    """The app over the store at ``store_path``; ``tasks_dir`` (probing task files) adds majority baselines.
    ``cache``: True (``"pages"``) keeps finished pages per store version, ``"views"`` only the views they are
    rendered from, False (``"none"``) recomputes everything on every request (for ``bench/web_load.py``)."""
    web = Web(store_path, tasks_dir=tasks_dir, secret=secret,
              cache={True: "pages", False: "none"}.get(cache, cache))  # type: ignore[call-overload]

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Before the server takes requests, every benchmark's views and the metric registry they score with are
        # imported (scipy, scikit-learn: seconds; imported in the warm-up thread instead, they raced a request's
        # imports); then a thread computes the site-wide views and one instance page per benchmark (a sentence
        # splitter, data files), so that a page's first view pays for none of it.
        await run_in_threadpool(_import_views)
        threading.Thread(target=web.warm, name="interpeval-warm", daemon=True).start()
        yield

    app = FastAPI(title="interpeval", docs_url=None, redoc_url=None, openapi_url="/api/openapi.json",
                  lifespan=lifespan)
    app.state.web = web

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if request.url.path.startswith("/api/") or exc.status_code == 413:
            return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)
        if exc.status_code == 401:
            return RedirectResponse(f"/login?next={request.url.path}", status_code=303)
        # a logged-in user is told who they are, not offered to log in
        return web.page(request, "message.html", status=exc.status_code,
                        title="Not allowed" if exc.status_code == 403 else "Error", message=str(exc.detail))

    @app.exception_handler(StoreUnavailable)
    async def store_unavailable(request: Request, exc: StoreUnavailable) -> Response:
        """A full disk or a write lock held too long: 503 naming the store and the cause (nothing was written; the
        same request may be sent again later), never a 500."""
        if request.url.path.startswith("/api/"):
            return JSONResponse({"detail": str(exc)}, status_code=503, headers={"Retry-After": "60"})
        return HTMLResponse(render("message.html", user=None, csrf="", path=request.url.path,
                                   title="The results store cannot be written now",
                                   message=f"{exc} Nothing of this request was saved: try again later."),
                            status_code=503, headers={"Retry-After": "60"})

    for part in (assets, results, auth, studies):
        app.include_router(part.router)
    app.add_middleware(_SecurityHeaders)
    app.add_middleware(_BodyLimit, limit=max_body)
    document_api_errors(app)
    return app
