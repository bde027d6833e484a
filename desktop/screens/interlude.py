"""The interlude: days in a settlement between expeditions.

A header names the settlement (size, its doom and the doom's effects in force, the day's Blacksalt event and
the events running); tabs hold the rest:

* **Day** — one card per adventurer with the day actions (announced, then resolved in the engine's order), the
  party's "Resolve the day" (Ctrl+Enter), and at night the sleep locations with their tables.
* **Shop** — the catalogue with rarity, the chance it is in stock here and the price held until the next
  interlude; at the market, the rolled prices with a buy button for the shopper, or the seller's items with
  the odds of the sale's test.
* **Jobs** — the job board (title, theme, level, depths, bounty, days away, hook) and the roads to the other
  settlements.
* **Roster** — the party (insight to spend, retiring, recruiting), the dead and the retired with their fate.
* **Trappings** — each adventurer's inventory (:class:`desktop.widgets.inventory.InventoryView`).

Every button is one of the engine's legal actions; the view emits it on :attr:`InterludeView.act` and never
applies it itself.  Numbers shown come from the actions, the state and the content.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QKeySequence, QPainter, QPaintEvent, QPen, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.chances import haggle_odds, price_dice
from desktop.theme import COLORS, serif_font, sized
from desktop.widgets.inventory import InventoryView
from desktop.widgets.wrap_label import WrapLabel

if TYPE_CHECKING:
    from desktop.session import Session
    from rules.gm.events import Action, Event
    from rules.gm.state import Member, SettlementState

DAY_KINDS = ("rest", "tend", "sell", "shop", "lay_low")
TABS = ("Day", "Shop", "Jobs", "Roster", "Trappings")
RARITY_ROLE = {"free": "muted", "common": "", "uncommon": "good", "valuable": "gold", "rare": "danger",
               "exotic": "danger"}  # fmt: skip


def action_tip(action: Action) -> str:
    """A button's tooltip: the label, the cost, the rule quoted, and why not now."""
    parts = [f"<b>{escape(action.label)}</b>", f"Cost: {escape(str(action.cost))}"]
    if action.rule:
        parts.append(f"<i>“{escape(_short(action.rule, 500))}”</i>")
    if not action.available:
        parts.append(
            f"<span style='color:{COLORS['accent']}'>Not now: {escape(action.reason or 'not possible')}</span>"
        )
    return "<br>".join(parts)


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _label(text: str, role: str = "", wrap: bool = False) -> QLabel:
    lab = WrapLabel(text) if wrap else QLabel(text)  # a wrapped one keeps the height of its lines
    if role:
        lab.setProperty("role", role)
    return lab


def _plain(text: str, role: str = "") -> QLabel:
    """A wrapped label of plain text (an escaped text in a label Qt takes for plain shows its "&#x27;")."""
    lab = _label(text, role, wrap=True)
    lab.setTextFormat(Qt.TextFormat.PlainText)
    return lab


def _panel(role: str = "panel") -> tuple[QFrame, QVBoxLayout]:
    frame = QFrame()
    frame.setProperty("role", role)
    lay = QVBoxLayout(frame)
    lay.setContentsMargins(12, 10, 12, 10)
    lay.setSpacing(6)
    return frame, lay


