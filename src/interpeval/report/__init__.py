"""Reports: tables that carry their provenance, and HTML pages that embed tables and figures."""

from interpeval.report.page import Figure, save_figure, write_report
from interpeval.report.table import Table

__all__ = ["Figure", "Table", "save_figure", "write_report"]
