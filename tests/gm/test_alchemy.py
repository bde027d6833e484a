"""Alchemy (#13): extracts from the dead, Transmute by the Yig/Grai recipes, potions drunk and thrown."""

from __future__ import annotations

from rules.attributes import Attr
from rules.content.registry import load_content
from rules.gm import alchemy, exploration, powers
from rules.gm.engine import GM
from rules.gm.state import GroupState
from rules.inventory import Carried, Inventory
from rules.magic import Spellbook
from tests.gm.scripted import corridor, game
from tests.gm.test_combat import arena, load, put
from tests.gm.test_fight_powers import hall

CONTENT = load_content()


def alchemist(gm: GM, idx: int = 0) -> str:
    m = gm.c.party[idx]
    m.adv.character.traits.append("Magic user")
    m.adv.inventory.add(Carried("Alchemic kit", ""))
    m.adv.spellbook = Spellbook(known=["Transmute"], memorised=["Transmute"])
    return m.id


def bag() -> Inventory:
    inv = Inventory.body()
    inv.add_container("Bag", 4)
    return inv


def test_two_different_extracts_share_a_slot_and_one_kind_stacks() -> None:
    inv = bag()
    for kind in ("flame", "flame", "water", "ether"):
        assert alchemy.add_extract(inv, kind)
    assert alchemy.extracts(inv) == {"flame": 2, "water": 1, "ether": 1}
    assert inv.used("Bag") == 2  # flame+water in one slot, ether in another
    alchemy.spend_extracts(inv, {"flame": 2})
    assert alchemy.extracts(inv) == {"water": 1, "ether": 1} and inv.used("Bag") == 2


def test_every_recipe_is_made_by_the_smallest_mix_whose_numbers_add_up() -> None:
    vectors = {e.kind: (e.yig, e.grai) for e in CONTENT.alchemy.extracts}
    have = {k: 4 for k in vectors}
    made = alchemy.mixes(CONTENT, have)
    assert {r.name for r, _ in made} == {r.name for r in CONTENT.alchemy.recipes}
    for recipe, mix in made:
        assert sum(vectors[k][0] * n for k, n in mix.items()) == recipe.yig
        assert sum(vectors[k][1] * n for k, n in mix.items()) == recipe.grai
    assert dict(made[0][1]) == {"ether": 2} and made[0][0].name == "Healing tonic"  # Yig 2, Grai 0


def slain(monster: str, n: int) -> tuple[GM, str]:
    """The party in room 1 with ``n`` dead ``monster`` on the floor (the fight is over)."""
    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    who = alchemist(gm)
    gm.room_state().monsters.append(GroupState(monster, 0, killed=n))
    return gm, who


def test_a_corpse_gives_its_extract_once() -> None:
    with_extract = next(m for m in CONTENT.bestiary.monsters if m.extract)
    gm, who = slain(with_extract.name, 1)
    gm.apply(f"extract:{who}")
    assert not any(a.kind == "extract" for a in gm.legal_actions())


def test_extracts_come_from_the_monsters_whose_sheet_names_one() -> None:
    with_extract = next(m for m in CONTENT.bestiary.monsters if m.extract)
    gm, who = slain(with_extract.name, 3)
    m = gm.c.member(who)
    m.adv.character.attrs[Attr.INT].proficiency = 1
    action = next(a for a in gm.legal_actions() if a.id == f"extract:{who}")
    assert "(2 of 3" in action.label
    gm.apply(action)
    assert alchemy.extracts(m.adv.inventory) == {with_extract.extract: 2}  # one corpse, and one for INT proficiency
    assert alchemy.remains(gm) == [(with_extract.name, with_extract.extract)]


