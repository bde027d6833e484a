"""The traps a new player walks into without a word: warned before the step, unless asked never again.  No Qt.

:func:`cautions` looks at an action the player is about to take and says what they may not have noticed:

* ``no_rations``: going on a job and no one carries a ration (nothing to eat at camp or on the road);
* ``no_light``: going on a job and no one carries a light (the dark costs fatigue or terror every turn);
* ``job_unfinished``: leaving a job's dungeon while its master still lives (no bounty for it).

The game screen asks before the step (a dialog with "don't ask again"); the keys the player silenced are kept
in :attr:`desktop.settings.Settings.dont_ask`.  The GM's own play (Ctrl+G) is never asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.gm.engine import GM
    from rules.gm.events import Action

#: Every caution's key (the settings keep the silenced ones).
KEYS = ("no_rations", "no_light", "job_unfinished")


@dataclass(frozen=True)
class Caution:
    """One warning: its key, a title, what the player should know, and the words of the button that goes on."""

    key: str
    title: str
    text: str
    go: str


def _entries(gm: GM) -> dict[str, Any]:
    return {i.name.lower(): i for i in gm.content.items.items}


def _party_items(gm: GM) -> list[Any]:
    table = _entries(gm)
    out = []
    for m in gm.c.party:
        for item in m.adv.inventory.items:
            entry = table.get(item.name.lower())
            if entry is not None:
                out.append(entry)
    return out


def has_rations(gm: GM) -> bool:
    return any(getattr(e, "food", None) in ("ration", "special_ration") for e in _party_items(gm))


def has_light(gm: GM) -> bool:
    return any(getattr(e, "light", None) is not None for e in _party_items(gm))


def cautions(gm: GM, action: Action) -> list[Caution]:
    """What the player should hear before ``action`` (an unavailable action is refused anyway: nothing)."""
    if not action.available:
        return []
    out: list[Caution] = []
    if action.kind == "expedition":
        days = int(action.param("days", 0) or 0)
        if not has_rations(gm):
            road = f" The road there takes {days} day(s), a ration each per day." if days else ""
            out.append(Caution("no_rations", "No rations",
                               "No one in the party carries a ration: there will be nothing to eat at camp." + road
                               + " Rations are sold at the market (Shop).", "Go without food"))  # fmt: skip
        if not has_light(gm):
            out.append(Caution("no_light", "No light",
                               "No one in the party carries a light (torch, lantern, candles). In the dark every "
                               "turn costs each adventurer a PRE fatigue, or they become Terrified. Lights are "
                               "sold at the market (Shop).", "Go into the dark"))  # fmt: skip
    elif action.kind == "exit":
        exp = gm.c.expedition
        loc = gm.c.locations.get(exp.location) if exp is not None else None
        if loc is not None and loc.bounty > 0 and not loc.cleared:
            out.append(Caution("job_unfinished", "The job is not done",
                               f"The master of {loc.title} still lives: its bounty of {loc.bounty} silver is paid "
                               "only once it is dead. Leave now and the party comes back to town without it.",
                               "Leave without the bounty"))  # fmt: skip
    return out
