"""The abridged interlude, and the campaign between expeditions.

A day in a settlement (core rules and the later expedition chapter, "Abridged
Interlude"; RULINGS.md R84 for the order):

1. **Blacksalt event** (1d6: bad events, nothing, opportunities), rolled when
   the day begins.  Bad harvest and Overcrowded double food or housing prices
   for 1d6 days; Good harvest and Empty streets halve them for the day and stop
   them; A naive investor adds 50 % to sales that day.
2. **Actions**: every adventurer announces ONE action (Street Wise: one more),
   then they are resolved in the order announced: rest, tend wounds (each with
   at most one additional effect, R86), sell, go shopping, lay low.  Going back
   to an expedition (a job of the board), travelling to another settlement,
   spending insight, retiring, recruiting and buying passage off the island
   are the party's choices, taken before anyone announces a day action.
3. **Hunger bites**: a ration each, or hungry and parched; already hungry:
   the decay table.
4. **Sleep**: each adventurer picks a place (the streets of the settlement's
   size, a camp, the inn, proper accommodation) and rolls its table.

Returning from an expedition skips to the sleep ("Expeditions count as a
whole day").  The settlement's doom (:func:`settlement_doom`) has the
cumulative effects of ``blacksalt.toml``; at step 7 the locals hunt the party,
who must leave.

Every table and number comes from ``resources/content``; the few numbers the
books do not give (the job board, travel days) are the module constants below,
each a ruling.

Rule for this module: import the GM's engine and state only under
``TYPE_CHECKING`` or inside functions (rules.gm.state imports this module's
state class).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.attributes import ATTRS, Attr
from rules.character import Condition
from rules.checks import RuleError
from rules.dice import DiceExpr
from rules.gm import exploration, purse, rearrange
from rules.gm.events import Action, Cost
from rules.gm.gear import use_up
from rules.gm.state import InterludeState, Job, LocationState, Member, Phase, SettlementState
from rules.gm.table import ActionTable
from rules.inventory import TORSO, Carried, Inventory
from rules.odds import odds
from rules.settlement import RARITIES, doom_state, roll_availability, roll_price

if TYPE_CHECKING:
    from rules.content.effects import Outcome
    from rules.content.registry import Content
    from rules.content.schema_blacksalt import EventRow, InterludeAction, InterludeOption, SleepLocation
    from rules.content.schema_tables import Skill
    from rules.gm.services import GM

# --- rulings: the numbers the books leave open ---------------------------------------------------------

JOBS_MIN, JOBS_MAX = 3, 5  # dungeons on the job board
BOARD_REFRESH_DAYS = 7  # days in a settlement before the unvisited jobs are replaced
TRAVEL_DAYS = 2  # days on the road between two settlements
JOB_DAYS_AWAY = (1, 1)  # days to a dungeon whose hook names another settlement (0 when it names this one)
MAX_LEVEL = 10  # the generator's difficulty range is 1..10



# --- small helpers -------------------------------------------------------------------------------------


def interlude_state(gm: GM) -> InterludeState:
    if gm.c.interlude is None:
        gm.c.interlude = InterludeState()
    return gm.c.interlude


def settlement(gm: GM) -> SettlementState:
    """The party's settlement's state (made on first use, with its size from ``blacksalt.toml``)."""

    name = gm.c.settlement
    if name not in gm.c.settlements:
        gm.c.settlements[name] = SettlementState(name=name, size=settlement_size(gm.content, name))
    return gm.c.settlements[name]


def settlement_size(content: Content, name: str) -> int:
    key = name.lower()
    for s in content.blacksalt.settlements:
        if s.name.lower() == key or key in (a.lower() for a in s.aliases):
            return s.size
    raise RuleError(f"{name!r} is not a settlement of Blacksalt")


def settlement_doom_row(gm: GM) -> Any:
    return doom_state(gm.content, settlement(gm).doom)


def is_hunted(gm: GM) -> bool:
    state = settlement_doom_row(gm)
    return bool(state is not None and state.hunted)


_SKILL_INDEX: dict[int, dict[str, Skill]] = {}


def _skills(gm: GM, member: Member) -> list[Skill]:
    """The member's skills as table entries (an index by name, built once: this is on the market's hot path)."""
    key = id(gm.content)
    if key not in _SKILL_INDEX:
        _SKILL_INDEX[key] = {s.name.lower(): s for s in gm.content.character.skills}
    index = _SKILL_INDEX[key]
    return [index[n.lower()] for n in member.adv.character.skills if n.lower() in index]


def _skill_num(gm: GM, member: Member, attr: str) -> int:
    return max((int(getattr(s, attr) or 0) for s in _skills(gm, member)), default=0)


def _skill_flag(gm: GM, member: Member, attr: str) -> bool:
    return any(bool(getattr(s, attr)) for s in _skills(gm, member))


def keeps_either_price(gm: GM, member: Member) -> bool:
    """True when one of the member's skills lets them keep either roll when they reroll a price (haggling)."""
    return _skill_flag(gm, member, "price_reroll_keep_either")


def _action_entry(gm: GM, rule: str) -> InterludeAction:
    return next(a for a in gm.content.blacksalt.interlude_actions if a.rule == rule)


def _option(gm: GM, action_rule: str, option_rule: str) -> InterludeOption:
    return next(o for o in _action_entry(gm, action_rule).options if o.rule == option_rule)


def _sleep_entry(gm: GM, rule: str) -> SleepLocation:
    return next(s for s in gm.content.blacksalt.sleep if s.rule == rule)


def live_member(gm: GM, member_id: str) -> Member | None:
    for m in gm.alive():
        if m.id == member_id:
            return m
    return None


def _over(gm: GM) -> bool:

    return gm.c.phase is Phase.OVER


def _ceil(x: float) -> int:
    return math.ceil(x - 1e-9)


def wounds_of(member: Member) -> int:
    return sum(st.wounds for st in member.adv.character.attrs.values())


def fatigue_of(member: Member) -> int:
    return sum(st.fatigue for st in member.adv.character.attrs.values())


# --- the catalogue, prices and stock -------------------------------------------------------------------


@dataclass(frozen=True)
class Ware:
    name: str
    rarity: str
    kind: str  # item, weapon, armor, shield
    food: bool


_CATALOGUES: dict[int, dict[str, Ware]] = {}


def catalogue(content: Content) -> dict[str, Ware]:
    """Everything the equipment tables sell, by name (in table order)."""
    key = id(content)
    if key not in _CATALOGUES:
        wares: dict[str, Ware] = {}
        for i in content.items.items:
            wares[i.name] = Ware(i.name, i.rarity, "item", i.food is not None)
        for w in content.weapons.weapons:
            wares.setdefault(w.name, Ware(w.name, w.rarity, "weapon", False))
        for a in content.armor.armor:
            wares.setdefault(a.name, Ware(a.name, a.rarity, "armor", False))
        for s in content.armor.shields:
            wares.setdefault(s.name, Ware(s.name, s.rarity, "shield", False))
        _CATALOGUES[key] = wares
    return _CATALOGUES[key]


def ware_named(gm: GM, name: str) -> Ware | None:
    wares = catalogue(gm.content)
    if name in wares:
        return wares[name]
    low = name.lower()
    return next((w for w in wares.values() if w.name.lower() == low), None)


def _event_rows(gm: GM) -> dict[str, EventRow]:
    bs = gm.content.blacksalt
    return {r.special: r for r in [*bs.bad_events.rows, *bs.opportunities.rows] if r.special}


def price_multiplier(gm: GM, category: str) -> float:
    """The product of the running events' multipliers for ``food`` or ``housing``."""
    rows = _event_rows(gm)
    mult = 1.0
    for special in settlement(gm).events:
        row = rows.get(special)
        if row is not None and row.price_category == category and row.price_multiplier:
            mult *= row.price_multiplier
    return mult


def sell_multiplier(gm: GM) -> float:
    rows = _event_rows(gm)
    mult = 1.0
    for special in settlement(gm).events:
        row = rows.get(special)
        if row is not None and row.sell_multiplier:
            mult *= row.sell_multiplier
    return mult


def price_of(gm: GM, member: Member, name: str) -> tuple[int | None, str | None]:
    """What ``member`` pays for ``name`` now (None and the reason when it cannot be bought)."""
    ware = ware_named(gm, name)
    if ware is None:
        return None, f"{name} is not sold"
    state = settlement_doom_row(gm)
    if state is not None and state.no_shopping:
        return None, f"Settlement doom {state.step}: {state.text}"
    if state is not None and state.max_rarity and RARITIES.index(ware.rarity) > RARITIES.index(state.max_rarity):
        return None, f"Settlement doom {state.step}: only {state.max_rarity} items or cheaper"
    st = interlude_state(gm)
    if not st.stock.get(ware.name, False):
        return None, f"No {ware.name} to be found in {gm.c.settlement} this time"
    base = settlement(gm).prices.get(ware.name, 0)
    if base == 0:
        return 0, None  # free stays free
    price = _ceil(base * price_multiplier(gm, "food")) if ware.food else base
    price += state.price_increase if state is not None else 0
    cut = _skill_num(gm, member, "common_price_reduction")
    if cut and ware.rarity == "common":
        floor = max(1, min((s.min_price for s in _skills(gm, member) if s.min_price is not None), default=1))
        price = max(floor, price - cut)
    return price, None