def test_transmute_brews_the_chosen_potion_and_it_heals_when_drunk() -> None:
    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    who = alchemist(gm)
    m = gm.c.member(who)
    for _ in range(2):
        alchemy.add_extract(m.adv.inventory, "ether")
    power = powers.handler("spell", "Transmute")
    assert power is not None and power.outside is not None and power.ready is not None
    assert power.ready(gm, m) is None
    power.outside(gm, m)  # the GM-decides player: the first recipe listed, the healing tonic
    tonic = m.adv.inventory.find("Healing tonic")
    assert tonic is not None and tonic.usage == 4 and alchemy.extracts(m.adv.inventory) == {}
    m.adv.character.afflictions.clear()
    m.adv.character.attrs[Attr.INT].wounds = 1
    use = next(a for a in gm.legal_actions() if a.kind == "use_item" and a.param("item") == "Healing tonic")
    gm.apply(use)
    assert m.adv.character.attrs[Attr.INT].wounds == 0


def test_transmute_says_why_not_without_extracts() -> None:
    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    who = alchemist(gm)
    cast = next(a for a in gm.legal_actions() if a.id == f"cast:{who}:Transmute")
    assert cast.reason == "No elemental extracts: take them from the dead first."


def test_an_explosive_potion_thrown_in_a_fight_wounds_the_tile_and_those_close() -> None:
    gm = arena([("Plagued Rat", 2)])
    cs = hall(gm)
    f = cs.fighters[0]
    a, b = cs.foes
    put(gm, f, 5, 1)
    put(gm, a, 9, 1)
    put(gm, b, 10, 1)
    gm.c.member(f.id).adv.inventory.add(Carried("Explosive potion", ""))
    load(gm)
    gm.apply(f"throw:{f.id}:Explosive potion:{a.id}")
    assert (a.wounds, b.wounds) == (2, 1)
    assert gm.c.member(f.id).adv.inventory.find("Explosive potion") is None


def test_a_mercurial_tonic_gives_an_extra_action_until_its_die_runs_out() -> None:
    gm = arena([("Hobgoblin", 1)])
    cs = hall(gm)
    f = cs.fighters[0]
    put(gm, cs.foes[0], 14, 1)
    gm.c.member(f.id).adv.inventory.add(Carried("Mercurial tonic", ""))
    before = f.actions
    gm.apply(f"item:{f.id}:Mercurial tonic:{f.id}")
    assert f.actions == before - 1 + 1 and "Mercurial tonic" in f.effects


def test_in_camp_transmute_is_a_free_action() -> None:
    """"Transmute: 2 actions in combat, 1 exploration turn or free action during camp." """
    gm = game(corridor(3, r1={"camp": frozenset({"dry"})}))
    exploration.enter(gm, "test-site")
    who = alchemist(gm)
    m = gm.c.member(who)
    gm.apply("camp")
    gm.apply("settle")
    act = next(a for a in gm.legal_actions() if a.id == f"transmute:{who}")
    assert act.reason == "No elemental extracts: take them from the dead first."
    for _ in range(2):
        alchemy.add_extract(m.adv.inventory, "ether")
    act = next(a for a in gm.legal_actions() if a.id == f"transmute:{who}")
    assert act.available and act.cost.actions == 0
    assert str(act.cost) == "free" and "(free)" not in act.label  # the cost says it: not "(free) (free)"
    assert gm.c.camp is not None
    spent = gm.c.camp.spent
    events = gm.apply(act.id)
    assert m.adv.inventory.find("Healing tonic") is not None and any(e.kind == "transmute" for e in events)
    assert any(e.kind == "spell_test" for e in events) and gm.c.camp is not None and gm.c.camp.spent == spent


def test_the_brew_is_told_with_its_article() -> None:
    """"into a anti-poison tonic" (a playtest): the article follows the potion's name."""
    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    m = gm.c.member(alchemist(gm))
    alchemy.add_extract(m.adv.inventory, "water")
    power = powers.handler("spell", "Transmute")
    assert power is not None and power.outside is not None
    start = len(gm.events)
    power.outside(gm, m)
    told = [e.text for e in gm.events[start:] if e.kind == "transmute"]
    assert told and " into an anti-poison tonic" in told[0], told


def test_recalling_a_spell_shows_its_odds_and_its_dice() -> None:
    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    who = alchemist(gm)
    book = gm.c.member(who).adv.spellbook
    assert book is not None
    book.forgotten.append("Transmute")
    recall = next(a for a in gm.legal_actions() if a.kind == "concentrate")
    assert "INT " in recall.label and "%" in recall.label and "mishap" in recall.label
    events = gm.apply(recall)
    assert any(e.kind == "test" and "recalling Transmute" in e.text for e in events), [e.text for e in events]


