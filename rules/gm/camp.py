"""The camp procedure of the automated GM: setup, camp actions, the ambush roll, break camp.

The rules (core "Camp", and the later expedition chapter, which wins):

* **Setup.** The party gathers camp actions: +1 for a dry and stable place,
  +1 per camping supply used, +1 per adventurer with Survivalist, +1 for a
  fire (it needs a camping supply or firewood), +2 for a long rest (doom),
  −1 for a filthy or unhealthy place.  Crafting repairs 2 armour points
  when the camp is set.
* **Camp actions** spend those points: Keep a lookout (1, −1 ambush die), A
  well deserved rest (1: all fatigue, Shaken, prayers), Use camp items (1:
  each adventurer uses one Camp item), Cook some food (1: needs a fire and a
  camping supply used; one ration feeds 2, 3 with Cooking, 4 with Master
  Chef), Memorize spells and prayers (1), Sleep (2: all fatigue, Sleepy and
  Shaken, 1 wound of any attribute, prayers, +1 ambush die).  Quick and slow
  items are free; so are Surgeon and the camp prayer of an angered god;
  Ritualist spends 1 action to take a point off the omens or doom tracker.
* **Ambush.** Exposed place, fire, an earlier camp this expedition, Sleep,
  the doom tracker's ambush dice, Loud snore add dice; each lookout and each
  Paranoid adventurer removes one.  Any 6: a fight with one of the level's
  wandering groups; two 6s or more: the party is surprised.
* **Break camp.** Doom +1, or +2 in all after a long rest (RULINGS R79).
  The whole camp counts as one exploration turn, which exploration spent
  when the camp was set up.

Every number comes from ``tables.toml`` (``[camp]``), ``character.toml``
(skills, traumas, afflictions) and ``items.toml``.  The rulings this module
makes are listed in its report and in the docstrings below.

"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.attributes import ATTRS, Attr
from rules.character import Condition
from rules.checks import RuleError
from rules.gm import combat, powers
from rules.gm.events import Action, Cost
from rules.gm.gear import carries, use_up
from rules.gm.places import through_the_door
from rules.gm.state import ACTIONS, SETUP, CampState, Member, Phase
from rules.gm.table import ActionTable
from rules.inventory import Carried
from rules.odds import odds

if TYPE_CHECKING:
    from rules.content.effects import Outcome
    from rules.content.schema_equipment import Item
    from rules.content.schema_tables import Camp, CampAction, CampSetup, Skill
    from rules.gm.services import GM


# the names of the [camp] entries of tables.toml this module reads
DRY = "Dry and stable place"
SUPPLY = "Camping supply"
SURVIVALIST = "Survivalist"
FIRE = "Fire"
LONG_REST = "Long rest"
FILTHY = "Filthy or unhealthy place"
LOOKOUT = "Keep a lookout"
REST = "A well deserved rest"
USE_ITEMS = "Use items"
CAMP_ITEMS = "Use camp items"
COOK = "Cook some food"
MEMORISE = "Memorize spells and prayers"
SLEEP = "Sleep"
EXPOSED_DIE = "Exposed place"
FIRE_DIE = "Fire"
CAMPED_DIE = "Camped before"
SLEEP_DIE = "Sleep"
LOOKOUT_DIE = "Keep a lookout"

CAMPING_SUPPLIES = "Camping supplies"
FIREWOOD = "Firewood"  # no table sells it, but the rule names it: a carried "Firewood" item is burnt
NOTHING = "nothing"

#: the drinks of a special ration: label -> the afflictions' "removed_by" tags it answers
DRINKS: dict[str, tuple[str, ...]] = {"coffee": ("coffee",), "tea": ("tea", "hot_chocolate")}
#: "Special rations will also remove the parched affliction." (Cook some food)
SPECIAL_RATION_ALSO_REMOVES = ("parched",)


# --- data ------------------------------------------------------------------------------------------------


def _camp(gm: GM) -> Camp:
    return gm.content.tables.camp


def _setup_row(gm: GM, name: str) -> CampSetup:
    return next(s for s in _camp(gm).setup if s.name == name)


def action_row(gm: GM, name: str) -> CampAction:
    return next(a for a in _camp(gm).actions if a.name == name)


def _die(gm: GM, name: str) -> int:
    return next(s.dice for s in _camp(gm).ambush.sources if s.name == name)


def _skills(gm: GM, member: Member) -> list[Skill]:
    table = {s.name.lower(): s for s in gm.content.character.skills}
    return [table[s.lower()] for s in member.adv.character.skills if s.lower() in table]


def _skill_with(gm: GM, member: Member, rule: str) -> Skill | None:
    return next((s for s in _skills(gm, member) if s.rule == rule), None)


def _quirk_rule(gm: GM, member: Member) -> str | None:
    name = (member.adv.quirk or "").lower()
    for table in gm.content.lifepath.tables:
        if table.id == "quirks":
            for row in table.rows:
                if row.name is not None and row.name.lower() == name:
                    return row.rule
    return None


def item_entry(gm: GM, name: str) -> Item | None:
    key = name.lower()
    return next((i for i in gm.content.items.items if i.name.lower() == key), None)


def _removed_by(gm: GM, *tags: str) -> list[str]:
    """Afflictions whose "Getting rid of" column names one of ``tags``."""
    return [a.name for a in gm.content.character.afflictions if set(a.removed_by) & set(tags)]


def blocked(gm: GM, member: Member, *blocks: str) -> str | None:
    """The affliction of ``member`` that blocks one of ``blocks`` (None: nothing does)."""
    for a in gm.content.character.afflictions:
        if a.name in member.adv.character.afflictions and set(a.blocks) & set(blocks):
            return a.name
    return None


def wounded(member: Member, attrs: Iterable[str] = ()) -> bool:
    ch = member.adv.character
    wanted = [Attr(x) for x in attrs] or list(ATTRS)
    return any(ch.attrs[a].wounds > 0 for a in wanted)


def fatigued(member: Member) -> bool:
    return any(member.adv.character.attrs[a].fatigue > 0 for a in ATTRS)


def _paranoid(gm: GM, member: Member) -> bool:
    return any(
        t.no_help_received for t in gm.content.character.traumas if t.name.lower() in member.adv.character.traumas
    )


def _had_coffee(gm: GM, member: Member) -> bool:
    exp = gm.c.expedition
    return exp is not None and member.id in exp.had_coffee


def _feeds(gm: GM) -> int:
    """Adventurers one cooked ration feeds: 2, plus the best cook's extra (Cooking 1, Master Chef 2)."""
    base = action_row(gm, COOK).feeds_per_ration or 1
    extra = max((s.extra_fed_per_ration for m in gm.active() for s in _skills(gm, m)), default=0)
    return base + extra