def _open_market(gm: GM) -> None:
    """Roll what is in stock today (once a day) and the price of what has none yet (held until the next
    interlude)."""
    st = interlude_state(gm)
    if st.stock:
        return
    place = settlement(gm)
    for ware in catalogue(gm.content).values():
        avail = roll_availability(gm.rng, gm.content, place.size, ware.rarity)
        st.stock[ware.name] = avail.available
        if avail.available and ware.name not in place.prices:
            place.prices[ware.name] = roll_price(gm.rng, gm.content, ware.rarity)
    found = sum(1 for v in st.stock.values() if v)
    gm.emit("market", f"The market of {gm.c.settlement}: {found} kinds of goods for sale.", in_stock=found)


def inn_cost(gm: GM) -> int | None:
    """Silver per person at the inn tonight (None: no inn)."""
    inn = _sleep_entry(gm, "inn")
    place = settlement(gm)
    state = settlement_doom_row(gm)
    if not inn.min_size <= place.size <= inn.max_size or (state is not None and state.no_inn):
        return None
    cost = _ceil((inn.cost_silver or 0) * price_multiplier(gm, "housing"))
    return cost + (state.inn_surcharge if state is not None else 0)


# --- items carried -------------------------------------------------------------------------------------


def count_of(member: Member, name: str) -> int:
    low = name.lower()
    return sum(i.count for i in member.adv.inventory.items if i.name.lower() == low)


def party_count(gm: GM, name: str) -> int:
    return sum(count_of(m, name) for m in gm.alive())


def _take_one(member: Member, name: str) -> bool:
    low = name.lower()
    for item in member.adv.inventory.items:
        if item.name.lower() == low:
            item.count -= 1
            if item.count <= 0:
                member.adv.inventory.remove(item)
            return True
    return False


def ration_names(gm: GM) -> list[str]:
    return [i.name for i in gm.content.items.items if i.food == "ration"]


def _fits(inv: Inventory, slots: int, liquid: bool, torso: bool) -> bool:
    places = [p for p in inv.places if (p.container or p.name != TORSO) and not inv.wields(p.name)]
    if torso:
        places.append(inv.place(TORSO))
    probe = Carried("probe", "", slots=slots, liquid=liquid)
    return any(inv.fits(probe, p.name) for p in places)


def _room_for(gm: GM, member: Member, ware: Ware) -> bool:
    if ware.kind == "item":
        entry = next(i for i in gm.content.items.items if i.name == ware.name)
        if entry.container is not None and not entry.container.liquid_only:
            return True  # a bag or a mule: it gives room
        return _fits(member.adv.inventory, 1 + entry.extra_slots, entry.liquid, False)
    slots = 1
    if ware.kind in ("armor", "shield"):
        pool: list[Any] = [*gm.content.armor.armor, *gm.content.armor.shields]
        entry2 = next(x for x in pool if x.name == ware.name)
        slots = int(getattr(entry2, "slots", 1))
    return _fits(member.adv.inventory, slots, False, ware.kind == "armor")


def _give(gm: GM, member: Member, name: str, count: int = 1) -> int:
    """Put ``count`` of a table item in ``member``'s inventory as a kit item would be; returns how many fit."""
    from rules.content.schema_creation import StartingItem
    from rules.creation import add_kit_item

    given = 0
    for _ in range(count):
        try:
            add_kit_item(member.adv, gm.content, StartingItem(item=name, book=name))
        except RuleError:
            break
        given += 1
    return given


def sellable(gm: GM, member: Member) -> list[tuple[int, Carried, str]]:
    """(index, item, rarity) of what ``member`` could sell: anything with a rarity above free."""
    out = []
    for i, item in enumerate(member.adv.inventory.items):
        if item.name.startswith("(") or RECRUIT_KIT in item.notes:  # a two-handed grip; a recruit's own kit
            continue
        ware = ware_named(gm, item.name)
        rarity = item.rarity or (ware.rarity if ware is not None else "")
        if rarity and rarity != "free":
            out.append((i, item, rarity))
    return out


def is_loot(gm: GM, item: Carried) -> bool:
    return item.value > 0 and ware_named(gm, item.name) is None


# --- starting, days ------------------------------------------------------------------------------------


def start(gm: GM, *, returning: bool) -> None:
    """Begin an interlude in ``gm.c.settlement``.  ``returning``: back from an expedition (skip to sleep)."""

    c = gm.c
    c.phase = Phase.INTERLUDE
    c.combat = None
    c.camp = None
    c.interlude = InterludeState(board_day=c.day)
    c.settings.setdefault("party_size", len(gm.alive()))  # the party's full size, for recruiting
    place = settlement(gm)
    place.prices = {}  # a new interlude: prices are rolled again
    cures_now = {"interlude"} | ({"escape_dungeon"} if returning else set())
    cures = [a.name for a in gm.content.character.afflictions if cures_now & set(a.removed_by)]
    for m in gm.alive():
        ch = m.adv.character
        ch.mortal_wounds_this_expedition = 0
        _recover(gm, m)
        for name in cures:
            gm.cure(m, name, "back in the settlement" if name == "hopeless" else "the interlude")
    back = c.last_expedition if returning else {}
    road = int(back.get("road_days", 0))
    if road:
        gm.emit("road_back", f"The road back from {back.get('title', 'the dungeon')} to {c.settlement}: {road} "
                f"day(s), a ration each a day, as on the way there.", days=road)  # fmt: skip
        if not _road(gm, road, f"back from {back.get('title', 'the dungeon')}"):
            return
    gm.emit("interlude", f"The party is in {c.settlement} ({_size_name(gm)})." if not returning else
            f"The party returns to {c.settlement}, worn out: the day ends with the sleep.",
            settlement=c.settlement, returning=returning)  # fmt: skip
    bounty = _pay_bounties(gm)
    _interlude_skills(gm)
    if not gm.what_if:  # a copy looking ahead ends here (GM.what_if)
        _tidy_board(gm)
    if returning:
        c.interlude.step = "sleep"
        if back:
            expedition_summary(gm, back, bounty)
    else:
        _begin_day(gm, new_day=False)  # today is the interlude's first day


def _size_name(gm: GM) -> str:
    size = settlement(gm).size
    return next(s.name for s in gm.content.blacksalt.sizes if s.size == size)


def _recover(gm: GM, member: Member) -> None:
    """In a settlement there is time and help: the collapsed get up, the dying are stabilised (a ruling)."""
    ch = member.adv.character
    if ch.condition in (Condition.COLLAPSED, Condition.MORTALLY_WOUNDED):
        ch.condition = Condition.ACTIVE
        gm.emit("recover", f"{member.name} is back on their feet.", who=member.id)


def _pay_bounties(gm: GM) -> int:
    """Bounties earned (the master of the place is dead, R220) and not yet paid: paid now, shared out."""
    paid = 0
    for loc in gm.c.locations.values():
        if not loc.cleared or loc.bounty_paid:
            continue
        loc.bounty_paid = True
        party = gm.alive()
        if not party or loc.bounty <= 0:
            continue
        share, extra = divmod(loc.bounty, len(party))
        for i, m in enumerate(party):
            m.adv.character.silver += share + (1 if i < extra else 0)
        gm.c.stats.silver_earned += loc.bounty
        paid += loc.bounty
        gm.c.jobs = [j for j in gm.c.jobs if j.location != loc.id]
        gm.emit("bounty", f"The master of {loc.title} is dead: {gm.c.settlement} pays the bounty, {loc.bounty} "
                f"silver.", location=loc.id, silver=loc.bounty)  # fmt: skip
    return paid


def passage_line(gm: GM) -> str:
    """How far the party is from the passage off the island: the line of the town's status."""
    goal, have = gm.c.goal_silver, gm.c.silver
    if have >= goal:
        return f"Passage off Blacksalt: {goal} silver. The party has {have}: enough to leave."
    return f"Passage off Blacksalt: {goal} silver. The party has {have}: {goal - have} to go."


def expedition_summary(gm: GM, back: dict[str, Any], bounty: int) -> None:
    """The expedition, told whole when the party is back (an event whose fields the window can show)."""
    c = gm.c
    days = c.day - int(back.get("start_day", c.day)) + 1
    loot = [tuple(x) for x in back.get("loot", [])]
    fallen = [str(n) for n in back.get("fallen", [])]
    carried = ", ".join(f"{n} {name}" if n > 1 else str(name) for name, n, _ in loot) or "nothing"
    data = dict(back, days=days, bounty=bounty, silver=c.silver, goal=c.goal_silver,
                to_go=max(0, c.goal_silver - c.silver), earned=c.silver - int(back.get("silver_before", c.silver)))
    c.last_expedition = data
    text = (f"{back.get('title', 'The expedition')}: {days} day(s), {back.get('turns', 0)} turns, "
            f"{back.get('rooms', 0)} new room(s), {back.get('fights', 0)} fight(s). Carried out: {carried}"
            + (f" (worth {back.get('loot_value', 0)} silver)" if back.get("loot_value") else "") + ". "
            + (f"Bounty: {bounty} silver. " if bounty else ("The master still lives. " if not back.get(
                "master_dead") else ""))
            + (f"Fallen: {', '.join(fallen)}. " if fallen else "No one fell. ")
            + passage_line(gm))  # fmt: skip
    gm.emit("expedition_summary", text, **data)


