"""A hand-built dungeon for GM tests: a corridor of rooms with exactly what a test needs."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random

from rules.content.registry import load_content
from rules.creation import Adventurer
from rules.gm.campaign import new_campaign
from rules.gm.engine import GM, AutoDecider
from rules.gm.site import Site, SiteDoomStep, SiteGroup, SiteLevel, SiteLink, SiteLoot, SiteRoom, SiteSecret, SiteTrap
from rules.gm.state import Campaign, LocationState
from rules.inventory import Carried


class Loaded(Random):
    """A seeded RNG whose next ``randint`` results are ``faces`` (then back to the seed)."""

    def __init__(self, seed: int, faces: list[int] | None = None) -> None:
        super().__init__(seed)
        self.faces = list(faces or [])

    def load(self, *faces: int) -> None:
        self.faces.extend(faces)

    def randint(self, a: int, b: int) -> int:
        if self.faces:
            v = self.faces.pop(0)
            assert a <= v <= b, f"loaded face {v} is not in {a}..{b}"
            return v
        return super().randint(a, b)


def box(x: int, w: int = 3) -> frozenset[tuple[int, int]]:
    return frozenset((x + i, y) for i in range(w) for y in range(3))


def corridor(n: int = 7, *, doors: dict[int, str] | None = None, **room_extras: dict[str, object]) -> Site:
    """Rooms 1..n in a row, linked 1-2, 2-3, ... with archways unless ``doors`` says (link id -> kind)."""
    rooms = []
    for i in range(1, n + 1):
        extra = dict(room_extras.get(f"r{i}", {}))
        rooms.append(
            SiteRoom(id=i, name=f"Room {i}", description=f"The {i}th room.", tiles=box(i * 5), entrance=i == 1, **extra)
        )  # type: ignore[arg-type]
    links = tuple(SiteLink(id=i, a=i, b=i + 1, door=(doors or {}).get(i, "archway"), length=1) for i in range(1, n))
    doom = (
        SiteDoomStep(2, "lights_snuffed", "A wind snuffs every light."),
        SiteDoomStep(2, "affliction", "Everyone shivers.", affliction="shaken"),
        SiteDoomStep(2, "ambush_dice", "The dead gather.", dice=1),
        SiteDoomStep(2, "decay_doubled", "The curse deepens."),
        SiteDoomStep(2, "seal_exit", "The door slams shut."),
        SiteDoomStep(2, "boss_hunts", "It hunts you."),
        SiteDoomStep(2, "final_fight", "It comes.", monsters=(("Bugbear", 1),)),
    )
    level = SiteLevel(
        1, "Test level", tuple(rooms), links, (1,), doom, (SiteGroup("Rats", "Rats.", (("Plagued Rat", 3),)),)
    )
    return Site("test-site", "The Test Crypt", "necromancer_tomb", 1, 50, "A test.", (level,))


@dataclass
class FakeMaker:
    sites: dict[str, Site] = field(default_factory=dict)

    def make(self, seed: int, *, level: int, rooms: int, theme: str | None, depth: int) -> tuple[Site, str]:
        site = corridor(rooms)
        key = f"{site.id}-{seed}"
        self.sites[key] = site
        return site, key

    def load(self, data: str) -> Site:
        return self.sites[data]

    def themes(self, level: int | None = None) -> list[str]:
        return ["necromancer_tomb"]


def game(
    site: Site, seed: int = 1, party: int = 2, adventurers: list[Adventurer] | None = None, light: bool = True
) -> GM:
    """A campaign standing at the site's entrance (not yet entered)."""
    content = load_content()
    maker = FakeMaker({site.id: site})
    c: Campaign = new_campaign(content, maker, seed, party, adventurers=adventurers)
    c.locations[site.id] = LocationState(
        id=site.id,
        title=site.title,
        theme=site.theme,
        level=site.level,
        bounty=site.bounty,
        depths=len(site.levels),
        data=site.id,
    )
    for m in c.party:  # no stray lights: the tests decide
        m.adv.inventory.items = [i for i in m.adv.inventory.items if i.name not in ("Torches", "Candles", "Lantern")]
    if light:
        c.party[0].adv.inventory.add(Carried("Torches", "", count=2, rarity="common"))
    return GM(c, content, maker, AutoDecider())


__all__ = ["Loaded", "SiteLoot", "SiteSecret", "SiteTrap", "corridor", "game"]
