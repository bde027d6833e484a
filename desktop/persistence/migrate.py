"""Alembic, run from code on an open connection: no ``alembic.ini`` for anyone to find.

Imported only when a file is created or must be upgraded, so opening an up-to-date save never
pays for importing Alembic.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from desktop.persistence.migrations import HERE


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    return cfg


def upgrade(connection: Connection, target: str = "head") -> None:
    """Upgrade the database behind ``connection`` to ``target``, inside the caller's transaction."""
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, target)


def script_revisions() -> list[str]:
    """The revisions in ``migrations/versions``, oldest first (for the test that checks ``schema.REVISIONS``)."""
    script = ScriptDirectory.from_config(alembic_config())
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]
