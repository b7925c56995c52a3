"""The FastAPI application: server-rendered pages (Jinja2) and a JSON API under ``/api/`` over one SQLite store.

Results pages are read-only views of the store. Study pages and ``/api/studies`` need a user token, sent as
``Authorization: Bearer <token>`` (scripts) or the ``ie_token`` cookie set by ``/login`` or an invite link
(browsers). Every state-changing request made with the cookie must carry the CSRF token (a form field ``csrf`` or
the ``X-CSRF-Token`` header), an HMAC of the user's token under a per-server secret. Bodies over ``max_body`` bytes
are refused with 413 before they are read in full.
"""

from __future__ import annotations

import hmac
import json
import math
import secrets
import threading
from hashlib import sha256
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import fastapi
import pydantic
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)

from interpeval.benchmarks.plugin import study_kinds
from interpeval.report import views
from interpeval.store import Store
from interpeval.store.sqlite import StoreUnavailable
from interpeval.store.studies import ROLES, Studies, User, blinded
from interpeval.web.render import SWAGGER_FILES, asset, plotly_js_path, render, swagger_ui_path

#: every study kind, the benchmark plug-ins' own included (loaded here, before any study is created or shown)
KINDS = study_kinds()

COOKIE = "ie_token"
#: ids are SQLite integers: anything outside 1..2**63-1 names nothing, and SQLite cannot even be asked about it
Id = Annotated[int, fastapi.Path(ge=1, le=2**63 - 1)]
OptionalId = Annotated[int | None, fastapi.Query(ge=1, le=2**63 - 1)]
#: what every JSON API operation may answer besides its success: ``{"detail": why}``
_API_ERRORS = {400: "Malformed request", 401: "No valid token", 403: "Not allowed for this user or role",
               404: "No such run, instance, study or assignment", 413: "Request body too large",
               503: "The store cannot be written now (its disk is full, or another process holds its write lock)"}
_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

_MAX_ID = 2**63 - 1
BodyT = TypeVar("BodyT", bound="_Body")
BodyId = Annotated[int, pydantic.Field(ge=1, le=_MAX_ID)]


class _Body(pydantic.BaseModel):
    """A JSON request body of an ``/api/`` POST route: checked by the route (400 naming the field), declared in the
    OpenAPI schema (so clients and the fuzzer see it). Strict: ``"1"`` is not an id, ``"false"`` not a boolean."""

    model_config = pydantic.ConfigDict(strict=True, extra="allow")


class StudyItemBody(_Body):
    key: str
    payload: dict[str, Any]


class CreateStudyBody(_Body):
    name: str = "study"
    kind: str = pydantic.Field(json_schema_extra=lambda schema: schema.update(enum=sorted(KINDS)))
    items: list[StudyItemBody] = []
    config: dict[str, Any] | None = None


class AssignBody(_Body):
    user_id: BodyId
    item_ids: list[BodyId] | None = pydantic.Field(None, description="all of the study's items if left out")
    task: Literal["annotate", "check"] = "annotate"
    as_: Literal["annotator", "checker"] = pydantic.Field("annotator", alias="as")


class InviteBody(_Body):
    role: str = pydantic.Field(json_schema_extra={"enum": list(ROLES)})
    study_id: BodyId | None = None


class AnswerBody(_Body):
    answer: dict[str, Any]
    final: bool = True


def _body_schema(model: type[pydantic.BaseModel]) -> dict[str, Any]:
    """``openapi_extra`` declaring ``model`` as the operation's required JSON body (its ``$defs`` inlined)."""
    schema = model.model_json_schema(by_alias=True)
    defs = schema.pop("$defs", {})

    def inline(node: dict[str, Any]) -> Any:
        return _rewrite(defs[node["$ref"].rsplit("/", 1)[1]], inline) if "$ref" in node else node

    return {"requestBody": {"required": True, "content": {"application/json": {"schema": _rewrite(schema, inline)}}}}


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


