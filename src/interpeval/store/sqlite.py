"""SQLite results store.

A run is identified by the hash of (benchmark, config, model, data fingerprint): re-running the same command finds
the same run and skips the instances already recorded, so a run killed at any moment resumes where it stopped.
Every ``record`` is one transaction (output and its metrics together), so a kill never leaves half an instance.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import interpeval
from interpeval.errors import DataError, InterpevalError, OptionError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    benchmark TEXT NOT NULL,
    config_json TEXT NOT NULL,
    config_hash TEXT NOT NULL UNIQUE,
    model TEXT NOT NULL,
    data_fingerprint TEXT NOT NULL,
    code_version TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at REAL NOT NULL,
    finished_at REAL,
    elapsed_s REAL NOT NULL DEFAULT 0,
    revision INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS instances (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    instance_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    output_json TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (run_id, instance_id)
);
CREATE TABLE IF NOT EXISTS metrics (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    instance_id TEXT NOT NULL,
    grp TEXT NOT NULL,
    name TEXT NOT NULL,
    value REAL,
    PRIMARY KEY (run_id, instance_id, grp, name)
);
CREATE TABLE IF NOT EXISTS run_views (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    revision INTEGER NOT NULL,
    code TEXT NOT NULL,
    value_json TEXT NOT NULL,
    PRIMARY KEY (run_id, name)
);
CREATE TABLE IF NOT EXISTS paper_reports (
    paper TEXT NOT NULL,
    profile TEXT NOT NULL,
    report_json TEXT NOT NULL,
    run_ids_json TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (paper, profile)
);
"""


EXPORT_SUFFIXES = (".csv", ".json", ".parquet")

#: every write of a run's instances or metrics, by this code or any other writer of the file, counts up the run's
#: ``revision``: what is kept of a run (``run_views``) is valid for one revision
_REVISION_TRIGGERS = tuple(
    f"CREATE TRIGGER IF NOT EXISTS {table}_{event.lower()}_revises AFTER {event} ON {table} BEGIN "
    f"UPDATE runs SET revision = revision + 1 WHERE id = {row}.run_id; END"
    for table in ("instances", "metrics") for event, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")))

#: the layout this code writes, kept in SQLite's ``user_version``. Version 1 is every store written before versions
#: were recorded (main up to d35c524: ``user_version`` 0 with a ``runs`` table); each step in :data:`MIGRATIONS`
#: brings a store from the version before it, in one transaction, when the store is opened.
SCHEMA_VERSION = 4


def _invites_join_studies(conn: sqlite3.Connection) -> None:
    """2: an invite made from a study page names the study it joins (``study_invites.study_id``)."""
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "study_invites" in tables and "study_id" not in {r[1] for r in conn.execute(
            "PRAGMA table_info(study_invites)")}:
        conn.execute("ALTER TABLE study_invites ADD COLUMN study_id INTEGER REFERENCES studies(id)")


def _paper_reports(conn: sqlite3.Connection) -> None:
    """3: ``interpeval reproduce`` keeps each paper's report (paper vs ours, findings) with the run ids it read."""
    conn.execute(_SCHEMA[_SCHEMA.index("CREATE TABLE IF NOT EXISTS paper_reports"):].rstrip().rstrip(";"))


def _run_revisions(conn: sqlite3.Connection) -> None:
    """4: each run counts its writes (``runs.revision``, kept by triggers) and what views compute of one run is kept
    per revision (``run_views``: e.g. its leaderboard rows and intervals, computed once)."""
    if "revision" not in {r[1] for r in conn.execute("PRAGMA table_info(runs)")}:
        conn.execute("ALTER TABLE runs ADD COLUMN revision INTEGER NOT NULL DEFAULT 0")


MIGRATIONS = {2: _invites_join_studies, 3: _paper_reports, 4: _run_revisions}

_recorders: list[set[int]] = []
_recorders_lock = threading.Lock()


@contextmanager
def recording_runs() -> Iterator[set[int]]:
    """The ids of every run opened, resumed or read (its instances or metrics) through any :class:`Store` of this
    process while the block runs — e.g. the runs a paper's reproduction is built from."""
    seen: set[int] = set()
    with _recorders_lock:
        _recorders.append(seen)
    try:
        yield seen
    finally:
        with _recorders_lock:
            _recorders.remove(seen)


def _used(run_id: int) -> None:
    if _recorders:
        with _recorders_lock:
            for seen in _recorders:
                seen.add(int(run_id))


class UnknownRun(InterpevalError, KeyError):
    """A run id that is not in the store (a KeyError for library callers; the CLI shows one line)."""

    def __str__(self) -> str:
        return str(self.args[0])


def default_store_path() -> Path:
    """``$INTERPEVAL_STORE`` or ``<user data dir>/interpeval/results.sqlite``."""
    env = os.environ.get("INTERPEVAL_STORE")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("interpeval")) / "results.sqlite"


