"""The GM key in Markdown, laid out like the rules author's sample dungeon:
hook, rumours, history, entrances, doom tracker, wandering monsters, then
every keyed room with its monsters, traps, loot, secrets, features and exits.
"""

from __future__ import annotations

from collections import defaultdict

from dungeon_gen.model import Connection, Door, Dungeon, LevelData, MonsterCount, Room, SetPiece, Want

_DOOR_WORDS = {
    "archway": "open archway",
    "wooden": "wooden door",
    "iron": "iron door",
    "stuck": "stuck door",
    "locked": "locked door",
    "secret": "secret door",
    "barricaded": "barricaded door",
}


def plural(name: str, count: int) -> str:
    if count == 1:
        return name
    if name.endswith(("s", "x", "ch", "sh")):
        return name + "es"
    if name.endswith("y") and name[-2:-1] not in "aeiou":
        return name[:-1] + "ies"
    if name.endswith("man"):
        return name[:-3] + "men"
    if name.endswith("Dead"):
        return name
    return name + "s"


def monster_list(groups: list[MonsterCount] | list[MonsterCount]) -> str:
    parts = [f"{g.count} **{plural(g.monster, g.count)}**" for g in groups]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def direction(room: Room, tile: tuple[int, int]) -> str:
    """Which wall of ``room`` a tile next to it lies on."""
    cx, cy = room.x + (room.w - 1) / 2, room.y + (room.h - 1) / 2
    dx, dy = tile[0] - cx, tile[1] - cy
    if abs(dx) * room.h >= abs(dy) * room.w:
        return "east" if dx > 0 else "west"
    return "south" if dy > 0 else "north"


def level_exits(level: LevelData) -> dict[int, list[tuple[Connection, int]]]:
    """Every room's connections on ``level``, each with the room at its other end."""
    out: dict[int, list[tuple[Connection, int]]] = defaultdict(list)
    for c in level.connections:
        out[c.from_].append((c, c.to))
        out[c.to].append((c, c.from_))
    return out


def _door_line(door: Door, where: str, *, described: bool = True) -> str:
    """A door's line of the key: the door and where it leads first, then its description (unless
    ``described`` is False: a secret door the room's secrets describe), whether it can be spiked and
    where its key is, each a sentence of its own (never "...false bottom. to 7")."""
    parts = [f"**{_DOOR_WORDS[door.kind]}** {where}."]
    if door.text and described:
        parts.append(_sentence(door.text))
    if door.spikeable:
        parts.append("It can be spiked.")
    if door.key:
        parts.append(f"Key: {_sentence(door.key)}")
    return " ".join(parts)


