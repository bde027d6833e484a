"""The autoplay in a settlement: heal, shop for the road, sell loot, sleep cheaply, and take a job it can survive."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.attributes import ATTRS, Attr
from rules.autoplay import powers_policy
from rules.checks import RuleError
from rules.dice import DiceExpr
from rules.gm.events import Action
from rules.gm.gear import light_entry
from rules.gm.site import SiteLink
from rules.gm.state import DoorState, Member, RoomState
from rules.inventory import Carried
from rules.odds import odds
from rules.settlement import doom_state

if TYPE_CHECKING:
    from rules.gm.engine import GM
from rules.gm.interlude import (
    day_slots,
    fatigue_of,
    inn_cost,
    interlude_state,
    is_hunted,
    is_loot,
    job_at,
    live_member,
    party_count,
    party_strength,
    ration_names,
    sellable,
    settlement,
    settlement_doom_row,
    shop_rule,
    ware_named,
    wounds_of,
)

# autoplay (the policy's own taste, not rules)
AUTO_RATIONS = 2  # rations each adventurer wants before setting out (tonight's and one for the road)


AUTO_TORCHES = 2  # packs of torches the party wants (a pack of 2 lights about six decays)


AUTO_BANDAGES = 1


AUTO_CAMPING = 1  # camping supplies each: a camp in the dungeon, and a night in the settlement without the inn


AUTO_MAX_DAYS = 3  # days of rest before the party sets out half-healed (strong enough not to turn back at once)


AUTO_MAX_DAYS_HURT = 10  # days of rest before the party sets out however weak it still is


AUTO_ESSENTIALS_MONEY = 10  # silver a party short of light or food keeps for them before paying a healer


AUTO_FOOD_MONEY = 3  # silver kept for tomorrow's ration before paying for the inn


#: Gear found in a dungeon that the autoplay keeps (it uses it: light, food, water, healing, picking locks,
#: camping, feeling for traps); any other ware found and not worn or wielded is sold.  Measured (seed 4): a full
#: bag of a second shovel, a sacrificial dagger, an exorcism book and a helmet in a backpack, worth 40 silver,
#: was carried in and out while the party starved in town.
AUTO_KEEP = frozenset({"Oil", "Bandages", "First aid kit", "Lockpicking tools", "Camping supplies", "3 meter pole",
                       "Rope", "Holy water", "Healing tonic", "Waterskin", "Canteen", "Water"})  # fmt: skip


def for_sale(gm: GM, item: Carried) -> bool:
    """What the autoplay sells: loot, and gear found in a dungeon that it does not use (see :data:`AUTO_KEEP`)."""
    if is_loot(gm, item):
        return True
    if item.value <= 0 or item.equipped or item.name in AUTO_KEEP or item.name in ration_names(gm):
        return False
    if ware_named(gm, item.name) is None or light_entry(gm, item.name) is not None:
        return False
    entry = next((i for i in gm.content.items.items if i.name == item.name), None)
    return entry is None or entry.container is None  # a bag found gives room


AUTO_STRENGTH = 0.8  # share of its dice the party wants back before setting out


def suggest(gm: GM, actions: list[Action]) -> Action:
    """The autoplay's interlude choice among ``actions`` (the legal ones)."""
    avail = [a for a in actions if a.available]
    if not avail:
        raise RuleError("no interlude action is available")
    by_id = {a.id: a for a in avail}
    if gm.c.interlude is None:
        return avail[0]
    st = gm.c.interlude
    if st.step == "market":
        return _suggest_market(gm, avail, by_id)
    if st.step == "sleep":
        departs = [a for a in avail if a.kind == "expedition"]  # the evening, before anyone has a bed (R224)
        if departs and (is_hunted(gm) or _ready(gm)):
            job = _suggest_job(gm, departs)
            if job is not None:
                return job  # shopped today, leaving tonight: no night's bed, no night's ration in town
        even = by_id.get("share")
        if even is not None and any(m.adv.character.silver < _reserve(gm) for m in gm.alive()):
            return even  # everyone pays for their own bed
        return _suggest_sleep(gm, avail)
    if "leave_island" in by_id:
        return by_id["leave_island"]
    water = next((a for a in avail if a.kind == "water"), None)
    if water is not None:
        return water  # free, and parched adventurers cannot catch their breath
    for a in avail:
        if a.kind == "retire":
            return a
    if "recruit" in by_id:
        return by_id["recruit"]
    spend = _suggest_insight(avail)
    if spend is not None:
        return spend
    hand = _to_the_seller(gm, by_id)
    if hand is not None:
        return hand
    announced = any(st.plans.values())
    if not announced:
        town = _safe_town(gm) if is_hunted(gm) else _food_town(gm)
        if town is not None and f"travel:{town}" in by_id:
            return by_id[f"travel:{town}"]
    if not announced and (is_hunted(gm) or _ready(gm)):
        job = _suggest_job(gm, [a for a in avail if a.kind == "expedition"])
        if job is not None:
            return job
        travels = [a for a in avail if a.kind == "travel"]
        if travels:
            return travels[0]
    pool = _suggest_pool(gm, by_id)
    if pool is not None:
        return pool
    for m in gm.alive():
        mine = {a.id: a for a in avail if a.who == m.id and a.kind in ("rest", "tend", "sell", "shop", "lay_low")}
        if mine:
            pick = _suggest_for(gm, m, mine)
            if pick is not None:
                return pick
    return by_id.get("resolve") or avail[0]