def _interlude_skills(gm: GM) -> None:
    """Pilfer's silver and Cooking's free rations, at the start of the interlude."""
    rations = ration_names(gm)
    for m in gm.alive():
        for skill in _skills(gm, m):
            if skill.interlude_silver:
                n = DiceExpr.parse(skill.interlude_silver).roll(gm.rng)
                m.adv.character.silver += n
                gm.emit("skill", f"{m.name} pilfers {n} silver ({skill.name}).", who=m.id, silver=n)
        free = _skill_num(gm, m, "free_rations_interlude")
        if free and rations:
            got = _give(gm, m, rations[0], free)
            gm.emit("skill", f"{m.name} gets {got} free ration(s)" + ("" if got == free else " (no room for more)")
                    + ".", who=m.id, rations=got)  # fmt: skip


def _tick_events(gm: GM, days: int) -> None:
    place = settlement(gm)
    for name in list(place.events):
        place.events[name] -= days
        if place.events[name] <= 0:
            del place.events[name]
            gm.emit("event_over", f"{name.replace('_', ' ').capitalize()} is over in {place.name}.", event=name)


def _next_day(gm: GM) -> None:
    """The calendar moves on a day; the settlement's multi-day events run down."""
    gm.c.day += 1
    _tick_events(gm, 1)


def _begin_day(gm: GM, *, new_day: bool = True) -> None:
    """A day in the settlement: the Blacksalt event, then the party announces its actions."""
    c = gm.c
    st = interlude_state(gm)
    if new_day:
        _next_day(gm)
    c.stats.interlude_days += 1
    st.days += 1
    st.step = "actions"
    st.resolved = False
    st.plans = {}
    st.queue = []
    st.sleep = {}
    st.stock = {}
    st.market = st.market_kind = ""
    for m in gm.alive():
        _recover(gm, m)
    if c.day - st.board_day >= BOARD_REFRESH_DAYS:
        refresh_board(gm)
    gm.emit("day", f"Day {c.day} in {c.settlement}. {passage_line(gm)}", day=c.day, silver=c.silver,
            goal=c.goal_silver)  # fmt: skip
    _blacksalt_event(gm)
    if not _over(gm) and is_hunted(gm):
        gm.emit("hunted", f"The locals of {c.settlement} are hunting you: leave, by the road or for a dungeon.")


# --- Blacksalt events ----------------------------------------------------------------------------------


def _blacksalt_event(gm: GM) -> None:
    bs = gm.content.blacksalt
    face = DiceExpr.parse(bs.events.dice).roll(gm.rng)
    row = bs.events.lookup(face)
    if row.special in ("bad_event", "opportunity"):
        table = bs.bad_events if row.special == "bad_event" else bs.opportunities
        face2 = DiceExpr.parse(table.dice).roll(gm.rng)
        sub = table.lookup(face2)
        interlude_state(gm).event = sub.text
        gm.emit("blacksalt_event", f"{table.name}: {sub.text}", roll=face, roll2=face2, special=sub.special)
        apply_event(gm, sub)  # type: ignore[arg-type]
    else:
        interlude_state(gm).event = row.text
        gm.emit("blacksalt_event", row.text, roll=face)


def apply_event(gm: GM, row: EventRow) -> None:
    """A bad event or opportunity, for the whole party."""
    place = settlement(gm)
    special = row.special or ""
    if row.stops and row.stops in place.events:
        del place.events[row.stops]
        gm.emit("event_over", f"It ends the {row.stops.replace('_', ' ')}.", event=row.stops)
    if row.duration or row.days:
        days = DiceExpr.parse(row.duration).roll(gm.rng) if row.duration else int(row.days or 1)
        place.events[special] = max(days, place.events.get(special, 0))
        gm.emit("event_days", f"For {days} day(s).", event=special, days=days)
    if special == "shared_by_group":
        _thugs(gm, row)
    else:
        personal: dict[str, Any] = {"settlement_doom": 0, "omens": 0, "special": None, "duration": None}
        alts = list(row.alternatives)
        if alts:
            personal["alternatives"] = []
        mine = row.model_copy(update=personal)
        for m in list(gm.alive()):
            if _over(gm):
                return
            if alts:
                _choose_alternative(gm, m, alts, row.text)
            if _has_personal_effect(mine):
                apply_row(gm, m, mine, "Blacksalt event")
    if row.settlement_doom:
        settlement_doom(gm, row.settlement_doom, row.text)
    if row.omens and not _over(gm):
        gm.advance_omens(row.omens, row.text)


def _heal_rest_blocked(gm: GM, member: Member) -> bool:
    held = member.adv.character.afflictions
    return any("wound_healing_by_rest" in a.blocks for a in gm.content.character.afflictions if a.name in held)


def _has_personal_effect(o: Outcome) -> bool:
    return bool(o.fatigue or o.wounds or o.restore_fatigue or o.heal_wounds or o.afflictions or o.affliction_choice
                or o.remove or o.remove_one_of or o.gain_silver or o.lose_silver or o.risk_dice)  # fmt: skip


def _choose_alternative(gm: GM, member: Member, alts: list[Any], reason: str) -> None:
    """Everyone "removes angry, shaken or 1 wound": the options that would do something, the best first."""
    ch = member.adv.character

    def useful(o: Outcome) -> int:
        if o.heal_wounds:
            return 2 if wounds_of(member) and "hungry" not in ch.afflictions else 0
        return 1 if any(a in ch.afflictions for a in [*o.remove, *o.remove_one_of]) else 0

    ranked = sorted((a for a in alts if useful(a)), key=lambda a: -useful(a))
    if not ranked:
        return
    labels = [a.text for a in ranked]
    pick = gm.decider.choose(gm, member, reason, labels)
    apply_row(gm, member, ranked[labels.index(pick)], reason)


def _thugs(gm: GM, row: EventRow) -> None:
    """3 wounds and 2d6 silver, as a group (R91): the richest pay first, wounds go where dice are left."""
    if row.lose_silver:
        owed = DiceExpr.parse(row.lose_silver).roll(gm.rng)
        paid = 0
        for m in sorted(gm.alive(), key=lambda x: -x.adv.character.silver):
            take = min(owed - paid, m.adv.character.silver)
            m.adv.character.silver -= take
            paid += take
        gm.emit("silver_lost", f"The thugs take {paid} silver" + ("." if paid == owed else f" (of {owed})."),
                silver=paid)  # fmt: skip
    for _ in range(row.wounds):
        party = sorted(gm.alive(), key=lambda x: -sum(x.adv.character.attrs[a].available for a in ATTRS))
        if not party or _over(gm):
            return
        labels = [m.name for m in party]
        pick = gm.decider.choose(gm, None, "the thugs' wound: who takes it", labels)
        gm.harm(party[labels.index(pick)], 1, "thugs in a dark alley", armour=False)


def apply_row(gm: GM, member: Member, row: Outcome, reason: str, *, resting: bool = False) -> None:
    """A table row for one adventurer in the interlude: wounds through the GM's harm (mortal wounds, death),
    the rest through ``gm.apply_row`` (an affliction already held means another, R87).  ``resting``: the
    Rest action or a night's sleep, whose healing an affliction may block (Cursed)."""
    rest = row
    if resting and _heal_rest_blocked(gm, member) and (row.heal_wounds or row.on_risk is not None):
        rest = row.model_copy(update={"heal_wounds": 0})
        if rest.on_risk is not None and rest.on_risk.heal_wounds:
            rest = rest.model_copy(update={"risk_dice": 0, "on_risk": None})
        if row.heal_wounds:
            gm.emit("no_healing", f"{member.name}'s wounds do not heal by resting.", who=member.id)
    if row.wounds:
        gm.harm(member, row.wounds, reason, armour=False, lethal=not row.non_lethal,
                attr=Attr(row.wound_attr) if row.wound_attr else None)  # fmt: skip
        rest = rest.model_copy(update={"wounds": 0})
        if member.adv.character.condition is Condition.MORTALLY_WOUNDED:
            _recover(gm, member)
    if row.special:
        rest = rest.model_copy(update={"special": None})
    if member.adv.character.alive and not _over(gm):
        gm.apply_row(member, rest, reason, in_interlude=True)


# --- settlement doom -----------------------------------------------------------------------------------


def settlement_doom(gm: GM, points: int, reason: str) -> None:
    """Advance (or reduce) the party's settlement's doom tracker; announce the steps reached."""
    if points == 0:
        return
    if gm.c.interlude is not None and gm.c.interlude.step == "road":
        gm.emit("settlement_doom", f"On the road, no town is there to take notice ({reason}).", added=0)
        return
    place = settlement(gm)
    steps = gm.content.blacksalt.settlement_doom
    before = place.doom
    place.doom = max(0, min(len(steps), place.doom + points))
    if place.doom == before:
        return
    gm.emit("settlement_doom", f"{place.name}'s doom {'rises' if place.doom > before else 'eases'} ({reason}).",
            doom=place.doom, added=place.doom - before, settlement=place.name)  # fmt: skip
    for s in steps:
        if before < s.step <= place.doom:
            if s.step not in place.fired:
                place.fired.append(s.step)
            gm.emit("settlement_doom_step", f"{place.name}: {s.text}", step=s.step, settlement=place.name)
    if place.doom > before and is_hunted(gm) and not _over(gm):
        gm.emit("hunted", f"The locals of {place.name} are hunting you: this is no longer a safe place.")


