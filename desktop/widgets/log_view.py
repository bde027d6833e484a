"""The GM's log: every step's events, styled by kind, the hidden ones never shown.

Combat is blood red, loot and silver gold, decay, doom and omens muted italics, a new room a heading in the
book's serif.  Dice in an event's data are shown compactly after its text (``⚃ ⚀ ⚅ → ⚃ ⚄ ⚅``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QTextBrowser, QWidget

from desktop.theme import COLORS

if TYPE_CHECKING:
    from rules.gm.events import Event

DIE_FACES = "⚀⚁⚂⚃⚄⚅"

COMBAT_KINDS = frozenset({
    "combat", "combat_start", "combat_end", "attack", "hit", "miss", "harm", "wound", "death", "mortal_wound",
    "fight", "round", "enemy", "foe", "defend", "defence", "kill", "killed", "flee", "ambush", "collapse",
    "bleeding", "stun", "armour",
})  # fmt: skip
LOOT_KINDS = frozenset({
    "loot", "silver", "buy", "sell", "sold", "bought", "bounty", "treasure", "reward", "paid", "found",
})  # fmt: skip
OMINOUS_KINDS = frozenset({"decay", "doom", "doom_event", "omen", "omens", "light", "dark", "darkness", "snuff"})
GOOD_KINDS = frozenset({"cure", "heal", "healed", "rest", "insight", "stabilise", "stabilised", "recover"})
ROOM_KINDS = frozenset({"room", "expedition", "exit", "interlude", "day", "campaign_over", "depart"})


def is_hidden(event: Event | Mapping[str, Any]) -> bool:
    """Whether the GM keeps this event to itself (the doom and omens trackers moving)."""
    data = event.get("data", {}) if isinstance(event, Mapping) else event.data
    return bool(isinstance(data, Mapping) and data.get("hidden"))


def dice_text(faces: Iterable[Any]) -> str:
    """Faces as die glyphs (numbers outside 1..6 as digits)."""
    out = []
    for f in faces:
        try:
            n = int(f)
        except (TypeError, ValueError):
            continue
        out.append(DIE_FACES[n - 1] if 1 <= n <= 6 else str(n))
    return " ".join(out)


def dice_of(data: Mapping[str, Any]) -> str:
    """The dice an event carries, compactly: the first roll, and the final one when rerolls changed it."""
    first = data.get("dice") or data.get("faces") or data.get("roll")
    if isinstance(first, int):
        first = [first]
    if not isinstance(first, (list, tuple)) or not first:
        return ""
    text = dice_text(first)
    final = data.get("final")
    if isinstance(final, (list, tuple)) and list(final) != list(first) and final:
        text += " → " + dice_text(final)
    return text


def style_of(kind: str) -> str:
    """The CSS of a line of ``kind``."""
    c = COLORS
    if kind in COMBAT_KINDS or kind.startswith(("combat", "attack", "enemy", "foe")):
        return f"color:{c['danger']};"
    if kind in LOOT_KINDS or kind.startswith(("loot", "buy", "sell")):
        return f"color:{c['gold']};"
    if kind in OMINOUS_KINDS or kind.startswith(("doom", "omen", "decay")):
        return f"color:{c['muted']}; font-style:italic;"
    if kind in GOOD_KINDS:
        return f"color:{c['good']};"
    if kind == "test":
        return f"color:{c['ink']};"
    return f"color:{c['ink']};"


def event_html(kind: str, text: str, data: Mapping[str, Any]) -> str:
    """One event as a paragraph of the log."""
    c = COLORS
    body = escape(text)
    if kind in ROOM_KINDS:
        size = "1.15em" if kind == "room" else "1.0em"
        return (f"<p style='margin:10px 0 2px 0; color:{c['paper']}; font-weight:bold; font-size:{size};'>"
                f"{body}</p>")  # fmt: skip
    dice = dice_of(data)
    extra = f" <span style='color:{c['gold']}; font-size:1.1em;'>{escape(dice)}</span>" if dice else ""
    if kind == "test":
        outcome = str(data.get("outcome", ""))
        colour = {"great success": c["good"], "success": c["good"], "critical failure": c["danger"],
                  "failure": c["danger"]}.get(outcome, c["ink"])  # fmt: skip
        lead, _, tail = text.rpartition(": ")
        if lead:
            body = f"{escape(lead)}: <b style='color:{colour}'>{escape(tail)}</b>"
    return f"<p style='margin:1px 0 1px 10px; {style_of(kind)}'>{body}{extra}</p>"


class LogView(QTextBrowser):
    """The GM's log (``role=log``): append each step's events; hidden ones are skipped; scrolls to the end."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "log")
        self.setObjectName("gm_log")
        self.setOpenExternalLinks(False)
        self.setReadOnly(True)
        self._count = 0
        self._step_open = False

    @property
    def count(self) -> int:
        """Events shown so far."""
        return self._count

    def clear_log(self) -> None:
        self.clear()
        self._count = 0

    def append_events(self, events: Sequence[Event]) -> None:
        """One step's events (the order the GM told them), with a faint rule before the step."""
        rows = [(e.kind, e.text, e.data) for e in events if not is_hidden(e)]
        self._append_rows(rows)

    def set_history(self, records: Iterable[Mapping[str, Any]], limit: int = 400) -> None:
        """The saved log (:meth:`desktop.session.Session.log` records), the last ``limit`` shown events."""
        self.clear_log()
        rows: list[tuple[str, str, Mapping[str, Any]]] = []
        last_step: Any = None
        steps: list[list[tuple[str, str, Mapping[str, Any]]]] = []
        for r in records:
            if is_hidden(r):
                continue
            if r.get("step") != last_step:
                steps.append([])
                last_step = r.get("step")
            steps[-1].append((str(r.get("kind", "")), str(r.get("text", "")), r.get("data") or {}))
        kept: list[list[tuple[str, str, Mapping[str, Any]]]] = []
        total = 0
        for step in reversed(steps):
            if total + len(step) > limit and kept:
                break
            kept.append(step)
            total += len(step)
        for step in reversed(kept):
            rows = step
            self._append_rows(rows)

    def _append_rows(self, rows: Sequence[tuple[str, str, Mapping[str, Any]]]) -> None:
        if not rows:
            return
        html = "".join(event_html(k, t, d) for k, t, d in rows)
        cursor = self.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        if self._count:
            # a step begins on a new line a little below the last (a rule and an empty line after every step
            # once spread one-line steps three lines apart)
            cursor.insertBlock()
            fmt = cursor.blockFormat()
            fmt.setTopMargin(6)
            cursor.setBlockFormat(fmt)
        cursor.insertHtml(html)
        self._count += len(rows)
        self.scroll_to_end()

    def scroll_to_end(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def plain_lines(self) -> list[str]:
        """The log's text, one line per paragraph (for tests and the clipboard)."""
        return [ln for ln in self.toPlainText().splitlines() if ln.strip()]