def _suggest_job(gm: GM, jobs: list[Action]) -> Action | None:
    """The job to take: not a dungeon whose way in, or whose every way on, the party knows to be held by
    enemies, nor one it has worn out (too many visits); then the best of :func:`_best_job`."""

    open_ = [a for a in jobs if not guarded(gm, a.target or "") and not barred(gm, a.target or "")]
    fresh = [a for a in open_ if visits(gm, a.target or "") < AUTO_VISITS]
    return _best_job(gm, fresh or open_ or jobs)


def _suggest_pool(gm: GM, by_id: dict[str, Action]) -> Action | None:
    """Short of a light or food: everyone's silver to the richest adventurer who has a day's action left, who
    goes shopping with it (apart, three purses of five silver buy less than one of fifteen)."""
    state = settlement_doom_row(gm)
    if not short_of_essentials(gm) or (state is not None and state.no_shopping):
        return None
    plans = interlude_state(gm).plans
    going = [m for m in gm.alive() if any(p.startswith("shop") for p in plans.get(m.id, []))]
    free = going or [m for m in gm.alive() if day_slots(gm, m) > 0 and m.adv.character.can_act]
    if not free:
        return None
    # whoever already goes to the market gets the purse (never take it from them); else the richest still free
    shopper = max(free, key=lambda m: (m.adv.character.silver, m.id))
    prices = settlement(gm).prices
    essentials = ("Torches", *ration_names(gm))
    # what the essentials cost (a price not rolled yet: the dearest its rarity can be)
    cost = sum(prices.get(name, _dearest(gm, name)) * n for name, n in _needs(gm).items() if name in essentials)
    if shopper.adv.character.silver >= cost:
        return None  # the shopper can pay alone (light and food before a bed: no silver kept for the inn)
    return by_id.get(f"pool:{shopper.id}")


def _essential_price(gm: GM, name: str | None = None) -> int:
    """What ``name`` costs here (a price not rolled yet: the dearest its rarity can be), or by default the cheapest
    of the essentials the party lacks (a light, a ration)."""
    prices = settlement(gm).prices
    if name is not None:
        return prices.get(name, _dearest(gm, name))
    need = [n for n in _needs(gm) if n in ("Torches", *ration_names(gm))]
    return min((prices.get(n, _dearest(gm, n)) for n in need), default=0)


