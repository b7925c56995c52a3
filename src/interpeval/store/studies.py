"""Annotation studies in the results store: users, studies, items, assignments, answers and review rounds.

Human judgements (e.g. IQS, gold rationales for the masked-LM benchmark) live in the same SQLite file as the runs, in
tables prefixed ``study_``. The web app (``interpeval serve``) is one client; this module is the whole logic, so a
script or a test can drive a study without HTTP. Usage::

    from interpeval.store.studies import Studies

    with Studies("results.sqlite") as studies:
        admin, admin_token = studies.add_user("ada", "admin")          # tokens are shown once, stored hashed
        code = studies.invite("annotator", created_by=admin.id)       # one-time link: /invite/<code>
        ann, ann_token = studies.accept_invite(code, "bo")
        chk, _ = studies.add_user("cy", "checker")
        study = studies.create_study("gold rationales", "plm-rationale",
                                     [{"key": "0", "payload": {"sent_token": [...], "answers": "新"}}],
                                     created_by=admin.id)              # kind's default config: review rounds
        studies.add_member(study.id, chk.id, "checker")
        (a,) = studies.assign(study.id, ann.id)                        # one assignment per item, current round
        studies.save(ann.id, a.id, {"rationale": [0, 1, 8, 9]})        # final=False saves progress only
        (c,) = studies.assignments(chk.id, study.id, state="pending")  # created when the annotation was final
        studies.save(chk.id, c.id, {"sufficiency": 3, "compactness": 4})
        studies.export_gold(study.id)                                  # kind-specific export (golden records)

Model
- A **user** has a role: ``admin`` (creates studies, invites, exports), ``annotator`` or ``checker``. A user's token
  is ``<id>.<secret>``; only sha256(secret) is stored and it is compared with :func:`hmac.compare_digest`. There are
  no default users or passwords: the first admin is created explicitly (``interpeval serve --add-user NAME``, role admin by default).
- A **study** has a ``kind`` that selects its page template and answer validation (:data:`KINDS`, extend with
  :func:`register_kind`) and a JSON ``config``. An **item** carries a JSON ``payload``; an **answer** is a JSON object.
- An **assignment** gives one user one item in one round, for one task: ``annotate`` or ``check``. Users see and
  change only their own assignments (:class:`PermissionError` otherwise). ``save(final=False)`` keeps progress;
  ``final=True`` submits. Each assignment holds at most one answer (re-saving replaces it), so concurrent or
  repeated submissions can neither be lost nor duplicated.
- **Review rounds** (config ``review``, the masked-LM rationale workflow): a final annotation creates ``check``
  assignments for ``checks_per_round`` of the study's checkers (least loaded first). When they are all in, the
  item passes if the mean of every score reaches ``pass_mean``; otherwise it goes back to its annotators for the
  next round (their last answer as the starting point), and after ``max_rounds`` failed rounds it is dropped.
  Every decision is logged in ``study_rounds``.

Kinds: this module knows no benchmark. It registers ``generic`` (any payload; answer any JSON object); each
benchmark plug-in's ``studies`` part registers its own kinds with :func:`register_kind` (the masked-LM benchmark's
``plm-rationale`` in :mod:`interpeval.benchmarks.plm.studies`, IQS's ``iqs`` in
:mod:`interpeval.benchmarks.iqs.studies`); :func:`interpeval.plugins.study_kinds` loads them all.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from interpeval.store.sqlite import Store

ROLES = ("admin", "annotator", "checker")
TASKS = ("annotate", "check")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS study_users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS study_invites (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    role TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    created_by INTEGER REFERENCES study_users(id),
    created_at REAL NOT NULL,
    used_by INTEGER REFERENCES study_users(id),
    used_at REAL,
    study_id INTEGER REFERENCES studies(id)
);
CREATE TABLE IF NOT EXISTS studies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    config_json TEXT NOT NULL,
    created_by INTEGER REFERENCES study_users(id),
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS study_members (
    study_id INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES study_users(id),
    role TEXT NOT NULL,
    PRIMARY KEY (study_id, user_id, role)
);
CREATE TABLE IF NOT EXISTS study_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    study_id INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    seq INTEGER NOT NULL,
    payload_json TEXT NOT NULL,
    round INTEGER NOT NULL DEFAULT 1,
    state TEXT NOT NULL DEFAULT 'annotating',
    UNIQUE (study_id, key)
);
CREATE TABLE IF NOT EXISTS study_assignments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id INTEGER NOT NULL REFERENCES study_items(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES study_users(id),
    task TEXT NOT NULL,
    round INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    created_at REAL NOT NULL,
    UNIQUE (item_id, user_id, task, round)
);
CREATE INDEX IF NOT EXISTS study_assignments_user ON study_assignments (user_id, state);
CREATE TABLE IF NOT EXISTS study_answers (
    assignment_id INTEGER PRIMARY KEY REFERENCES study_assignments(id) ON DELETE CASCADE,
    answer_json TEXT NOT NULL,
    final INTEGER NOT NULL,
    saves INTEGER NOT NULL DEFAULT 1,
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS study_rounds (
    item_id INTEGER NOT NULL REFERENCES study_items(id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    means_json TEXT NOT NULL,
    decided_at REAL NOT NULL,
    PRIMARY KEY (item_id, round)
);
"""


