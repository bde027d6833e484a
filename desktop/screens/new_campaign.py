"""New campaign: the party created step by step — life path dice, class, kit, insight — then the first save.

The screen holds no rules.  Each adventurer is a :class:`SlotPlan`: the player's decisions so far (which
life-path steps are rolled, the dice chosen for an insight re-roll, the attributes chosen, the class
options, the insight spent).  :func:`build` replays those decisions through the engine's own creation
functions (``rules.creation``) with an RNG seeded from the campaign seed and the adventurer's slot, and
stops where the engine asks a question nobody has answered yet.  The same seed and the same choices
therefore always give the same adventurers, and a random adventurer is the same replay with a
:class:`~rules.creation.RandomChooser` answering.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QIcon,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QShortcut,
)
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QButtonGroup,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.session import content
from desktop.theme import COLORS, serif_font, ui_font
from desktop.widgets.dice_tray import PIPS
from rules.attributes import ATTRS, Attr
from rules.character import MAX_PROFICIENCY
from rules.checks import RuleError
from rules.creation import (
    LIFEPATH_ORDER,
    Adventurer,
    LifepathRoll,
    RandomChooser,
    apply_class,
    finish_lifepath,
    free_lifepath_reroll,
    new_adventurer,
    roll_lifepath_dice,
)
from rules.names import random_name
from rules.progression import SpendOption, learnable_skills, spend, spend_options

if TYPE_CHECKING:
    from desktop.session import Session
    from rules.content.registry import Content
    from rules.content.schema_creation import LifepathRow, LifepathTable

MAX_PARTY = 4
DEFAULT_SETTLEMENT = "Yoros"
#: what ``spend_leftover_insight`` prefers, in order (the random adventurer spends like it)
RANDOM_SPEND_PREFERENCE = ("increase_lowest_score", "learn_skill")
STEP_TITLES = {"infancy": "Infancy", "career": "Previous career", "tragedy": "Tragedy", "burden": "Burden",
               "quirks": "Quirk"}  # fmt: skip
PICK_TITLES = {"class": "Class", "background": "Background", "manoeuvre": "Combat manoeuvre",
               "school": "School of magic", "equipment option": "Equipment", "god": "God", "spells": "Spells",
               "prayers": "Prayers"}  # fmt: skip


# ==== the model: decisions replayed through rules.creation (no Qt) ===============================================


class NeedChoice(Exception):
    """The engine asked something the plan does not answer yet."""

    def __init__(
        self,
        kind: str,
        adv: Adventurer,
        *,
        table: LifepathTable | None = None,
        dice: Sequence[int] = (),
        history: Sequence[Sequence[int]] = (),
        purpose: str = "",
        options: Sequence[str] = (),
        count: int = 1,
        index: int = 0,
        free_with: str | None = None,
    ) -> None:
        super().__init__(f"{kind}: {purpose}")
        self.kind = kind  # "reroll" | "attribute" | "pick"
        self.adv = adv
        self.table = table
        self.dice = list(dice)
        self.history = [list(h) for h in history]
        self.purpose = purpose
        self.options = list(options)
        self.count = count
        self.index = index
        self.free_with = free_with  # the party member whose life path this is: the re-roll costs no insight


@dataclass
class StepPlan:
    """One life-path step: rolled, the dice re-rolled for insight (indices per re-roll), kept, attributes chosen."""

    rerolls: list[list[int]] = field(default_factory=list)
    kept: bool = False
    attributes: list[str] = field(default_factory=list)


@dataclass
class SlotPlan:
    """Everything the player decided for one adventurer of the party."""

    slot: int
    name: str = ""
    auto_name: bool = True  # the name is the rolled one (a new seed rolls a new one)
    draw: int = 0  # a fresh start or a random adventurer rolls with new dice
    name_draw: int = 0
    steps: dict[str, StepPlan] = field(default_factory=dict)
    klass: str | None = None
    picks: dict[str, list[str]] = field(default_factory=dict)
    spends: list[tuple[str, str]] = field(default_factory=list)  # (insight rule, target)

    def restart(self) -> None:
        self.draw += 1
        self.steps, self.klass, self.picks, self.spends = {}, None, {}, []


@dataclass
class Question:
    what: str
    options: list[str]
    count: int
    answer: list[str] | None


#: table id → row name → the earlier party member who has that row (for the free re-roll)
Shared = dict[str, dict[str, str]]


class _Replay:
    """A :class:`~rules.creation.CreationChooser` answering from a plan, raising :class:`NeedChoice` when it cannot."""

    def __init__(self, plan: SlotPlan, cont: Content, shared: Shared) -> None:
        self.plan = plan
        self.cont = cont
        self.shared = shared
        self.free_used = 0
        self.step = ""
        self.rerolls_asked = 0
        self.attrs_asked = 0
        self.seen: list[list[int]] = []
        self.asked: list[Question] = []

    def begin(self, table_id: str) -> None:
        self.step, self.rerolls_asked, self.attrs_asked, self.seen, self.free_used = table_id, 0, 0, [], 0

    def lifepath_reroll(self, adv: Adventurer, table: LifepathTable, dice: list[int]) -> list[int] | None:
        st = self.plan.steps[self.step]
        i = self.rerolls_asked
        self.rerolls_asked += 1
        rows = self.shared.get(self.step, {})
        free = free_lifepath_reroll(adv, self.cont, table, dice, set(rows), self.free_used)
        if i < len(st.rerolls):
            self.seen.append(list(dice))
            self.free_used += free
            return list(st.rerolls[i])
        if st.kept:
            return None
        who = rows.get(table.lookup(sum(dice)).name) if free else None
        raise NeedChoice("reroll", adv, table=table, dice=dice, history=self.seen, index=i, free_with=who)

    def attribute(self, adv: Adventurer, purpose: str, options: list[Attr]) -> Attr:
        st = self.plan.steps[self.step]
        i = self.attrs_asked
        self.attrs_asked += 1
        if i < len(st.attributes) and Attr(st.attributes[i]) in options:
            return Attr(st.attributes[i])
        raise NeedChoice("attribute", adv, purpose=purpose, options=[a.value for a in options], index=i)

    def pick(self, adv: Adventurer, what: str, options: list[str], count: int = 1) -> list[str]:
        n = min(count, len(options))
        answer = [] if n == 0 else self.plan.picks.get(what)
        valid = answer is not None and len(answer) == n == len(set(answer)) and all(a in options for a in answer)
        self.asked.append(Question(what, list(options), n, list(answer) if valid and answer is not None else None))
        if valid and answer is not None:
            return list(answer)
        raise NeedChoice("pick", adv, purpose=what, options=options, count=n)


@dataclass
class StepView:
    """What one life-path step looks like now."""

    table: LifepathTable
    status: str  # "locked" (an earlier step is open), "ready" (roll it), "reroll", "attribute", "done"
    dice: list[int] = field(default_factory=list)
    history: list[list[int]] = field(default_factory=list)  # the dice before each insight re-roll
    total: int | None = None
    row: LifepathRow | None = None
    question: NeedChoice | None = None
    effects: list[str] = field(default_factory=list)
    insight: int = 0  # insight left when the step waits for a decision
    record: LifepathRoll | None = None


@dataclass
class Build:
    """An adventurer as far as the plan goes, and what the engine asks next."""

    adv: Adventurer
    steps: list[StepView]
    class_questions: list[Question] = field(default_factory=list)
    pending: NeedChoice | None = None  # the open question, if any
    class_open: bool = False  # the life path is done and the class is being chosen
    class_done: bool = False
    class_effects: list[str] = field(default_factory=list)
    insight_options: list[SpendOption] = field(default_factory=list)
    spent: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.class_done and bool(self.adv.name.strip())

    def todo(self) -> str:
        """What this adventurer still needs, in a few words ("" when complete)."""
        if not self.adv.name.strip():
            return "a name"
        for s in self.steps:
            if s.status in ("ready", "locked"):
                return f"the {STEP_TITLES[s.table.id].lower()} roll"
            if s.status == "reroll":
                return f"to keep or re-roll the {STEP_TITLES[s.table.id].lower()}"
            if s.status == "attribute":
                return f"an attribute for the {STEP_TITLES[s.table.id].lower()}"
        if not self.class_done:
            q = self.pending
            what = q.purpose if q is not None and q.kind == "pick" else "class"
            return f"a {PICK_TITLES.get(what, what).lower()}"
        return ""


def _snapshot(adv: Adventurer) -> dict[str, Any]:
    ch = adv.character
    return {
        "score": {a: ch.attrs[a].score for a in ATTRS},
        "prof": {a: ch.attrs[a].proficiency for a in ATTRS},
        "skills": list(ch.skills),
        "traits": list(ch.traits),
        "silver": ch.silver,
        "insight": ch.insight,
    }


def _effects(before: dict[str, Any], adv: Adventurer) -> list[str]:
    """What changed on the sheet, in the sheet's words ("STR 1 → 2", "+ Loremaster (skill)", "+4 silver")."""
    after = _snapshot(adv)
    out: list[str] = []
    for a in ATTRS:
        if after["score"][a] != before["score"][a]:
            out.append(f"{a.value} {before['score'][a]} → {after['score'][a]}")
    for a in ATTRS:
        if after["prof"][a] != before["prof"][a]:
            out.append(f"{a.value} proficiency {before['prof'][a]} → {after['prof'][a]}")
    lost = [s for s in before["skills"] if s not in after["skills"]]
    for s in after["skills"]:
        if s not in before["skills"]:
            out.append(f"{lost.pop(0)} upgraded to {s}" if lost else f"+ {s} (skill)")
    for t in after["traits"]:
        if t not in before["traits"]:
            out.append(f"+ {t} (trait)")
    if after["silver"] != before["silver"]:
        out.append(f"+{after['silver'] - before['silver']} silver")
    if after["insight"] > before["insight"]:
        out.append(f"+{after['insight'] - before['insight']} insight")
    return out