def _outcome(gm: GM, member: Member, row: Outcome, reason: str) -> None:
    """Apply a camp outcome (rest, sleep, an item, surgery) and report what it changed for ``member``."""
    from rules.outcomes import apply_outcome

    ch = member.adv.character
    fatigue = {a: ch.attrs[a].fatigue for a in ATTRS}
    wounds = {a: ch.attrs[a].wounds for a in ATTRS}
    held = set(ch.afflictions)

    def choose(_: Any, what: str, options: list[str]) -> str:
        return gm.decider.choose(gm, member, f"{member.name}: {what}", options)

    done = apply_outcome(ch, row, gm.rng, choose)
    parts = []
    rested = sum(fatigue[a] - ch.attrs[a].fatigue for a in ATTRS)
    if rested:
        parts.append(f"recovers {rested} fatigue")
    healed = [f"{a.value}" for a in ATTRS for _ in range(wounds[a] - ch.attrs[a].wounds)]
    if healed:
        parts.append(f"heals {len(healed)} wound{'s' if len(healed) > 1 else ''} ({', '.join(healed)})")
    cured = sorted(held - ch.afflictions)
    if cured:
        parts.append(f"is no longer {' or '.join(cured)}")
    gained = sorted(ch.afflictions - held)
    if gained:
        parts.append(f"is {' and '.join(gained)}")
    text = f"{member.name} " + (", ".join(parts) if parts else "feels no different") + f" ({reason})."
    gm.emit("recover", text, who=member.id, fatigue=rested, healed=healed, cured=cured, gained=gained)
    if done.doom:
        gm.advance_doom(done.doom, reason)
    if done.omens:
        gm.advance_omens(done.omens, reason)


# --- setup --------------------------------------------------------------------------------------------------


def start(gm: GM) -> None:
    """Start the camp phase in the current room (exploration already spent the turn)."""

    room = gm.room()
    st = CampState(
        room=room.id,
        dry="dry" in room.camp,
        filthy="filthy" in room.camp,
        exposed="exposed" in room.camp,
        survivalists=[m.id for m in gm.active() if any(s.extra_camp_actions for s in _skills(gm, m))],
    )
    gm.c.camp = st
    gm.c.phase = Phase.CAMP
    gm.c.stats.camps += 1
    where = [q for q, on in (("dry and stable", st.dry), ("filthy", st.filthy), ("exposed", st.exposed)) if on]
    gm.emit(
        "camp",
        f"The party makes camp in {room.name}"
        + (f" ({', '.join(where)})" if where else "")
        + ". "
        + _points_text(gm, st),
        room=room.id,
        points=setup_total(gm, st),
        breakdown=setup_breakdown(gm, st),
    )


def setup_breakdown(gm: GM, st: CampState) -> list[tuple[str, int]]:
    """Where the camp actions come from: (setup entry, actions)."""
    out: list[tuple[str, int]] = []
    if st.dry:
        out.append((DRY, _setup_row(gm, DRY).actions))
    if st.supplies:
        out.append((SUPPLY, _setup_row(gm, SUPPLY).actions * st.supplies))
    if st.survivalists:
        out.append((SURVIVALIST, _setup_row(gm, SURVIVALIST).actions * len(st.survivalists)))
    if st.fire:
        out.append((FIRE, _setup_row(gm, FIRE).actions))
    if st.long_rest:
        out.append((LONG_REST, _setup_row(gm, LONG_REST).actions))
    if st.filthy:
        out.append((FILTHY, _setup_row(gm, FILTHY).actions))
    return out


def setup_total(gm: GM, st: CampState) -> int:
    return max(0, sum(n for _, n in setup_breakdown(gm, st)))


def _points_text(gm: GM, st: CampState) -> str:
    parts = ", ".join(f"{name.lower()} {n:+d}" for name, n in setup_breakdown(gm, st))
    total = setup_total(gm, st)
    return f"Camp actions: {total}" + (f" ({parts})." if parts else ".")


def _supplies(gm: GM) -> list[tuple[Member, Carried]]:
    """Each adventurer's first camping supplies."""
    out: list[tuple[Member, Carried]] = []
    for m in gm.alive():
        item = m.adv.inventory.find(CAMPING_SUPPLIES)
        if item is not None:
            out.append((m, item))
    return out


def _firewood(gm: GM) -> tuple[Member, Carried] | None:
    for m in gm.alive():
        item = m.adv.inventory.find(FIREWOOD)
        if item is not None:
            return m, item
    return None


def _act(
    id_: str, kind: str, label: str, why: str | None = None, *, actions: int = 0, items: tuple[str, ...] = (), **kw: Any
) -> Action:
    """An action, available unless ``why`` says why not."""
    return Action(id_, kind, label, Cost(actions=actions, items=items), why is None, why, **kw)


SETUP_TABLE: ActionTable[GM] = ActionTable("camp setup")
CAMP_TABLE: ActionTable[GM] = ActionTable("camp")


def _state(gm: GM) -> CampState:
    st = gm.c.camp
    if st is None:
        raise RuleError("the party is not camping")
    return st


@SETUP_TABLE.lister
def _supply_actions(gm: GM) -> list[Action]:
    out: list[Action] = []
    supply = _setup_row(gm, SUPPLY)
    carriers = _supplies(gm)
    plus = f"+{supply.actions} camp action"
    for m, _ in carriers:
        label = f"Use {m.name}'s camping supplies ({plus})"
        out.append(_act(f"supply:{m.id}", "supply", label, items=(CAMPING_SUPPLIES,), who=m.id, rule=supply.text))
    if not carriers:
        why = "No one carries camping supplies."
        out.append(_act("supply", "supply", f"Use camping supplies ({plus})", why, rule=supply.text))
    return out