def _code_version() -> str:
    root = Path(__file__).resolve().parents[3]
    try:
        sha = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        sha = ""
    return f"{interpeval.__version__}+{sha}" if sha else interpeval.__version__


def config_hash(benchmark: str, config: dict[str, Any], model: str, data_fingerprint: str,
                model_revision: str = "") -> str:
    """A run's identity; ``model_revision`` (the model's content hash, when it has one) makes a changed model a
    new run under the same name."""
    fields = [benchmark, config, model, data_fingerprint] + ([model_revision] if model_revision else [])
    payload = json.dumps(fields, sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def fingerprint_files(*paths: str | os.PathLike[str]) -> str:
    """A content hash of data files, so a run over changed data is a new run."""
    digest = hashlib.sha256()
    for path in sorted(str(p) for p in paths):
        digest.update(Path(path).name.encode())
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:16]




def check_store_path(path: str | os.PathLike[str]) -> Path:
    """A usable store path: an SQLite file or a file to be made (not a folder, not under a file, not other data)."""
    path = Path(path)
    if path.is_dir():
        raise DataError(path, None, "is a folder; the store is one SQLite file (e.g. results.sqlite in it)")
    if path.exists():
        # Asked through SQLite, never with open(): closing any other handle on the file would drop the POSIX locks
        # of the connections this process already holds on it, and a writer elsewhere could then corrupt them.
        probe = None
        try:
            probe = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
            probe.execute("PRAGMA schema_version").fetchone()
        except sqlite3.DatabaseError as err:
            problem = "is not an SQLite database, so it cannot be the results store" if "not a database" in str(err) \
                else f"cannot be read as a store ({err})"
            raise DataError(path, None, problem) from None
        finally:
            if probe is not None:
                probe.close()
        return path
    for parent in path.absolute().parents:
        if parent.exists():
            if not parent.is_dir():
                raise DataError(path, None, f"cannot be created: {parent} is a file")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise DataError(path, None, f"cannot be created in {parent} (permission denied)")
            break
    return path


@dataclass(frozen=True)
class RunInfo:
    id: int
    benchmark: str
    config: dict[str, Any]
    config_hash: str
    model: str
    data_fingerprint: str
    code_version: str
    status: str
    created_at: float
    finished_at: float | None
    elapsed_s: float
    n_instances: int
    revision: int = 0
    """How many writes of its instances and metrics the run has had: what is kept of it is valid for one."""


class StoreUnavailable(InterpevalError):
    """The store cannot be written now: its disk is full, or another process holds its write lock."""


def lock_timeout() -> float:
    """How long a write waits for another process's lock: ``$INTERPEVAL_STORE_TIMEOUT`` seconds, default 60."""
    return float(os.environ.get("INTERPEVAL_STORE_TIMEOUT", "60"))


def _unavailable(path: Path, err: sqlite3.Error, waited: float) -> StoreUnavailable | None:
    """The clear error for a full disk or a lock held past ``waited`` seconds; None for any other SQLite error."""
    text, name = str(err), getattr(err, "sqlite_errorname", "")
    if name == "SQLITE_FULL" or "disk is full" in text:
        return StoreUnavailable(f"{path}: cannot be written: the disk is full; everything recorded before is kept "
                                "— free space and run the same command again to resume")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text:
        return StoreUnavailable(f"{path}: the store is locked by another writing process{_holders(path)}; waited "
                                f"{waited:g} s (INTERPEVAL_STORE_TIMEOUT) — run again when it is done, or use "
                                "another --store")
    return None


