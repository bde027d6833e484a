"""Campaign saves: one SQLite file per campaign (SQLAlchemy 2 Core, WAL, Alembic).  No Qt.

>>> save = SaveFile.create(campaign_path("Ash and Tamsen", new_campaign_id()), campaign.to_dict())
>>> save.commit_step(campaign.stats.steps, campaign.to_dict(), [e.to_dict() for e in events])
>>> with SaveFile.open(path) as save:
...     data, step = save.load()

Schema, in :mod:`desktop.persistence.schema`: ``meta`` (app, format, campaign id, dates, summary),
``snapshot`` (the campaign after the last step: one row), ``backup`` (the one before), ``events``
(the append-only log).  See :mod:`desktop.persistence.savefile` for the guarantees.
"""

from __future__ import annotations

from desktop.persistence.chronicle import chronicle
from desktop.persistence.library import (
    SaveInfo,
    campaign_path,
    default_folder,
    list_saves,
    new_campaign_id,
    save_info,
    slugify,
    summarize,
)
from desktop.persistence.savefile import SaveError, SaveFile, SaveReport, examine
from desktop.persistence.schema import FORMAT, HEAD

__all__ = [
    "FORMAT",
    "HEAD",
    "SaveError",
    "SaveFile",
    "SaveInfo",
    "SaveReport",
    "campaign_path",
    "chronicle",
    "default_folder",
    "examine",
    "list_saves",
    "new_campaign_id",
    "save_info",
    "slugify",
    "summarize",
]