# --- the actions ---------------------------------------------------------------------------------------


def day_slots(gm: GM, member: Member) -> int:
    per_day: int = gm.content.blacksalt.interlude.actions_per_day
    return per_day + _skill_num(gm, member, "extra_daily_actions") - len(interlude_state(gm).plans.get(member.id, []))


DAY: ActionTable[GM] = ActionTable("interlude day")  # announcing the day's actions, or setting out
MARKET: ActionTable[GM] = ActionTable("interlude market")  # one adventurer at the market
NIGHT: ActionTable[GM] = ActionTable("interlude night")  # where everyone sleeps
FREE: ActionTable[GM] = ActionTable("interlude")  # at any moment of the day: water, silver, rearranging
STEPS = {"market": MARKET, "sleep": NIGHT}  # "actions" and "road": the day's table
BEGIN = "begin"


def actions(gm: GM) -> list[Action]:
    if gm.c.interlude is None:
        return [Action(BEGIN, BEGIN, f"Begin the interlude in {gm.c.settlement}")]
    return STEPS.get(gm.c.interlude.step, DAY).actions(gm) + FREE.actions(gm)


def apply(gm: GM, action: Action) -> None:
    if action.kind == BEGIN:
        start(gm, returning=False)
        return
    table = STEPS.get(interlude_state(gm).step, DAY)
    (table if action.kind in table.kinds else FREE).apply(gm, action)


WATER = "Water"


def _flask(member: Member) -> str | None:
    """A canteen or waterskin of ``member``'s with room for water."""
    inv = member.adv.inventory
    return next((p.name for p in inv.places if p.liquid_only and inv.free(p.name) >= 1), None)


@FREE.lister
def _water_actions(gm: GM) -> list[Action]:
    """Filling a canteen or waterskin with water: free, at any moment of the interlude (R185)."""
    out: list[Action] = []
    for m in gm.alive():
        if _flask(m) is not None:
            out.append(Action(f"water:{m.id}", "water", f"{m.name} fills a canteen with water", Cost(),
                              who=m.id, rule="Water is a free item (Items: Free items). Filling a canteen at a "
                              "well costs no silver and no day's action."))  # fmt: skip
    return out


HUNTED_WHY = "The locals are hunting you: no longer a safe place. Leave by the road or for a dungeon."


@DAY.lister
def _member_actions(gm: GM) -> list[Action]:
    """Each adventurer's day: the interlude actions and their options, spending insight, retiring."""
    place = settlement(gm)
    state = settlement_doom_row(gm)
    hunted = is_hunted(gm)
    out: list[Action] = []
    for m in gm.alive():
        ch = m.adv.character
        left = day_slots(gm, m)
        why = HUNTED_WHY if hunted else None if left > 0 else f"{m.name} has announced today's action."
        for act in gm.content.blacksalt.interlude_actions:
            if act.rule == "go_back_to_expedition":
                continue  # the party's choice: one of the jobs below
            kind = {"tend_wounds": "tend", "go_shopping": "shop"}.get(act.rule, act.rule)
            reason = why
            if reason is None and act.rule == "go_shopping" and state is not None and state.no_shopping:
                reason = f"Settlement doom {state.step}: {state.text}"
            if reason is None and act.rule == "sell" and not sellable(gm, m):
                reason = f"{m.name} has nothing to sell."
            out.append(Action(f"{kind}:{m.id}", kind, f"{m.name}: {act.name}", Cost(), reason is None, reason,
                              who=m.id, rule=act.text))  # fmt: skip
            for opt in act.options:
                r = why
                if r is None and not opt.min_size <= place.size <= opt.max_size:
                    r = f"Only in settlements of size {opt.min_size}-{opt.max_size} ({place.name} is {place.size})."
                if r is None and state is not None and opt.rule == "entertainment" and state.no_entertainment:
                    r = f"Settlement doom {state.step}: {state.text}"
                if r is None and state is not None and opt.rule in ("surgeon", "witch_doctor") and state.no_surgeon:
                    r = f"Settlement doom {state.step}: {state.text}"
                if r is None and opt.requires_item and count_of(m, opt.requires_item) == 0:
                    r = f"{m.name} has no {opt.requires_item}."
                if r is None and ch.silver < opt.cost_silver:
                    r = f"Costs {opt.cost_silver} silver; {m.name} has {ch.silver}."
                out.append(Action(f"{kind}:{m.id}:{opt.rule}", kind, f"{m.name}: {act.name} — {opt.name}",
                                  Cost(silver=opt.cost_silver), r is None, r, who=m.id,
                                  params=(("option", opt.rule),), rule=opt.text))  # fmt: skip
        out += _insight_actions(gm, m)
        out.append(Action(f"retire:{m.id}", "retire", f"{m.name} retires", Cost(), *_retire_ok(gm, m), who=m.id,
                          rule="Once all the 12 circles in your insight bar are filled, your character cannot earn "
                          "more insight and may be retired."))  # fmt: skip
    return out


@DAY.applies("rest", "tend", "sell", "shop", "lay_low")
def _announce(gm: GM, action: Action) -> None:
    st = interlude_state(gm)
    m = gm.c.member(action.who or "")
    option = action.param("option")
    plan = action.kind + (f":{option}" if option else "")
    if action.cost.silver:
        m.adv.character.silver -= action.cost.silver  # paid when announced: it cannot be taken back
    st.plans.setdefault(m.id, []).append(plan)
    gm.emit("announce", f"{m.name} will {action.label.split(': ', 1)[-1].lower()}.", who=m.id, plan=plan)


@DAY.applies("insight")
def _insight(gm: GM, action: Action) -> None:
    _spend_insight(gm, gm.c.member(action.who or ""), str(action.param("rule")), action.target or "")


@DAY.applies("retire")
def _retire(gm: GM, action: Action) -> None:
    retire(gm, gm.c.member(action.who or ""))


@DAY.lister
def _resolve_actions(gm: GM) -> list[Action]:
    hunted = is_hunted(gm)
    return [Action("resolve", "resolve", "Resolve the day's actions", Cost(), not hunted,
                   HUNTED_WHY if hunted else None,
                   rule="The players announce their actions first, then resolve them in any order.")]  # fmt: skip


@DAY.applies("resolve")
def _resolve_day(gm: GM, action: Action) -> None:
    st = interlude_state(gm)
    st.queue = [f"{mid}|{p}" for mid, plans in st.plans.items() for p in plans]
    st.resolved = True
    gm.emit("resolve", "The day's actions are carried out.")
    _proceed(gm)


def _party_why(gm: GM) -> str | None:
    """Why the party cannot leave now (None: it can): once actions are announced, it sets out in the evening,
    when they are done (R224)."""
    if any(interlude_state(gm).plans.values()):
        return "Actions are announced today: the party can set out this evening, once they are done."
    return None


@DAY.lister
def _job_actions(gm: GM) -> list[Action]:
    return _jobs(gm, _party_why(gm))


def _jobs(gm: GM, party_why: str | None) -> list[Action]:
    out: list[Action] = []
    for job in gm.c.jobs:
        loc = gm.c.locations.get(job.location)
        if loc is None:
            continue
        days = road_days(gm, job.days)
        how = f", {days} day(s) away each way" if days else ", close by"
        how += " (a day less with the compass)" if days < job.days else ""
        again = " (again)" if loc.visits else ""
        out.append(Action(f"expedition:{job.location}", "expedition",
                          f"Go on an expedition{again}: {job.title} (level {job.level}, {job.bounty} silver when its "
                          f"master is dead{how})",
                          Cost(items=(f"{2 * days} ration(s) each, there and back",) if days else ()),
                          party_why is None,
                          party_why, target=job.location, params=(("days", days),),
                          rule="Go back to expedition: immediately finish the interlude and get back to the "
                          "expedition."))  # fmt: skip
    return out


@DAY.applies("expedition")
def _expedition(gm: GM, action: Action) -> None:
    go_on_expedition(gm, action.target or "")


@DAY.lister
def _travel_actions(gm: GM) -> list[Action]:
    return _travels(gm, _party_why(gm))


def _travels(gm: GM, party_why: str | None) -> list[Action]:
    place = settlement(gm)
    out: list[Action] = []
    for s in gm.content.blacksalt.settlements:
        if s.name == place.name:
            continue
        out.append(Action(f"travel:{s.name}", "travel", f"Travel to {s.name} ({TRAVEL_DAYS} days on the road)",
                          Cost(items=(f"{TRAVEL_DAYS} ration(s) each",)), party_why is None, party_why,
                          target=s.name, rule=s.text.split("\n")[0]))  # fmt: skip
    return out


@DAY.applies("travel")
def _travel(gm: GM, action: Action) -> None:
    travel(gm, action.target or "")


