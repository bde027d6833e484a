"""Where saves live, what a "load campaign" screen lists, and the summary each save carries.

One file per campaign: ``<user data dir>/campaigns/<slug>-<id>.sqlite3``.  The summary (party
names, where they are, the day) is kept in ``meta`` so the list never has to parse a campaign.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from desktop.persistence.savefile import SaveError, examine

SUFFIX = ".sqlite3"


#: An environment variable that moves the user data folder (tests, demos, a portable install).
DATA_DIR_ENV = "BLACKSALT_DATA_DIR"


def default_folder() -> Path:
    """``<platformdirs user_data_dir("Blacksalt")>/campaigns``, or ``$BLACKSALT_DATA_DIR/campaigns`` (not created
    here)."""
    import os

    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override) / "campaigns"
    from platformdirs import user_data_dir

    return Path(user_data_dir("Blacksalt", appauthor=False)) / "campaigns"


def slugify(text: str, limit: int = 40) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug[:limit].rstrip("-") or "campaign"


def new_campaign_id() -> str:
    return uuid.uuid4().hex[:12]


def campaign_path(title: str, campaign_id: str, folder: Path | None = None) -> Path:
    """The file of a campaign: ``<folder>/<slug of title>-<id>.sqlite3``."""
    return (folder or default_folder()) / f"{slugify(title)}-{campaign_id}{SUFFIX}"


def _get(data: Any, *keys: str | int) -> Any:
    for key in keys:
        if isinstance(data, Mapping) and isinstance(key, str):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and -len(data) <= key < len(data):
            data = data[key]
        else:
            return None
    return data


def summarize(campaign: Mapping[str, Any]) -> dict[str, Any]:
    """The summary of a campaign dict (``Campaign.to_dict()``): party names, where they are, the day.

    Read defensively: a field the campaign does not have is simply left out.
    """
    party = [n for m in campaign.get("party") or [] if isinstance(n := _get(m, "adv", "character", "name"), str)]
    summary: dict[str, Any] = {"party": party}
    location = campaign.get("settlement")
    loc_id = _get(campaign, "expedition", "location")
    if isinstance(loc_id, str):
        location = _get(campaign, "locations", loc_id, "title") or loc_id
    if isinstance(location, str):
        summary["location"] = location
    for key in ("day", "phase", "outcome"):
        value = campaign.get(key)
        if value is not None:
            summary[key] = value
    silver = [s for m in campaign.get("party") or [] if isinstance(s := _get(m, "adv", "character", "silver"), int)]
    if silver:
        summary["silver"] = sum(silver)
    if isinstance(campaign.get("seed"), int):
        summary["seed"] = campaign["seed"]
    return summary


@dataclass
class SaveInfo:
    """One line of the "load campaign" screen.  ``error`` is set (and the rest mostly empty) for a file
    that is not a save that can be opened: the screen shows it greyed out with the message."""

    path: Path
    campaign_id: str = ""
    party: list[str] = field(default_factory=list)
    location: str = ""
    day: int | None = None
    phase: str = ""
    outcome: str | None = None
    last_played: datetime | None = None
    steps: int = 0
    size: int = 0
    needs_upgrade: bool = False
    error: str | None = None
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return ", ".join(self.party) or self.path.stem


def _parse_time(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def save_info(path: Path | str) -> SaveInfo:
    """A shallow, read-only look at one file (no integrity check: opening it does that)."""
    path = Path(path)
    try:
        r = examine(path, deep=False)
    except SaveError as exc:
        size = path.stat().st_size if path.is_file() else 0
        return SaveInfo(path=path, size=size, error=str(exc))
    s = r.summary
    party = [p for p in s.get("party") or [] if isinstance(p, str)]
    day = s.get("day")
    return SaveInfo(
        path=path,
        campaign_id=r.campaign_id,
        party=party,
        location=str(s.get("location") or ""),
        day=day if isinstance(day, int) else None,
        phase=str(s.get("phase") or ""),
        outcome=s.get("outcome") if isinstance(s.get("outcome"), str) else None,
        last_played=_parse_time(r.last_played),
        steps=r.step,
        size=r.size,
        needs_upgrade=r.needs_upgrade,
        summary=s,
    )


def list_saves(folder: Path | str | None = None) -> list[SaveInfo]:
    """Every ``*.sqlite3`` file of ``folder`` (default: :func:`default_folder`), most recently played first;
    files that cannot be opened come last, with their ``error``."""
    where = Path(folder) if folder is not None else default_folder()
    if not where.is_dir():
        return []
    infos = [save_info(p) for p in where.iterdir() if p.suffix == SUFFIX and p.is_file()]
    good = [i for i in infos if i.error is None]
    good.sort(key=lambda i: i.last_played.timestamp() if i.last_played else 0.0, reverse=True)
    bad = sorted((i for i in infos if i.error is not None), key=lambda i: i.path.name)
    return good + bad
