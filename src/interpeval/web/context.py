"""What every router of the web app shares: the one store connection, the view cache and the auth helpers.

:func:`create_app` builds one :class:`Web` per app and keeps it in ``app.state.web``; routes reach it through the
:data:`WebDep` dependency. Auth checks are plain calls in the route body (not dependencies), so a request is
validated, authenticated and authorised in the same order on every route.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Callable
from hashlib import sha256
from pathlib import Path
from typing import Annotated, Any, TypeVar

import fastapi
from fastapi import HTTPException, Request
from fastapi.responses import HTMLResponse

from interpeval.report.render import render
from interpeval.store import Store
from interpeval.store.studies import Studies, User

COOKIE = "ie_token"
MAX_ID = 2**63 - 1
#: ids are SQLite integers: anything outside 1..2**63-1 names nothing, and SQLite cannot even be asked about it
Id = Annotated[int, fastapi.Path(ge=1, le=MAX_ID)]
OptionalId = Annotated[int | None, fastapi.Query(ge=1, le=MAX_ID)]
T = TypeVar("T")


class Web:
    """The state of one app: the store (one connection, every use under one lock), views cached per store version,
    the CSRF key and the server's options."""

    def __init__(self, store_path: str | Path | None, *, tasks_dir: str | Path | None, secret: bytes | None,
                 cache: bool) -> None:
        # One connection for the whole server, opened once, every use under one lock. Opening more later would run
        # Store()'s header check, and closing any descriptor of the file drops every POSIX lock this process holds
        # on it: a writer in another process (the CLI) may then reset the WAL under the open connections (seen here
        # as rows of another table and "database disk image is malformed"). SQLite serialises writers anyway.
        self.studies = Studies(store_path)
        self.store_file = self.studies.path
        self.store: Store = _Locked(self.studies.store, self.studies.lock)  # type: ignore[assignment]
        self.tasks_dir = tasks_dir
        self.cache = cache
        self._csrf_key = secret or secrets.token_bytes(32)
        # Views computed from the whole store (leaderboards, dashboards, instance tables) are kept per store version
        # (Store.version: any write, by this server or another process, makes a new one), so a burst of requests
        # for the same page computes it once.
        self._views: dict[tuple[Any, ...], tuple[Any, Any]] = {}
        self._compute_lock = threading.Lock()

    def cached(self, name: str, compute: Any, *args: Any) -> Any:
        """``compute(store, *args)``, computed once per store version (every time when the cache is off)."""
        if not self.cache:
            return compute(self.store, *args)
        key = (name, *args)
        hit = self._views.get(key)
        if hit is not None and hit[0] == self.store.version():
            return hit[1]
        with self._compute_lock:
            version = self.store.version()
            hit = self._views.get(key)
            if hit is not None and hit[0] == version:
                return hit[1]
            value = compute(self.store, *args)
            if len(self._views) >= 256:
                self._views.clear()
            self._views[key] = (version, value)
            return value

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


def web(request: Request) -> Web:
    """The dependency every route uses to reach its app's :class:`Web`."""
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