def room_section(level: LevelData, room: Room, exits: dict[int, list[tuple[Connection, int]]]) -> list[str]:
    """The GM key's Markdown lines for one room (the workshop shows them one room at a time)."""
    title = f"## {room.id} {room.name}" if level.depth == 1 else f"## {level.depth}.{room.id} {room.name}"
    out = [title, room.description, ""]
    for g in room.monsters:
        line = f"{monster_list([g])}"
        line += " are here" if g.count > 1 else " is here"
        line += f", {g.note}." if g.note else "."
        if not g.aware:
            line += " They have not noticed the adventurers (surprise is possible)."
        if g.want is not None:
            line += " " + want_line(g.want)
        out.append(line)
    if room.monsters:
        out.append("")
    bullets: list[str] = []
    for t in room.traps:
        attack = f" ({t.attack})" if t.attack else ""
        clue = f" *Clue: {t.clue}*" if t.clue else ""
        bullets.append(
            f"**Trap — {t.name}**: {t.text} Triggered by {t.trigger}. Find: {t.find}; disarm: {t.disarm}. "
            f"{_sentence(t.effect.rstrip('.') + attack)}{clue}"
        )
    for loot in room.loot:
        value = f"worth {loot.value} silver" if loot.value else "worthless"
        count = f"{loot.count} × " if loot.count > 1 else ""
        hidden = " (hidden: found only by searching)" if loot.hidden else ""
        text = f" {loot.text}" if loot.text else ""
        bullets.append(f"{count}**{loot.name}** ({value} each){hidden}.{text}" if loot.count > 1
                       else f"**{loot.name}** ({value}){hidden}.{text}")  # fmt: skip
    for s in room.secrets:
        bullets.append(
            f"**Secret ({s.kind})**: {_sentence(s.text)} Found with {_a(s.find)} {s.find} test when searching."
        )
    for f in room.features:
        test = ""
        if f.test and f.success:
            test = f" *{f.test} test* — success: {_sentence(f.success)} Failure: {_sentence(f.failure)}"
        bullets.append(f"**{f.name}**: {_sentence(f.text)}{test}")
    for p in level.set_pieces:
        if p.control == room.id:
            bullets.append(piece_control_line(p, level.room(p.target)))
        if p.target == room.id:
            bullets.append(piece_target_line(p, level.room(p.control)))
    for note in room.lore:
        bullets.append(f"**{note.skill}** (only someone with the skill makes this out): {_sentence(note.text)}")
    for c in room.corpses:
        rises = f" Left unwarded, the dead vigil raises it as a **{c.rises_as}**." if c.rises_as else ""
        bullets.append(f"**Corpse**: {c.text}{rises}")
    for st in level.stairs:
        if st.room == room.id:
            where = "down" if st.to_depth > level.depth else "up"
            bullets.append(f"**Stairs {where}** to level {st.to_depth}, room {st.to_room}. {st.text}".rstrip())
    for conn, other in sorted(exits.get(room.id, []), key=lambda e: e[1]):
        if conn.door.kind == "secret":
            continue
        side = direction(room, conn.path[0] if conn.from_ == room.id and conn.path else conn.door.tile)
        bullets.append(_door_line(conn.door, f"to {other} ({side})"))
    hidden_exits = [(c, o) for c, o in exits.get(room.id, []) if c.door.kind == "secret"]
    told = {s.reveals for s in room.secrets}
    for conn, other in hidden_exits:
        where = f"to {other}, found by searching (INT)"
        bullets.append(_door_line(conn.door, where, described=f"connection {conn.id}" not in told))
    if room.camp:
        bullets.append(f"Camp: {', '.join(room.camp)}.")
    out += [f"- {b}" for b in bullets]
    if room.notes:
        out += ["", f"> {room.notes}"]
    out.append("")
    return out


_REVEALS = {
    "doom": "how near the dungeon's doom is",
    "boss": "where the master waits",
    "traps": "the room's traps",
    "secrets": "the room's secrets",
    "stairs": "where the stairs down are",
}


def want_line(want: Want) -> str:
    """What a group wants and what it gives for it, in the key."""
    what = f"{want.amount} ration{'s' if want.amount != 1 else ''}" if want.asks == "food" else f"{want.amount} silver"
    gives = [f"they tell {_REVEALS[want.reveals]}"] if want.reveals else []
    if want.leaves:
        gives.append("they leave")
    told = f" *{_sentence(want.told)}*" if want.told else ""
    after = f": {' and '.join(gives)}." if gives else "."
    return f"**They want something**: {_sentence(want.text)} Given {what}, they turn friendly{after}{told}"


def piece_control_line(p: SetPiece, target: Room) -> str:
    """A set piece where it is worked: what it is, the test, what it does to the other room."""
    how = f" *{p.test} test*" if p.test else " *No test*"
    if p.skill:
        how += f" (none for someone with {p.skill})"
    fail = f" Failure: {_sentence(p.failure)}" if p.failure else ""
    noise = f" Working it is loud (doom +{p.doom})." if p.doom else ""
    return (f"**Set piece — {p.name}** (changes room {target.id}, {target.name}): {_sentence(p.text)}{how} — "
            f"success: {_sentence(p.success)}{fail}{noise}")  # fmt: skip


def piece_target_line(p: SetPiece, control: Room) -> str:
    """A set piece where it changes things: the room before and after it is worked."""
    parts = [f"**Set piece — {p.name}** (worked from room {control.id}, {control.name}): {_sentence(p.before)}"]
    if p.hazard:
        parts.append(f"Until it is worked, each who comes in defends {p.hazard}.")
    if p.holds:
        parts.append("The room's valuables are out of reach until then.")
    parts.append(f"Once it is worked: {_sentence(p.after)}")
    if p.releases:
        parts.append(f"Out come {monster_list(list(p.releases))}, hostile.")
    return " ".join(parts)