def _dearest(gm: GM, name: str) -> int:
    """The highest price the rarity of ware ``name`` can roll (items.toml's rarity price dice)."""
    ware = ware_named(gm, name)
    entry = next((r for r in gm.content.items.rarities if ware is not None and r.name == ware.rarity), None)
    if entry is None:
        return 0
    return DiceExpr.parse(entry.price).maximum if isinstance(entry.price, str) else int(entry.price)


def _suggest_insight(avail: list[Action]) -> Action | None:
    for rule in ("heal_trauma", "increase_lowest_score", "increase_proficiency", "learn_skill"):
        for a in avail:
            if a.kind == "insight" and a.param("rule") == rule:
                return a
    return None


def _needs(gm: GM) -> dict[str, int]:
    """What the party would buy next (whoever carries it: rations and light are shared): item -> how many
    more, in the order it buys them — a light first (an expedition in the dark earns nothing: measured, 58% of
    expeditions set out without one when food came first), then a ration each (hunger bites every day), then
    the rest in rounds, so a poor party leaves with a torch and food rather than a bag of torches."""
    rations = ration_names(gm)
    mules = sum(1 for m in gm.alive() for p in m.adv.inventory.places if p.container == "Pack mule")
    n = len(gm.alive()) + 2 * mules  # a pack mule eats 2 rations a night in town (R225)
    lantern = party_count(gm, "Lantern") > 0
    tiers: list[tuple[str, int]] = []
    for round_ in range(1, AUTO_RATIONS + 1):
        if lantern:
            tiers.append(("Oil", round_ - 1))  # a flask to refill it when it runs dry
        elif round_ <= AUTO_TORCHES:
            tiers.append(("Torches", round_))  # packs for the party: one burns for about two decays
        if rations:
            tiers.append((rations[0], round_ * n))
        if round_ == 1 and not lantern:
            # a lantern (Ud8, lit again whole on every expedition) burns about nine decays where a pack of
            # torches (Ud4) burns two: at an uncommon price (about 9 silver) it is the cheapest light there is
            tiers.append(("Lantern", 1))
    tiers += [("Camping supplies", AUTO_CAMPING * n), ("Bandages", AUTO_BANDAGES * n)]
    if not any(m.adv.character.has_skill("Infiltration") for m in gm.alive()):
        tiers.append(("3 meter pole", 1))  # one for the party, to look for traps
    needs: dict[str, int] = {}
    for name, want in tiers:
        have = party_count(gm, name)
        if have < want and name not in needs:
            needs[name] = want - have
    return needs


def _reserve(gm: GM) -> int:
    """Silver the autoplay keeps for tonight's bed."""
    cost = inn_cost(gm)
    return cost if cost is not None else 0


def _strength(gm: GM) -> float:
    """Available dice left, as a share of the party's scores."""
    full = sum(m.adv.character.attrs[a].score for m in gm.alive() for a in ATTRS) or 1
    return sum(max(0, m.adv.character.attrs[a].available) for m in gm.alive() for a in ATTRS) / full


def _ready(gm: GM) -> bool:
    """The party is as ready as it will get: loot sold, a light and a ration each (if they can be had), and
    strong enough, or with nothing left that a day in town would mend (or too long idle)."""
    from rules.autoplay.player import LEAVE_BELOW

    st = interlude_state(gm)
    if st.days >= AUTO_MAX_DAYS_HURT or (st.days >= AUTO_MAX_DAYS and _strength(gm) >= LEAVE_BELOW + 0.1):
        return True
    party = gm.alive()
    if any(for_sale(gm, it) for m in party for _, it, _ in sellable(gm, m)):
        return False
    state = settlement_doom_row(gm)
    can_shop = not (state is not None and state.no_shopping) and gm.c.silver >= _essential_price(gm)  # pooled
    if short_of_essentials(gm) and can_shop:
        return False
    mending = any(
        ("hungry" not in m.adv.character.afflictions and wounds_of(m))
        or ("parched" not in m.adv.character.afflictions and fatigue_of(m))
        for m in party
    )
    return not (mending and _strength(gm) < AUTO_STRENGTH)


