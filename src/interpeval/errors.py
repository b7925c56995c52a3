"""Errors that users see as one clear line: what is wrong, where, and how to fix it.

Only these types get the one-line treatment from the command line (exit code 2); any other exception is a bug and
keeps its traceback. Every type pickles with its own fields, so an error raised in a worker process (``probing
convert --workers 4``) reaches the user with its message intact.
"""

from __future__ import annotations


class InterpevalError(Exception):
    """Base class: the CLI prints these as one line and exits with code 2."""


class DataError(InterpevalError, ValueError):
    """Malformed input data; the message names the file and the line or record."""

    def __init__(self, path: object, where: object, problem: str) -> None:
        self.path, self.where, self.problem = str(path), where, problem
        location = f"{self.path}:{where}" if where not in (None, "") else self.path
        super().__init__(f"{location}: {problem}")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return type(self), (self.path, self.where, self.problem)


class OptionError(InterpevalError, ValueError):
    """A bad command-line option or argument (or the matching Python parameter); the message names it."""

    def __init__(self, option: str, problem: str) -> None:
        self.option, self.problem = option, problem
        super().__init__(f"{option}: {problem}")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return type(self), (self.option, self.problem)


class UnknownName(OptionError, KeyError):
    """An option names nothing registered (an explainer, a metric): an OptionError, and a KeyError as the registry
    lookup it replaces."""

    def __str__(self) -> str:
        return str(self.args[0])
