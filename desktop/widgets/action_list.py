"""Buttons for a list of engine :class:`~rules.gm.events.Action`\\ s: the label, the cost, the reason.

Every number shown comes from the action itself: its ``cost`` (turns, actions, silver, items) and, when it
cannot be taken now, its ``reason`` (the button is greyed and the reason is written under its label and in its
tooltip).  The available actions are numbered 1, 2, 3... in the order shown, so a screen can bind the number
keys to :meth:`trigger`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from rules.gm.events import Action

#: (group title, the action kinds in it); an action of a kind no group names goes to the last group.
Groups = Sequence[tuple[str, Sequence[str]]]


def cost_text(action: Action) -> str:
    """The action's cost as the engine states it ("1 turn", "2 actions", "free")."""
    return str(action.cost)


def tooltip(action: Action) -> str:
    """What a button's tooltip says: the full label, the cost, the rule quoted, and why not now."""
    parts = [f"<b>{_esc(action.label)}</b>", f"Cost: {_esc(cost_text(action))}"]
    if action.rule:
        parts.append(f"<i>{_esc(action.rule)}</i>")
    if not action.available:
        parts.append(f"<span style='color:#8e1b1b'>Not now: {_esc(action.reason or 'not possible')}</span>")
    return "<br>".join(parts)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class ActionButton(QPushButton):
    """One action: its number key, label on the left, cost on the right (gold).  One that cannot be taken now
    is greyed, has a dash for a number, and says why under its label ("Not now: ..."), not only in a tooltip."""

    def __init__(self, action: Action, number: int | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.action = action
        self.number = number
        self.setObjectName(f"action:{action.id}")
        self.setProperty("action_id", action.id)
        self.setProperty("unavailable", not action.available)
        self.setEnabled(action.available)
        self.setToolTip(tooltip(action))
        self.setCursor(Qt.CursorShape.PointingHandCursor if action.available else Qt.CursorShape.ArrowCursor)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._hint_width = -1
        self._heights: dict[int, int] = {}  # sizeHint's height by width, for the action shown
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 4, 10, 4)
        row.setSpacing(8)
        self.key_label = QLabel(str(number) if number is not None else ("–" if not action.available else ""))
        self.key_label.setFixedWidth(16)
        self.key_label.setProperty("role", "gold" if action.available else "unavailable")
        self.text_label = QLabel(action.label)
        self.text_label.setWordWrap(True)
        self.text_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.reason_label = QLabel(f"Not now: {action.reason or 'not possible'}" if not action.available else "")
        self.reason_label.setObjectName("reason")
        self.reason_label.setWordWrap(True)
        self.reason_label.setProperty("role", "reason")
        self.reason_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        if action.available:
            self.reason_label.hide()
        self.cost_label = QLabel(cost_text(action))
        self.cost_label.setProperty("role", "gold" if action.available else "unavailable")
        self.cost_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        words = QVBoxLayout()
        words.setContentsMargins(0, 0, 0, 0)
        words.setSpacing(1)
        words.addWidget(self.text_label)
        words.addWidget(self.reason_label)
        for lab in (self.key_label, self.text_label, self.reason_label, self.cost_label):
            lab.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        row.addWidget(self.key_label)
        row.addLayout(words, 1)
        row.addWidget(self.cost_label)
        if not action.available:
            self.text_label.setProperty("role", "unavailable")

    def set_action(self, action: Action, number: int | None) -> None:
        """Show ``action`` in this button (a step that changed the actions but not their layout updates the buttons
        in place: building them anew and styling them was most of a step's time)."""
        if action == self.action and number == self.number:
            return
        was = self.action.available
        self.action = action
        self.number = number
        self.setObjectName(f"action:{action.id}")
        self.setProperty("action_id", action.id)
        self.setToolTip(tooltip(action))
        self.key_label.setText(str(number) if number is not None else ("–" if not action.available else ""))
        self.text_label.setText(action.label)
        self.cost_label.setText(cost_text(action))
        self.reason_label.setText(f"Not now: {action.reason or 'not possible'}" if not action.available else "")
        self.reason_label.setVisible(not action.available)
        if action.available != was:
            self.setProperty("unavailable", not action.available)
            self.setEnabled(action.available)
            self.setCursor(Qt.CursorShape.PointingHandCursor if action.available else Qt.CursorShape.ArrowCursor)
            role = "gold" if action.available else "unavailable"
            self.key_label.setProperty("role", role)
            self.cost_label.setProperty("role", role)
            self.text_label.setProperty("role", None if action.available else "unavailable")
            for w in (self, self.key_label, self.cost_label, self.text_label):
                w.style().unpolish(w)
                w.style().polish(w)
        self._hint_width = -1
        self._heights.clear()
        self.updateGeometry()

    def text_height(self, width: int) -> int:
        """The button's height for ``width``: the label (and the reason) wrap onto as many lines as they need."""
        side = self.key_label.width() + self.cost_label.sizeHint().width() + 20 + 16
        inner = max(60, width - side)
        h = self.text_label.heightForWidth(inner)
        h = h if h > 0 else self.text_label.sizeHint().height()
        if not self.action.available:
            r = self.reason_label.heightForWidth(inner)
            h += (r if r > 0 else self.reason_label.sizeHint().height()) + 1
        return max(30, h + 10)

    def sizeHint(self) -> QSize:
        width = max(self.width(), 260)
        h = self._heights.get(width)
        if h is None:  # the layouts ask hundreds of times a step, for a handful of widths: measured once each
            h = self._heights[width] = self.text_height(width)
        return QSize(260, h)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != self._hint_width:
            self._hint_width = event.size().width()
            self.updateGeometry()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._heights.clear()  # another text size or style: the lines wrap anew
        super().changeEvent(event)

    def minimumSizeHint(self) -> QSize:
        return QSize(160, self.sizeHint().height())