def slot_rng(seed: int, plan: SlotPlan) -> Random:
    """The dice of one adventurer: the campaign seed, the slot, and how many fresh starts it had."""
    return Random(f"blacksalt-creation:{seed}:{plan.slot}:{plan.draw}")


def slot_name(cont: Content, seed: int, plan: SlotPlan, avoid: set[str]) -> str:
    return random_name(cont, Random(f"blacksalt-name:{seed}:{plan.slot}:{plan.name_draw}"), avoid=avoid)


def _insight_options(adv: Adventurer, cont: Content) -> list[SpendOption]:
    ch = adv.character
    skills = [(s.name, s.advanced_of) for s in cont.character.skills]
    return spend_options(ch, list(cont.character.insight.spends), learnable_skills(ch, skills), at_creation=True)


def shared_rows(builds: Sequence[Build]) -> Shared:
    """The life-path rows the adventurers of ``builds`` have rolled, by table (the first to have a row keeps it)."""
    out: Shared = {}
    for b in builds:
        for s in b.steps:
            if s.status == "done" and s.row is not None:
                out.setdefault(s.table.id, {}).setdefault(s.row.name, b.adv.name)
    return out


def build(plan: SlotPlan, cont: Content, seed: int, shared: Shared | None = None) -> Build:
    """Replay ``plan`` through ``rules.creation``; stop at the first question it does not answer.  ``shared``:
    the rows the party members before this one have (the same life path re-rolls once for free)."""
    shared = shared or {}
    rng = slot_rng(seed, plan)
    adv = new_adventurer(cont, plan.name)
    chooser = _Replay(plan, cont, shared)
    out = Build(adv, [])
    blocked = False
    for tid in LIFEPATH_ORDER:
        table = cont.lifepath.table(tid)  # type: ignore[arg-type]
        if blocked or tid not in plan.steps:
            out.steps.append(StepView(table, "locked" if blocked else "ready"))
            blocked = True
            continue
        chooser.begin(tid)
        try:
            record = roll_lifepath_dice(adv, cont, tid, rng, chooser, shared=set(shared.get(tid, {})))
        except NeedChoice as q:
            total = sum(q.dice)
            out.steps.append(StepView(table, "reroll", q.dice, q.history, total, table.lookup(total), q,
                                      insight=adv.character.insight))  # fmt: skip
            out.pending, blocked = q, True
            continue
        view = StepView(table, "done", list(record.dice), [list(r) for r in record.rerolls], record.roll,
                        table.lookup(record.roll), record=record)  # fmt: skip
        before = _snapshot(adv)
        try:
            finish_lifepath(adv, cont, record, rng, chooser)
        except NeedChoice as q:
            view.status, view.question, view.insight = "attribute", q, adv.character.insight
            out.steps.append(view)
            out.pending, blocked = q, True
            continue
        view.effects = _effects(before, adv)
        out.steps.append(view)
    if blocked:
        return out
    out.class_open = True
    classes: list[str] = [c.name for c in cont.classes.classes]
    if plan.klass not in classes:
        out.class_questions.append(Question("class", classes, 1, None))
        out.pending = NeedChoice("pick", adv, purpose="class", options=classes)
        return out
    out.class_questions.append(Question("class", classes, 1, [plan.klass]))
    before = _snapshot(adv)
    try:
        apply_class(adv, cont, plan.klass, rng, chooser)
    except NeedChoice as q:
        out.class_questions += chooser.asked
        out.pending = q
        return out
    out.class_questions += chooser.asked
    out.class_done = True
    out.class_effects = _effects(before, adv)
    upgrades = {s.name: s.advanced_of for s in cont.character.skills if s.advanced_of}
    done = 0
    for rule, target in plan.spends:
        option = next((o for o in _insight_options(adv, cont) if o.rule == rule and o.unavailable is None), None)
        if option is None or target not in option.targets:
            break
        out.spent.append(spend(adv.character, option, target, upgrades=upgrades))
        done += 1
    del plan.spends[done:]  # a spend the adventurer can no longer make (the class changed) is dropped
    adv.notes.extend(out.spent)
    out.insight_options = _insight_options(adv, cont)
    return out


def answer(plan: SlotPlan, q: NeedChoice, value: Any) -> None:
    """Record the answer to ``q`` in ``plan`` (the next :func:`build` replays it)."""
    if q.kind == "reroll":
        assert q.table is not None
        st = plan.steps[q.table.id]
        del st.rerolls[q.index :]
        if value:
            st.rerolls.append(sorted(set(value)))
        else:
            st.kept = True
    elif q.kind == "attribute":
        st = plan.steps[_open_step(plan)]
        st.attributes[q.index :] = [str(value)]
    elif q.purpose == "class":
        plan.klass = str(value[0] if isinstance(value, list) else value)
    else:
        plan.picks[q.purpose] = list(value)


def _open_step(plan: SlotPlan) -> str:
    """The last rolled step (the one a pending attribute question belongs to)."""
    return list(plan.steps)[-1]


def roll_step(plan: SlotPlan, b: Build, cont: Content, seed: int, shared: Shared | None = None) -> bool:
    """Roll the next life-path step, keeping the previous one first if it only waits for a re-roll decision
    (if the kept row then asks for an attribute, that comes first).  True if the plan changed."""
    q = b.pending
    changed = False
    if q is not None and q.kind == "reroll":
        answer(plan, q, None)
        changed = True
        if build(plan, cont, seed, shared).pending is not None:
            return True
    elif q is not None:
        return False
    nxt = next((s.table.id for s in b.steps if s.table.id not in plan.steps), None)
    if nxt is None:
        return changed
    plan.steps[nxt] = StepPlan()
    return True


