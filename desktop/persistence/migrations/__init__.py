"""Alembic migrations of the save files.

Run from code (:func:`desktop.persistence.migrate.upgrade`), never from an ``alembic.ini``: the
save being opened is handed to ``env.py`` as a live connection.  A developer adds a revision with
``python -m desktop.persistence.migrations revision -m "what changes"``, then adds its id to
``desktop.persistence.schema.REVISIONS`` and changes the tables there to match.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
