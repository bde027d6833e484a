"""The dice tray: a test's pool and exact odds before the roll, the dice rolled, rerolls by clicking a die.

The odds are :func:`rules.odds.odds` of the announced :class:`~rules.checks.TestSpec` (exact under the
default reroll policy); once the dice are down they are the odds *from this roll on*, read off the same
policy's value of the current dice and the rerolls left (:class:`rules.odds.Policy`), so they move after
every reroll.  The tray decides nothing itself: the player's choices leave through :attr:`DiceTray.decided`
(and :meth:`DiceTray.wait`), and the engine rolls.  :meth:`DiceTray.play` drives a roll on its own (a
demonstration, the screenshots, the tests).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any

from PySide6.QtCore import QEventLoop, QPoint, QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeyEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.theme import COLORS
from rules.checks import RuleError, Side, TestRoll, TestSpec, evaluate
from rules.odds import odds, policy_for

#: The options announced before the roll, as :meth:`rules.character.Character.test_spec` names them.
OPTION_TEXT = {
    "extra_effort": ("Extra effort", "+1 die for 1 fatigue now. “It is possible to add one more dice to the "
                     "available dices pool by causing the character one fatigue point before the roll.”"),
    "keep_safe": ("Keep it safe", "−2 dice; 1s and 4s tire only on a failure. “If the player doesn't want to "
                  "risk fatigue they can reduce their roll by 2 dice.”"),
    "burden": ("Use your burden", "Disadvantage and no proficiency, and you earn an insight point. “Once per "
               "session you may use your burden to make your character's life harder.”"),
}  # fmt: skip

ODDS_KEYS = (
    ("success", "Success", "good"),
    ("great_success", "Great success", "gold"),
    ("critical_failure", "Critical failure", "danger"),
    ("fatigue", "Fatigue", "muted"),
)

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


def percent(p: float) -> str:
    """A probability as the tray prints it."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{p * 100:.0f}%"


def odds_now(test: TestRoll) -> dict[str, float]:
    """The odds of each outcome from the dice on the table and the rerolls left (the default policy)."""
    left = (test.gm_left, test.helper_left, test.player_left)
    v = policy_for(test.spec).value(tuple(sorted(test.main)), test.helper, left)
    return {"success": v[1], "great_success": v[2], "critical_failure": v[3], "fatigue": v[4]}


def odds_before(spec: TestSpec) -> dict[str, float]:
    o = odds(spec)
    return {"success": o.success, "great_success": o.great_success, "critical_failure": o.critical_failure,
            "fatigue": o.fatigue}  # fmt: skip


def describe_spec(spec: TestSpec) -> str:
    """The pool in words: dice, rerolls each side has, what changes the faces."""
    bits = []
    if spec.keep_lowest:
        bits.append(f"{spec.main_dice} dice, keep the lowest")
    else:
        bits.append(f"{spec.main_dice} {'die' if spec.main_dice == 1 else 'dice'}")
    if spec.helper_die:
        bits.append("+ the helper's die")
    if spec.player_rerolls:
        bits.append(f"{spec.player_rerolls} reroll{'s' if spec.player_rerolls > 1 else ''} for you")
    if spec.helper_rerolls:
        bits.append(f"{spec.helper_rerolls} for the helper")
    if spec.gm_rerolls:
        bits.append(f"{spec.gm_rerolls} for the GM")
    if spec.check:
        bits.append("a check: 1s and 4s cost nothing")
    if spec.terrified:
        bits.append("terrified: success on 5–6")
    if spec.hopeless:
        bits.append("hopeless: 1, 4, 5, 6 tire")
    return " · ".join(bits)


#: One frame of a tumbling die, and how long dice tumble at each "Animations" setting (off, normal, fast).
TUMBLE_FRAME_MS = 45
TUMBLE_MS = {0: 0, 1: 450, 2: 180}


