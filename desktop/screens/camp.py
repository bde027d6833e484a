"""The camp phase: the setup that gathers camp actions, the camp actions that spend them, the ambush dice.

:class:`CampView` renders the engine's camp (:class:`rules.gm.state.CampState`) and emits the player's choice
on :attr:`CampView.act`.  Every number comes from the engine: the camp actions' sources and the ambush pool
from :func:`rules.gm.camp.setup_breakdown` and :func:`rules.gm.camp.ambush_breakdown` (the same functions
the engine rolls with), the costs and reasons from the legal actions, the dice rolled from the
``ambush_roll`` event's data.

Keys: 1–9 the numbered actions, S settle in (setup) — B break camp.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from desktop.screens.combat import paint_die
from desktop.theme import COLORS, serif_font, sized, ui_font
from desktop.widgets.action_list import ActionList
from desktop.widgets.wrap_label import WrapLabel

if TYPE_CHECKING:
    from desktop.session import Session
    from rules.gm.events import Action, Event
    from rules.gm.state import CampState

SETUP_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (("Gather camp actions", ("supply", "fire", "long_rest")),)
CAMP_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Camp actions", ("lookout", "rest", "sleep", "cook", "camp_items", "memorise", "ritual")),
    ("Free: skills and gods", ("surgeon", "pray", "sacrifice")),
    ("Free: quick and slow items", ("item",)),
)


class DiceRow(QWidget):
    """A row of dice: the ambush pool before the roll (blank), or the faces rolled (sixes in red)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.faces: list[int | None] = []
        self.trigger = 6  # the face that springs the ambush, as the roll's data says (the engine counts sixes)
        self.setMinimumHeight(40)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_pool(self, n: int) -> None:
        self.faces = [None] * max(0, n)
        self.update()

    def set_faces(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(300, 40)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        size = 32.0
        x = 2.0
        if not self.faces:
            p.setPen(QColor(COLORS["good"]))
            p.setFont(serif_font(10.5, italic=True))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignVCenter, "No ambush dice: nothing can find you.")
        for face in self.faces[:14]:
            r = QRectF(x, 4, size, size)
            if face is None:
                p.setPen(QPen(QColor(COLORS["gold"]), 1.5, Qt.PenStyle.DashLine))
                p.setBrush(QColor(COLORS["panel_alt"]))
                p.drawRoundedRect(r, 4, 4)
                p.setPen(QColor(COLORS["muted"]))
                p.setFont(ui_font(11, bold=True))
                p.drawText(r, Qt.AlignmentFlag.AlignCenter, "?")
            else:
                paint_die(p, r, face, "critical" if face == self.trigger else "plain")
            x += size + 6
        p.end()


