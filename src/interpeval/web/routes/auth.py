"""Log in (a token, kept in the ``ie_token`` cookie), log out, and invite links that make a new user."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from interpeval.report.render import render
from interpeval.web.context import COOKIE, WebDep

router = APIRouter()


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, web: WebDep, next: str = "/studies") -> HTMLResponse:
    return web.page(request, "login.html", next=_local(next), error="")


@router.post("/login")
async def login(request: Request, web: WebDep) -> Response:
    form = await request.form()
    token = str(form.get("token", "")).strip()
    target = _local(str(form.get("next", "/studies")))
    if web.studies.user_by_token(token) is None:
        return web.page(request, "login.html", status=401, next=target, error="That token is not valid.")
    response = RedirectResponse(target, status_code=303)
    _set_cookie(response, token)
    return response


@router.post("/logout")
async def logout(request: Request, web: WebDep) -> Response:
    form = await request.form()
    web.check_csrf(request, str(form.get("csrf", "")))
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(COOKIE, path="/")
    return response


@router.get("/invite/{code}", response_class=HTMLResponse)
def invite_form(request: Request, web: WebDep, code: str) -> HTMLResponse:
    role = web.studies.invite_role(code)
    if role is None:
        raise HTTPException(403, "this invite link is wrong or has been used already")
    return web.page(request, "invite.html", code=code, role=role, error="")


@router.post("/invite/{code}")
async def invite_accept(request: Request, web: WebDep, code: str) -> Response:
    form = await request.form()
    try:
        user, token = web.studies.accept_invite(code, str(form.get("name", "")))
    except PermissionError as err:
        raise HTTPException(403, str(err)) from None
    except ValueError as err:
        role = web.studies.invite_role(code) or "?"
        return web.page(request, "invite.html", status=400, code=code, role=role, error=str(err))
    response = HTMLResponse(render("welcome.html", user=user, csrf=web.csrf_for(token), path="/", token=token))
    _set_cookie(response, token)
    return response


def _local(target: str) -> str:
    """Only same-site paths as redirect targets (no open redirect)."""
    return target if target.startswith("/") and not target.startswith("//") else "/studies"


def _set_cookie(response: Response, token: str) -> None:
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/", max_age=30 * 86400)
