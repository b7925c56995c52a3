"""Checks that run before any work: input files, output paths, numeric options, devices and explainer parameters.

Every check raises :class:`~interpeval.errors.DataError` (a file and the place in it) or
:class:`~interpeval.errors.OptionError` (the option), so the command line prints one clear line instead of a
traceback, and a long run never fails at its end because an output path or a parameter was wrong from the start.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpeval.errors import DataError, InterpevalError, OptionError, UnknownName

if TYPE_CHECKING:
    from interpeval.explain.spec import ExplainerSpec


UTF16 = "is UTF-16 text, not UTF-8 (save it as UTF-8)"


# ------------------------------------------------------------------------------------------------ input files
def input_file(path: str | os.PathLike[str]) -> Path:
    """``path`` as a Path when it is an existing, readable file (not a folder)."""
    path = Path(path)
    if not path.exists():
        raise DataError(path, None, "no such file")
    if path.is_dir():
        raise DataError(path, None, "is a folder, not a file")
    if not os.access(path, os.R_OK):
        raise DataError(path, None, "cannot be read (permission denied)")
    return path


def decode_utf8(data: bytes, path: str | os.PathLike[str]) -> str:
    """``data`` as text (a UTF-8 byte-order mark is dropped); non-UTF-8 or binary input names the line."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DataError(path, "line 1", UTF16)
    nul = data.find(b"\0")
    if nul >= 0:
        line = data[:nul].count(b"\n") + 1
        raise DataError(path, f"line {line}", "holds a NUL byte: a binary file, not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise DataError(path, f"line {line}", f"is not UTF-8 text (byte 0x{data[err.start]:02x} at column "
                                              f"{column})") from None


def read_text(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of an input file; a missing file, a folder, binary or non-UTF-8 content is a DataError."""
    path = input_file(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise DataError(path, None, f"cannot be read ({err.strerror})") from None
    return decode_utf8(data, path)


def json_objects(path: str | os.PathLike[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for each non-empty line of a JSON-lines file; a missing file, a line that is not
    UTF-8, not JSON or not a JSON object is a DataError naming the line."""
    path = Path(path)
    if not path.is_file():
        raise DataError(path, None, "no such file")
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise DataError(path, f"line {number}", "is not valid UTF-8") from None
            if not text.strip():
                continue
            try:
                row = json.loads(text)
            except json.JSONDecodeError as err:
                raise DataError(path, f"line {number}", f"is not valid JSON ({err.msg})") from None
            if not isinstance(row, dict):
                raise DataError(path, f"line {number}", "must be a JSON object")
            yield number, row


# ------------------------------------------------------------------------------------------------ output paths
def _existing_ancestor(path: Path, option: str) -> Path:
    """The nearest existing folder above ``path``; a file on the way is an error (``out/x`` under a file)."""
    for parent in path.absolute().parents:
        if parent.exists():
            if not parent.is_dir():
                raise OptionError(option, f"{path}: {parent} is a file, so nothing can be written under it")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise OptionError(option, f"{path}: cannot write in {parent} (permission denied)")
            return parent
    raise OptionError(option, f"{path}: no existing folder above it")  # pragma: no cover - '/' always exists


def output_file(path: str | os.PathLike[str], option: str, suffixes: Sequence[str] = ()) -> Path:
    """Check an output file before the work: not a folder, not under a file, writable; missing folders are made."""
    path = Path(path)
    if suffixes and path.suffix.lower() not in suffixes:
        raise OptionError(option, f"{path}: unknown format {path.suffix or '(no suffix)'!r}; use "
                                  f"{', '.join(suffixes)}")
    if path.is_dir():
        raise OptionError(option, f"{path} is a folder; give a file name")
    if path.exists():
        if not os.access(path, os.W_OK):
            raise OptionError(option, f"{path}: cannot be overwritten (permission denied)")
        return path
    _existing_ancestor(path, option)
    return path


def output_dir(path: str | os.PathLike[str], option: str) -> Path:
    """Check an output folder before the work: a folder or nothing yet, not under a file, writable."""
    path = Path(path)
    if path.exists():
        if not path.is_dir():
            raise OptionError(option, f"{path} is a file, not a folder")
        if not os.access(path, os.W_OK | os.X_OK):
            raise OptionError(option, f"{path}: cannot write in it (permission denied)")
        return path
    _existing_ancestor(path, option)
    return path


def input_dir(path: str | os.PathLike[str], option: str) -> Path:
    """An existing folder (e.g. ``--data-dir``)."""
    path = Path(path)
    if not path.is_dir():
        raise OptionError(option, f"{path}: {'is a file, not a folder' if path.exists() else 'no such folder'}")
    return path


def store(path: str | os.PathLike[str] | None, option: str = "--store", must_exist: bool = False) -> None:
    """The results store (``None``: ``$INTERPEVAL_STORE`` or the user data dir) must be an SQLite file or new;
    ``must_exist`` (commands that only read) rejects a ``path`` that names no file, so a typo is not a new store."""
    from interpeval.store.sqlite import check_store_path, default_store_path

    try:
        check_store_path(default_store_path() if path is None else path)
    except DataError as err:
        raise OptionError(option if path is not None else "$INTERPEVAL_STORE", str(err)) from None
    if must_exist and path is not None and not Path(path).exists():
        raise OptionError(option, f"{path}: no such store (runs are recorded there by the benchmark commands)")


# ------------------------------------------------------------------------------------------------ values
def at_least(value: int | float | None, minimum: int | float, option: str) -> None:
    """``value >= minimum`` (None passes: "not given")."""
    if value is not None and value < minimum:
        raise OptionError(option, f"must be >= {minimum}, got {value}")


def one_of(value: str | None, choices: Sequence[str], option: str) -> None:
    """``value`` is one of ``choices`` (None passes)."""
    if value is not None and value not in choices:
        raise OptionError(option, f"{value!r} is not one of {', '.join(choices)}")


def int_list(text: str | None, option: str) -> list[int] | None:
    """``"1,2,5"`` as integers (None: not given)."""
    if text is None:
        return None
    try:
        return [int(item) for item in text.split(",")]
    except ValueError:
        raise OptionError(option, f"expected comma-separated integers, got {text!r}") from None


def device(value: str, option: str = "--device") -> None:
    """``auto``, ``cpu``, ``cuda[:N]`` or ``mps``, and present on this machine."""
    if value == "auto":
        return
    import torch

    try:
        dev = torch.device(value)
    except RuntimeError:
        raise OptionError(option, f"{value!r} is not a device; use auto, cpu, cuda, cuda:N or mps") from None
    if dev.type == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count == 0:
            raise OptionError(option, f"{value!r}: this machine has no CUDA device (use auto or cpu)")
        if dev.index is not None and dev.index >= count:
            raise OptionError(option, f"{value!r}: this machine has {count} CUDA device(s), 0..{count - 1}")
    elif dev.type == "mps" and not torch.backends.mps.is_available():
        raise OptionError(option, f"{value!r}: MPS is not available on this machine (use auto or cpu)")
    elif dev.type not in ("cpu", "cuda", "mps"):
        raise OptionError(option, f"{value!r}: use auto, cpu, cuda, cuda:N or mps")


@contextmanager
def as_option_error(option: str) -> Iterator[None]:
    """Turn the ValueError/KeyError of a parser (an explainer spec, a metric name) into an OptionError."""
    try:
        yield
    except InterpevalError:
        raise
    except (ValueError, KeyError) as err:
        message = str(err.args[0] if err.args else repr(err))
        raise (UnknownName if isinstance(err, KeyError) else OptionError)(option, message) from None


# ------------------------------------------------------------------------------------------------ explainers
def explainers(texts: Sequence[str], option: str = "--explainer", labels: bool = True) -> list[ExplainerSpec]:
    """Every ``[LABEL=]NAME[:key=value,...]`` of ``option`` parsed and checked (:mod:`interpeval.explain.spec`); a
    bad one is an OptionError naming it. ``labels=False``: the command names its runs by explainer, so a label
    would be ignored and is refused."""
    from interpeval.explain.spec import SpecError, UnknownExplainer, parse_checked

    out = []
    for text in texts:
        try:
            spec = parse_checked(text)
        except SpecError as err:
            raise (UnknownName if isinstance(err, UnknownExplainer) else OptionError)(option, str(err)) from None
        if spec.label and not labels:
            raise OptionError(option, f"{text!r}: this command names its runs by explainer, so a LABEL= would not be "
                                       f"shown anywhere; write {spec.body}")
        out.append(spec)
    return out


def explainer_specs(explainer: Sequence[str], method: str | None, param: Sequence[str], default: str | None = None,
                    labels: bool = True) -> list[ExplainerSpec]:
    """The explainers of a command that takes ``--explainer`` (repeatable), or of its deprecated ``--method NAME
    --param key=value`` spelling (one line on stderr says so); ``default`` when neither is given."""
    if method is not None or param:
        if explainer:
            raise OptionError("--explainer", "give --explainer, or the deprecated --method/--param, not both")
        deprecated("--method/--param", "--explainer NAME[:key=value,...]")
        return [legacy_explainer(method or default or "", param)]
    if not explainer and default is None:
        raise OptionError("--explainer", "no explainer: give --explainer NAME[:key=value,...] "
                                         "(interpeval.explain.names())")
    return explainers(explainer or [default], labels=labels)


def legacy_explainer(method: str, params: Sequence[str], method_option: str = "--method",
                     param_option: str = "--param") -> ExplainerSpec:
    """The explainer of the old ``--method NAME --param key=value`` spelling, checked like ``--explainer``: an
    unknown name is reported under ``method_option``, a bad parameter under ``param_option``."""
    from interpeval.explain.spec import ExplainerSpec, SpecError, UnknownExplainer, check, parse

    try:
        spec = parse(method)
    except SpecError as err:
        raise (UnknownName if isinstance(err, UnknownExplainer) else OptionError)(method_option, str(err)) from None
    for item in params:
        if "=" not in item or not item.partition("=")[0].strip():
            raise OptionError(param_option, f"expects key=value, got {item!r}")
    try:
        extra = parse(f"{spec.name}:{','.join(params)}", known=False).params if params else {}
        return check(ExplainerSpec(spec.name, {**spec.params, **extra}, spec.label))
    except SpecError as err:
        raise OptionError(param_option, str(err)) from None


def deprecated(old: str, new: str) -> None:
    """One line on stderr: ``old`` still works for this release; ``new`` is how to write it."""
    import sys

    print(f"interpeval: deprecated: {old} goes in the next release; use {new}", file=sys.stderr)
