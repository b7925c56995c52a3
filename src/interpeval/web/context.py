"""What every router of the web app shares: the one store connection, the view cache and the auth helpers.

:func:`create_app` builds one :class:`Web` per app and keeps it in ``app.state.web``; routes reach it through the
:data:`WebDep` dependency. Auth checks are plain calls in the route body (not dependencies), so a request is
validated, authenticated and authorised in the same order on every route.
"""

from __future__ import annotations

import gzip
import hmac
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from typing import Annotated, Any, TypeVar

import fastapi
from fastapi import HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from interpeval.report.render import render
from interpeval.store import Store
from interpeval.store.studies import Studies, User

COOKIE = "ie_token"
MAX_ID = 2**63 - 1
#: ids are SQLite integers: anything outside 1..2**63-1 names nothing, and SQLite cannot even be asked about it
Id = Annotated[int, fastapi.Path(ge=1, le=MAX_ID)]
OptionalId = Annotated[int | None, fastapi.Query(ge=1, le=MAX_ID)]
T = TypeVar("T")
#: what the server keeps per store version: ``pages`` (finished response bytes, plain and gzipped, and the views
#: they come from), ``views`` (the views only: every page rendered again in the thread pool) or ``none``
CACHE_MODES = ("pages", "views", "none")
#: the most bytes of finished responses kept (the oldest dropped first)
PAGE_CACHE_BYTES = 64 << 20


@dataclass(frozen=True)
class _Bytes:
    """One finished response of one store version: its body plain and gzipped (None when too small to gain)."""

    version: Any
    body: bytes
    gzipped: bytes | None
    media_type: str
    headers: tuple[tuple[str, str], ...]

    def response(self, request: Request) -> Response:
        headers = {**dict(self.headers), "Vary": "Accept-Encoding"}
        if self.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
            return Response(self.gzipped, media_type=self.media_type, headers={**headers, "Content-Encoding": "gzip"})
        return Response(self.body, media_type=self.media_type, headers=headers)