@SETUP_TABLE.applies("supply")
def _use_supply(gm: GM, action: Action) -> None:
    st = _state(gm)
    m = gm.c.member(action.who or "")
    item = m.adv.inventory.find(CAMPING_SUPPLIES)
    if item is None:  # pragma: no cover - listed only when carried
        raise RuleError(f"{m.name} has no camping supplies")
    use_up(gm, m, item)
    st.supplies += 1
    gm.emit(
        "camp_setup",
        f"{m.name} unpacks camping supplies. {_points_text(gm, st)}",
        who=m.id,
        points=setup_total(gm, st),
    )


@SETUP_TABLE.lister
def _fire_actions(gm: GM) -> list[Action]:
    st = _state(gm)
    why: str | None
    fire = _setup_row(gm, FIRE)
    wood = _firewood(gm)
    if st.fire:
        why = "The fire is already burning."
    elif not st.supplies and wood is None:
        why = "A fire needs camping supplies (use them first) or firewood."
    else:
        why = None
    burns = (FIREWOOD,) if not st.supplies and wood is not None else ()
    label = f"Make a fire (+{fire.actions} camp action, +{_die(gm, FIRE_DIE)} ambush die)"
    return [_act("fire", "fire", label, why, items=burns, rule=fire.text)]


@SETUP_TABLE.applies("fire")
def _make_fire(gm: GM, action: Action) -> None:
    st = _state(gm)
    if not st.supplies:
        wood = _firewood(gm)
        if wood is None:  # pragma: no cover - listed only when carried
            raise RuleError("no firewood")
        use_up(gm, wood[0], wood[1])
        st.firewood = True
    st.fire = True
    gm.emit("camp_setup", f"A fire crackles. {_points_text(gm, st)}", points=setup_total(gm, st))


@SETUP_TABLE.lister
def _long_rest_actions(gm: GM) -> list[Action]:
    st = _state(gm)
    rest = _setup_row(gm, LONG_REST)
    doom = _camp(gm).break_camp.doom_after_long_rest
    label = f"Take a long rest (+{rest.actions} camp actions; the dungeon stirs: {doom} doom at break camp)"
    why = "Already taking a long rest." if st.long_rest else None
    return [_act("long_rest", "long_rest", label, why, rule=rest.text)]


@SETUP_TABLE.applies("long_rest")
def _take_long_rest(gm: GM, action: Action) -> None:
    st = _state(gm)
    st.long_rest = True
    gm.emit(
        "camp_setup", f"The party settles in for a long rest. {_points_text(gm, st)}", points=setup_total(gm, st)
    )


@SETUP_TABLE.lister
def _settle_actions(gm: GM) -> list[Action]:
    st = _state(gm)
    total = setup_total(gm, st)
    label = f"Settle in with {total} camp action{'s' if total != 1 else ''}"
    return [_act("settle", "settle", label, rule=_points_text(gm, st))]


@SETUP_TABLE.applies("settle")
def _settle(gm: GM, action: Action) -> None:
    st = _state(gm)
    st.points = setup_total(gm, st)
    st.stage = ACTIONS
    gm.emit(
        "camp_setup",
        f"The camp is set. {_points_text(gm, st)}",
        points=st.points,
        breakdown=setup_breakdown(gm, st),
    )
    _crafting(gm)


# --- armour --------------------------------------------------------------------------------------------------


def damaged_armour(gm: GM, member: Member, types: Iterable[str] | None = None) -> list[tuple[Carried, int, int]]:
    """(item, part, missing AP) of every armour part ``member`` carries that lost points, worst first."""
    table = {a.name.lower(): a for a in gm.content.armor.armor}
    wanted = set(types) if types is not None else None
    out: list[tuple[Carried, int, int]] = []
    for item in member.adv.inventory.items:
        entry = table.get(item.name.lower())
        if entry is None or (wanted is not None and entry.type not in wanted) or len(item.ap) != len(entry.ap):
            continue
        for i, full in enumerate(entry.ap):
            if item.ap[i] < full:
                out.append((item, i, full - item.ap[i]))
    out.sort(key=lambda t: -t[2])
    return out


def _repair(gm: GM, member: Member, item: Carried, part: int, points: int, reason: str) -> int:
    entry = next(a for a in gm.content.armor.armor if a.name.lower() == item.name.lower())
    before = item.ap[part]
    item.ap[part] = min(entry.ap[part], before + points)
    fixed = item.ap[part] - before
    if fixed:
        gm.emit(
            "repair",
            f"{member.name}'s {item.name} is repaired: {before} → {item.ap[part]} AP ({reason})",
            who=member.id,
            item=item.name,
            ap=list(item.ap),
        )
    return fixed


def _crafting(gm: GM) -> None:
    """Crafting: "During the camp phase you can repair 2 points of armor automatically" (worst damage first)."""
    for crafter in gm.active():
        points = sum(s.armour_repair_camp for s in _skills(gm, crafter))
        while points > 0:
            worst = [(m, t) for m in gm.alive() for t in damaged_armour(gm, m)]
            if not worst:
                return
            m, (item, part, _) = max(worst, key=lambda x: x[1][2])
            points -= _repair(gm, m, item, part, 1, f"{crafter.name}'s crafting")


# --- the ambush pool ------------------------------------------------------------------------------------------


def ambush_breakdown(gm: GM, st: CampState) -> list[tuple[str, int]]:
    """The ambush dice: (source, dice)."""
    exp = gm.c.expedition
    out: list[tuple[str, int]] = []
    if st.exposed:
        out.append((EXPOSED_DIE, _die(gm, EXPOSED_DIE)))
    if st.fire:
        out.append((FIRE_DIE, _die(gm, FIRE_DIE)))
    if exp is not None and exp.camped > 0:
        out.append((CAMPED_DIE, _die(gm, CAMPED_DIE)))
    if st.slept:
        out.append((SLEEP_DIE, _die(gm, SLEEP_DIE)))
    if st.lookouts:
        out.append((LOOKOUT_DIE, _die(gm, LOOKOUT_DIE) * st.lookouts))
    if exp is not None and exp.ambush_dice:
        out.append(("The dungeon is restless", exp.ambush_dice))
    for m in gm.alive():
        for t in gm.content.character.traumas:
            if t.ambush_dice and t.name.lower() in m.adv.character.traumas:
                out.append((f"{m.name} is {t.name.lower()}", t.ambush_dice))
    if st.snore_dice:
        out.append(("Loud snore", st.snore_dice))
    return out


