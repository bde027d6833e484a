"""The combat phase: the room's grid, the initiative order, the acting adventurer's actions, the last blows.

:class:`CombatView` renders the engine's fight and emits the player's choice as an engine ``Action`` on
:attr:`CombatView.act`; the game screen applies it and calls :meth:`CombatView.refresh` with the events.
It holds no rule: every action, cost and reason is the engine's; every number shown comes from the
combat state, the party's characters or the bestiary.

Keys: A attack the nearest enemy in reach, D defend, O dodge, R recover/catch breath, E end the turn,
F flee, Tab the next fast adventurer, 1–9 the numbered actions, arrows move a cursor on the grid and
Enter / Space takes what stands under it (a move, an attack).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPen, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop.theme import COLORS, serif_font, sized, ui_font
from desktop.widgets.action_list import ActionList
from desktop.widgets.combat_grid import CombatGrid, monster_sheet

if TYPE_CHECKING:
    from desktop.session import Session
    from rules.gm.combat_state import CombatState
    from rules.gm.events import Action, Event

#: How the acting adventurer's actions are grouped (the grid takes the moves, the bar End turn and Flee).
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Attack", ("attack", "reload", "feint", "intimidate")),
    ("Manoeuvres and magic", ("manoeuvre", "cast", "pray")),
    ("Defence and recovery", ("defend", "dodge", "recover", "breath", "fearless", "break_free")),
    ("Allies and gear", ("help", "help_up", "stabilise", "item", "living_ashes", "detach", "equip", "pickup", "move")),
)
#: Kinds aimed at one enemy: only the ones possible now are listed (plus one greyed, to say why not).
TARGETED = ("attack", "manoeuvre", "feint", "cast", "pray")
BAR_KINDS = ("end", "flee")
PHASE_TEXT = {
    "fast": "Fast adventurers act — in the order you like",
    "enemies": "The enemies act — you roll to defend",
    "slow": "Slow adventurers act — in the GM's order",
}
_PAREN = re.compile(r"\(([^()]*)\)\s*$")


def why_text(cs: CombatState, room: str) -> str:
    """Why this fight began, in the player's words (entering a room or searching a feature once jumped straight
    to an initiative roll without a word): from the combat's source as the GM recorded it."""
    counts: dict[str, int] = {}
    for g in cs.groups:
        counts[g.monster] = counts.get(g.monster, 0) + g.count
    parts = [f"{n} {m}" if n > 1 else ("an " if m[:1].lower() in "aeiou" else "a ") + m for m, n in counts.items()]
    them = ", ".join(parts) or "enemies"
    them_cap = them[:1].upper() + them[1:]
    src = cs.source
    if src == "they attack":
        text = f"{them_cap} attacked as the party came" + (f" into {room}." if room else " in.")
    elif src == "the party attacks":
        text = f"The party attacked {them}" + (f" in {room}." if room else ".")
    elif src == "ambush":
        text = f"{them_cap} fell on the camp" + (" by surprise." if cs.surprise == "enemies" else ".")
    elif src == "parley failed":
        text = f"The talk with {them} turned to blows."
    elif src == "the offer is refused":
        text = f"{them_cap} refused the offer and attacked."
    elif src.startswith("doom:"):
        text = (
            f"{them_cap} found the party"
            + (f" in {room}" if room else "")
            + ": the longer the party stays, the more the dungeon stirs."
        )
    elif src:
        text = f"{them_cap} came out fighting when the party searched {src}."
    else:
        text = f"{them_cap} attacked" + (f" in {room}." if room else ".")
    if cs.surprise == "party" and src != "ambush":
        text += " They were caught unaware."
    return "Why this fight: " + text


# --- dice of the last step ----------------------------------------------------------------------------------


def event_dice(ev: Event) -> tuple[list[int], str]:
    """The dice an event's data holds and how they read: 'success', 'failure', 'critical', or 'plain'."""
    data: dict[str, Any] = ev.data
    if ev.kind == "test":
        outcome = str(data.get("outcome", ""))
        tone = "critical" if "critical failure" in outcome else ("success" if "success" in outcome else "failure")
        return [int(x) for x in data.get("final", data.get("dice", []))], tone
    for key in ("faces", "armour", "dice"):
        faces = data.get(key)
        if isinstance(faces, list) and faces and all(isinstance(x, int) for x in faces):
            return [int(x) for x in faces], "plain"
    if isinstance(data.get("face"), int):
        return [int(data["face"])], "plain"
    return [], "plain"


