"""Annotation studies: their pages (forms for people) and the study API under ``/api/`` (JSON for scripts).

Every route needs a user token; state-changing requests made with the cookie carry the CSRF token.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

import pydantic
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from interpeval.plugins import study_kinds
from interpeval.store.studies import ROLES, User, blinded
from interpeval.web.context import MAX_ID, Id, OptionalId, Web, WebDep, found
from interpeval.web.openapi import body_schema

#: every study kind, the benchmark plug-ins' own included (loaded here, before any study is created or shown)
KINDS = study_kinds()

router = APIRouter()

BodyT = TypeVar("BodyT", bound="_Body")
BodyId = Annotated[int, pydantic.Field(ge=1, le=MAX_ID)]


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




@router.get("/studies", response_class=HTMLResponse)
def studies_page(request: Request, web: WebDep) -> HTMLResponse:
    user = web.need_user(request)
    db = web.studies
    mine = db.assignments(user.id)
    listed = db.studies() if user.role == "admin" else [s for s in db.studies()
                                                         if any(a.study_id == s.id for a in mine)]
    rows = [{"study": s, "progress": db.progress(s.id),
             "pending": sum(a.study_id == s.id and a.state == "pending" for a in mine),
             "answered": sum(a.study_id == s.id and a.final for a in mine)} for s in listed]
    return web.page(request, "studies.html", rows=rows, kinds=sorted(KINDS), error="")


@router.post("/studies")
async def create_study_form(request: Request, web: WebDep) -> Response:
    user = web.need_user(request, ("admin",))
    form = await request.form()
    web.check_csrf(request, str(form.get("csrf", "")))
    try:
        items = [json.loads(line) for line in str(form.get("items", "")).splitlines() if line.strip()]
        study = web.studies.create_study(str(form.get("name", "")).strip() or "study", str(form.get("kind", "")),
                                         items, created_by=user.id)
    except (ValueError, json.JSONDecodeError) as err:
        raise HTTPException(400, f"could not create the study: {err}") from None
    return RedirectResponse(f"/studies/{study.id}", status_code=303)


def _study_or_404(web: Web, study_id: int) -> Any:
    return found(web.studies.study, study_id, "study")


@router.get("/studies/{study_id}", response_class=HTMLResponse)
def study_page(request: Request, web: WebDep, study_id: Id, invite: str = "") -> HTMLResponse:
    user = web.need_user(request)
    study = _study_or_404(web, study_id)
    db = web.studies
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
    return web.page(request, "study.html", study=study, progress=db.progress(study_id), mine=mine, admin=admin,
                    items={i.id: i for i in items})


@router.post("/studies/{study_id}/invite")
async def study_invite(request: Request, web: WebDep, study_id: Id) -> Response:
    user = web.need_user(request, ("admin",))
    form = await request.form()
    web.check_csrf(request, str(form.get("csrf", "")))
    _study_or_404(web, study_id)
    try:
        code = web.studies.invite(str(form.get("role", "")), created_by=user.id, study_id=study_id)
    except ValueError as err:
        raise HTTPException(400, str(err)) from None
    link = f"{request.base_url}invite/{code}"
    return web.page(request, "message.html", title="Invite link (shown once)",
                    message=f"Whoever opens this link once joins this study as a new {form.get('role')}: {link}",
                    link=link, back=f"/studies/{study_id}")


@router.post("/studies/{study_id}/members")
async def study_members(request: Request, web: WebDep, study_id: Id) -> Response:
    web.need_user(request, ("admin",))
    form = await request.form()
    web.check_csrf(request, str(form.get("csrf", "")))
    _study_or_404(web, study_id)
    try:
        member = web.studies.user(int(str(form.get("user_id", "0"))))
        if str(form.get("as", "")) == "checker":
            web.studies.add_member(study_id, member.id, "checker")
        else:
            web.studies.assign(study_id, member.id)
    except (KeyError, ValueError) as err:
        raise HTTPException(400, str(err)) from None
    return RedirectResponse(f"/studies/{study_id}", status_code=303)


@router.get("/a/{assignment_id}", response_class=HTMLResponse)
def assignment_page(request: Request, web: WebDep, assignment_id: Id, error: str = "") -> HTMLResponse:
    user = web.need_user(request)
    assignment, item, study = _own(web, user, assignment_id)
    return _assignment_response(web, request, assignment, item, study, error)


def _own(web: Web, user: User, assignment_id: int) -> tuple[Any, Any, Any]:
    try:
        assignment = web.studies.assignment(assignment_id, user.id)
    except KeyError:
        raise HTTPException(404, f"no assignment {assignment_id}") from None
    except PermissionError as err:
        raise HTTPException(403, str(err)) from None
    item = web.studies.item(assignment.item_id)
    return assignment, item, web.studies.study(item.study_id)


def _assignment_response(web: Web, request: Request, assignment: Any, item: Any, study: Any, error: str,
                         status: int = 200) -> HTMLResponse:
    db = web.studies
    annotations = []
    if assignment.task == "check":
        annotations = [a.answer for a in db.item_assignments(item.id)
                       if a.task == "annotate" and a.round == assignment.round and a.final]
    queue = [a.id for a in db.assignments(assignment.user_id, study.id, state="pending")]
    if db.user(assignment.user_id).role != "admin":
        item = blinded(item, study.kind)
    return web.page(request, KINDS[study.kind].template, status=status, study=study, item=item,
                    assignment=assignment, annotations=annotations, error=error, queue=queue,
                    rounds=db.rounds(item.id), review=study.config.get("review"))


@router.post("/a/{assignment_id}")
async def assignment_submit(request: Request, web: WebDep, assignment_id: Id) -> Response:
    user = web.need_user(request)
    form = await request.form()
    web.check_csrf(request, str(form.get("csrf", "")))
    assignment, item, study = _own(web, user, assignment_id)
    final = str(form.get("action", "submit")) != "save"
    try:
        answer = json.loads(str(form.get("answer", "")))
        web.studies.save(user.id, assignment_id, answer, final=final)
    except PermissionError as err:
        raise HTTPException(403, str(err)) from None
    except (ValueError, json.JSONDecodeError) as err:
        return _assignment_response(web, request, assignment, item, study, str(err), status=400)
    if not final:
        return RedirectResponse(f"/a/{assignment_id}?saved=1", status_code=303)
    pending = web.studies.assignments(user.id, study.id, state="pending")
    return RedirectResponse(f"/a/{pending[0].id}" if pending else f"/studies/{study.id}", status_code=303)

# study API ------------------------------------------------------------------------------------------------


def _assignment_json(a: Any) -> dict[str, Any]:
    return {"id": a.id, "study_id": a.study_id, "item_id": a.item_id, "task": a.task, "round": a.round,
            "state": a.state, "final": a.final, "answer": a.answer}


@router.get("/api/studies")
def api_studies(request: Request, web: WebDep) -> JSONResponse:
    user = web.need_user(request)
    db = web.studies
    mine = {a.study_id for a in db.assignments(user.id)}
    admin = user.role == "admin"  # a study's config may name the methods under judgement: admins only
    return JSONResponse([{"id": s.id, "name": s.name, "kind": s.kind, **({"config": s.config} if admin else {}),
                          "progress": db.progress(s.id)}
                         for s in db.studies() if admin or s.id in mine])


@router.post("/api/studies", status_code=201, openapi_extra=body_schema(CreateStudyBody))
async def api_create_study(request: Request, web: WebDep) -> JSONResponse:
    user = web.need_user(request, ("admin",))
    web.check_csrf(request)
    body = await _json_body(request, CreateStudyBody)
    try:
        study = web.studies.create_study(body.name, body.kind, [i.model_dump() for i in body.items], body.config,
                                         created_by=user.id)
    except ValueError as err:
        raise HTTPException(400, str(err)) from None
    except (KeyError, TypeError) as err:  # a config whose "review" has the wrong shape
        raise HTTPException(400, f"bad study config: {err!r}") from None
    return JSONResponse({"id": study.id, "items": len(web.studies.items(study.id))}, status_code=201)


@router.post("/api/studies/{study_id}/assign", openapi_extra=body_schema(AssignBody))
async def api_assign(request: Request, web: WebDep, study_id: Id) -> JSONResponse:
    web.need_user(request, ("admin",))
    web.check_csrf(request)
    _study_or_404(web, study_id)
    body = await _json_body(request, AssignBody)
    db = web.studies
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


@router.post("/api/invites", status_code=201, openapi_extra=body_schema(InviteBody))
async def api_invite(request: Request, web: WebDep) -> JSONResponse:
    user = web.need_user(request, ("admin",))
    web.check_csrf(request)
    body = await _json_body(request, InviteBody)
    try:
        code = web.studies.invite(body.role, created_by=user.id, study_id=body.study_id)
    except KeyError as err:
        raise HTTPException(404, str(err.args[0])) from None
    except (ValueError, TypeError) as err:
        raise HTTPException(400, str(err)) from None
    return JSONResponse({"code": code, "link": f"{request.base_url}invite/{code}"}, status_code=201)


@router.get("/api/me")
def api_me(request: Request, web: WebDep) -> JSONResponse:
    user = web.need_user(request)
    return JSONResponse({"id": user.id, "name": user.name, "role": user.role})


@router.get("/api/me/assignments")
def api_my_assignments(request: Request, web: WebDep, study_id: OptionalId = None, state: str = "") -> JSONResponse:
    user = web.need_user(request)
    return JSONResponse([_assignment_json(a) for a in web.studies.assignments(user.id, study_id, state or None)])


@router.get("/api/assignments/{assignment_id}")
def api_assignment(request: Request, web: WebDep, assignment_id: Id) -> JSONResponse:
    user = web.need_user(request)
    assignment, item, study = _own(web, user, assignment_id)
    shown = item if user.role == "admin" else blinded(item, study.kind)
    return JSONResponse({**_assignment_json(assignment), "item": shown.key, "payload": shown.payload})


@router.post("/api/assignments/{assignment_id}", openapi_extra=body_schema(AnswerBody))
async def api_save(request: Request, web: WebDep, assignment_id: Id) -> JSONResponse:
    user = web.need_user(request)
    web.check_csrf(request)
    body = await _json_body(request, AnswerBody)
    try:
        saved = web.studies.save(user.id, assignment_id, body.answer, final=body.final)
    except KeyError:
        raise HTTPException(404, f"no assignment {assignment_id}") from None
    except PermissionError as err:
        raise HTTPException(403, str(err)) from None
    except ValueError as err:
        raise HTTPException(400, str(err)) from None
    return JSONResponse(_assignment_json(saved))


@router.get("/api/studies/{study_id}/export")
def api_export(request: Request, web: WebDep, study_id: Id, gold: bool = False) -> Response:
    web.need_user(request, ("admin",))
    _study_or_404(web, study_id)
    if gold:
        lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in web.studies.export_gold(study_id))
        return Response(lines, media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="study-{study_id}-gold.jsonl"'})
    return JSONResponse(web.studies.export(study_id),
                        headers={"Content-Disposition": f'attachment; filename="study-{study_id}.json"'})


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
