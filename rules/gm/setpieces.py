"""Set pieces, skill notes and wants: what ties a generated level together (issue #15), played by the GM (R250, R251).

The generator (``dungeon_gen.pieces``) writes them into the dungeon; they reach the GM as the level's
:class:`~rules.gm.site.SitePiece` list, each room's ``lore`` and each group's :class:`~rules.gm.site.SiteWant`.

* **A set piece** is worked in its *control* room (1 turn; a test of its attribute by the best at it, none for
  someone with its skill, none when it names no test) and changes its *target* room, a few doors away: until it
  is worked, whoever comes into the target defends its hazard (attack notation, as a trap's attack) and the
  target's valuables are out of reach (never a key: a key is never held); once it is worked, what it releases
  comes out into the target (hostile, as wanderers who move on), and its noise advances the doom.  Worked is
  kept per level (``LevelState.worked``); a failed try may be tried again, at another turn's cost.
* **Skill notes**: on the first arrival in a room, each note whose skill someone of the party has is told, by
  them.
* **Wants**: a group that wants something (rations or silver) and is not hostile can be given it (1 turn):
  it turns friendly, says what it says, gives away what it knows (``rules.gm.rewards``' ``info`` and ``way``
  rewards: the master's room, the stairs down, the doom, the room's traps or secrets) and, if it leaves, goes
  its way.

Two entry points for :mod:`rules.gm.exploration`, like :mod:`rules.gm.freeform`: :func:`actions` lists the
actions this module adds and :func:`apply` does one and returns the exploration turns it cost; and two small
hooks: :func:`arrive` (skill notes, the room's state before its piece is worked, the hazard) and :func:`holds`
(loot out of reach).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.attributes import Attr
from rules.gm import encounters, rewards
from rules.gm.encounters import AT_PEACE, FRIENDLY, HOSTILE
from rules.gm.events import Action, Cost
from rules.gm.services import best
from rules.gm.site import SitePiece, SiteReward
from rules.gm.state import GroupState
from rules.notation import parse_attack

if TYPE_CHECKING:
    from rules.gm.services import GM
    from rules.gm.state import Member

KINDS = ("work", "grant")


def _the(name: str) -> str:
    return "the " + name[4:] if name.startswith("The ") else name


def _skilled(gm: GM, piece: SitePiece) -> Member | None:
    if piece.skill is None:
        return None
    return next((m for m in gm.active() if m.adv.character.has_skill(piece.skill)), None)


def _unworked(gm: GM) -> list[tuple[int, SitePiece]]:
    done = gm.level_state().worked
    return [(i, p) for i, p in enumerate(gm.site_level().pieces) if i not in done]


def holds(gm: GM, index: int, room_id: int | None = None) -> bool:
    """Whether the room's loot ``index`` is out of reach until a set piece is worked (a key never is)."""
    room = gm.room(room_id)
    if room.loot[index].name.lower().startswith("key to"):
        return False
    return any(p.holds and p.target == room.id for _, p in _unworked(gm))


def arrive(gm: GM, room_id: int, first_time: bool) -> None:
    """The party comes into ``room_id``: skill notes (the first time), an unworked piece's state, its hazard."""
    room = gm.room(room_id)
    if first_time:
        for skill, text in room.lore:
            who = next((m for m in gm.active() if m.adv.character.has_skill(skill)), None)
            if who is not None:
                gm.emit("lore", f"{who.name} ({skill}): {text}", who=who.id, skill=skill, room=room_id)
    for _, p in _unworked(gm):
        if p.target != room_id:
            continue
        if first_time:
            gm.emit("setpiece", p.before, piece=p.name, room=room_id)
        if p.hazard:
            _hazard(gm, p)


def _hazard(gm: GM, p: SitePiece) -> None:
    attack = parse_attack(p.hazard or "")
    dis = int(attack.modifier is not None and attack.modifier.value == "disadvantage")
    for m in list(gm.active()):
        roll = gm.test(m, attack.attributes[0], _the(p.name).lower(), disadvantage=dis)
        v = roll.verdict
        if not v.success:
            gm.harm(m, attack.wounds(v.critical_failure), p.name, effects=attack.effects_on(v.critical_failure),
                    from_attack=True)  # fmt: skip


