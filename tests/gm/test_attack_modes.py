"""Attack modes (issue #12): a manoeuvre made as an attack changes the blow through its handler in
``combat_actions.ATTACK_MODES``, registered by mode, not an if-chain inside ``attack``.

Each test plays the same loaded attack twice, plainly and with the manoeuvre, so the difference is the mode's.
"""

from __future__ import annotations

from rules.attributes import Attr
from rules.content.registry import load_content
from rules.gm import combat_actions
from rules.gm.engine import GM
from tests.gm.test_combat import arena, cs_of, load, put

CONTENT = load_content()


def _blow(manoeuvre: str | None, *faces: int, stunned: bool = False) -> tuple[GM, int]:
    """A Falchion attack on a Hobgoblin with no armour (plain, or as ``manoeuvre``): the game and its wounds."""
    gm = arena([("Hobgoblin", 1)])
    cs = cs_of(gm)
    f, foe = cs.fighters[0], cs.foes[0]
    put(gm, f, 6, 1)
    put(gm, foe, 7, 1)
    foe.ap = 0
    foe.stun = 1 if stunned else 0
    load(gm, *faces)
    if manoeuvre is None:
        gm.apply(f"attack:{f.id}:Falchion:{foe.id}")
    else:
        gm.c.member(f.id).adv.manoeuvres = [manoeuvre]
        gm.apply(f"manoeuvre:{f.id}:{manoeuvre.lower()}:Falchion:{foe.id}")
    return gm, foe.wounds


def test_every_attack_mode_is_a_manoeuvre_of_the_content() -> None:
    names = {m.name.lower() for b in CONTENT.classes.backgrounds for m in b.manoeuvres}
    assert set(combat_actions.ATTACK_MODES) <= names
    assert all(m.wounds or m.hit or m.missed or m.thrown for m in combat_actions.ATTACK_MODES.values())


def test_a_reckless_attack_deals_a_wound_more_and_leaves_the_attacker_open() -> None:
    _, plain = _blow(None, 5, 3)
    gm, reckless = _blow("Reckless attack", 5, 3)
    assert plain > 0 and reckless == plain + 1
    assert cs_of(gm).fighters[0].reckless


def test_a_clean_kill_doubles_the_wounds_on_an_immobilised_enemy_only() -> None:
    _, plain = _blow(None, 5, 3, stunned=True)
    _, free = _blow("Clean Kill", 5, 3)
    _, held = _blow("Clean Kill", 5, 3, stunned=True)
    assert (plain, free, held) == (2, 2, 5)  # the Falchion's 3 wounds, one resisted; doubled: 6, one resisted


def test_an_incapacitating_strike_deals_one_wound_and_costs_the_enemy_its_turn() -> None:
    _, plain = _blow(None, 6, 6)
    gm, wounds = _blow("Incapacitating strike", 6, 6)
    cs = cs_of(gm)
    assert plain > 1 and wounds == 0  # a critical hit held to one wound, and the Hobgoblin resists one
    assert cs.foes[0].immobilized_round >= cs.round


def test_a_failed_glorious_finish_tires_the_gladiator() -> None:
    gm, wounds = _blow("Glorious finish", 1, 2)
    m = gm.c.party[0]
    assert wounds == 0 and m.adv.character.attrs[Attr.PRE].fatigue == 1