def create_app(store_path: str | Path | None = None, *, max_body: int = 2 << 20,
               tasks_dir: str | Path | None = None, secret: bytes | None = None, cache: bool = True) -> FastAPI:
    """The app over the store at ``store_path``; ``tasks_dir`` (probing task files) adds majority baselines;
    ``cache=False`` recomputes every view on every request (for ``bench/web_load.py``'s comparison)."""
    # One connection for the whole server, opened once, every use under one lock. Opening more later would run
    # Store()'s header check, and closing any descriptor of the file drops every POSIX lock this process holds on
    # it: a writer in another process (the CLI) may then reset the WAL under the open connections (seen here as
    # rows of another table and "database disk image is malformed"). SQLite serialises writers anyway.
    shared = Studies(store_path)
    store_file = shared.path
    locked_store = _Locked(shared.store, shared.lock)
    csrf_key = secret or secrets.token_bytes(32)
    app = FastAPI(title="interpeval", docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")

    def store() -> Store:
        return locked_store  # type: ignore[return-value]

    # Views computed from the whole store (leaderboards, dashboards, instance tables) are kept per store version
    # (Store.version: any write, by this server or another process, makes a new one), so a burst of requests for
    # the same page computes it once.
    views_cache: dict[tuple[Any, ...], tuple[Any, Any]] = {}
    compute_lock = threading.Lock()

    def cached(name: str, compute: Any, *args: Any) -> Any:
        if not cache:
            return compute(store(), *args)
        key = (name, *args)
        hit = views_cache.get(key)
        if hit is not None and hit[0] == locked_store.version():
            return hit[1]
        with compute_lock:
            version = locked_store.version()
            hit = views_cache.get(key)
            if hit is not None and hit[0] == version:
                return hit[1]
            value = compute(store(), *args)
            if len(views_cache) >= 256:
                views_cache.clear()
            views_cache[key] = (version, value)
            return value

    def studies() -> Studies:
        return shared

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response = await call_next(request)
        response.headers.setdefault("Content-Security-Policy", _CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    # auth -----------------------------------------------------------------------------------------------------

    def csrf_for(token: str) -> str:
        return hmac.new(csrf_key, token.encode(), sha256).hexdigest()

    def token_of(request: Request) -> tuple[str | None, bool]:
        header = request.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            return header[7:].strip(), False
        return request.cookies.get(COOKIE), True

    def current(request: Request) -> User | None:
        token, _ = token_of(request)
        return studies().user_by_token(token)

    def need_user(request: Request, roles: tuple[str, ...] | None = None) -> User:
        user = current(request)
        if user is None:
            raise HTTPException(401, "a valid token is needed (log in or send Authorization: Bearer <token>)")
        if roles and user.role not in roles:
            raise HTTPException(403, f"this needs the role {' or '.join(roles)}")
        return user

    def check_csrf(request: Request, form_value: str | None = None) -> None:
        token, from_cookie = token_of(request)
        if not from_cookie:
            return  # a bearer header is never sent by a browser on its own
        given = form_value or request.headers.get("x-csrf-token", "")
        if not token or not hmac.compare_digest(given, csrf_for(token)):
            raise HTTPException(403, "missing or wrong CSRF token: reload the page and try again")

    def page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        user = current(request)
        token, _ = token_of(request)
        return HTMLResponse(render(template, user=user, csrf=csrf_for(token) if user and token else "",
                                   path=request.url.path, **context), status_code=status)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if request.url.path.startswith("/api/") or exc.status_code == 413:
            return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)
        if exc.status_code == 401:
            return RedirectResponse(f"/login?next={request.url.path}", status_code=303)
        user = current(request)  # a logged-in user is told who they are, not offered to log in
        token, _ = token_of(request)
        return HTMLResponse(render("message.html", user=user, csrf=csrf_for(token) if user and token else "",
                                   path=request.url.path, title="Not allowed" if exc.status_code == 403 else "Error",
                                   message=str(exc.detail)), status_code=exc.status_code)

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

    # static assets --------------------------------------------------------------------------------------------

    @app.get("/static/plotly.min.js", include_in_schema=False)
    def plotly_js() -> FileResponse:
        return FileResponse(plotly_js_path(), media_type="text/javascript",
                            headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/api/docs", include_in_schema=False, response_class=HTMLResponse)
    def api_docs() -> HTMLResponse:
        return HTMLResponse(render("api_docs.html"))

    @app.get("/api/docs/openapi-3.0.json", include_in_schema=False)
    def api_docs_schema() -> JSONResponse:
        return JSONResponse(openapi_30(app.openapi()))

    @app.get("/static/swagger/{name}", include_in_schema=False)
    def swagger_file(name: str) -> FileResponse:
        if name not in SWAGGER_FILES:
            raise HTTPException(404, "no such file")
        return FileResponse(swagger_ui_path(name), media_type=SWAGGER_FILES[name],
                            headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/static/{name}", include_in_schema=False)
    def static_file(name: str) -> Response:
        try:
            text = asset(name)
        except KeyError:
            raise HTTPException(404, "no such file") from None
        media = "text/css" if name.endswith(".css") else "text/javascript"
        return Response(text, media_type=media)

    # results pages --------------------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse)
    def home(request: Request) -> HTMLResponse:
        runs = cached("runs", views.list_runs)
        counts: dict[str, int] = {}
        for r in runs:
            counts[r["benchmark"]] = counts.get(r["benchmark"], 0) + 1
        return page(request, "index.html", counts=counts, n_runs=len(runs), store=str(store_file))

    @app.get("/runs", response_class=HTMLResponse)
    def runs_page(request: Request, benchmark: str = "", model: str = "", status: str = "",
                  q: str = "") -> HTMLResponse:
        everything = cached("runs", views.list_runs)
        rows = cached("runs", views.list_runs, benchmark or None, model or None, status or None, q or None)
        return page(request, "runs.html", runs=rows, filters={"benchmark": benchmark, "model": model,
                                                               "status": status, "q": q},
                    benchmarks=sorted({r["benchmark"] for r in everything}),
                    models=sorted({r["model"] for r in everything}))

    def _run_or_404(run_id: int) -> Any:
        try:
            return store().get_run(run_id)
        except KeyError:
            raise HTTPException(404, f"no run {run_id}") from None

    @app.get("/runs/{run_id}", response_class=HTMLResponse)
    def run_page(request: Request, run_id: Id, page_no: int = 1, sort: str = "", desc: int = 0,
                 q: str = "") -> HTMLResponse:
        info = _run_or_404(run_id)
        table = cached("instance_table", views.instance_table, run_id, sort, bool(desc), q)
        per_page = 100
        shown = table["rows"][(page_no - 1) * per_page: page_no * per_page]
        first = views.instance_view(store(), run_id, table["rows"][0]["id"]) if table["rows"] else None
        return page(request, "run.html", run=views.run_summary(info), metrics=cached("run_metrics", views.run_metrics,
                                                                                    run_id),
                    evaluation=cached("evaluate_table", views.evaluate_table, run_id),
                    table=table, shown=shown, page_no=page_no,
                    pages=max(1, math.ceil(len(table["rows"]) / per_page)), first=first)

    @app.get("/runs/{run_id}/instances/{instance_id}", response_class=HTMLResponse)
    def instance_page(request: Request, run_id: Id, instance_id: str, agg: str = "") -> HTMLResponse:
        _run_or_404(run_id)
        try:
            view = views.instance_view(store(), run_id, instance_id, agg or None)
        except KeyError as err:
            raise HTTPException(404, str(err.args[0])) from None
        return page(request, "instance.html", view=view)

    @app.get("/leaderboards", response_class=HTMLResponse)
    def leaderboards_page(request: Request) -> HTMLResponse:
        return page(request, "leaderboards.html", tables=cached("leaderboards", views.leaderboards, tasks_dir))

    @app.get("/leaderboards/{benchmark}.csv")
    def leaderboard_csv(benchmark: str) -> Response:
        for table in cached("leaderboards", views.leaderboards, tasks_dir):
            if table["benchmark"] == benchmark:
                return Response(views.leaderboard_csv(table), media_type="text/csv",
                                headers={"Content-Disposition": f'attachment; filename="{benchmark}.csv"'})
        raise HTTPException(404, f"no leaderboard for {benchmark!r}")

    @app.get("/probing", response_class=HTMLResponse)
    def probing_page(request: Request) -> HTMLResponse:
        return page(request, "probing.html", needs_plotly=True,
                    rows=views.jsonable(cached("probing", views.probing_rows, None, tasks_dir)))

    # results API ----------------------------------------------------------------------------------------------

    @app.get("/api/runs")
    def api_runs(benchmark: str = "", model: str = "", status: str = "", q: str = "") -> JSONResponse:
        return JSONResponse(views.jsonable(cached("runs", views.list_runs, benchmark or None, model or None,
                                                  status or None, q or None)))

    @app.get("/api/runs/{run_id}")
    def api_run(run_id: Id) -> JSONResponse:
        info = _run_or_404(run_id)
        return JSONResponse(views.jsonable({**views.run_summary(info), "metrics": views.run_metrics(store(), run_id),
                                            "explainers_by_metric": views.evaluate_table(store(), run_id),
                                    "instances": views.instance_ids(store(), run_id)}))

    @app.get("/api/runs/{run_id}/instances/{instance_id}")
    def api_instance(run_id: Id, instance_id: str) -> JSONResponse:
        _run_or_404(run_id)
        try:
            return JSONResponse(views.jsonable(views.instance_view(store(), run_id, instance_id)))
        except KeyError as err:
            raise HTTPException(404, str(err.args[0])) from None

    @app.get("/api/leaderboards")
    def api_leaderboards() -> JSONResponse:
        return JSONResponse(views.jsonable(cached("leaderboards", views.leaderboards, tasks_dir)))

    @app.get("/api/probing")
    def api_probing() -> JSONResponse:
        return JSONResponse(views.jsonable(cached("probing", views.probing_rows, None, tasks_dir)))

    # log in, invites ------------------------------------------------------------------------------------------

    @app.get("/login", response_class=HTMLResponse)
    def login_form(request: Request, next: str = "/studies") -> HTMLResponse:
        return page(request, "login.html", next=_local(next), error="")

    @app.post("/login")
    async def login(request: Request) -> Response:
        form = await request.form()
        token = str(form.get("token", "")).strip()
        target = _local(str(form.get("next", "/studies")))
        if studies().user_by_token(token) is None:
            return page(request, "login.html", status=401, next=target, error="That token is not valid.")
        response = RedirectResponse(target, status_code=303)
        _set_cookie(response, token)
        return response

    @app.post("/logout")
    async def logout(request: Request) -> Response:
        form = await request.form()
        check_csrf(request, str(form.get("csrf", "")))
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(COOKIE, path="/")
        return response

    @app.get("/invite/{code}", response_class=HTMLResponse)
    def invite_form(request: Request, code: str) -> HTMLResponse:
        role = studies().invite_role(code)
        if role is None:
            raise HTTPException(403, "this invite link is wrong or has been used already")
        return page(request, "invite.html", code=code, role=role, error="")

    @app.post("/invite/{code}")
    async def invite_accept(request: Request, code: str) -> Response:
        form = await request.form()
        try:
            user, token = studies().accept_invite(code, str(form.get("name", "")))
        except PermissionError as err:
            raise HTTPException(403, str(err)) from None
        except ValueError as err:
            role = studies().invite_role(code) or "?"
            return page(request, "invite.html", status=400, code=code, role=role, error=str(err))
        response = HTMLResponse(render("welcome.html", user=user, csrf=csrf_for(token), path="/", token=token))
        _set_cookie(response, token)
        return response

    # study pages ----------------------------------------------------------------------------------------------

    @app.get("/studies", response_class=HTMLResponse)
    def studies_page(request: Request) -> HTMLResponse:
        user = need_user(request)
        db = studies()
        mine = db.assignments(user.id)
        listed = db.studies() if user.role == "admin" else [s for s in db.studies()
                                                             if any(a.study_id == s.id for a in mine)]
        rows = [{"study": s, "progress": db.progress(s.id),
                 "pending": sum(a.study_id == s.id and a.state == "pending" for a in mine),
                 "answered": sum(a.study_id == s.id and a.final for a in mine)} for s in listed]
        return page(request, "studies.html", rows=rows, kinds=sorted(KINDS), error="")

    @app.post("/studies")
    async def create_study_form(request: Request) -> Response:
        user = need_user(request, ("admin",))
        form = await request.form()
        check_csrf(request, str(form.get("csrf", "")))
        try:
            items = [json.loads(line) for line in str(form.get("items", "")).splitlines() if line.strip()]
            study = studies().create_study(str(form.get("name", "")).strip() or "study", str(form.get("kind", "")),
                                           items, created_by=user.id)
        except (ValueError, json.JSONDecodeError) as err:
            raise HTTPException(400, f"could not create the study: {err}") from None
        return RedirectResponse(f"/studies/{study.id}", status_code=303)

    def _study_or_404(study_id: int) -> Any:
        try:
            return studies().study(study_id)
        except KeyError:
            raise HTTPException(404, f"no study {study_id}") from None

    @app.get("/studies/{study_id}", response_class=HTMLResponse)
    def study_page(request: Request, study_id: Id, invite: str = "") -> HTMLResponse:
        user = need_user(request)
        study = _study_or_404(study_id)
        db = studies()
        mine = db.assignments(user.id, study_id)
        if user.role != "admin" and not mine:
            raise HTTPException(403, "you have no assignments in this study")
        admin = None
        items = db.items(study_id)
        if user.role == "admin":
            admin = {"review": db.review(study_id), "users": db.users(), "annotators": db.members(study_id, "annotator"),
                     "checkers": db.members(study_id, "checker"), "invite": invite}
        else:
            items = [blinded(i, study.kind) for i in items]
        return page(request, "study.html", study=study, progress=db.progress(study_id), mine=mine, admin=admin,
                    items={i.id: i for i in items})

    @app.post("/studies/{study_id}/invite")
    async def study_invite(request: Request, study_id: Id) -> Response:
        user = need_user(request, ("admin",))
        form = await request.form()
        check_csrf(request, str(form.get("csrf", "")))
        _study_or_404(study_id)
        try:
            code = studies().invite(str(form.get("role", "")), created_by=user.id, study_id=study_id)
        except ValueError as err:
            raise HTTPException(400, str(err)) from None
        link = f"{request.base_url}invite/{code}"
        return page(request, "message.html", title="Invite link (shown once)",
                    message=f"Whoever opens this link once joins this study as a new {form.get('role')}: {link}",
                    link=link, back=f"/studies/{study_id}")

    @app.post("/studies/{study_id}/members")
    async def study_members(request: Request, study_id: Id) -> Response:
        need_user(request, ("admin",))
        form = await request.form()
        check_csrf(request, str(form.get("csrf", "")))
        _study_or_404(study_id)
        try:
            member = studies().user(int(str(form.get("user_id", "0"))))
            if str(form.get("as", "")) == "checker":
                studies().add_member(study_id, member.id, "checker")
            else:
                studies().assign(study_id, member.id)
        except (KeyError, ValueError) as err:
            raise HTTPException(400, str(err)) from None
        return RedirectResponse(f"/studies/{study_id}", status_code=303)

    @app.get("/a/{assignment_id}", response_class=HTMLResponse)
    def assignment_page(request: Request, assignment_id: Id, error: str = "") -> HTMLResponse:
        user = need_user(request)
        assignment, item, study = _own(user, assignment_id)
        return _assignment_response(request, assignment, item, study, error)

    def _own(user: User, assignment_id: int) -> tuple[Any, Any, Any]:
        try:
            assignment = studies().assignment(assignment_id, user.id)
        except KeyError:
            raise HTTPException(404, f"no assignment {assignment_id}") from None
        except PermissionError as err:
            raise HTTPException(403, str(err)) from None
        item = studies().item(assignment.item_id)
        return assignment, item, studies().study(item.study_id)

    def _assignment_response(request: Request, assignment: Any, item: Any, study: Any, error: str,
                             status: int = 200) -> HTMLResponse:
        db = studies()
        annotations = []
        if assignment.task == "check":
            annotations = [a.answer for a in db.item_assignments(item.id)
                           if a.task == "annotate" and a.round == assignment.round and a.final]
        queue = [a.id for a in db.assignments(assignment.user_id, study.id, state="pending")]
        if db.user(assignment.user_id).role != "admin":
            item = blinded(item, study.kind)
        return page(request, KINDS[study.kind].template, status=status, study=study, item=item,
                    assignment=assignment, annotations=annotations, error=error, queue=queue,
                    rounds=db.rounds(item.id), review=study.config.get("review"))

    @app.post("/a/{assignment_id}")
    async def assignment_submit(request: Request, assignment_id: Id) -> Response:
        user = need_user(request)
        form = await request.form()
        check_csrf(request, str(form.get("csrf", "")))
        assignment, item, study = _own(user, assignment_id)
        final = str(form.get("action", "submit")) != "save"
        try:
            answer = json.loads(str(form.get("answer", "")))
            studies().save(user.id, assignment_id, answer, final=final)
        except PermissionError as err:
            raise HTTPException(403, str(err)) from None
        except (ValueError, json.JSONDecodeError) as err:
            return _assignment_response(request, assignment, item, study, str(err), status=400)
        if not final:
            return RedirectResponse(f"/a/{assignment_id}?saved=1", status_code=303)
        pending = studies().assignments(user.id, study.id, state="pending")
        return RedirectResponse(f"/a/{pending[0].id}" if pending else f"/studies/{study.id}", status_code=303)

    # study API ------------------------------------------------------------------------------------------------

    def _assignment_json(a: Any) -> dict[str, Any]:
        return {"id": a.id, "study_id": a.study_id, "item_id": a.item_id, "task": a.task, "round": a.round,
                "state": a.state, "final": a.final, "answer": a.answer}

    @app.get("/api/studies")
    def api_studies(request: Request) -> JSONResponse:
        user = need_user(request)
        db = studies()
        mine = {a.study_id for a in db.assignments(user.id)}
        admin = user.role == "admin"  # a study's config may name the methods under judgement: admins only
        return JSONResponse([{"id": s.id, "name": s.name, "kind": s.kind, **({"config": s.config} if admin else {}),
                              "progress": db.progress(s.id)}
                             for s in db.studies() if admin or s.id in mine])

    @app.post("/api/studies", status_code=201, openapi_extra=_body_schema(CreateStudyBody))
    async def api_create_study(request: Request) -> JSONResponse:
        user = need_user(request, ("admin",))
        check_csrf(request)
        body = await _json_body(request, CreateStudyBody)
        try:
            study = studies().create_study(body.name, body.kind, [i.model_dump() for i in body.items], body.config,
                                           created_by=user.id)
        except ValueError as err:
            raise HTTPException(400, str(err)) from None
        except (KeyError, TypeError) as err:  # a config whose "review" has the wrong shape
            raise HTTPException(400, f"bad study config: {err!r}") from None
        return JSONResponse({"id": study.id, "items": len(studies().items(study.id))}, status_code=201)

    @app.post("/api/studies/{study_id}/assign", openapi_extra=_body_schema(AssignBody))
    async def api_assign(request: Request, study_id: Id) -> JSONResponse:
        need_user(request, ("admin",))
        check_csrf(request)
        _study_or_404(study_id)
        body = await _json_body(request, AssignBody)
        db = studies()
        try:
            db.user(body.user_id)
        except KeyError as err:
            raise HTTPException(404, str(err.args[0])) from None
        missing = set(body.item_ids or ()) - {i.id for i in db.items(study_id)}
        if missing:
            raise HTTPException(404, f"items {sorted(missing)} are not in study {study_id}")
        try:
            if body.task == "check" or body.as_ == "checker":
                db.add_member(study_id, body.user_id, "checker")
                return JSONResponse({"checker": body.user_id})
            made = db.assign(study_id, body.user_id, body.item_ids)
        except (KeyError, ValueError, TypeError) as err:
            raise HTTPException(400, f"bad assignment request: {err}") from None
        return JSONResponse([_assignment_json(a) for a in made])

    @app.post("/api/invites", status_code=201, openapi_extra=_body_schema(InviteBody))
    async def api_invite(request: Request) -> JSONResponse:
        user = need_user(request, ("admin",))
        check_csrf(request)
        body = await _json_body(request, InviteBody)
        try:
            code = studies().invite(body.role, created_by=user.id, study_id=body.study_id)
        except KeyError as err:
            raise HTTPException(404, str(err.args[0])) from None
        except (ValueError, TypeError) as err:
            raise HTTPException(400, str(err)) from None
        return JSONResponse({"code": code, "link": f"{request.base_url}invite/{code}"}, status_code=201)

    @app.get("/api/me")
    def api_me(request: Request) -> JSONResponse:
        user = need_user(request)
        return JSONResponse({"id": user.id, "name": user.name, "role": user.role})

    @app.get("/api/me/assignments")
    def api_my_assignments(request: Request, study_id: OptionalId = None, state: str = "") -> JSONResponse:
        user = need_user(request)
        return JSONResponse([_assignment_json(a) for a in studies().assignments(user.id, study_id, state or None)])

    @app.get("/api/assignments/{assignment_id}")
    def api_assignment(request: Request, assignment_id: Id) -> JSONResponse:
        user = need_user(request)
        assignment, item, study = _own(user, assignment_id)
        shown = item if user.role == "admin" else blinded(item, study.kind)
        return JSONResponse({**_assignment_json(assignment), "item": shown.key, "payload": shown.payload})

    @app.post("/api/assignments/{assignment_id}", openapi_extra=_body_schema(AnswerBody))
    async def api_save(request: Request, assignment_id: Id) -> JSONResponse:
        user = need_user(request)
        check_csrf(request)
        body = await _json_body(request, AnswerBody)
        try:
            saved = studies().save(user.id, assignment_id, body.answer, final=body.final)
        except KeyError:
            raise HTTPException(404, f"no assignment {assignment_id}") from None
        except PermissionError as err:
            raise HTTPException(403, str(err)) from None
        except ValueError as err:
            raise HTTPException(400, str(err)) from None
        return JSONResponse(_assignment_json(saved))

    @app.get("/api/studies/{study_id}/export")
    def api_export(request: Request, study_id: Id, gold: bool = False) -> Response:
        need_user(request, ("admin",))
        _study_or_404(study_id)
        if gold:
            lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in studies().export_gold(study_id))
            return Response(lines, media_type="application/x-ndjson",
                            headers={"Content-Disposition": f'attachment; filename="study-{study_id}-gold.jsonl"'})
        return JSONResponse(studies().export(study_id),
                            headers={"Content-Disposition": f'attachment; filename="study-{study_id}.json"'})

    app.add_middleware(_BodyLimit, limit=max_body)
    _document_api_errors(app)
    return app


def _document_api_errors(app: FastAPI) -> None:
    """Declare the JSON error answers of every ``/api/`` operation in the OpenAPI schema (pages answer in HTML)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            for path, operations in schema["paths"].items():
                if not path.startswith("/api/"):
                    continue
                for operation in operations.values():
                    if "requestBody" in operation:
                        operation["requestBody"] = _exact_bounds(operation["requestBody"])
                    for code, why in _API_ERRORS.items():
                        operation["responses"].setdefault(str(code), {"description": why, "content": {
                            "application/json": {"schema": {"type": "object", "required": ["detail"],
                                                            "properties": {"detail": {"type": "string"}}}}}})
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _rewrite(node: Any, change: Any) -> Any:
    """A copy of the JSON ``node`` with ``change(dict) -> value`` applied to every object, innermost first."""
    if isinstance(node, list):
        return [_rewrite(x, change) for x in node]
    if not isinstance(node, dict):
        return node
    return change({k: _rewrite(v, change) for k, v in node.items()})


def _exact_bounds(node: Any) -> Any:
    """FastAPI reads ``openapi_extra`` bounds as floats (2**63-1 becomes 2**63, beyond SQLite): integers again."""

    def exact(out: dict[str, Any]) -> dict[str, Any]:
        for key in ("minimum", "maximum"):
            if isinstance(out.get(key), float) and out.get("type") == "integer":
                out[key] = min(int(out[key]), _MAX_ID)
        return out

    return _rewrite(node, exact)


def openapi_30(schema: dict[str, Any]) -> dict[str, Any]:
    """FastAPI's OpenAPI 3.1 schema in the 3.0 form that the packaged Swagger UI (4.x) reads: a ``{"type": "null"}``
    alternative becomes ``nullable: true``. /api/openapi.json itself stays 3.1."""

    def convert(node: dict[str, Any]) -> dict[str, Any]:
        options = node.get("anyOf")
        if isinstance(options, list) and {"type": "null"} in options:
            rest = [o for o in options if o != {"type": "null"}]
            node.pop("anyOf")
            node.update(rest[0] if len(rest) == 1 else {"anyOf": rest})
            node["nullable"] = True
        return node

    return {**_rewrite(schema, convert), "openapi": "3.0.3"}


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


async def _json_body(request: Request, model: type[BodyT]) -> BodyT:
    """The request's JSON body checked against ``model``: 400 naming the first wrong field otherwise."""
    try:
        body = json.loads(await request.body() or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise HTTPException(400, f"the request body is not JSON: {err}") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "the request body must be a JSON object")
    try:
        return model.model_validate(body)
    except pydantic.ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        raise HTTPException(400, f"bad request body: {where}: {first['msg']} ({err.error_count()} error(s))") \
            from None


def _local(target: str) -> str:
    """Only same-site paths as redirect targets (no open redirect)."""
    return target if target.startswith("/") and not target.startswith("//") else "/studies"


def _set_cookie(response: Response, token: str) -> None:
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/", max_age=30 * 86400)