def _holders(path: Path) -> str:
    """The other processes that have the store open, from /proc (Linux; '' elsewhere or when none is visible)."""
    target, found = str(path.resolve()), []
    for fds in Path("/proc").glob("[0-9]*/fd"):
        if fds.parent.name == str(os.getpid()):
            continue
        try:
            if any(os.readlink(fd) == target for fd in fds.iterdir()):
                command = (fds.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                found.append(f"{fds.parent.name} ({command.strip()[:100]})")
        except OSError:
            continue
    return f" (open in process {', '.join(found)})" if found else ""


class Store:
    """A results database; ``path=None`` uses :func:`default_store_path`."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = check_store_path(Path(path) if path is not None else default_store_path())
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._timeout = lock_timeout()
        self._kept_changes = 0
        self._conn = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None,
                                     check_same_thread=False)
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")  # in WAL mode a commit survives a killed process
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as err:
            self._conn.close()
            raise _unavailable(self.path, err, self._timeout) or DataError(
                self.path, None, f"cannot be used as the results store ({err})") from None
        except DataError:
            self._conn.close()
            raise

    def _migrate(self) -> None:
        """Create a new store at :data:`SCHEMA_VERSION`, or bring an older one up to it (never a newer one down).
        A store already at this version is only read (it may be a read-only file)."""
        if int(self._conn.execute("PRAGMA user_version").fetchone()[0]) == SCHEMA_VERSION:
            return
        with self.transaction() as conn:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version == 0:
                old = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'").fetchone()
                version = 1 if old else SCHEMA_VERSION
            if version > SCHEMA_VERSION:
                raise DataError(self.path, None, f"was written by a newer interpeval (store schema {version}; this "
                                                 f"version reads up to {SCHEMA_VERSION}): upgrade interpeval")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            for step in range(version + 1, SCHEMA_VERSION + 1):
                MIGRATIONS[step](conn)
            for trigger in _REVISION_TRIGGERS:
                conn.execute(trigger)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @property
    def schema_version(self) -> int:
        """The store's layout version (:data:`SCHEMA_VERSION` once opened by this code)."""
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        self._conn.close()

    def version(self) -> tuple[int, int]:
        """A value that changes whenever the store's content may have changed: a commit by any other connection
        (SQLite's ``data_version``) or a change made through this one (``total_changes``, less the rows it kept in
        ``run_views``: keeping what was computed of the content changes no content). Caches key on it."""
        return (int(self._conn.execute("PRAGMA data_version").fetchone()[0]),
                self._conn.total_changes - self._kept_changes)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; a full disk or a lock held too long is a :class:`StoreUnavailable` naming the
        store, and nothing of the transaction is kept."""
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            raise _unavailable(self.path, err, self._timeout) or err from None
        try:
            yield self._conn
            self._conn.execute("COMMIT")
        except BaseException as err:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            clear = _unavailable(self.path, err, self._timeout) if isinstance(err, sqlite3.OperationalError) else None
            if clear is not None:
                raise clear from None
            raise

    def run(self, benchmark: str, config: dict[str, Any], model: str = "", data_fingerprint: str = "",
            model_revision: str = "") -> Run:
        """Get or create the run for this exact (benchmark, config, model and its revision, data)."""
        key = config_hash(benchmark, config, model, data_fingerprint, model_revision)
        with self.transaction() as conn:
            row = conn.execute("SELECT id FROM runs WHERE config_hash = ?", (key,)).fetchone()
            if row is None:
                cursor = conn.execute(
                    "INSERT INTO runs (benchmark, config_json, config_hash, model, data_fingerprint, code_version,"
                    " status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'running', ?)",
                    (benchmark, json.dumps(config, sort_keys=True, default=str), key, model, data_fingerprint,
                     _code_version(), time.time()))
                run_id = int(cursor.lastrowid)
            else:
                run_id = int(row[0])
                conn.execute("UPDATE runs SET status = 'running' WHERE id = ? AND status != 'finished'", (run_id,))
        _used(run_id)
        return Run(self, run_id)

    def runs(self, benchmark: str | None = None) -> list[RunInfo]:
        query = ("SELECT r.id, r.benchmark, r.config_json, r.config_hash, r.model, r.data_fingerprint, r.code_version,"
                 " r.status, r.created_at, r.finished_at, r.elapsed_s,"
                 " (SELECT COUNT(*) FROM instances i WHERE i.run_id = r.id), r.revision FROM runs r")
        args: tuple[Any, ...] = ()
        if benchmark is not None:
            query += " WHERE r.benchmark = ?"
            args = (benchmark,)
        rows = self._conn.execute(query + " ORDER BY r.id", args).fetchall()
        return [RunInfo(r[0], r[1], json.loads(r[2]), *r[3:]) for r in rows]

    def get_run(self, run_id: int) -> RunInfo:
        _used(run_id)
        for info in self.runs():
            if info.id == run_id:
                return info
        raise UnknownRun(f"no run with id {run_id} in {self.path}; `interpeval runs list` shows the ids")

    def instances(self, run_id: int) -> list[dict[str, Any]]:
        _used(run_id)
        rows = self._conn.execute(
            "SELECT instance_id, output_json FROM instances WHERE run_id = ? ORDER BY seq", (run_id,)).fetchall()
        return [{"instance_id": iid, **json.loads(output)} for iid, output in rows]

    def instance(self, run_id: int, instance_id: str) -> dict[str, Any] | None:
        """One stored output (``None`` when the run has no such instance)."""
        _used(run_id)
        row = self._conn.execute("SELECT output_json FROM instances WHERE run_id = ? AND instance_id = ?",
                                 (run_id, str(instance_id))).fetchone()
        return None if row is None else {"instance_id": str(instance_id), **json.loads(row[0])}

    def metrics(self, run_id: int, instance_id: str | None = None) -> list[dict[str, Any]]:
        """A run's metric rows (of one instance only, when given; run-level ones have instance id ``""``)."""
        _used(run_id)
        where, args = ("", (run_id,)) if instance_id is None else (" AND instance_id = ?", (run_id, str(instance_id)))
        rows = self._conn.execute(
            "SELECT instance_id, grp, name, value FROM metrics WHERE run_id = ?" + where +
            " ORDER BY instance_id, grp, name", args).fetchall()
        return [{"instance_id": iid, "group": grp, "name": name, "value": value} for iid, grp, name, value in rows]

    def run_view(self, run: RunInfo, name: str, code: str) -> tuple[bool, Any]:
        """``(True, value)`` kept by :meth:`keep_run_view` for this run at its revision and ``code``, else
        ``(False, None)``."""
        row = self._conn.execute("SELECT value_json FROM run_views WHERE run_id = ? AND name = ? AND revision = ?"
                                 " AND code = ?", (run.id, name, run.revision, code)).fetchone()
        return (False, None) if row is None else (True, json.loads(row[0]))

    def keep_run_view(self, run: RunInfo, name: str, code: str, value: Any) -> bool:
        """Keep ``value`` (JSON, NaN allowed) computed of ``run`` at its revision by ``code``, replacing an older one;
        False, keeping nothing, where the store cannot be written at once (a read-only file, another writer's
        lock): keeping is an optimisation, never a wait."""
        payload = json.dumps(value, default=_to_jsonable)  # numpy numbers as plain ones, like instance outputs
        before = self._conn.total_changes
        try:
            self._conn.execute("PRAGMA busy_timeout = 0")
            with self.transaction() as conn:
                conn.execute("INSERT OR REPLACE INTO run_views (run_id, name, revision, code, value_json)"
                             " SELECT id, ?, ?, ?, ? FROM runs WHERE id = ? AND revision = ?",
                             (name, run.revision, code, payload, run.id, run.revision))
        except (sqlite3.OperationalError, StoreUnavailable):
            return False
        finally:
            self._conn.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
            self._kept_changes += self._conn.total_changes - before
        return True

    def put_paper_report(self, paper: str, profile: str, report: dict[str, Any], run_ids: Iterable[int]) -> None:
        """Keep a paper's reproduction (``PaperReport.to_json()``) and the runs it was built from; a rerun of the
        same paper and profile replaces it."""
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO paper_reports (paper, profile, report_json, run_ids_json, created_at)"
                         " VALUES (?, ?, ?, ?, ?)", (paper, profile, json.dumps(report, allow_nan=False),
                                                      json.dumps(sorted(set(run_ids))), time.time()))

    def paper_reports(self) -> list[dict[str, Any]]:
        """Every kept reproduction, by paper then profile: ``{"paper", "profile", "report", "run_ids",
        "created_at"}``."""
        rows = self._conn.execute("SELECT paper, profile, report_json, run_ids_json, created_at FROM paper_reports"
                                  " ORDER BY paper, profile").fetchall()
        return [{"paper": paper, "profile": profile, "report": json.loads(report), "run_ids": json.loads(ids),
                 "created_at": created} for paper, profile, report, ids, created in rows]

    def study_payloads(self, kind: str, field: str, value: str) -> list[dict[str, Any]]:
        """The payloads of the study items (of studies of ``kind``, :mod:`interpeval.store.studies`) whose JSON
        ``field`` (a path such as ``$.iqs.sample_id``) equals ``value``; none in a file that never held a study."""
        try:
            rows = self._conn.execute(
                "SELECT i.payload_json FROM study_items i JOIN studies s ON s.id = i.study_id WHERE s.kind = ?"
                " AND json_extract(i.payload_json, ?) = ? ORDER BY i.id", (kind, field, value)).fetchall()
        except sqlite3.OperationalError:  # no study tables in this file
            return []
        return [json.loads(r[0]) for r in rows]

    def export(self, run_id: int, path: str | os.PathLike[str], table: str = "metrics") -> Path:
        """Write a run's ``metrics`` or ``instances`` as CSV, JSON or Parquet (chosen by the file suffix)."""
        import pandas as pd

        path = Path(path)
        if table not in ("metrics", "instances"):
            raise OptionError("--table", f"must be 'metrics' or 'instances', got {table!r}")
        if path.suffix.lower() not in EXPORT_SUFFIXES:
            raise OptionError("PATH", f"{path}: unknown export format {path.suffix!r}; use "
                                      f"{', '.join(EXPORT_SUFFIXES)}")
        path.parent.mkdir(parents=True, exist_ok=True)
        records = self.metrics(run_id) if table == "metrics" else self.instances(run_id)
        frame = pd.DataFrame.from_records(records)
        if table == "instances" and len(frame):
            frame = frame.assign(**{c: frame[c].map(_json_cell) for c in frame.columns if c != "instance_id"})
        suffix = path.suffix.lower()
        if suffix == ".csv":
            frame.to_csv(path, index=False)
        elif suffix == ".json":
            path.write_text(json.dumps(records, indent=1, default=str))
        else:
            frame.to_parquet(path, index=False)
        return path