class ActionList(QWidget):
    """A scrollable column of action buttons, optionally grouped under headings.  Emits :attr:`chosen`."""

    chosen = Signal(object)  # the Action clicked (or triggered by its number)

    def __init__(self, parent: QWidget | None = None, *, numbered: bool = True, show_unavailable: bool = True) -> None:
        super().__init__(parent)
        self.numbered = numbered
        self.show_unavailable = show_unavailable
        self._actions: list[Action] = []
        self._buttons: list[ActionButton] = []
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.scroller = QScrollArea(self)
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        self.scroller.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the buttons inside, not to the area
        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer.addWidget(self.scroller)
        # one page for the scroll area's whole life: a step moves its buttons about, never swaps it (see _rebuild)
        self._inner = QWidget()
        col = QVBoxLayout(self._inner)
        col.setContentsMargins(2, 2, 6, 2)
        col.setSpacing(4)
        self.scroller.setWidget(self._inner)
        self._heads: list[QLabel] = []
        self.empty = QLabel("Nothing to do here.", self._inner)
        self.empty.setProperty("role", "muted")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._rebuild([], None, None)

    # --- contents ----------------------------------------------------------------------------------------

    def set_actions(self, actions: Sequence[Action], kinds: Sequence[str] | None = None,
                    groups: Groups | None = None) -> None:  # fmt: skip
        """Show ``actions`` (only those of ``kinds`` when given), under ``groups`` headings when given."""
        shown = [a for a in actions if (kinds is None or a.kind in kinds) and (self.show_unavailable or a.available)]
        sig = (tuple(shown), tuple(kinds) if kinds is not None else None, repr(groups))
        if sig == getattr(self, "_shown_sig", None):
            return  # the same actions as shown: rebuilding the buttons is the slow part of a step
        self._shown_sig = sig
        sections = [(title, acts) for title, acts in self._sections(shown, groups) if acts]
        # the layout: headings, and each button's availability (a button enabled or disabled in place, inside its
        # own click's handler, crashed Qt in the full-loop test: a change of availability rebuilds the list)
        shape = tuple((title, tuple(a.available for a in acts)) for title, acts in sections)
        if shape and shape == getattr(self, "_shape", None) and self._buttons:
            self._update(sections)  # the same headings and buttons: they show the new labels, costs and reasons
            return
        self._shape = shape
        self._rebuild(shown, kinds, groups)

    def _numbers(self, sections: list[tuple[str, list[Action]]]) -> list[tuple[Action, int | None]]:
        """The actions in display order with their number keys (the available ones, 1–9)."""
        out: list[tuple[Action, int | None]] = []
        number = 0
        for _title, acts in sections:
            for a in acts:
                n: int | None = None
                if a.available and self.numbered:
                    number += 1
                    n = number if number <= 9 else None
                out.append((a, n))
        return out

    def _update(self, sections: list[tuple[str, list[Action]]]) -> None:
        numbered = self._numbers(sections)
        for btn, (a, n) in zip(self._buttons, numbered, strict=True):
            btn.set_action(a, n)
        self._actions = [a for a, _ in numbered]

    def _sections(self, actions: list[Action], groups: Groups | None) -> list[tuple[str, list[Action]]]:
        sections: list[tuple[str, list[Action]]]
        if groups:
            known = {k for _, ks in groups for k in ks}
            sections = [(title, [a for a in actions if a.kind in ks]) for title, ks in groups]
            rest = [a for a in actions if a.kind not in known]
            if rest:
                if sections:
                    sections[-1] = (sections[-1][0], sections[-1][1] + rest)
                else:
                    sections.append(("", rest))
        else:
            sections = [("", list(actions))]
        return sections

    def _rebuild(self, actions: list[Action], kinds: Sequence[str] | None, groups: Groups | None) -> None:
        """Lay out ``actions`` anew: the headings and buttons already there are moved into their new places and
        show their new actions (a button only ever shows actions of its own availability: one enabled or disabled
        in place, inside its own click's handler, crashed Qt), and only what is missing is built.  Building every
        button anew, styling it and swapping the scroll area's page was most of a step's time (#16.12)."""
        inner = self._inner
        col = inner.layout()
        assert isinstance(col, QVBoxLayout)
        while col.count():
            col.takeAt(0)  # the widgets stay, out of the layout until placed again
        spare: dict[bool, list[ActionButton]] = {True: [], False: []}
        for b in self._buttons:
            spare[b.action.available].append(b)
        by_id = {b.action.id: b for b in self._buttons}
        heads = {str(h.property("title")): h for h in self._heads}
        self._buttons, self._heads = [], []
        sections = [(title, acts) for title, acts in self._sections(actions, groups) if acts]
        numbered = self._numbers(sections)
        numbers = iter(n for _, n in numbered)
        # the button that showed an action keeps it (the keys' focus stays on it); the others take the spare ones
        keep = {a.id for a, _ in numbered if a.id in by_id and by_id[a.id].action.available == a.available}
        for b in list(spare[True]) + list(spare[False]):
            if b.action.id in keep:
                spare[b.action.available].remove(b)
        ordered: list[Action] = []
        for title, acts in sections:
            if title:
                head = heads.pop(title, None)
                if head is None:
                    head = QLabel(title.upper(), inner)
                    head.setProperty("role", "gold")
                    head.setProperty("title", title)
                    head.setObjectName("group_heading")
                head.setContentsMargins(2, 8 if ordered else 0, 0, 0)
                col.addWidget(head)
                head.show()
                self._heads.append(head)
            for a in acts:
                n = next(numbers)
                old = by_id.get(a.id) if a.id in keep else None
                btn = old if old is not None else (spare[a.available].pop(0) if spare[a.available] else None)
                if btn is None:
                    btn = ActionButton(a, n, inner)
                    btn.clicked.connect(lambda _=False, b=btn: self._choose(b.action))  # the action it shows now
                else:
                    btn.set_action(a, n)
                col.addWidget(btn)
                btn.show()
                self._buttons.append(btn)
                ordered.append(a)
        for b in spare[True] + spare[False]:
            b.hide()
            b.deleteLater()
        for h in heads.values():
            h.hide()
            h.deleteLater()
        if not ordered:
            col.addWidget(self.empty)
            self.empty.show()
        else:
            self.empty.hide()
        col.addStretch(1)
        for upper, lower in zip(self._buttons, self._buttons[1:], strict=False):
            QWidget.setTabOrder(upper, lower)  # Tab goes down the list as shown, the moved buttons too
        self._actions = ordered

    # --- reading and driving -------------------------------------------------------------------------------

    def shown_actions(self) -> list[Action]:
        """The actions shown, in display order."""
        return list(self._actions)

    def buttons(self) -> list[ActionButton]:
        return list(self._buttons)

    def button_for(self, action_id: str) -> ActionButton | None:
        return next((b for b in self._buttons if b.action.id == action_id), None)

    def numbered_actions(self) -> list[Action]:
        """The actions the number keys 1–9 take, in order."""
        return [b.action for b in self._buttons if b.number is not None]

    def trigger(self, number: int) -> bool:
        """Take the action numbered ``number`` (1-based); False when there is none."""
        for b in self._buttons:
            if b.number == number and b.isEnabled():
                self._choose(b.action)
                return True
        return False

    def _choose(self, action: Action) -> None:
        if action.available:
            self.chosen.emit(action)