def test_a_potion_is_offered_for_a_downed_companion_too() -> None:
    """"You can also give or use an item on someone in the same tile": the alchemist's tonic was offered only to
    whom the engine thought best (the drinker), never to the collapsed companion beside them."""
    from rules.character import Condition

    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    who = alchemist(gm)
    me, ally = gm.c.member(who), gm.c.party[1]
    me.adv.inventory.add(Carried("Healing tonic", "", rarity="uncommon", usage=4))
    for m in (me, ally):
        m.adv.character.afflictions.clear()
    me.adv.character.attrs[Attr.INT].wounds = 2
    ally.adv.character.attrs[Attr.DEX].wounds = 1
    ally.adv.character.condition = Condition.COLLAPSED
    uses = [a for a in gm.legal_actions() if a.kind == "use_item" and a.param("item") == "Healing tonic"]
    assert [a.target for a in uses] == [me.id, ally.id]  # the one it helps most first
    gm.apply(f"use:{who}:Healing tonic:{ally.id}")
    assert ally.adv.character.attrs[Attr.DEX].wounds == 0 and me.adv.character.attrs[Attr.INT].wounds == 2


def test_extract_and_transmute_are_greyed_not_hidden_while_creatures_share_the_room() -> None:
    with_extract = next(m for m in CONTENT.bestiary.monsters if m.extract)
    gm, who = slain(with_extract.name, 2)
    alchemy.add_extract(gm.c.member(who).adv.inventory, "ether")
    alchemy.add_extract(gm.c.member(who).adv.inventory, "ether")
    gm.room_state().monsters.append(GroupState("Hobgoblin", 2, aware=True, attitude="neutral"))
    listed = {a.id: a for a in gm.legal_actions()}
    for key in (f"extract:{who}", f"cast:{who}:Transmute"):
        assert not listed[key].available and listed[key].reason == "Not with enemies here."


def test_the_rooms_dead_that_would_rise_give_their_extract_once() -> None:
    """R205: "Elemental extracts can be found in corpses": the alchemist playtest stood among soldiers dead in
    their bunks and could take nothing (only slain monsters counted)."""
    from rules.gm.site import SiteCorpse

    risen = next(m for m in CONTENT.bestiary.monsters if "undead" in m.tags and m.extract)
    corpses = (SiteCorpse("a soldier in his bunk", rises_as=risen.name), SiteCorpse("bones, long picked clean"))
    gm = game(corridor(3, r1={"corpses": corpses}))
    exploration.enter(gm, "test-site")
    who = alchemist(gm)
    assert alchemy.remains(gm) == [("corpse #0", risen.extract)]
    events = gm.apply(f"extract:{who}")
    assert alchemy.extracts(gm.c.member(who).adv.inventory) == {risen.extract: 1}
    assert "(a corpse)" in next(e.text for e in events if e.kind == "extract")
    assert alchemy.remains(gm) == [] and not any(a.kind == "extract" for a in gm.legal_actions())


def test_in_camp_transmute_shows_the_odds_of_keeping_it() -> None:
    """Playtest seed 101, the camp in the Locked Dormitory: out of camp Transmute read "INT 75% to keep it", in
    camp it read only "transmute extracts into a potion": the INT test that follows was not in sight."""
    from rules.odds import odds

    gm = game(corridor(3, r1={"camp": frozenset({"dry"})}))
    exploration.enter(gm, "test-site")
    who = alchemist(gm)
    m = gm.c.member(who)
    alchemy.add_extract(m.adv.inventory, "ether")
    alchemy.add_extract(m.adv.inventory, "ether")
    gm.apply("camp")
    gm.apply("settle")
    keep = odds(m.adv.character.test_spec(Attr.INT)).success
    act = next(a for a in gm.legal_actions() if a.id == f"transmute:{who}")
    assert act.label == f"{m.name}: transmute extracts into a potion (INT {keep:.0%} to keep it)"
    m.adv.spellbook.arcane_well = True
    act = next(a for a in gm.legal_actions() if a.id == f"transmute:{who}")
    assert act.label.endswith("(INT 100% to keep it)")


