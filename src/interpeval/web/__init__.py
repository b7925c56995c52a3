"""The web app (``interpeval serve``): results explorer, leaderboards, probing dashboard and annotation studies.

:func:`create_app` builds the FastAPI application over one SQLite store from the routers in
:mod:`interpeval.web.routes`; its pages are rendered by :mod:`interpeval.report.render`, the Jinja2 environment that
the static report (:mod:`interpeval.report.static`) uses too, so both show the same views.
"""

from interpeval.web.app import create_app

__all__ = ["create_app"]
