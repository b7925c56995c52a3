"""Every evaluation number of the five systems, as pure functions with declared metadata."""

from interpeval.metrics.base import FAMILIES, Evidence, Metric, MetricInfo, get, names, register

__all__ = ["FAMILIES", "Evidence", "Metric", "MetricInfo", "get", "names", "register"]