@dataclass(frozen=True)
class User:
    id: int
    name: str
    role: str


@dataclass(frozen=True)
class Study:
    id: int
    name: str
    kind: str
    config: dict[str, Any]
    created_by: int | None
    created_at: float


@dataclass(frozen=True)
class Item:
    id: int
    study_id: int
    key: str
    payload: dict[str, Any]
    round: int
    state: str  # annotating | checking | accepted | dropped | done


@dataclass(frozen=True)
class Assignment:
    id: int
    item_id: int
    study_id: int
    user_id: int
    task: str  # annotate | check
    round: int
    state: str  # pending | done (editable) | locked (under review) | closed (round decided)
    answer: dict[str, Any] | None = None
    final: bool = False


Validator = Callable[[dict[str, Any], dict[str, Any], str], None]
"""``validate(payload, answer, task)`` raises ValueError naming what is wrong."""


@dataclass(frozen=True)
class StudyKind:
    """What a study kind contributes: its page template, answer validation, export and default config."""

    name: str
    template: str
    validate: Validator | None = None
    export: Callable[[Item, list[Assignment]], dict[str, Any]] | None = None
    default_config: dict[str, Any] = field(default_factory=dict)
    #: payload fields that annotators and checkers never see (e.g. the method under judgement)
    private: tuple[str, ...] = ()
    #: the checks of a saved draft (``final=False``): what is given must be well formed, not yet complete
    validate_draft: Validator | None = None
    #: ``check_study(payloads, config)`` raises ValueError when the study could not be scored once answered
    check_study: Callable[[list[dict[str, Any]], dict[str, Any]], None] | None = None


#: the largest answer (as JSON) that is stored, draft or final
MAX_ANSWER_BYTES = 64 * 1024


KINDS: dict[str, StudyKind] = {}


def register_kind(kind: StudyKind) -> StudyKind:
    """Add or replace a study kind (a benchmark plug-in's ``studies`` part registers its kinds this way)."""
    KINDS[kind.name] = kind
    return kind


def _kind(name: str) -> StudyKind:
    if name not in KINDS:
        raise ValueError(f"unknown study kind {name!r}; known: {', '.join(sorted(KINDS))}")
    return KINDS[name]


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _split_token(token: str) -> tuple[int, str] | None:
    head, _, secret = (token or "").partition(".")
    return (int(head), secret) if head.isdigit() and int(head) <= _MAX_ID and secret else None


_MAX_ID = 2**63 - 1  # SQLite's largest integer


@contextmanager
def _ids_in_range() -> Iterator[None]:
    """An id beyond SQLite's integer range names nothing: a ValueError saying so, not sqlite3's OverflowError."""
    try:
        yield
    except OverflowError as err:
        raise ValueError(f"an id is outside 1..{_MAX_ID} ({err})") from None