class CampView(QWidget):
    """The camp: setup choices or camp actions on the left; actions left, ambush pool and party on the right."""

    act = Signal(object)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._actions: list[Action] = []
        self.last_roll: dict[str, Any] | None = None  # the ambush_roll event's data, once rolled
        self.last_verdict = ""

        root = QHBoxLayout(self)
        root.setContentsMargins(10, 10, 10, 10)
        root.setSpacing(12)

        left = QFrame(self)
        left.setProperty("role", "panel")
        lcol = QVBoxLayout(left)
        lcol.setContentsMargins(16, 12, 16, 12)
        lcol.setSpacing(6)
        self.title = QLabel("Camp")
        self.title.setProperty("role", "heading")
        self.title.setFont(serif_font(sized(18), bold=True))
        self.title.setWordWrap(True)
        self.place = QLabel()
        self.place.setProperty("role", "subtitle")
        self.place.setWordWrap(True)
        self.stage = WrapLabel()
        self.stage.setProperty("role", "muted")
        lcol.addWidget(self.title)
        lcol.addWidget(self.place)
        lcol.addWidget(self.stage)
        self.list = ActionList(left)
        self.list.chosen.connect(self._choose)
        lcol.addWidget(self.list, 1)
        self.main_button = QPushButton()
        self.main_button.setProperty("role", "primary")
        self.main_button.setMinimumHeight(38)
        self.main_button.clicked.connect(self._main)
        lcol.addWidget(self.main_button)
        root.addWidget(left, 3)

        right = QVBoxLayout()
        right.setSpacing(10)
        points = QFrame(self)
        points.setProperty("role", "panel")
        pcol = QVBoxLayout(points)
        pcol.setContentsMargins(14, 10, 14, 10)
        head = QLabel("CAMP ACTIONS")
        head.setProperty("role", "gold")
        head.setFont(ui_font(sized(9), bold=True))
        self.points = QLabel()
        self.points.setFont(serif_font(sized(22), bold=True))
        self.points.setProperty("role", "title")
        self.breakdown = WrapLabel()
        self.breakdown.setTextFormat(Qt.TextFormat.RichText)
        for w in (head, self.points, self.breakdown):
            pcol.addWidget(w)
        right.addWidget(points)

        ambush = QFrame(self)
        ambush.setProperty("role", "panel")
        acol = QVBoxLayout(ambush)
        acol.setContentsMargins(14, 10, 14, 10)
        ahead = QLabel("AMBUSH ROLL")
        ahead.setProperty("role", "gold")
        ahead.setFont(ui_font(sized(9), bold=True))
        ahead.setToolTip(session.gm.content.tables.camp.ambush.text)
        self.pool_text = WrapLabel()
        self.pool_text.setTextFormat(Qt.TextFormat.RichText)
        self.dice = DiceRow(ambush)
        self.verdict = WrapLabel()
        self.verdict.setFont(serif_font(sized(11), bold=True))
        parts: tuple[QWidget, ...] = (ahead, self.pool_text, self.dice, self.verdict)
        for part in parts:
            acol.addWidget(part)
        right.addWidget(ambush)

        party = QFrame(self)
        party.setProperty("role", "panel")
        self.party_grid = QGridLayout(party)
        self.party_grid.setContentsMargins(14, 10, 14, 10)
        self.party_grid.setHorizontalSpacing(10)
        self.party_grid.setVerticalSpacing(3)
        right.addWidget(party)
        right.addStretch(1)
        root.addLayout(right, 2)
        self._bind_keys()

    # --- refreshing --------------------------------------------------------------------------------------------

    def refresh(self, events: list[Event]) -> None:
        for ev in events:
            if ev.kind == "ambush_roll":
                self.last_roll = dict(ev.data)
                self.last_verdict = ""
            elif ev.kind == "ambush" and self.last_roll is not None:
                self.last_verdict = ev.text
            elif ev.kind == "break_camp" and self.last_roll is not None:
                self.last_verdict = "No one finds the camp. " + ev.text
            elif ev.kind == "camp":
                self.last_roll, self.last_verdict = None, ""
        st = self.session.campaign.camp
        self._actions = self.session.actions() if st is not None else []
        self._render(st)

    def _render(self, st: CampState | None) -> None:
        from rules.gm import camp
        from rules.gm.state import SETUP

        gm = self.session.gm
        self._render_party()
        if st is None:
            self.title.setText("The camp is broken")
            self.place.setText("")
            self.stage.setText("The party gathers its things and moves on.")
            self.list.set_actions([])
            self.main_button.setEnabled(False)
            self.main_button.setText("Break camp")
            self.points.setText("Broken")
            self.breakdown.setText("")
            self._render_roll(None)
            return
        room = gm.room(st.room)
        self.title.setText(f"Camp in {room.name}")
        where = [q for q, on in (("dry and stable", st.dry), ("filthy", st.filthy), ("exposed", st.exposed)) if on]
        self.place.setText(", ".join(where).capitalize() if where else "An ordinary corner of the dungeon")
        if st.stage == SETUP:
            self.stage.setText("Setting up: every choice below adds to (or takes from) the camp actions the party "
                               "will have. Settle in when ready.")  # fmt: skip
            shown = [a for a in self._actions if a.kind != "settle"]
            self.list.set_actions(shown, groups=SETUP_GROUPS)
            settle = next((a for a in self._actions if a.kind == "settle"), None)
            self.main_button.setText((settle.label if settle else "Settle in") + "  [S]")
            self.main_button.setEnabled(settle is not None and settle.available)
            self.main_button.setObjectName(f"action:{settle.id}" if settle is not None else "settle")
            total = camp.setup_total(gm, st)
            self.points.setText(f"{total} to spend")
            rows = camp.setup_breakdown(gm, st)
        else:
            self.stage.setText("The camp is set. Spend the camp actions; quick and slow items are free. Breaking "
                               "camp rolls the ambush dice.")  # fmt: skip
            shown = [a for a in self._actions if a.kind != "break"]
            self.list.set_actions(shown, groups=CAMP_GROUPS)
            brk = next((a for a in self._actions if a.kind == "break"), None)
            self.main_button.setText((brk.label if brk else "Break camp") + "  [B]")
            self.main_button.setEnabled(brk is not None and brk.available)
            self.main_button.setObjectName(f"action:{brk.id}" if brk is not None else "break")
            self.main_button.setToolTip(brk.rule if brk else "")
            self.points.setText(f"{st.left} of {st.points} left")
            rows = camp.setup_breakdown(gm, st)
        lines = [f"<span style='color:{COLORS['ink']}'>{name}</span> "
                 f"<b style='color:{COLORS['good'] if n >= 0 else COLORS['danger']}'>{n:+d}</b>"
                 for name, n in rows]  # fmt: skip
        self.breakdown.setText("<br>".join(lines) if lines else f"<i style='color:{COLORS['muted']}'>Nothing yet.</i>")
        self._render_roll(st)

    def _render_roll(self, st: CampState | None) -> None:
        from rules.gm import camp

        if self.last_roll is not None:
            data = self.last_roll
            faces = [int(x) for x in data.get("dice", [])]
            self.dice.set_faces(faces)
            self.pool_text.setText(_breakdown_html(data.get("breakdown", []), "Rolled"))
            sixes = int(data.get("sixes", 0))
            text = self.last_verdict or (f"{sixes} six{'es' if sixes != 1 else ''}." if faces else "No dice to roll.")
            self.verdict.setText(text)
            self.verdict.setProperty("role", "danger" if "Ambush" in text else "good")
        elif st is not None:
            gm = self.session.gm
            pool = camp.ambush_pool(gm, st)
            self.dice.set_pool(pool)
            self.pool_text.setText(_breakdown_html(camp.ambush_breakdown(gm, st), "Dice when you break camp"))
            rules = gm.content.tables.camp.ambush
            self.verdict.setText(f"{_sixes(rules.combat_on_sixes)}: a wandering group finds you. "
                                 f"{_sixes(rules.surprised_on_sixes)}: they catch you by surprise.")  # fmt: skip
            self.verdict.setProperty("role", "muted")
        else:
            self.dice.set_pool(0)
            self.pool_text.setText("")
            self.verdict.setText("")
        self.verdict.style().unpolish(self.verdict)
        self.verdict.style().polish(self.verdict)

    def _render_party(self) -> None:
        from rules.attributes import ATTRS

        while self.party_grid.count():
            item = self.party_grid.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.hide()  # not drawn under the new line until it is deleted
                w.deleteLater()
        head = QLabel("THE PARTY")
        head.setProperty("role", "gold")
        head.setFont(ui_font(sized(9), bold=True))
        self.party_grid.addWidget(head, 0, 0, 1, 3)
        for row, m in enumerate(self.session.campaign.party, start=1):
            ch = m.adv.character
            fatigue = sum(ch.attrs[a].fatigue for a in ATTRS)
            wounds = sum(ch.attrs[a].wounds for a in ATTRS)
            name = QLabel(m.name)
            state = WrapLabel(f"fatigue {fatigue} · wounds {wounds}")  # on two lines at 1024 px, never cut
            state.setProperty("role", "muted" if not (fatigue or wounds) else "gold")
            woes = sorted(ch.afflictions) + ([ch.condition.value] if not ch.can_act else [])
            ail = WrapLabel(", ".join(woes) if woes else "—")
            ail.setProperty("role", "danger" if woes else "muted")
            self.party_grid.addWidget(name, row, 0)
            self.party_grid.addWidget(state, row, 1)
            self.party_grid.addWidget(ail, row, 2)
        self.party_grid.setColumnStretch(2, 1)

    # --- choosing ----------------------------------------------------------------------------------------------

    def _choose(self, action: Action) -> None:
        if action.available:
            self.act.emit(action)

    def _main(self) -> None:
        for kind in ("settle", "break"):
            a = next((a for a in self._actions if a.kind == kind and a.available), None)
            if a is not None:
                self.act.emit(a)
                return

    #: The keys of the camp (the Help menu lists them).
    KEYS = (
        ("1–9", "The numbered setup choice or camp action"),
        ("S", "Settle in (once the setup is chosen)"),
        ("B", "Break camp (rolls the ambush dice)"),
    )

    def _bind_keys(self) -> None:
        from desktop.keys import bind, bind_numbers

        bind_numbers(self, self.trigger_number)
        bind(self, "S", lambda: self._take("settle"))
        bind(self, "B", lambda: self._take("break"))

    def _take(self, kind: str) -> None:
        a = next((a for a in self._actions if a.kind == kind and a.available), None)
        if a is not None:
            self.act.emit(a)

    def trigger_number(self, n: int) -> bool:
        """The number key ``n``: the numbered choice of the list."""
        return self.list.trigger(n)


def _sixes(n: int) -> str:
    return "A six" if n == 1 else f"{n} sixes or more"


def _breakdown_html(rows: Sequence[Any], title: str) -> str:
    parts = [f"<span style='color:{COLORS['muted']}'>{title}:</span>"]
    for name, n in rows:
        colour = COLORS["danger"] if int(n) > 0 else COLORS["good"]
        parts.append(f"{name} <b style='color:{colour}'>{int(n):+d}</b>")
    if len(parts) == 1:
        parts.append(f"<i style='color:{COLORS['muted']}'>none</i>")
    return "<br>".join(parts)