class Web:
    """The state of one app: the store (one connection, every use under one lock), views cached per store version,
    the CSRF key and the server's options."""

    def __init__(self, store_path: str | Path | None, *, tasks_dir: str | Path | None, secret: bytes | None,
                 cache: str) -> None:
        # One connection for the whole server, opened once, every use under one lock. Opening more later would run
        # Store()'s header check, and closing any descriptor of the file drops every POSIX lock this process holds
        # on it: a writer in another process (the CLI) may then reset the WAL under the open connections (seen here
        # as rows of another table and "database disk image is malformed"). SQLite serialises writers anyway.
        self.studies = Studies(store_path)
        self.store_file = self.studies.path
        self.store: Store = _Locked(self.studies.store, self.studies.lock)  # type: ignore[assignment]
        self.tasks_dir = tasks_dir
        if cache not in CACHE_MODES:
            raise ValueError(f"cache={cache!r}: choose from {', '.join(CACHE_MODES)}")
        self.cache = cache
        self._csrf_key = secret or secrets.token_bytes(32)
        # Views computed from the whole store (leaderboards, dashboards, instance tables) are kept per store version
        # (Store.version: any write, by this server or another process, makes a new one), so a burst of requests
        # for the same page computes it once.
        self._views: dict[tuple[Any, ...], tuple[Any, Any]] = {}
        self._compute_locks = [threading.Lock() for _ in range(64)]
        # Finished responses per store version, served by the event loop itself: a hit touches neither the thread
        # pool nor the template engine, only SQLite's data_version (microseconds).
        self._pages: OrderedDict[tuple[Any, ...], _Bytes] = OrderedDict()
        self._page_bytes = 0
        self._page_locks = [threading.Lock() for _ in range(64)]  # a miss is produced once per key (striped)
        self._pages_lock = threading.Lock()

    def cached(self, name: str, compute: Any, *args: Any) -> Any:
        """``compute(store, *args)``, computed once per store version (every time when the cache is off)."""
        if self.cache == "none":
            return compute(self.store, *args)
        key = (name, *args)
        hit = self._views.get(key)
        if hit is not None and hit[0] == self.store.version():
            return hit[1]
        with self._compute_locks[hash(key) % len(self._compute_locks)]:  # one computation per key at a time
            version = self.store.version()
            hit = self._views.get(key)
            if hit is not None and hit[0] == version:
                return hit[1]
            value = compute(self.store, *args)
            if len(self._views) >= 256:
                self._views.clear()
            self._views[key] = (version, value)
            return value

    def warm(self) -> None:
        """Compute the site-wide views of the current store version and, for the first run of each benchmark, its
        instance table and first instance view (what that loads — tokenizers, data files — the benchmark's views
        keep). Run by a thread when the server starts; a failure is logged, and each page then computes its views
        itself."""
        from interpeval.report import views

        try:
            runs = self.cached("runs", views.list_runs)
            self.cached("leaderboards", views.leaderboards, self.tasks_dir)
            self.cached("probing", views.probing_rows, None, self.tasks_dir)
            self.cached("paper", views.paper_reports)
            for run in {r["benchmark"]: r for r in reversed(runs) if r["n"]}.values():  # the first run of each
                table = self.cached("instance_table", views.instance_table, run["id"], "", False, "")
                if table["rows"]:
                    views.instance_view(self.store, run["id"], table["rows"][0]["id"])
        except Exception:  # noqa: BLE001 — warming is an optimisation; the page shows the error when asked
            logging.getLogger(__name__).exception("warming the views of %s failed", self.store_file)

    async def serve(self, request: Request, key: tuple[Any, ...], produce: Callable[[], Response], *,
                    personal: bool = False) -> Response:
        """``produce()``'s response, kept as bytes per store version under ``key`` (the route and its arguments).

        A hit is answered on the event loop; a miss runs ``produce`` in the thread pool, once per key however many
        requests wait for it. ``personal`` responses (pages whose header names the user) are kept only for requests
        without a token: a logged-in user's page is rendered for them (from the cached views)."""
        if self.cache == "pages" and not (personal and self.token_of(request)[0]):
            version = self._version_now()
            hit = self._pages.get(key)
            if version is not None and hit is not None and hit.version == version:
                return hit.response(request)
            return await run_in_threadpool(self._fill, request, key, produce)
        return await run_in_threadpool(produce)

    def _version_now(self) -> Any:
        """The store version if the connection is free now, else None (the event loop never waits for the lock)."""
        if not self.studies.lock.acquire(blocking=False):
            return None
        try:
            return self.studies.store.version()
        finally:
            self.studies.lock.release()

    def _fill(self, request: Request, key: tuple[Any, ...], produce: Callable[[], Response]) -> Response:
        with self._page_locks[hash(key) % len(self._page_locks)]:
            version = self.store.version()  # read before producing: a write meanwhile makes the next one miss
            hit = self._pages.get(key)
            if hit is not None and hit.version == version:
                return hit.response(request)
            response = produce()
            if response.status_code != 200:
                return response
            body = bytes(response.body)
            headers = tuple((k, v) for k, v in response.headers.items()
                            if k.lower() not in ("content-length", "content-type"))
            entry = _Bytes(version, body, gzip.compress(body, 6) if len(body) > 1024 else None,
                           response.media_type or response.headers.get("content-type", "text/plain"), headers)
            self._keep(key, entry)
            return entry.response(request)

    def _keep(self, key: tuple[Any, ...], entry: _Bytes) -> None:
        size = len(entry.body) + len(entry.gzipped or b"")
        with self._pages_lock:
            old = self._pages.pop(key, None)
            if old is not None:
                self._page_bytes -= len(old.body) + len(old.gzipped or b"")
            while self._pages and self._page_bytes + size > PAGE_CACHE_BYTES:
                _, dropped = self._pages.popitem(last=False)
                self._page_bytes -= len(dropped.body) + len(dropped.gzipped or b"")
            if size <= PAGE_CACHE_BYTES:
                self._pages[key] = entry
                self._page_bytes += size

    # auth -------------------------------------------------------------------------------------------------------

    def csrf_for(self, token: str) -> str:
        return hmac.new(self._csrf_key, token.encode(), sha256).hexdigest()

    @staticmethod
    def token_of(request: Request) -> tuple[str | None, bool]:
        """The request's token and whether it came from the cookie (not an ``Authorization: Bearer`` header)."""
        header = request.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            return header[7:].strip(), False
        return request.cookies.get(COOKIE), True

    def current(self, request: Request) -> User | None:
        token, _ = self.token_of(request)
        return self.studies.user_by_token(token)

    def need_user(self, request: Request, roles: tuple[str, ...] | None = None) -> User:
        user = self.current(request)
        if user is None:
            raise HTTPException(401, "a valid token is needed (log in or send Authorization: Bearer <token>)")
        if roles and user.role not in roles:
            raise HTTPException(403, f"this needs the role {' or '.join(roles)}")
        return user

    def check_csrf(self, request: Request, form_value: str | None = None) -> None:
        token, from_cookie = self.token_of(request)
        if not from_cookie:
            return  # a bearer header is never sent by a browser on its own
        given = form_value or request.headers.get("x-csrf-token", "")
        if not token or not hmac.compare_digest(given, self.csrf_for(token)):
            raise HTTPException(403, "missing or wrong CSRF token: reload the page and try again")

    def page(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        """A page for the request's user (their name, the CSRF token of their forms)."""
        user = self.current(request)
        token, _ = self.token_of(request)
        return HTMLResponse(render(template, user=user, csrf=self.csrf_for(token) if user and token else "",
                                   path=request.url.path, **context), status_code=status)


def found(lookup: Callable[[int], T], key: int, what: str) -> T:
    """``lookup(key)``, or a 404 "no {what} {key}" when it names nothing (a KeyError)."""
    try:
        return lookup(key)
    except KeyError:
        raise HTTPException(404, f"no {what} {key}") from None


async def web(request: Request) -> Web:
    """The dependency every route uses to reach its app's :class:`Web` (async: a sync dependency would take a trip
    through the thread pool on every request)."""
    return request.app.state.web


WebDep = Annotated[Web, fastapi.Depends(web)]


class _Locked:
    """A store whose every method call holds ``lock`` (the same lock :class:`Studies` takes)."""

    def __init__(self, store: Store, lock: Any) -> None:
        self._store, self._lock, self.path = store, lock, store.path

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._store, name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                return value(*args, **kwargs)

        return call