class DiceFeed(QWidget):
    """The last step's events, newest at the bottom, each with the dice it rolled painted beside it."""

    ROW = 24

    def __init__(self, rows: int = 6, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows = rows
        self._lines: list[tuple[str, list[int], str, str]] = []  # text, dice, tone, kind
        self._hidden = 0
        self._pinned = 0  # 1: the first line is the step's first roll, kept above the lines left out
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self.ROW * rows + 10)

    def set_events(self, events: Sequence[Event]) -> None:
        """The step's lines; when they do not all fit, the first roll (the player's own action, before the
        enemies answer it) stays on top, then how many lines are left out, then the newest."""
        shown = [e for e in events if not e.data.get("hidden") and e.text]
        self._pinned = 0
        if len(shown) <= self.rows:
            keep = shown
            self._hidden = 0
        else:
            first = next((e for e in shown[: -(self.rows - 2)] if e.kind == "test"), None)
            tail = shown[-(self.rows - (2 if first is not None else 1)) :]
            keep = ([first] if first is not None else []) + tail
            self._pinned = 1 if first is not None else 0
            self._hidden = len(shown) - len(keep)
        self._lines = [(e.text, *event_dice(e), e.kind) for e in keep]
        self.update()

    def lines(self) -> list[str]:
        return [t for t, *_ in self._lines]

    def sizeHint(self) -> QSize:
        return QSize(600, self.ROW * self.rows + 10)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(COLORS["panel"]))
        p.setPen(QPen(QColor(COLORS["border"]), 1))
        p.drawRect(self.rect().adjusted(0, 0, -1, -1))
        y = 5
        if not self._lines and not self._hidden:
            p.setFont(serif_font(10, italic=True))
            p.setPen(QColor(COLORS["muted"]))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "Steel is drawn. Choose your first move.")
        for n, (text, dice, tone, kind) in enumerate(self._lines):
            if self._hidden and n == self._pinned:  # the lines left out, between the roll and the newest
                p.setFont(ui_font(8.5))
                p.setPen(QColor(COLORS["muted"]))
                more = "more" if self._pinned else "earlier"
                p.drawText(QRectF(10, y, self.width() - 20, self.ROW), Qt.AlignmentFlag.AlignVCenter,
                           f"… {self._hidden} {more} line{'s' if self._hidden > 1 else ''} in the log")  # fmt: skip
                y += self.ROW
            x = 10.0
            size = self.ROW - 6.0
            for face in dice[:8]:
                paint_die(p, QRectF(x, y + 3, size, size), face, tone)
                x += size + 3
            if dice:
                x += 6
            colour = {"kill": COLORS["gold"], "hit": COLORS["danger"], "harm": COLORS["danger"]}.get(
                kind, COLORS["ink"]
            )
            p.setPen(QColor(colour or COLORS["ink"]))
            p.setFont(serif_font(10, bold=kind in ("kill", "combat_end", "round")))
            metrics = p.fontMetrics()
            room = int(self.width() - x - 10)
            p.drawText(QRectF(x, y, room, self.ROW), Qt.AlignmentFlag.AlignVCenter,
                       metrics.elidedText(text, Qt.TextElideMode.ElideRight, room))  # fmt: skip
            y += self.ROW
        p.end()


def paint_die(p: QPainter, r: QRectF, face: int, tone: str = "plain") -> None:
    """One die: parchment square with its face, framed by how the roll went."""
    frame = {"success": COLORS["gold"], "critical": COLORS["danger"], "failure": COLORS["muted"]}.get(
        tone, COLORS["border"]
    )
    fill = QColor(COLORS["paper"]) if tone != "failure" else QColor("#b9ad93")
    p.setPen(QPen(QColor(frame), 2))
    p.setBrush(fill)
    p.drawRoundedRect(r, 3, 3)
    p.setPen(QColor(COLORS["paper_ink"]) if face != 1 else QColor(COLORS["accent"]))
    p.setFont(ui_font(max(6.0, r.height() * 0.45), bold=True))
    p.drawText(r, Qt.AlignmentFlag.AlignCenter, str(face))


# --- the initiative order -------------------------------------------------------------------------------------