def _a(word: str) -> str:
    return "an" if word[:1].upper() in "AEIOU" else "a"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?" else text + "."


def level_front(level: LevelData) -> list[str]:
    """The Markdown lines that open a level's key: its doom tracker and wandering monsters."""
    out = ["### Doom Tracker",
           "Tick a box every time the adventurers make excessive noise, waste too much time or come back "
           "from the interlude (leaving advances it 2 steps).", ""]  # fmt: skip
    for step in level.doom_track:
        boxes = "☐" * step.ticks
        out.append(f"- {boxes} {step.effect.text}")
    out += ["", "### Wandering Monsters",
            "Use them when the adventurers wander too much, feel too safe, or the camp's ambush roll "
            "shows a 6.", ""]  # fmt: skip
    for g in level.wandering_monsters:
        text = f" {g.text}" if g.text else ""
        out.append(f"- **{g.name}**:{text} {monster_list(g.monsters)}.")
    out.append("")
    return out


def to_markdown(d: Dungeon) -> str:
    """The whole GM key."""
    lines: list[str] = [f"# {d.title}", ""]
    size = "a single level" if len(d.levels) == 1 else f"{len(d.levels)} levels"
    lines.append(f"*A dungeon for Dead Weight — difficulty {d.level}, {size}, seed {d.seed}. "
                 f"Theme: {d.theme.replace('_', ' ')}.*")  # fmt: skip
    lines += ["", "## General Information", "", "### Hook", d.hook, "", f"**Bounty: {d.bounty} silver.**", ""]
    if d.quest:
        lines += [f"**The job.** {d.quest}", ""]
    if d.quest_after:
        lines += [f"**When they come back.** {d.quest_after}", ""]
    lines += ["### Rumours",
              "Give each adventurer a rumour (two with 2 or more in presence); roll again on repeats. "
              "False rumours are marked for the GM only.", "", "| 2d6 | Rumour |", "| :---: | --- |"]  # fmt: skip
    for r in sorted(d.rumours, key=lambda r: r.roll):
        lines.append(f"| {r.roll} | {r.text}{'' if r.true else ' *(false)*'} |")
    lines += ["", "### Dungeon History",
              "> For the GM only: what is really going on here.", ""]  # fmt: skip
    lines += [d.history, ""]
    lines += ["### Entrances"]
    if d.outside:
        lines += [d.outside, ""]
    ways = {w.room: w for w in d.entrance_ways}
    for e in d.entrances:
        told = f" {ways[e].text}" if e in ways and ways[e].text else ""
        lines.append(f"- [Room {e}: {d.room(e).name}](#{e}-{_anchor(d.room(e).name)}).{told}")
    if d.outside_lore:
        lines += ["", "What a skill makes out outside, if the players look around first:"]
        lines += [f"- **{n.skill}**: {_sentence(n.text)}" for n in d.outside_lore]
    lines.append("")
    for level in d.levels:
        if level.depth > 1:
            lines += [f"# Level {level.depth}: {level.name}" if level.name else f"# Level {level.depth}", ""]
            # How the party gets here, under the level's heading (and never a heading straight under a heading).
            ups = [s for s in level.stairs if s.to_depth < level.depth]
            lines += [f"*Reached by the stairs down from level {s.to_depth}, room {s.to_room}; they come out in "
                      f"room {s.room}.*" for s in ups] or ["*No way down to this level is known.*"]  # fmt: skip
            lines.append("")
        elif level.name:
            lines += [f"*Level 1: {level.name}*" if len(d.levels) > 1 else f"*{level.name}*", ""]
        lines += level_front(level)
        exits = level_exits(level)
        for room in sorted(level.rooms, key=lambda r: r.id):
            lines += room_section(level, room, exits)
    text = "\n".join(lines)
    return text.rstrip() + "\n" + _credit()


def _anchor(name: str) -> str:
    return "-".join("".join(ch for ch in name.lower() if ch.isalnum() or ch == " ").split())


def _credit() -> str:
    return "\n---\n*Generated by Blacksalt. Dead Weight is by Pedro Medeiros, released under CC BY 4.0.*\n"
