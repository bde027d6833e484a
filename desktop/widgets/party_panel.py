"""The party: one card per adventurer, drawn from the campaign state after every step.

Each card: name, class, condition, the four attributes as dice (■ available, ◩ fatigued, ✖ wounded) with
their proficiency, afflictions and traumas as tags (their rule text as tooltip, from the content), combat
tokens while fighting, the light carried and its usage die, silver.  Nothing here is computed by a rule of
its own: every number is read off :class:`~rules.character.Character` and the expedition state.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop.theme import COLORS
from rules.attributes import ATTRS
from rules.character import Condition

if TYPE_CHECKING:
    from desktop.session import Session
    from rules.gm.state import Campaign, Member

AVAILABLE, FATIGUED, WOUNDED = "■", "◩", "✖"

ATTR_NAMES = {"STR": "Strength", "DEX": "Dexterity", "INT": "Intelligence", "PRE": "Presence"}

DICE_HELP = (
    "<b>{name}</b> — score {score}, {avail} available<br>"
    f"{AVAILABLE} available die &nbsp; {FATIGUED} fatigued &nbsp; {WOUNDED} wounded<br>"
    "Proficiency {prof}: reroll up to {prof} dice of a test.<br>"
    "<i>“Each fatigue or wound point that the character has on that attribute reduces the available dices of "
    "that attribute by one.”</i>"
)


def dice_html(score: int, fatigue: int, wounds: int) -> str:
    """An attribute's dice as coloured glyphs: available, then fatigued, then wounded."""
    c = COLORS
    avail = max(0, score - fatigue - wounds)
    parts = [f"<span style='color:{c['paper']}'>{AVAILABLE * avail}</span>"]
    if fatigue:
        parts.append(f"<span style='color:{c['gold']}'>{FATIGUED * fatigue}</span>")
    if wounds:
        parts.append(f"<span style='color:{c['danger']}'>{WOUNDED * wounds}</span>")
    if score <= 0:
        parts = [f"<span style='color:{c['muted']}'>—</span>"]
    return "".join(parts)