def _safe_town(gm: GM) -> str | None:
    """Hunted: the biggest settlement where the party is still welcome."""
    best: tuple[int, int, str] | None = None
    for s in gm.content.blacksalt.settlements:
        if s.name == gm.c.settlement:
            continue
        place = gm.c.settlements.get(s.name)
        doom = place.doom if place is not None else 0
        state = doom_state(gm.content, doom)
        if state is not None and state.hunted:
            continue
        key = (-doom, s.size, s.name)
        if best is None or key[:2] > best[:2]:
            best = key
    return best[2] if best is not None else None


def _has_light(gm: GM) -> bool:
    lights = {i.name for i in gm.content.items.items if i.light is not None}
    return any(i.name in lights for m in gm.alive() for i in m.adv.inventory.items)


#: Silver per adventurer a party needs before it travels to a better market for food or light (a ration is about
#: 3 silver, a pack of torches about as much): a broke party went from town to town, unfed, buying nothing.
FOOD_TRIP_SILVER = 3


def _food_town(gm: GM) -> str | None:
    """Half the party is starving, or it has no light after two days, where common goods are hard to find:
    a market that always has them."""
    party = gm.alive()
    hungry = sum(1 for m in party if "hungry" in m.adv.character.afflictions)
    dark = not _has_light(gm) and interlude_state(gm).days >= 2
    if not party or (hungry * 2 < len(party) and not dark):
        return None
    if gm.c.silver < FOOD_TRIP_SILVER * len(party):
        return None  # the road there is days unfed, and the market there sells nothing to a party that cannot pay
    if shop_rule(gm, settlement(gm).size, "common") == "always":
        return None
    for s in gm.content.blacksalt.settlements:
        if s.name != gm.c.settlement and shop_rule(gm, s.size, "common") == "always":
            place = gm.c.settlements.get(s.name)
            state = doom_state(gm.content, place.doom) if place is not None else None
            if state is None or not state.no_shopping:
                return s.name
    return None


def _best_job(gm: GM, jobs: list[Action]) -> Action | None:
    """The job whose level the party is fit for, nearest first, the best bounty last; a party without the rations
    for the road (each day on it a night's hunger) takes the nearest job first: a broke party walked two and
    three days to a dungeon of its level, unfed, and came in too weak to explore it (#14)."""
    if not jobs:
        return None
    strength = party_strength(gm)
    rations = sum(party_count(gm, n) for n in ration_names(gm))
    eaters = len(gm.alive())

    def score(a: Action) -> tuple[int, int, int, int]:
        job = job_at(gm, a.target or "")
        fit = -max(0, job.level - strength)
        unfed = rations < eaters * job.days  # the road costs rations
        return (0 if unfed else fit, -job.days, fit, job.bounty)

    return max(jobs, key=score)


def _suggest_for(gm: GM, member: Member, mine: dict[str, Action]) -> Action | None:
    ch = member.adv.character
    reserve = _reserve(gm) + 1

    def take(*plans: str) -> Action | None:
        for plan in plans:
            kind, _, option = plan.partition(":")
            a = mine.get(f"{kind}:{member.id}" + (f":{option}" if option else ""))
            if a is not None and (not a.cost.silver or ch.silver - a.cost.silver >= reserve):
                return a
        return None

    short = short_of_essentials(gm)
    if short and ch.silver > reserve + 1:
        pick = take("shop")  # light and food before anything paid: without them no expedition earns
        if pick is not None:
            return pick
    if short:
        reserve += AUTO_ESSENTIALS_MONEY  # a paid cure must leave the silver for a torch and a ration
    wounds = {a: ch.attrs[a].wounds for a in ATTRS}
    heals = "hungry" not in ch.afflictions
    body = wounds[Attr.STR] + wounds[Attr.DEX]
    if heals and wounds[Attr.INT] and not body:
        pick = take("rest:bucolic_rest", "tend:surgeon", "tend:witch_doctor")
        if pick is not None:
            return pick
    if heals and (body or wounds[Attr.INT]):
        paid = ("tend:witch_doctor", "tend:surgeon") if "cursed" in ch.afflictions else (
            "tend:surgeon", "tend:witch_doctor")  # fmt: skip
        pick = take(*paid, "tend:first_aid_kit", "tend:time_heals", "tend")
        if pick is not None:
            return pick
    if heals and wounds[Attr.PRE]:
        pick = take("rest:get_drunk")
        if pick is not None:
            return pick
    if any(for_sale(gm, it) for _, it, _ in sellable(gm, member)):
        pick = take("sell")
        if pick is not None:
            return pick
    if _needs(gm) and ch.silver > reserve + 1:
        pick = take("shop")
        if pick is not None:
            return pick
    if ch.afflictions & {"angry", "hopeless"}:
        pick = take("rest:entertainment")
        if pick is not None:
            return pick
    if ch.afflictions & {"terrified", "hopeless"}:
        pick = take("rest:get_drunk")
        if pick is not None:
            return pick
    if not fatigue_of(member) and settlement(gm).doom > 0:
        pick = take("lay_low")
        if pick is not None:
            return pick
    return take("rest")