class Pips(QWidget):
    """Actions left as filled pips (``left`` of ``total``)."""

    def __init__(self, left: int, total: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.left, self.total = left, total
        self.setFixedSize(max(1, total) * 12 + 2, 14)
        self.setToolTip(f"{left} action{'s' if left != 1 else ''} left")

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for i in range(self.total):
            on = i < self.left
            p.setPen(QPen(QColor(COLORS["gold"]), 1.5))
            p.setBrush(QColor(COLORS["gold"]) if on else Qt.BrushStyle.NoBrush)
            p.drawEllipse(QPointF(7 + i * 12, 7), 4.5, 4.5)
        p.end()


class _Row(QWidget):
    """One line of the initiative order; a click on it picks that fighter."""

    def __init__(self, fighter_id: str, picked: Any) -> None:
        super().__init__()
        self.fighter_id = fighter_id
        self._picked = picked

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._picked.emit(self.fighter_id)


def enemy_lines(events: Sequence[Event]) -> list[str]:
    """What the enemies did in a step: the lines from the first enemy's deed to the last one's (what they did to
    the party in between: the hits, the wounds), with where a move went."""
    shown = [e for e in events if e.text and not e.data.get("hidden")]
    foes = [i for i, e in enumerate(shown) if "foe" in e.data]
    if not foes:
        return []
    out = []
    for e in shown[foes[0] : foes[-1] + 1]:
        text = e.text
        frm, to = e.data.get("frm"), e.data.get("to")
        if e.kind == "foe_move" and frm and to and text.endswith("."):
            tiles = max(abs(int(to[0]) - int(frm[0])), abs(int(to[1]) - int(frm[1])))
            text = f"{text[:-1]} {tiles} tile{'s' if tiles != 1 else ''}."
        out.append(text)
    return out


class EnemyTurn(QFrame):
    """Beside the grid, what the enemies did in their last phase, kept until they act again: the dice tray
    and the log once hid it, and the player could not see what had happened to the party."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("enemy_turn")
        self.setProperty("role", "panel")
        col = QVBoxLayout(self)
        col.setContentsMargins(8, 4, 8, 4)
        col.setSpacing(2)
        self.title = QLabel()
        self.title.setProperty("role", "gold")
        col.addWidget(self.title)
        self.text = QLabel()
        self.text.setObjectName("enemy_turn_text")
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.text.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.lines_view = QScrollArea(self)
        self.lines_view.setWidgetResizable(True)
        self.lines_view.setFrameShape(QFrame.Shape.NoFrame)
        self.lines_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.lines_view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.lines_view.setWidget(self.text)
        # some lines in sight at any text size, the rest a scroll away (the newest at the bottom, scrolled to)
        self.set_lines(4)
        col.addWidget(self.lines_view)
        self.lines: list[str] = []
        self.hide()

    def set_events(self, events: Sequence[Event], round_no: int | None) -> None:
        lines = enemy_lines(events)
        if not lines:
            return  # the player's own step: what the enemies did last stays in sight
        first = next(i for i, e in enumerate(events) if "foe" in e.data)
        rounds = [e.data.get("round") for e in events[:first] if e.kind == "round" and e.data.get("round")]
        round_no = int(str(rounds[-1])) if rounds else round_no
        self.lines = lines
        self.title.setText(f"THE ENEMIES' TURN{f' · ROUND {round_no}' if round_no else ''}")
        self.text.setText("\n".join(lines))
        self.show()
        bar = self.lines_view.verticalScrollBar()
        self.text.adjustSize()
        bar.setValue(bar.maximum())

    def set_lines(self, n: int) -> None:
        height = self.fontMetrics().lineSpacing() * n + 6
        if self.lines_view.height() != height:
            self.lines_view.setFixedHeight(height)

    def clear(self) -> None:
        """A fight over: the next one starts with nothing said."""
        self.lines = []
        self.text.setText("")
        self.hide()


class InitiativePanel(QFrame):
    """Fast adventurers, then the enemies, then the slow adventurers; who acts now is marked."""

    picked = Signal(str)  # a fighter id clicked

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "panel")
        self._col = QVBoxLayout(self)
        self._col.setContentsMargins(8, 4, 8, 4)
        self._col.setSpacing(0)
        self.rows: dict[str, QWidget] = {}

    def _clear(self) -> None:
        while self._col.count():
            item = self._col.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.hide()  # out of sight now: until its deletion the old row was drawn under the new ("(fled)")
                w.deleteLater()
        self.rows = {}

    def show_order(self, session: Session, cs: CombatState, acting: str | None, ring: dict[str, str]) -> None:
        from rules.gm.combat_core import ACTIONS

        self._clear()
        party = {m.id: m for m in session.campaign.party}
        fast = [f for f in cs.fighters if f.fast]
        slow = [f for f in cs.fighters if not f.fast]
        sections: list[tuple[str, str, list[Any]]] = [
            ("fast", "Fast", fast),
            ("enemies", "Enemies", cs.active_foes()),
            ("slow", "Slow", slow),
        ]
        for key, title, people in sections:
            head = QLabel(title.upper() + ("   ◀ now" if cs.phase == key else ""))
            head.setProperty("role", "gold" if cs.phase == key else "muted")
            head.setFont(ui_font(sized(8.5), bold=True))
            self._col.addWidget(head)
            if not people:
                none = QLabel("  no one")
                none.setProperty("role", "muted")
                self._col.addWidget(none)
            for who in people:
                row = _Row(who.id, self.picked)
                line = QHBoxLayout(row)
                line.setContentsMargins(4, 0, 0, 0)
                line.setSpacing(6)
                if key == "enemies":
                    sheet = monster_sheet(session.gm, who.monster)
                    total = sheet.wounds if sheet is not None else 0
                    mark = QLabel("◆")
                    mark.setStyleSheet(f"color: {COLORS['accent']};")
                    name = QLabel(f"{who.monster} {who.id[1:]}")
                    state = f"{who.wounds}/{total} wounds" + (f" · AP {who.ap}" if who.ap else "")
                    tokens = _tokens(who.shield, who.dodge, who.stun)
                    info = QLabel(state + (f" · {tokens}" if tokens else ""))
                    info.setProperty("role", "muted")
                    info.setToolTip(info.text())
                    # in a narrow panel the name and its number stay whole (six "Plagued Rat" were told apart by
                    # nothing); the state gives way from its end, the wounds first in it
                    name.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Preferred)
                    info.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
                    info.setMinimumWidth(0)
                    info.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)  # cut from its end
                    for w in (mark, name):
                        line.addWidget(w)
                    line.addWidget(info, 1)
                else:
                    m = party.get(who.id)
                    now = who.id == acting
                    mark = QLabel("▶" if now else "●")
                    mark.setStyleSheet(f"color: {ring.get(who.id, COLORS['gold'])};")
                    label = m.name if m is not None else "fallen"
                    if who.dead or m is None:
                        label += " (dead)"
                    elif who.fled:
                        label += " (fled)"
                    elif not m.adv.character.can_act:
                        label += f" ({m.adv.character.condition.value})"
                    name = QLabel(label)
                    if now:
                        name.setProperty("role", "gold")
                        name.setFont(ui_font(sized(10), bold=True))
                    tokens = _tokens(who.shield, who.dodge, who.stun)
                    line.addWidget(mark)
                    line.addWidget(name)
                    line.addStretch(1)
                    if tokens:
                        info = QLabel(tokens)
                        info.setProperty("role", "muted")
                        line.addWidget(info)
                    if not who.dead and not who.fled and m is not None:
                        line.addWidget(Pips(who.actions, max(ACTIONS, who.actions)))
                    else:
                        name.setProperty("role", "muted")
                    row.setCursor(Qt.CursorShape.PointingHandCursor)
                self.rows[who.id] = row
                self._col.addWidget(row)


def _tokens(shield: int, dodge: int, stun: int) -> str:
    parts = [f"{n} {w}" for w, n in (("shield", shield), ("dodge", dodge), ("stun", stun)) if n]
    return " · ".join(parts)


# --- the view -------------------------------------------------------------------------------------------------------


#: Labels longer than this lose their trailing parenthesis to the tooltip (the panel is narrow).
SHORT = 34
_RECOVER = re.compile(r"recover \(drop an? (\w+) token, recover 1 (\w+) fatigue\)")


def short_label(a: Action, names: dict[str, str]) -> str:
    """The engine's label fitted to the side panel: without the adventurer's name in front (the panel says who
    acts), attacks as 'enemy n — weapon', long parentheses left to the tooltip (which keeps the full label)."""
    label = a.label
    name = names.get(a.who or "")
    if name and label.startswith(name + ": "):
        label = label[len(name) + 2 :]
    m = _RECOVER.fullmatch(label)
    if m:
        return f"Recover: drop {m.group(1)}, +1 {m.group(2)}"
    if a.kind in ("cast", "pray"):
        # a power's odds stay in sight, shortened: "INT 50% to keep it" -> "INT 50%", a prayer's blow -> "hit 42%"
        paren = _PAREN.search(label)
        if paren is not None and "%" in paren.group(1):
            odds = paren.group(1).replace(" to keep it", "").replace(" answered", "")
            odds = re.sub(r", then \S+ \S+ (\d+%) to hit", r", hit \1", odds)
            body = re.sub(r" \(e(\d+)\)", r" \1", label[: paren.start()].rstrip())
            label = f"{body} · {odds}"
    elif a.kind == "attack" and a.target:
        paren = _PAREN.search(label)
        notation = f" ({paren.group(1)})" if paren else ""
        foe = label.split(" with the ")[0].removeprefix("attack ")
        foe = re.sub(r" \(e(\d+)\)$", r" \1", foe)
        arm = str(a.param("arm"))
        label = f"{foe} — {arm}"
        if len(label + notation) <= SHORT:
            label += notation
    elif len(label) > SHORT:
        label = re.sub(r" \(e(\d+)\)", r" \1", label)
        if len(label) > SHORT and _PAREN.search(label):
            label = _PAREN.sub("", label).rstrip()
    return label[:1].upper() + label[1:]


def fitted(a: Action, names: dict[str, str]) -> Action:
    """``a`` with its short label; the full label goes first in the tooltip's rule line."""
    short = short_label(a, names)
    if short == a.label:
        return a
    rule = a.label + (f" — {a.rule}" if a.rule else "")
    return dataclasses.replace(a, label=short, rule=rule)


def _is_foe(cs: CombatState, target: str | None) -> bool:
    return any(e.id == target for e in cs.foes)


def nearest(cs: CombatState, who: str | None, actions: Sequence[Action]) -> Action | None:
    """Of ``actions`` aimed at enemies, the one at the nearest enemy (ties: the engine's order)."""
    try:
        f = cs.fighter(who or "")
    except KeyError:
        return None
    best: tuple[int, int] | None = None
    pick: Action | None = None
    for i, a in enumerate(actions):
        try:
            e = cs.foe(a.target or "")
        except KeyError:
            continue
        key = (abs(e.x - f.x) + abs(e.y - f.y), i)
        if best is None or key < best:
            best, pick = key, a
    return pick


class CombatView(QWidget):
    """The fight: grid on the left; round, initiative, the acting adventurer's actions on the right."""

    act = Signal(object)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._acting: str | None = None
        self._cursor: tuple[int, int] | None = None
        self._actions: list[Action] = []

        root = QHBoxLayout(self)
        root.setContentsMargins(8, 8, 8, 8)
        root.setSpacing(10)

        left = QVBoxLayout()
        left.setSpacing(4)
        head = QHBoxLayout()
        head.setSpacing(12)
        self.title = QLabel("Combat")
        self.title.setProperty("role", "heading")
        self.title.setFont(serif_font(sized(15), bold=True))
        self.subtitle = QLabel()
        self.subtitle.setProperty("role", "subtitle")
        self.subtitle.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        head.addWidget(self.title)
        head.addWidget(self.subtitle, 1)
        left.addLayout(head)
        self.why = QLabel()
        self.why.setObjectName("why_fight")
        self.why.setProperty("role", "muted")
        # wrapped, whole (a long reason was cut at the edge): its text is the same through the whole fight, so the
        # grid does not change size between rounds (a line that came and went once did)
        self.why.setWordWrap(True)
        self.why.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        left.addWidget(self.why)
        self.grid = CombatGrid(self)
        self.grid.setMinimumSize(240, 180)
        self.grid.chosen.connect(self._choose)
        self.grid.selected.connect(self._pick)
        self.grid.refused.connect(self._refused)
        left.addWidget(self.grid, 1)
        self.hint = QLabel()
        self.hint.setProperty("role", "muted")
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        # always three lines high: a hint of two lines after one of three made the grid change size between turns
        self.hint.setFixedHeight(self.hint.fontMetrics().lineSpacing() * 3 + 4)
        left.addWidget(self.hint)
        self.feed = DiceFeed(4, self)
        left.addWidget(self.feed)
        root.addLayout(left, 1)

        side = QFrame(self)
        side.setProperty("role", "panel")
        # wider with the text size (at 20 pt the order's names and "End turn [E]" were cut), up to 480 px
        self._side_width = int(min(480, 370 * max(1.0, sized(10.5) / 10.5 * 0.8)))
        side.setFixedWidth(self._side_width)
        self.side = side
        col = QVBoxLayout(side)
        col.setContentsMargins(10, 8, 10, 8)
        col.setSpacing(4)
        self.order = InitiativePanel(side)
        self.order.picked.connect(self._pick)
        col.addWidget(self.order)
        self.foes = EnemyTurn(side)
        col.addWidget(self.foes)
        self.who = QLabel()
        self.who.setProperty("role", "heading")
        self.who.setWordWrap(True)
        col.addWidget(self.who)
        self.list = ActionList(side)
        self.list.chosen.connect(self._choose)
        self.list.setMinimumHeight(self.fontMetrics().lineSpacing() * 5)  # two actions in sight at any text size
        col.addWidget(self.list, 1)
        bar = QHBoxLayout()
        self.flee_button = QPushButton("Flee  [F]")
        self.flee_button.setProperty("role", "danger")
        self.flee_button.clicked.connect(lambda: self._bar("flee"))
        self.end_button = QPushButton("End turn  [E]")
        self.end_button.setProperty("role", "primary")
        self.end_button.clicked.connect(lambda: self._bar("end"))
        bar.addWidget(self.flee_button)
        bar.addWidget(self.end_button, 1)
        col.addLayout(bar)
        root.addWidget(side)
        self._bind_keys()

    # --- refreshing ------------------------------------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The side panel gives way to the grid's least width in a narrow window at a large text size (at 20 pt
        in 1024 px the fight scrolled sideways); it never grows past its width for the text size."""
        super().resizeEvent(event)
        lay = self.layout()
        if lay is None:
            return
        m = lay.contentsMargins()
        size = event.size()
        room = size.width() - m.left() - m.right() - lay.spacing() - self.grid.minimumWidth()
        # the grid comes first: in a narrow window the side panel takes at most 40% of the width (at 1024×640
        # and 20 pt it took half and left the grid a thumbnail)
        buttons = self.flee_button.sizeHint().width() + self.end_button.sizeHint().width() + 6 + 20
        width = max(250, buttons, min(self._side_width, room, int(size.width() * 0.4)))
        if width != self.side.width():
            self.side.setFixedWidth(width)
        # a short view keeps the grid before the last step's lines under it (the log and the enemies' panel
        # say the same): the feed is left out when it would leave the grid less than half the height
        feed_h = self.feed.height() + lay.spacing()
        self.feed.setVisible(size.height() - feed_h - self._fixed_left_height() >= size.height() * 0.5)
        # the enemies' panel: four lines in a tall window, two in a short one (the side column set the height the
        # whole screen needs at 1024×640 and 20 pt, and the window scrolled)
        self.foes.set_lines(4 if self.window().height() >= 800 else 2)

    def _fixed_left_height(self) -> int:
        """The height the left column's parts other than the grid and the feed take."""
        parts = (self.title, self.why, self.hint)
        return sum(w.sizeHint().height() + 4 for w in parts) + 2 * 8

    @property
    def acting(self) -> str | None:
        """The adventurer whose actions are shown."""
        return self._acting

    def refresh(self, events: list[Event]) -> None:
        cs = self.session.campaign.combat
        if events:
            self.feed.set_events(events)
            self.foes.set_events(events, cs.round if cs is not None else None)
        if cs is None:
            self._actions = []
            self.foes.clear()
            self.title.setText("The fight is over")
            self.subtitle.setText("")
            self.list.set_actions([])
            self.end_button.setEnabled(False)
            self.flee_button.setEnabled(False)
            return
        self._actions = self.session.actions()
        whos = [a.who for a in self._actions if a.available and a.who]
        if self._acting not in whos:
            self._acting = whos[0] if whos else None
            self._cursor = None
        self._render(cs)

    def _header(self, cs: CombatState) -> None:
        self.title.setText(f"Round {cs.round}")
        sub = PHASE_TEXT.get(cs.phase, cs.phase)
        if cs.surprise == "party" and cs.round == 1:
            sub += " · the enemies are caught unaware"
        elif cs.surprise == "enemies" and cs.round == 1:
            sub += " · ambushed!"
        self.subtitle.setText(sub)
        gm = self.session.gm
        try:
            room = gm.room(cs.room).name if cs.room is not None else ""
        except (KeyError, IndexError, AttributeError, ValueError):
            room = ""
        why = why_text(cs, room)
        self.why.setText(why)
        self.why.setToolTip(why)

    def show_mid_step(self) -> None:
        """The fight as it stands inside a step (the GM asks something while the enemies act): the header names
        the phase, the order marks it, the grid shows where everyone is; no actions (none can be taken now)."""
        cs = self.session.campaign.combat
        if cs is None:
            return
        self._header(cs)
        self.grid.set_state(self.session.gm, [], None)
        self.order.show_order(self.session, cs, None, {f.id: self.grid.ring_color(f.id) for f in cs.fighters})

    def _render(self, cs: CombatState) -> None:
        names = {m.id: m.name for m in self.session.campaign.party}
        self._header(cs)
        self.grid.set_state(self.session.gm, self._actions, self._acting)
        self.order.show_order(self.session, cs, self._acting, {f.id: self.grid.ring_color(f.id) for f in cs.fighters})
        mine = [a for a in self._actions if a.who == self._acting] if self._acting else []
        if self._acting is None:
            self.who.setText("No one can act.")
        else:
            f = cs.fighter(self._acting)
            left = f"{f.actions} action{'s' if f.actions != 1 else ''} left"
            if cs.morale:  # Miracle 2 (RULINGS R208)
                left += f" · party morale {cs.morale} (pays a test's fatigue)"
            self.who.setText(f"{names.get(self._acting, self._acting)} — {left}")
        shown = self._listed(mine, names, cs)
        self.list.set_actions(shown, groups=GROUPS)
        end = next((a for a in mine if a.kind == "end"), None)
        flee = next((a for a in mine if a.kind == "flee"), None)
        self.end_button.setEnabled(end is not None and end.available)
        self.flee_button.setEnabled(flee is not None and flee.available)
        # named after the action they play, like every action button (tests and tools find them so)
        self.end_button.setObjectName(f"action:{end.id}" if end is not None else "end_turn")
        self.flee_button.setObjectName(f"action:{flee.id}" if flee is not None else "flee")
        self.flee_button.setToolTip(
            (flee.rule + ("" if flee.available else f"<br><i>Not now: {flee.reason}</i>")) if flee else "No way out."
        )
        moves = [a for a in mine if a.kind == "move"]
        reach = sum(1 for a in moves if a.available and a.param("x") is not None)
        if reach:
            hint = (f"Gold tile: move ({moves[0].cost}) · marked enemy: the attack with the best odds · right "
                    "click on an enemy or an adventurer: every attack, power and item aimed at them, with its "
                    "odds.")  # fmt: skip
        else:
            why = next((a.reason for a in moves if a.reason), None)
            hint = f"No move now{': ' + why.rstrip('.') if why else ''}. Click a marked enemy to attack it."
        if len(set(a.who for a in self._actions if a.available)) > 1:
            hint += " Tab or a click on an adventurer: who acts next."
        self.hint.setText(hint)
        if self.hint.property("role") != "muted":
            self.hint.setProperty("role", "muted")
            self.hint.style().unpolish(self.hint)
            self.hint.style().polish(self.hint)

    def _listed(self, mine: list[Action], names: dict[str, str], cs: CombatState) -> list[Action]:
        """The acting adventurer's actions for the list: targeted ones only when possible (else one, greyed, to
        say why), moves only when none is possible (the grid shows them), End turn and Flee in the bar."""
        out: list[Action] = []
        for kind in TARGETED:
            of_kind = [a for a in mine if a.kind == kind and a.target]
            ok = [a for a in of_kind if a.available]
            if ok and kind in ("cast", "pray"):
                # a power aimed at enemies: one row, at the nearest (as a click on the grid attacks); the enemy's
                # right-click menu on the grid offers it at every other, with its odds
                at_foes: dict[str, list[Action]] = {}
                rest: list[Action] = []
                for a in ok:
                    if _is_foe(cs, a.target):
                        at_foes.setdefault(str(a.param("spell") or a.param("prayer")), []).append(a)
                    else:
                        rest.append(a)
                # at the enemies first (what a fight is for), then on oneself and the allies
                out += [nearest(cs, self._acting, group) or group[0] for group in at_foes.values()] + rest
            elif ok:
                out += ok
            elif of_kind and kind == "attack":
                out.append(nearest(cs, self._acting, of_kind) or of_kind[0])
            elif kind in ("cast", "pray"):  # a power with no target now: once, greyed, with its reason
                seen: set[str] = set()
                for a in of_kind:
                    power = str(a.param("spell") or a.param("prayer"))
                    if power not in seen:
                        seen.add(power)
                        out.append(a)
        for a in mine:
            if a.kind in BAR_KINDS or (a.kind in TARGETED and a.target) or a.kind == "give":
                continue  # (giving is done on the item, in the inventory)
            if a.kind == "move" and (a.param("x") is not None or a.available):
                continue
            out.append(a)
        shown = [fitted(a, names) for a in out]
        counts: dict[str, int] = {}
        for a in shown:
            counts[a.label] = counts.get(a.label, 0) + 1
        # two actions that would read alike keep their full labels
        return [a if counts[a.label] == 1 else b for a, b in zip(shown, out, strict=True)]

    # --- choosing ------------------------------------------------------------------------------------------------

    def _choose(self, action: Action) -> None:
        if action.available:
            self.act.emit(action)

    def _refused(self, why: str) -> None:
        """A click that could do nothing (an enemy out of reach) says why where the player looks."""
        self.hint.setText(why)
        self.hint.setProperty("role", "danger")
        self.hint.style().unpolish(self.hint)
        self.hint.style().polish(self.hint)

    def _pick(self, fighter_id: str) -> None:
        if any(a.who == fighter_id and a.available for a in self._actions) and fighter_id != self._acting:
            self._acting = fighter_id
            self._cursor = None
            cs = self.session.campaign.combat
            if cs is not None:
                self._render(cs)
            fw = QApplication.focusWidget()
            if self.isVisible() and (fw is None or not fw.isVisible()):
                self.setFocus(Qt.FocusReason.OtherFocusReason)  # the focused button was rebuilt: Tab on

    def _bar(self, kind: str) -> None:
        a = next((a for a in self._actions if a.who == self._acting and a.kind == kind and a.available), None)
        if a is not None:
            self.act.emit(a)
            return
        # F or E that can do nothing says why where the player looks (F once did nothing at all, away from a door)
        closed = next((a for a in self._actions if a.who == self._acting and a.kind == kind), None)
        what = {"flee": "Flee", "end": "End turn"}.get(kind, kind)
        self._refused(f"{what}: not now — {closed.reason}" if closed is not None and closed.reason
                      else f"{what}: not possible now.")  # fmt: skip

    def _first(self, *kinds: str) -> Action | None:
        for kind in kinds:
            a = next((a for a in self._actions if a.who == self._acting and a.kind == kind and a.available), None)
            if a is not None:
                return a
        return None

    def attack_nearest(self) -> Action | None:
        """The attack the A key makes: on the nearest enemy a legal attack reaches."""
        cs = self.session.campaign.combat
        if cs is None:
            return None
        ok = [a for a in self._actions if a.who == self._acting and a.kind == "attack" and a.available]
        return nearest(cs, self._acting, ok)

    #: The keys of a fight (bound in :meth:`_bind_keys`; the Help menu lists them).
    KEYS = (
        ("1–9", "The numbered action of the adventurer acting"),
        ("A", "Attack the nearest enemy in reach"),
        ("D", "Defend"),
        ("O", "Dodge"),
        ("R", "Recover or catch your breath"),
        ("E", "End this adventurer's turn"),
        ("F", "Flee"),
        ("Tab / Shift+Tab", "The next / previous adventurer who can act"),
        ("Arrows", "Move the cursor on the grid"),
        ("Enter / Space", "Take what stands under the cursor (a move, an attack)"),
    )

    def _bind_keys(self) -> None:
        from desktop.keys import bind, bind_numbers

        bind_numbers(self, self.trigger_number)
        bind(self, "A", lambda: self._key(self.attack_nearest()))
        bind(self, "D", lambda: self._key(self._first("defend")))
        bind(self, "O", lambda: self._key(self._first("dodge")))
        bind(self, "R", lambda: self._key(self._first("recover", "breath")))
        bind(self, "E", lambda: self._bar("end"))  # as the buttons: a key that can do nothing says why
        bind(self, "F", lambda: self._bar("flee"))

    def _key(self, chosen: Action | None) -> None:
        if chosen is not None:
            self.act.emit(chosen)

    def trigger_number(self, n: int) -> bool:
        """The number key ``n``: the acting adventurer's numbered action."""
        return self.list.trigger(n)

    def next_adventurer(self, step: int = 1) -> bool:
        """Tab: show the actions of the next adventurer who can act (False when no one else can)."""
        whos = list(dict.fromkeys(a.who for a in self._actions if a.available and a.who))
        if len(whos) < 2 or self._acting not in whos:
            return False
        self._pick(whos[(whos.index(self._acting) + step) % len(whos)])
        return True

    def focusNextPrevChild(self, next: bool) -> bool:
        # Tab from anywhere in the view (its buttons pass it up to here) picks the next adventurer
        if self.next_adventurer(1 if next else -1):
            return True
        return super().focusNextPrevChild(next)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        cs = self.session.campaign.combat
        if event.isAutoRepeat() and key not in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down):
            event.accept()
            return
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down) and cs is not None:
            self._move_cursor(cs, key)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and self._cursor is not None:
            self._key(self.grid.action_at(self._cursor))
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def _move_cursor(self, cs: CombatState, key: int) -> None:
        if self._cursor is None:
            try:
                f = cs.fighter(self._acting or "")
            except KeyError:
                return
            self._cursor = f.tile
        dx, dy = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, -1), Qt.Key.Key_Down: (0, 1)}[
            Qt.Key(key)
        ]
        nxt = (self._cursor[0] + dx, self._cursor[1] + dy)
        if nxt in set(cs.tiles):
            self._cursor = nxt
        self.grid.set_cursor(self._cursor)

    @property
    def key_cursor(self) -> tuple[int, int] | None:
        """The tile the arrow keys point at (None until an arrow is pressed)."""
        return self._cursor
