"""Errors that users see as one clear line: what is wrong, where, and how to fix it."""

from __future__ import annotations


class InterpevalError(Exception):
    """Base class: the CLI prints these as one line and exits non-zero."""


class DataError(InterpevalError, ValueError):
    """Malformed input data; the message names the file and the line or record."""

    def __init__(self, path: object, where: object, problem: str) -> None:
        self.path, self.where, self.problem = str(path), where, problem
        location = f"{self.path}:{where}" if where not in (None, "") else self.path
        super().__init__(f"{location}: {problem}")