def ambush_pool(gm: GM, st: CampState) -> int:
    return max(0, sum(n for _, n in ambush_breakdown(gm, st)))


# --- camp items -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Use:
    """One camp item an adventurer could use on themselves."""

    label: str
    owner: Member
    item: Carried
    drink: str | None = None  # a special ration's drink


def camp_items(gm: GM, member: Member) -> list[_Use]:
    """The camp-tagged items that would help ``member`` now, best first (own items before the others').

    Items pass between adventurers in camp, except to or from a Paranoid one ("can't share items
    other than ration on camp phase"; rations are eaten at the Cook action or raw, for free).
    """
    owners = [member] + [o for o in gm.alive() if o is not member and not _paranoid(gm, o)]
    if _paranoid(gm, member):
        owners = [member]
    heal: list[_Use] = []
    drinks: list[_Use] = []
    repairs: list[_Use] = []
    seen: set[str] = set()
    ch = member.adv.character
    for owner in owners:
        whose = "" if owner is member else f" ({owner.name}'s)"
        for item in owner.adv.inventory.items:
            entry = item_entry(gm, item.name)
            if entry is None or "camp" not in entry.tags or entry.food == "ration" or entry.rule == "camp_fire":
                continue
            if entry.food == "special_ration":
                for drink, tags in DRINKS.items():
                    cures = set(_removed_by(gm, *tags)) | set(SPECIAL_RATION_ALSO_REMOVES)
                    addict = drink == "coffee" and _quirk_rule(gm, member) == "coffee_addict"
                    if cures & ch.afflictions or (addict and not _had_coffee(gm, member)):
                        label = f"{entry.name} ({drink}){whose}"
                        if label not in seen:
                            seen.add(label)
                            drinks.append(_Use(label, owner, item, drink))
                continue
            label = f"{entry.name}{whose}"
            if label in seen:
                continue
            if entry.repair is not None:
                if damaged_armour(gm, member, entry.repair.armor_types):
                    seen.add(label)
                    repairs.append(_Use(label, owner, item))
                continue
            heals = [e for e in entry.effects if e.heal_wounds]
            if (
                heals
                and not blocked(gm, member, "wound_healing")
                and any(wounded(member, e.heal_attrs) for e in heals)
            ):
                seen.add(label)
                heal.append(_Use(label, owner, item))
                continue
            cures = {a for e in entry.effects for a in [*e.remove, *e.remove_one_of]}
            if cures & ch.afflictions:
                seen.add(label)
                heal.append(_Use(label, owner, item))
    return heal + drinks + repairs


def _use_camp_item(gm: GM, member: Member, use: _Use) -> None:
    entry = item_entry(gm, use.item.name)
    assert entry is not None
    reason = use.item.name
    if use.drink is not None:
        _drink(gm, member, use.drink, f"{entry.name.lower()}: {use.drink}")
    elif entry.repair is not None:
        parts = damaged_armour(gm, member, entry.repair.armor_types)
        labels = [f"{it.name}" + (f" (part {p + 1})" if len(it.ap) > 1 else "") for it, p, _ in parts]
        pick = gm.decider.choose(
            gm, member, f"{member.name}: repair which armour with the {entry.name.lower()}", labels
        )
        it, p, _ = parts[labels.index(pick)]
        _repair(gm, member, it, p, entry.repair.ap, entry.name.lower())
    else:
        for effect in entry.effects:
            _outcome(gm, member, effect, reason)
    if use.owner is not member:
        gm.emit("share", f"{use.owner.name} shares {entry.name.lower()} with {member.name}.", who=use.owner.id)
    use_up(gm, use.owner, use.item)


def _drink(gm: GM, member: Member, drink: str, reason: str) -> None:
    exp = gm.c.expedition
    for name in [*_removed_by(gm, *DRINKS[drink]), *SPECIAL_RATION_ALSO_REMOVES]:
        gm.cure(member, name, reason)
    if drink == "coffee" and exp is not None and member.id not in exp.had_coffee:
        exp.had_coffee.append(member.id)


# --- free items (quick and slow) -----------------------------------------------------------------------------------


def _free_items(gm: GM, member: Member) -> list[tuple[Carried, Item]]:
    out: list[tuple[Carried, Item]] = []
    names: set[str] = set()
    for item in member.adv.inventory.items:
        entry = item_entry(gm, item.name)
        if entry is None or not entry.effects or not ({"quick", "slow"} & set(entry.tags)):
            continue
        if entry.name not in names:
            names.add(entry.name)
            out.append((item, entry))
    return out


def _eating_cures(gm: GM) -> list[str]:
    """A regular ration "will remove both the hungry and parched afflictions" (R82)."""
    return _removed_by(gm, "eating")


def item_helps(gm: GM, member: Member, entry: Item) -> bool:
    ch = member.adv.character
    cures: set[str] = {a for e in entry.effects for a in [*e.remove, *e.remove_one_of]}
    if entry.food == "ration":
        cures |= set(_eating_cures(gm))
    if cures & ch.afflictions:
        return True
    heals = [e for e in entry.effects if e.heal_wounds]
    return (
        bool(heals) and not blocked(gm, member, "wound_healing") and any(wounded(member, e.heal_attrs) for e in heals)
    )


def _use_free_item(gm: GM, member: Member, name: str) -> None:
    item = member.adv.inventory.find(name)
    entry = item_entry(gm, name)
    if item is None or entry is None:  # pragma: no cover - listed only when carried
        raise RuleError(f"{member.name} has no {name}")
    gm.emit("use_item", f"{member.name} uses {entry.name.lower()}.", who=member.id, item=entry.name)
    for effect in entry.effects:
        _outcome(gm, member, effect, entry.name)
    if entry.food == "ration":  # eaten raw: "feeding only one adventurer"
        for name_ in _eating_cures(gm):
            gm.cure(member, name_, "eating")
    use_up(gm, member, item)


# --- cooking ------------------------------------------------------------------------------------------------------


def food_carried(gm: GM, kind: str) -> list[tuple[Member, Carried]]:
    """Rations (``kind`` "ration") or special rations (a drink) the party carries, one entry per unit holder."""
    food = "ration" if kind == "ration" else "special_ration"
    out: list[tuple[Member, Carried]] = []
    for m in gm.alive():
        for item in m.adv.inventory.items:
            entry = item_entry(gm, item.name)
            if entry is not None and entry.food == food:
                out.append((m, item))
    return out


