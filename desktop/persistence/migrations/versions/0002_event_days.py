"""events.day: the campaign day of each event, for the chronicle's day headings.

Events written before it get the day their own data names, when it names one; the chronicle files
the rest under the day of the event before them.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("events", sa.Column("day", sa.Integer, nullable=True))
    op.execute(
        "UPDATE events SET day = json_extract(data, '$.day') "
        "WHERE json_valid(data) AND json_type(data, '$.day') = 'integer'"
    )


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("day")