def _json_cell(value: Any) -> Any:
    return json.dumps(value, default=str) if isinstance(value, (dict, list)) else value


class Run:
    """One run in a store: record instances one transaction at a time; ``done_ids`` drives resumption."""

    def __init__(self, store: Store, run_id: int) -> None:
        self.store = store
        self.id = run_id
        self._started = time.perf_counter()

    @property
    def info(self) -> RunInfo:
        return self.store.get_run(self.id)

    def done_ids(self) -> set[str]:
        rows = self.store._conn.execute("SELECT instance_id FROM instances WHERE run_id = ?", (self.id,))
        return {row[0] for row in rows}

    def record(self, instance_id: str, output: dict[str, Any], metrics: dict[str, float] | None = None,
               group: str = "") -> None:
        """Store one instance's output and metrics atomically; recording an id twice is an error."""
        payload = json.dumps(output, default=_to_jsonable)
        with self.store.transaction() as conn:
            seq = conn.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM instances WHERE run_id = ?",
                               (self.id,)).fetchone()[0]
            try:
                conn.execute("INSERT INTO instances (run_id, instance_id, seq, output_json, created_at)"
                             " VALUES (?, ?, ?, ?, ?)", (self.id, str(instance_id), seq, payload, time.time()))
            except sqlite3.IntegrityError:
                raise ValueError(f"instance {instance_id!r} is already recorded in run {self.id}") from None
            if metrics:
                conn.executemany("INSERT OR REPLACE INTO metrics VALUES (?, ?, ?, ?, ?)",
                                 [(self.id, str(instance_id), group, k, _float(v)) for k, v in metrics.items()])

    def add_metrics(self, values: dict[str, float], group: str = "") -> None:
        """Run-level (aggregate) metric values; re-adding replaces them."""
        with self.store.transaction() as conn:
            conn.executemany("INSERT OR REPLACE INTO metrics VALUES (?, '', ?, ?, ?)",
                             [(self.id, group, k, _float(v)) for k, v in values.items()])

    def metrics(self, group: str | None = None) -> dict[str, float]:
        """Run-level metric values (of one group, or all as ``group/name``)."""
        out = {}
        for row in self.store.metrics(self.id):
            if row["instance_id"] == "" and (group is None or row["group"] == group):
                key = row["name"] if group is not None or not row["group"] else f"{row['group']}/{row['name']}"
                out[key] = row["value"]
        return out

    def fail(self) -> None:
        """Mark a run that stopped on an error as failed (not finished): the same command resumes it."""
        elapsed = time.perf_counter() - self._started
        try:
            with self.store.transaction() as conn:
                conn.execute("UPDATE runs SET status = 'failed', elapsed_s = elapsed_s + ? WHERE id = ?"
                             " AND status != 'finished'", (elapsed, self.id))
        except StoreUnavailable:
            pass  # a full or locked store: the run stays 'running', and the same command resumes it all the same

    def finish(self) -> None:
        elapsed = time.perf_counter() - self._started
        with self.store.transaction() as conn:
            conn.execute("UPDATE runs SET status = 'finished', finished_at = ?, elapsed_s = elapsed_s + ?"
                         " WHERE id = ?", (time.time(), elapsed, self.id))


def _float(value: Any) -> float | None:
    value = float(value)
    return None if value != value else value  # NaN is stored as NULL


def _to_jsonable(value: Any) -> Any:
    import numpy as np

    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if hasattr(value, "to_dict"):
        return value.to_dict()
    raise TypeError(f"cannot store a {type(value).__name__} as JSON")