def who_eats(gm: GM, kind: str) -> list[Member]:
    """Who a meal (``kind`` "ration", "coffee" or "tea") would help, the most in need first."""
    if kind == "ration":
        cures = _eating_cures(gm)
        first = "hungry"
    else:
        cures = [*_removed_by(gm, *DRINKS[kind]), *SPECIAL_RATION_ALSO_REMOVES]
        first = cures[0]
    out = []
    for m in gm.alive():
        held = set(cures) & m.adv.character.afflictions
        addict = kind == "coffee" and _quirk_rule(gm, m) == "coffee_addict" and not _had_coffee(gm, m)
        if held or addict:
            out.append(m)
    out.sort(key=lambda m: first not in m.adv.character.afflictions)
    return out


def _units(food: list[tuple[Member, Carried]]) -> int:
    return sum(item.count for _, item in food)


def _cook(gm: GM, kind: str) -> None:
    """One Cook action makes one meal: as many rations as the hungry need, each feeding 2 (3, 4)."""
    feeds = _feeds(gm)
    eaters = who_eats(gm, kind)
    food = food_carried(gm, kind)
    fed: list[Member] = []
    used = 0
    while len(fed) < len(eaters) and food:
        owner, item = food[0]
        batch = eaters[len(fed) : len(fed) + feeds]
        use_up(gm, owner, item)
        used += 1
        if not any(x is item for x in owner.adv.inventory.items) or item.count <= 0:
            food.pop(0)
        fed += batch
    what = "rations" if kind == "ration" else f"special rations ({kind})"
    gm.emit(
        "cook",
        f"The party cooks {used} {what} over the fire; {len(fed)} eat (each ration feeds {feeds}).",
        rations=used,
        fed=[m.id for m in fed],
        feeds=feeds,
        food=kind,
    )
    for m in fed:
        if kind == "ration":
            for name in _eating_cures(gm):
                gm.cure(m, name, "a hot meal")
        else:
            _drink(gm, m, kind, f"a hot {kind}")


# --- magic ------------------------------------------------------------------------------------------------------


def _can_study(gm: GM, member: Member) -> bool:
    """A wizard studies from a grimoire ("without their grimoire they can't study ... to remember forgotten spells")."""
    if member.adv.spellbook is None:
        return False
    if not gm.content.magic.casting.grimoire_needed_to_study:
        return True

    return carries(member, gm.content, "grimoire")


def casters(gm: GM) -> list[Member]:
    return [m for m in gm.active() if _can_study(gm, m) or m.adv.prayers is not None]


def _choose_list(gm: GM, member: Member, what: str, current: list[str], pool: list[str], capacity: int) -> list[str]:
    chosen: list[str] = []
    for _ in range(min(capacity, len(pool))):
        options = [s for s in current if s in pool and s not in chosen]
        options += [s for s in pool if s not in chosen and s not in options]
        chosen.append(gm.decider.choose(gm, member, f"{member.name}: memorise {what}", options))
    return chosen


def _memorise(gm: GM) -> None:
    casting = gm.content.magic.casting
    for m in casters(gm):
        ch = m.adv.character
        book = m.adv.spellbook
        if book is not None and _can_study(gm, m):
            cap = ch.attr(casting.spells_memorised_attr).score
            spells = _choose_list(gm, m, "a spell", book.memorised, book.known, cap)
            book.memorise(spells, cap)
            gm.emit(
                "memorise",
                f"{m.name} studies and memorises: {', '.join(spells) or 'nothing'}.",
                who=m.id,
                spells=spells,
            )
        prayers = m.adv.prayers
        if prayers is not None:
            cap = ch.attr(casting.prayers_memorised_attr).score
            pool = [p.name for p in gm.content.magic.prayers if p.source in ("basic", m.adv.god)]
            chosen = _choose_list(gm, m, "a prayer", prayers.memorised, pool, cap)
            prayers.memorised = chosen
            prayers.exhausted = [p for p in prayers.exhausted if p in chosen]
            gm.emit(
                "memorise", f"{m.name} prays and memorises: {', '.join(chosen) or 'nothing'}.", who=m.id, prayers=chosen
            )


def _angered_camp_god(gm: GM, member: Member) -> str | None:
    """The god of ``member`` when angered and pleased again by a prayer at camp (Kaal Rafir; Goshkalon, R42)."""
    prayers = member.adv.prayers
    if prayers is None or not prayers.angered:
        return None
    god = next((g for g in gm.content.magic.gods if g.name == member.adv.god), None)
    if god is None or god.sacrifice is None or god.sacrifice.kind != "camp_prayer":
        return None
    return god.name


def _unexhaust(gm: GM) -> None:
    for m in gm.alive():
        if m.adv.prayers is not None and m.adv.prayers.exhausted:
            m.adv.prayers.rest()
            gm.emit("prayers", f"{m.name}'s prayers are no longer exhausted.", who=m.id)


# --- rest and sleep ---------------------------------------------------------------------------------------------


def _stand_up(gm: GM, member: Member) -> None:
    """A collapsed adventurer is back on their feet after a rest (R10 leaves collapse open outside combat)."""
    if member.adv.character.condition is Condition.COLLAPSED:
        member.adv.character.condition = Condition.ACTIVE
        gm.emit("stand_up", f"{member.name} is back on their feet.", who=member.id)


def _rest(gm: GM) -> None:
    outcome = action_row(gm, REST).outcome
    assert outcome is not None
    for m in gm.alive():
        _outcome(gm, m, outcome, "a well deserved rest")
        _stand_up(gm, m)
    _unexhaust(gm)