#: Loot changes hands when the best seller's PRE test succeeds at least this much more often.
SELLER_EDGE = 0.05


def _to_the_seller(gm: GM, by_id: dict[str, Action]) -> Action | None:
    """Hand what is for sale to whoever sells best (giving is free in town): a failed PRE test sells a valuable as
    a common thing, about 3 silver for about 21, and each adventurer used to sell what they had carried out."""
    sellers = [m for m in gm.alive() if m.adv.character.can_act]
    if len(sellers) < 2:
        return None
    chance = {m.id: odds(m.adv.character.test_spec(Attr.PRE)).success for m in sellers}
    best = max(sellers, key=lambda m: (chance[m.id], m.id))
    for m in gm.alive():
        if m is best or chance.get(m.id, 0.0) >= chance[best.id] - SELLER_EDGE:
            continue
        for i, item, _ in sellable(gm, m):
            give = by_id.get(f"give:{m.id}:{i}:{best.id}")
            if give is not None and for_sale(gm, item):
                return give
    return None


def short_of_essentials(gm: GM) -> bool:
    """The party lacks a light, or a ration for everyone: what it must buy before it pays for comfort.  Rations
    are the party's, whoever carries them (a hungry adventurer eats from a companion's pack): counting them
    per adventurer kept a party whose shopper carried them all in town, eating them, night after night."""
    rations = sum(party_count(gm, n) for n in ration_names(gm))
    return not _has_light(gm) or rations < len(gm.alive())


def _suggest_market(gm: GM, avail: list[Action], by_id: dict[str, Action]) -> Action:
    st = interlude_state(gm)
    m = live_member(gm, st.market)
    if m is None:
        return by_id.get("done") or avail[0]
    if st.market_kind == "sell":
        for a in avail:
            if a.kind == "sell_item":
                item = m.adv.inventory.items[int(a.param("index"))]
                if for_sale(gm, item):
                    return a
        return by_id["done"]
    budget = m.adv.character.silver - _reserve(gm) - 1
    # a light and food come before a bed (the light budget): the silver kept for the inn buys them (19% of the
    # expeditions set out without a light while the shopper kept the price of a bed, #14)
    essentials = ("Torches", *ration_names(gm))
    # bought goods go into a pack with room, the shopper's or a companion's (never into the hands: a weapon
    # hand full of bread); a shopper with a full bag buys for the others
    packs = {o.id for o in gm.alive() if _pack_room(o)}
    for name in _needs(gm):
        budget = m.adv.character.silver if name in essentials else m.adv.character.silver - _reserve(gm) - 1
        buy = by_id.get(f"buy:{name}")
        if buy is not None and m.id in packs and buy.cost.silver <= budget:
            return powers_policy.for_whom(gm, m, buy, by_id)
        for a in avail:
            if a.kind == "buy_for" and a.target == name and a.param("for") in packs and a.cost.silver <= budget:
                return a
    if not _needs(gm):
        return powers_policy.extras(gm, m, by_id, budget) or by_id["done"]
    return by_id["done"]


