"""The one Jinja2 environment of interpeval: autoescaped templates (``report/templates``), our assets
(``report/assets``) and the number filters, used by the static report and by the web app alike."""

from __future__ import annotations

import datetime as dt
import math
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

ASSETS = ("app.css", "app.js", "study.js", "swagger-init.js")


def plotly_js_path() -> Path:
    """plotly.js as shipped inside the installed ``plotly`` Python package (never a CDN)."""
    try:
        import plotly
    except ImportError as err:
        raise RuntimeError("the web views need plotly: pip install 'interpeval[web]'") from err
    return Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def asset(name: str) -> str:
    """The text of one of our static files."""
    if name not in ASSETS:
        raise KeyError(name)
    return (resources.files("interpeval.report") / "assets" / name).read_text(encoding="utf-8")


def _number(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def significant(value: Any, digits: int = 3) -> str:
    """A number with ``digits`` significant digits (0.0183, 12.4, 3.1e-06); "–" for a missing one."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:#.{digits}g}".rstrip(".") if abs(value) >= 1e-4 or value == 0 else f"{value:.{digits - 1}e}"
    return str(value)


def _when(ts: float | None) -> str:
    return dt.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M") if ts else "–"


def _sort_key(value: Any) -> str:
    """A value for the client-side table sort (numbers sort numerically, NaN last)."""
    if isinstance(value, dict):
        value = value.get("value")
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value)


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(loader=PackageLoader("interpeval.report", "templates"),
                      autoescape=select_autoescape(("html", "xml"), default=True), trim_blocks=True,
                      lstrip_blocks=True)
    env.filters["num"] = _number
    env.filters["sig"] = significant
    env.filters["when"] = _when
    env.filters["sortkey"] = _sort_key
    env.globals["asset"] = asset
    return env


def render(template: str, **context: Any) -> str:
    """Render a template; ``static=True`` inlines every asset (plotly included) for a self-contained file."""
    context.setdefault("static", False)
    if context["static"]:
        context.setdefault("plotly_js", plotly_js_path().read_text(encoding="utf-8"))
    return environment().get_template(template).render(**context)
