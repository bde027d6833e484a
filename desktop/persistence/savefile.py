"""One campaign, one SQLite file: create, open (checked, migrated), commit a step, load, close.

"Never overwrite a file you could not read": :func:`examine` looks at a file read-only (its
header, ``PRAGMA quick_check``, the ``meta`` row, the schema revision, the snapshot's digest and
JSON) and :meth:`SaveFile.open` writes nothing until it has passed.  An older schema is upgraded
only after a copy of the file is made beside it.  :meth:`SaveFile.create` builds the new file under
a temporary name and links it into place, so a kill never leaves half a save, and an existing
file is never replaced.

Every step is one transaction (WAL, ``synchronous=NORMAL``): the previous snapshot is copied to
``backup``, the snapshot row is rewritten, the step's events are appended and ``meta`` updated.  A
killed process loses at most the step in flight; a snapshot damaged inside the file (a wrong
digest, broken JSON) is replaced by the backup on open, and :attr:`SaveFile.warnings` says so.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

import orjson

from desktop.persistence.schema import APP, FORMAT, HEAD, REVISIONS

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

SQLITE_HEADER = b"SQLite format 3\x00"
#: Seconds to wait for another connection's lock (a ``save check`` reading, a second window) before giving up.
BUSY_TIMEOUT = 5.0
REQUIRED_TABLES = ("meta", "snapshot", "backup", "events", "alembic_version")

ErrorKind = Literal["missing", "exists", "not_sqlite", "not_save", "damaged", "newer", "busy", "unwritable", "closed"]
Source = Literal["snapshot", "backup"]


class SaveError(Exception):
    """A save that cannot be created, opened or written; ``str()`` is a message for the player."""

    def __init__(self, kind: ErrorKind, path: Path | str, message: str) -> None:
        super().__init__(message)
        self.kind: ErrorKind = kind
        self.path = Path(path)


@dataclass
class SaveReport:
    """What :func:`examine` found in a file that is a readable Blacksalt save."""

    path: Path
    size: int  # bytes, the -wal file included
    campaign_id: str
    format: int
    revision: str
    created: str
    last_played: str
    written_by: str
    summary: dict[str, Any]
    step: int  # the step the campaign resumes from
    saved: str  # when that step was committed
    events: int  # events up to that step
    source: Source  # which row holds it: the snapshot, or (when the snapshot is damaged) the backup
    integrity: str  # "ok", or "not checked" for a shallow look
    warnings: list[str] = field(default_factory=list)
    campaign: dict[str, Any] | None = field(default=None, repr=False)  # parsed, when examined deeply

    @property
    def needs_upgrade(self) -> bool:
        return self.revision != HEAD


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@cache
def app_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"blacksalt {version('blacksalt')}"
    except PackageNotFoundError:
        return "blacksalt (source)"


def encode(
    data: Any, *, default: Callable[[Any], Any] | None = None, to_plain: Callable[[Any], Any] | None = None
) -> str:
    """JSON text, compact and not ASCII-escaped: what ``json.dumps(data, ensure_ascii=False, separators=(",", ":"))``
    writes, character for character, made by orjson in C (a campaign of 400 KB to 1 MB in 2-10 ms; json.dumps of
    its dict took 10-30 ms, and building the dict 25-50 ms more).  ``data``: JSON-ready data, or (with ``default``
    for what orjson does not know and ``to_plain`` for the slow way) a tree orjson walks itself, such as the GM's
    dataclasses (:func:`desktop.session.campaign_json`).  Anything orjson refuses (an integer past 64 bits, a lone
    surrogate) goes the old way, so nothing that saved before fails now; what json.dumps refuses is refused."""
    try:
        return orjson.dumps(data, default=default, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        pass
    return json.dumps(to_plain(data) if to_plain is not None else data, ensure_ascii=False, separators=(",", ":"))


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _describe_foreign(head: bytes) -> str:
    if not head:
        return "the file is empty"
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return "it is not an SQLite database"
    if all(ch.isprintable() or ch in "\r\n\t" for ch in text):
        return "it is a text file, not an SQLite database"
    return "it is not an SQLite database"


def _wal_size(path: Path) -> int:
    try:
        return (path.parent / (path.name + "-wal")).stat().st_size
    except OSError:
        return 0


def _check_header(path: Path) -> int:
    """Refuse what is not an SQLite file, or is visibly cut short.  Returns the size with the WAL."""
    if not path.exists():
        raise SaveError("missing", path, f"{path}: no such file")
    if not path.is_file():
        raise SaveError("not_save", path, f"{path} is not a file")
    try:
        with path.open("rb") as fh:
            head = fh.read(100)
        size = path.stat().st_size
    except OSError as exc:
        raise SaveError("missing", path, f"{path}: cannot read it ({exc.strerror or exc})") from exc
    if not head.startswith(SQLITE_HEADER):
        if len(head) < len(SQLITE_HEADER) and SQLITE_HEADER.startswith(head) and head:
            raise SaveError("damaged", path, f"{path.name} is damaged: it is cut short ({size} bytes)")
        raise SaveError("not_sqlite", path, f"{path.name} is not a Blacksalt save: {_describe_foreign(head)}")
    if len(head) < 100:
        raise SaveError("damaged", path, f"{path.name} is damaged: it is cut short ({size} bytes)")
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise SaveError("damaged", path, f"{path.name} is damaged: its header is broken (page size {page_size})")
    wal = _wal_size(path)
    if wal == 0:  # with a WAL, the main file may lag its header until the next checkpoint
        pages = int.from_bytes(head[28:32], "big")
        header_valid = head[24:28] == head[92:96] and pages > 0
        if size % page_size or (header_valid and size < pages * page_size):
            expected = f"; its header promises {pages * page_size} bytes" if header_valid else ""
            raise SaveError("damaged", path, f"{path.name} is damaged: it is cut short ({size} bytes{expected})")
    return size + wal


def _ro_connect(path: Path, *, immutable: bool = False) -> sqlite3.Connection:
    """Read-only.  ``immutable`` (for a quick look at a file no one has open: no ``-wal``) skips the
    locks and the WAL index, so not even the ``-wal``/``-shm`` files SQLite keeps beside it appear."""
    query = "?mode=ro&immutable=1" if immutable else "?mode=ro"
    conn = sqlite3.connect(path.resolve().as_uri() + query, uri=True, timeout=BUSY_TIMEOUT)
    conn.row_factory = sqlite3.Row
    return conn


def _parse_snapshot(row: sqlite3.Row | None, what: str) -> tuple[dict[str, Any] | None, str | None]:
    """The campaign in a snapshot row, or why it cannot be read."""
    if row is None:
        return None, f"there is no {what}"
    data = row["data"]
    if not isinstance(data, str) or digest(data) != row["digest"]:
        return None, f"the {what} of step {row['step']} is damaged (its checksum does not match)"
    try:
        parsed = json.loads(data)
    except ValueError as exc:
        return None, f"the {what} of step {row['step']} is damaged ({exc})"
    if not isinstance(parsed, dict):
        return None, f"the {what} of step {row['step']} is not a campaign"
    return parsed, None


def examine(path: Path | str, *, deep: bool = True) -> SaveReport:
    """Look at a save without writing to it; raise :class:`SaveError` for anything that is not a good save.

    ``deep`` (the default) also runs ``PRAGMA quick_check`` and reads the snapshot (falling back to the
    backup); a shallow look (for a list of saves) reads only the header and the ``meta`` row.
    """
    path = Path(path)
    size = _check_header(path)
    name = path.name
    try:
        conn = _ro_connect(path, immutable=not deep and not (path.parent / (path.name + "-wal")).exists())
    except sqlite3.Error as exc:
        raise SaveError("damaged", path, f"{name} cannot be opened: {exc}") from exc
    try:
        return _examine(conn, path, size, deep)
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise SaveError("busy", path, f"{name} is busy (another program is writing it); try again") from exc
        raise SaveError("damaged", path, f"{name} is damaged: {exc}") from exc
    except sqlite3.DatabaseError as exc:
        raise SaveError("damaged", path, f"{name} is damaged: {exc}") from exc
    finally:
        conn.close()


def _examine(conn: sqlite3.Connection, path: Path, size: int, deep: bool) -> SaveReport:
    name = path.name
    integrity = "not checked"
    if deep:
        problems = [str(r[0]) for r in conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            lines = [ln.strip() for p in problems for ln in p.splitlines() if ln.strip() and not ln.startswith("***")]
            detail = "; ".join(lines)
            detail = detail if len(detail) <= 160 else detail[:157] + "..."
            raise SaveError("damaged", path, f"{name} is damaged (SQLite's integrity check: {detail})")
        integrity = "ok"
    tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "meta" not in tables:
        listed = ", ".join(sorted(tables)) or "none"
        raise SaveError("not_save", path, f"{name} is an SQLite database but not a Blacksalt save (tables: {listed})")
    try:
        meta = conn.execute("SELECT * FROM meta WHERE id = 1").fetchone()
    except sqlite3.OperationalError as exc:
        raise SaveError("not_save", path, f"{name} is an SQLite database but not a Blacksalt save ({exc})") from exc
    columns = set(meta.keys()) if meta is not None else set()  # (a Row's `in` looks at its values)
    if meta is None or "app" not in columns or meta["app"] != APP:
        raise SaveError("not_save", path, f"{name} is an SQLite database but not a Blacksalt save")
    fmt = meta["format"] if "format" in columns else None
    if not isinstance(fmt, int) or fmt < 1:
        raise SaveError("damaged", path, f"{name} is damaged: its save format is {fmt!r}")
    if fmt > FORMAT:
        raise SaveError("newer", path, f"{name} was saved by a newer Blacksalt (save format {fmt}; this version "
                        f"reads up to {FORMAT}). Update Blacksalt to open it.")  # fmt: skip
    missing = [t for t in REQUIRED_TABLES if t not in tables]
    if missing:
        raise SaveError("damaged", path, f"{name} is damaged: table(s) {', '.join(missing)} missing")
    revs = [str(r[0]) for r in conn.execute("SELECT version_num FROM alembic_version")]
    if len(revs) != 1:
        raise SaveError("damaged", path, f"{name} is damaged: its schema revision is {revs or 'missing'}")
    revision = revs[0]
    if revision not in REVISIONS:
        raise SaveError("newer", path, f"{name} was saved by a newer Blacksalt (schema revision {revision}, "
                        f"unknown here: this version knows up to {HEAD}). Update Blacksalt to open it.")  # fmt: skip
    warnings: list[str] = []
    try:
        summary = json.loads(meta["summary"])
        if not isinstance(summary, dict):
            raise ValueError("not an object")
    except (TypeError, ValueError):
        summary = {}
        warnings.append("the summary in meta is unreadable")
    snap = conn.execute("SELECT step, saved, digest, data FROM snapshot WHERE id = 1").fetchone()
    if snap is None:
        raise SaveError("damaged", path, f"{name} is damaged: it holds no campaign")
    source: Source = "snapshot"
    row = snap
    campaign: dict[str, Any] | None = None
    if deep:
        campaign, problem = _parse_snapshot(snap, "snapshot")
        if campaign is None:
            bak = conn.execute("SELECT step, saved, digest, data FROM backup WHERE id = 1").fetchone()
            campaign, problem2 = _parse_snapshot(bak, "backup")
            if campaign is None:
                raise SaveError("damaged", path, f"{name} is damaged: {problem}, and {problem2}")
            warnings.append(f"{problem}; the campaign resumes from the backup of step {bak['step']}")
            source, row = "backup", bak
    step = int(row["step"])
    n_events = int(conn.execute("SELECT count(*) FROM events WHERE step <= ?", (step,)).fetchone()[0])
    return SaveReport(
        path=path,
        size=size,
        campaign_id=str(meta["campaign_id"]),
        format=fmt,
        revision=revision,
        created=str(meta["created"]),
        last_played=str(meta["last_played"]),
        written_by=str(meta["written_by"]),
        summary=summary,
        step=step,
        saved=str(row["saved"]),
        events=n_events,
        source=source,
        integrity=integrity,
        warnings=warnings,
        campaign=campaign,
    )


# --- writing -------------------------------------------------------------------------------------


def _engine(path: Path) -> Engine:
    """An engine for one save: WAL, ``synchronous=NORMAL``, and real ``BEGIN IMMEDIATE`` transactions."""
    from sqlalchemy import URL, create_engine, event

    engine = create_engine(
        URL.create("sqlite", database=str(path)), connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT}
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # pysqlite must not BEGIN or COMMIT by itself (DDL included)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")  # take the write lock now, not half-way through a step

    return engine


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _event_rows(step: int, events: Sequence[Mapping[str, Any]], day: int | None) -> list[dict[str, Any]]:
    rows = []
    for seq, ev in enumerate(events):
        if not isinstance(ev, Mapping):
            ev = ev.to_dict()  # an Event
        data = ev.get("data") or {}
        own_day = data.get("day") if isinstance(data, Mapping) else None
        rows.append({
            "step": step,
            "seq": seq,
            "kind": str(ev["kind"]),
            "text": str(ev["text"]),
            "data": json.dumps(data, ensure_ascii=False, separators=(",", ":")),
            "day": own_day if isinstance(own_day, int) and not isinstance(own_day, bool) else day,
        })  # fmt: skip
    return rows


def _day_of(summary: Mapping[str, Any], campaign: Mapping[str, Any]) -> int | None:
    for source in (summary, campaign):
        day = source.get("day")
        if isinstance(day, int) and not isinstance(day, bool):
            return day
    return None


class SaveFile:
    """An open campaign save.  Use it from one thread at a time; close it (or use ``with``)."""

    def __init__(self, path: Path, report: SaveReport, *, migrated_from: str | None, backup_file: Path | None) -> None:
        self.path = path
        self.campaign_id = report.campaign_id
        self.created = report.created
        self.last_played = report.last_played
        self.summary: dict[str, Any] = report.summary
        self.step = report.step
        #: Where the campaign was read from on open: "snapshot", or "backup" when the snapshot was damaged.
        self.source: Source = report.source
        #: What the player should be told about this file (a damaged snapshot replaced by its backup, ...).
        self.warnings: list[str] = list(report.warnings)
        #: The schema revision the file had before this open upgraded it, and the copy kept of it.
        self.migrated_from = migrated_from
        self.backup_file = backup_file
        self._cached: dict[str, Any] | None = report.campaign
        self._snapshot_good = report.source == "snapshot"
        self._engine: Engine | None = _engine(path)
        self._conn: Connection | None = self._engine.connect()
        self._stmts = _Statements()

    # --- opening ---------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: Path | str,
        campaign: Mapping[str, Any],
        summary: Mapping[str, Any] | None = None,
        *,
        campaign_id: str | None = None,
        step: int = 0,
    ) -> SaveFile:
        """A new save holding ``campaign`` at ``step``.  Refuses an existing path: it never overwrites."""
        from desktop.persistence.library import summarize
        from desktop.persistence.migrate import upgrade

        path = Path(path)
        if path.exists() or path.is_symlink():
            raise SaveError("exists", path, f"{path} already exists; a new campaign never overwrites a file")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.parent / f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.creating"
        data = encode(campaign)
        summ = dict(summary) if summary is not None else summarize(campaign)
        stamp = now()
        engine = _engine(tmp)
        try:
            with engine.connect() as conn, conn.begin():
                upgrade(conn)
                st = _Statements()
                conn.execute(st.insert_meta, {
                    "id": 1, "app": APP, "format": FORMAT, "campaign_id": campaign_id or uuid.uuid4().hex[:12],
                    "created": stamp, "last_played": stamp, "written_by": app_version(),
                    "summary": json.dumps(summ, ensure_ascii=False),
                })  # fmt: skip
                conn.execute(st.insert_snapshot, {"id": 1, "step": step, "saved": stamp, "digest": digest(data),
                                                  "data": data})  # fmt: skip
            engine.dispose()  # the last connection closes: the WAL is checkpointed into the file
            with tmp.open("rb+") as fh:
                os.fsync(fh.fileno())
            try:
                os.link(tmp, path)  # atomic, and fails if the path exists
            except FileExistsError:
                raise SaveError(
                    "exists", path, f"{path} already exists; a new campaign never overwrites a file"
                ) from None
            except OSError:  # a file system without hard links
                if path.exists():
                    raise SaveError(
                        "exists", path, f"{path} already exists; a new campaign never overwrites a file"
                    ) from None
                os.rename(tmp, path)
            _fsync_dir(path.parent)
        finally:
            engine.dispose()
            for leftover in (tmp, tmp.parent / (tmp.name + "-wal"), tmp.parent / (tmp.name + "-shm")):
                with contextlib.suppress(FileNotFoundError):
                    leftover.unlink()
        return cls.open(path)

    @classmethod
    def open(cls, path: Path | str) -> SaveFile:
        """Open a save to play on.  Refuses (:class:`SaveError`, file untouched) anything that is not a good
        save; upgrades an older schema after copying the file beside it (``<name>.r<revision>.bak``)."""
        path = Path(path)
        report = examine(path)
        migrated_from: str | None = None
        backup_file: Path | None = None
        if report.needs_upgrade:
            migrated_from = report.revision
            try:
                backup_file = _copy_before_upgrade(path, report.revision)
            except (OSError, sqlite3.Error) as exc:
                raise SaveError("unwritable", path, f"{path.name} needs an upgrade, but no backup copy could be "
                                f"made beside it ({exc}); the file is unchanged") from exc  # fmt: skip
            from desktop.persistence.migrate import upgrade

            engine = _engine(path)
            try:
                with _writing(path, "upgrade it"), engine.connect() as conn, conn.begin():
                    upgrade(conn)
            finally:
                engine.dispose()
            report = examine(path)
            report.warnings.append(
                f"upgraded from schema revision {migrated_from} to {report.revision}; the old file is kept as "
                f"{backup_file.name}"
            )
        with _writing(path, "open it for writing"):
            return cls(path, report, migrated_from=migrated_from, backup_file=backup_file)

    # --- playing ---------------------------------------------------------------------------------

    def commit_step(
        self,
        step: int,
        campaign: Mapping[str, Any] | str,
        events: Sequence[Mapping[str, Any]] = (),
        summary: Mapping[str, Any] | None = None,
    ) -> None:
        """Save one step in one transaction: the previous snapshot to ``backup``, ``campaign`` as the
        snapshot, ``events`` appended, ``meta`` updated.  If anything fails, nothing of the step is kept.
        ``campaign``: the campaign's dict, or its JSON text already made by :func:`encode`.

        ``step`` must grow; events already kept for ``step`` or later (left by a step lost to a damaged
        snapshot) are replaced.
        """
        conn = self._connection()
        if step <= self.step:
            raise ValueError(f"step {step} is not after the saved step {self.step}")
        from desktop.persistence.library import summarize

        if isinstance(campaign, str):
            data = campaign
            if summary is None:
                campaign = json.loads(data)
        else:
            data = encode(campaign)
        summ = dict(summary) if summary is not None else summarize(campaign)  # type: ignore[arg-type]
        rows = _event_rows(step, events, _day_of(summ, campaign if isinstance(campaign, Mapping) else {}))
        stamp = now()
        st = self._stmts
        with _writing(self.path, f"save step {step}"), conn.begin():
            if self._snapshot_good:
                conn.execute(st.copy_to_backup)
            conn.execute(st.update_snapshot, {"step": step, "saved": stamp, "digest": digest(data), "data": data})
            conn.execute(st.delete_events, {"step": step})
            if rows:
                conn.execute(st.insert_events, rows)
            conn.execute(st.update_meta, {"last_played": stamp, "summary": json.dumps(summ, ensure_ascii=False),
                                          "written_by": app_version()})  # fmt: skip
        self.step = step
        self.summary = summ
        self.last_played = stamp
        self.source = "snapshot"
        self._snapshot_good = True
        self._cached = None

    def load(self) -> tuple[dict[str, Any], int]:
        """The campaign as of the last committed step (or the backup, see :attr:`source`), and that step."""
        if self._cached is not None:
            campaign, self._cached = self._cached, None
            return campaign, self.step
        conn = self._connection()
        from sqlalchemy import text

        table = "snapshot" if self._snapshot_good else "backup"
        with conn.begin():
            row = conn.execute(text(f"SELECT step, digest, data FROM {table} WHERE id = 1")).one_or_none()
        if row is None or digest(row.data) != row.digest:
            raise SaveError("damaged", self.path, f"{self.path.name} is damaged: the {table} changed under us")
        parsed = json.loads(row.data)
        return parsed, int(row.step)

    def events(self, since: int = 0) -> list[dict[str, Any]]:
        """Events of the steps after ``since`` up to the current step, in order: ``step``, ``seq``, ``day``,
        ``kind``, ``text``, ``data``."""
        return list(self.iter_events(since))

    def iter_events(self, since: int = 0) -> Iterator[dict[str, Any]]:
        conn = self._connection()
        with conn.begin():
            result = conn.execute(self._stmts.select_events, {"since": since, "upto": self.step}).all()
        for r in result:
            yield {"step": r.step, "seq": r.seq, "day": r.day, "kind": r.kind, "text": r.text,
                   "data": json.loads(r.data)}  # fmt: skip

    def report(self) -> SaveReport:
        """A fresh read-only look at the file (as ``blacksalt save check`` prints it)."""
        return examine(self.path)

    # --- closing ---------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._conn is None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._engine is not None:
            self._engine.dispose()  # the last connection: SQLite checkpoints and removes the WAL
            self._engine = None

    def __enter__(self) -> SaveFile:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"step {self.step}"
        return f"<SaveFile {self.path.name} {state}>"

    def _connection(self) -> Connection:
        if self._conn is None:
            raise SaveError("closed", self.path, f"{self.path.name} is closed")
        return self._conn


class _Statements:
    """The statements of a step, built once per file (SQLAlchemy caches their compiled form)."""

    def __init__(self) -> None:
        from sqlalchemy import bindparam, insert, select, text, update

        from desktop.persistence import schema as s

        self.insert_meta = insert(s.meta)
        self.insert_snapshot = insert(s.snapshot)
        self.copy_to_backup = text(
            "INSERT OR REPLACE INTO backup (id, step, saved, digest, data) "
            "SELECT id, step, saved, digest, data FROM snapshot WHERE id = 1"
        )
        self.update_snapshot = update(s.snapshot).where(s.snapshot.c.id == 1)
        self.delete_events = s.events.delete().where(s.events.c.step >= bindparam("step"))
        self.insert_events = insert(s.events)
        self.update_meta = update(s.meta).where(s.meta.c.id == 1)
        self.select_events = (
            select(s.events.c.step, s.events.c.seq, s.events.c.day, s.events.c.kind, s.events.c.text, s.events.c.data)
            .where(s.events.c.step > bindparam("since"), s.events.c.step <= bindparam("upto"))
            .order_by(s.events.c.step, s.events.c.seq)
        )


@contextlib.contextmanager
def _writing(path: Path, what: str) -> Iterator[None]:
    """SQLite's refusals to write (locked, read-only, disk full, I/O error) as a :class:`SaveError`.
    Inside a transaction, SQLite has rolled it back: the file holds what it held before."""
    from sqlalchemy.exc import DBAPIError

    try:
        yield
    except DBAPIError as exc:
        reason = str(exc.orig) if exc.orig is not None else str(exc)
        kind: ErrorKind = "busy" if "locked" in reason or "busy" in reason else "unwritable"
        raise SaveError(kind, path, f"could not {what} ({path.name}: {reason})") from exc


def _copy_before_upgrade(path: Path, revision: str) -> Path:
    """A consistent copy of the file (its WAL included), made read-only through SQLite's backup API."""
    target = path.parent / f"{path.name}.r{revision}.bak"
    n = 1
    while target.exists():
        n += 1
        target = path.parent / f"{path.name}.r{revision}.{n}.bak"
    tmp = target.parent / (target.name + ".part")
    src = _ro_connect(path)
    try:
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            dst.close()
        os.replace(tmp, target)
    finally:
        src.close()
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return target
