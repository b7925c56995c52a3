"""The app's OpenAPI schema: request bodies declared from pydantic models, the JSON error answers of every
``/api/`` operation, exact id bounds, and the 3.0 form that the packaged Swagger UI reads."""

from __future__ import annotations

from typing import Any

import pydantic
from fastapi import FastAPI

from interpeval.web.context import MAX_ID

#: what every JSON API operation may answer besides its success: ``{"detail": why}``
API_ERRORS = {400: "Malformed request", 401: "No valid token", 403: "Not allowed for this user or role",
              404: "No such run, instance, study or assignment", 413: "Request body too large",
              503: "The store cannot be written now (its disk is full, or another process holds its write lock)"}


def body_schema(model: type[pydantic.BaseModel]) -> dict[str, Any]:
    """``openapi_extra`` declaring ``model`` as the operation's required JSON body (its ``$defs`` inlined)."""
    schema = model.model_json_schema(by_alias=True)
    defs = schema.pop("$defs", {})

    def inline(node: dict[str, Any]) -> Any:
        return _rewrite(defs[node["$ref"].rsplit("/", 1)[1]], inline) if "$ref" in node else node

    return {"requestBody": {"required": True, "content": {"application/json": {"schema": _rewrite(schema, inline)}}}}


def document_api_errors(app: FastAPI) -> None:
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
                    for code, why in API_ERRORS.items():
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
                out[key] = min(int(out[key]), MAX_ID)
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
