"""The words around a dungeon: its title and owner, level names, hook and bounty, rumours, history."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any

from dungeon_gen.difficulty import monster_level
from dungeon_gen.model import LevelData, Rumour
from dungeon_gen.themes import PlaceRumour, Theme

TRUE_RUMOURS = (6, 8)  # how many of the eleven 2d6 rumours are true: between these


class _Blanks(dict[str, str]):
    """Template values; an unknown placeholder is left readable rather than crashing."""

    def __missing__(self, key: str) -> str:
        return f"{{{key}}}"


_DOUBLE_THE = re.compile(r"\b([Tt]he) [Tt]he\b")
#: Words of a level's name that presume another level above or below it.
_RELATIVE = re.compile(r"\b(Upper|Lower|Higher|Deeper|Deep|Bottom|Top|First|Second|Third|Last)\b")


#: ``[a|b|c]``: one of the alternatives, drawn when the template is filled.
_ALTERNATIVES = re.compile(r"\[([^\[\]]*\|[^\[\]]*)\]")
#: ``{@smell}``: one phrase of the theme's ``phrases.smell``.
_PHRASE = re.compile(r"\{@([a-z][a-z0-9_]*)\}")
#: Marks where a drawn part begins, so a part that opens a sentence is capitalised.
_MARK = "\x01"
_OPENS = re.compile(r"(^|[.!?][\"')]?\s+)\x01([a-z])")
#: The key of :meth:`Story.values` that carries the theme's phrase banks to :func:`fill`.
PHRASES = "@phrases"


class PhraseDeck(dict[str, tuple[str, ...]]):
    """A dungeon's phrase banks, with the phrases it has drawn: :func:`expand` draws a phrase the dungeon has
    not used while its bank has one (issue #15: "Silver masks" eight times in one dungeon)."""

    def __init__(self, banks: Mapping[str, tuple[str, ...]]) -> None:
        super().__init__(banks)
        self.used: set[str] = set()


def expand(template: str, rng: Random | None, phrases: Mapping[str, tuple[str, ...]] | None = None) -> str:
    """Draw a template's parts: each ``{@bank}`` becomes one phrase of that bank, then each
    ``[a|b|c]`` one of its alternatives (left to right, so the same RNG state gives the same
    text).  Without an RNG the first phrase and the first alternative are taken."""
    if "[" not in template and "{@" not in template:
        return template

    def phrase(m: re.Match[str]) -> str:
        bank = (phrases or {}).get(m[1])
        if not bank:
            return m[0]
        if rng is None:
            return _MARK + bank[0]
        if isinstance(phrases, PhraseDeck):  # a dungeon's deck: no phrase twice until its bank is spent
            unused = [p for p in bank if p not in phrases.used] or list(bank)
            drawn = rng.choice(unused)
            phrases.used.add(drawn)
            return _MARK + drawn
        return _MARK + rng.choice(bank)

    def alternative(m: re.Match[str]) -> str:
        options = m[1].split("|")
        return _MARK + (rng.choice(options) if rng is not None else options[0])

    text = _ALTERNATIVES.sub(alternative, _PHRASE.sub(phrase, template))
    text = _OPENS.sub(lambda m: m[1] + m[2].upper(), text)
    return re.sub(r" {2,}", " ", text.replace(_MARK, "")).replace(" .", ".").replace(" ,", ",")


def fill(template: str, values: Mapping[str, Any], rng: Random | None = None) -> str:
    """Draw the template's parts (:func:`expand`: ``{@bank}`` and ``[a|b|c]``, from ``rng``), then
    fill its ``{placeholders}``; "the The Mourners" (a name that starts with The) reads "the Mourners".

    The parts are drawn from an RNG of their own, seeded by one draw of ``rng``: however many parts a
    template has, filling it takes one draw from ``rng``, so growing a theme's texts never changes the
    monsters, traps and loot drawn after it."""
    text = expand(template, Random(rng.getrandbits(64)) if rng is not None else None, values.get(PHRASES))
    text = text.format_map(_Blanks({k: str(v) for k, v in values.items() if k != PHRASES}))
    return _DOUBLE_THE.sub(lambda m: m[1], text)


_WORD = re.compile(r"[A-Za-z][a-z']*")


def proper_nouns(th: Theme) -> frozenset[str]:
    """Words the theme writes capitalised in the middle of a sentence (Cador, Igra, Kumar): names,
    which keep their capital when a text is put after "In the north-west corner, "."""
    return _PROPER.get(th.id) or _PROPER.setdefault(th.id, _proper(th))


_PROPER: dict[str, frozenset[str]] = {}


def _proper(th: Theme) -> frozenset[str]:
    words: set[str] = set()
    for text in _texts(th):
        for sentence in re.split(r"(?<=[.!?:;])\s+|[\[\]|]", text):
            for w in _WORD.findall(sentence)[1:]:
                if w[0].isupper():
                    words.add(w)
    for name in (*th.titles.owners, *th.hooks.settlements):  # names, first word included
        words.update(w for w in _WORD.findall(name) if w[0].isupper())
    return frozenset(words) - _COMMON


#: Words that may be capitalised mid-text (after a colon, in a quotation) but are never names.
_COMMON = frozenset(
    {"A", "An", "The", "Some", "One", "It", "This", "That", "There", "They", "He", "She", "Every", "Its"}
)


def _texts(th: Theme) -> list[str]:
    out: list[str] = [*th.titles.owners, *th.hooks.settlements]
    for k in th.room_kinds:
        out += k.descriptions
        out += [t for f in k.features for t in (f.text, f.success, f.failure)]
    out += [t for tr in th.traps for t in (tr.text, tr.effect)]
    out += [c.text for c in th.corpses]
    return out


def said(th: Theme, who: str, text: str) -> str:
    """A rumour put in someone's mouth: "A drunk sexton swears the coffin was full of stones"."""
    first = _WORD.match(text)
    if first is None or first[0] in proper_nouns(th) or first[0] == "I":
        return f"{who} {text}"
    return f"{who} {text[0].lower()}{text[1:]}"


@dataclass(frozen=True)
class Story:
    """Names drawn before the levels, so rooms and doom events can use them."""

    title: str
    owner: str
    settlement: str
    bounty: int
    level_names: tuple[str, ...]
    level_notes: tuple[str, ...]
    boss: str  # the bestiary name of the dungeon's master, waiting on the deepest level
    boss_entry: int  # index into the theme's monster roster
    phrases: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def draw(cls, th: Theme, rng: Random, *, level: int, depth: int) -> Story:
        t = th.titles
        owner = rng.choice(t.owners)
        pattern = rng.choice(t.patterns)
        title = fill(pattern, {"adjective": rng.choice(t.adjectives), "place": rng.choice(t.places), "owner": owner})
        names: list[str] = []
        notes: list[str] = []
        for d in range(1, depth + 1):
            dn = th.depth_names(d)
            options = [n for n in dn.names if n not in names] or list(dn.names)
            if depth == 1:  # "The Upper Crypt" of a dungeon that has no other level
                options = [n for n in options if not _RELATIVE.search(n)] or options
            names.append(rng.choice(options))
            notes.append(rng.choice(dn.notes) if dn.notes else "")
        settlement = rng.choice(th.hooks.settlements)
        bounty = th.hooks.bounty.silver(level, depth)
        deepest = min(10, level + depth - 1)
        candidates = th.roster(deepest, "boss") or th.roster(deepest, "elite") or list(th.monsters)
        # The master is the strongest thing of its level (issue #15): one strong enough for the deepest
        # level's difficulty, so the cap it sets on the other monsters (contents.py) leaves them their due.
        floor = min(deepest + 1, max(monster_level(e.monster) for e in candidates))
        candidates = [e for e in candidates if monster_level(e.monster) >= floor]
        entry = rng.choices(candidates, weights=[e.weight for e in candidates])[0]
        return cls(title, owner, settlement, bounty, tuple(names), tuple(notes), entry.monster,
                   th.monsters.index(entry), PhraseDeck(th.phrase_banks()))  # fmt: skip

    def values(self, **more: Any) -> dict[str, Any]:
        return {
            "title": self.title,
            "owner": self.owner,
            "settlement": self.settlement,
            "bounty": self.bounty,
            "level_name": self.level_names[0],
            "boss": self.boss,
            PHRASES: self.phrases,
            **more,
        }


@dataclass(frozen=True)
class Told:
    hook: str
    rumours: list[Rumour]
    history: str
    quest: str = ""  # what the adventurers are given or told when they accept
    quest_after: str = ""  # what happens when they come back


def tell(th: Theme, story: Story, levels: list[LevelData], rng: Random) -> Told:
    """Hook (with openers), eleven rumours on 2d6, and a GM history of three paragraphs.

    ``{room}`` here is the master's lair on the deepest level ("The worst of it waits in the
    {room}", "she can no longer leave the {room}"): the one room the story speaks of is on the map."""
    first = levels[0]
    lairs = [r for r in levels[-1].rooms if r.boss]
    room = lairs[0] if lairs else min(first.rooms, key=lambda r: r.id)
    groups = [g.name for g in first.wandering_monsters]

    def values() -> dict[str, Any]:
        return story.values(room=room.name.lower(), group=rng.choice(groups))  # templates write "the {room}"

    offer = rng.choice(th.hooks.all())
    hook = fill(offer if isinstance(offer, str) else offer.text, values(), rng)
    quest = "" if isinstance(offer, str) else fill(offer.quest, values(), rng)
    after = "" if isinstance(offer, str) else fill(offer.after, values(), rng)
    openers = rng.sample(th.hooks.openers, k=min(3, len(th.hooks.openers)))
    hook += "\n\nPossible ideas for starting out:\n" + "\n".join(f"- {fill(o, values(), rng)}" for o in openers)

    # A rumour about a place is true only where the map has that place: drawn only then, naming it.
    where: dict[str, Any] = {}
    for level in levels:
        for r in sorted(level.rooms, key=lambda r: r.id):
            where.setdefault(r.kind, r)
    true_pool = [t for t in th.rumours.true if isinstance(t, str) or t.kind in where]
    n_true = rng.randint(*TRUE_RUMOURS)
    trues = rng.sample(true_pool, k=min(n_true, len(true_pool)))
    falses = rng.sample(th.rumours.false, k=11 - len(trues))

    # Who tells it (the theme's phrases.teller), unless the rumour names its teller itself.
    tellers = th.phrases.get("teller", [])

    def voiced(template: str, text: str) -> str:
        if not tellers or "{@" in template:
            return text
        return said(th, fill(rng.choice(tellers), values(), rng), text)

    def told(t: str | PlaceRumour) -> str:
        if isinstance(t, str):
            return voiced(t, fill(t, values(), rng))
        return voiced(t.text, fill(t.text, {**values(), "room": where[t.kind].name.lower()}, rng))

    pool = [(told(t), True) for t in trues] + [(voiced(f, fill(f, values(), rng)), False) for f in falses]
    rng.shuffle(pool)
    rumours = [Rumour(roll=roll, text=text, true=true) for roll, (text, true) in zip(range(2, 13), pool, strict=True)]

    parts = [fill(rng.choice(part), values(), rng) for part in (th.history.origin, th.history.fall, th.history.now)]
    return Told(hook=hook, rumours=rumours, history="\n\n".join(parts), quest=quest, quest_after=after)
