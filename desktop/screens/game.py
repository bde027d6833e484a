"""The game screen: the top bar, the party, the phase view of the moment, and the GM's log.

``GameScreen(session, settings)`` holds one view per phase in a stack switched by ``session.phase``
(exploration, combat, camp, interlude; a plain list of the legal actions for a phase whose view is not
there), connects every view's ``act`` signal to :meth:`GameScreen.play`, which runs the action through the
session (one saved step), shows a refused action in a message box, and refreshes everything from the
step's events.  When the campaign is over it shows the end: escaped or perished, and the roster.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.cautions import Caution, cautions
from desktop.widgets.action_list import ActionList
from desktop.widgets.log_view import LogView
from desktop.widgets.party_panel import PartyPanel
from rules.checks import RuleError
from rules.gm.state import Phase

if TYPE_CHECKING:
    from desktop.session import Session
    from desktop.settings import Settings
    from rules.gm.events import Action, Event


#: The least height of the phase view (map, grid, town) beside the log, in pixels.
LOG_KEEPS_VIEW = 330


class PhaseView(Protocol):
    def refresh(self, events: list[Event]) -> None: ...


class GenericView(QWidget):
    """A phase's legal actions as a plain list: the game stays playable where a screen is missing."""

    act = Signal(object)

    def __init__(self, session: Session, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        col = QVBoxLayout(self)
        col.setContentsMargins(12, 10, 12, 10)
        self.title = QLabel(title)
        self.title.setProperty("role", "subtitle")
        col.addWidget(self.title)
        self.actions_list = ActionList(self)
        self.actions_list.setObjectName("generic_actions")
        self.actions_list.chosen.connect(self.act.emit)
        col.addWidget(self.actions_list, 1)
        from desktop.keys import bind_numbers

        bind_numbers(self, self.trigger_number)

    def refresh(self, events: list[Event]) -> None:
        self.actions_list.set_actions(self.session.actions())

    def trigger_number(self, n: int) -> bool:
        return self.actions_list.trigger(n)


class CautionDialog(QDialog):
    """A trap the player may not have seen (:mod:`desktop.cautions`): go on, or not; and "don't ask again".
    The safe answer (not going) is the default: Enter and Esc both keep the party where it is."""

    def __init__(self, parent: QWidget | None, caution: Caution) -> None:
        from desktop.keys import DialogKeyGuard

        super().__init__(parent)
        self.setObjectName(f"caution:{caution.key}")
        self.setWindowTitle(caution.title)
        self.setMinimumWidth(440)
        col = QVBoxLayout(self)
        col.setContentsMargins(18, 14, 18, 14)
        col.setSpacing(10)
        head = QLabel(caution.title)
        head.setTextFormat(Qt.TextFormat.PlainText)
        head.setProperty("role", "heading")
        col.addWidget(head)
        text = QLabel(caution.text)
        text.setTextFormat(Qt.TextFormat.PlainText)
        text.setWordWrap(True)
        text.setObjectName("caution_text")
        col.addWidget(text)
        self.never_again = QCheckBox("Don't ask again")
        self.never_again.setObjectName("dont_ask")
        self.never_again.setToolTip("Settings > Restore defaults brings every warning back.")
        col.addWidget(self.never_again)
        row = QHBoxLayout()
        row.addStretch(1)
        self.go = QPushButton(caution.go)
        self.go.setObjectName("caution_go")
        self.go.setAutoDefault(False)
        self.go.clicked.connect(self.accept)
        self.stay = QPushButton("Not yet")
        self.stay.setObjectName("caution_stay")
        self.stay.setProperty("role", "primary")
        self.stay.setDefault(True)
        self.stay.clicked.connect(self.reject)
        row.addWidget(self.go)
        row.addWidget(self.stay)
        col.addLayout(row)
        self.key_guard = DialogKeyGuard(self)


class OverView(QWidget):
    """The end of the campaign: escaped or perished, and everyone who was part of it."""

    to_menu = Signal()

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        col = QVBoxLayout(self)
        col.setContentsMargins(40, 30, 40, 30)
        col.setSpacing(12)
        self.title = QLabel()
        self.title.setProperty("role", "title")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.subtitle = QLabel()
        self.subtitle.setProperty("role", "subtitle")
        self.subtitle.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.subtitle.setWordWrap(True)
        self.roster = QLabel()
        self.roster.setTextFormat(Qt.TextFormat.RichText)
        self.roster.setWordWrap(True)
        self.roster.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        frame = QFrame()
        frame.setProperty("role", "panel")
        fl = QVBoxLayout(frame)
        fl.setContentsMargins(20, 16, 20, 16)
        fl.addWidget(self.roster)
        back = QPushButton("Back to the main menu")
        back.setProperty("role", "primary")
        back.setObjectName("back_to_menu")
        back.clicked.connect(self.to_menu.emit)
        col.addStretch(1)
        col.addWidget(self.title)
        col.addWidget(self.subtitle)
        col.addWidget(frame)
        col.addWidget(back, 0, Qt.AlignmentFlag.AlignHCenter)
        col.addStretch(2)

    def refresh(self, events: list[Event]) -> None:
        c = self.session.campaign
        outcome = c.outcome or "over"
        self.title.setText({"escaped": "Passage Off Blacksalt", "perished": "The Island Keeps Them"}.get(
            outcome, "The Campaign Is Over"))  # fmt: skip
        self.subtitle.setText(
            {
                "escaped": f"After {c.day} days the survivors sail away with {c.silver} silver.",
                "perished": f"No one is left. Day {c.day}.",
            }.get(outcome, f"Day {c.day}.")
        )
        rows = []
        for title, members in (("The survivors", c.party), ("The fallen", c.fallen), ("Retired", c.retired)):
            if not members:
                continue
            rows.append(f"<h3 style='color:#b08d57'>{title}</h3>")
            for m in members:
                fate = f" — <i>{escape(m.fate)}</i>" if m.fate else ""
                rows.append(f"<p>{escape(m.name)} ({escape(m.adv.klass or 'adventurer')}){fate}</p>")
        st = c.stats
        rows.append(f"<p style='color:#9c907a'>{st.expeditions} expeditions · {st.combats} fights · "
                    f"{st.deaths} deaths · {st.interlude_days} days in town</p>")  # fmt: skip
        self.roster.setText("".join(rows))


def needed_height(widget: QWidget, width: int) -> int:
    """The least height ``widget``'s column of parts needs at ``width``: a wrapped text (a label, or a part
    marked ``wraps``) counts the lines it wraps into there (a layout's minimum counts it as one long line, and
    the parts below were drawn over it)."""
    layout = widget.layout()
    if not isinstance(layout, QVBoxLayout):
        return widget.minimumSizeHint().height()
    layout.activate()
    m = layout.contentsMargins()
    inner = max(1, width - m.left() - m.right())
    total, shown = m.top() + m.bottom(), 0
    for i in range(layout.count()):
        item = layout.itemAt(i)
        if item is None or item.isEmpty():
            continue
        h = item.minimumSize().height()
        part = item.widget()
        if item.hasHeightForWidth() and (isinstance(part, QLabel) or (part is not None and part.property("wraps"))):
            h = max(h, item.heightForWidth(inner))
        total += h
        shown += 1
    return total + max(0, shown - 1) * max(0, layout.spacing())


def _phase_views(session: Session, parent: QWidget) -> dict[Phase, QWidget]:
    """A view per phase: the real ones where their modules exist, the plain list otherwise."""
    views: dict[Phase, QWidget] = {}
    specs: list[tuple[Phase, str, str, str]] = [
        (Phase.EXPLORATION, "desktop.screens.expedition", "ExplorationView", "Exploration"),
        (Phase.COMBAT, "desktop.screens.combat", "CombatView", "Combat"),
        (Phase.CAMP, "desktop.screens.camp", "CampView", "Camp"),
        (Phase.INTERLUDE, "desktop.screens.interlude", "InterludeView", "Interlude"),
    ]
    import importlib

    for phase, module, name, title in specs:
        view: QWidget | None = None
        try:
            cls = getattr(importlib.import_module(module), name)
            view = cls(session, parent)
        except (ImportError, AttributeError):
            view = None
        views[phase] = view if view is not None else GenericView(session, title, parent)
    return views


class GameScreen(QWidget):
    """The whole game while a campaign is open.  Emits :attr:`quit_to_menu` when the player leaves."""

    quit_to_menu = Signal()
    chronicle_requested = Signal()
    stepped = Signal(object)  # the events of each step, after the screen refreshed

    def __init__(self, session: Session, settings: Settings | None = None, parent: QWidget | None = None, *,
                 decider: Any = None) -> None:  # fmt: skip
        super().__init__(parent)
        from desktop.settings import Settings

        self.session = session
        # each step's transaction is written while the window paints it; the next step waits for it (Session.flush)
        session.background_saves = True
        self.settings = settings if settings is not None else Settings()
        self.setProperty("role", "screen")
        self.setObjectName("game_screen")
        self._busy = False
        self._focus_name = ""  # the action button the keys were on when a step began (kept after it)
        self._focus_phase: Phase | None = None  # the phase then: in another phase's view the keys start afresh
        self._measuring = False
        if decider is None:
            from desktop.decider import QtDecider

            decider = QtDecider(self.settings, parent=self)
        if getattr(decider, "before_asking", False) is None:
            decider.before_asking = self.show_mid_step
        self.decider = decider
        session.gm.decider = decider
        #: ``caution(c) -> (go on, never ask again)``: a dialog by default; tests replace it with a script.
        self.caution: Callable[[Caution], tuple[bool, bool]] = self._caution_dialog
        #: ``summary(data)``: the expedition told whole on the way back (a dialog; tests replace it).
        self.summary: Callable[[dict[str, Any]], None] = self._summary_dialog

        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 6, 8, 8)
        outer.setSpacing(6)
        outer.addWidget(self._top_bar())

        self.party = PartyPanel(session, self)
        from desktop.theme import sized

        # wider with the text size (names were cut at 20 pt), but never more than a third of a 1280 px window
        self._party_width = int(min(400, max(290, 290 * sized(10.5) / 10.5 * 0.75)))
        self.party.setFixedWidth(self._party_width)
        self.stack = QStackedWidget(self)
        self.stack.setObjectName("phase_stack")
        self.views = _phase_views(session, self.stack)
        for view in self.views.values():
            # a view too wide for the window is squeezed rather than widening the whole screen past 1280 px; one
            # too tall (a large text size at 1024×640) keeps the height its parts need and the window scrolls
            view.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            self.stack.addWidget(view)
            act = getattr(view, "act", None)
            if act is not None:
                act.connect(self.play)
            view.installEventFilter(self)
        self.over = OverView(session, self.stack)
        self.over.to_menu.connect(self.leave)
        self.stack.addWidget(self.over)

        self.log = LogView(self)
        self.log.setMinimumHeight(90)
        # off the way of Tab (L reaches it): Tab from the phase's tabs went into the log and stopped there before
        # the buttons of the page (rebuilt, so last in the focus chain) were reached
        self.log.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.log.set_history(session.log())
        # the phase view keeps room for a readable map or grid however far the log is dragged up (an enlarged
        # log once squeezed the grid to a thumbnail); the log starts at about a third of the height
        self.stack.setMinimumHeight(LOG_KEEPS_VIEW)

        centre = QSplitter(Qt.Orientation.Vertical, self)
        centre.addWidget(self.stack)
        centre.addWidget(self.log)
        centre.setStretchFactor(0, 2)
        centre.setStretchFactor(1, 1)
        centre.setSizes([470, 200])
        centre.setChildrenCollapsible(False)
        self.centre = centre
        body = QHBoxLayout()
        body.setSpacing(8)
        body.addWidget(self.party)
        body.addWidget(centre, 1)
        outer.addLayout(body, 1)
        self._shortcuts()
        self.refresh([])

    # --- the top bar ---------------------------------------------------------------------------------------

    def _top_bar(self) -> QFrame:
        bar = QFrame(self)
        bar.setProperty("role", "panel")
        bar.setObjectName("top_bar")
        row = QHBoxLayout(bar)
        row.setContentsMargins(12, 6, 8, 6)
        row.setSpacing(14)
        self.place_label = QLabel()
        self.place_label.setProperty("role", "heading")
        self.place_label.setObjectName("place")
        self.place_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.place_label.setMinimumWidth(200)
        self.day_label = QLabel()
        self.day_label.setProperty("role", "muted")
        self.day_label.setObjectName("day")
        # at a large text size the day and the silver are cut rather than pushing the buttons off the window
        self.day_label.setMinimumWidth(40)
        self.silver_label = QLabel()
        self.silver_label.setProperty("role", "gold")
        self.silver_label.setObjectName("silver_goal")
        self.silver_label.setMinimumWidth(40)
        row.addWidget(self.place_label, 1)
        row.addWidget(self.day_label)
        row.addWidget(self.silver_label)
        self.inventory_button = QPushButton("Inventory")
        self.inventory_button.setToolTip("The party's trappings (I)")
        self.inventory_button.clicked.connect(self.show_inventory)
        self.chronicle_button = QPushButton("Chronicle")
        self.chronicle_button.setToolTip("The campaign's whole log")
        self.chronicle_button.clicked.connect(self.show_chronicle)
        self.menu_button = QToolButton()
        self.menu_button.setText("Menu")
        self.menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.menu_button)
        self.autoplay_action = menu.addAction("Let the GM play one step")
        self.autoplay_action.setShortcut(QKeySequence("Ctrl+G"))
        self.autoplay_action.setToolTip("The automated GM chooses the next action for the party.")
        self.autoplay_action.triggered.connect(self.autoplay)
        menu.addSeparator()
        self.menu_quit = menu.addAction("Save and return to the main menu")
        self.menu_quit.triggered.connect(self.leave)
        self.menu_button.setMenu(menu)
        self.addAction(self.autoplay_action)
        for b in (self.inventory_button, self.chronicle_button):
            row.addWidget(b)
        row.addWidget(self.menu_button)
        return bar

    #: The keys of the game screen in every phase (the phase views add their own).
    KEYS = (
        ("1–9", "Take the numbered action"),
        ("I", "The party's inventory"),
        ("L", "Read the log (arrow keys scroll it)"),
        ("M", "Centre the map on the party"),
        ("Ctrl+G", "Let the GM play one step"),
    )

    def _shortcuts(self) -> None:
        from desktop.keys import bind

        # the number keys belong to each phase view (desktop.keys.bind_numbers): only the one shown listens
        bind(self, "I", self.show_inventory)
        bind(self, "L", self.focus_log)
        bind(self, "M", self.centre_map)

    def refresh_top(self) -> None:
        c = self.session.campaign
        if c.expedition is not None:
            loc = c.locations.get(c.expedition.location)
            where = loc.title if loc is not None else c.expedition.location
        else:
            where = c.settlement
        names = ", ".join(m.name.split()[0] for m in c.party) or "no one"
        self.place_label.setText(where)
        self.place_label.setToolTip(f"The party: {', '.join(m.name for m in c.party)}")
        self.day_label.setText(f"Day {c.day} · {names}")
        self.silver_label.setText(f"{c.silver} / {c.goal_silver} silver for passage")
        self.silver_label.setToolTip("Saving this much silver (the party's total) buys passage off Blacksalt.")

    # --- playing -------------------------------------------------------------------------------------------

    def current_view(self) -> QWidget | None:
        return self.stack.currentWidget()

    def play(self, action: Action) -> list[Event]:
        """Run ``action`` (one saved step); a refused one is shown in a message box and changes nothing."""
        if self._busy:
            return []
        if not self.confirm(action):
            return []
        tester = self.pick_tester(action)
        if tester == "":
            return []  # the player took it back: nothing happened
        self._busy = True
        self._focus_name = self._focused_action()
        self._focus_phase = self.session.phase
        try:
            events = self.session.apply(action, tester=tester)
        except (RuleError, ValueError, KeyError) as exc:
            self._busy = False
            self._finish_decider()
            QMessageBox.warning(self, "Not possible", str(exc) or "The GM refuses that.")
            self.refresh([])
            return []
        except Exception as exc:  # a save that cannot be written, a bug: a dialog, never a traceback
            self._busy = False
            self._finish_decider()
            QMessageBox.critical(self, "Something went wrong", f"The step could not be completed:\n\n{exc}")
            self.refresh([])
            return []
        try:
            self._finish_decider()
            self.log.append_events(events)
            self.refresh(events)
            self._drop_input_of_the_step()
        finally:
            self._busy = False
        self._tell_summary(events)
        self.stepped.emit(events)
        return events

    def show_mid_step(self) -> None:
        """A question comes inside a step (a defence roll while the enemies act): the phase view shows the step
        as it stands, so the header says whose phase it is and the grid where everyone is now."""
        view = self.current_view()
        mid = getattr(view, "show_mid_step", None)
        if mid is not None and self.session.phase is Phase.COMBAT:
            mid()

    def keep_in_sight(self) -> QRect | None:
        """What a dialog of the step should not cover, in global pixels: the fight's grid (the dice tray of a
        defence roll stood over it, and the player could not see what the enemies had done)."""
        grid = getattr(self.current_view(), "grid", None)
        if self.session.phase is not Phase.COMBAT or not isinstance(grid, QWidget) or not grid.isVisible():
            return None
        board = grid.board_rect() if hasattr(grid, "board_rect") else grid.rect()  # the room, not its margins
        return QRect(grid.mapToGlobal(board.topLeft()), board.size())

    def _tell_summary(self, events: list[Event]) -> None:
        """The expedition's summary, when the step brought the party back to town (#16.5)."""
        for e in events:
            if e.kind == "expedition_summary":
                self.summary(dict(e.data))

    def _summary_dialog(self, data: dict[str, Any]) -> None:
        from desktop.widgets.summary import SummaryDialog

        dlg = SummaryDialog(self, data)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._summary = dlg
        dlg.open()  # over the town, window-modal; the town is drawn behind it already

    def confirm(self, action: Action) -> bool:
        """Warn of the traps in ``action`` (:mod:`desktop.cautions`) not silenced in the settings; False when
        the player would rather not go on.  "Don't ask again" is saved in the settings at once."""
        for c in cautions(self.session.gm, action):
            if c.key in self.settings.dont_ask:
                continue
            go, never = self.caution(c)
            if never:
                self.settings.dont_ask = sorted({*self.settings.dont_ask, c.key})
                with contextlib.suppress(OSError):  # kept for this session; the settings screen tells of it
                    self.settings.save()
            if not go:
                return False
        return True

    def pick_tester(self, action: Action) -> str | None:
        """Who makes ``action``'s test, when several may: the decider asks the player (best odds first and the
        default; with "the GM decides" the best odds go).  None: the GM picks; ``""``: the player took it back."""
        choose = getattr(self.decider, "choose_tester", None)
        if choose is None:
            return None
        from desktop.chances import TESTED_KINDS, testers

        if action.kind not in TESTED_KINDS or not action.available:
            return None
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            chances = testers(self.session.gm, action)
        finally:
            QApplication.restoreOverrideCursor()
        answer = choose(self.session.gm, action, chances)
        return None if answer is None else str(answer)

    def _caution_dialog(self, caution: Caution) -> tuple[bool, bool]:
        dlg = CautionDialog(self, caution)
        go = dlg.exec() == QDialog.DialogCode.Accepted
        never = dlg.never_again.isChecked()
        dlg.removeEventFilter(dlg.key_guard)
        dlg.deleteLater()
        return go, never

    def _drop_input_of_the_step(self) -> None:
        """Keys and clicks that came while the step ran were meant for the screen as it was before: they are
        delivered now, while the screen is still busy, so they do nothing (a key pressed once acts once)."""
        QApplication.processEvents()

    def autoplay(self) -> list[Event]:
        """The GM chooses and plays the next action (its own decider answers every question)."""
        if self._busy or self.session.phase is Phase.OVER:
            return []
        from rules.gm.engine import AutoDecider

        self._busy = True
        gm = self.session.gm
        before = gm.decider
        gm.decider = AutoDecider()
        # judging a fight plays it out in copies of the campaign (rules.autoplay.lookahead): up to a second or so
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        error: Exception | None = None
        try:
            events = self.session.autoplay()
        except Exception as exc:
            error, events = exc, []
        finally:
            QApplication.restoreOverrideCursor()
            gm.decider = before
        if error is not None:
            self._busy = False
            QMessageBox.critical(self, "The GM stumbles", str(error))
        try:
            self.log.append_events(events)
            self.refresh(events)
            self._drop_input_of_the_step()
        finally:
            self._busy = False
        self._tell_summary(events)
        self.stepped.emit(events)
        return events

    def _finish_decider(self) -> None:
        finish = getattr(self.decider, "finish", None)
        if finish is not None:
            finish()

    def refresh(self, events: list[Event]) -> None:
        """Show the phase of the moment and redraw everything from the campaign."""
        self.refresh_top()
        self.party.refresh()
        phase = self.session.phase
        view = self.over if phase is Phase.OVER else self.views.get(phase)
        if view is None:
            return
        if self.stack.currentWidget() is not view:
            self.stack.setCurrentWidget(view)
            self._fit_party(self.width())
        self._keep_view_height(view)
        refresh = getattr(view, "refresh", None)
        if refresh is not None:
            refresh(events)
        self.autoplay_action.setEnabled(phase is not Phase.OVER)
        self._keep_focus(view)

    def _keep_view_height(self, view: QWidget) -> None:
        """The log gives way before the view is squeezed below what its parts need (large text at 1024×640);
        past that the window scrolls.  Measured once the view's new contents are laid out."""
        need = max(LOG_KEEPS_VIEW, needed_height(view, self.stack.width()), view.minimumSizeHint().height())
        if need != self.stack.minimumHeight():
            self.stack.setMinimumHeight(need)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The party column gives way in a narrow window (large text in 1024 px): at most about 28% of it, so the
        fight's grid and the inventory keep their width rather than the window scrolling sideways."""
        super().resizeEvent(event)
        self._fit_party(event.size().width())

    #: Below this width a fight hides the party column: the grid comes first (the order beside it names everyone).
    FIGHT_HIDES_PARTY_BELOW = 1100

    def _fit_party(self, window_width: int) -> None:
        width = min(self._party_width, max(240, int(window_width * 0.28)))
        if width != self.party.width():
            self.party.setFixedWidth(width)
        fight = self.stack.currentWidget() is self.views.get(Phase.COMBAT)
        hide = fight and window_width < self.FIGHT_HIDES_PARTY_BELOW
        if self.party.isHidden() != hide:
            self.party.setVisible(not hide)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        # a view's parts changed their least size (a wrapped text measured at its new width): measure again
        if event.type() == QEvent.Type.LayoutRequest and obj is self.stack.currentWidget() and not self._measuring:
            self._measuring = True
            QTimer.singleShot(0, self, self._measure_again)  # with self: never after the screen is gone
        return False

    def _measure_again(self) -> None:
        self._measuring = False
        view = self.stack.currentWidget()
        if view is not None:
            self._keep_view_height(view)

    def _keep_focus(self, view: QWidget) -> None:
        """The keys that need the focus (arrows, Enter) go to the phase view when the focus was lost: the
        button clicked was rebuilt by the refresh, or the view that had it was swapped out."""
        if not self.isVisible():
            return
        if QApplication.activeWindow() is None:
            # a dialog of the step (the dice tray, a decision) closed and nothing took the window back (seen
            # under X without a window manager): the screen's shortcuts only work in the active window
            self.window().activateWindow()
        name, self._focus_name = self._focus_name, ""
        fw = QApplication.focusWidget()
        # the screen itself (as Continue leaves it) passes no arrow or Enter on: the fight's cursor did not move
        if fw is None or fw is self or not fw.isVisible() or fw.window() is not self.window():
            view.setFocus(Qt.FocusReason.OtherFocusReason)
        if name and self._focus_phase is self.session.phase:
            # once the view's tables have shown and hidden their rows (a cell's button is hidden a moment later)
            QTimer.singleShot(0, self, lambda: self._refocus(view, name))

    def _focused_action(self) -> str:
        """The name of the action button the keys were on (``action:<id>``), or ``""``."""
        fw = QApplication.focusWidget()
        if fw is None:
            return ""
        name = fw.objectName()
        return name if name.startswith("action:") and self.isAncestorOf(fw) else ""

    def _refocus(self, view: QWidget, name: str) -> None:
        """After a step rebuilt the buttons, the keys stay where they were: on the button of the same action if
        it can still be pressed, else on the next one that can (the focus once fell back to the top bar's
        Inventory button, and every announcement or buy in town cost a dozen Tabs)."""
        if self.stack.currentWidget() is not view or not view.isVisible():
            return
        fw = QApplication.focusWidget()
        if fw is not None and fw is not self and not self.isAncestorOf(fw):
            return  # the player moved on (a dialog, another screen)
        every = [b for b in view.findChildren(QAbstractButton) if b.objectName().startswith("action:")
                 and b.isVisible() and b.focusPolicy() & Qt.FocusPolicy.TabFocus]  # fmt: skip
        at = next((i for i, b in enumerate(every) if b.objectName() == name), 0)
        ready = [b for b in every[at:] + every[:at] if b.isEnabled()]
        if ready and ready[0] is not fw:
            ready[0].setFocus(Qt.FocusReason.TabFocusReason)

    def trigger_number(self, n: int) -> bool:
        view = self.current_view()
        trig = getattr(view, "trigger_number", None)
        return bool(trig(n)) if trig is not None else False

    # --- the bar's buttons ---------------------------------------------------------------------------------

    def show_inventory(self) -> None:
        """Each adventurer's trappings in a dialog (the inventory view, one tab each)."""
        dlg = self.inventory_dialog()
        dlg.exec()
        self.refresh([])

    def inventory_dialog(self) -> QDialog:
        """The inventory dialog, built: a tab per adventurer whose right-click actions and drops are played as
        steps (they once went nowhere: "put the Torches in the right hand" did nothing), and an item dropped on
        a companion's tab is given to them (the engine's give action)."""
        from desktop.widgets.inventory import GiveTabBar

        dlg = QDialog(self)
        dlg.setWindowTitle("Inventory")
        dlg.setObjectName("inventory_dialog")
        # within the window however small it is (1024×640) or large its text: the trappings scroll inside
        room = self.window().size()
        dlg.resize(min(900, room.width() - 40), min(600, room.height() - 40))
        col = QVBoxLayout(dlg)
        tabs = QTabWidget(dlg)
        bar = GiveTabBar(tabs)
        tabs.setTabBar(bar)
        pages: list[QWidget] = []
        members: list[str] = []
        for m in self.session.campaign.party:
            view = self._inventory_page(m.id)
            act = getattr(view, "act", None)
            if act is not None:
                act.connect(lambda action, pages=pages: self._play_from_inventory(action, pages))
            pages.append(view)
            members.append(m.id)
            # as wide as the dialog, never wider: the view fits its slots and panels to that width (its least width
            # once came from the slots it had fitted to a wider page, and the trappings scrolled sideways)
            view.setSizePolicy(QSizePolicy.Policy.Ignored, view.sizePolicy().verticalPolicy())
            page = QScrollArea()
            page.setWidgetResizable(True)
            page.setFrameShape(QFrame.Shape.NoFrame)
            page.setWidget(view)
            tabs.addTab(page, m.name)
        bar.give_to = lambda index, tab: self._give_by_drop(members[tabs.currentIndex()], index, members[tab], pages)
        col.addWidget(tabs, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(dlg.reject)
        col.addWidget(buttons)
        self._inventory_dialog = dlg
        self.inventory_tabs = tabs
        self.inventory_pages = pages
        return dlg

    def _play_from_inventory(self, action: Action, pages: list[QWidget]) -> None:
        self.play(action)
        for view in pages:
            refresh = getattr(view, "refresh", None)
            if refresh is not None:
                refresh()

    def _give_by_drop(self, giver: str, index: int, receiver: str, pages: list[QWidget]) -> bool:
        """The item ``index`` of ``giver`` dropped on ``receiver``'s tab: the engine's give action, if it has one
        now (refused, with its reason in the status, if not)."""
        if giver == receiver:
            return False
        give = next((a for a in self.session.actions() if a.kind == "give" and a.param("from") == giver
                     and a.param("index") == index and a.target == receiver), None)  # fmt: skip
        if give is None:
            return False
        if not give.available:
            QMessageBox.information(self, "Not now", give.reason or "That cannot be given now.")
            return False
        self._play_from_inventory(give, pages)
        return True

    def _inventory_page(self, member_id: str) -> QWidget:
        try:
            from desktop.widgets.inventory import InventoryView

            view: QWidget = InventoryView(self.session, member_id)
            return view
        except ImportError:
            m = self.session.campaign.member(member_id)
            inv = m.adv.inventory
            lines = [f"<b>{escape(i.name)}</b> — {escape(i.place)}" + (f" (Ud{i.usage})" if i.usage else "")
                     + (f" ×{i.count}" if i.count != 1 else "") for i in inv.items]  # fmt: skip
            label = QLabel("<br>".join(lines) or "Nothing carried.")
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setAlignment(Qt.AlignmentFlag.AlignTop)
            label.setWordWrap(True)
            return label

    def show_chronicle(self) -> None:
        if self.receivers("2chronicle_requested()") > 0:
            self.chronicle_requested.emit()
            return
        dlg = QDialog(self)
        dlg.setWindowTitle("Chronicle")
        dlg.resize(800, 600)
        col = QVBoxLayout(dlg)
        view = LogView(dlg)
        view.set_history(self.session.log(), limit=5000)
        col.addWidget(view)
        dlg.exec()

    def focus_log(self) -> None:
        self.log.setFocus()
        self.log.scroll_to_end()

    def centre_map(self) -> None:
        centre = getattr(self.current_view(), "centre_map", None)
        if centre is not None:
            centre()

    def leave(self) -> None:
        """Back to the menu; the campaign was saved at its last step already."""
        self.quit_to_menu.emit()