def place_beside(dialog: QWidget, keep: QRect) -> None:
    """A dialog of the step stands beside ``keep`` (a rectangle of the screen, in global pixels) rather than over
    it: right of it, below, left or above, within the window it belongs to, wherever it covers least of it."""
    dialog.adjustSize()
    size = dialog.size().expandedTo(dialog.minimumSizeHint())
    parent = dialog.parentWidget()
    host = parent.window() if parent is not None else None
    bounds = host.frameGeometry() if host is not None else QRect()
    screen = dialog.screen() if dialog.screen() is not None else QApplication.primaryScreen()
    if screen is not None:
        room = screen.availableGeometry()
        bounds = room if bounds.isNull() else bounds.intersected(room)
    if bounds.isNull():
        return
    w, h, gap = size.width(), size.height(), 8

    def inside(x: int, y: int) -> QPoint:
        return QPoint(max(bounds.left(), min(x, bounds.right() - w)), max(bounds.top(), min(y, bounds.bottom() - h)))

    middle_x, middle_y = keep.center().x() - w // 2, keep.center().y() - h // 2
    spots = [inside(keep.right() + gap, middle_y), inside(middle_x, keep.bottom() + gap),
             inside(keep.left() - w - gap, middle_y), inside(middle_x, keep.top() - h - gap)]  # fmt: skip
    # and the window's corners: a grid given most of a small window leaves no side wide enough for the tray
    spots += [inside(x, y) for x in (bounds.left(), bounds.right()) for y in (bounds.top(), bounds.bottom())]

    def covered(at: QPoint) -> int:
        over = QRect(at, size).intersected(keep)
        return over.width() * over.height() if over.isValid() else 0

    dialog.move(min(spots, key=covered))