def actions(gm: GM) -> list[Action]:
    """Working the room's set pieces, and giving its groups what they want."""
    if gm.c.expedition is None or not gm.active():
        return []
    room = gm.room()
    threat = bool(encounters.unsafe(gm))
    out: list[Action] = []
    for i, p in _unworked(gm):
        if p.control != room.id:
            continue
        how = "" if p.test is None or _skilled(gm, p) else f" ({p.test})"
        out.append(
            Action(
                f"work:{i}",
                "work",
                f"Work {_the(p.name)}{how}",
                Cost(turns=1),
                not threat,
                "Enemies are here." if threat else None,
                target=str(p.target),
                rule="A set piece (1 turn): worked here, it changes another room; a test of its attribute unless "
                "someone has its skill.",
            )
        )
    st = gm.room_state()
    for gi, (g, site) in enumerate(zip(st.monsters, room.monsters, strict=False)):
        want = site.want
        if want is None or g.count <= 0:
            continue
        mood = encounters.mood(gm, room, gi, g)
        if mood in AT_PEACE or mood == HOSTILE:
            continue
        what = _what(want.asks, want.amount)
        have = encounters.holding(gm, want.asks)
        out.append(
            Action(
                f"want:{gi}",
                "grant",
                f"Give {g.count} {g.monster} what they want: {what}",
                Cost(
                    turns=1,
                    silver=want.amount if want.asks == "silver" else 0,
                    items=(f"{want.amount} × Ration",) if want.asks == "food" else (),
                ),
                have >= want.amount,
                None if have >= want.amount else f"You have {have}; they want {what}.",
                rule="A group that wants something turns friendly when it gets it, and tells what it knows.",
            )
        )
    return out


def _what(asks: str, amount: int) -> str:
    return f"{amount} ration{'s' if amount != 1 else ''}" if asks == "food" else f"{amount} silver"


def apply(gm: GM, action: Action) -> int:
    """Do one of :func:`actions`; the exploration turns it cost (the caller ends them)."""
    index = int(action.id.split(":")[1])
    if action.kind == "work":
        _work(gm, index)
    else:
        _give(gm, index)
    return 1


def _work(gm: GM, index: int) -> None:
    p = gm.site_level().pieces[index]
    skilled = _skilled(gm, p)
    if skilled is not None and p.test is not None:
        gm.emit("setpiece", f"{skilled.name} knows how ({p.skill}): no test.", piece=p.name, who=skilled.id)
    elif p.test is not None:
        attr = Attr.parse(p.test)
        roll = gm.test(best(gm, attr), attr, _the(p.name).lower())
        if not roll.verdict.success:
            gm.emit("setpiece", p.failure, piece=p.name, worked=False)
            return
    gm.level_state().worked.append(index)
    gm.emit("setpiece", f"{p.success} {p.after}", piece=p.name, worked=True, room=p.target)
    if p.releases:
        gm.room_state(p.target).monsters.extend(GroupState(name, count, aware=True) for name, count in p.releases)
        gm.emit("monsters", f"Out into room {p.target}: " + ", ".join(f"{c} {n}" for n, c in p.releases) + ".",
                room=p.target, hidden=True)  # fmt: skip
    if p.doom:
        gm.advance_doom(p.doom, _the(p.name))


def _give(gm: GM, index: int) -> None:
    room = gm.room()
    g = gm.room_state().monsters[index]
    want = room.monsters[index].want
    assert want is not None
    encounters.pay(gm, want.asks, want.amount)
    g.attitude = FRIENDLY
    told = f" {want.told}" if want.told else ""
    gm.emit("want", f"{g.count} {g.monster} take {_what(want.asks, want.amount)}.{told}", monster=g.monster,
            paid=want.amount, currency=want.asks)  # fmt: skip
    if want.reveals:
        kind = "way" if want.reveals == "stairs" else "info"
        giver = gm.active()[0]
        rewards.HANDLERS[kind](gm, giver, SiteReward(kind, reveals=want.reveals), f"the {g.monster}")
    if want.leaves:
        going = g.count
        g.fled += going
        g.count = 0
        gm.emit("want", f"{going} {g.monster} go their way.", monster=g.monster)