def _sleep(gm: GM, st: CampState) -> None:
    outcome = action_row(gm, SLEEP).outcome
    assert outcome is not None
    for m in gm.alive():
        row: Outcome = outcome
        ch = m.adv.character
        keep: list[str] = []
        if "sleepy" in ch.afflictions:
            quirk = _quirk_rule(gm, m)
            if quirk == "coffee_addict" and not _had_coffee(gm, m):
                keep.append("sleepy")
                gm.emit("quirk", f"{m.name} stays sleepy: no coffee yet this expedition (coffee addict).", who=m.id)
            elif quirk == "loud_snore":
                pick = gm.decider.choose(gm, m, f"{m.name}'s loud snore", ["stay sleepy", "an extra ambush die"])
                if pick == "stay sleepy":
                    keep.append("sleepy")
                    gm.emit("quirk", f"{m.name} snores all night and wakes up sleepy.", who=m.id)
                else:
                    st.snore_dice += 1
                    gm.emit("quirk", f"{m.name}'s snoring echoes through the dungeon (+1 ambush die).", who=m.id)
        update: dict[str, Any] = {}
        if keep:
            update["remove"] = [a for a in row.remove if a not in keep]
        blocker = blocked(gm, m, "wound_healing", "wound_healing_by_rest")
        if row.heal_wounds and blocker and wounded(m):
            update["heal_wounds"] = 0
            gm.emit("no_healing", f"{m.name} is {blocker}: wounds do not heal.", who=m.id)
        if update:
            row = row.model_copy(update=update)
        _outcome(gm, m, row, "sleep")
        _stand_up(gm, m)
    _unexhaust(gm)


# --- the camp actions ------------------------------------------------------------------------------------------


def _spend(st: CampState, cost: int) -> str | None:
    if st.left < cost:
        return f"Not enough camp actions ({st.left} left, {cost} needed)."
    return None


@CAMP_TABLE.lister
def _lookout_actions(gm: GM) -> list[Action]:
    st = _state(gm)
    left = f"{st.left} camp action{'s' if st.left != 1 else ''} left"
    pool = ambush_pool(gm, st)
    row = action_row(gm, LOOKOUT)
    label = f"Keep a lookout (ambush dice {pool} → {max(0, pool + row.ambush_dice)}; {left})"
    return [_act("lookout", "lookout", label, _spend(st, row.cost), actions=row.cost, rule=row.text)]


@CAMP_TABLE.applies("lookout")
def _keep_lookout(gm: GM, action: Action) -> None:
    st = _state(gm)
    st.lookouts += 1
    gm.emit("camp_action", f"The party keeps a lookout. Ambush dice: {ambush_pool(gm, st)}.", pool=ambush_pool(gm, st))


@CAMP_TABLE.lister
def _rest_actions(gm: GM) -> list[Action]:
    st = _state(gm)
    out: list[Action] = []
    # a well deserved rest
    row = action_row(gm, REST)
    why = "Already rested in this camp." if st.rested else _spend(st, row.cost)
    label = "A well deserved rest (all fatigue, Shaken, prayers)"
    out.append(_act("rest", "rest", label, why, actions=row.cost, rule=row.text))
    # sleep
    row = action_row(gm, SLEEP)
    why = "Already slept in this camp." if st.slept else _spend(st, row.cost)
    label = f"Sleep (all fatigue, Sleepy, Shaken, 1 wound each, prayers; +{row.ambush_dice} ambush die)"
    out.append(_act("sleep", "sleep", label, why, actions=row.cost, rule=row.text))
    return out


@CAMP_TABLE.applies("rest")
def _take_rest(gm: GM, action: Action) -> None:
    _state(gm).rested = True
    gm.emit("camp_action", "The party takes a well deserved rest.")
    _rest(gm)


@CAMP_TABLE.applies("sleep")
def _go_to_sleep(gm: GM, action: Action) -> None:
    st = _state(gm)
    st.slept = True
    gm.emit("camp_action", "The party sleeps.")
    _sleep(gm, st)