class DieWidget(QAbstractButton):
    """One die, painted with pips; clickable when it may be rerolled.  ``index``: -1 for the helper's die."""

    def __init__(self, index: int, face: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.index = index
        self.face = face
        self.helper = index == -1
        self.changed = False
        self.kept = True
        self.spec: TestSpec | None = None
        self.shown: int | None = None  # a face shown while the die tumbles (None: its real face)
        self.setObjectName(f"die:{index}")
        self.setFixedSize(QSize(58, 58))
        self.setCursor(Qt.CursorShape.ArrowCursor)

    def tumble(self, ms: int) -> None:
        """Show the die rolling for ``ms`` milliseconds before it settles on its face (cosmetic: the faces
        shown meanwhile come from a private RNG, never the game's, and the die keeps its real face)."""
        if ms <= 0 or self.face == 0:
            return
        real = self.face
        spin = Random(real * 7919 + self.index)
        frames = max(1, ms // TUMBLE_FRAME_MS)
        timer = QTimer(self)
        timer.setInterval(TUMBLE_FRAME_MS)
        left = [frames]

        def step() -> None:
            left[0] -= 1
            if left[0] <= 0:
                timer.stop()
                self.shown = None
            else:
                self.shown = spin.randint(1, 6)
            self.update()

        self.shown = spin.randint(1, 6)
        timer.timeout.connect(step)
        timer.start()

    def set_clickable(self, on: bool) -> None:
        self.setEnabled(on)
        self.setCursor(Qt.CursorShape.PointingHandCursor if on else Qt.CursorShape.ArrowCursor)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        r = QRectF(self.rect()).adjusted(4, 4, -4, -4)
        c = COLORS
        succ = self.spec.success_faces if self.spec is not None else frozenset({4, 5, 6})
        tire = self.spec.fatigue_faces if self.spec is not None else frozenset({1, 4})
        body = QColor(c["paper"]) if not self.helper else QColor("#d8c7a0")
        if not self.kept:
            body = body.darker(160)
        edge = QColor(c["border"])
        if self.underMouse() and self.isEnabled():
            edge = QColor(c["gold"])
        elif self.changed:
            edge = QColor(c["accent_hover"] if "accent_hover" in c else c["accent"])
        p.setPen(QPen(edge, 3 if (self.changed or (self.underMouse() and self.isEnabled())) else 1.5))
        p.setBrush(body)
        p.drawRoundedRect(r, 8, 8)
        face = self.shown if self.shown is not None else self.face
        rolling = self.shown is not None
        pip = QColor(c["accent"]) if face == 1 else QColor(c["paper_ink"])
        if face in succ and not rolling:
            pip = QColor("#1d3a16") if face != 6 else QColor(c["accent"]).darker(120)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(pip)
        rad = r.width() * 0.085
        if face == 0:
            p.setPen(QColor(c["muted"]))
            f = p.font()
            f.setPointSizeF(16)
            f.setBold(True)
            p.setFont(f)
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, "?")
        for fx, fy in PIPS.get(face, []):
            p.drawEllipse(QPointF(r.left() + fx * r.width(), r.top() + fy * r.height()), rad, rad)
        if face in tire and not rolling and not (self.spec is not None and self.spec.check):
            p.setPen(QPen(QColor(c["gold"]), 2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(QPointF(r.right() - 6, r.top() + 6), 3, 3)
        if self.helper:
            p.setPen(QColor(c["paper_ink"]))
            f = p.font()
            f.setPointSizeF(6.5)
            p.setFont(f)
            p.drawText(r.adjusted(0, 0, 0, -1), Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignHCenter, "help")
        p.end()

    def sizeHint(self) -> QSize:
        return QSize(58, 58)


class DiceTray(QDialog):
    """The tray: :meth:`prepare` (pool, odds, options) → :meth:`show_roll` (dice, rerolls) → :meth:`show_outcome`."""

    decided = Signal(object)  # the options dict, a die index (-1 helper) or None (stop), or None (continue)
    die_clicked = Signal(int)

    #: The tray's keys (the Help menu lists them).  Keys pressed just before the tray opened are not taken.
    KEYS = (
        ("Enter", "Roll the dice; keep these dice; continue"),
        ("1–9", "Reroll that die (the dice are counted from the left)"),
        ("K", "Keep these dice"),
        ("Tab, Space", "Go to an option or a die, and tick or reroll it"),
        ("Esc", "Asks before rolling or keeping the dice (a test under way cannot be called off); closes the outcome"),
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dice_tray")
        self.setWindowTitle("Dice tray")
        self.setModal(True)
        self.setMinimumWidth(560)
        self.stage = "idle"  # before, reroll, rolled, outcome
        self.spec: TestSpec | None = None
        self.test: TestRoll | None = None
        self.make_spec: Callable[[dict[str, Any]], TestSpec] | None = None
        self._result: Any = None
        self._waiting: QEventLoop | None = None
        self._live_rng: Random | None = None  # play(): the tray rolls on its own
        self._live_test: TestRoll | None = None
        self._last_faces: list[int] = []

        col = QVBoxLayout(self)
        col.setContentsMargins(18, 14, 18, 14)
        col.setSpacing(10)
        self.title = QLabel("A test")
        self.title.setProperty("role", "heading")
        self.title.setObjectName("tray_title")
        self.title.setWordWrap(True)
        self.pool = QLabel("")
        self.pool.setProperty("role", "muted")
        self.pool.setObjectName("tray_pool")
        self.pool.setWordWrap(True)
        col.addWidget(self.title)
        col.addWidget(self.pool)

        odds_box = QFrame(self)
        odds_box.setProperty("role", "panel")
        grid = QGridLayout(odds_box)
        grid.setContentsMargins(10, 6, 10, 6)
        self.odds_caption = QLabel("Odds before the roll")
        self.odds_caption.setProperty("role", "muted")
        grid.addWidget(self.odds_caption, 0, 0, 1, 4)
        self.odds_labels: dict[str, QLabel] = {}
        for i, (key, text, role) in enumerate(ODDS_KEYS):
            value = QLabel("—")
            value.setObjectName(f"odds_{key}")
            value.setProperty("role", role)
            value.setAlignment(Qt.AlignmentFlag.AlignCenter)
            value.setStyleSheet("font-size: 17pt; font-weight: bold;")
            name = QLabel(text)
            name.setProperty("role", "muted")
            name.setAlignment(Qt.AlignmentFlag.AlignCenter)
            grid.addWidget(value, 1, i)
            grid.addWidget(name, 2, i)
            self.odds_labels[key] = value
        col.addWidget(odds_box)

        self.options_box = QFrame(self)
        opts = QHBoxLayout(self.options_box)
        opts.setContentsMargins(0, 0, 0, 0)
        self.option_checks: dict[str, QCheckBox] = {}
        for key, (text, tip) in OPTION_TEXT.items():
            cb = QCheckBox(text)
            cb.setObjectName(f"option_{key}")
            cb.setToolTip(tip)
            cb.toggled.connect(self._options_changed)
            opts.addWidget(cb)
            self.option_checks[key] = cb
        self.help_combo = QComboBox()
        self.help_combo.setObjectName("option_help")
        self.help_combo.setToolTip("“Characters can help each other with a task… The helping character should "
                                   "roll one dice, that dice will contribute the main roll.”")  # fmt: skip
        self.help_combo.currentIndexChanged.connect(self._options_changed)
        opts.addWidget(self.help_combo)
        opts.addStretch(1)
        col.addWidget(self.options_box)

        dice_frame = QFrame(self)
        dice_frame.setProperty("role", "panel_alt")
        dice_frame.setMinimumHeight(84)
        self.dice_row = QHBoxLayout(dice_frame)
        self.dice_row.setContentsMargins(12, 10, 12, 10)
        self.dice_row.setSpacing(8)
        self.dice_row.addStretch(1)
        col.addWidget(dice_frame)
        self.dice: list[DieWidget] = []
        #: How long a fresh die tumbles before it settles (0: no animation; the setting "Animations").
        self.animation_ms = 0

        self.status = QLabel("")
        self.status.setObjectName("tray_status")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        col.addWidget(self.status)

        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.roll_button = QPushButton("Roll the dice")
        self.roll_button.setObjectName("roll")
        self.roll_button.setProperty("role", "primary")
        # Enter rolls as the tray's default button (a "Return" shortcut as well would be a second path)
        self.roll_button.clicked.connect(self._roll_clicked)
        self.keep_button = QPushButton("Keep these dice")
        self.keep_button.setObjectName("keep")
        self.keep_button.setShortcut("K")
        self.keep_button.clicked.connect(self._keep_clicked)
        self.continue_button = QPushButton("Continue")
        self.continue_button.setObjectName("continue")
        self.continue_button.setProperty("role", "primary")
        self.continue_button.clicked.connect(self._continue_clicked)
        for b in (self.roll_button, self.keep_button, self.continue_button):
            buttons.addWidget(b)
        col.addLayout(buttons)
        self._set_stage("idle")
        from desktop.keys import DialogKeyGuard

        self.key_guard = DialogKeyGuard(self)
        self.question: QMessageBox | None = None  # the question Esc asks, while it is open

    # --- stages --------------------------------------------------------------------------------------------

    def _set_stage(self, stage: str) -> None:
        self.stage = stage
        self.options_box.setVisible(stage == "before")
        self.roll_button.setVisible(stage == "before")
        self.keep_button.setVisible(stage == "reroll")
        self.continue_button.setVisible(stage in ("outcome", "rolled"))
        if stage == "before":
            self.roll_button.setDefault(True)
            self.roll_button.setFocus()
        elif stage == "reroll":
            self.keep_button.setDefault(True)
            self.keep_button.setFocus()
        elif stage in ("outcome", "rolled"):
            self.continue_button.setDefault(True)
            self.continue_button.setFocus()
        # the button Enter presses is drawn as the tray's main one (Keep was plain although Enter keeps)
        self.keep_button.setProperty("role", "primary" if stage == "reroll" else "")
        self.keep_button.style().unpolish(self.keep_button)
        self.keep_button.style().polish(self.keep_button)

    def prepare(
        self,
        spec: TestSpec,
        *,
        title: str,
        make_spec: Callable[[dict[str, Any]], TestSpec] | None = None,
        unavailable: Mapping[str, str] | None = None,
        helpers: Sequence[tuple[str, str]] = (),
    ) -> None:
        """Before the roll: the announced pool and its odds; the options (``unavailable``: option -> why not;
        ``helpers``: (member id, name) of who may help); ``make_spec`` recomputes the spec for chosen options."""
        self.spec = spec
        self.test = None
        self.make_spec = make_spec
        self.title.setText(title)
        self._clear_dice()
        unavailable = dict(unavailable or {})
        for key, cb in self.option_checks.items():
            cb.blockSignals(True)
            cb.setChecked(False)
            cb.blockSignals(False)
            why = unavailable.get(key) if make_spec is not None else "—"
            cb.setEnabled(why is None)
            cb.setVisible(key in OPTION_TEXT and (make_spec is not None))
            cb.setToolTip(OPTION_TEXT[key][1] + (f"<br><b>Not now:</b> {why}" if why else ""))
        self.help_combo.blockSignals(True)
        self.help_combo.clear()
        self.help_combo.addItem("No help", None)
        for mid, name in helpers:
            self.help_combo.addItem(f"{name} helps", mid)
        self.help_combo.blockSignals(False)
        self.help_combo.setVisible(bool(helpers) and make_spec is not None)
        self.help_combo.setEnabled("help" not in unavailable)
        self._show_spec(spec)
        self._blank_dice(spec)
        self.status.setText("Announce your options, then roll.")
        self._set_stage("before")

    def _blank_dice(self, spec: TestSpec) -> None:
        """The dice about to be rolled, face down."""
        self._clear_dice()
        self.dice_row.takeAt(self.dice_row.count() - 1)
        for i in list(range(spec.main_dice)) + ([-1] if spec.helper_die else []):
            d = DieWidget(i, 0, self)
            d.spec = spec
            d.set_clickable(False)
            self.dice_row.addWidget(d)
            self.dice.append(d)
        self.dice_row.addStretch(1)

    def chosen_options(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: True for k, cb in self.option_checks.items() if cb.isChecked() and cb.isEnabled()}
        helper = self.help_combo.currentData() if self.help_combo.isVisible() else None
        if helper:
            out["helper"] = helper
        return out

    def _options_changed(self, *_: object) -> None:
        if self.stage != "before" or self.make_spec is None:
            return
        try:
            spec = self.make_spec(self.chosen_options())
        except RuleError as exc:
            self.status.setText(f"<span style='color:{COLORS['danger']}'>{exc}</span>")
            self.roll_button.setEnabled(False)
            return
        self.roll_button.setEnabled(True)
        self.status.setText("Announce your options, then roll.")
        self._show_spec(spec)
        self._blank_dice(spec)

    def _show_spec(self, spec: TestSpec) -> None:
        self.pool.setText(describe_spec(spec))
        self.odds_caption.setText("Odds before the roll")
        self._show_odds(odds_before(spec))

    def _show_odds(self, values: Mapping[str, float]) -> None:
        for key, label in self.odds_labels.items():
            label.setText(percent(values.get(key, 0.0)))

    def _clear_dice(self) -> None:
        for d in self.dice:
            self.dice_row.removeWidget(d)
            d.hide()
            d.deleteLater()
        self.dice = []
        self._last_faces = []

    def show_roll(self, test: TestRoll, *, title: str | None = None) -> None:
        """The dice on the table; clickable when the player (or the helper) may reroll one."""
        self.test = test
        self.spec = test.spec
        if title is not None:
            self.title.setText(title)
        faces = list(test.main) + ([test.helper] if test.helper is not None else [])
        previous = self._last_faces if len(self._last_faces) == len(faces) and all(self._last_faces) else []
        self._clear_dice()
        self.dice_row.takeAt(self.dice_row.count() - 1)  # the stretch
        indices = list(range(len(test.main))) + ([-1] if test.helper is not None else [])
        verdict = evaluate(test.spec, tuple(test.main), test.helper)
        kept_lowest = test.spec.keep_lowest
        for i, face in zip(indices, faces, strict=True):
            d = DieWidget(i, face, self)
            d.spec = test.spec
            pos = indices.index(i)
            d.changed = bool(previous) and previous[pos] != face
            d.kept = not kept_lowest or (i >= 0 and face == min(test.main))
            d.clicked.connect(lambda _=False, idx=i: self._die_clicked(idx))
            self.dice_row.addWidget(d)
            self.dice.append(d)
            if not previous or d.changed:
                d.tumble(self.animation_ms)  # a fresh roll, or the die just rerolled
        self.dice_row.addStretch(1)
        self._last_faces = faces
        side = test.side_to_act
        mine = side in (Side.PLAYER, Side.HELPER)
        for d in self.dice:
            d.set_clickable(mine and (side is Side.PLAYER or d.index == -1))
        self.pool.setText(describe_spec(test.spec))
        self.odds_caption.setText("Odds from here")
        self._show_odds(odds_now(test))
        if mine:
            n = test.player_left if side is Side.PLAYER else test.helper_left
            who = "You have" if side is Side.PLAYER else "The helper has"
            rule = "<i>“If you choose to reroll a dice you must use the new result.”</i>"
            plural = "s" if n != 1 else ""
            self.status.setText(f"{who} {n} reroll{plural}: click a die to reroll it, or keep the dice. {rule}")
            self._set_stage("reroll")
        else:
            self.status.setText(self._verdict_text(verdict))
            self._set_stage("rolled")

    def show_outcome(self, test: TestRoll) -> None:
        """The final dice and the outcome."""
        self.show_roll(test)
        for d in self.dice:
            d.set_clickable(False)
        self.odds_caption.setText("The outcome")
        v = test.verdict
        self._show_odds({"success": float(v.success), "great_success": float(v.great_success),
                         "critical_failure": float(v.critical_failure), "fatigue": float(v.fatigue)})  # fmt: skip
        self.status.setText(self._verdict_text(v))
        self._set_stage("outcome")

    def _verdict_text(self, v: Any) -> str:
        c = COLORS
        if v.great_success:
            text, colour = "Great success", c["gold"]
        elif v.success:
            text, colour = "Success", c["good"]
        elif v.critical_failure:
            text, colour = "Critical failure", c["danger"]
        else:
            text, colour = "Failure", c["danger"]
        extra = " — and a point of fatigue" if v.fatigue else ""
        if getattr(v, "helper_fatigue", False):
            extra += "; the helper tires"
        return f"<span style='font-size:15pt; color:{colour}; font-weight:bold'>{text}</span>{extra}"

    # --- choices -------------------------------------------------------------------------------------------

    def _decide(self, value: Any) -> None:
        self._result = value
        self.decided.emit(value)
        if self._waiting is not None:
            self._waiting.quit()

    def _roll_clicked(self) -> None:
        if self.stage != "before":
            return
        if self._live_rng is not None and self.spec is not None:
            spec = self.make_spec(self.chosen_options()) if self.make_spec else self.spec
            self._live_test = TestRoll.start(spec, self._live_rng)
            self._advance_live()
            return
        self._decide(self.chosen_options())

    def _die_clicked(self, index: int) -> None:
        if self.stage != "reroll":
            return
        self.die_clicked.emit(index)
        if self._live_test is not None and self._live_rng is not None:
            self._live_test.reroll(index, self._live_rng)
            self._advance_live()
            return
        self._decide(index)

    def _keep_clicked(self) -> None:
        if self.stage != "reroll":
            return
        if self._live_test is not None:
            self._live_test.stop()
            self._advance_live()
            return
        self._decide(None)

    def _continue_clicked(self) -> None:
        self._decide(None)
        if self._live_rng is not None or self._waiting is None:
            self.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if self.stage == "reroll" and Qt.Key.Key_1 <= key <= Qt.Key.Key_9 and not event.modifiers():
            n = key - Qt.Key.Key_1
            if n < len(self.dice) and self.dice[n].isEnabled():
                self._die_clicked(self.dice[n].index)
            event.accept()
            return
        super().keyPressEvent(event)

    def reject(self) -> None:
        """Esc or the window's X: the test is part of a step under way, so it is never silently rolled or
        kept; before the roll and between rerolls the tray asks, once the dice are down it continues."""
        if self.stage == "before":
            self._ask("Roll the dice?", "This test is part of the action under way: it cannot be called off now. "
                      "Roll the dice with the options chosen?", "Roll the dice", self._roll_clicked)  # fmt: skip
        elif self.stage == "reroll":
            self._ask("Keep these dice?", "Stop rerolling and keep the dice as they are?", "Keep these dice",
                      self._keep_clicked)  # fmt: skip
        elif self.stage in ("outcome", "rolled"):
            self._continue_clicked()
        else:
            super().reject()

    def _ask(self, title: str, text: str, yes: str, then: Callable[[], None]) -> None:
        """Ask (over the tray, which stays as it is) and call ``then`` if the answer is ``yes``."""
        if self.question is not None:
            return
        box = QMessageBox(QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.NoButton, self)
        box.setObjectName("tray_question")
        ok = box.addButton(yes, QMessageBox.ButtonRole.AcceptRole)
        back = box.addButton("Back to the tray", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(back)
        box.setEscapeButton(back)
        self.question = box

        def answered() -> None:
            self.question = None
            box.deleteLater()
            if box.clickedButton() is ok:
                then()

        box.finished.connect(answered)
        box.open()

    def place_away(self, keep: QRect) -> None:
        """Stand beside ``keep`` rather than over it (:func:`place_beside`)."""
        place_beside(self, keep)

    def wait(self) -> Any:
        """Run until the player decides (or closes the tray: no options, no more rerolls); the decision."""
        self._result = None
        if not self.isVisible():
            self.open()
        loop = QEventLoop(self)
        self._waiting = loop
        self.finished.connect(loop.quit)
        try:
            loop.exec()
        finally:
            self.finished.disconnect(loop.quit)
            self._waiting = None
        if not self.isVisible() and self.stage == "before":
            return {}
        return self._result

    # --- on its own ----------------------------------------------------------------------------------------

    def play(self, spec: TestSpec, rng: Random, *, title: str = "A test",
             make_spec: Callable[[dict[str, Any]], TestSpec] | None = None) -> None:  # fmt: skip
        """Drive a roll in the tray itself: roll, reroll the dice clicked, show the outcome."""
        self._live_rng = rng
        self._live_test = None
        self.prepare(spec, title=title, make_spec=make_spec)

    def _advance_live(self) -> None:
        test, rng = self._live_test, self._live_rng
        assert test is not None and rng is not None
        # the GM's rerolls (disadvantage) are the GM's: by the default policy, as the engine plays them
        pol = policy_for(test.spec)
        while test.side_to_act is Side.GM:
            choice = pol.decide(test)
            if choice is None:
                test.stop()
            else:
                test.reroll(choice, rng)
        if test.side_to_act is None:
            self.show_outcome(test)
        else:
            self.show_roll(test)

    @property
    def live_test(self) -> TestRoll | None:
        return self._live_test