@DAY.lister
def _recruit_actions(gm: GM) -> list[Action]:
    size = party_size(gm)
    room = len(gm.c.party) < size
    why_not = HUNTED_WHY if is_hunted(gm) else None if room else f"The party is full ({size})."
    return [Action("recruit", "recruit", "Recruit a new adventurer", Cost(), why_not is None, why_not,
                   rule="A new adventurer joins when one dies or retires.")]  # fmt: skip


@DAY.applies("recruit")
def _recruit(gm: GM, action: Action) -> None:
    recruit(gm)


@DAY.lister
def _passage_actions(gm: GM) -> list[Action]:
    goal = gm.c.goal_silver
    rich = gm.c.silver >= goal
    return [Action("leave_island", "leave_island", f"Buy passage off Blacksalt ({goal} silver)",
                   Cost(silver=goal), rich, None if rich else f"The party has {gm.c.silver} of {goal} silver.",
                   rule="Save enough silver to leave the island: the campaign is won.")]  # fmt: skip


@DAY.applies("leave_island")
def _leave_island(gm: GM, action: Action) -> None:
    leave_island(gm)


def _retire_ok(gm: GM, member: Member) -> tuple[bool, str | None]:
    ch = member.adv.character
    if not ch.may_retire:
        return False, f"{member.name} has earned {ch.insight_earned} of {gm.content.character.insight.max} insight."
    if len(gm.c.party) == 1:
        return False, "The last adventurer cannot retire: recruit someone first."
    return True, None


def party_size(gm: GM) -> int:
    """The party's full size: ``settings["party_size"]`` (set by the first interlude if the campaign did not)."""
    size = gm.c.settings.get("party_size")
    if isinstance(size, int) and size > 0:
        return size
    return max(1, len(gm.c.party))


INSIGHT_RULE = "During the interlude, players may choose to spend those insight points."


def _insight_actions(gm: GM, member: Member) -> list[Action]:
    from rules.progression import learnable_skills, spend_options

    ch = member.adv.character
    if ch.insight <= 0:
        return []
    skills = [(s.name, s.advanced_of) for s in gm.content.character.skills]
    out: list[Action] = []
    for opt in spend_options(ch, list(gm.content.character.insight.spends), learnable_skills(ch, skills)):
        if opt.unavailable is not None:
            out.append(Action(f"insight:{member.id}:{opt.rule}", "insight", f"{member.name}: {opt.name}",
                              Cost(), False, opt.unavailable, who=member.id))  # fmt: skip
            continue
        for target in opt.targets:
            out.append(Action(f"insight:{member.id}:{opt.rule}:{target}", "insight",
                              f"{member.name}: {opt.name} ({target}), {opt.cost} insight", Cost(), who=member.id,
                              target=target, params=(("rule", opt.rule),), rule=INSIGHT_RULE))  # fmt: skip
    return out


@MARKET.lister
def _market_actions(gm: GM) -> list[Action]:
    st = interlude_state(gm)
    m = live_member(gm, st.market)
    out: list[Action] = []
    if m is None:
        return [Action("done", "done", "Leave the market")]
    ch = m.adv.character
    if st.market_kind == "sell":
        act = _action_entry(gm, "sell")
        attr = Attr(act.test_attr or "PRE")
        chance = odds(ch.test_spec(attr)).success
        for i, item, rarity in sellable(gm, m):
            lower = RARITIES[max(RARITIES.index("common"), RARITIES.index(rarity) - 1)]
            label = (f"{m.name} sells {item.name} ({rarity}" + (f", valued {item.value}" if item.value else "")
                     + f"; {attr.value} {chance:.0%}" + (f", else priced as {lower})" if lower != rarity else ")"))
            out.append(Action(f"sell_item:{i}", "sell_item", label, Cost(), who=m.id, target=item.name,
                              params=(("index", i),), rule=_action_entry(gm, "sell").text))  # fmt: skip
    else:
        place = settlement(gm)
        haggle_left = _skill_num(gm, m, "price_rerolls") - st.haggles.get(m.id, 0)
        restock_left = _skill_num(gm, m, "availability_rerolls") - st.restocks.get(m.id, 0)
        for ware in catalogue(gm.content).values():
            price, why = price_of(gm, m, ware.name)
            unsold = why  # for a companion only the ware's own reasons count, not the shopper's full bags
            if price is not None and why is None:
                if ch.silver < price:
                    why = f"Costs {price} silver; {m.name} has {ch.silver}."
                elif not _room_for(gm, m, ware):
                    why = f"{m.name} has no room for {ware.name}."
            # a free ware's rarity is its price: "buys Water (free) for 0 silver (free)" said it three times
            rarity = "" if ware.rarity == "free" else f" ({ware.rarity})"
            out.append(Action(f"buy:{ware.name}", "buy", f"{m.name} buys {ware.name}{rarity}"
                              + (f" for {price} silver" if price else ""), Cost(silver=price or 0),
                              why is None, why, who=m.id, target=ware.name))  # fmt: skip
            out += _buy_for_actions(gm, m, ware, price, unsold)
            if haggle_left > 0 and price is not None and price > 0:
                out.append(Action(f"haggle:{ware.name}", "haggle", f"{m.name} haggles over {ware.name}", Cost(),
                                  who=m.id, target=ware.name, rule="Re-roll the price of an item once."))  # fmt: skip
            rule = shop_rule(gm, place.size, ware.rarity)
            if restock_left > 0 and not st.stock.get(ware.name, False) and isinstance(rule, int):
                out.append(Action(f"restock:{ware.name}", "restock", f"{m.name} asks around for {ware.name}",
                                  Cost(), who=m.id, target=ware.name,
                                  rule="Trade network: reroll the item availability roll once."))  # fmt: skip
    out.append(Action("done", "done", f"{m.name} leaves the market", who=m.id))
    return out


def shop_rule(gm: GM, size: int, rarity: str) -> int | str:
    if rarity == "free":
        return "always"
    shop = next(s for s in gm.content.blacksalt.shopping if s.size == size)
    return shop.availability(rarity)


@NIGHT.lister
def _sleep_actions(gm: GM) -> list[Action]:
    st = interlude_state(gm)
    out: list[Action] = []
    waiting = [m for m in gm.alive() if m.id not in st.sleep]
    for loc in gm.content.blacksalt.sleep:
        whole: str | None = None
        total = 0
        for m in waiting:
            cost, why = _sleep_cost(gm, m, loc, extra_campers=0)
            total += cost or 0
            out.append(Action(f"sleep:{m.id}:{loc.rule}", "sleep", f"{m.name} sleeps: {loc.name}",
                              Cost(silver=cost or 0), why is None, why, who=m.id, target=loc.rule,
                              rule=loc.text))  # fmt: skip
            whole = whole or why
        if len(waiting) > 1:
            if whole is None and loc.rule == "camp":
                whole = _camp_short(gm, len(waiting) + sum(1 for r in st.sleep.values() if r == "camp"))
            label = f"Everyone sleeps: {loc.name}"
            if loc.rule == "inn" and whole is not None and inn_cost(gm) is not None:
                # each pays their own bed, and silver changes hands freely in town: whoever has it pays for the rest
                purse = sum(m.adv.character.silver for m in gm.alive())
                whole = None if purse >= total else f"The inn costs {total} silver for everyone; the party has {purse}."
                label += " (whoever has the silver pays for the others)" if whole is None else ""
            out.append(Action(f"sleep:all:{loc.rule}", "sleep", label, Cost(silver=total), whole is None, whole,
                              target=loc.rule, rule=loc.text))  # fmt: skip
    return out


@NIGHT.lister
def _evening_departures(gm: GM) -> list[Action]:
    """After the day's actions, before anyone has chosen a bed: the party may still set out (R224)."""
    st = interlude_state(gm)
    if not st.resolved or st.sleep:
        return []
    return _jobs(gm, None) + _travels(gm, None)


NIGHT.applies("expedition")(lambda gm, action: go_on_expedition(gm, action.target or ""))
NIGHT.applies("travel")(lambda gm, action: travel(gm, action.target or ""))


def _camp_short(gm: GM, campers: int) -> str | None:
    camp = _sleep_entry(gm, "camp")
    have = party_count(gm, "Camping supplies")
    need = camp.camping_supplies_per_character * campers
    return None if have >= need else f"Camping needs {need} camping supplies; the party has {have}."


def _sleep_cost(gm: GM, member: Member, loc: SleepLocation, extra_campers: int) -> tuple[int | None, str | None]:
    place = settlement(gm)
    if not loc.min_size <= place.size <= loc.max_size:
        return None, f"Not in a settlement of size {place.size}."
    if loc.rule == "inn":
        cost = inn_cost(gm)
        if cost is None:
            state = settlement_doom_row(gm)
            return None, (f"Settlement doom {state.step}: {state.text}" if state is not None and state.no_inn
                          else "No inn here.")  # fmt: skip
        if member.adv.character.silver < cost:
            return cost, f"The inn costs {cost} silver; {member.name} has {member.adv.character.silver}."
        return cost, None
    if loc.rule == "camp":
        campers = sum(1 for r in interlude_state(gm).sleep.values() if r == "camp") + 1 + extra_campers
        return 0, _camp_short(gm, campers)
    if loc.availability == "story":
        if member.id not in _accommodation(gm):
            return None, f"{member.name} has no house or guest room in {place.name}."
        return 0, None
    return loc.cost_silver or 0, None