class Studies:
    """Annotation studies in the SQLite store at ``path`` (``None``: the default store). Thread-safe."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self._store = Store(path)
        self.path = self._store.path
        self._conn = self._store._conn
        self._conn.executescript(_SCHEMA)
        self._lock = threading.RLock()

    @property
    def store(self) -> Store:
        """The results store on the same connection (its calls are not under :attr:`lock` by themselves)."""
        return self._store

    @property
    def lock(self) -> threading.RLock:
        """The lock every study call holds; hold it around other uses of :attr:`store` from several threads."""
        return self._lock

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> Studies:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        with _ids_in_range(), self._lock, self._store.transaction() as conn:
            yield conn

    def _rows(self, query: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with _ids_in_range(), self._lock:
            return self._conn.execute(query, args).fetchall()

    # users, tokens, invites -------------------------------------------------------------------------------------

    def add_user(self, name: str, role: str) -> tuple[User, str]:
        """Create a user; returns it with its token (shown once: only a hash is stored)."""
        name = name.strip()
        if role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
        if not name or len(name) > 64:
            raise ValueError("a user name must have 1 to 64 characters")
        with self._tx() as conn:
            return self._add_user(conn, name, role)

    def _add_user(self, conn: Any, name: str, role: str) -> tuple[User, str]:
        if conn.execute("SELECT 1 FROM study_users WHERE name = ?", (name,)).fetchone():
            raise ValueError(f"a user named {name!r} already exists")
        secret = secrets.token_urlsafe(32)
        cursor = conn.execute("INSERT INTO study_users (name, role, token_hash, created_at) VALUES (?, ?, ?, ?)",
                              (name, role, _hash(secret), time.time()))
        user = User(int(cursor.lastrowid), name, role)
        return user, f"{user.id}.{secret}"

    def new_token(self, user_id: int) -> str:
        """Replace a user's token (the old one stops working)."""
        secret = secrets.token_urlsafe(32)
        with self._tx() as conn:
            if conn.execute("UPDATE study_users SET token_hash = ? WHERE id = ?", (_hash(secret), user_id)).rowcount != 1:
                raise KeyError(f"no user with id {user_id}")
        return f"{user_id}.{secret}"

    def user_by_token(self, token: str | None) -> User | None:
        """The token's user, or None; the secret is compared in constant time."""
        parts = _split_token(token or "")
        if parts is None:
            return None
        rows = self._rows("SELECT id, name, role, token_hash FROM study_users WHERE id = ?", (parts[0],))
        if not rows or not hmac.compare_digest(rows[0][3], _hash(parts[1])):
            return None
        return User(rows[0][0], rows[0][1], rows[0][2])

    def users(self) -> list[User]:
        return [User(*r) for r in self._rows("SELECT id, name, role FROM study_users ORDER BY id")]

    def user(self, user_id: int) -> User:
        rows = self._rows("SELECT id, name, role FROM study_users WHERE id = ?", (user_id,))
        if not rows:
            raise KeyError(f"no user with id {user_id}")
        return User(*rows[0])

    def invite(self, role: str, created_by: int, study_id: int | None = None) -> str:
        """A one-time invite code for a new user with ``role``; only an admin may invite. With ``study_id`` the
        new user joins that study on accepting (an annotator gets all its items, a checker its checks)."""
        if role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
        self._require_admin(created_by)
        if study_id is not None:
            self.study(study_id)
        secret = secrets.token_urlsafe(24)
        with self._tx() as conn:
            cursor = conn.execute("INSERT INTO study_invites (role, code_hash, created_by, created_at, study_id)"
                                  " VALUES (?, ?, ?, ?, ?)", (role, _hash(secret), created_by, time.time(), study_id))
        return f"{cursor.lastrowid}.{secret}"

    def invite_role(self, code: str) -> str | None:
        """The role an unused invite code grants, or None for a wrong or used code."""
        parts = _split_token(code)
        if parts is None:
            return None
        rows = self._rows("SELECT role, code_hash, used_at FROM study_invites WHERE id = ?", (parts[0],))
        if not rows or rows[0][2] is not None or not hmac.compare_digest(rows[0][1], _hash(parts[1])):
            return None
        return rows[0][0]

    def accept_invite(self, code: str, name: str) -> tuple[User, str]:
        """Use an invite code once: creates the user and returns it with its token."""
        parts = _split_token(code)
        name = name.strip()
        if not name or len(name) > 64:
            raise ValueError("a user name must have 1 to 64 characters")
        with self._tx() as conn:
            row = None if parts is None else conn.execute(
                "SELECT role, code_hash, used_at, study_id FROM study_invites WHERE id = ?", (parts[0],)).fetchone()
            if row is None or row[2] is not None or not hmac.compare_digest(row[1], _hash(parts[1])):
                raise PermissionError("this invite link is wrong or has been used already")
            user, token = self._add_user(conn, name, row[0])
            conn.execute("UPDATE study_invites SET used_by = ?, used_at = ? WHERE id = ?",
                         (user.id, time.time(), parts[0]))
            study_id = row[3]
            if study_id is not None and user.role == "annotator":  # its items, in the same transaction
                conn.execute("INSERT OR IGNORE INTO study_members VALUES (?, ?, 'annotator')", (study_id, user.id))
                conn.execute("INSERT OR IGNORE INTO study_assignments (item_id, user_id, task, round, created_at)"
                             " SELECT id, ?, 'annotate', round, ? FROM study_items WHERE study_id = ?",
                             (user.id, time.time(), study_id))
        if study_id is not None and user.role == "checker":
            self.add_member(study_id, user.id, "checker")  # opens the checks waiting for a checker
        return user, token

    def _require_admin(self, user_id: int | None) -> None:
        if user_id is None or self.user(user_id).role != "admin":
            raise PermissionError("only an admin may do this")

    # studies and items ------------------------------------------------------------------------------------------

    def create_study(self, name: str, kind: str, items: Iterable[dict[str, Any]],
                     config: dict[str, Any] | None = None, created_by: int | None = None) -> Study:
        """A study with its items (``{"key": str, "payload": dict}`` each); the kind's default config is the base."""
        spec = _kind(kind)
        if created_by is not None:
            self._require_admin(created_by)
        merged = {**spec.default_config, **(config or {})}
        _check_review(merged.get("review"))
        rows, payloads = [], []
        for i, item in enumerate(items):
            if not isinstance(item, dict) or "key" not in item or not isinstance(item.get("payload"), dict):
                raise ValueError(f"item {i}: expected {{'key': str, 'payload': dict}}")
            rows.append((str(item["key"]), i, json.dumps(item["payload"], ensure_ascii=False)))
            payloads.append(item["payload"])
        if len({key for key, _, _ in rows}) != len(rows):
            raise ValueError("item keys must be unique within a study")
        if spec.check_study is not None:
            spec.check_study(payloads, merged)
        with self._tx() as conn:
            cursor = conn.execute("INSERT INTO studies (name, kind, config_json, created_by, created_at)"
                                  " VALUES (?, ?, ?, ?, ?)", (name, kind, json.dumps(merged), created_by, time.time()))
            study_id = int(cursor.lastrowid)
            conn.executemany("INSERT INTO study_items (study_id, key, seq, payload_json) VALUES (?, ?, ?, ?)",
                             [(study_id, *row) for row in rows])
        return self.study(study_id)

    def studies(self) -> list[Study]:
        rows = self._rows("SELECT id, name, kind, config_json, created_by, created_at FROM studies ORDER BY id")
        return [Study(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5]) for r in rows]

    def study(self, study_id: int) -> Study:
        for study in self.studies():
            if study.id == study_id:
                return study
        raise KeyError(f"no study with id {study_id}")

    def items(self, study_id: int) -> list[Item]:
        rows = self._rows("SELECT id, study_id, key, payload_json, round, state FROM study_items WHERE study_id = ?"
                          " ORDER BY seq", (study_id,))
        return [Item(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5]) for r in rows]

    def item(self, item_id: int) -> Item:
        rows = self._rows("SELECT id, study_id, key, payload_json, round, state FROM study_items WHERE id = ?",
                          (item_id,))
        if not rows:
            raise KeyError(f"no item with id {item_id}")
        r = rows[0]
        return Item(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5])

    def add_member(self, study_id: int, user_id: int, role: str) -> None:
        """Make a user an annotator or checker of a study (checkers get check assignments automatically)."""
        if role not in ("annotator", "checker"):
            raise ValueError(f"member role must be annotator or checker, got {role!r}")
        review = self.study(study_id).config.get("review")
        with self._tx() as conn:
            conn.execute("INSERT OR IGNORE INTO study_members VALUES (?, ?, ?)", (study_id, user_id, role))
            if role == "checker" and review:
                waiting = conn.execute("SELECT id, round FROM study_items WHERE study_id = ? AND state = 'checking'",
                                       (study_id,)).fetchall()
                for item_id, rnd in waiting:
                    self._open_checks(conn, study_id, item_id, rnd, review)

    def members(self, study_id: int, role: str) -> list[User]:
        rows = self._rows("SELECT u.id, u.name, u.role FROM study_members m JOIN study_users u ON u.id = m.user_id"
                          " WHERE m.study_id = ? AND m.role = ? ORDER BY u.id", (study_id, role))
        return [User(*r) for r in rows]

    # assignments and answers ------------------------------------------------------------------------------------

    def assign(self, study_id: int, user_id: int, item_ids: Iterable[int] | None = None,
               task: str = "annotate") -> list[Assignment]:
        """Give a user items (all of the study's by default) in their current round; existing ones are kept."""
        if task not in TASKS:
            raise ValueError(f"task must be one of {', '.join(TASKS)}, got {task!r}")
        self.user(user_id)
        wanted = None if item_ids is None else {int(i) for i in item_ids}
        items = [i for i in self.items(study_id) if wanted is None or i.id in wanted]
        if wanted is not None and len(items) != len(wanted):
            raise ValueError(f"items {sorted(wanted - {i.id for i in items})} are not in study {study_id}")
        with self._tx() as conn:
            if task == "annotate":
                conn.execute("INSERT OR IGNORE INTO study_members VALUES (?, ?, 'annotator')", (study_id, user_id))
            for item in items:
                conn.execute("INSERT OR IGNORE INTO study_assignments (item_id, user_id, task, round, created_at)"
                             " VALUES (?, ?, ?, ?, ?)", (item.id, user_id, task, item.round, time.time()))
        current = {(i.id, i.round) for i in items}
        return [a for a in self.assignments(user_id, study_id) if a.task == task and (a.item_id, a.round) in current]

    _ASSIGNMENT_SQL = ("SELECT a.id, a.item_id, i.study_id, a.user_id, a.task, a.round, a.state, s.answer_json,"
                       " COALESCE(s.final, 0) FROM study_assignments a JOIN study_items i ON i.id = a.item_id"
                       " LEFT JOIN study_answers s ON s.assignment_id = a.id")

    @staticmethod
    def _assignment(row: tuple[Any, ...]) -> Assignment:
        return Assignment(*row[:7], answer=None if row[7] is None else json.loads(row[7]), final=bool(row[8]))

    def assignments(self, user_id: int, study_id: int | None = None, state: str | None = None) -> list[Assignment]:
        """A user's own assignments (of one study, in one state), in item order."""
        query, args = self._ASSIGNMENT_SQL + " WHERE a.user_id = ?", [user_id]
        if study_id is not None:
            query, args = query + " AND i.study_id = ?", [*args, study_id]
        if state is not None:
            query, args = query + " AND a.state = ?", [*args, state]
        return [self._assignment(r) for r in self._rows(query + " ORDER BY i.study_id, i.seq, a.round", tuple(args))]

    def assignment(self, assignment_id: int, user_id: int) -> Assignment:
        """One assignment, only for its own user (PermissionError for anyone else)."""
        rows = self._rows(self._ASSIGNMENT_SQL + " WHERE a.id = ?", (assignment_id,))
        if not rows:
            raise KeyError(f"no assignment with id {assignment_id}")
        assignment = self._assignment(rows[0])
        if assignment.user_id != user_id:
            raise PermissionError("this assignment belongs to another user")
        return assignment

    def item_assignments(self, item_id: int) -> list[Assignment]:
        """Every assignment of an item (for checkers' pages and exports)."""
        rows = self._rows(self._ASSIGNMENT_SQL + " WHERE a.item_id = ? ORDER BY a.round, a.task, a.id", (item_id,))
        return [self._assignment(r) for r in rows]

    def save(self, user_id: int, assignment_id: int, answer: dict[str, Any], final: bool = True) -> Assignment:
        """Save the user's answer to their own assignment (``final=False``: progress only); final answers drive
        the review rounds. Raises PermissionError for another user's or a closed assignment, ValueError for a
        malformed answer."""
        if not isinstance(answer, dict):
            raise ValueError("an answer must be a JSON object")
        with self._tx() as conn:
            row = conn.execute(self._ASSIGNMENT_SQL + " WHERE a.id = ?", (assignment_id,)).fetchone()
            if row is None:
                raise KeyError(f"no assignment with id {assignment_id}")
            assignment = self._assignment(row)
            if assignment.user_id != user_id:
                raise PermissionError("this assignment belongs to another user")
            if assignment.state in ("locked", "closed"):
                raise PermissionError(f"assignment {assignment_id} is {assignment.state}: it can no longer change")
            item_row = conn.execute("SELECT payload_json, study_id FROM study_items WHERE id = ?",
                                    (assignment.item_id,)).fetchone()
            study_row = conn.execute("SELECT kind, config_json FROM studies WHERE id = ?", (item_row[1],)).fetchone()
            spec, config = _kind(study_row[0]), json.loads(study_row[1])
            text = json.dumps(answer, ensure_ascii=False)
            if len(text.encode()) > MAX_ANSWER_BYTES:
                raise ValueError(f"the answer is {len(text.encode())} bytes; at most {MAX_ANSWER_BYTES} are stored")
            check = spec.validate if final else spec.validate_draft
            if check is not None:
                check(json.loads(item_row[0]), answer, assignment.task)
            conn.execute("INSERT INTO study_answers (assignment_id, answer_json, final, updated_at) VALUES (?, ?, ?, ?)"
                         " ON CONFLICT (assignment_id) DO UPDATE SET answer_json = excluded.answer_json,"
                         " final = excluded.final, saves = saves + 1, updated_at = excluded.updated_at",
                         (assignment_id, text, int(final), time.time()))
            if final:
                review = config.get("review")
                state = "locked" if review else "done"
                conn.execute("UPDATE study_assignments SET state = ? WHERE id = ?", (state, assignment_id))
                self._advance(conn, assignment, review)
        return self.assignment(assignment_id, user_id)

    def _advance(self, conn: Any, assignment: Assignment, review: dict[str, Any] | None) -> None:
        """After a final answer: open checks, decide a round, or mark an unreviewed item done."""
        item_id, rnd = assignment.item_id, assignment.round
        open_in_round = conn.execute("SELECT COUNT(*) FROM study_assignments WHERE item_id = ? AND round = ?"
                                     " AND task = ? AND state = 'pending'",
                                     (item_id, rnd, assignment.task)).fetchone()[0]
        if open_in_round:
            return
        if review is None:
            conn.execute("UPDATE study_items SET state = 'done' WHERE id = ?", (item_id,))
        elif assignment.task == "annotate":
            conn.execute("UPDATE study_items SET state = 'checking' WHERE id = ?", (item_id,))
            self._open_checks(conn, assignment.study_id, item_id, rnd, review)
        else:
            self._decide(conn, item_id, rnd, review)

    def _open_checks(self, conn: Any, study_id: int, item_id: int, rnd: int, review: dict[str, Any]) -> None:
        """Give the item's round to as many of the study's checkers (least loaded, never its annotators) as needed."""
        taken = {r[0]: r[1] for r in conn.execute("SELECT user_id, task FROM study_assignments WHERE item_id = ?"
                                                  " AND round = ?", (item_id, rnd))}
        needed = int(review["checks_per_round"]) - sum(task == "check" for task in taken.values())
        load = conn.execute("SELECT m.user_id, (SELECT COUNT(*) FROM study_assignments a WHERE a.user_id = m.user_id"
                            " AND a.state = 'pending') FROM study_members m WHERE m.study_id = ? AND m.role = 'checker'"
                            " ORDER BY m.user_id", (study_id,)).fetchall()
        for _, uid in sorted((n, uid) for uid, n in load if uid not in taken)[:max(0, needed)]:
            conn.execute("INSERT INTO study_assignments (item_id, user_id, task, round, created_at)"
                         " VALUES (?, ?, 'check', ?, ?)", (item_id, uid, rnd, time.time()))

    def _decide(self, conn: Any, item_id: int, rnd: int, review: dict[str, Any]) -> None:
        checks = [json.loads(r[0]) for r in conn.execute(
            "SELECT s.answer_json FROM study_assignments a JOIN study_answers s ON s.assignment_id = a.id"
            " WHERE a.item_id = ? AND a.round = ? AND a.task = 'check' AND s.final = 1", (item_id, rnd))]
        if len(checks) < int(review["checks_per_round"]):
            return
        means = {name: sum(float(c[name]) for c in checks) / len(checks) for name in review["scores"]}
        passed = all(means[name] >= float(bar) for name, bar in review["pass_mean"].items())
        if passed:
            outcome = "accepted"
        elif rnd < int(review["max_rounds"]):
            outcome = "returned"
        else:
            outcome = "dropped"
        now = time.time()
        conn.execute("INSERT OR REPLACE INTO study_rounds VALUES (?, ?, ?, ?, ?)",
                     (item_id, rnd, outcome, json.dumps(means), now))
        conn.execute("UPDATE study_assignments SET state = 'closed' WHERE item_id = ? AND round = ?", (item_id, rnd))
        if outcome != "returned":
            conn.execute("UPDATE study_items SET state = ? WHERE id = ?", (outcome, item_id))
            return
        conn.execute("UPDATE study_items SET state = 'annotating', round = ? WHERE id = ?", (rnd + 1, item_id))
        previous = conn.execute("SELECT a.user_id, s.answer_json FROM study_assignments a JOIN study_answers s ON"
                                " s.assignment_id = a.id WHERE a.item_id = ? AND a.round = ? AND a.task = 'annotate'",
                                (item_id, rnd)).fetchall()
        for user_id, answer_json in previous:
            cursor = conn.execute("INSERT INTO study_assignments (item_id, user_id, task, round, created_at)"
                                  " VALUES (?, ?, 'annotate', ?, ?)", (item_id, user_id, rnd + 1, now))
            conn.execute("INSERT INTO study_answers (assignment_id, answer_json, final, updated_at) VALUES (?, ?, 0, ?)",
                         (cursor.lastrowid, answer_json, now))

    def rounds(self, item_id: int) -> list[dict[str, Any]]:
        """The review decisions of an item, oldest first."""
        rows = self._rows("SELECT round, outcome, means_json, decided_at FROM study_rounds WHERE item_id = ?"
                          " ORDER BY round", (item_id,))
        return [{"round": r[0], "outcome": r[1], "means": json.loads(r[2]), "decided_at": r[3]} for r in rows]

    # progress and export ----------------------------------------------------------------------------------------

    def progress(self, study_id: int) -> dict[str, int]:
        """Item counts by state, plus assignments pending and answered."""
        counts: dict[str, int] = {}
        for item in self.items(study_id):
            counts[item.state] = counts.get(item.state, 0) + 1
        rows = self._rows("SELECT a.state, COUNT(*) FROM study_assignments a JOIN study_items i ON i.id = a.item_id"
                          " WHERE i.study_id = ? GROUP BY a.state", (study_id,))
        counts.update({f"assignments_{state}": n for state, n in rows})
        return counts

    def export(self, study_id: int) -> list[dict[str, Any]]:
        """Everything about every item: payload, state, rounds and every answer with its user and round."""
        names = {u.id: u.name for u in self.users()}
        out = []
        for item in self.items(study_id):
            answers = [{"user": names.get(a.user_id, str(a.user_id)), "task": a.task, "round": a.round,
                        "final": a.final, "answer": a.answer} for a in self.item_assignments(item.id)
                       if a.answer is not None]
            out.append({"key": item.key, "state": item.state, "round": item.round, "payload": item.payload,
                        "rounds": self.rounds(item.id), "answers": answers})
        return out

    def review(self, study_id: int) -> list[dict[str, Any]]:
        """What the admin's study page shows per item: :meth:`export`'s record plus the agreement of the final
        annotations of the item's current round (:func:`agreement`) and how many there are."""
        rows = []
        for record in self.export(study_id):
            final = [a["answer"] for a in record["answers"] if a["task"] == "annotate" and a["final"]
                     and a["round"] == record["round"]]
            rows.append({**record, "n_final": len(final), "agreement": agreement(final)})
        return rows

    def export_gold(self, study_id: int) -> list[dict[str, Any]]:
        """The kind's own export of the finished items (accepted, or done when the study has no review)."""
        study = self.study(study_id)
        spec = _kind(study.kind)
        out = []
        for item in self.items(study_id):
            if item.state not in ("accepted", "done"):
                continue
            final = [a for a in self.item_assignments(item.id) if a.task == "annotate" and a.final
                     and a.round == item.round]
            out.append(spec.export(item, final) if spec.export else
                       {"key": item.key, "payload": item.payload, "answers": [a.answer for a in final]})
        return out