class Tag(QLabel):
    """A small coloured tag (an affliction, a trauma, a condition, a token)."""

    def __init__(self, text: str, tip: str = "", tone: str = "danger", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        colour = COLORS.get(tone, COLORS["danger"])
        self.setObjectName("tag")
        self.setStyleSheet(
            f"QLabel#tag {{ color: {colour}; border: 1px solid {colour}; border-radius: 3px; padding: 0px 5px; "
            f"background: {COLORS['shadow'] if 'shadow' in COLORS else COLORS['bg']}; font-size: 8.5pt; }}"
        )
        if tip:
            self.setToolTip(tip)


class FlowRow(QWidget):
    """Tags side by side, wrapping onto new rows by count (a simple flow for narrow cards)."""

    def __init__(self, per_row: int = 3, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.per_row = per_row
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setHorizontalSpacing(4)
        self.grid.setVerticalSpacing(3)

    def add(self, w: QWidget) -> None:
        n = self.grid.count()
        self.grid.addWidget(w, n // self.per_row, n % self.per_row, Qt.AlignmentFlag.AlignLeft)


class MemberCard(QFrame):
    """One adventurer's card."""

    def __init__(self, session: Session, member: Member, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.member_id = member.id
        self.setProperty("role", "panel")
        self.setObjectName(f"card:{member.id}")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.build(member)

    def build(self, m: Member) -> None:
        s = self.session
        c = s.campaign
        ch = m.adv.character
        col = QVBoxLayout(self)
        col.setContentsMargins(10, 8, 10, 8)
        col.setSpacing(4)

        top = QHBoxLayout()
        name = QLabel(m.name)
        name.setProperty("role", "heading")
        name.setObjectName("name")
        name.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        top.addWidget(name, 1)
        silver = QLabel(f"{ch.silver} s")
        silver.setProperty("role", "gold")
        silver.setObjectName("silver")
        silver.setToolTip(f"{m.name} carries {ch.silver} silver.")
        top.addWidget(silver)
        col.addLayout(top)

        klass = " · ".join(x for x in (m.adv.klass, m.adv.background or m.adv.school or m.adv.god) if x)
        sub = QLabel(klass or "Adventurer")
        sub.setProperty("role", "muted")
        sub.setObjectName("class")
        sub.setWordWrap(True)
        sub.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        col.addWidget(sub)

        if ch.condition is not Condition.ACTIVE:
            tone = "danger"
            tip = {
                Condition.COLLAPSED: "Collapsed from exhaustion: cannot act until they come to.",
                Condition.MORTALLY_WOUNDED: "Mortally wounded: must be stabilised; more damage kills.",
                Condition.DEAD: "Dead.",
            }.get(ch.condition, "")
            cond = QLabel(ch.condition.value.upper())
            cond.setProperty("role", tone)
            cond.setObjectName("condition")
            cond.setToolTip(tip)
            col.addWidget(cond)

        grid = QGridLayout()
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(1)
        for row, a in enumerate(ATTRS):
            st = ch.attrs[a]
            lab = QLabel(a.value)
            lab.setProperty("role", "gold")
            dice = QLabel(dice_html(st.score, st.fatigue, st.wounds))
            dice.setObjectName(f"dice:{a.value}")
            dice.setTextFormat(Qt.TextFormat.RichText)
            dice.setStyleSheet("font-size: 12pt; letter-spacing: 2px;")
            prof = QLabel("◆" * st.proficiency if st.proficiency else "")
            prof.setProperty("role", "gold")
            prof.setObjectName(f"prof:{a.value}")
            tip = DICE_HELP.format(name=ATTR_NAMES.get(a.value, a.value), score=st.score, avail=st.available,
                                   prof=st.proficiency)  # fmt: skip
            for w in (lab, dice, prof):
                w.setToolTip(tip)
            grid.addWidget(lab, row, 0)
            grid.addWidget(dice, row, 1)
            grid.addWidget(prof, row, 2, Qt.AlignmentFlag.AlignRight)
        grid.setColumnStretch(1, 1)
        col.addLayout(grid)

        tags = self.tags(m)
        if tags:
            flow = FlowRow(3)
            for t in tags:
                flow.add(t)
            col.addWidget(flow)

        line = self.status_line(m)
        if line:
            status = QLabel(line)
            status.setObjectName("status")
            status.setTextFormat(Qt.TextFormat.RichText)
            status.setWordWrap(True)
            col.addWidget(status)
        _ = c

    def tags(self, m: Member) -> list[Tag]:
        ch = m.adv.character
        content = self.session_content()
        afflictions = {a.name.lower(): a for a in content.character.afflictions} if content else {}
        traumas = {t.name.lower(): t for t in content.character.traumas} if content else {}
        out: list[Tag] = []
        for name in sorted(ch.afflictions):
            entry = afflictions.get(name.lower())
            tip = f"<b>{escape(name.capitalize())}</b>"
            if entry is not None:
                tip += f"<br>{escape(entry.effect)}<br><i>Cure: {escape(entry.cure)}</i>"
            tag = Tag(name.lower(), tip, "danger")
            tag.setObjectName("tag")
            tag.setProperty("affliction", name)
            out.append(tag)
        for name in sorted(ch.traumas):
            tr = traumas.get(name.lower())
            tip = f"<b>{escape(name)}</b>" + (f"<br>{escape(tr.text)}" if tr is not None else "")
            out.append(Tag(name.lower(), tip, "muted"))
        return out

    def session_content(self) -> Any:
        from desktop.session import content

        try:
            return content()
        except Exception:  # the content failing to load is reported elsewhere
            return None

    def status_line(self, m: Member) -> str:
        """Light carried, combat tokens, insight: the small print under the dice."""
        return status_line(self.session.campaign, m)


def status_line(c: Campaign, m: Member) -> str:
    """Light carried, combat tokens, insight: the small print under a card's dice."""
    ch = m.adv.character
    col = COLORS
    bits: list[str] = []
    exp = c.expedition
    if m.lit:
        die = exp.light_burns.get(m.id) if exp is not None else None
        use = f" Ud{die}" if die else ""
        bits.append(f"<span style='color:{col['gold']}'>☼ {escape(m.lit)}{use}</span>")
    cs = c.combat
    if cs is not None:
        try:
            f = cs.fighter(m.id)
        except KeyError:
            f = None
        if f is not None:
            toks = []
            if f.actions:
                toks.append(f"{f.actions} act")
            if f.dodge:
                toks.append(f"{f.dodge} dodge")
            if f.shield:
                toks.append(f"{f.shield} shield")
            if f.stun:
                toks.append(f"{f.stun} stun")
            if f.fast:
                toks.append("fast")
            if toks:
                bits.append(f"<span style='color:{col['ink']}'>{' · '.join(toks)}</span>")
    bits.append(f"<span style='color:{col['muted']}'>insight {ch.insight}</span>")
    return " &nbsp; ".join(bits)


def card_face(c: Campaign, m: Member) -> str:
    """Everything :meth:`MemberCard.build` shows of ``m``, as a string: a step that leaves it as it was leaves the
    card as it was (a torch's burning, a move on the fight's grid, an item used change a member but not the card,
    and rebuilding it cost 10-30 ms).  Kept beside ``build``: a part added there is added here."""
    ch = m.adv.character
    attrs = [(a.value, ch.attrs[a].score, ch.attrs[a].fatigue, ch.attrs[a].wounds, ch.attrs[a].proficiency,
              ch.attrs[a].available) for a in ATTRS]  # fmt: skip
    return repr(
        (
            m.id,
            m.name,
            ch.silver,
            m.adv.klass,
            m.adv.background,
            m.adv.school,
            m.adv.god,
            ch.condition.value,
            attrs,
            sorted(ch.afflictions),
            sorted(ch.traumas),
            status_line(c, m),
        )
    )


class PartyPanel(QWidget):
    """The party's cards, top to bottom; :meth:`refresh` rebuilds them from the session."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setObjectName("party_panel")
        self.setMinimumWidth(250)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        head = QLabel("The Party")
        head.setProperty("role", "subtitle")
        outer.addWidget(head)
        self.scroller = QScrollArea(self)
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        self.scroller.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the buttons inside, not to the area
        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer.addWidget(self.scroller, 1)
        self.cards: dict[str, MemberCard] = {}
        self._column: QVBoxLayout | None = None  # the cards' column, kept between steps
        self._roster: str | None = None
        self._cards: dict[str, str] = {}
        self.refresh()

    def _signatures(self) -> tuple[str, dict[str, str]]:
        """What the panel shows, as strings: the roster (who, in what order, and the fallen) and each card's
        contents.  A step that changes none of it redraws nothing; one that changes a card redraws that card."""
        c = self.session.campaign
        cards = {m.id: card_face(c, m) for m in c.party}
        roster = repr(([m.id for m in c.party], [(m.name, m.fate) for m in c.fallen], c.combat is not None))
        return roster, cards

    def refresh(self) -> None:
        roster, cards = self._signatures()
        col = self._column
        if roster == self._roster and col is not None:
            shown = self._cards
            for m in self.session.campaign.party:
                if shown.get(m.id) == cards[m.id]:
                    continue
                # only the card that changed is built again (the whole panel anew was ~50 ms of every step)
                old = self.cards[m.id]
                card = MemberCard(self.session, m, old.parentWidget())
                col.replaceWidget(old, card)
                old.hide()
                old.deleteLater()
                self.cards[m.id] = card
            self._cards = cards
            return
        self._roster, self._cards = roster, cards
        inner = QWidget()
        col = QVBoxLayout(inner)
        col.setContentsMargins(0, 0, 4, 0)
        col.setSpacing(6)
        self._column = col
        self.cards = {}
        for m in self.session.campaign.party:
            card = MemberCard(self.session, m, inner)
            self.cards[m.id] = card
            col.addWidget(card)
        fallen = self.session.campaign.fallen
        if fallen:
            lost = QLabel("Fallen: " + ", ".join(m.name for m in fallen[-4:]))
            lost.setProperty("role", "muted")
            lost.setWordWrap(True)
            lost.setToolTip("<br>".join(f"{escape(m.name)} — {escape(m.fate)}" for m in fallen))
            col.addWidget(lost)
        col.addStretch(1)
        self.scroller.setWidget(inner)
