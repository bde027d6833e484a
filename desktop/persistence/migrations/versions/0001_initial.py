"""The initial schema: meta, snapshot, backup, events.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _snapshot(name: str) -> None:
    op.create_table(
        name,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("saved", sa.Text, nullable=False),
        sa.Column("digest", sa.Text, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.CheckConstraint("id = 1", name=f"{name}_one_row"),
    )


def upgrade() -> None:
    op.create_table(
        "meta",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("app", sa.Text, nullable=False),
        sa.Column("format", sa.Integer, nullable=False),
        sa.Column("campaign_id", sa.Text, nullable=False),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("last_played", sa.Text, nullable=False),
        sa.Column("written_by", sa.Text, nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
        sa.CheckConstraint("id = 1", name="meta_one_row"),
    )
    _snapshot("snapshot")
    _snapshot("backup")
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )
    op.create_index("ix_events_step", "events", ["step"])


def downgrade() -> None:
    op.drop_index("ix_events_step", table_name="events")
    for name in ("events", "backup", "snapshot", "meta"):
        op.drop_table(name)
