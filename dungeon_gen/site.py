"""The generator's side of the GM's interface: a :class:`~rules.gm.site.Site` from a dungeon."""

from __future__ import annotations

from dungeon_gen.export.json_io import loads
from dungeon_gen.generate import generate
from dungeon_gen.model import Dungeon, LevelData, Reward, Want
from dungeon_gen.themes import load_themes
from rules.gm.site import (
    Site,
    SiteCorpse,
    SiteDoomStep,
    SiteFeature,
    SiteGroup,
    SiteLevel,
    SiteLink,
    SiteLoot,
    SiteMonsters,
    SitePiece,
    SiteReward,
    SiteRoom,
    SiteSecret,
    SiteTrap,
    SiteWant,
)


def _reward(r: Reward) -> SiteReward:
    value = "" if r.value is None else str(r.value)
    return SiteReward(r.kind, tuple(r.items), r.count, r.name, r.rarity or "", value, r.big, r.monster, r.attitude,
                      r.reveals, r.pick)  # fmt: skip


def _want(w: Want | None) -> SiteWant | None:
    return None if w is None else SiteWant(w.text, w.asks, w.amount, w.reveals, w.told, w.leaves)


def _level(level: LevelData, entrances: list[int], floors: frozenset[str] = frozenset()) -> SiteLevel:
    """The GM's view of a level; ``floors``: the names of the theme's traps set in the floor."""
    stairs: dict[int, list[tuple[int, int]]] = {}
    for s in level.stairs:
        stairs.setdefault(s.room, []).append((s.to_depth, s.to_room))
    ups = [s.room for s in level.stairs if s.to_depth < level.depth]
    ways_in = entrances if level.depth == 1 else ups
    rooms = tuple(
        SiteRoom(
            id=r.id,
            name=r.name,
            description=r.description,
            tiles=frozenset(r.floor()),
            monsters=tuple(
                SiteMonsters(g.monster, g.count, tuple(g.positions), g.aware, g.note, _want(g.want)) for g in r.monsters
            ),
            traps=tuple(
                SiteTrap(
                    t.name,
                    t.text,
                    t.trigger,
                    t.clue,
                    t.find,
                    t.disarm,
                    t.attack,
                    t.effect,
                    tuple(t.afflictions),
                    t.doom,
                    t.tile,
                    t.name in floors,
                )
                for t in r.traps
            ),
            loot=tuple(SiteLoot(x.name, x.rarity, x.value, x.count, x.item, x.hidden, x.big, x.text) for x in r.loot),
            secrets=tuple(SiteSecret(s.kind, s.text, s.find, s.reveals) for s in r.secrets),
            features=tuple(
                SiteFeature(f.name, f.text, f.test, f.success, f.failure, tuple(_reward(x) for x in f.rewards))
                for f in r.features
            ),
            corpses=tuple(SiteCorpse(c.text, c.rises_as, c.warded, c.tile) for c in r.corpses),
            camp=frozenset(r.camp),
            lit=r.lit,
            boss=r.boss,
            entrance=r.id in ways_in,
            stairs=tuple(stairs.get(r.id, [])),
            lore=tuple((n.skill, n.text) for n in r.lore),
        )
        for r in level.rooms
    )
    links = tuple(
        SiteLink(
            c.id,
            c.from_,
            c.to,
            c.door.kind,
            c.door.spikeable,
            c.door.key,
            max(1, len(c.path)),
            a_tile=c.path[0] if c.path else None,
            b_tile=c.door.tile,
        )
        for c in level.connections
    )
    doom = tuple(
        SiteDoomStep(
            s.ticks, s.effect.kind, s.effect.text, s.effect.group,
            tuple((m.monster, m.count) for m in s.effect.monsters), s.effect.attack, s.effect.affliction,
            s.effect.dice,
        )
        for s in level.doom_track
    )  # fmt: skip
    groups = tuple(SiteGroup(g.name, g.text, tuple((m.monster, m.count) for m in g.monsters)) for g in
                   level.wandering_monsters)  # fmt: skip
    pieces = tuple(
        SitePiece(p.name, p.control, p.target, p.text, p.success, p.after, p.before, p.test, p.skill, p.failure,
                  p.hazard, p.holds, tuple((m.monster, m.count) for m in p.releases), p.doom)
        for p in level.set_pieces
    )  # fmt: skip
    return SiteLevel(level.depth, level.name, rooms, links, tuple(ways_in), doom, groups, pieces)


def to_site(d: Dungeon, site_id: str | None = None) -> Site:
    theme = load_themes().get(d.theme)
    floors = frozenset(t.name for t in theme.traps if t.floor) if theme is not None else frozenset()
    return Site(
        id=site_id or f"{d.theme}-{d.seed}",
        title=d.title,
        theme=d.theme,
        level=d.level,
        bounty=d.bounty,
        hook=d.hook,
        levels=tuple(_level(lv, list(d.entrances), floors) for lv in d.levels),
    )


class GeneratedDungeons:
    """The :class:`~rules.gm.site.DungeonMaker` the campaign uses."""

    def make(self, seed: int, *, level: int, rooms: int, theme: str | None, depth: int) -> tuple[Site, str]:
        d = generate(seed, level=level, rooms=rooms, theme=theme, depth=depth)
        return to_site(d), d.to_json()

    def load(self, data: str) -> Site:
        return to_site(loads(data, "saved dungeon"))

    def themes(self, level: int | None = None) -> list[str]:
        themes = load_themes()
        if level is None:
            return sorted(themes)
        return sorted(t for t, th in themes.items() if th.min_level <= level <= th.max_level) or sorted(themes)
