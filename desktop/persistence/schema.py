"""The tables of a save file, as SQLAlchemy Core tables, and the constants that identify a save.

The migrations in ``migrations/versions`` create and change these tables; a test checks that the
migrated schema and these definitions agree.  Core (not the ORM) keeps one autosave near a
millisecond: the ORM's unit of work costs more than the disk.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, Column, Index, Integer, MetaData, Table, Text

#: ``meta.app`` of every Blacksalt save.
APP = "blacksalt"

#: The save format this Blacksalt writes.  Raised only when an older Blacksalt could no longer read
#: a file at all; a file with a higher number is refused as "from a newer Blacksalt".  Schema
#: changes an older version would not notice go through Alembic revisions alone.
FORMAT = 1

#: Every Alembic revision, oldest first (a test checks this against ``migrations/versions``).  Known
#: here so that opening a save never has to import Alembic unless the file must be migrated.
REVISIONS = ("0001", "0002")
HEAD = REVISIONS[-1]

metadata = MetaData()

meta = Table(
    "meta",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("app", Text, nullable=False),
    Column("format", Integer, nullable=False),
    Column("campaign_id", Text, nullable=False),
    Column("created", Text, nullable=False),  # ISO 8601, UTC
    Column("last_played", Text, nullable=False),  # ISO 8601, UTC
    Column("written_by", Text, nullable=False),  # the Blacksalt version that last wrote the file
    Column("summary", Text, nullable=False),  # JSON: party, location, day, ...
    CheckConstraint("id = 1", name="meta_one_row"),
)


def _snapshot_table(name: str) -> Table:
    return Table(
        name,
        metadata,
        Column("id", Integer, primary_key=True),
        Column("step", Integer, nullable=False),
        Column("saved", Text, nullable=False),  # ISO 8601, UTC
        Column("digest", Text, nullable=False),  # sha256 of data (UTF-8): catches damage SQLite cannot see
        Column("data", Text, nullable=False),  # Campaign.to_dict() as JSON
        CheckConstraint("id = 1", name=f"{name}_one_row"),
    )


#: The campaign as of the last committed step (one row, rewritten every step).
snapshot = _snapshot_table("snapshot")
#: The snapshot before it, copied in the same transaction: the last good state if the snapshot is damaged.
backup = _snapshot_table("backup")

#: Everything that happened, append-only (``Event.to_dict()`` per row, in order).
events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("step", Integer, nullable=False),
    Column("seq", Integer, nullable=False),  # order within the step
    Column("kind", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("data", Text, nullable=False),  # JSON
    Column("day", Integer, nullable=True),  # revision 0002: the campaign day, for the chronicle
    Index("ix_events_step", "step"),
)