@CAMP_TABLE.lister
def _cook_actions(gm: GM) -> list[Action]:
    st = _state(gm)
    out: list[Action] = []
    row = action_row(gm, COOK)
    feeds = _feeds(gm)
    why: str | None
    for kind in ("ration", *DRINKS):
        food = food_carried(gm, kind)
        eaters = who_eats(gm, kind)
        need = min(-(-len(eaters) // feeds), _units(food))
        if "fire" in row.requires and not st.fire:
            why = "Cooking needs a fire."
        elif "camping_supply" in row.requires and not st.supplies:
            why = "Cooking needs camping supplies used in this camp."
        elif not food:
            why = "No rations." if kind == "ration" else "No special rations."
        elif not eaters:
            why = "No one needs it."
        else:
            why = _spend(st, row.cost)
        what = "a meal of rations" if kind == "ration" else f"special rations ({kind})"
        label = f"Cook {what} (each feeds {feeds}; {len(eaters)} to feed, {need} ration{'s' if need != 1 else ''})"
        out.append(_act(f"cook:{kind}", "cook", label, why, actions=row.cost, params=(("food", kind),), rule=row.text))
    return out


@CAMP_TABLE.applies("cook")
def _cook_action(gm: GM, action: Action) -> None:
    _state(gm).meals += 1
    _cook(gm, str(action.param("food")))


@CAMP_TABLE.lister
def _camp_item_actions(gm: GM) -> list[Action]:
    st = _state(gm)
    row = action_row(gm, CAMP_ITEMS)
    users = [m for m in gm.alive() if camp_items(gm, m)]
    if users:
        why = _spend(st, row.cost)
    else:
        why = "No one has a camp item that would help (medical supplies, first aid kit, repair kits, special rations)."
    label = f"Use camp items ({', '.join(m.name for m in users) or 'no one'})"
    return [_act("camp_items", "camp_items", label, why, actions=row.cost, rule=row.text)]


@CAMP_TABLE.applies("camp_items")
def _use_camp_items(gm: GM, action: Action) -> None:
    gm.emit("camp_action", "The party tends to its wounds and gear.")
    for m in gm.alive():
        uses = camp_items(gm, m)
        if not uses:
            continue
        labels = [u.label for u in uses]
        pick = gm.decider.choose(gm, m, f"{m.name}: use which camp item", [*labels, NOTHING])
        if pick != NOTHING:
            _use_camp_item(gm, m, uses[labels.index(pick)])


@CAMP_TABLE.lister
def _memorise_actions(gm: GM) -> list[Action]:
    st = _state(gm)
    row = action_row(gm, MEMORISE)
    if casters(gm):
        why = _spend(st, row.cost)
    elif any(m.adv.spellbook is not None for m in gm.active()):
        why = "The wizard has no grimoire to study."
    else:
        why = "No wizard or cleric in the party."
    return [_act("memorise", "memorise", "Memorize spells and prayers", why, actions=row.cost, rule=row.text)]


@CAMP_TABLE.applies("memorise")
def _memorise_action(gm: GM, action: Action) -> None:
    _memorise(gm)


TRANSMUTE = "Transmute"


@CAMP_TABLE.lister
def _transmute_actions(gm: GM) -> list[Action]:
    """Transmute: "2 actions in combat, 1 exploration turn or free action during camp" — the alchemist mixes the
    extracts carried into a potion (the spell's INT test follows, as ever)."""
    rules = gm.content.alchemy.rules
    out: list[Action] = []
    for m in gm.active():
        book = m.adv.spellbook
        if book is None or TRANSMUTE not in book.memorised or not m.adv.character.has_trait("Magic user"):
            continue
        power = powers.handler("spell", TRANSMUTE)
        if power is None or power.outside is None:
            continue
        why = "Forgotten: recall it first." if TRANSMUTE in book.forgotten else None
        why = why or (power.ready(gm, m) if power.ready is not None else None)
        cost = 0 if rules.transmute_camp_free else 1
        why = why or (_spend(_state(gm), cost) if cost else None)
        keep = 1.0 if book.arcane_well else odds(m.adv.character.test_spec(Attr.INT)).success  # the well: no test
        label = f"{m.name}: transmute extracts into a potion (INT {keep:.0%} to keep it)"
        out.append(_act(f"transmute:{m.id}", "transmute", label, why,
                        actions=cost, who=m.id, params=(("spell", TRANSMUTE),), rule=rules.text))  # fmt: skip
    return out


@CAMP_TABLE.applies("transmute")
def _transmute(gm: GM, action: Action) -> None:
    powers.cast_outside(gm, gm.c.member(action.who or ""), TRANSMUTE)


@CAMP_TABLE.lister
def _skill_actions(gm: GM) -> list[Action]:
    """Skills and gods: Surgeon, Ritualist, the camp prayer of an angered god."""
    st = _state(gm)
    out: list[Action] = []
    for m in gm.active():
        skill = _skill_with(gm, m, "surgeon")
        if skill is not None:
            why = "Already operated in this camp." if f"surgeon:{m.id}" in st.done else None
            label = f"{m.name} operates ({skill.test_attr or 'INT'} test: heal 1 wound of each adventurer)"
            out.append(_act(f"surgeon:{m.id}", "surgeon", label, why, who=m.id, rule=skill.text))
        skill = _skill_with(gm, m, "ritualist")
        if skill is not None:
            cost = skill.camp_actions or 1
            for track in ("omens", "doom"):
                why = "Already performed a ritual in this camp." if f"ritual:{m.id}" in st.done else _spend(st, cost)
                label = f"{m.name} performs a ritual (−{skill.remove_omens_or_doom} {track})"
                out.append(
                    _act(
                        f"ritual:{m.id}:{track}",
                        "ritual",
                        label,
                        why,
                        actions=cost,
                        who=m.id,
                        target=track,
                        rule=skill.text,
                    )
                )
        god = _angered_camp_god(gm, m)
        if god is not None:
            why = "Already prayed in this camp." if f"pray:{m.id}" in st.done else None
            label = f"{m.name} prays to {god} to be heard again"
            rule = "Just praying at the camp restores the cleric's powers (Kaal Rafir; Goshkalon by ruling)."
            out.append(_act(f"pray:{m.id}", "pray", label, why, who=m.id, rule=rule))
    return out


def _god_of(gm: GM, m: Member) -> Any:
    return next((g for g in gm.content.magic.gods if g.name == m.adv.god), None)


@CAMP_TABLE.lister
def _sacrifice_actions(gm: GM) -> list[Action]:
    """An angered god's sacrifice, made at camp (a free camp action, R212): Yulak's self-flagellation ("2 wounds
    and bleeding to self"), Akhzu's two rations buried (the party's).  Cador's (capture, then kill an undead
    during the ritual) is made in a fight, on a held undead (R241, ``combat_actions``); the camp prayer of Kaal
    Rafir and Goshkalon is the "pray" action."""
    out: list[Action] = []
    for m in gm.active():
        god = _god_of(gm, m)
        if m.adv.prayers is None or not m.adv.prayers.angered or god is None or god.sacrifice is None:
            continue
        sac = god.sacrifice
        if sac.kind == "self_harm":
            label = f"{m.name} self-flagellates to please {god.name} (2 wounds and bleeding)"
            out.append(_act(f"sacrifice:{m.id}", "sacrifice", label, who=m.id, rule=sac.text))
        elif sac.kind == "bury_rations":
            have = sum(item.count for _, item in food_carried(gm, "ration"))
            why = None if have >= sac.rations else f"Needs {sac.rations} rations to bury: the party carries {have}."
            label = f"{m.name} buries {sac.rations} rations to pacify {god.name}"
            out.append(_act(f"sacrifice:{m.id}", "sacrifice", label, why, who=m.id, rule=sac.text))
    return out


@CAMP_TABLE.applies("sacrifice")
def _sacrifice(gm: GM, action: Action) -> None:
    m = gm.c.member(action.who or "")
    god = _god_of(gm, m)
    if m.adv.prayers is None or god is None or god.sacrifice is None:
        raise RuleError(f"{m.name} has no god to please")
    sac = god.sacrifice
    reason = f"a sacrifice to {god.name}"
    if sac.kind == "self_harm":
        if sac.cost is not None:
            gm.apply_row(m, sac.cost, reason)
        else:
            gm.harm(m, 2, reason, armour=False)
            gm.afflict(m, "bleeding", reason)
    elif sac.kind == "bury_rations":
        for _ in range(sac.rations):
            holder, item = food_carried(gm, "ration")[0]
            use_up(gm, holder, item)
    else:
        raise RuleError(f"{god.name}'s sacrifice is not made at camp")
    m.adv.prayers.sacrifice()
    gm.emit("pray", f"{m.name} makes {reason}; the god listens again.", who=m.id)


@CAMP_TABLE.applies("surgeon")
def _surgeon(gm: GM, action: Action) -> None:
    _surgery(gm, _state(gm), gm.c.member(action.who or ""))


@CAMP_TABLE.applies("ritual")
def _ritual_action(gm: GM, action: Action) -> None:
    _ritual(gm, _state(gm), gm.c.member(action.who or ""), action.target or "doom")


@CAMP_TABLE.applies("pray")
def _pray(gm: GM, action: Action) -> None:
    m = gm.c.member(action.who or "")
    _state(gm).done.append(f"pray:{m.id}")
    assert m.adv.prayers is not None
    m.adv.prayers.sacrifice()
    gm.emit("pray", f"{m.name} prays to {m.adv.god} through the night; the god listens again.", who=m.id)


@CAMP_TABLE.lister
def _free_item_actions(gm: GM) -> list[Action]:
    out: list[Action] = []
    free = action_row(gm, USE_ITEMS)
    for m in gm.active():
        for item, entry in _free_items(gm, m):
            label = f"{m.name} uses {entry.name.lower()}"
            out.append(
                _act(
                    f"item:{m.id}:{entry.name}",
                    "item",
                    label,
                    items=(entry.name,),
                    who=m.id,
                    target=item.name,
                    rule=free.text,
                )
            )
    return out


@CAMP_TABLE.applies("item")
def _free_item(gm: GM, action: Action) -> None:
    _use_free_item(gm, gm.c.member(action.who or ""), action.target or "")


@CAMP_TABLE.lister
def _break_actions(gm: GM) -> list[Action]:
    pool = ambush_pool(gm, _state(gm))
    label = f"Break camp (ambush roll: {pool} {'die' if pool == 1 else 'dice'})"
    return [_act("break", "break", label, rule=_camp(gm).break_camp.text)]


@CAMP_TABLE.applies("break")
def _break(gm: GM, action: Action) -> None:
    _break_camp(gm, _state(gm))


def _surgery(gm: GM, st: CampState, surgeon: Member) -> None:
    skill = _skill_with(gm, surgeon, "surgeon")
    assert skill is not None
    st.done.append(f"surgeon:{surgeon.id}")
    roll = gm.test(surgeon, skill.test_attr or "INT", "surgery")
    if not roll.verdict.success:
        gm.emit("surgery", f"{surgeon.name}'s surgery does no good.", who=surgeon.id)
        return
    from rules.content.effects import Outcome

    heal = Outcome(text=skill.text, heal_wounds=skill.heal_wounds, heal_attrs=list(skill.heal_attrs))
    for m in gm.alive():
        if not wounded(m, skill.heal_attrs):
            continue
        blocker = blocked(gm, m, "wound_healing")
        if blocker:
            gm.emit("no_healing", f"{m.name} is {blocker}: wounds do not heal.", who=m.id)
            continue
        _outcome(gm, m, heal, f"{surgeon.name}'s surgery")


def _ritual(gm: GM, st: CampState, ritualist: Member, track: str) -> None:
    skill = _skill_with(gm, ritualist, "ritualist")
    assert skill is not None
    st.done.append(f"ritual:{ritualist.id}")
    n = skill.remove_omens_or_doom
    if track == "omens":
        gm.c.omens.filled = max(0, gm.c.omens.filled - n)
        gm.emit(
            "ritual",
            f"{ritualist.name}'s ritual wards off ill omens.",
            who=ritualist.id,
            filled=gm.c.omens.filled,
            hidden=True,
        )
    else:
        lv = gm.level_state()
        lv.doom = max(0, lv.doom - n)
        gm.emit("ritual", f"{ritualist.name}'s ritual calms the dungeon.", who=ritualist.id, doom=lv.doom, hidden=True)


# --- ambush and break camp ----------------------------------------------------------------------------------------


def _break_camp(gm: GM, st: CampState) -> None:
    """Roll the ambush; a fight ends the camp, otherwise break camp (doom 1, or 2 after a long rest)."""

    cfg = _camp(gm)
    exp = gm.c.expedition
    assert exp is not None
    breakdown = ambush_breakdown(gm, st)
    pool = ambush_pool(gm, st)
    dice = [gm.rng.randint(1, 6) for _ in range(pool)]
    sixes = dice.count(6)
    parts = ", ".join(f"{name.lower()} {n:+d}" for name, n in breakdown)
    gm.emit(
        "ambush_roll",
        f"Ambush roll: {pool} {'die' if pool == 1 else 'dice'}"
        + (f" ({parts})" if parts else "")
        + (f": {', '.join(map(str, dice))}." if dice else "."),
        dice=dice,
        pool=pool,
        breakdown=breakdown,
        sixes=sixes,
    )
    exp.camped += 1
    gm.c.camp = None
    gm.c.phase = Phase.EXPLORATION
    wanderers = gm.site_level().wanderers
    if sixes >= cfg.ambush.combat_on_sixes and wanderers:
        group = wanderers[gm.rng.randrange(len(wanderers))]
        surprised = sixes >= cfg.ambush.surprised_on_sixes
        watcher = powers.eye_watching(gm)
        if surprised and watcher is not None:  # the tree's eye sees them come (Eyes of the forest, RULINGS R202)
            surprised = False
            gm.emit("eye", f"Through the tree's eye {watcher.name} sees them come: no surprise.", who=watcher.id)
        gm.c.stats.ambushes += 1
        names = ", ".join(f"{n} {monster}" for monster, n in group.monsters)
        gm.emit(
            "ambush",
            f"Ambush! {group.name}: {names}." + (" The party is caught by surprise!" if surprised else ""),
            group=group.name,
            surprise=surprised,
        )
        come, heard = through_the_door(gm, list(group.monsters), "ambush")  # a door that holds: burst it (R246)
        come = powers.held_back(gm, come)  # undead stop at a sealed room's lines (R204)
        if come:
            combat.start(gm, come, source="ambush", surprise="enemies" if surprised and not heard else None)
            return
    doom = cfg.break_camp.doom_after_long_rest if st.long_rest else cfg.break_camp.doom
    fire = "snuffs out the fire, " if st.fire else ""
    gm.emit("break_camp", f"The party {fire}gathers its things and presses on.", doom=doom)
    gm.advance_doom(doom, "breaking camp after a long rest" if st.long_rest else "breaking camp")


# --- the procedure ------------------------------------------------------------------------------------------------


def actions(gm: GM) -> list[Action]:
    st = gm.c.camp
    if st is None:
        return []
    return (SETUP_TABLE if st.stage == SETUP else CAMP_TABLE).actions(gm)


def apply(gm: GM, action: Action) -> None:
    st = _state(gm)
    if st.stage == SETUP:
        SETUP_TABLE.apply(gm, action)
    else:
        st.spent += action.cost.actions
        CAMP_TABLE.apply(gm, action)
