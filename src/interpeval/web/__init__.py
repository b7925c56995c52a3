"""The web app (``interpeval serve``): results explorer, leaderboards, probing dashboard and annotation studies.

:func:`create_app` builds the FastAPI application over one SQLite store; :mod:`interpeval.web.render` holds the
Jinja2 environment that the static report (:mod:`interpeval.report.static`) shares, so both show the same views.
"""

from interpeval.web.app import create_app

__all__ = ["create_app"]