def _accommodation(gm: GM) -> list[str]:
    """Who has proper accommodation here (the story's: ``settings["accommodation"][settlement]``)."""
    table = gm.c.settings.get("accommodation") or {}
    got = table.get(gm.c.settlement, []) if isinstance(table, dict) else []
    return [str(x) for x in got]


# --- applying ------------------------------------------------------------------------------------------


@FREE.applies("water")
def _water(gm: GM, action: Action) -> None:
    m = gm.c.member(action.who or "")
    flask = _flask(m)
    if flask is None or _give(gm, m, WATER) == 0:  # a liquid goes into a canteen or skin first
        raise RuleError(f"{m.name} has no canteen with room for water")
    gm.emit("water", f"{m.name} fills the {flask.lower()} with water.", who=m.id, place=flask)


FREE.lister(purse.actions)
FREE.applies(purse.KIND)(purse.apply)
FREE.lister(rearrange.actions)
FREE.applies(*rearrange.KINDS)(rearrange.apply)


@NIGHT.applies("sleep")
def _sleep(gm: GM, action: Action) -> None:
    _choose_sleep(gm, action)


def _proceed(gm: GM) -> None:
    """Resolve the announced actions in order; stop at a market; then hunger bites and the sleep."""
    st = interlude_state(gm)
    while st.queue:
        if _over(gm):
            return
        mid, plan = st.queue.pop(0).split("|", 1)
        m = live_member(gm, mid)
        if m is None:
            continue
        kind, _, option = plan.partition(":")
        if kind in ("sell", "shop"):
            st.market, st.market_kind, st.step = m.id, kind, "market"
            if kind == "shop":
                _open_market(gm)
            gm.emit("market_open", f"{m.name} goes to {'sell' if kind == 'sell' else 'shop'}.", who=m.id)
            return
        _resolve(gm, m, kind, option)
    if _over(gm):
        return
    st.step = "sleep"
    gm.emit("evening", "Evening: the party may still set out (for a dungeon or another town), or stay the night: "
            "hunger bites, then everyone sleeps.")


def _resolve(gm: GM, member: Member, kind: str, option: str) -> None:
    rule = {"tend": "tend_wounds"}.get(kind, kind)
    act = _action_entry(gm, rule)
    gm.emit("action", f"{member.name}: {act.name}" + (f" ({_option(gm, rule, option).name})" if option else ""),
            who=member.id, action=rule, option=option)  # fmt: skip
    apply_row(gm, member, act.outcome, act.name, resting=kind == "rest")
    if kind == "lay_low":
        # the outcome's settlement doom came through gm.apply_row (a 2d! triggered) or not at all
        return
    if option and member.adv.character.alive and not _over(gm):
        opt = _option(gm, rule, option)
        if opt.requires_item:
            item = next((i for i in member.adv.inventory.items if i.name.lower() == opt.requires_item.lower()), None)
            if item is None:
                gm.emit("action", f"{member.name} has no {opt.requires_item} any more.", who=member.id)
                return

            use_up(gm, member, item)
        apply_row(gm, member, opt.outcome, opt.name, resting=kind == "rest")


# --- the market ----------------------------------------------------------------------------------------


def _shopper(gm: GM, action: Action) -> Member:
    return gm.c.member(action.who or interlude_state(gm).market)


@MARKET.applies("buy")
def _buy(gm: GM, action: Action) -> None:
    m = _shopper(gm, action)
    name = action.target or ""
    price, why = price_of(gm, m, name)
    if price is None or why is not None:
        raise RuleError(why or f"{name} cannot be bought")
    if _give(gm, m, name) == 0:
        raise RuleError(f"{m.name} has no room for {name}")
    m.adv.character.silver -= price
    gm.emit("buy", f"{m.name} buys {name} for {price} silver.", who=m.id, item=name, silver=price)


def _buy_for_actions(gm: GM, m: Member, ware: Ware, price: int | None, why: str | None) -> list[Action]:
    """The market asks who buys for whom (#13): the shopper pays at their price, and the ware goes to another
    adventurer of the party, into their hands or packs (armour bought for a fighter is the fighter's to wear)."""
    out = []
    for other in gm.alive():
        if other is m:
            continue
        reason = why
        if reason is None and price is not None and m.adv.character.silver < price:
            reason = f"Costs {price} silver; {m.name} has {m.adv.character.silver}."
        if reason is None and not _room_for(gm, other, ware):
            reason = f"{other.name} has no room for {ware.name}."
        label = f"{m.name} buys {ware.name} for {other.name}" + (f" ({price} silver)" if price else "")
        out.append(Action(f"buy_for:{ware.name}:{other.id}", "buy_for", label, Cost(silver=price or 0),
                          reason is None, reason, who=m.id, target=ware.name, params=(("for", other.id),),
                          rule="Trade freely in the interlude: one pays, the ware is the other's."))  # fmt: skip
    return out


@MARKET.applies("buy_for")
def _buy_for(gm: GM, action: Action) -> None:
    m = _shopper(gm, action)
    other = live_member(gm, str(action.param("for")))
    name = action.target or ""
    price, why = price_of(gm, m, name)
    if other is None or other is m:
        raise RuleError("no one else to buy for")
    if price is None or why is not None:
        raise RuleError(why or f"{name} cannot be bought")
    if m.adv.character.silver < price:
        raise RuleError(f"{m.name} has not {price} silver")
    if _give(gm, other, name) == 0:
        raise RuleError(f"{other.name} has no room for {name}")
    m.adv.character.silver -= price
    gm.emit("buy", f"{m.name} buys {name} for {other.name}, for {price} silver.", who=m.id, item=name, silver=price,
            recipient=other.id)  # fmt: skip


@MARKET.applies("haggle")
def _haggle(gm: GM, action: Action) -> None:
    st = interlude_state(gm)
    m = _shopper(gm, action)
    name = action.target or ""
    ware = ware_named(gm, name)
    assert ware is not None
    st.haggles[m.id] = st.haggles.get(m.id, 0) + 1
    old = settlement(gm).prices.get(name, 0)
    new = roll_price(gm.rng, gm.content, ware.rarity)
    keep_either = _skill_flag(gm, m, "price_reroll_keep_either")
    settlement(gm).prices[name] = min(old, new) if keep_either else new
    gm.emit("haggle", f"{m.name} haggles: {name} now costs {settlement(gm).prices[name]} (was {old}).",
            who=m.id, item=name, old=old, new=new)  # fmt: skip


@MARKET.applies("restock")
def _restock(gm: GM, action: Action) -> None:
    st = interlude_state(gm)
    m = _shopper(gm, action)
    name = action.target or ""
    ware = ware_named(gm, name)
    assert ware is not None
    st.restocks[m.id] = st.restocks.get(m.id, 0) + 1
    avail = roll_availability(gm.rng, gm.content, settlement(gm).size, ware.rarity)
    if avail.available:
        st.stock[name] = True
        settlement(gm).prices[name] = roll_price(gm.rng, gm.content, ware.rarity)
    gm.emit("restock", f"{m.name} asks around for {name}: " + ("found." if avail.available else "nothing."),
            who=m.id, item=name, faces=list(avail.faces))  # fmt: skip


@MARKET.applies("sell_item")
def _sell_item(gm: GM, action: Action) -> None:
    sell(gm, _shopper(gm, action), int(action.param("index")))


@MARKET.applies("done")
def _leave_market(gm: GM, action: Action) -> None:
    st = interlude_state(gm)
    st.market = st.market_kind = ""
    st.step = "actions"
    _proceed(gm)


def sell(gm: GM, member: Member, index: int) -> int:
    """Sell one unit of the item at ``index``: a PRE test (R89); failed, one rarity lower for this sale.

    The price is the item's value when it has one (loot: rolled by its rarity when the dungeon was made),
    else rolled by its rarity; after a failed test it is rolled by the lower rarity (never above the value).
    """
    item = member.adv.inventory.items[index]
    found = next((r for i, _, r in sellable(gm, member) if i == index), None)
    if found is None:
        raise RuleError(f"{item.name} cannot be sold")
    rarity = found
    act = _action_entry(gm, "sell")
    roll = gm.test(member, act.test_attr or "PRE", f"selling {item.name}")
    if roll.verdict.success:
        price = item.value if item.value > 0 else roll_price(gm.rng, gm.content, rarity)
    else:
        lower = RARITIES[max(RARITIES.index("common"), RARITIES.index(rarity) - 1)]
        price = roll_price(gm.rng, gm.content, lower)
        if item.value > 0:
            price = min(price, item.value)
        gm.emit("downgrade", f"No one will pay what it is worth: sold as {lower}.", rarity=rarity, now=lower)
    mult = sell_multiplier(gm)
    if mult != 1.0:
        price = _ceil(price * mult)
    item.count -= 1
    if item.count <= 0:
        inv = member.adv.inventory
        inv.remove(item)
        grip = next((i for i in inv.items if i.name == f"({item.name})"), None)
        if grip is not None and not any(i.name == item.name for i in inv.items):
            inv.remove(grip)  # a two-handed weapon's other hand is free again
    member.adv.character.silver += price
    gm.c.stats.silver_earned += price
    gm.emit("sell", f"{member.name} sells {item.name} for {price} silver.", who=member.id, item=item.name,
            silver=price)  # fmt: skip
    return price