def blinded(item: Item, kind: str) -> Item:
    """The item as annotators and checkers see it: a neutral label instead of its key (a key may name the method
    under judgement, e.g. IQS ``<sample>|<method>``) and without the kind's private payload fields."""
    private = KINDS[kind].private if kind in KINDS else ()
    return replace(item, key=f"item {item.id}", payload={k: v for k, v in item.payload.items() if k not in private})


def agreement(answers: Sequence[dict[str, Any]]) -> float | None:
    """How far the annotators' answers to one item agree, 0 to 1 (None for fewer than two): over every pair of
    answers and every field both give, the Jaccard overlap of index lists (two empty lists agree) or 1 for equal
    values; the mean of these. An IQS answer's ``answers`` object is compared field by field."""
    flat = [a.get("answers") if isinstance(a.get("answers"), dict) else a for a in answers if isinstance(a, dict)]
    scores = []
    for i, first in enumerate(flat):
        for second in flat[i + 1:]:
            for key in first.keys() & second.keys():
                x, y = first[key], second[key]
                if isinstance(x, list) and isinstance(y, list):
                    union = set(map(str, x)) | set(map(str, y))
                    scores.append(len(set(map(str, x)) & set(map(str, y))) / len(union) if union else 1.0)
                else:
                    scores.append(float(x == y))
    return sum(scores) / len(scores) if scores else None