def autofill(plan: SlotPlan, cont: Content, seed: int, rng: Random, shared: Shared | None = None) -> Build:
    """Finish the adventurer the way :func:`rules.creation.random_adventurer` would: roll what is left,
    answer every question with a :class:`RandomChooser`, spend the leftover insight."""
    chooser = RandomChooser(rng)
    for _ in range(500):
        b = build(plan, cont, seed, shared)
        q = b.pending
        if q is None and not b.class_open:
            roll_step(plan, b, cont, seed, shared)
        elif q is not None and q.kind == "reroll":
            assert q.table is not None
            answer(plan, q, chooser.lifepath_reroll(q.adv, q.table, q.dice))
        elif q is not None and q.kind == "attribute":
            answer(plan, q, chooser.attribute(q.adv, q.purpose, [Attr(o) for o in q.options]).value)
        elif q is not None:
            answer(plan, q, chooser.pick(q.adv, q.purpose, q.options, q.count))
        else:
            options = {o.rule: o for o in b.insight_options if o.unavailable is None}
            rule = next((r for r in RANDOM_SPEND_PREFERENCE if r in options), None)
            if rule is None:
                return b
            plan.spends.append((rule, chooser.pick(b.adv, options[rule].name, list(options[rule].targets))[0]))
    raise RuleError("random adventurer: the creation did not finish")


# ==== the widgets ================================================================================================


def _label(text: str = "", role: str | None = None, *, wrap: bool = False) -> QLabel:
    w = QLabel(text)
    if role:
        w.setProperty("role", role)
    w.setWordWrap(wrap)
    return w


def _button(text: str, role: str | None = None, *, tip: str = "") -> QPushButton:
    b = QPushButton(text)
    if role:
        b.setProperty("role", role)
    if tip:
        b.setToolTip(tip)
    b.setCursor(Qt.CursorShape.PointingHandCursor)
    return b


def _panel(role: str = "panel") -> QFrame:
    f = QFrame()
    f.setProperty("role", role)
    return f


def _clear(layout: QGridLayout | QVBoxLayout | QHBoxLayout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        if item is None:
            break
        w = item.widget()
        if w is not None:
            w.setParent(None)
            w.deleteLater()
        else:
            sub = item.layout()
            if isinstance(sub, (QGridLayout, QVBoxLayout, QHBoxLayout)):
                _clear(sub)


class DieFace(QAbstractButton):
    """One d6 as a die face with pips; checkable to mark it for an insight re-roll."""

    PIPS = PIPS  # the dice tray's pips: one look for every die of the game

    def __init__(self, size: int = 34, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.value = 0
        self.side = size
        self.setCheckable(True)
        self.setEnabled(False)
        self.setFixedSize(size + 4, size + 4)

    def set_value(self, value: int) -> None:
        self.value = value
        self.setAccessibleName(f"die {value}")
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(self.side + 4, self.side + 4)

    def paintEvent(self, _e: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = QRectF(2, 2, self.side, self.side)
        marked = self.isChecked()
        face = QColor(COLORS["paper"]) if self.value else QColor(COLORS["panel_alt"])
        if marked:
            face = face.darker(135)
        p.setBrush(face)
        pen = QPen(
            QColor(COLORS["accent_hover"] if marked else COLORS["gold"] if self.isEnabled() else COLORS["border"])
        )
        pen.setWidthF(2.5 if marked else 1.2)
        p.setPen(pen)
        p.drawRoundedRect(r, 6, 6)
        if not self.value:
            p.setPen(QColor(COLORS["muted"]))
            p.setFont(serif_font(self.side * 0.42, bold=True))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, "?")
            return
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(COLORS["accent"] if self.value == 1 else COLORS["paper_ink"]))
        rad = self.side * 0.085
        for fx, fy in self.PIPS.get(self.value, []):
            p.drawEllipse(QRectF(r.x() + fx * r.width() - rad, r.y() + fy * r.height() - rad, 2 * rad, 2 * rad))
        if marked:
            p.setPen(QColor(COLORS["accent_hover"]))
            p.setFont(ui_font(self.side * 0.28, bold=True))
            p.drawText(r.adjusted(0, -2, -3, 0), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop, "↻")


def die_icon(value: int = 5, size: int = 18) -> QIcon:
    """A small d6 face as an icon (the bundled fonts have no die glyph)."""
    pm = QPixmap(size * 2, size * 2)
    pm.setDevicePixelRatio(2.0)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    r = QRectF(1, 1, size - 2, size - 2)
    p.setPen(QPen(QColor(COLORS["gold"]), 1))
    p.setBrush(QColor(COLORS["paper"]))
    p.drawRoundedRect(r, 3, 3)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(COLORS["paper_ink"]))
    rad = size * 0.09
    for fx, fy in DieFace.PIPS[value]:
        p.drawEllipse(QRectF(r.x() + fx * r.width() - rad, r.y() + fy * r.height() - rad, 2 * rad, 2 * rad))
    p.end()
    return QIcon(pm)


