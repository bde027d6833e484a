"""The player's decisions inside a step, asked of the person: the :class:`~rules.gm.engine.Decider` of the window.

The engine calls a decider in the middle of :meth:`GM.apply` (which die to reroll, where a wound goes, which
armour to roll, one of several options).  :class:`QtDecider` answers through :attr:`QtDecider.ask`, by default
the dice tray and small dialogs; tests replace ``ask`` with a script.  With the setting "the GM decides
rerolls" every question goes to :class:`~rules.gm.engine.AutoDecider` instead (a faster game).

It also has the engine's two optional hooks: ``before_test`` (the options announced before the roll: extra
effort, keep it safe, help, the burden) and ``after_test`` (the final roll, shown in the tray).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QLabel, QPushButton, QVBoxLayout, QWidget

from rules.attributes import Attr
from rules.character import Condition
from rules.checks import RuleError, TestRoll, TestSpec
from rules.gm.engine import AutoDecider
from rules.gm.services import armour_label
from rules.gm.state import Phase

if TYPE_CHECKING:
    from desktop.chances import Chance
    from desktop.widgets.dice_tray import DiceTray
    from rules.armor import ArmorPart
    from rules.gm.engine import GM
    from rules.gm.events import Action
    from rules.gm.state import Member

#: ``ask(kind, payload) -> answer``: kind is before_test, reroll, after_test, wound, armour or choose.
Ask = Callable[[str, dict[str, Any]], Any]


class QtDecider:
    """Asks the player (through ``ask``) unless the settings let the GM decide."""

    def __init__(self, settings: Any = None, parent: QWidget | None = None, ask: Ask | None = None) -> None:
        self.settings = settings
        self.parent = parent
        self.auto = AutoDecider()
        self.ask: Ask = ask if ask is not None else self._ask_dialogs
        self.tray: DiceTray | None = None
        self.asked: list[str] = []  # the kinds asked, in order (for the tests and the screenshots)
        #: Called before each question inside a step (the game screen redraws what it can of the step so far).
        self.before_asking: Callable[[], None] | None = None

    @property
    def gm_decides(self) -> bool:
        return bool(getattr(self.settings, "gm_rerolls", False))

    # --- the Decider protocol ------------------------------------------------------------------------------

    def reroll(self, gm: GM, member: Member, test: TestRoll) -> int | None:
        if self.gm_decides:
            return self.auto.reroll(gm, member, test)
        answer = self._ask("reroll", gm=gm, member=member, test=test)
        return None if answer is None else int(answer)

    def wound(self, gm: GM, member: Member, options: list[tuple[Attr, bool]]) -> tuple[Attr, bool]:
        if self.gm_decides or len(options) <= 1:
            return self.auto.wound(gm, member, options)
        answer = self._ask("wound", gm=gm, member=member, options=options)
        return answer if answer in options else self.auto.wound(gm, member, options)

    def armour(self, gm: GM, member: Member, parts: list[ArmorPart], wounds: int) -> ArmorPart | None:
        if self.gm_decides or not parts:
            return self.auto.armour(gm, member, parts, wounds)
        answer = self._ask("armour", gm=gm, member=member, parts=parts, wounds=wounds)
        return answer if (answer is None or answer in parts) else self.auto.armour(gm, member, parts, wounds)

    def choose(self, gm: GM, member: Member | None, prompt: str, options: list[str]) -> str:
        if self.gm_decides or len(options) <= 1:
            return self.auto.choose(gm, member, prompt, options)
        answer = self._ask("choose", gm=gm, member=member, prompt=prompt, options=options)
        return str(answer) if answer in options else self.auto.choose(gm, member, prompt, options)

    # --- the optional hooks ----------------------------------------------------------------------------------

    def before_test(self, gm: GM, member: Member, attr: Attr, reason: str, spec: TestSpec) -> dict[str, Any] | None:
        if self.gm_decides:
            return None
        unavailable = self.unavailable_options(gm, member, attr, spec)
        helpers = [] if "help" in unavailable else self.helpers(gm, member, attr)

        def make_spec(options: dict[str, Any]) -> TestSpec:
            return self.spec_with(gm, member, attr, spec, options)

        answer = self._ask("before_test", gm=gm, member=member, attr=attr, reason=reason, spec=spec,
                           make_spec=make_spec, unavailable=unavailable, helpers=helpers)  # fmt: skip
        if not isinstance(answer, dict) or not answer:
            return None
        return {k: v for k, v in answer.items() if k in ("extra_effort", "keep_safe", "burden", "helper")}

    def after_test(self, gm: GM, member: Member, roll: TestRoll) -> None:
        if self.gm_decides:
            return
        self._ask("after_test", gm=gm, member=member, test=roll)

    def choose_tester(self, gm: GM, action: Action, chances: list[Chance]) -> str | None:
        """Who makes ``action``'s test (``chances``: everyone who may, best odds first): the player's pick, the
        best odds when the GM decides (or the question is not answered), ``""`` when the player takes it back."""
        if not chances:
            return None
        if self.gm_decides or len(chances) == 1:
            return chances[0].who
        answer = self._ask("tester", gm=gm, action=action, chances=chances)
        if answer == "":
            return ""
        return str(answer) if any(c.who == answer for c in chances) else chances[0].who

    def finish(self) -> None:
        """The step is over: close the tray if it is still open."""
        if self.tray is not None:
            self.tray.hide()
            self.tray.deleteLater()
            self.tray = None

    # --- what may be announced (the engine's own checks, tried) ---------------------------------------------

    @staticmethod
    def spec_with(gm: GM, member: Member, attr: Attr, spec: TestSpec, options: dict[str, Any]) -> TestSpec:
        """``spec`` with the options announced; :class:`RuleError` when the rules forbid them."""
        ch = member.adv.character
        changes: dict[str, Any] = {k: True for k in ("extra_effort", "keep_safe", "burden") if options.get(k)}
        if changes.get("extra_effort"):
            ch.test_spec(attr, extra_effort=True)  # raises when the point would be a wound
        helper_id = options.get("helper")
        if helper_id and not spec.help:
            helper = gm.c.member(str(helper_id))
            changes["help"] = True
            changes["helper_proficiency"] = helper.adv.character.attr(attr).proficiency
        return spec.with_(**changes) if changes else spec

    def unavailable_options(self, gm: GM, member: Member, attr: Attr, spec: TestSpec) -> dict[str, str]:
        """Each option the player may not announce now, with why."""
        out: dict[str, str] = {}
        for key in ("extra_effort", "keep_safe", "burden"):
            try:
                self.spec_with(gm, member, attr, spec, {key: True})
            except RuleError as exc:
                out[key] = str(exc)
        if spec.burden:
            out["burden"] = "Already in this test."
        elif not member.adv.burden:
            out["burden"] = "No burden."
        elif gm.c.settings.get("burden_used", {}).get(member.id) == gm.c.stats.expeditions:
            out["burden"] = "Once per session: already used on this expedition."
        if spec.help:
            out["help"] = "Already helped."
        elif gm.c.phase is Phase.COMBAT:
            out["help"] = "In a fight, helping is an action of its own (Help another)."
        elif any(_trauma_blocks_help(gm, t) for t in member.adv.character.traumas):
            out["help"] = "Cannot receive help."
        return out

    @staticmethod
    def helpers(gm: GM, member: Member, attr: Attr) -> list[tuple[str, str]]:
        """Who may help: the others standing, not sleepy ("Can't use extra effort or help friends on tests")."""
        out = []
        for m in gm.c.party:
            ch = m.adv.character
            if m.id == member.id or ch.condition is not Condition.ACTIVE or "sleepy" in ch.afflictions:
                continue
            out.append((m.id, m.name))
        return out

    # --- asking ---------------------------------------------------------------------------------------------

    def _ask(self, kind: str, **payload: Any) -> Any:
        self.asked.append(kind)
        if self.before_asking is not None:
            self.before_asking()  # the screen shows the step as it stands (the enemies' phase) before the question
        return self.ask(kind, payload)

    def _ask_dialogs(self, kind: str, p: dict[str, Any]) -> Any:
        """The default ``ask``: the dice tray for tests, a small dialog of buttons for the rest."""
        if kind in ("before_test", "reroll", "after_test"):
            return self._ask_tray(kind, p)
        if kind == "tester":
            return tester_dialog(self.parent, p["action"], p["chances"])
        member = p.get("member")
        who = member.name if member is not None else "The party"
        if kind == "wound" and member is not None:
            ch = member.adv.character
            labels = []
            for a, convert in p["options"]:
                st = ch.attrs[a]
                how = "turn a fatigue into a wound" if convert else "a fresh wound"
                labels.append(f"{a.value} ({st.available} of {st.score} available) — {how}")
            i = choose_dialog(self.parent, f"{who}: where does the wound go?", labels,
                              "“A wound may be placed on any attribute that can hold it.”", self._keep())  # fmt: skip
            return p["options"][i]
        if kind == "armour":
            parts = p["parts"]
            labels = [f"{armour_label(part.name)} (AP {part.ap})" for part in parts] + ["No armour"]
            i = choose_dialog(self.parent, f"{who} takes {p['wounds']} wound(s): roll which armour?", labels,
                              "Each armour die that rolls its AP or less blocks a wound.", self._keep())  # fmt: skip
            return parts[i] if i < len(parts) else None
        if kind == "choose":
            i = choose_dialog(self.parent, f"{who}: {p['prompt']}", list(p["options"]), keep=self._keep())
            return p["options"][i]
        return None

    def _keep(self) -> Any:
        """What the player must keep seeing (in a fight, the grid where the enemies just moved: the dice tray and
        the questions once covered it through the whole enemies' phase), or None."""
        keep = getattr(self.parent, "keep_in_sight", None)
        return keep() if keep is not None else None

    def _place(self, tray: Any) -> None:
        rect = self._keep()
        if rect is not None:
            tray.place_away(rect)

    def _ask_tray(self, kind: str, p: dict[str, Any]) -> Any:
        from desktop.widgets.dice_tray import DiceTray

        member = p["member"]
        if kind == "before_test" or self.tray is None:
            if self.tray is None:
                from desktop.widgets.dice_tray import TUMBLE_MS

                self.tray = DiceTray(self.parent)
                speed = int(getattr(self.settings, "animation_speed", 0) or 0)
                self.tray.animation_ms = TUMBLE_MS.get(speed, 0)
            if kind == "before_test":
                title = f"{member.name} tests {p['attr'].value} — {p['reason']}"
                self.tray.prepare(p["spec"], title=title, make_spec=p["make_spec"], unavailable=p["unavailable"],
                                  helpers=p["helpers"])  # fmt: skip
                self._place(self.tray)
                return self.tray.wait()
        tray = self.tray
        if kind == "reroll":
            test: TestRoll = p["test"]
            tray.show_roll(test, title=None if tray.stage != "idle" else f"{member.name}'s roll")
            self._place(tray)
            return tray.wait()
        if kind == "after_test":
            tray.show_outcome(p["test"])
            self._place(tray)
            tray.wait()
            self.finish()
        return None


def _trauma_blocks_help(gm: GM, name: str) -> bool:
    for t in gm.content.character.traumas:
        if t.name.lower() == name.lower():
            return bool(t.no_help_received)
    return False


#: The keys of a decision (the Help menu lists them).
CHOICE_KEYS = (
    ("1–9", "The numbered answer"),
    ("Tab / Shift+Tab, Space", "Go to an answer and take it"),
    ("Esc", "Nothing: the question must be answered (the step is under way); the dialog says so"),
)


class DecisionDialog(QDialog):
    """A question inside a step, one button per answer.  It has no way out but an answer: Esc and the
    window's X leave it open and say so (closing it once silently took the first answer).  Keys pressed
    before it showed, or held down, do not answer it (:class:`desktop.keys.DialogKeyGuard`)."""

    def __init__(self, parent: QWidget | None, prompt: str, labels: list[str], rule: str = "") -> None:
        from desktop.keys import DialogKeyGuard

        super().__init__(parent)
        self.setObjectName("choose_dialog")
        self.setWindowTitle("A decision")
        self.setMinimumWidth(420)
        self.chosen: int | None = None
        col = QVBoxLayout(self)
        col.setContentsMargins(18, 14, 18, 14)
        head = QLabel(prompt)
        head.setTextFormat(Qt.TextFormat.PlainText)  # an escaped "Swarm&#x27;s" showed as is
        head.setProperty("role", "heading")
        head.setWordWrap(True)
        col.addWidget(head)
        if rule:
            quote = QLabel(f"<i>{escape(rule)}</i>")
            quote.setProperty("role", "muted")
            quote.setWordWrap(True)
            col.addWidget(quote)
        self.buttons: list[QPushButton] = []
        for i, text in enumerate(labels):
            b = QPushButton(f"{i + 1}. {text}")
            b.setObjectName(f"choice:{i}")
            b.setStyleSheet("text-align: left;")
            if i < 9:
                b.setShortcut(str(i + 1))
            b.clicked.connect(lambda _=False, i=i: self.pick(i))
            col.addWidget(b)
            self.buttons.append(b)
        self.note = QLabel("")
        self.note.setObjectName("choose_note")
        self.note.setProperty("role", "danger")
        self.note.setWordWrap(True)
        self.note.hide()
        col.addWidget(self.note)
        self.setWindowModality(Qt.WindowModality.ApplicationModal)
        self.key_guard = DialogKeyGuard(self)

    def pick(self, i: int) -> None:
        self.chosen = i
        self.accept()

    def reject(self) -> None:
        self.note.setText("This must be answered: the step is under way and nothing has been chosen yet. "
                          "Pick one of the answers above.")  # fmt: skip
        self.note.show()
        self.adjustSize()  # room for the note, not squeezed under the answers


def choose_dialog(parent: QWidget | None, prompt: str, labels: list[str], rule: str = "", keep: Any = None) -> int:
    """A modal question with one button per answer; the index chosen (it cannot be closed unanswered).  ``keep``:
    a rectangle of the screen it stands beside rather than over (the fight's grid while the enemies act)."""
    dlg = DecisionDialog(parent, prompt, labels, rule)
    if keep is not None:
        from desktop.widgets.dice_tray import place_beside

        place_beside(dlg, keep)
    dlg.exec()
    if dlg.chosen is None:  # only when the application closes it (quitting): the step in flight is not saved
        raise RuntimeError("the question was closed without an answer")
    return dlg.chosen


class TesterDialog(QDialog):
    """Who makes the test of the action about to be taken: one button per adventurer who may, with their exact
    odds, best first (the default: Enter takes it).  Nothing has happened yet: Esc takes the action back."""

    def __init__(self, parent: QWidget | None, action: Action, chances: list[Chance]) -> None:
        from desktop.keys import DialogKeyGuard

        super().__init__(parent)
        self.setObjectName("tester_dialog")
        self.setWindowTitle("Who tries it?")
        self.setMinimumWidth(580)
        self.chosen: str | None = None
        col = QVBoxLayout(self)
        col.setContentsMargins(18, 14, 18, 14)
        head = QLabel(f"Who tries it? {action.label}")
        head.setTextFormat(Qt.TextFormat.PlainText)
        head.setProperty("role", "heading")
        head.setWordWrap(True)
        col.addWidget(head)
        note = QLabel("The exact odds of each, with their afflictions, fatigue and wounds as they stand now.")
        note.setProperty("role", "muted")
        note.setWordWrap(True)
        col.addWidget(note)
        self.buttons: list[QPushButton] = []
        for i, c in enumerate(chances):
            best = " — best odds" if i == 0 else ""
            b = QPushButton(f"{i + 1}. {c.name}{best}\n    {c.text()}")
            b.setObjectName(f"tester:{c.who}")
            b.setStyleSheet("text-align: left;")
            if i < 9:
                b.setShortcut(str(i + 1))
            if i == 0:
                b.setDefault(True)
                b.setProperty("role", "primary")
            b.clicked.connect(lambda _=False, who=c.who: self.pick(who))
            col.addWidget(b)
            self.buttons.append(b)
        back = QPushButton("Not now (Esc)")
        back.setObjectName("tester_cancel")
        back.setAutoDefault(False)
        back.clicked.connect(self.reject)
        col.addWidget(back, 0, Qt.AlignmentFlag.AlignRight)
        self.setWindowModality(Qt.WindowModality.ApplicationModal)
        self.key_guard = DialogKeyGuard(self)

    def pick(self, who: str) -> None:
        self.chosen = who
        self.accept()


def tester_dialog(parent: QWidget | None, action: Action, chances: list[Chance]) -> str:
    """The adventurer chosen for ``action``'s test, or ``""`` when the player took the action back."""
    dlg = TesterDialog(parent, action, chances)
    dlg.exec()
    chosen = dlg.chosen or ""
    dlg.removeEventFilter(dlg.key_guard)
    dlg.deleteLater()
    return chosen