def _check_review(review: dict[str, Any] | None) -> None:
    if review is None:
        return
    missing = [k for k in ("scores", "pass_mean", "max_rounds", "checks_per_round") if k not in review]
    if missing:
        raise ValueError(f"review config lacks {', '.join(missing)}")
    unknown = set(review["pass_mean"]) - set(review["scores"])
    if unknown:
        raise ValueError(f"pass_mean names scores that are not asked: {sorted(unknown)}")
    if int(review["checks_per_round"]) < 1 or int(review["max_rounds"]) < 1:
        raise ValueError("checks_per_round and max_rounds must be at least 1")


# what kinds validate answers with ----------------------------------------------------------------------------

def index_list(value: Any, n: int, what: str) -> list[int]:
    """``value`` as a list of distinct token indices below ``n`` (ValueError naming ``what`` otherwise)."""
    if not isinstance(value, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in value):
        raise ValueError(f"{what} must be a list of token indices")
    bad = [i for i in value if not 0 <= i < n]
    if bad:
        raise ValueError(f"{what}: indices {bad} are outside 0..{n - 1}")
    if len(set(value)) != len(value):
        raise ValueError(f"{what} lists an index twice")
    return value


def validate_scores(answer: dict[str, Any], scores: dict[str, list[int]], draft: bool = False) -> None:
    """Every score ``name: [low, high]`` is an integer in its range (a draft may leave some out)."""
    for name, (low, high) in scores.items():
        value = answer.get(name)
        if draft and value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(f"{name} must be an integer from {low} to {high}")


register_kind(StudyKind("generic", "study_generic.html"))