class StepCard(QFrame):
    """One life-path step: Roll, the dice, the row, its effect, the insight re-roll and any attribute to choose."""

    roll = Signal()
    keep = Signal()
    reroll = Signal(list)  # indices of the marked dice
    attribute = Signal(str)

    def __init__(
        self, number: int, table: LifepathTable, rules_tip: str, cost: int = 1, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setProperty("role", "panel")
        self.table = table
        lay = QGridLayout(self)
        lay.setContentsMargins(12, 8, 12, 8)
        lay.setHorizontalSpacing(12)
        lay.setVerticalSpacing(4)
        head = QHBoxLayout()
        self.title = _label(f"{number}. {table.name}", "heading")
        self.title.setToolTip(f"<b>{table.name}</b><p>{table.text}</p>")
        head.addWidget(self.title)
        head.addSpacing(6)
        head.addWidget(_label(table.dice, "muted"))
        head.addStretch(1)
        self.status = _label("", "muted")
        head.addWidget(self.status)
        lay.addLayout(head, 0, 0, 1, 2)
        dice_box = QHBoxLayout()
        dice_box.setSpacing(4)
        self.dice = [DieFace(32) for _ in range(self._dice_count())]
        for d in self.dice:
            d.toggled.connect(self._marked)
            d.setToolTip("Click to mark this die for an insight re-roll")
            dice_box.addWidget(d)
        self.total = _label("", "gold")
        self.total.setFont(serif_font(17, bold=True))
        self.total.setMinimumWidth(64)
        dice_box.addWidget(self.total)
        dice_box.addStretch(1)
        dice_w = QWidget()
        dice_w.setLayout(dice_box)
        dice_w.setFixedWidth(4 * 42 + 76)  # room for four dice and the total: the rows' texts line up
        lay.addWidget(dice_w, 1, 0, 2, 1, Qt.AlignmentFlag.AlignTop)
        self.row_name = _label("", "heading")
        self.row_name.setFont(serif_font(12, bold=True))
        self.row_text = _label("", None, wrap=True)
        self.effects = _label("", "good", wrap=True)
        self.history = _label("", "muted", wrap=True)
        text_box = QVBoxLayout()
        text_box.setSpacing(2)
        for w in (self.row_name, self.row_text, self.effects, self.history):
            text_box.addWidget(w)
        lay.addLayout(text_box, 1, 1, 2, 1)
        lay.setColumnStretch(1, 1)
        # the controls
        ctl = QHBoxLayout()
        ctl.setSpacing(6)
        self.roll_btn = _button(f"Roll {table.dice}", "primary",
                                tip=f"<b>{table.name}</b><p>{table.text}</p><p><i>Shortcut: R</i></p>")  # fmt: skip
        self.roll_btn.clicked.connect(self.roll.emit)
        self.keep_btn = _button("Keep", tip="Keep this result and apply it to the sheet. <i>Shortcut: K</i>")
        self.keep_btn.clicked.connect(self.keep.emit)
        self.cost = cost
        self.rules_tip = rules_tip
        self.reroll_btn = _button(f"Re-roll marked dice · {cost} insight", "gold", tip=rules_tip)
        self.reroll_btn.clicked.connect(lambda: self.reroll.emit([i for i, d in enumerate(self.dice) if d.isChecked()]))
        self.insight = _label("", "muted")
        self.ask = _label("", "gold")
        self.attr_btns: dict[str, QPushButton] = {}
        for b in (self.roll_btn, self.keep_btn, self.reroll_btn, self.insight, self.ask):
            ctl.addWidget(b)
        for a in ATTRS:
            btn = _button(a.value)
            btn.clicked.connect(lambda _=False, code=a.value: self.attribute.emit(code))
            self.attr_btns[a.value] = btn
            ctl.addWidget(btn)
        ctl.addStretch(1)
        lay.addLayout(ctl, 3, 0, 1, 2)
        self.view: StepView | None = None

    def _dice_count(self) -> int:
        from rules.dice import DiceExpr

        return DiceExpr.parse(self.table.dice).count

    def _marked(self) -> None:
        n = sum(d.isChecked() for d in self.dice)
        self.reroll_btn.setEnabled(n > 0 and self.view is not None and self.view.status == "reroll")

    def marked(self) -> list[int]:
        return [i for i, d in enumerate(self.dice) if d.isChecked()]

    def toggle_die(self, i: int) -> None:
        if 0 <= i < len(self.dice) and self.dice[i].isEnabled():
            self.dice[i].toggle()

    def show_view(self, v: StepView) -> None:
        self.view = v
        rolled = v.status in ("reroll", "attribute", "done")
        for i, d in enumerate(self.dice):
            d.blockSignals(True)
            d.setChecked(False)
            d.blockSignals(False)
            d.set_value(v.dice[i] if rolled and i < len(v.dice) else 0)
            d.setEnabled(v.status == "reroll")
        self.total.setText(f"= {v.total}" if rolled else "")
        row = v.row
        self.row_name.setText(row.name if rolled and row else "")
        self.row_name.setVisible(rolled)
        if rolled and row is not None:
            self.row_text.setText(row.text)
            self.row_text.setProperty("role", None)
        else:
            self.row_text.setText(self.table.text if v.status == "ready" else "Roll the steps above first.")
            self.row_text.setProperty("role", "muted")
        self.row_text.style().unpolish(self.row_text)
        self.row_text.style().polish(self.row_text)
        self.effects.setText("   ·   ".join(v.effects))
        self.effects.setVisible(bool(v.effects))
        past = ["  ".join(str(x) for x in h) for h in v.history]
        self.history.setText(("Before the re-roll: " + "  →  ".join(past)) if past else "")
        self.history.setVisible(bool(past))
        self.roll_btn.setVisible(v.status == "ready")
        self.keep_btn.setVisible(v.status == "reroll")
        self.reroll_btn.setVisible(v.status == "reroll")
        self.reroll_btn.setEnabled(False)
        who = v.question.free_with if v.question is not None else None
        if who:
            self.reroll_btn.setText(f"Re-roll marked dice · free, {who.split()[0]} has this life path")
        else:
            self.reroll_btn.setText(f"Re-roll marked dice · {self.cost} insight")
        self.reroll_btn.setToolTip(self.rules_tip)
        self.insight.setVisible(v.status == "reroll")
        self.insight.setText(f"Insight left: {v.insight}")
        asking = v.status == "attribute" and v.question is not None
        self.ask.setVisible(asking)
        if asking and v.question is not None:
            self.ask.setText(f"Choose the attribute for {v.question.purpose}:")
        for code, btn in self.attr_btns.items():
            btn.setVisible(asking and v.question is not None and code in v.question.options)
        status = {"locked": "", "ready": "to roll", "reroll": "keep or re-roll", "attribute": "choose",
                  "done": "✓"}[v.status]  # fmt: skip
        self.status.setText(status)
        self.status.setProperty("role", "good" if v.status == "done" else "muted")
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)
        self.setEnabled(v.status != "locked")


