"""Alembic's environment for save files: always "online", on the connection the caller passes.

:func:`desktop.persistence.migrate.upgrade` puts an open SQLAlchemy connection (inside a
transaction) in ``config.attributes["connection"]``; there is no URL and no ``alembic.ini``.
"""

from __future__ import annotations

from alembic import context

from desktop.persistence.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("save migrations run from desktop.persistence.migrate.upgrade(), with a connection")

# transaction_per_migration=False: the whole upgrade is the caller's one transaction, so a failure
# (or a kill) part-way leaves the file at its old revision.  SQLite's DDL is transactional.
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
context.run_migrations()