# --- hunger and sleep ----------------------------------------------------------------------------------


def hunger_bites(gm: GM, reason: str = "hunger bites") -> None:
    """A ration each (one's own first, then the others' spare); without: hungry and parched; already hungry:
    the decay table (whose doom is this settlement's, R88)."""
    rations = ration_names(gm)
    hb = gm.content.blacksalt.hunger_bites
    party = list(gm.alive())
    fed: set[str] = set()
    for m in party:
        for name in rations:
            if _take_one(m, name):
                fed.add(m.id)
                _eat(gm, m, m, name)
                break
    for m in party:
        if m.id in fed or _over(gm) or not m.adv.character.alive:
            continue
        donors = sorted((d for d in gm.alive() if d is not m), key=lambda d: -sum(count_of(d, n) for n in rations))
        given = next(((d, n) for d in donors for n in rations if count_of(d, n) > 0), None)
        if given is not None:
            _take_one(given[0], given[1])
            fed.add(m.id)
            _eat(gm, m, given[0], given[1])
            continue
        if "hungry" in m.adv.character.afflictions:
            gm.emit("hunger", f"{m.name} has nothing to eat, again.", who=m.id)
            gm.decay(m)  # its doom is this settlement's (R88, through GM.advance_doom)
        else:
            gm.emit("hunger", f"{m.name} has nothing to eat.", who=m.id)
            gm.apply_row(m, hb.outcome, reason, in_interlude=True)


MULE = "Pack mule"
MULE_RATIONS = 2  # "requires 2 rations per day or grass" (items.toml); in a settlement there is no grass (R225)


def feed_mules(gm: GM) -> None:
    """A night in a settlement: each pack mule eats 2 rations, its owner's first, then the party's.  Unfed, it
    is sold to the knacker for nothing and its load is left in town, but what its owner can carry (R225).
    On the road and at a dungeon's door it grazes."""
    rations = ration_names(gm)
    for m in list(gm.alive()):
        inv = m.adv.inventory
        for mule in [p for p in inv.places if p.container == MULE]:
            eaten = 0
            for giver in [m, *(d for d in gm.alive() if d is not m)]:
                for name in rations:
                    while eaten < MULE_RATIONS and _take_one(giver, name):
                        eaten += 1
            if eaten >= MULE_RATIONS:
                gm.emit("mule", f"{m.name}'s pack mule eats {MULE_RATIONS} rations.", who=m.id, rations=eaten)
                continue
            load = [i for i in inv.items if i.place == mule.name]
            inv.places.remove(mule)
            kept, left = [], []
            for item in load:
                inv.items.remove(item)
                where = inv.room_for(item)
                if where is None:
                    left.append(item.name)
                else:
                    inv.add(item, where)
                    kept.append(item.name)
            gm.emit("mule", f"{m.name}'s pack mule goes hungry and is led away to the knacker"
                    + (f"; its load is left behind: {', '.join(left)}" if left else "") + ".",
                    who=m.id, rations=eaten, lost=left)  # fmt: skip


def _eat(gm: GM, member: Member, giver: Member, name: str) -> None:
    entry = next(i for i in gm.content.items.items if i.name == name)
    gm.emit("eat", f"{member.name} eats a {name.lower()}" + ("" if giver is member else f" from {giver.name}") + ".",
            who=member.id)  # fmt: skip
    for eff in entry.effects:
        gm.apply_row(member, eff, "a ration")
    gm.cure(member, "parched", "a regular ration")  # R82: a regular ration removes hungry and parched


def _choose_sleep(gm: GM, action: Action) -> None:
    st = interlude_state(gm)
    rule = action.target or ""
    loc = _sleep_entry(gm, rule)
    who = [m for m in gm.alive() if m.id not in st.sleep] if action.who is None else [gm.c.member(action.who)]
    if action.who is None and rule == "inn":
        _pay_for_beds(gm, who, inn_cost(gm) or 0)
    for m in who:
        cost, why = _sleep_cost(gm, m, loc, extra_campers=0)
        if why is not None:
            raise RuleError(why)
        if cost:
            m.adv.character.silver -= cost
        st.sleep[m.id] = rule
        gm.emit("sleep_choice", f"{m.name} will sleep: {loc.name}" + (f" ({cost} silver)." if cost else "."),
                who=m.id, location=rule, silver=cost or 0)  # fmt: skip
    if all(m.id in st.sleep for m in gm.alive()):
        _night(gm)


def _pay_for_beds(gm: GM, sleepers: list[Member], cost: int) -> None:
    """Everyone to the inn: whoever lacks the price of a bed is handed it by whoever has the most silver (giving is
    free in town), so a party that pooled its silver in one purse is not refused its beds."""
    for m in sleepers:
        short = cost - m.adv.character.silver
        while short > 0:
            payer = max((p for p in gm.alive() if p is not m), key=lambda p: p.adv.character.silver - (
                cost if p in sleepers else 0), default=None)  # fmt: skip
            spare = 0 if payer is None else payer.adv.character.silver - (cost if payer in sleepers else 0)
            if payer is None or spare <= 0:
                return  # (the action is offered only when the party has it all)
            given = min(short, spare)
            payer.adv.character.silver -= given
            m.adv.character.silver += given
            short -= given
            gm.emit("purse", f"{payer.name} pays for {m.name}'s bed ({given} silver).", who=payer.id, to=m.id,
                    silver=given)  # fmt: skip


def _night(gm: GM) -> None:
    st = interlude_state(gm)
    if st.days > 0:  # a day in town; back from an expedition, the expedition was the day (it skips to the sleep)
        hunger_bites(gm)
        if not _over(gm):
            feed_mules(gm)
    for m in list(gm.alive()):
        if _over(gm):
            return
        rule = st.sleep.get(m.id)
        if rule is None or not m.adv.character.alive:
            continue
        loc = _sleep_entry(gm, rule)
        face = DiceExpr.parse(loc.table.dice).roll(gm.rng)
        row = loc.table.lookup(face)
        gm.emit("sleep", f"{m.name} sleeps ({loc.name.lower()}) and rolls {face}.", who=m.id, location=rule,
                roll=face)  # fmt: skip
        sleep_row(gm, m, row, loc.name)
        prayers = m.adv.prayers
        if prayers is not None and prayers.exhausted and m.adv.character.alive:
            prayers.rest()  # "used once until the adventurer rests": a night's sleep in town is a rest (R188)
            gm.emit("prayers", f"{m.name}'s prayers are no longer exhausted after the night.", who=m.id)
    if _over(gm):
        return
    st.sleep = {}
    _begin_day(gm)


def sleep_row(gm: GM, member: Member, row: Any, reason: str) -> None:
    """A sleep table row, with its special rules (robbery, one fatigue, a camping supply)."""
    ch = member.adv.character
    special = row.special or ""
    if special == "robbery" and _skill_flag(gm, member, "no_robbery"):
        gm.emit("street_wise", f"{member.name} knows the streets: nothing is taken.", who=member.id)
        return
    if special == "robbery" and row.alternatives:
        pay = next(a for a in row.alternatives if a.lose_silver)
        hurt = next(a for a in row.alternatives if a.wounds)
        owed = DiceExpr.parse(pay.lose_silver).roll(gm.rng)
        options = ([pay.text] if ch.silver >= owed else []) + [hurt.text]  # R92: who cannot pay takes the wounds
        pick = gm.decider.choose(gm, member, f"{row.text} ({owed} silver)", options)
        if pick == pay.text:
            ch.silver -= owed
            gm.emit("silver_lost", f"{member.name} pays {owed} silver.", who=member.id, silver=owed)
        else:
            gm.harm(member, hurt.wounds, reason, armour=False)
        return
    apply_row(gm, member, row, reason, resting=True)
    if not ch.alive:
        return
    if special == "restore_one_fatigue":
        tired = sorted((a for a in ATTRS if ch.attrs[a].fatigue > 0), key=lambda a: -ch.attrs[a].fatigue)
        if tired:
            pick = gm.decider.choose(gm, member, "restore one fatigue", [a.value for a in tired])
            ch.recover_fatigue(Attr(pick), 1)
    elif special == "spend_camping_supply":
        owner = member if count_of(member, "Camping supplies") else next(
            (m for m in gm.alive() if count_of(m, "Camping supplies")), None)  # fmt: skip
        if owner is not None:
            _take_one(owner, "Camping supplies")
            gm.emit("item_lost", f"{owner.name}'s camping supplies are spent.", who=owner.id, item="Camping supplies")


# --- the party's choices -------------------------------------------------------------------------------


def job_at(gm: GM, location_id: str) -> Job:
    for j in gm.c.jobs:
        if j.location == location_id:
            return j
    raise RuleError(f"no job at {location_id!r}")


def _road(gm: GM, days: int, reason: str) -> bool:
    """Days on the road: each a day of the calendar and its hunger bites (no events, no sleep tables)."""
    if days:
        interlude_state(gm).step = "road"  # no settlement here: its doom is not moved (a ruling)
    for _ in range(days):
        _next_day(gm)
        gm.emit("road", f"Day {gm.c.day}: on the road ({reason}).", day=gm.c.day)
        hunger_bites(gm, "on the road")
        if _over(gm):
            return False
    return True


