"""One campaign being played: the engine, its save file, and one committed step per action.  No Qt.

The desktop's screens never touch the engine or the save directly: they ask a :class:`Session` for the
legal actions and hand it the player's choice; :meth:`Session.apply` runs the action through the engine
and commits the step (the campaign, its events, the summary) in one transaction before it returns, so
closing the window at any moment loses at most the step in flight.

>>> s = Session.new(seed=7, party_size=2)          # a new save in the user data folder
>>> events = s.apply(s.actions()[0])
>>> s.close()
>>> s = Session.open(s.path)                        # exactly where it was, same RNG state
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from desktop.persistence import SaveFile
    from rules.content.registry import Content
    from rules.creation import Adventurer
    from rules.gm.engine import GM, Decider
    from rules.gm.events import Action, Event
    from rules.gm.site import DungeonMaker
    from rules.gm.state import Campaign, Phase


_CONTENT: Content | None = None
_MAKER: DungeonMaker | None = None


def content() -> Content:
    """The game's rules content, loaded once per process (about 0.35 s cold)."""
    global _CONTENT
    if _CONTENT is None:
        from rules.content.registry import load_content

        _CONTENT = load_content()
    return _CONTENT


def maker() -> DungeonMaker:
    """The procedural dungeon maker the engine builds its jobs with (one per process: it caches dungeons)."""
    global _MAKER
    if _MAKER is None:
        from dungeon_gen.site import GeneratedDungeons

        _MAKER = GeneratedDungeons()
    return _MAKER


def summary(c: Campaign) -> dict[str, Any]:
    """What the load list shows of a campaign: party, where it is, the day, the phase."""
    where = c.settlement if c.expedition is None else c.locations[c.expedition.location].title
    names = [m.name for m in c.party] or [m.name for m in c.fallen[-4:]]  # a perished party: its last dead
    out: dict[str, Any] = {"party": names, "location": where, "day": c.day, "phase": c.phase.value}
    if c.outcome:
        out["outcome"] = c.outcome
    return out


#: Called after every committed step with the step's events (the window refreshes from it).
Listener = Callable[[list["Event"]], None]


class Session:
    """A campaign open for play.  Use from one thread; :meth:`close` when done (or use ``with``)."""

    def __init__(self, gm: GM, save: SaveFile) -> None:
        self.gm = gm
        self.save = save
        self.listeners: list[Listener] = []

    # --- opening ---------------------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        *,
        seed: int,
        party_size: int = 3,
        adventurers: Sequence[Adventurer] = (),
        settlement: str | None = None,
        folder: Path | None = None,
        decider: Decider | None = None,
    ) -> Session:
        """A new campaign and its new save file (``folder``: the user data folder by default).  The
        adventurers given join first; random ones fill the party up to ``party_size``."""
        from desktop.persistence import SaveFile, campaign_path, new_campaign_id
        from rules.gm.campaign import new_campaign
        from rules.gm.engine import GM

        size = max(party_size, len(adventurers))
        c = new_campaign(content(), maker(), seed, size, settlement=settlement, adventurers=list(adventurers))
        title = " and ".join(m.name.split()[0] for m in c.party[:2]) + (" & co" if len(c.party) > 2 else "")
        cid = new_campaign_id()
        save = SaveFile.create(campaign_path(title, cid, folder), c.to_dict(), summary(c), campaign_id=cid)
        return cls(GM(c, content(), maker(), decider), save)

    @classmethod
    def open(cls, path: Path | str, *, decider: Decider | None = None) -> Session:
        """Continue a saved campaign exactly where its last step left it.  Raises
        :class:`desktop.persistence.SaveError` (file untouched) for anything that is not a good save, and
        ``ValueError`` for a save whose campaign this version cannot read."""
        from desktop.persistence import SaveError, SaveFile
        from rules.gm.engine import GM
        from rules.gm.state import Campaign

        save = SaveFile.open(path)
        try:
            data, _step = save.load()
            c = Campaign.from_dict(data)
        except (KeyError, TypeError, ValueError) as exc:
            save.close()
            raise SaveError("damaged", Path(path), f"{Path(path).name} holds a campaign this version cannot "
                            f"read ({exc}); the file is unchanged") from exc  # fmt: skip
        return cls(GM(c, content(), maker(), decider), save)

    # --- playing ---------------------------------------------------------------------------------------

    @property
    def campaign(self) -> Campaign:
        return self.gm.c

    @property
    def phase(self) -> Phase:
        return self.gm.c.phase

    @property
    def path(self) -> Path:
        return self.save.path

    @property
    def warnings(self) -> list[str]:
        """What the player should be told about the save on opening (restored from its backup, upgraded)."""
        return list(self.save.warnings)

    def actions(self) -> list[Action]:
        """Every action of this moment, the unavailable ones with their reason."""
        return self.gm.legal_actions()

    def apply(self, action: Action, *, tester: str | None = None) -> list[Event]:
        """Run ``action`` and commit the step before returning its events.  If the engine refuses the action
        (:class:`rules.checks.RuleError`) nothing is saved and the campaign is as it was.  ``tester``: the
        adventurer the player sends to make the step's test (the GM picks when None)."""
        events = self.gm.apply(action, tester=tester)
        c = self.gm.c
        self.save.commit_step(c.stats.steps, c.to_dict(), [e.to_dict() for e in events], summary(c))
        for listener in list(self.listeners):
            listener(events)
        return events

    def autoplay(self) -> list[Event]:
        """Let the GM choose the next action (the autoplay policy) and apply it; ``[]`` if there is none."""
        from rules.autoplay import suggest

        action = suggest(self.gm)
        return self.apply(action) if action is not None else []

    def log(self, since: int = 0) -> list[dict[str, Any]]:
        """The campaign's saved events from step ``since`` on (the chronicle)."""
        return self.save.events(since)

    def close(self) -> None:
        self.save.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def last_campaign(folder: Path | None = None) -> Path | None:
    """The save played most recently that still opens, or None."""
    from desktop.persistence import list_saves

    good = [s for s in list_saves(folder) if s.error is None]
    return good[0].path if good else None  # list_saves puts the most recently played first