def _pack_room(m: Member) -> bool:
    inv = m.adv.inventory
    return any(p.container and not p.liquid_only and p.on_body and inv.free(p.name) > 0 for p in inv.places)


def _suggest_sleep(gm: GM, avail: list[Action]) -> Action:
    st = interlude_state(gm)
    waiting = [m for m in gm.alive() if m.id not in st.sleep]
    if not waiting:
        return avail[0]
    m = waiting[0]
    mine = {a.target: a for a in avail if a.kind == "sleep" and a.who == m.id}
    inn = mine.get("inn")
    # a bed before the price of a torch: sleeping rough to keep a torch's silver (tried, 40 x 10) sent more
    # parties out weak and lost a few on the streets, for no more silver; the shopper's light budget buys the torch
    comfortable = inn is not None and m.adv.character.silver - inn.cost.silver >= AUTO_FOOD_MONEY
    order = ("proper_accommodation", "inn", "camp") if comfortable else ("proper_accommodation", "camp", "inn")
    for rule in order:
        if rule in mine:
            return mine[rule]
    return next(iter(mine.values()))


#: Expeditions into one dungeon before the autoplay would rather try another (each exit wakes it up: doom +2).
AUTO_VISITS = 3


def visits(gm: GM, location_id: str) -> int:
    loc = gm.c.locations.get(location_id)
    return loc.visits if loc is not None else 0


def barred(gm: GM, location_id: str) -> bool:
    """On the first level of a dungeon the party has been in, every unexplored room it knows a way to lies
    behind a room where it has seen enemies waiting for it: going back only means meeting them again (the
    mindless stay hostile, R171).  Doors count as passable; the deeper levels are not looked at."""
    loc = gm.c.locations.get(location_id)
    if loc is None or not loc.visits or 1 not in loc.levels:
        return False
    from rules.gm.encounters import menacing

    states = loc.levels[1].rooms
    level = gm.site(location_id).depth(1)

    def held(rid: int) -> bool:
        st = states.get(rid)
        return st is not None and bool(menacing(gm, level.room(rid), st.monsters, expedition=False))

    todo = [r for r in level.entrances if not held(r)]
    seen = set(todo)
    while todo:
        r = todo.pop()
        st = states.get(r)
        if st is None or not st.visited:
            return False  # a way in to somewhere new
        if any(d > 1 for d, _ in level.room(r).stairs):
            return False  # the stairs down
        for link in level.links_of(r):
            n = link.other(r)
            if n not in seen and not held(n) and not (_shut(loc.levels[1].doors, link) and _occupied(st)):
                seen.add(n)
                todo.append(n)
    return True


def _shut(doors: dict[int, DoorState], link: SiteLink) -> bool:
    """The door must be worked on (picked, forced, broken) before anyone passes: as the party left it."""
    st = doors.get(link.id)
    if link.door == "archway" or (st is not None and (st.opened or st.broken)):
        return False
    return link.door in ("stuck", "barricaded", "secret") or (link.door == "locked" and not (st and st.unlocked))


def _occupied(st: RoomState) -> bool:
    """Someone alive waits in the room, even if only wary: no door is worked on under their eyes ("Not with
    enemies here"), so a door out of it that must be worked on bars the way as surely as a hostile room."""
    return any(g.count > 0 for g in st.monsters)


def guarded(gm: GM, location_id: str) -> bool:
    """The party has seen enemies waiting for it in a room where it comes in."""
    loc = gm.c.locations.get(location_id)
    if loc is None or not loc.visits or 1 not in loc.levels:
        return False
    from rules.gm.encounters import menacing

    states = loc.levels[1].rooms
    level = gm.site(location_id).depth(1)
    for rid in level.entrances:
        st = states.get(rid)
        if st is not None and menacing(gm, level.room(rid), st.monsters, expedition=False):
            return True
    return False