class ChoiceGroup(QWidget):
    """Pick ``count`` of ``options`` with checkable buttons (the oldest mark drops when one too many is marked)."""

    changed = Signal(str, list)

    def __init__(self, what: str, options: list[str], count: int, tips: dict[str, str], columns: int = 3) -> None:
        super().__init__()
        self.what, self.options, self.count = what, options, count
        self.order: list[str] = []
        lay = QGridLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(6)
        self.buttons: dict[str, QPushButton] = {}
        for i, o in enumerate(options):
            b = _button(o, tip=tips.get(o, ""))
            b.setCheckable(True)
            b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            b.clicked.connect(lambda checked, name=o: self._clicked(name, checked))
            self.buttons[o] = b
            lay.addWidget(b, i // columns, i % columns)

    def set_selected(self, chosen: list[str]) -> None:
        self.order = [c for c in chosen if c in self.buttons]
        for o, b in self.buttons.items():
            b.setChecked(o in self.order)

    def _clicked(self, name: str, checked: bool) -> None:
        if checked:
            self.order.append(name)
            while len(self.order) > self.count:
                self.order.pop(0)
        elif self.count == 1:
            self.order = [name]  # one of them must stay chosen
        else:
            self.order = [o for o in self.order if o != name]
        self.set_selected(self.order)
        self.changed.emit(self.what, list(self.order))


def _columns(options: list[str]) -> int:
    """Buttons per row so the longest option fits the steps column."""
    longest = max((len(o) for o in options), default=0)
    return 4 if longest <= 12 else 3 if longest <= 20 else 2


class AttrBox(QWidget):
    """An attribute on the parchment sheet: the score in a square, the proficiency as circles."""

    def __init__(self, attr: Attr) -> None:
        super().__init__()
        self.attr = attr
        self.score = 1
        self.prof = 0
        self.setMinimumSize(74, 78)
        self.setToolTip({
            Attr.STR: "Strength (STR) is physical strength and constitution of a character.",
            Attr.DEX: "Dexterity (DEX) is how fast and precise a character is.",
            Attr.INT: "Intelligence (INT) is how intelligent, wise and keen a character is.",
            Attr.PRE: "Presence (PRE) is how persuasive and strong-willed a character is.",
        }[attr] + " The square is the score, the circles the proficiency.")  # fmt: skip

    def set_values(self, score: int, prof: int) -> None:
        self.score, self.prof = score, prof
        self.update()

    def paintEvent(self, _e: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        ink = QColor(COLORS["paper_ink"])
        w = self.width()
        p.setPen(ink)
        p.setFont(ui_font(9, bold=True))
        p.drawText(QRectF(0, 0, w, 16), Qt.AlignmentFlag.AlignCenter, self.attr.value)
        box = QRectF(w / 2 - 20, 18, 40, 36)
        pen = QPen(ink)
        pen.setWidthF(1.6)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(box)
        p.setFont(serif_font(18, bold=True))
        p.setPen(QColor(COLORS["accent"]) if self.score == 0 else ink)
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, str(self.score))
        for i in range(MAX_PROFICIENCY):
            cx = w / 2 + (i - (MAX_PROFICIENCY - 1) / 2) * 16
            p.setPen(pen)
            p.setBrush(ink if i < self.prof else Qt.BrushStyle.NoBrush)
            p.drawEllipse(QRectF(cx - 5, 61, 10, 10))


class CharacterSheet(QFrame):
    """The live character sheet on parchment."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("sheet")
        c = COLORS
        self.setStyleSheet(
            f"QFrame#sheet {{ background-color: {c['paper']}; border: 2px solid {c['gold']}; border-radius: 4px; }}"
            f"QFrame#sheet QLabel {{ color: {c['paper_ink']}; background: transparent; }}"
            f"QFrame#sheet QWidget {{ background: transparent; }}"
        )
        lay = QVBoxLayout(self)
        lay.setContentsMargins(14, 10, 14, 10)
        lay.setSpacing(4)
        self.name = QLabel()
        self.name.setFont(serif_font(17, bold=True))
        self.name.setWordWrap(True)
        self.what = QLabel()
        self.what.setFont(serif_font(11, italic=True))
        self.what.setWordWrap(True)
        lay.addWidget(self.name)
        lay.addWidget(self.what)
        attrs = QHBoxLayout()
        attrs.setSpacing(2)
        self.attrs = {a: AttrBox(a) for a in ATTRS}
        for box in self.attrs.values():
            attrs.addWidget(box)
        lay.addLayout(attrs)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.body.setFont(ui_font(9.5))
        lay.addWidget(self.body, 1)

    def show_build(self, b: Build) -> None:
        adv = b.adv
        ch = adv.character
        self.name.setText(ch.name or "(no name)")
        who = [x for x in (adv.klass, adv.background or adv.school or adv.god) if x]
        self.what.setText(" · ".join(who) if who else "class not yet chosen")
        for a, box in self.attrs.items():
            box.set_values(ch.attrs[a].score, ch.attrs[a].proficiency)
        red = COLORS["accent"]

        def row(label: str, value: str) -> str:
            return f"<tr><td style='color:{red}; padding-right:8px'><b>{label}</b></td><td>{value}</td></tr>"

        rows = [
            row("Insight", f"{ch.insight}"),
            row("Silver", f"{ch.silver}" + (" (counterfeit)" if adv.counterfeit_silver else "")),
        ]
        for s in b.steps:
            if s.status == "done" and s.row is not None:
                rows.append(row(STEP_TITLES[s.table.id], s.row.name))
        rows.append(row("Skills", ", ".join(ch.skills) or "—"))
        rows.append(row("Traits", ", ".join(ch.traits) or "—"))
        rows.append(row("Afflictions", ", ".join(sorted(ch.afflictions)) or "none"))
        if adv.manoeuvres:
            rows.append(row("Manoeuvres", ", ".join(adv.manoeuvres)))
        if adv.spellbook:
            rows.append(row("Spells", ", ".join(adv.spellbook.known) or "—"))
        if adv.prayers:
            rows.append(row("Prayers", ", ".join(adv.prayers.memorised) or "—"))
        if b.class_done:
            rows.append(row("Inventory", inventory_html(adv)))
        notes = []
        for s in b.steps:
            if s.status == "done" and s.row is not None and s.table.id in ("burden", "quirks"):
                notes.append(f"<b>{s.row.name}.</b> {s.row.text}")
        notes += adv.notes
        tail = ""
        if notes:
            tail = f"<p style='margin-top:8px; color:{red}'><b>Notes</b></p>" + "".join(
                f"<p style='margin:2px 0'><i>{n}</i></p>" for n in notes
            )
        self.body.setText(f"<table cellspacing=2>{''.join(rows)}</table>{tail}")


def inventory_lines(adv: Adventurer) -> list[tuple[str, str]]:
    """(place, item) for every item carried, in the order of the places."""
    out = []
    inv = adv.inventory
    order = [p.name for p in inv.places]
    for it in sorted(inv.items, key=lambda i: order.index(i.place) if i.place in order else len(order)):
        label = it.name if it.count == 1 else f"{it.count} × {it.name}"
        if it.usage:
            label += f" (Ud{it.usage})"
        out.append((it.place, label))
    return out


def inventory_html(adv: Adventurer) -> str:
    by: dict[str, list[str]] = {}
    for place, label in inventory_lines(adv):
        by.setdefault(place, []).append(label)
    cap = adv.inventory.capacity(adv.character.attrs[Attr.STR].score)
    parts = [f"<i>{place}</i>: {', '.join(items)}" for place, items in by.items()]
    return "<br>".join(parts) + f"<br><span style='color:#6b5a45'>{adv.inventory.carried_slots} of {cap} slots</span>"


class AdventurerPage(QWidget):
    """One adventurer: name, the five life-path steps, class and options, kit, insight; the sheet beside them."""

    changed = Signal()  # the plan changed (the screen rebuilds)

    def __init__(self, screen: NewCampaignScreen, plan: SlotPlan) -> None:
        super().__init__()
        self.owner = screen
        self.plan = plan
        self.cont = screen.cont
        self.result: Build | None = None
        outer = QHBoxLayout(self)
        outer.setContentsMargins(8, 8, 8, 8)
        outer.setSpacing(10)
        # --- left: the steps, scrolling
        self.steps_scroll = QScrollArea()
        self.steps_scroll.setWidgetResizable(True)
        self.steps_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget()
        col = QVBoxLayout(inner)
        col.setContentsMargins(0, 0, 6, 0)
        col.setSpacing(8)
        # name row
        top = QHBoxLayout()
        top.addWidget(_label("Name", "gold"))
        self.name = QLineEdit(plan.name)
        self.name.setMaxLength(40)
        self.name.setFont(serif_font(13, bold=True))
        self.name.setToolTip("The adventurer's name. Type your own or roll one.")
        self.name.textEdited.connect(self._renamed)
        top.addWidget(self.name, 1)
        self.name_btn = _button("Name", tip="Roll another name fit for Blacksalt")
        self.name_btn.setIcon(die_icon(3))
        self.name_btn.clicked.connect(self.reroll_name)
        top.addWidget(self.name_btn)
        tip = "Roll the whole sheet at once: life path, class, kit, insight. <i>Ctrl+R</i>"
        self.random_btn = _button("Random adventurer", "gold", tip=tip)
        self.random_btn.clicked.connect(self.randomise)
        top.addWidget(self.random_btn)
        self.restart_btn = _button("Start over", tip="Forget this adventurer's rolls and choices (the name stays)")
        self.restart_btn.clicked.connect(self.restart)
        top.addWidget(self.restart_btn)
        col.addLayout(top)
        rules = self.cont.lifepath.rules
        lp_head = _label("Life path", "subtitle")
        lp_head.setToolTip(rules.text.replace("\n", "<br>"))
        col.addWidget(lp_head)
        intro = _label(
            f"Every score starts at {rules.starting_score} and stays within {rules.score_min}–{rules.score_max}, "
            f"every proficiency within {rules.proficiency_min}–{rules.proficiency_max}. Roll each step in turn; "
            f"{rules.insight_reroll_cost} insight re-rolls any dice of a roll (click the dice to mark them).",
            "muted",
            wrap=True,
        )
        intro.setToolTip(rules.text.replace("\n", "<br>"))
        col.addWidget(intro)
        reroll_tip = (
            f"<b>Insight</b><p>{rules.text.split(chr(10))[0]}</p><p>Mark the dice to re-roll by clicking them.</p>"
        )
        self.cards: list[StepCard] = []
        for i, tid in enumerate(LIFEPATH_ORDER):
            table = self.cont.lifepath.table(tid)  # type: ignore[arg-type]
            card = StepCard(i + 1, table, reroll_tip, rules.insight_reroll_cost)
            card.roll.connect(self.roll)
            card.keep.connect(self.keep)
            card.reroll.connect(self.reroll)
            card.attribute.connect(self._attribute)
            self.cards.append(card)
            col.addWidget(card)
        # class and its options
        self.class_card = _panel()
        cl = QVBoxLayout(self.class_card)
        cl.setContentsMargins(12, 8, 12, 10)
        head = _label("6. Class", "heading")
        head.setToolTip(self.cont.classes.text)
        cl.addWidget(head)
        self.class_hint = _label("", "muted", wrap=True)
        cl.addWidget(self.class_hint)
        self.class_body = QVBoxLayout()
        self.class_body.setSpacing(6)
        cl.addLayout(self.class_body)
        self.class_effects = _label("", "good", wrap=True)
        cl.addWidget(self.class_effects)
        col.addWidget(self.class_card)
        self._questions_key: list[tuple[str, tuple[str, ...], int]] | None = None
        self.groups: dict[str, ChoiceGroup] = {}
        # equipment
        self.kit_card = _panel()
        kl = QVBoxLayout(self.kit_card)
        kl.setContentsMargins(12, 8, 12, 10)
        kl.addWidget(_label("7. Equipment", "heading"))
        self.kit = _label("", None, wrap=True)
        self.kit.setTextFormat(Qt.TextFormat.RichText)
        kl.addWidget(self.kit)
        col.addWidget(self.kit_card)
        # leftover insight
        self.insight_card = _panel()
        il = QVBoxLayout(self.insight_card)
        il.setContentsMargins(12, 8, 12, 10)
        ih = _label("8. Leftover insight", "heading")
        il.addWidget(ih)
        spend_text = next((t for t in rules.text.split("\n") if "spend any insight" in t), "")
        hint = _label(spend_text, "muted", wrap=True)
        il.addWidget(hint)
        self.insight_body = QGridLayout()
        self.insight_body.setHorizontalSpacing(8)
        il.addLayout(self.insight_body)
        col.addWidget(self.insight_card)
        col.addStretch(1)
        self.steps_scroll.setWidget(inner)
        outer.addWidget(self.steps_scroll, 3)
        # --- right: the sheet
        self.sheet = CharacterSheet()
        sheet_scroll = QScrollArea()
        sheet_scroll.setWidgetResizable(True)
        sheet_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        sheet_scroll.setWidget(self.sheet)
        sheet_scroll.setMinimumWidth(360)
        outer.addWidget(sheet_scroll, 2)

    # --- actions ------------------------------------------------------------------------------------------------

    def _rebuild(self, *, follow: bool = True) -> None:
        self.changed.emit()
        if follow:
            QTimer.singleShot(0, self.follow)

    def roll(self) -> None:
        shared = self.owner.shared_for(self.plan.slot)
        if self.result is not None and roll_step(self.plan, self.result, self.cont, self.owner.seed, shared):
            self._rebuild()

    def keep(self) -> None:
        q = self.result.pending if self.result else None
        if q is not None and q.kind == "reroll":
            answer(self.plan, q, None)
            self._rebuild()

    def reroll(self, dice: list[int]) -> None:
        q = self.result.pending if self.result else None
        if q is not None and q.kind == "reroll" and dice:
            answer(self.plan, q, dice)
            self._rebuild()

    def _attribute(self, code: str) -> None:
        q = self.result.pending if self.result else None
        if q is not None and q.kind == "attribute" and code in q.options:
            answer(self.plan, q, code)
            self._rebuild()

    def _picked(self, what: str, chosen: list[str]) -> None:
        if what == "class":
            if chosen:
                self.plan.klass = chosen[0]
        else:
            self.plan.picks[what] = chosen
        self._rebuild()

    def _spend(self, rule: str, target: str) -> None:
        self.plan.spends.append((rule, target))
        self._rebuild(follow=False)

    def _unspend(self) -> None:
        if self.plan.spends:
            self.plan.spends.pop()
            self._rebuild(follow=False)

    def randomise(self) -> None:
        self.plan.restart()
        self.owner.autofill(self.plan)
        self._rebuild(follow=False)
        self.steps_scroll.verticalScrollBar().setValue(0)

    def restart(self) -> None:
        self.plan.restart()
        self._rebuild(follow=False)
        self.steps_scroll.verticalScrollBar().setValue(0)

    def reroll_name(self) -> None:
        self.plan.name_draw += 1
        self.plan.name = slot_name(self.cont, self.owner.seed, self.plan, self.owner.names_taken(self.plan.slot))
        self.plan.auto_name = True
        self._rebuild(follow=False)

    def _renamed(self, text: str) -> None:
        self.plan.name = text.strip()
        self.plan.auto_name = False
        self.changed.emit()

    def follow(self) -> None:
        """Scroll to where the next decision is."""
        b = self.result
        if b is None:
            return
        target: QWidget | None = None
        for card in self.cards:
            if card.view is not None and card.view.status in ("ready", "reroll", "attribute"):
                target = card
                break
        if target is None and b.class_open:
            pending = b.pending.purpose if b.pending is not None else None
            target = self.groups.get(pending or "") or (self.class_card if not b.class_done else self.insight_card)
        if target is not None:
            self.steps_scroll.ensureWidgetVisible(target, 0, 12)

    # --- showing ------------------------------------------------------------------------------------------------

    def show_build(self, b: Build) -> None:
        self.result = b
        if self.name.text().strip() != self.plan.name:
            self.name.setText(self.plan.name)
        for card, v in zip(self.cards, b.steps, strict=True):
            card.show_view(v)
        self._show_class(b)
        self._show_kit(b)
        self._show_insight(b)
        self.sheet.show_build(b)

    def _tips(self, what: str) -> dict[str, str]:
        c = self.cont
        if what == "class":
            return {k.name: f"<b>{k.name}</b><p>{k.text}</p><p><i>{k.arsenal_text}</i></p>" for k in c.classes.classes}
        if what == "background":
            return {
                b.name: f"<b>{b.name}</b><p>{b.text}</p><p><i>{b.equipment_text}</i></p>" for b in c.classes.backgrounds
            }
        if what == "manoeuvre":
            return {m.name: f"<b>{m.name}</b><p>{m.text}</p>" for b in c.classes.backgrounds for m in b.manoeuvres}
        if what == "school":
            texts = {s.name: s.text for s in c.magic.schools} if hasattr(c.magic, "schools") else {}
            return {s.name: f"<b>{s.name}</b><p>{texts.get(s.name, '')}</p><p><i>{s.equipment_text}</i></p>"
                    for s in c.classes.schools}  # fmt: skip
        if what == "equipment option":
            return {o.name: f"<b>Option {o.name}</b><p>{o.equipment_text}</p>" for k in c.classes.classes
                    for o in k.equipment_options}  # fmt: skip
        if what == "god":
            return {g.name: f"<b>{g.name}</b>{', ' + g.title if g.title else ''}<p>{g.text}</p>" for g in c.magic.gods}
        if what == "spells":
            return {s.name: f"<b>{s.name}</b><p>{s.text}</p>" for s in c.magic.spells}
        if what == "prayers":
            return {p.name: f"<b>{p.name}</b><p>{p.text}</p>" for p in c.magic.prayers}
        return {}

    def _show_class(self, b: Build) -> None:
        self.class_card.setEnabled(b.class_open)
        qs = b.class_questions
        key = [(q.what, tuple(q.options), q.count) for q in qs]
        if key != self._questions_key:
            self._questions_key = key
            _clear(self.class_body)
            self.groups = {}
            for q in qs:
                if q.count == 0:
                    continue
                title = PICK_TITLES.get(q.what, q.what.capitalize())
                if q.count > 1:
                    title += f" — choose {q.count}"
                lab = _label(title, "gold")
                self.class_body.addWidget(lab)
                labels = {o: (f"Option {o}" if q.what == "equipment option" else o) for o in q.options}
                g = ChoiceGroup(q.what, q.options, q.count, self._tips(q.what), columns=_columns(q.options))
                for o, btn in g.buttons.items():
                    btn.setText(labels[o])
                g.changed.connect(self._picked)
                self.groups[q.what] = g
                self.class_body.addWidget(g)
        for q in qs:
            group = self.groups.get(q.what)
            if group is not None:
                group.set_selected(q.answer or (self.plan.picks.get(q.what, []) if q.what != "class" else []))
        if not b.class_open:
            self.class_hint.setText("Finish the life path first. " + self.cont.classes.text.split("\n")[0])
        elif b.class_done:
            self.class_hint.setText("")
        else:
            p = b.pending
            what = p.purpose if p is not None else "class"
            n = p.count if p is not None else 1
            whose = "your" if what == "class" else "the"
            self.class_hint.setText(
                f"Choose {whose} {PICK_TITLES.get(what, what).lower()}" + (f" ({n})" if n > 1 else "") + "."
            )
        self.class_hint.setVisible(bool(self.class_hint.text()))
        self.class_effects.setText("   ·   ".join(b.class_effects))
        self.class_effects.setVisible(bool(b.class_effects))

    def _show_kit(self, b: Build) -> None:
        self.kit_card.setEnabled(b.class_done)
        if not b.class_done:
            self.kit.setText("The class's starting kit is placed in the inventory once the class is chosen.")
            self.kit.setProperty("role", "muted")
        else:
            lines = "".join(f"<tr><td style='color:{COLORS['muted']}; padding-right:10px'>{place}</td><td>{label}"
                            f"</td></tr>" for place, label in inventory_lines(b.adv))  # fmt: skip
            silver = b.adv.character.silver
            self.kit.setText(f"<table>{lines}</table><p>Silver: <b>{silver}</b>"
                             + (" (counterfeit)" if b.adv.counterfeit_silver else "") + "</p>")  # fmt: skip
            self.kit.setProperty("role", None)
        self.kit.style().unpolish(self.kit)
        self.kit.style().polish(self.kit)

    def _show_insight(self, b: Build) -> None:
        _clear(self.insight_body)
        self.insight_card.setEnabled(b.class_done)
        if not b.class_done:
            self.insight_body.addWidget(_label("After the class.", "muted"), 0, 0)
            return
        ch = b.adv.character
        row = 0
        self.insight_body.addWidget(_label(f"Insight left: {ch.insight}", "gold"), row, 0, 1, 2)
        if b.spent:
            undo = _button("Undo last", tip="Take back the last insight spent")
            undo.clicked.connect(self._unspend)
            self.insight_body.addWidget(undo, row, 2, Qt.AlignmentFlag.AlignRight)
        row += 1
        for line in b.spent:
            self.insight_body.addWidget(_label("✓ " + line, "good"), row, 0, 1, 3)
            row += 1
        if ch.insight == 0:
            return
        for o in b.insight_options:
            if o.rule == "heal_trauma" and o.unavailable:
                continue
            name = _label(f"{o.name} · {o.cost} insight")
            combo = QComboBox()
            combo.addItems([t.replace(">", " → ") for t in o.targets])
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            go = _button("Spend")
            go.setProperty("rule", o.rule)
            if o.unavailable:
                for w in (name, combo, go):
                    w.setEnabled(False)
                    w.setToolTip(o.unavailable)
            else:
                targets = list(o.targets)
                go.clicked.connect(lambda _=False, r=o.rule, c=combo, t=targets: self._spend(r, t[c.currentIndex()]))
            self.insight_body.addWidget(name, row, 0)
            self.insight_body.addWidget(combo, row, 1)
            self.insight_body.addWidget(go, row, 2)
            row += 1
        self.insight_body.setColumnStretch(1, 1)


class NewCampaignScreen(QWidget):
    """Create the party, pick the settlement and seed, Begin → a new :class:`~desktop.session.Session`."""

    #: The screen's keys, for the Help menu (bound in ``__init__``).
    KEYS = (
        ("R", "Roll the next step of the adventurer shown (on the last step: keep it)"),
        ("K", "Keep the roll"),
        ("1–4", "Mark a die of the roll for an insight re-roll"),
        ("Ctrl+R", "A random adventurer in this tab"),
        ("Ctrl+Shift+R", "A random party"),
        ("Tab / Shift+Tab, Space", "Go from choice to choice (a class, a tab of the party), press it"),
        ("Ctrl+Enter", "Begin the campaign"),
        ("Esc", "Back to the start screen"),
    )

    created = Signal(object)  # the new Session
    cancelled = Signal()

    def __init__(self, folder: Path | None = None, parent: QWidget | None = None, *, seed: int | None = None) -> None:
        super().__init__(parent)
        self.folder = folder
        self.cont = content()
        self.seed = seed if seed is not None else secrets.randbelow(10**9)
        self.party_size = 3
        self.plans: list[SlotPlan] = []
        for i in range(MAX_PARTY):
            p = SlotPlan(i)
            p.name = slot_name(self.cont, self.seed, p, {q.name for q in self.plans})
            self.plans.append(p)
        self.builds: list[Build] = []
        for p in self.plans:
            self.builds.append(build(p, self.cont, self.seed, shared_rows(self.builds)))
        outer = QVBoxLayout(self)
        outer.setContentsMargins(18, 12, 18, 12)
        outer.setSpacing(8)
        # --- heading and campaign options
        head = QHBoxLayout()
        titles = QVBoxLayout()
        titles.setSpacing(0)
        titles.addWidget(_label("A New Company", "title"))
        titles.addWidget(_label("Who crosses the black water to the Blacksalt Isle?", "subtitle"))
        head.addLayout(titles)
        head.addStretch(1)
        opts = QGridLayout()
        opts.setHorizontalSpacing(6)
        opts.setVerticalSpacing(6)
        opts.addWidget(_label("Settlement", "gold"), 0, 0)
        self.settlement = QComboBox()
        for s in self.cont.blacksalt.settlements:
            self.settlement.addItem(s.name)
            self.settlement.setItemData(self.settlement.count() - 1, s.text, Qt.ItemDataRole.ToolTipRole)
        names = [s.name for s in self.cont.blacksalt.settlements]
        self.settlement.setCurrentIndex(names.index(DEFAULT_SETTLEMENT) if DEFAULT_SETTLEMENT in names else 0)
        self.settlement.setToolTip("Where the company lands and spends its first interlude")
        opts.addWidget(self.settlement, 0, 1, 1, 3)
        opts.addWidget(_label("Seed", "gold"), 1, 0)
        self.seed_edit = QLineEdit(str(self.seed))
        self.seed_edit.setMaxLength(18)
        self.seed_edit.setToolTip("The campaign seed. The same seed and the same choices make the same adventurers "
                                  "and the same campaign: share it.")  # fmt: skip
        self.seed_edit.editingFinished.connect(self._seed_edited)
        opts.addWidget(self.seed_edit, 1, 1)
        self.seed_btn = _button("New", tip="A new seed (rolls every adventurer anew)")
        self.seed_btn.setIcon(die_icon(5))
        self.seed_btn.clicked.connect(self.new_seed)
        opts.addWidget(self.seed_btn, 1, 2)
        self.copy_btn = _button("Copy", tip="Copy the seed to share it")
        self.copy_btn.clicked.connect(self.copy_seed)
        opts.addWidget(self.copy_btn, 1, 3)
        head.addLayout(opts)
        outer.addLayout(head)
        # --- the party
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(False)
        corner = QWidget()
        cl = QHBoxLayout(corner)
        cl.setContentsMargins(0, 0, 0, 4)
        cl.setSpacing(4)
        cl.addWidget(_label("Party", "muted"))
        self.size_group = QButtonGroup(self)
        self.size_btns: list[QPushButton] = []
        for n in range(1, MAX_PARTY + 1):
            b = _button(str(n), tip=f"A party of {n}")
            b.setCheckable(True)
            b.setFixedWidth(40)
            self.size_group.addButton(b, n)
            self.size_btns.append(b)
            cl.addWidget(b)
        self.size_group.idClicked.connect(self.set_party_size)
        tip = "Roll every adventurer of the party at once. <i>Ctrl+Shift+R</i>"
        self.random_party_btn = _button("Random party", "gold", tip=tip)
        self.random_party_btn.clicked.connect(self.random_party)
        cl.addSpacing(10)
        cl.addWidget(self.random_party_btn)
        self.tabs.setCornerWidget(corner, Qt.Corner.TopRightCorner)
        self.pages = [AdventurerPage(self, p) for p in self.plans]
        for page in self.pages:
            page.changed.connect(lambda pg=page: self.refresh_page(pg))
        outer.addWidget(self.tabs, 1)
        # --- bottom bar
        bottom = QHBoxLayout()
        self.back_btn = _button("← Back", tip="Back to the start screen. <i>Esc</i>")
        self.back_btn.clicked.connect(self.cancelled.emit)
        bottom.addWidget(self.back_btn)
        self.status = _label("", "muted", wrap=True)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        bottom.addWidget(self.status, 1)
        self.begin_btn = _button("Begin the campaign", "primary",
                                 tip="Save the new campaign and land in the settlement. <i>Ctrl+Enter</i>")  # fmt: skip
        self.begin_btn.setMinimumWidth(220)
        self.begin_btn.clicked.connect(self.begin)
        bottom.addWidget(self.begin_btn)
        outer.addLayout(bottom)
        # --- keys
        self._shortcut("Escape", self.cancelled.emit)
        self._shortcut("Ctrl+Return", self.begin)
        self._shortcut("Ctrl+Enter", self.begin)
        self._shortcut("R", lambda: self.current_page().roll())
        self._shortcut("K", lambda: self.current_page().keep())
        self._shortcut("Ctrl+R", lambda: self.current_page().randomise())
        self._shortcut("Ctrl+Shift+R", self.random_party)
        for i in range(4):
            self._shortcut(str(i + 1), partial(self._toggle_die, i))
        self.set_party_size(self.party_size)

    def _shortcut(self, key: str, fn: Callable[[], Any]) -> None:
        sc = QShortcut(QKeySequence(key), self)
        sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        sc.activated.connect(fn)

    def _toggle_die(self, i: int) -> None:
        for card in self.current_page().cards:
            if card.view is not None and card.view.status == "reroll":
                card.toggle_die(i)

    # --- the model ----------------------------------------------------------------------------------------------

    def current_page(self) -> AdventurerPage:
        i = max(0, self.tabs.currentIndex())
        return self.pages[i]

    def names_taken(self, slot: int) -> set[str]:
        return {p.name for p in self.plans[: self.party_size] if p.slot != slot}

    def autofill(self, plan: SlotPlan) -> Build:
        rng = Random(f"blacksalt-random:{self.seed}:{plan.slot}:{plan.draw}")
        b = autofill(plan, self.cont, self.seed, rng, self.shared_for(plan.slot))
        self.builds[plan.slot] = b
        return b

    def shared_for(self, slot: int) -> Shared:
        """The life paths of the party members before ``slot`` (a row one of them has re-rolls once for free)."""
        return shared_rows(self.builds[:slot])

    def refresh_page(self, page: AdventurerPage) -> None:
        """Rebuild this adventurer and the ones after it (whose free re-roll depends on the rows before them)."""
        try:
            for later in self.pages[page.plan.slot :]:
                self.builds[later.plan.slot] = build(later.plan, self.cont, self.seed, self.shared_for(later.plan.slot))
        except (RuleError, ValueError, KeyError) as exc:
            QMessageBox.warning(self, "Creation", f"That choice cannot be made: {exc}")
            return
        for later in self.pages[page.plan.slot : self.party_size]:
            later.show_build(self.builds[later.plan.slot])
        self._update_tabs()

    def refresh_all(self) -> None:
        for page in self.pages:
            self.refresh_page(page)

    def _update_tabs(self) -> None:
        for i in range(self.tabs.count()):
            b = self.builds[i]
            label = (self.plans[i].name or f"Adventurer {i + 1}").split()[0]
            self.tabs.setTabText(i, f"{'✓' if b.complete else '○'} {label}")
            self.tabs.setTabToolTip(i, "Ready" if b.complete else f"Still needs {b.todo()}")
        missing = self.missing()
        if missing:
            self.status.setText("Still to do: " + "; ".join(missing))
        else:
            n = self.party_size
            self.status.setText(f"The company of {n} is ready to land in {self.settlement.currentText()}.")
        self.status.setProperty("role", "muted" if missing else "good")
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)
        self.begin_btn.setEnabled(not missing)

    def missing(self) -> list[str]:
        out = []
        names = [p.name.strip().casefold() for p in self.plans[: self.party_size]]
        for i, b in enumerate(self.builds[: self.party_size]):
            todo = b.todo()
            who = self.plans[i].name.strip() or f"adventurer {i + 1}"
            if todo:
                out.append(f"{who} needs {todo}")
            elif names.count(names[i]) > 1:
                out.append(f"two adventurers are called {self.plans[i].name}")
        return list(dict.fromkeys(out))

    # --- controls -----------------------------------------------------------------------------------------------

    def set_party_size(self, n: int) -> None:
        n = max(1, min(MAX_PARTY, n))
        self.party_size = n
        self.size_btns[n - 1].setChecked(True)
        current = self.tabs.currentIndex()
        while self.tabs.count() > n:
            self.tabs.removeTab(self.tabs.count() - 1)
        while self.tabs.count() < n:
            i = self.tabs.count()
            self.tabs.addTab(self.pages[i], "")
            self.refresh_page(self.pages[i])
        self.tabs.setCurrentIndex(min(max(current, 0), n - 1))
        self._update_tabs()

    def random_party(self) -> None:
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            for page in self.pages[: self.party_size]:
                page.plan.restart()
                self.autofill(page.plan)
                page.show_build(self.builds[page.plan.slot])
                page.steps_scroll.verticalScrollBar().setValue(0)
        finally:
            QApplication.restoreOverrideCursor()
        self._update_tabs()

    def set_seed(self, seed: int) -> None:
        """A new campaign seed: every adventurer is rolled anew (names the player typed stay)."""
        self.seed = seed
        self.seed_edit.setText(str(seed))
        taken: set[str] = set()
        for p in self.plans:
            p.draw, p.name_draw = 0, 0
            p.steps, p.klass, p.picks, p.spends = {}, None, {}, []
            if p.auto_name:
                p.name = slot_name(self.cont, seed, p, taken)
            taken.add(p.name)
        self.refresh_all()

    def new_seed(self) -> None:
        self.set_seed(secrets.randbelow(10**9))

    def _seed_edited(self) -> None:
        text = self.seed_edit.text().strip()
        try:
            seed = int(text)
            if seed < 0:
                raise ValueError(text)
        except ValueError:
            QMessageBox.warning(self, "Seed", f"A seed is a whole number 0 or more, not {text!r}.")
            self.seed_edit.setText(str(self.seed))
            return
        if seed != self.seed:
            self.set_seed(seed)

    def copy_seed(self) -> None:
        QGuiApplication.clipboard().setText(str(self.seed))
        self.copy_btn.setText("Copied")
        QTimer.singleShot(1500, lambda: self.copy_btn.setText("Copy"))

    def adventurers(self) -> list[Adventurer]:
        """Fresh copies of the party's adventurers, as the plans make them."""
        done: list[Build] = []
        for p in self.plans[: self.party_size]:
            done.append(build(p, self.cont, self.seed, shared_rows(done)))
        return [b.adv for b in done]

    def begin(self) -> None:
        missing = self.missing()
        if missing:
            QMessageBox.information(self, "Not yet", "Before the company can set out:\n\n• " + "\n• ".join(missing))
            return
        from desktop.session import Session

        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            session: Session = Session.new(seed=self.seed, adventurers=self.adventurers(), party_size=self.party_size,
                                           settlement=self.settlement.currentText(), folder=self.folder)  # fmt: skip
        except Exception as exc:  # any failure is shown, never a traceback
            QApplication.restoreOverrideCursor()
            QMessageBox.critical(self, "The campaign could not begin", f"{type(exc).__name__}: {exc}")
            return
        QApplication.restoreOverrideCursor()
        self.created.emit(session)