def road_days(gm: GM, days: int) -> int:
    """The days to a dungeon, each way: a dungeon lies off the roads, where a party can get lost ("Navigating the
    wilderness"); with a compass (an item whose rule is ``navigate``) the road is one day shorter (RULINGS R203:
    a day's road is then close by).  The roads between settlements are roads: no compass shortens them."""
    compass = {i.name.lower() for i in gm.content.items.items if i.rule == "navigate"}
    has = any(i.name.lower() in compass for m in gm.alive() for i in m.adv.inventory.items)
    return days - 1 if has and days >= 1 else days


def go_on_expedition(gm: GM, location_id: str) -> None:
    """Go back to expedition: the party leaves for a job's dungeon (its days of travel first)."""

    job = job_at(gm, location_id)
    days = road_days(gm, job.days)
    gm.emit("depart", f"The party sets out for {job.title}" + (" (the compass finds a shorter way)"
            if days < job.days else "") + ".", location=location_id)  # fmt: skip
    if not _road(gm, days, job.title):
        return
    exploration.enter(gm, location_id, road_days=days)


def travel(gm: GM, name: str) -> None:
    """Move to another settlement: days on the road, then a new market and a new job board there."""
    settlement_size(gm.content, name)
    gm.emit("depart", f"The party leaves {gm.c.settlement} for {name}.", settlement=name)
    if not _road(gm, TRAVEL_DAYS, name):
        return
    gm.c.settlement = name
    st = interlude_state(gm)
    st.stock = {}
    st.days = 0  # a new stay
    settlement(gm).prices = {}
    gm.emit("arrive", f"The party arrives in {name} ({_size_name(gm)}).", settlement=name)
    refresh_board(gm)
    _begin_day(gm)


RECRUIT_KIT = "a recruit's own kit"  # the note on a recruit's starting items: theirs, not for sale (R223)


def recruit(gm: GM) -> Member:
    """A new adventurer joins: a random one, with their own kit, which is theirs to use and not the party's to
    sell; their starting silver stays theirs, at home (R223): hiring is never a source of income."""
    from rules.creation import random_adventurer

    adv = random_adventurer(gm.content, gm.rng)
    coin = adv.character.silver
    adv.character.silver = 0
    for item in adv.inventory.items:
        item.notes = f"{item.notes}; {RECRUIT_KIT}" if item.notes else RECRUIT_KIT
    m = Member(id=gm.c.new_id("a"), adv=adv, joined_day=gm.c.day)
    gm.c.party.append(m)
    gm.c.stats.recruited += 1
    gm.emit("recruit", f"{m.name}, {adv.klass}, joins the party with their own kit, not for sale; their "
            f"{coin} silver stay at home.", who=m.id, silver_kept=coin)  # fmt: skip
    return m


def retire(gm: GM, member: Member) -> None:
    """12 insight earned: the adventurer leaves the party; their silver stays with the others (a ruling)."""
    ok, why = _retire_ok(gm, member)
    if not ok:
        raise RuleError(why or "cannot retire")
    st = interlude_state(gm)
    gm.c.party.remove(member)
    st.plans.pop(member.id, None)
    st.sleep.pop(member.id, None)
    silver = member.adv.character.silver
    member.adv.character.silver = 0
    rest = gm.alive()
    share, extra = divmod(silver, len(rest)) if rest else (0, 0)
    for i, m in enumerate(rest):
        m.adv.character.silver += share + (1 if i < extra else 0)
    member.fate = f"retired on day {gm.c.day}"
    gm.c.retired.append(member)
    gm.c.stats.retired += 1
    gm.emit("retire", f"{member.name} retires" + (f", leaving {silver} silver to the party." if silver else "."),
            who=member.id, silver=silver)  # fmt: skip


def _spend_insight(gm: GM, member: Member, rule: str, target: str) -> None:
    from rules.progression import learnable_skills, spend, spend_options

    ch = member.adv.character
    skills = [(s.name, s.advanced_of) for s in gm.content.character.skills]
    upgrades = {s.name: s.advanced_of for s in gm.content.character.skills if s.advanced_of}
    option = next(o for o in spend_options(ch, list(gm.content.character.insight.spends), learnable_skills(ch, skills))
                  if o.rule == rule)  # fmt: skip
    gm.emit("insight", spend(ch, option, target, upgrades=upgrades), who=member.id, rule=rule, target=target)


def leave_island(gm: GM) -> None:
    """Passage off Blacksalt: the campaign is won."""

    goal = gm.c.goal_silver
    if gm.c.silver < goal:
        raise RuleError(f"The party has {gm.c.silver} of {goal} silver.")
    owed = goal
    for m in sorted(gm.alive(), key=lambda x: -x.adv.character.silver):
        take = min(owed, m.adv.character.silver)
        m.adv.character.silver -= take
        owed -= take
    gm.c.outcome = "escaped"
    gm.c.phase = Phase.OVER
    gm.c.interlude = None
    names = ", ".join(m.name for m in gm.alive())
    gm.emit("campaign_over", f"{names} buy passage off Blacksalt. The island lets them go.", outcome="escaped")


# --- the job board -------------------------------------------------------------------------------------


def party_strength(gm: GM) -> int:
    """The dungeon level the party is ready for: 1, plus 1 for every two bounties earned (a ruling)."""
    cleared = sum(1 for loc in gm.c.locations.values() if loc.cleared)
    return max(1, min(MAX_LEVEL, 1 + cleared // 2))


def _tidy_board(gm: GM) -> None:
    gm.c.jobs = [j for j in gm.c.jobs if j.location in gm.c.locations and not gm.c.locations[j.location].cleared]
    fresh = [j for j in gm.c.jobs if not gm.c.locations[j.location].visits]
    if len(gm.c.jobs) < JOBS_MIN or not fresh:
        refresh_board(gm)  # new work when the board runs short, or holds only places the party has been (R229)


def refresh_board(gm: GM) -> None:
    """New jobs: 3-5 dungeons of different themes around the party's strength.  Dungeons the party has
    entered and not cleared stay on the board besides them (R229: before, they took the new jobs' places, and a
    party that had entered five dungeons without killing a master was offered nothing new ever again)."""

    c = gm.c
    keep = [j for j in c.jobs if j.location in c.locations and c.locations[j.location].visits
            and not c.locations[j.location].cleared]  # fmt: skip
    for j in c.jobs:
        if j not in keep and j.location in c.locations and not c.locations[j.location].visits:
            del c.locations[j.location]
    gm.keep_made(None)
    want = JOBS_MIN + gm.rng.randrange(JOBS_MAX - JOBS_MIN + 1)
    used = {j.theme for j in keep}
    strength = party_strength(gm)
    offsets = (0, -1, 1, 0, 1)
    jobs = list(keep)
    names = [gm.c.settlement.lower(), *(a.lower() for s in gm.content.blacksalt.settlements
                                        if s.name == gm.c.settlement for a in s.aliases)]  # fmt: skip
    for i in range(max(0, want)):
        level = max(1, min(MAX_LEVEL, strength + offsets[i % len(offsets)]))
        depth = 1 + (level - 1) // 3
        rooms = 6 + 2 * level
        seed = gm.rng.getrandbits(31)
        fitting = gm.maker.themes(level)  # themes whose monsters suit this level
        fresh = [t for t in fitting if t not in used] or fitting
        theme = fresh[gm.rng.randrange(len(fresh))] if fresh else None
        if theme is not None:
            used.add(theme)
        exact = theme is not None  # made as the recipe below makes it again
        try:
            site, data = gm.maker.make(seed, level=level, rooms=rooms, theme=theme, depth=depth)
        except ValueError:
            site, data = gm.maker.make(seed, level=level, rooms=rooms, theme=None, depth=depth)
            exact = False
        loc_id = c.new_id("loc")
        recipe = {"seed": seed, "level": level, "rooms": rooms, "theme": site.theme, "depth": depth}
        c.locations[loc_id] = LocationState(id=loc_id, title=site.title, theme=site.theme, level=site.level,
                                            bounty=site.bounty, depths=len(site.levels), data="",
                                            recipe=recipe)  # fmt: skip
        if exact and site.theme == theme:
            gm.keep_made(loc_id, site, data)  # saved as its recipe until the party goes there (GM.site)
        near = any(n in site.hook.lower() for n in names)
        days = 0 if near else JOB_DAYS_AWAY[0] + gm.rng.randrange(JOB_DAYS_AWAY[1] - JOB_DAYS_AWAY[0] + 1)
        jobs.append(Job(location=loc_id, title=site.title, theme=site.theme, level=site.level, bounty=site.bounty,
                        depths=len(site.levels), hook=site.hook, days=days))  # fmt: skip
    c.jobs = jobs
    interlude_state(gm).board_day = c.day
    gm.emit("jobs", f"The job board of {c.settlement}: " + "; ".join(f"{j.title} (level {j.level}, {j.bounty} silver)"
            for j in jobs) + ". A bounty is paid when the master of the place is dead.",
            jobs=[j.location for j in jobs])  # fmt: skip
