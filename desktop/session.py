"""One campaign being played: the engine, its save file, and one committed step per action.  No Qt.

The desktop's screens never touch the engine or the save directly: they ask a :class:`Session` for the
legal actions and hand it the player's choice; :meth:`Session.apply` runs the action through the engine
and commits the step (the campaign, its events, the summary) in one transaction before it returns, so
closing the window at any moment loses at most the step in flight.

With :attr:`Session.background_saves` (the game screen's), the step's campaign is turned into its JSON text
at once (a few ms, before anything can change it) and the transaction is written by a thread of its own
while the window paints the result; the next step is not applied, and nothing reads the save, until that
transaction is committed (:meth:`Session.flush`).  A step whose transaction failed (a full disk) is kept
and written again before the next one, so the log never misses a step.

>>> s = Session.new(seed=7, party_size=2)          # a new save in the user data folder
>>> events = s.apply(s.actions()[0])
>>> s.close()
>>> s = Session.open(s.path)                        # exactly where it was, same RNG state
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
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


def _saved_set(obj: Any) -> Any:
    if isinstance(obj, (set, frozenset)):
        from rules.gm.serial import dump

        return sorted(dump(v) for v in obj)  # as rules.gm.serial.dump writes a set
    raise TypeError(f"cannot save a {type(obj).__name__}")


def campaign_json(c: Campaign) -> str:
    """The campaign's JSON text for its save: ``json.dumps(c.to_dict())``, character for character, but orjson
    walks the dataclasses itself (fields in order, enums by value, tuples as lists, non-string keys as ``dump``
    writes them, sets sorted as ``dump`` sorts them): 2-10 ms where ``to_dict`` and ``json.dumps`` took 35-80 ms of
    every step.  msgspec would walk them too, but writes a set in its own order or else sorts every dict (the
    locations would come back in another order).  tests/persistence/test_background_saves.py holds it to that."""
    from desktop.persistence.savefile import encode
    from rules.gm.serial import dump

    return encode(c, default=_saved_set, to_plain=dump)


def summary(c: Campaign) -> dict[str, Any]:
    """What the load list shows of a campaign: party, where it is, the day, the phase."""
    where = c.settlement if c.expedition is None else c.locations[c.expedition.location].title
    names = [m.name for m in c.party] or [m.name for m in c.fallen[-4:]]  # a perished party: its last dead
    out: dict[str, Any] = {"party": names, "location": where, "day": c.day, "phase": c.phase.value}
    if c.outcome:
        out["outcome"] = c.outcome
    return out


#: Called after every step with the step's events (the window refreshes from it).
Listener = Callable[[list["Event"]], None]


@dataclass(frozen=True)
class Step:
    """One step's transaction, made before anything could change the campaign: what ``commit_step`` writes."""

    step: int
    campaign: str  # the campaign's JSON text (campaign_json)
    events: list[dict[str, Any]]
    summary: dict[str, Any]


class Session:
    """A campaign open for play.  Use from one thread; :meth:`close` when done (or use ``with``)."""

    def __init__(self, gm: GM, save: SaveFile) -> None:
        self.gm = gm
        self.save = save
        self.listeners: list[Listener] = []
        #: Write each step's transaction in a thread while the caller goes on (the window paints); see the top.
        self.background_saves = False
        self._writer: ThreadPoolExecutor | None = None
        self._writing: Future[None] | None = None
        self._unsaved: Step | None = None  # a step whose transaction is being written, or failed

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
        self.flush()  # the step before is committed before this one is applied
        events = self.gm.apply(action, tester=tester)
        self._commit(events)
        for listener in list(self.listeners):
            listener(events)
        return events

    def _commit(self, events: list[Event]) -> None:
        c = self.gm.c
        step = Step(c.stats.steps, campaign_json(c), [e.to_dict() for e in events], summary(c))
        self._unsaved = step
        if not self.background_saves:
            self._write(step)
            return
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="blacksalt-save")
        self._writing = self._writer.submit(self._write, step)

    def _write(self, step: Step) -> None:
        """One step's transaction (in the writer thread with background saves; the GUI waits in :meth:`flush`).
        A file that refused it (:class:`SaveError`: full, locked, read-only) keeps the step for another try;
        anything else (a bug) is not tried again, or every later step would be refused with it."""
        from desktop.persistence import SaveError

        try:
            self.save.commit_step(step.step, step.campaign, step.events, step.summary)
        except SaveError:
            raise
        except BaseException:
            self._unsaved = None
            raise
        self._unsaved = None

    @property
    def pending(self) -> bool:
        """A step applied whose transaction is not committed yet (being written, or failed)."""
        return self._unsaved is not None

    def flush(self) -> None:
        """Wait until the last step is committed.  A transaction that failed is tried again here, and its
        :class:`desktop.persistence.SaveError` raised if it fails again (the step is kept for the next try)."""
        writing, self._writing = self._writing, None
        if writing is not None:
            with contextlib.suppress(Exception):  # tried again just below, where the caller hears of it
                writing.result()
        if self._unsaved is not None:
            self._write(self._unsaved)

    def autoplay(self) -> list[Event]:
        """Let the GM choose the next action (the autoplay policy) and apply it; ``[]`` if there is none."""
        from rules.autoplay import suggest

        action = suggest(self.gm)
        return self.apply(action) if action is not None else []

    def log(self, since: int = 0) -> list[dict[str, Any]]:
        """The campaign's saved events from step ``since`` on (the chronicle)."""
        self.flush()
        return self.save.events(since)

    def close(self) -> None:
        """Commit the step in flight, then close the file (closed even when that commit fails)."""
        try:
            self.flush()
        finally:
            if self._writer is not None:
                self._writer.shutdown(wait=True)
                self._writer = None
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