def _scroll(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    # no stop of its own on the way of Tab: the buttons inside are (and the area scrolls to the one focused)
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    area.setWidget(widget)
    return area


def _clear(layout: Any) -> None:
    """Remove and delete everything in a layout (nested layouts too)."""
    while layout.count():
        child = layout.takeAt(0)
        if child is None:
            continue
        w = child.widget()
        if w is not None:
            w.hide()  # gone from sight now, deleted on the next turn of the loop (setParent(None): ~2 ms each)
            w.deleteLater()
        elif child.layout() is not None:
            _clear(child.layout())


class DoomTrack(QWidget):
    """The settlement's doom tracker: a pip per step, filled up to the doom (the book's 7 steps)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.steps = 7
        self.doom = 0
        self.setFixedSize(QSize(7 * 18 + 4, 20))

    def set_doom(self, doom: int, steps: int) -> None:
        self.doom, self.steps = doom, steps
        self.setFixedSize(QSize(steps * 18 + 4, 20))
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for i in range(self.steps):
            r = QRectF(2 + i * 18, 3, 14, 14)
            filled = i < self.doom
            p.setPen(QPen(_qcolor("accent_hover" if filled else "border"), 1.5))
            p.setBrush(_qcolor("accent") if filled else _qcolor("bg"))
            p.drawRoundedRect(r, 3, 3)
        p.end()


def _qcolor(key: str) -> Any:
    from PySide6.QtGui import QColor

    return QColor(COLORS.get(key, COLORS["border"]))


# --- the view ---------------------------------------------------------------------------------------------------


class InterludeView(QWidget):
    """The interlude phase view.  Emits :attr:`act` with the engine action the player chose."""

    act = Signal(object)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.buttons: dict[str, QAbstractButton] = {}  # action id -> the button that emits it (for tests)
        self.menu_actions: dict[str, Any] = {}  # action id -> the QAction of a day action's menu
        self._last_step = ""
        self._recent: list[str] = []
        self._sleep_shown = ""
        self._shop_scroll = 0
        self._cards_cols = 0

        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(6)
        outer.addWidget(self._header())
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(False)
        self.day_page = QWidget()
        self.shop_page = QWidget()
        self.jobs_page = QWidget()
        self.roster_page = QWidget()
        self.trappings_page = QWidget()
        for page, name in zip(
            (self.day_page, self.shop_page, self.jobs_page, self.roster_page, self.trappings_page), TABS, strict=True
        ):
            self.tabs.addTab(page, name)
        for i, name in enumerate(TABS):
            self.tabs.setTabToolTip(i, f"{name} (Ctrl+{i + 1})")
        outer.addWidget(self.tabs, 1)
        self._build_day()
        self._build_shop()
        self._build_jobs()
        self._build_roster()
        self._build_trappings()
        self._shortcuts()
        self._stale: set[int] = set()  # tabs redrawn only when opened: a step redraws the one in sight
        self._step = "begin"
        self.tabs.currentChanged.connect(self._tab_opened)
        self.refresh([])

    # --- helpers ------------------------------------------------------------------------------------------------

    def _emit(self, action: Action) -> None:
        if action.available:
            self.act.emit(action)

    def _button(self, action: Action, text: str | None = None, role: str = "") -> QPushButton:
        b = QPushButton(text if text is not None else action.label)
        if role:
            b.setProperty("role", role)
        b.setCursor(Qt.CursorShape.PointingHandCursor)
        b.clicked.connect(lambda _=False, a=action: self._emit(a))
        self._bind(b, action)
        return b

    def _bind(self, b: QPushButton, action: Action) -> None:
        """Show ``action`` on button ``b``: enabled or not, its tooltip, its name for the tests."""
        b.setEnabled(action.available)
        b.setToolTip(action_tip(action))
        b.setObjectName(f"action:{action.id}")
        self.buttons[action.id] = b

    #: The keys of the town (the Help menu lists them); the buttons are reached with Tab and pressed with Space.
    KEYS = (
        ("Ctrl+1–5", "The tabs: " + ", ".join(TABS)),
        ("Tab / Shift+Tab, Space", "Go from button to button, press the one with the focus"),
        ("Ctrl+Enter", "Begin the interlude, or end the day with the actions chosen"),
        ("Esc", "Leave the market"),
    )

    def _shortcuts(self) -> None:
        for i in range(len(TABS)):
            QShortcut(QKeySequence(f"Ctrl+{i + 1}"), self).activated.connect(lambda i=i: self.tabs.setCurrentIndex(i))
        QShortcut(QKeySequence("Ctrl+Return"), self).activated.connect(self.resolve_day)
        QShortcut(QKeySequence("Ctrl+Enter"), self).activated.connect(self.resolve_day)
        QShortcut(QKeySequence("Escape"), self).activated.connect(self.leave_market)

    def _actions(self) -> list[Action]:
        return self.session.actions()

    def _find(self, actions: list[Action], action_id: str) -> Action | None:
        return next((a for a in actions if a.id == action_id), None)

    def resolve_day(self) -> None:
        """Ctrl+Enter: resolve the day's actions (or begin the interlude)."""
        acts = self._actions()
        for aid in ("resolve", "begin"):
            a = self._find(acts, aid)
            if a is not None and a.available:
                self.act.emit(a)
                return

    def leave_market(self) -> None:
        """Escape: the one at the market leaves it."""
        a = self._find(self._actions(), "done")
        if a is not None and a.available:
            self.act.emit(a)

    # --- the header ---------------------------------------------------------------------------------------------

    def _header(self) -> QFrame:
        frame = QFrame()
        frame.setProperty("role", "panel")
        frame.setObjectName("settlement_header")
        frame.setProperty("wraps", True)  # its wrapped lines count in the least height of the view
        row = QHBoxLayout(frame)
        row.setContentsMargins(14, 8, 14, 8)
        row.setSpacing(18)
        left = QVBoxLayout()
        left.setSpacing(0)
        self.town = _label("", "heading")
        self.town.setObjectName("settlement_name")
        self.town_size = _label("", "muted", wrap=True)  # "City · size 5 · day 12" was cut at 20 pt
        left.addWidget(self.town)
        left.addWidget(self.town_size)
        row.addLayout(left)
        mid = QVBoxLayout()
        mid.setSpacing(2)
        self.event_label = _label("", "log", wrap=True)
        self.event_label.setObjectName("blacksalt_event")
        self.event_label.setFont(serif_font(sized(10.5), italic=True))
        self.event_label.setMinimumHeight(self.event_label.fontMetrics().lineSpacing() * 3 + 4)
        self.running = _label("", "gold", wrap=True)
        mid.addWidget(self.event_label)
        mid.addWidget(self.running)
        row.addLayout(mid, 1)
        right = QVBoxLayout()
        right.setSpacing(2)
        self.doom_track = DoomTrack()
        self.doom_label = _label("", "muted", wrap=True)  # the whole effect, on two lines if need be: never cut
        self.doom_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        # never less than a readable column, but no fixed 300 px: at 1024 px and 20 pt the header overflowed and
        # cut the doom's text at the window's edge
        self.doom_label.setMinimumWidth(min(300, self.doom_label.fontMetrics().averageCharWidth() * 16))
        self.doom_label.setMaximumWidth(600)
        self.doom_label.setObjectName("settlement_doom")
        right.addWidget(self.doom_track, 0, Qt.AlignmentFlag.AlignRight)
        right.addWidget(self.doom_label)
        row.addLayout(right)
        return frame

    def _place(self) -> SettlementState | None:
        c = self.session.campaign
        return c.settlements.get(c.settlement)

    def _refresh_header(self) -> None:
        from rules.settlement import doom_state

        c = self.session.campaign
        content = self.session.gm.content
        place = self._place()
        size = place.size if place is not None else next(
            (s.size for s in content.blacksalt.settlements if s.name == c.settlement), 0)  # fmt: skip
        size_name = next((s.name for s in content.blacksalt.sizes if s.size == size), "")
        self.town.setText(c.settlement)
        self.town_size.setText(f"{size_name} · size {size} · day {c.day}")
        blurb = next((s.text for s in content.blacksalt.settlements if s.name == c.settlement), "")
        self.town.setToolTip(f"<i>“{escape(_short(blurb, 600))}”</i>" if blurb else "")
        st = c.interlude
        today = st.event if st is not None and st.event else ""
        self.event_label.setText(f"“{_short(today, 110)}”" if today else "The day has not begun.")
        quoted = f"<i>“{escape(today)}”</i><br>" if today else ""
        self.event_label.setToolTip(
            quoted + "The Blacksalt event, rolled when the day begins (1d6: bad events, nothing, opportunities)."
        )
        events = place.events if place is not None else {}
        self.running.setText(" · ".join(f"{k.replace('_', ' ').capitalize()}: {d} day(s) left"
                                        for k, d in events.items()))  # fmt: skip
        self.running.setVisible(bool(events))
        doom = place.doom if place is not None else 0
        steps = content.blacksalt.settlement_doom
        self.doom_track.set_doom(doom, len(steps))
        state = doom_state(content, doom)
        self.doom_label.setText(f"Doom {doom}/{len(steps)}" + (f": {state.text}" if state else
                                                                ": the locals pay you no mind"))  # fmt: skip
        self.doom_label.setProperty("role", "danger" if state is not None and state.hunted else "muted")
        self.doom_label.style().unpolish(self.doom_label)
        self.doom_label.style().polish(self.doom_label)
        lines = [f"<b>{escape(c.settlement)}'s doom: {doom} of {len(steps)}</b>"]
        for s in steps:
            text = f"{s.step}. {escape(s.text)}"
            lines.append(f"<b>{text}</b>" if s.step <= doom else f"<span style='color:#7a6a5c'>{text}</span>")
        tip = "<br>".join(lines) + "<br><i>Effects are cumulative: the bold steps are in force.</i>"
        self.doom_track.setToolTip(tip)
        self.doom_label.setToolTip(tip)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        # beside the game's own log the "What happened" panel only repeats it: shown when there is room
        self.day_side.setVisible(event.size().width() >= 1150)
        party = [m for m in self.session.campaign.party if m.adv.character.alive]
        if self._step == "actions" and self._card_columns(len(party)) != self._cards_cols:
            self._stale.add(TABS.index("Day"))  # the cards flow again at the new width
            if self.tabs.currentIndex() == TABS.index("Day"):
                self._tab_opened(TABS.index("Day"))

    # --- refresh ------------------------------------------------------------------------------------------------

    def refresh(self, events: list[Event]) -> None:
        """Redraw everything from the session's state (after every step, and when shown)."""
        self.buttons = {}
        self.menu_actions = {}
        if events:
            self._recent = [e.text for e in events][-14:]
        c = self.session.campaign
        st = c.interlude
        step = "begin" if st is None else st.step
        self._step = step
        self._refresh_header()
        self._stale = set(range(len(TABS)))
        if step != self._last_step:
            if step == "market":
                self.tabs.setCurrentIndex(TABS.index("Shop"))  # redraws the tab through _tab_opened
            elif step in ("sleep", "actions", "begin") and self._last_step in ("market", "sleep", ""):
                self.tabs.setCurrentIndex(TABS.index("Day"))
            self._last_step = step
        self._tab_opened(self.tabs.currentIndex())

    def _tab_opened(self, index: int) -> None:
        """Redraw tab ``index`` if a step happened since it was last drawn (every tab in one go cost ~70 ms
        a step: the shop's table and the trappings' paper doll are built from scratch)."""
        if index not in self._stale:
            return
        self._stale.discard(index)
        acts = self._actions()
        name = TABS[index]
        if name == "Day":
            self._refresh_day(acts, self._step)
        elif name == "Shop":
            self._refresh_shop(acts, self._step)
        elif name == "Jobs":
            self._refresh_jobs(acts)
        elif name == "Roster":
            self._refresh_roster(acts)
        else:
            self._refresh_trappings()

    # --- Day ----------------------------------------------------------------------------------------------------

    def _build_day(self) -> None:
        lay = QVBoxLayout(self.day_page)
        lay.setContentsMargins(10, 10, 10, 10)
        lay.setSpacing(8)
        self.day_steps = _label("", "muted")
        self.day_steps.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.day_steps)
        body = QHBoxLayout()
        body.setSpacing(10)
        self.day_inner = QWidget()
        self.day_box = QVBoxLayout(self.day_inner)
        self.day_box.setContentsMargins(0, 0, 0, 0)
        self.day_box.setSpacing(8)
        day_scroll = _scroll(self.day_inner)
        day_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the cards wrap instead
        # one adventurer's card whole (its name, two rows of buttons) at any text size
        day_scroll.setMinimumHeight(self.fontMetrics().lineSpacing() * 7 + 20)
        body.addWidget(day_scroll, 3)
        side, side_lay = _panel()
        side.setMinimumWidth(220)
        side.setMaximumWidth(320)
        side_lay.addWidget(_label("What happened", "subtitle"))
        self.recent_label = _label("", "log", wrap=True)
        self.recent_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.recent_label.setTextFormat(Qt.TextFormat.RichText)
        side_lay.addWidget(_scroll(self.recent_label), 1)
        self.day_side = side
        body.addWidget(side, 1)
        lay.addLayout(body, 1)
        bar = QHBoxLayout()
        self.day_note = _label("", "muted", wrap=True)
        bar.addWidget(self.day_note, 1)
        self.day_bar = QHBoxLayout()
        bar.addLayout(self.day_bar)
        bar.setAlignment(self.day_bar, Qt.AlignmentFlag.AlignBottom)
        lay.addLayout(bar)

    def _steps_text(self, step: str) -> str:
        names = [("event", "Blacksalt event"), ("actions", "Actions"), ("market", "Market"), ("hunger", "Hunger bites"),
                 ("sleep", "Sleep")]  # fmt: skip
        now = {"begin": "", "actions": "actions", "market": "market", "sleep": "sleep", "road": ""}.get(step, "")
        parts = []
        for key, name in names:
            if key == now:
                parts.append(f"<span style='color:{COLORS['paper']}; font-weight:bold'>▶ {name}</span>")
            else:
                parts.append(name)
        return " &nbsp;›&nbsp; ".join(parts)

    def _refresh_day(self, acts: list[Action], step: str) -> None:
        _clear(self.day_box)
        _clear(self.day_bar)
        self.day_steps.setText(self._steps_text(step))
        self.recent_label.setText("<br><br>".join(escape(t) for t in self._recent) or
                                  "<i>Nothing yet today.</i>")  # fmt: skip
        if step == "begin":
            self._day_begin(acts)
        elif step == "market":
            self._day_market()
        elif step == "sleep":
            self._day_sleep(acts)
        else:
            self._day_actions(acts)

    def _day_begin(self, acts: list[Action]) -> None:
        a = self._find(acts, "begin")
        frame, lay = _panel()
        lay.addWidget(_label(f"The party reaches {self.session.campaign.settlement}.", "heading"))
        lay.addWidget(_label("Days in a settlement: a Blacksalt event, one action each, hunger, and a night's sleep. "
                             "The job board waits for when you are ready.", "muted", wrap=True))  # fmt: skip
        if a is not None:
            b = self._button(a, "Begin the interlude", "primary")
            b.setFixedWidth(240)
            lay.addWidget(b)
        self.day_box.addWidget(frame)
        self.day_box.addStretch(1)
        self.day_note.setText("Ctrl+Enter begins.")

    def _day_actions(self, acts: list[Action]) -> None:
        c = self.session.campaign
        st = c.interlude
        cards = QGridLayout()
        cards.setHorizontalSpacing(8)
        cards.setVerticalSpacing(8)
        party = [m for m in c.party if m.adv.character.alive]
        cols = self._card_columns(len(party))
        self._cards_cols = cols
        for n, m in enumerate(party):
            cards.addWidget(self._member_card(m, acts, st.plans.get(m.id, []) if st else []), n // cols, n % cols)
        self.day_box.addLayout(cards)
        self.day_box.addStretch(1)
        resolve = self._find(acts, "resolve")
        announced = bool(st and any(st.plans.values()))
        purse = self._purse_button(acts)
        if purse is not None:
            self.day_bar.addWidget(purse)
        if resolve is not None:
            b = self._button(resolve, "Resolve the day  ⏎", "primary")
            b.setToolTip(action_tip(resolve) + "<br>Ctrl+Enter")
            self.day_bar.addWidget(b)
        if announced:
            self.day_note.setText("Actions are resolved in the order announced; then hunger bites and night falls.")
        else:
            self.day_note.setText("Announce one action each, or first take a job, travel (Jobs) or spend insight "
                                  "(Roster): the party's choices come before anyone announces.")  # fmt: skip

    def _card_columns(self, cards: int) -> int:
        """As many adventurers' cards side by side as fit the day's width at the text size (at 1024 px or a large
        text size they wrap onto rows that scroll down, never into a strip that scrolls sideways)."""
        card = self.fontMetrics().averageCharWidth() * 34 + 40
        room = self.day_page.width() - (self.day_side.width() + 10 if self.day_side.isVisible() else 0) - 30
        fit = max(1, min(cards, room // card))
        return 2 if cards == 4 and fit == 3 else fit  # four as two rows of two, not three and one

    def _purse_button(self, acts: list[Action]) -> QToolButton | None:
        """The party's purse (free, R183): share the silver evenly, or hand everyone's to one adventurer."""
        opts = [a for a in acts if a.kind == "purse"]
        if not opts:
            return None
        b = QToolButton()
        b.setText("Purse")
        b.setObjectName("purse")
        b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        b.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        b.setStyleSheet("padding: 4px 10px;")
        b.setToolTip("Hand silver between adventurers: free, no day's action spent.<br>" + _short(opts[0].rule, 300))
        menu = QMenu(b)
        menu.setToolTipsVisible(True)
        for o in sorted(opts, key=lambda a: a.id != "share"):
            qa = menu.addAction(o.label)
            qa.setEnabled(o.available)
            qa.setToolTip(o.reason or "")
            qa.triggered.connect(lambda _=False, a=o: self._emit(a))
            self.menu_actions[o.id] = qa
        b.setMenu(menu)
        b.setEnabled(any(o.available for o in opts))
        self.buttons["purse"] = b
        return b

    def _member_card(self, m: Member, acts: list[Action], plans: list[str]) -> QFrame:
        frame, lay = _panel()
        frame.setObjectName(f"card:{m.id}")
        ch = m.adv.character
        head = QHBoxLayout()
        name = _label(m.name, "heading", wrap=True)  # a long title ("…, the Unburied") wraps, not the cards
        name.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        head.addWidget(name, 3)
        head.addWidget(_label(m.adv.klass or "Adventurer", "muted"), 1, Qt.AlignmentFlag.AlignBottom)
        head.addWidget(_label(f"{ch.silver} silver", "gold"))
        lay.addLayout(head)
        water = self._find(acts, f"water:{m.id}")
        if water is not None:  # free: a well, not the market (R185)
            b = self._button(water, "Fill canteen (free)")
            b.setStyleSheet("padding: 2px 8px;")
            b.setToolTip("Water is free: filling a canteen costs no silver and no day's action.<br>"
                         "Drinking it (free, in the dungeon) cures parched.")  # fmt: skip
            lay.addWidget(b, 0, Qt.AlignmentFlag.AlignLeft)
        wounds = sum(s.wounds for s in ch.attrs.values())
        fatigue = sum(s.fatigue for s in ch.attrs.values())
        state: list[str] = []
        if wounds:
            state.append(f"{wounds} wound{'s' if wounds > 1 else ''}")
        if fatigue:
            state.append(f"{fatigue} fatigue")
        if ch.afflictions:
            state.append(", ".join(sorted(ch.afflictions)))
        if state:
            lay.addWidget(_label(" · ".join(state), "danger", wrap=True))
        mine = [a for a in acts if a.who == m.id and a.kind in DAY_KINDS]
        if plans:
            labels = [self._plan_label(mine, p) for p in plans]
            done = _label("Announced: " + "; ".join(labels), "good", wrap=True)
            done.setObjectName(f"announced:{m.id}")
            lay.addWidget(done)
        if not any(a.available for a in mine):
            if not plans:
                why = next((a.reason for a in mine if a.reason), "No action today.")
                lay.addWidget(_label(why or "", "muted", wrap=True))
            lay.addStretch(1)
            return frame
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(4)
        spots = {"rest": (0, 0, 3), "tend": (0, 3, 3), "sell": (1, 0, 2), "shop": (1, 2, 2), "lay_low": (1, 4, 2)}
        for kind in DAY_KINDS:
            base = next((a for a in mine if a.kind == kind and a.param("option") is None), None)
            if base is None:
                continue
            options = [a for a in mine if a.kind == kind and a.param("option") is not None]
            row, col, span = spots[kind]
            grid.addWidget(self._day_button(base, options), row, col, 1, span)
        lay.addLayout(grid)
        closed = [
            f"{a.label.split(': ', 1)[-1]}: {a.reason}"
            for a in mine
            if a.param("option") is None
            and not a.available
            and a.reason
            and not any(o.available for o in mine if o.kind == a.kind)
        ]
        if closed:  # a greyed day action says why on the card, not only in its tooltip
            note = _label("Not now — " + "; ".join(closed), "reason", wrap=True)
            note.setObjectName(f"closed:{m.id}")
            lay.addWidget(note)
        lay.addStretch(1)
        return frame

    def _plan_label(self, mine: list[Action], plan: str) -> str:
        kind, _, option = plan.partition(":")
        for a in mine:
            if a.kind == kind and (a.param("option") or "") == option:
                return a.label.split(": ", 1)[-1]
        return plan.replace("_", " ")

    def _day_button(self, base: Action, options: list[Action]) -> QToolButton:
        """The day action; its options (with their silver and the reason they are closed) in its menu."""
        b = QToolButton()
        name = base.label.split(": ", 1)[-1]
        b.setText(name)
        b.setObjectName(f"action:{base.id}")
        b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        b.setStyleSheet("padding: 4px 8px;")
        b.setEnabled(base.available or any(o.available for o in options))
        b.setToolTip(action_tip(base) + ("<br><i>More choices under the arrow.</i>" if options else ""))
        b.clicked.connect(lambda _=False, a=base: self._emit(a))
        self.buttons[base.id] = b
        if options:
            menu = QMenu(b)
            menu.setToolTipsVisible(True)
            plain = menu.addAction(name)
            plain.setEnabled(base.available)
            plain.triggered.connect(lambda _=False, a=base: self._emit(a))
            self.menu_actions[base.id] = plain
            menu.addSeparator()
            for o in options:
                text = o.label.split(" — ", 1)[-1] + (f"  ({o.cost})" if o.cost.silver else "")
                qa = menu.addAction(text)
                qa.setEnabled(o.available)
                qa.setToolTip(o.reason if not o.available and o.reason else _short(o.rule, 300))
                qa.triggered.connect(lambda _=False, a=o: self._emit(a))
                self.menu_actions[o.id] = qa
            b.setMenu(menu)
            b.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        return b

    def _day_market(self) -> None:
        st = self.session.campaign.interlude
        m = next((x for x in self.session.campaign.party if st is not None and x.id == st.market), None)
        frame, lay = _panel()
        what = "shopping" if st is not None and st.market_kind == "shop" else "selling"
        lay.addWidget(_label(f"{m.name if m else 'Someone'} is at the market, {what}.", "heading"))
        lay.addWidget(_label("The others wait their turn: the day's actions go on when the market is left.",
                             "muted", wrap=True))  # fmt: skip
        go = QPushButton("Go to the market")
        go.setProperty("role", "primary")
        go.clicked.connect(lambda: self.tabs.setCurrentIndex(TABS.index("Shop")))
        go.setFixedWidth(220)
        lay.addWidget(go)
        self.day_box.addWidget(frame)
        self.day_box.addStretch(1)
        self.day_note.setText("")

    def _day_sleep(self, acts: list[Action]) -> None:
        c = self.session.campaign
        content = self.session.gm.content
        st = c.interlude
        sleeps = [a for a in acts if a.kind == "sleep"]
        waiting = [m for m in c.party if m.adv.character.alive and st is not None and m.id not in st.sleep]
        chosen = [m for m in c.party if st is not None and m.id in st.sleep]
        place = self._place()
        size = place.size if place is not None else 0
        head = _label("Night falls: where will everyone sleep?", "heading")
        self.day_box.addWidget(head)
        if chosen:
            names = {loc.rule: loc.name for loc in content.blacksalt.sleep}
            self.day_box.addWidget(
                _label(
                    "Chosen: "
                    + "; ".join(f"{m.name} — {names.get(st.sleep[m.id], st.sleep[m.id])}" for m in chosen if st),
                    "good",
                    wrap=True,
                )
            )
        body = QHBoxLayout()
        body.setSpacing(10)
        grid_w = QWidget()
        grid = QGridLayout(grid_w)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(6)
        locs = [loc for loc in content.blacksalt.sleep if loc.min_size <= size <= loc.max_size] or list(
            content.blacksalt.sleep)  # fmt: skip
        if not self._sleep_shown or all(loc.rule != self._sleep_shown for loc in locs):
            avail = [a.target for a in sleeps if a.available]
            self._sleep_shown = next((loc.rule for loc in locs if loc.rule in avail), locs[0].rule)
        r = 0
        width = 3 + len(waiting)
        for loc in locs:
            mine = [a for a in sleeps if a.target == loc.rule]
            costs = sorted({a.cost.silver for a in mine if a.who})
            cost = (f"{costs[0]} silver each" if costs and costs[0] else "free") if costs else ""
            name = QPushButton(f"{loc.name}")
            name.setProperty("role", "link")
            name.setToolTip(f"<i>“{escape(loc.text)}”</i><br>{self._sleep_table_html(loc)}")
            name.clicked.connect(lambda _=False, rule=loc.rule: self._show_sleep(rule))
            grid.addWidget(name, r, 0, Qt.AlignmentFlag.AlignLeft)
            grid.addWidget(_label(cost, "gold"), r, 1)
            col = 2
            everyone = next((a for a in mine if a.who is None), None)
            if everyone is not None:
                grid.addWidget(self._button(everyone, "Everyone", "gold" if everyone.available else ""), r, col)
            col += 1
            for m in waiting:
                a = next((x for x in mine if x.who == m.id), None)
                if a is not None:
                    grid.addWidget(self._button(a, m.name.split()[0]), r, col)
                col += 1
            r += 1
            closed = [a.reason for a in mine if not a.available and a.reason]
            if closed and not any(a.available for a in mine):
                grid.addWidget(_label(closed[0], "muted", wrap=True), r, 1, 1, width)
                r += 1
        grid.setColumnStretch(width, 1)
        grid.setRowStretch(r, 1)
        body.addWidget(grid_w, 3)
        table, tlay = _panel("panel_alt")
        table.setMinimumWidth(240)
        shown = next(loc for loc in content.blacksalt.sleep if loc.rule == self._sleep_shown)
        tlay.addWidget(_label(f"{shown.name} — {shown.table.dice}", "subtitle", wrap=True))
        tlay.addWidget(_plain(shown.text, "muted"))
        rows = _label(self._sleep_table_html(shown), "", wrap=True)
        rows.setTextFormat(Qt.TextFormat.RichText)
        rows.setObjectName("sleep_table")
        rows.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        tlay.addWidget(_scroll(rows), 1)
        body.addWidget(table, 2)
        self.day_box.addLayout(body)
        self.day_box.addStretch(1)
        self.day_note.setText("Each adventurer rolls their place's table. Click a place's name to read its table.")
        purse = self._purse_button(acts)
        if purse is not None:
            self.day_bar.addWidget(purse)  # share the silver so everyone can pay for a bed

    def _show_sleep(self, rule: str) -> None:
        self._sleep_shown = rule
        self.refresh([])

    def _sleep_table_html(self, loc: Any) -> str:
        rows = []
        for r in loc.table.rows:
            face = str(r.min) if r.min == r.max else f"{r.min}–{r.max}"
            rows.append(f"<tr><td style='color:{COLORS['gold']}; padding-right:8px' valign='top'><b>{face}</b></td>"
                        f"<td>{escape(r.text)}</td></tr>")  # fmt: skip
        return "<table cellspacing='2'>" + "".join(rows) + "</table>"

    # --- Shop ---------------------------------------------------------------------------------------------------

    def _build_shop(self) -> None:
        lay = QVBoxLayout(self.shop_page)
        lay.setContentsMargins(10, 10, 10, 10)
        lay.setSpacing(6)
        top = QHBoxLayout()
        self.shop_title = _label("", "heading")
        self.shop_title.setObjectName("shop_title")
        top.addWidget(self.shop_title, 1)
        self.shop_filter = QLineEdit()
        self.shop_filter.setPlaceholderText("Filter items…")
        self.shop_filter.setClearButtonEnabled(True)
        self.shop_filter.setFixedWidth(200)
        self.shop_filter.textChanged.connect(self._filter_shop)
        top.addWidget(self.shop_filter)
        self.shop_stock_only = QCheckBox("In stock / affordable only")
        self.shop_stock_only.toggled.connect(self._filter_shop)
        top.addWidget(self.shop_stock_only)
        lay.addLayout(top)
        self.shop_sub = _label("", "muted", wrap=True)
        lay.addWidget(self.shop_sub)
        self.shop_people = QHBoxLayout()
        lay.addLayout(self.shop_people)
        self.shop_table = QTableWidget()
        self._shop_key: tuple[Any, ...] | None = None  # the buying list shown: (member, wares, extra buttons)
        self._row_actions: dict[tuple[int, int], Action] = {}  # (row, column) -> the action its button plays
        self._row_gifts: dict[int, dict[str, Action]] = {}  # row -> its "For…" menu's buy_for actions by id
        self._shop_modes: list[QHeaderView.ResizeMode] = []  # how each column is sized, once filled
        self.shop_table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.shop_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.shop_table.setAlternatingRowColors(True)
        self.shop_table.verticalHeader().setVisible(False)
        self.shop_table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        # Tab goes from button to button (and out of the table): the table's own Tab moved an invisible current
        # cell, and a player on the keyboard was stuck on the first Buy
        self.shop_table.setTabKeyNavigation(False)
        lay.addWidget(self.shop_table, 1)
        bottom = QHBoxLayout()
        self.shop_note = _label("", "muted", wrap=True)
        bottom.addWidget(self.shop_note, 1)
        self.shop_bar = QHBoxLayout()
        bottom.addLayout(self.shop_bar)
        lay.addLayout(bottom)

    def _refresh_shop(self, acts: list[Action], step: str) -> None:
        self._shop_scroll = self.shop_table.verticalScrollBar().value()
        t = self.shop_table
        t.setUpdatesEnabled(False)  # one layout and paint for the whole table, not one per cell
        hh = t.horizontalHeader()
        for c in range(t.columnCount()):  # sized to contents once, at the end, not after every cell (~2 ms each)
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
        try:
            self._fill_shop(acts, step)
        finally:
            for c, mode in enumerate(self._shop_modes[: t.columnCount()]):
                hh.setSectionResizeMode(c, mode)
            t.setUpdatesEnabled(True)
        self.shop_table.verticalScrollBar().setValue(self._shop_scroll)

    def _fill_shop(self, acts: list[Action], step: str) -> None:
        _clear(self.shop_people)
        _clear(self.shop_bar)
        st = self.session.campaign.interlude
        c = self.session.campaign
        if step == "market" and st is not None:
            m = next((x for x in c.party if x.id == st.market), None)
            if st.market_kind == "sell":
                self._shop_selling(acts, m)
            else:
                self._shop_buying(acts, m)
            done = self._find(acts, "done")
            if done is not None:
                b = self._button(done, "Leave the market  (Esc)", "primary")
                self.shop_bar.addWidget(b)
        else:
            self._shop_catalogue(acts, step)
        self._filter_shop()

    def _setup_table(self, headers: list[str], stretch: int = 0, buttons: int = 0) -> None:
        """Columns sized to their contents, ``stretch`` taking the rest, the last ``buttons`` columns fixed."""
        t = self.shop_table
        self._shop_key = None  # the next buying list is built anew
        self._row_actions = {}
        self._row_gifts = {}
        t.clearContents()
        for col in range(t.columnCount()):
            t.setColumnHidden(col, False)
        if headers != getattr(self, "_shop_headers", None):  # ~7 ms each time: only when they change
            t.setColumnCount(len(headers))
            t.setHorizontalHeaderLabels(headers)
            self._shop_headers = headers
        # the columns' sizing, applied once the table is filled (_refresh_shop)
        modes = [QHeaderView.ResizeMode.ResizeToContents] * len(headers)
        modes[stretch] = QHeaderView.ResizeMode.Stretch
        for col in range(len(headers) - buttons, len(headers)):
            modes[col] = QHeaderView.ResizeMode.Fixed
            t.setColumnWidth(col, 96)
        self._shop_modes = modes
        t.verticalHeader().setDefaultSectionSize(34)
        t.setRowCount(0)

    def _row_button(self, row: int, col: int, action: Action, text: str, *, reuse: bool) -> None:
        """The button of a shop row: the one already in the cell when the rows are the same (rebuilding 85 cell
        widgets was most of a buy's ~100 ms), else a new one; a click plays the row's current action."""
        holder = self.shop_table.cellWidget(row, col) if reuse else None
        b = holder.findChild(QPushButton) if holder is not None else None
        if b is None:
            b = QPushButton(text)
            b.setCursor(Qt.CursorShape.PointingHandCursor)
            b.clicked.connect(lambda _=False, at=(row, col): self._emit_row(at))
            self._cell_button(row, col, b)
        b.setText(text)
        self._bind(b, action)
        self._row_actions[(row, col)] = action

    def _emit_row(self, at: tuple[int, int]) -> None:
        action = self._row_actions.get(at)
        if action is not None:
            self._emit(action)

    def _cell_button(self, row: int, col: int, button: QAbstractButton) -> None:
        holder = QWidget()
        lay = QHBoxLayout(holder)
        lay.setContentsMargins(3, 2, 3, 2)
        button.setProperty("cell", True)  # compact, from the app's stylesheet (a stylesheet per button is slow)
        lay.addWidget(button)
        self.shop_table.setCellWidget(row, col, holder)

    def _cell(self, row: int, col: int, text: str, role: str = "", tip: str = "", dim: bool = False) -> None:
        """A cell's text, colour and tooltip; the item already there is kept when it reads the same (a buy
        redraws ~500 cells, most unchanged)."""
        color = {"good": COLORS["good"], "gold": COLORS["gold"], "danger": COLORS["danger"],
                 "muted": COLORS["muted"]}.get(role)  # fmt: skip
        if dim:
            color = "#6b6252"
        face = (text, color, tip)
        old = self.shop_table.item(row, col)
        if old is not None and old.data(Qt.ItemDataRole.UserRole) == face:
            return
        item = QTableWidgetItem(text)
        item.setData(Qt.ItemDataRole.UserRole, face)
        if color:
            from PySide6.QtGui import QBrush, QColor

            item.setForeground(QBrush(QColor(color)))
        if tip:
            item.setToolTip(tip)
        self.shop_table.setItem(row, col, item)

    def _ware_text(self, name: str, plain: bool = False) -> str:
        """The equipment table's text of ``name`` (for the tooltip), or its weapon notation."""
        content = self.session.gm.content
        text = next((i.text for i in content.items.items if i.name == name), "")
        if not text:
            text = next((w.notation for w in content.weapons.weapons if w.name == name), "")
        if not text:
            pool: list[Any] = [*content.armor.armor, *content.armor.shields]
            text = str(next((getattr(x, "text", "") or "" for x in pool if x.name == name), ""))
        if plain:
            return text
        return f"<br><i>“{escape(_short(text, 300))}”</i>" if text else ""

    def _ware_info(self) -> dict[str, Any]:
        from rules.gm.interlude import catalogue

        return catalogue(self.session.gm.content)

    def _shop_buying(self, acts: list[Action], m: Member | None) -> None:
        from rules.gm.interlude import price_of

        buys = [a for a in acts if a.kind == "buy"]
        extra = {(a.kind, a.target): a for a in acts if a.kind in ("haggle", "restock")}
        gifts: dict[str, list[Action]] = {}  # ware -> buying it for each companion (#13: who buys for whom)
        for a in acts:
            if a.kind == "buy_for":
                gifts.setdefault(a.target or "", []).append(a)
        wares = self._ware_info()
        if m is not None:
            inv = m.adv.inventory
            from rules.attributes import Attr

            cap = inv.capacity(m.adv.character.attrs[Attr.STR].score)
            self.shop_title.setText(f"{m.name} shops")
            self.shop_sub.setText(f"{m.adv.character.silver} silver · carrying {inv.carried_slots} of {cap} slots. "
                                  "Prices hold until the next interlude.")  # fmt: skip
        names = tuple(a.target or "" for a in buys)
        more_cols = tuple(("haggle", n) in extra or ("restock", n) in extra for n in names)
        key = (m.id if m is not None else "", names, more_cols, tuple(n in gifts for n in names))
        t = self.shop_table
        same = key == self._shop_key and t.rowCount() == len(buys)  # a buy: the same rows, updated in place
        if not same:
            self._setup_table(["Item", "Kind", "Rarity", "In stock", "Price", "Note", "", "", ""], stretch=5,
                              buttons=3)  # fmt: skip
            t.setRowCount(len(buys))
        self._shop_key = key
        stock = self.session.campaign.interlude.stock if self.session.campaign.interlude else {}
        for r, a in enumerate(buys):
            name = a.target or ""
            ware = wares.get(name)
            here = stock.get(name, False)
            self._cell(r, 0, name, tip=action_tip(a) + self._ware_text(name), dim=not a.available)
            self._cell(r, 1, ware.kind if ware else "", "muted")
            rarity = ware.rarity if ware else ""
            self._cell(r, 2, rarity, RARITY_ROLE.get(rarity, ""))
            self._cell(r, 3, "yes" if here else "no", "good" if here else "danger")
            asked = price_of(self.session.gm, m, name)[0] if m is not None else None
            self._cell(r, 4, "—" if asked is None else (f"{asked} s" if asked else "free"), "gold")
            if a.available:
                text = self._ware_text(name, plain=True)
                self._cell(r, 5, _short(text, 80), "muted", tip=f"<i>“{escape(text)}”</i>" if text else "")
            else:
                self._cell(r, 5, a.reason or "", "danger" if here else "muted")
            self._row_button(r, 6, a, "Buy", reuse=same)
            more = extra.get(("haggle", name)) or extra.get(("restock", name))
            if more is not None:
                label = "Ask around"
                if more.kind == "haggle" and asked is not None and m is not None:
                    label = self._haggle_label(more, m, rarity, asked)
                self._row_button(r, 7, more, label, reuse=same)
                if more.kind == "haggle" and asked is not None and m is not None:
                    self._haggle_tip(r, more, m, rarity, asked)
            self._gift_button(r, gifts.get(name, []), reuse=same)
        t.setColumnHidden(7, not extra)
        t.setColumnHidden(8, not gifts)
        self.shop_note.setText("Only the one at the market buys (\u201cFor\u2026\u201d: for a companion, who keeps "
                               "it); the others shop when their own action comes.")  # fmt: skip

    def _gift_button(self, row: int, gifts: list[Action], *, reuse: bool) -> None:
        """A row's "For…" button: a menu of the companions the shopper may buy the ware for, each greyed with
        its reason when it cannot be (no silver, no room); a pick plays that buy_for action (the row's current one:
        a menu that would read the same is kept as it is, ~2 ms a row a step)."""
        holder = self.shop_table.cellWidget(row, 8) if reuse else None
        b = holder.findChild(QPushButton) if holder is not None else None
        if b is None:
            b = QPushButton("For\u2026")
            b.setCursor(Qt.CursorShape.PointingHandCursor)
            b.setMenu(QMenu(b))
            self._cell_button(row, 8, b)
        self._row_gifts[row] = {a.id: a for a in gifts}
        names = [self.session.campaign.member(str(a.param("for"))).name for a in gifts]
        face = tuple((a.id, a.available, a.reason, who) for a, who in zip(gifts, names, strict=True))
        if b.property("gifts") == repr(face):
            return
        b.setProperty("gifts", repr(face))
        menu = b.menu()
        menu.clear()
        for a, who in zip(gifts, names, strict=True):
            item = menu.addAction(who if a.available else f"{who} \u2014 {a.reason}")
            item.setEnabled(a.available)
            item.setObjectName(f"action:{a.id}")
            item.triggered.connect(lambda _=False, at=row, aid=a.id: self._emit_gift(at, aid))
        b.setEnabled(any(a.available for a in gifts))
        b.setToolTip("Buy it for a companion: the shopper pays, the companion keeps it." if gifts else "")

    def _emit_gift(self, row: int, action_id: str) -> None:
        action = self._row_gifts.get(row, {}).get(action_id)
        if action is not None:
            self._emit(action)

    def _keeps_either(self, m: Member) -> bool:
        from rules.gm.interlude import keeps_either_price

        return keeps_either_price(self.session.gm, m)

    def _haggle_label(self, action: Action, m: Member, rarity: str, asked: int) -> str:
        lower, _ = haggle_odds(self.session.gm.content, rarity, asked, self._keeps_either(m))
        return f"Haggle {lower:.0%}"

    def _haggle_tip(self, row: int, action: Action, m: Member, rarity: str, asked: int) -> None:
        """The haggle button's tooltip: the dice the price is rolled again with, and the odds either way."""
        holder = self.shop_table.cellWidget(row, 7)
        b = holder.findChild(QPushButton) if holder is not None else None
        if b is None:
            return
        keep = self._keeps_either(m)
        lower, higher = haggle_odds(self.session.gm.content, rarity, asked, keep)
        dice = price_dice(self.session.gm.content, rarity)
        after = ("the lower of the two prices is kept" if keep else f"{higher:.0%} it ends higher; the new price "
                 "stands")  # fmt: skip
        b.setToolTip(action_tip(action) + f"<br>The price ({asked} s) is rolled again: {escape(dice)}.<br>"
                     f"<b>{lower:.0%}</b> it ends lower; {after}.")  # fmt: skip

    def _shop_selling(self, acts: list[Action], m: Member | None) -> None:
        from rules.odds import odds

        content = self.session.gm.content
        sell = next(x for x in content.blacksalt.interlude_actions if x.rule == "sell")
        attr = sell.test_attr or "PRE"
        chance = None
        if m is not None:
            try:
                chance = odds(m.adv.character.test_spec(attr)).success
            except Exception:  # an odd spec (no dice): the engine will still roll it
                chance = None
            self.shop_title.setText(f"{m.name} sells")
            odds_text = f"{chance:.0%}" if chance is not None else "?"
            self.shop_sub.setText(f"A {attr} test per sale: {odds_text} to get the full price; failed, the item sells "
                                  "as one rarity lower.")  # fmt: skip
            self.shop_sub.setToolTip(f"<i>“{escape(sell.text)}”</i>")
        sales = [a for a in acts if a.kind == "sell_item"]
        self._setup_table(["Item", "Rarity", "Value", f"{attr} test", ""], stretch=0, buttons=1)
        t = self.shop_table
        t.setRowCount(len(sales))
        items = m.adv.inventory.items if m is not None else []
        for r, a in enumerate(sales):
            idx = int(a.param("index", -1))
            item = items[idx] if 0 <= idx < len(items) else None
            rarity = a.label.rsplit("(", 1)[-1].split(",")[0].rstrip(")") if "(" in a.label else ""
            self._cell(r, 0, (item.name if item else a.target or "") + (f" ×{item.count}" if item and item.count > 1
                                                                          else ""), tip=action_tip(a))  # fmt: skip
            self._cell(r, 1, rarity, RARITY_ROLE.get(rarity, ""))
            self._cell(r, 2, f"{item.value} s" if item and item.value else "rolled by rarity", "gold")
            self._cell(r, 3, f"{chance:.0%}" if chance is not None else "—", "good")
            self._cell_button(r, 4, self._button(a, "Sell"))
        self.shop_note.setText("Each sale is one item, one test." if sales else "Nothing left to sell.")

    def _shop_catalogue(self, acts: list[Action], step: str) -> None:
        from rules.settlement import availability_chance

        content = self.session.gm.content
        c = self.session.campaign
        place = self._place()
        size = place.size if place is not None else 0
        doom = place.doom if place is not None else 0
        held = place.prices if place is not None else {}
        from rules.settlement import doom_state

        doom_row = doom_state(content, doom)
        surcharge = doom_row.price_increase if doom_row is not None else 0
        self.shop_title.setText(f"The market of {c.settlement}")
        self.shop_sub.setText(
            "What could be for sale here, and the chance it is in stock today. Stock and prices are rolled when "
            "someone goes shopping (until then the dice a price is rolled with, and its range); a price holds "
            "until the next interlude."
        )
        for kind, text in (("shop", "Go shopping"), ("sell", "Sell")):
            for a in acts:
                if a.kind == kind and a.param("option") is None and a.who:
                    m = next((x for x in c.party if x.id == a.who), None)
                    who = m.name.split()[0] if m else a.who
                    self.shop_people.addWidget(self._button(a, f"{who}: {text}"))
        self.shop_people.addStretch(1)
        wares = list(self._ware_info().values())
        self._setup_table(["Item", "Kind", "Rarity", "Chance in stock", "Price", "What it is"], stretch=5)
        t = self.shop_table
        t.setRowCount(len(wares))
        for r, w in enumerate(wares):
            chance = availability_chance(content, size, w.rarity, doom) if size else 0.0
            self._cell(r, 0, w.name, dim=chance == 0)
            self._cell(r, 1, w.kind, "muted")
            self._cell(r, 2, w.rarity, RARITY_ROLE.get(w.rarity, ""))
            self._cell(r, 3, f"{chance:.0%}", "good" if chance >= 0.99 else ("danger" if chance == 0 else ""))
            price = held.get(w.name)
            if price is None:  # not rolled yet: the dice it will be rolled with, and the range
                dice = price_dice(content, w.rarity)
                if surcharge and dice != "free":
                    dice += f" +{surcharge}"
                self._cell(
                    r,
                    4,
                    dice,
                    "muted",
                    tip="Rolled when someone goes shopping; held until the next "
                    "interlude." + (f" The settlement's doom adds {surcharge} silver." if surcharge else ""),
                )
            else:
                self._cell(r, 4, f"{price} s" if price else "free", "gold", tip="The price held here.")
            text = self._ware_text(w.name, plain=True)
            self._cell(r, 5, _short(text, 90), "muted", tip=f"<i>“{escape(text)}”</i>" if text else "")
        self.shop_note.setText("Announce “Go shopping” (above or on the Day tab), then resolve the day." if step ==
                               "actions" else "")  # fmt: skip

    def _filter_shop(self, *_: Any) -> None:
        text = self.shop_filter.text().strip().lower()
        only = self.shop_stock_only.isChecked()
        t = self.shop_table
        for r in range(t.rowCount()):
            item = t.item(r, 0)
            name = item.text().lower() if item is not None else ""
            hide = bool(text) and text not in name
            if only and not hide:
                buttons = [b for col in range(t.columnCount()) if (w := t.cellWidget(r, col)) is not None
                           for b in w.findChildren(QPushButton)]  # fmt: skip
                stock = t.item(r, 3)
                if buttons:
                    hide = not buttons[0].isEnabled()
                elif stock is not None and stock.text() == "0%":
                    hide = True
            t.setRowHidden(r, hide)

    # --- Jobs ---------------------------------------------------------------------------------------------------

    def _build_jobs(self) -> None:
        lay = QHBoxLayout(self.jobs_page)
        lay.setContentsMargins(10, 10, 10, 10)
        lay.setSpacing(10)
        left = QVBoxLayout()
        left.setSpacing(6)
        left.addWidget(_label("The job board", "subtitle"))
        self.jobs_inner = QWidget()
        self.jobs_box = QVBoxLayout(self.jobs_inner)
        self.jobs_box.setContentsMargins(0, 0, 4, 0)
        self.jobs_box.setSpacing(8)
        left.addWidget(_scroll(self.jobs_inner), 1)
        lay.addLayout(left, 3)
        right, rlay = _panel()
        right.setMinimumWidth(250)
        right.setMaximumWidth(330)
        rlay.addWidget(_label("The roads", "subtitle"))
        self.roads_inner = QWidget()
        self.roads_box = QVBoxLayout(self.roads_inner)
        self.roads_box.setContentsMargins(0, 0, 4, 0)
        self.roads_box.setSpacing(4)
        rlay.addWidget(_scroll(self.roads_inner), 1)
        self.leave_box = QVBoxLayout()
        rlay.addLayout(self.leave_box)
        lay.addWidget(right, 1)

    def _refresh_jobs(self, acts: list[Action]) -> None:
        from rules.settlement import doom_state

        _clear(self.jobs_box)
        _clear(self.roads_box)
        _clear(self.leave_box)
        c = self.session.campaign
        content = self.session.gm.content
        by_loc = {a.target: a for a in acts if a.kind == "expedition"}
        begin = next((a for a in acts if a.kind == "begin" and a.available), None)
        if not c.jobs and begin is not None:
            # the board is put up as the day begins: say so (the Day tab's text speaks of jobs already)
            note = _label("The job board goes up when the interlude begins (Begin the interlude on the Day tab, "
                          "Ctrl+Enter): the day's Blacksalt event is rolled, then the work on offer is posted "
                          "here.", "muted", wrap=True)  # fmt: skip
            note.setObjectName("jobs_not_yet")
            self.jobs_box.addWidget(note)
        elif not c.jobs:
            self.jobs_box.addWidget(_label("No one is posting work today.", "muted"))
        for job in c.jobs:
            loc = c.locations.get(job.location)
            frame, lay = _panel()
            frame.setObjectName(f"job:{job.location}")
            head = QHBoxLayout()
            head.addWidget(_label(job.title, "heading"), 1)
            head.addWidget(_label(f"{job.bounty} silver", "gold"))
            lay.addLayout(head)
            facts = [job.theme.replace("_", " ").capitalize(), f"level {job.level}",
                     f"{job.depths} depth{'s' if job.depths != 1 else ''}",
                     "close by" if not job.days else f"{job.days} day{'s' if job.days != 1 else ''} away"]  # fmt: skip
            if loc is not None and loc.visits:
                facts.append(f"visited {loc.visits}×")
            lay.addWidget(_label(" · ".join(facts), "muted"))
            hook, _, ideas = job.hook.partition("\n\n")
            text = _label(hook, "log", wrap=True)
            text.setTextFormat(Qt.TextFormat.PlainText)
            text.setFont(serif_font(sized(10)))
            if ideas:
                text.setToolTip(escape(ideas).replace("\n", "<br>"))
            lay.addWidget(text)
            a = by_loc.get(job.location)
            if a is not None:
                row = QHBoxLayout()
                cost = str(a.cost)
                row.addWidget(_label("Costs " + cost + " on the road" if a.cost.items else "No road to walk", "muted"),
                              1)  # fmt: skip
                b = self._button(a, "Take the job", "primary")
                row.addWidget(b)
                lay.addLayout(row)
            self.jobs_box.addWidget(frame)
        self.jobs_box.addStretch(1)
        for a in acts:
            if a.kind != "travel":
                continue
            name = a.target or ""
            s = next((x for x in content.blacksalt.settlements if x.name == name), None)
            there = c.settlements.get(name)
            doom = there.doom if there is not None else 0
            size_name = next((z.name for z in content.blacksalt.sizes if s is not None and z.size == s.size), "")
            row = QHBoxLayout()
            info = _label(f"<b>{escape(name)}</b><br><span style='color:{COLORS['muted']}'>{size_name}"
                          + (f" · doom {doom}" if doom else "") + "</span>", "", wrap=True)  # fmt: skip
            info.setTextFormat(Qt.TextFormat.RichText)
            state = doom_state(content, doom)
            info.setToolTip(f"<i>“{escape(_short(s.text, 500))}”</i>" if s else ""
                            + (f"<br>Doom: {escape(state.text)}" if state else ""))  # fmt: skip
            row.addWidget(info, 1)
            row.addWidget(self._button(a, "Travel"))
            self.roads_box.addLayout(row)
        self.roads_box.addStretch(1)
        road = next((a for a in acts if a.kind == "travel"), None)
        if road is not None:
            self.leave_box.addWidget(_label(f"Every road: {road.cost}.", "muted", wrap=True))
        leave = self._find(acts, "leave_island")
        if leave is not None:
            self.leave_box.addWidget(self._button(leave, f"Passage: {leave.cost}", "gold"))

    # --- Roster -------------------------------------------------------------------------------------------------

    def _build_roster(self) -> None:
        lay = QVBoxLayout(self.roster_page)
        lay.setContentsMargins(10, 10, 10, 10)
        lay.setSpacing(6)
        self.roster_inner = QWidget()
        self.roster_box = QVBoxLayout(self.roster_inner)
        self.roster_box.setContentsMargins(0, 0, 4, 0)
        self.roster_box.setSpacing(8)
        lay.addWidget(_scroll(self.roster_inner), 1)

    def _refresh_roster(self, acts: list[Action]) -> None:
        from rules.attributes import ATTRS

        _clear(self.roster_box)
        c = self.session.campaign
        head = QHBoxLayout()
        head.addWidget(_label(f"The party ({len(c.party)})", "subtitle"), 1)
        rec = self._find(acts, "recruit")
        if rec is not None:
            head.addWidget(self._button(rec, "Recruit an adventurer"))
        self.roster_box.addLayout(head)
        grid = QGridLayout()
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(8)
        cols = 2
        for n, m in enumerate(c.party):
            ch = m.adv.character
            frame, lay = _panel()
            frame.setObjectName(f"roster:{m.id}")
            top = QHBoxLayout()
            top.addWidget(_label(m.name, "heading"), 1)
            top.addWidget(_label(f"{ch.silver} silver", "gold"))
            lay.addLayout(top)
            who = [m.adv.klass or "Adventurer"]
            for extra in (m.adv.background, m.adv.school, m.adv.god):
                if extra:
                    who.append(extra)
            who.append(f"joined day {m.joined_day}")
            lay.addWidget(_label(" · ".join(who), "muted", wrap=True))
            dice = []
            for at in ATTRS:
                s = ch.attrs[at]
                mark = f"{at.value} {s.available}/{s.score}"
                if s.wounds or s.fatigue:
                    mark += f" <span style='color:{COLORS['danger']}'>({s.wounds}w {s.fatigue}f)</span>"
                dice.append(mark)
            dl = _label(" &nbsp; ".join(dice), "")
            dl.setTextFormat(Qt.TextFormat.RichText)
            lay.addWidget(dl)
            extra_bits = [f"Insight {ch.insight} to spend, {ch.insight_earned} earned"]
            if ch.afflictions:
                extra_bits.append("afflicted: " + ", ".join(sorted(ch.afflictions)))
            if ch.traumas:
                extra_bits.append("traumas: " + ", ".join(sorted(ch.traumas)))
            lay.addWidget(_label(" · ".join(extra_bits), "gold", wrap=True))
            spends = [a for a in acts if a.kind == "insight" and a.who == m.id]
            row = QHBoxLayout()
            if spends:
                box = QComboBox()
                box.setObjectName(f"insight:{m.id}")
                for a in spends:
                    box.addItem(a.label.split(": ", 1)[-1] + ("" if a.available else f" — {a.reason}"), a.id)
                    i = box.count() - 1
                    box.setItemData(i, action_tip(a), Qt.ItemDataRole.ToolTipRole)
                row.addWidget(box, 1)
                spend = QPushButton("Spend insight")
                spend.clicked.connect(lambda _=False, b=box, options=spends: self._spend(b, options))
                row.addWidget(spend)
                for a in spends:
                    self.buttons.setdefault(a.id, spend)
            retire = self._find(acts, f"retire:{m.id}")
            if retire is not None:
                if not spends:
                    row.addStretch(1)
                row.addWidget(self._button(retire, "Retire", "danger" if retire.available else ""))
            lay.addLayout(row)
            grid.addWidget(frame, n // cols, n % cols)
        self.roster_box.addLayout(grid)
        for title, people in (("The fallen", c.fallen), ("The retired", c.retired)):
            self.roster_box.addWidget(_label(f"{title} ({len(people)})", "subtitle"))
            if not people:
                self.roster_box.addWidget(_label("No one yet." if title == "The retired" else
                                                 "No one yet. The island is patient.", "muted"))  # fmt: skip
            for m in people:
                line = _label(f"<b>{escape(m.name)}</b>, {escape(m.adv.klass or 'adventurer')} — "
                              f"<i>{escape(m.fate or 'fate unknown')}</i>", "log", wrap=True)  # fmt: skip
                line.setTextFormat(Qt.TextFormat.RichText)
                self.roster_box.addWidget(line)
        self.roster_box.addStretch(1)

    def _spend(self, box: QComboBox, options: list[Action]) -> None:
        aid = box.currentData()
        a = next((x for x in options if x.id == aid), None)
        if a is not None:
            self._emit(a)

    # --- Trappings ----------------------------------------------------------------------------------------------

    def _build_trappings(self) -> None:
        lay = QVBoxLayout(self.trappings_page)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.setSpacing(4)
        top = QHBoxLayout()
        top.addWidget(_label("Whose trappings:", "muted"))
        self.trap_who = QComboBox()
        self.trap_who.setObjectName("trappings_member")
        self.trap_who.currentIndexChanged.connect(self._trap_member)
        top.addWidget(self.trap_who)
        top.addStretch(1)
        lay.addLayout(top)
        first = self.session.campaign.party[0].id if self.session.campaign.party else ""
        self.inventory = InventoryView(self.session, first)
        self.inventory.act.connect(self._emit)
        lay.addWidget(self.inventory, 1)

    def _refresh_trappings(self) -> None:
        c = self.session.campaign
        current = self.trap_who.currentData()
        self.trap_who.blockSignals(True)
        self.trap_who.clear()
        for m in [*c.party, *c.retired, *c.fallen]:
            self.trap_who.addItem(m.name if m in c.party else f"{m.name} ({m.fate})", m.id)
        ids = [self.trap_who.itemData(i) for i in range(self.trap_who.count())]
        keep = current if current in ids else (ids[0] if ids else None)
        if keep is not None:
            self.trap_who.setCurrentIndex(ids.index(keep))
        self.trap_who.blockSignals(False)
        if keep is not None and keep != self.inventory.member_id:
            self.inventory.set_member(str(keep))
        else:
            self.inventory.refresh()

    def _trap_member(self, index: int) -> None:
        mid = self.trap_who.itemData(index)
        if mid:
            self.inventory.set_member(str(mid))