def test_an_anti_poison_tonic_is_no_use_to_one_who_is_not_poisoned() -> None:
    """Playtest seed 101, the Grave Crawlers' ambush: "use Anti-poison tonic on themself" was offered to an
    alchemist who was not nauseated (the engine's only poison): its tag 'cure_simple_poison' was taken for a
    rule of its own, always of use, when all it does is its remove list."""
    from rules.gm.gear import why_no_use

    gm = game(corridor(3))
    m = gm.c.party[0]
    m.adv.character.afflictions.clear()
    tonic = next(r for r in gm.content.alchemy.recipes if r.name == "Anti-poison tonic")
    assert why_no_use(tonic, m) == f"No use now: it cures nauseated: {m.name} is not nauseated."
    m.adv.character.afflictions.add("nauseated")
    assert why_no_use(tonic, m) is None


def test_the_alchemist_chooses_which_of_the_dead_to_take_from() -> None:
    """Playtest seed 101, the Locked Dormitory: two Reanimated Husks (necro) and two Plagued Rats (rot) lay dead,
    the alchemist could take two and wanted rot (three make a Potion of giants); the engine took the first two
    listed, necro.  Now the player chooses each corpse while there are more than the turn allows (the
    GM-decides pick is the first listed, as before)."""
    from rules.gm.services import AutoDecider

    asked: list[list[str]] = []

    class Rot(AutoDecider):
        def choose(self, gm: GM, member: object, prompt: str, options: list[str]) -> str:  # type: ignore[override]
            if prompt.startswith("Extract"):
                asked.append(options)
                return next(o for o in options if o.startswith("rot"))
            return super().choose(gm, member, prompt, options)  # type: ignore[arg-type]

    gm, who = slain("Reanimated Husk", 2)
    gm.room_state().monsters.append(GroupState("Plagued Rat", 0, killed=2))
    m = gm.c.member(who)
    m.adv.character.attrs[Attr.INT].proficiency = 1
    gm.decider = Rot()
    gm.apply(f"extract:{who}")
    assert alchemy.extracts(m.adv.inventory) == {"rot": 2}
    assert asked == [["necro (Reanimated Husk)", "rot (Plagued Rat)"]] * 2
    assert alchemy.remains(gm) == [("Reanimated Husk", "necro"), ("Reanimated Husk", "necro")]
    gm.decider = AutoDecider()
    asked.clear()
    m.adv.character.attrs[Attr.INT].proficiency = 2  # three picks, two dead left: both, no question
    gm.apply(f"extract:{who}")
    assert alchemy.extracts(m.adv.inventory) == {"rot": 2, "necro": 2} and not asked


def test_transmute_is_greyed_when_the_potion_would_have_nowhere_to_go() -> None:
    """Playtest seed 101, the Locked Dormitory: Transmute was offered with the hands and the bag full; the spell
    was cast, the extracts spent and the Explosive potion "spilt".  Now a mix is offered only when its potion
    fits once its extracts are spent (a spent stack may leave its slot to a partner extract)."""
    from copy import deepcopy

    gm = game(corridor(3))
    exploration.enter(gm, "test-site")
    who = alchemist(gm)
    m = gm.c.member(who)
    inv = m.adv.inventory
    for kind in ("ether", "ether", "necro"):  # the necro shares the ether's slot: spending the ether frees nothing
        assert alchemy.add_extract(inv, kind)
    while inv.room_for(Carried("Rock", "")) is not None:
        inv.add(Carried("Rock", ""))
    before = deepcopy(inv.items)
    act = next(a for a in gm.legal_actions() if a.id == f"cast:{who}:Transmute")
    assert act.reason == "No hand or bag slot free for the potion: drop or give something first."
    inv.remove(next(i for i in inv.items if i.place == "Bag"))
    act = next(a for a in gm.legal_actions() if a.id == f"cast:{who}:Transmute")
    assert act.available and inv.items != before
