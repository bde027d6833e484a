"""The command line, for players, GMs and tests.  No Qt here.

Every sub-command imports only what it needs, so ``blacksalt odds`` starts
fast.  Bad input exits with status 2 and a message, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

EXIT_USAGE = 2
EXIT_NOT_FOUND = 3
EXIT_CONTENT = 4


def _bounded(lo: float, hi: float, what: str, kind: type = int) -> Any:
    """An argparse type: a number of ``kind`` (int or float) between ``lo`` and ``hi``, or a clear message."""
    noun = "a whole number" if kind is int else "a number"
    show = str if kind is int else (lambda v: f"{v:g}")

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be {noun}, not {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{what} must be between {show(lo)} and {show(hi)}, not {show(value)}")
        return value

    return parse


def _window_size(text: str) -> tuple[int, int]:
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit() or not (320 <= int(w) <= 8000 and 240 <= int(h) <= 8000):
        raise argparse.ArgumentTypeError(f"--size must be WIDTHxHEIGHT in pixels (such as 1024x640), not {text!r}")
    return int(w), int(h)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="blacksalt",
        description="Blacksalt: a solo game of Dead Weight (rules by Pedro Medeiros, CC BY 4.0).",
    )
    p.add_argument("--version", action="version", version=f"blacksalt {version()}")
    p.add_argument("--screenshots", default=None, metavar="DIR",
                   help="play a seeded demo campaign headless and write a PNG of every screen into DIR")  # fmt: skip
    p.add_argument("--seed", dest="demo_seed", type=_bounded(0, 2**63 - 1, "--seed"), default=None,
                   help="the demo campaign's seed (with --screenshots)")  # fmt: skip
    p.add_argument("--size", dest="demo_size", type=_window_size, default=None, metavar="WxH",
                   help="the window's size for --screenshots (default 1280x720)")  # fmt: skip
    p.add_argument("--text-size", dest="demo_text_size", type=_bounded(8.0, 20.0, "--text-size", float), default=None,
                   metavar="PT", help="the text size for --screenshots (8 to 20 points)")  # fmt: skip
    p.add_argument("--scale", dest="demo_scale", type=_bounded(1.0, 4.0, "--scale", float), default=None,
                   help="the screen's device pixel ratio for --screenshots (2: a high-density screen)")  # fmt: skip
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    o = sub.add_parser("odds", help="exact odds of an attribute test", description="Exact odds of a test or check.")
    o.add_argument("--dice", type=_bounded(-6, 12, "--dice"), required=True, help="available dice (may be 0 or less)")
    o.add_argument("--proficiency", type=_bounded(0, 6, "--proficiency"), default=0)
    o.add_argument("--advantage", type=_bounded(0, 6, "--advantage"), default=0)
    o.add_argument("--disadvantage", type=_bounded(0, 6, "--disadvantage"), default=0)
    o.add_argument("--tokens", type=_bounded(0, 6, "--tokens"), default=0, help="dodge/shield tokens spent against it")
    o.add_argument("--extra-effort", action="store_true")
    o.add_argument("--keep-safe", action="store_true")
    o.add_argument("--check", action="store_true", help="a check: 1s and 4s cost no fatigue")
    o.add_argument("--help-die", action="store_true", help="an ally helps with one die")
    o.add_argument("--helper-proficiency", type=_bounded(0, 6, "--helper-proficiency"), default=0)
    o.add_argument("--dauntless", action="store_true")
    o.add_argument("--burden", action="store_true", help="use the burden: disadvantage, no proficiency")
    o.add_argument("--affliction", nargs="+", default=[], metavar="NAME", help="terrified, hopeless, angry, sleepy")
    o.add_argument("--json", action="store_true")

    r = sub.add_parser("rules", help="look up a rules entry", description="Print one entry of the game's content.")
    r.add_argument("kind", metavar="KIND", help="monster, weapon, armor, shield, item, skill, trait, affliction, "
                   "spell, prayer, settlement")  # fmt: skip
    r.add_argument("name", nargs="+", metavar="NAME")
    r.add_argument("--json", action="store_true")

    c = sub.add_parser("character", help="roll a random adventurer")
    c.add_argument("--seed", type=_bounded(0, 2**63 - 1, "--seed"), default=None)
    c.add_argument("--class", dest="klass", default=None, metavar="CLASS", help="Warrior, Thief, Wizard or Cleric")
    c.add_argument("--json", action="store_true")

    sub.add_parser("validate", help="load and check every resource file")

    s = sub.add_parser(
        "simulate",
        help="let the autoplay policy play a campaign headless",
        description="The autoplay policy plays N expeditions with the interludes between them and prints statistics.",
    )
    s.add_argument("--seed", type=_bounded(0, 2**63 - 1, "--seed"), default=None)
    s.add_argument("--expeditions", type=_bounded(1, 500, "--expeditions"), default=3)
    s.add_argument("--party", type=_bounded(1, 4, "--party"), default=3, help="adventurers, 1-4")
    s.add_argument("--save", default=None, metavar="FILE", help="write the campaign to this save as it goes")
    s.add_argument("--resume", default=None, metavar="FILE", help="continue a saved campaign")
    s.add_argument("--json", action="store_true")

    d = sub.add_parser(
        "dungeon",
        help="generate a dungeon and export it for a GM",
        description="Generate a dungeon (or re-export one with --from) as JSON, a Markdown key, SVG/PNG maps "
        "(GM and player), a PDF booklet or a Universal VTT file.",
    )
    d.add_argument("--seed", type=_bounded(0, 2**63 - 1, "--seed"), default=None)
    d.add_argument("--level", type=_bounded(1, 10, "--level"), default=1, help="difficulty, 1-10 (default 1)")
    d.add_argument("--rooms", type=_bounded(3, 60, "--rooms"), default=12, help="rooms per level, 3-60")
    d.add_argument("--theme", default=None, help="a theme id (default: chosen by the seed)")
    d.add_argument("--depth", type=_bounded(1, 5, "--depth"), default=1, help="number of levels, 1-5")
    d.add_argument("--format", dest="formats", default="json,md", metavar="FORMAT[,FORMAT...]",
                   help="json, md, svg, png, pdf, uvtt (comma-separated; 'all' for every one)")  # fmt: skip
    d.add_argument("--out", required=True, metavar="PATH", help="a folder, or a file name without extension")
    d.add_argument("--from", dest="source", default=None, metavar="FILE", help="re-export a dungeon JSON file")

    sv = sub.add_parser("save", help="check a campaign save, or export its chronicle",
                        description="Check a campaign save (read-only), or write its log as a chronicle.")  # fmt: skip
    sv_sub = sv.add_subparsers(dest="save_command", metavar="ACTION", required=True)
    chk = sv_sub.add_parser("check", help="check a save without changing it and print its summary",
                            description="Exit 0 for a healthy save; 1 if it opens only from its backup; 3 if the file "
                            "is missing; 4 if it is not a save, damaged, or from a newer Blacksalt.")  # fmt: skip
    chk.add_argument("file", metavar="FILE")
    chk.add_argument("--json", action="store_true")
    chron = sv_sub.add_parser("chronicle", help="the campaign log as a Markdown (or HTML) chronicle")
    chron.add_argument("file", metavar="FILE")
    chron.add_argument("--html", action="store_true", help="a self-contained HTML page instead of Markdown")
    chron.add_argument("--out", default=None, metavar="PATH", help="write it here (default: print it)")
    return p


def version() -> str:
    """The installed Blacksalt's version, or the checkout's pyproject version."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("blacksalt")
    except PackageNotFoundError:
        import re

        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        try:
            found = re.search(r'^version = "([^"]+)"', pyproject.read_text(encoding="utf-8"), re.MULTILINE)
        except OSError:
            found = None
        return found.group(1) if found else "0+unknown"


def run(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(list(argv))
    if args.screenshots is not None:
        if args.command is not None:
            return _fail("--screenshots takes no command")
        from desktop.screenshots import SIZE
        from desktop.screenshots import main as screenshots_main  # Qt, only on demand

        return screenshots_main(Path(args.screenshots), seed=args.demo_seed, size=args.demo_size or SIZE,
                                text_size=args.demo_text_size, scale=args.demo_scale)  # fmt: skip
    if args.command is None:
        if args.demo_seed is not None:
            return _fail("--seed at the top goes with --screenshots; commands take their own --seed")
        if (args.demo_size, args.demo_text_size, args.demo_scale) != (None, None, None):
            return _fail("--size, --text-size and --scale go with --screenshots")
        from desktop.app import run_window  # Qt, only on demand

        return run_window(sys.argv[:1])
    handler = {
        "odds": cmd_odds,
        "rules": cmd_rules,
        "character": cmd_character,
        "validate": cmd_validate,
        "dungeon": cmd_dungeon,
        "simulate": cmd_simulate,
        "save": cmd_save,
    }
    try:
        return handler[args.command](args)
    except BrokenPipeError:  # `blacksalt ... | head`
        return 0


def _fail(message: str, code: int = EXIT_USAGE) -> int:
    print(f"blacksalt: {message}", file=sys.stderr)
    return code


# --- odds ------------------------------------------------------------------------------


def cmd_odds(args: argparse.Namespace) -> int:
    from rules.checks import TEST_AFFLICTIONS, RuleError, TestSpec
    from rules.odds import odds

    afflictions = {a.lower() for a in args.affliction}
    unknown = afflictions - TEST_AFFLICTIONS
    if unknown:
        return _fail(f"afflictions that change a test are {', '.join(sorted(TEST_AFFLICTIONS))}; "
                     f"not {', '.join(sorted(unknown))}")  # fmt: skip
    try:
        spec = TestSpec(
            dice=args.dice,
            proficiency=args.proficiency,
            advantage=args.advantage,
            disadvantage=args.disadvantage,
            opponent_rerolls=args.tokens,
            extra_effort=args.extra_effort,
            keep_safe=args.keep_safe,
            check=args.check,
            help=args.help_die,
            helper_proficiency=args.helper_proficiency,
            afflictions=frozenset(afflictions),
            dauntless=args.dauntless,
            burden=args.burden,
        )
    except RuleError as exc:
        return _fail(str(exc))
    result = odds(spec)
    out = {k: round(v, 12) for k, v in result.as_dict().items()}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    rolled = f"{spec.main_dice} dice, keep the lowest" if spec.keep_lowest else f"{spec.main_dice} dice"
    if spec.helper_die:
        rolled += " + 1 helper die"
    print(f"{'Check' if spec.check else 'Test'}: {rolled}; rerolls: you {spec.player_rerolls}, GM {spec.gm_rerolls}")
    labels = [("success", "Success"), ("great_success", "Great success"), ("critical_failure", "Critical failure"),
              ("fatigue", "Fatigue")]  # fmt: skip
    if spec.helper_die:
        labels.append(("helper_fatigue", "Helper's fatigue"))
    for key, label in labels:
        print(f"  {label:<18}{out[key] * 100:6.2f}%")
    return 0


# --- rules -----------------------------------------------------------------------------


def cmd_rules(args: argparse.Namespace) -> int:
    from rules.content.base import ContentError
    from rules.content.registry import KINDS, load_content

    kind = args.kind.lower()
    if kind == "armour":
        kind = "armor"
    if kind not in KINDS:
        return _fail(f"unknown kind {args.kind!r}; choose one of {', '.join(KINDS)}")
    try:
        content = load_content()
    except ContentError as exc:
        return _fail(f"the game's content is damaged:\n{exc}", EXIT_CONTENT)
    name = " ".join(args.name)
    entry = content.find(kind, name)
    if entry is None:
        close = content.suggest(kind, name)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        return _fail(f"no {kind} named {name!r}{hint}", EXIT_NOT_FOUND)
    data = content.describe(kind, entry)
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(content.card(kind, entry))
    return 0


# --- character -------------------------------------------------------------------------


def cmd_character(args: argparse.Namespace) -> int:
    from random import Random, SystemRandom

    from rules.content.base import ContentError
    from rules.content.registry import load_content
    from rules.creation import random_adventurer

    try:
        content = load_content()
    except ContentError as exc:
        return _fail(f"the game's content is damaged:\n{exc}", EXIT_CONTENT)
    seed = args.seed if args.seed is not None else SystemRandom().randrange(2**63)
    if args.klass is not None:
        names = [c.name for c in content.classes.classes]
        match = [n for n in names if n.lower() == args.klass.lower()]
        if not match:
            return _fail(f"unknown class {args.klass!r}; choose one of {', '.join(names)}")
        args.klass = match[0]
    adventurer = random_adventurer(content, Random(seed), klass=args.klass)
    data = {"seed": seed, **adventurer.to_dict()}
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(adventurer.sheet())
        print(f"\n(seed {seed})")
    return 0


# --- validate --------------------------------------------------------------------------


def cmd_validate(args: argparse.Namespace) -> int:
    from rules.content.base import ContentError
    from rules.content.registry import load_content

    try:
        content = load_content(cached=False)
    except ContentError as exc:
        return _fail(f"content is invalid:\n{exc}", EXIT_CONTENT)
    from dungeon_gen.themes import load_themes

    try:  # the dungeon themes, and their room features' rewards against the GM's handlers (issue #13)
        themes = load_themes(content=content)
    except ContentError as exc:
        return _fail(f"a dungeon theme is invalid:\n{exc}", EXIT_CONTENT)
    counts = content.counts()
    width = max(len(k) for k in counts)
    for key, n in counts.items():
        print(f"{key:<{width}}  {n:>4}")
    print(f"{'total':<{width}}  {sum(counts.values()):>4}  entries in {len(content.files)} files: all valid")
    print(f"dungeon themes: {len(themes)}, all valid")
    import rules.gm.engine  # noqa: F401  (wires every handler: the manoeuvres, the item rules)
    from rules.gm.powers import unplayed

    gaps = unplayed(content)
    if gaps:  # content the automated GM cannot play is refused, named (issue #13)
        return _fail(f"no implementation in the automated GM ({len(gaps)}): " + "; ".join(gaps), EXIT_CONTENT)
    print("every spell, prayer, manoeuvre, item rule and item effect has a handler in the GM")
    return 0


# --- dungeon ---------------------------------------------------------------------------

DUNGEON_FORMATS = ("json", "md", "svg", "png", "pdf", "uvtt")


def cmd_dungeon(args: argparse.Namespace) -> int:
    from desktop.dungeon_export import ExportError, export_dungeon

    formats = [f.strip().lower() for f in args.formats.split(",") if f.strip()]
    if formats == ["all"]:
        formats = list(DUNGEON_FORMATS)
    unknown = [f for f in formats if f not in DUNGEON_FORMATS]
    if unknown or not formats:
        return _fail(f"unknown format(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(DUNGEON_FORMATS)}")
    if args.source is not None:
        from dungeon_gen.export.json_io import DungeonFileError, load

        try:
            dungeon = load(Path(args.source))
        except DungeonFileError as exc:
            return _fail(str(exc), EXIT_CONTENT)
    else:
        from random import SystemRandom

        from dungeon_gen.generate import GenerationError, generate

        seed = args.seed if args.seed is not None else SystemRandom().randrange(2**63)
        try:
            dungeon = generate(seed, level=args.level, rooms=args.rooms, theme=args.theme, depth=args.depth)
        except GenerationError as exc:
            return _fail(str(exc))
    try:
        written = export_dungeon(dungeon, formats, args.out)
    except ExportError as exc:
        return _fail(str(exc), EXIT_CONTENT)
    for path in written:
        print(path)
    return 0


# --- simulate ----------------------------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace) -> int:
    from random import SystemRandom

    from desktop.session import summary  # the same summary the window's saves carry
    from dungeon_gen.site import GeneratedDungeons
    from rules.autoplay.simulate import run
    from rules.content.registry import load_content
    from rules.gm.state import Campaign

    content = load_content()
    maker = GeneratedDungeons()
    campaign = None
    save = None
    if args.resume and args.save:
        return _fail("use --save or --resume, not both (a resumed campaign keeps saving to its own file)")
    if args.resume:
        from desktop.persistence import SaveError, SaveFile

        try:
            save = SaveFile.open(Path(args.resume))
            data, _step = save.load()
            campaign = Campaign.from_dict(data)
        except (SaveError, ValueError, KeyError, TypeError) as exc:
            return _fail(f"cannot resume {args.resume}: {exc}", EXIT_CONTENT)
    seed = campaign.seed if campaign else (args.seed if args.seed is not None else SystemRandom().randrange(2**63))
    on_step = None
    if args.save:
        from desktop.persistence import SaveError, SaveFile
        from rules.gm.campaign import new_campaign

        campaign = new_campaign(content, maker, seed, args.party)
        try:
            save = SaveFile.create(Path(args.save), campaign.to_dict(), summary(campaign))
        except (SaveError, OSError) as exc:
            return _fail(f"cannot create the save {args.save}: {exc}")
    if save is not None:
        active = save

        def on_step(gm, events):  # type: ignore[no-untyped-def]
            active.commit_step(gm.c.stats.steps, gm.c.to_dict(), [e.to_dict() for e in events], summary(gm.c))

    _, stats = run(content, maker, seed=seed, expeditions=args.expeditions, party=args.party, campaign=campaign,
                    on_step=on_step)  # fmt: skip
    if save is not None:
        save.close()
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        for key, value in stats.items():
            print(f"{key:<16} {value}")
    return 0


# --- save --------------------------------------------------------------------------------------------

EXIT_RECOVERABLE = 1  # `save check`: the save opens, but only from its backup (the last step is lost)


def cmd_save(args: argparse.Namespace) -> int:
    from desktop.persistence import SaveError, examine

    path = Path(args.file)
    if args.save_command == "chronicle":
        return _save_chronicle(path, args)
    try:
        report = examine(path)
    except SaveError as exc:
        return _fail(str(exc), EXIT_NOT_FOUND if exc.kind == "missing" else EXIT_CONTENT)
    s = report.summary
    party = [p for p in s.get("party") or [] if isinstance(p, str)]
    upgrade = f" (opening it upgrades it to {_head()}, after a backup copy)" if report.needs_upgrade else ""
    fields: dict[str, Any] = {
        "file": str(path),
        "campaign": report.campaign_id,
        "party": party,
        "location": s.get("location"),
        "day": s.get("day"),
        "phase": s.get("phase"),
        "steps": report.step,
        "events": report.events,
        "last_played": report.last_played,
        "created": report.created,
        "size": report.size,
        "format": report.format,
        "revision": report.revision,
        "written_by": report.written_by,
        "integrity": report.integrity,
        "resumes_from": report.source,
        "warnings": report.warnings,
    }
    if args.json:
        print(json.dumps(fields, indent=2, ensure_ascii=False))
    else:
        rows = [
            ("campaign", report.campaign_id),
            ("party", ", ".join(party) or "-"),
            ("location", s.get("location") or "-"),
            ("day", s.get("day", "-")),
            ("steps", f"{report.step} ({report.events} event{'' if report.events == 1 else 's'})"),
            ("last played", _when(report.last_played)),
            ("created", _when(report.created)),
            ("size", f"{report.size / 1e6:.2f} MB" if report.size >= 100_000 else f"{report.size / 1e3:.1f} KB"),
            ("format", f"{report.format}, schema revision {report.revision}{upgrade}"),
            ("written by", report.written_by),
            ("integrity", report.integrity),
        ]
        for key, value in rows:
            print(f"{key:<12}{value}")
        for warning in report.warnings:
            print(f"warning     {warning}")
    if report.source != "snapshot":
        print(f"blacksalt: {path.name} opens only from its backup: {'; '.join(report.warnings)}", file=sys.stderr)
        return EXIT_RECOVERABLE
    return 0


def _when(iso: str) -> str:
    from datetime import datetime

    try:
        return datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return iso


def _head() -> str:
    from desktop.persistence import HEAD

    return HEAD


def _save_chronicle(path: Path, args: argparse.Namespace) -> int:
    from desktop.persistence import SaveError, SaveFile, chronicle

    try:
        with SaveFile.open(path) as save:
            text = chronicle(save, "html" if args.html else "md")
    except SaveError as exc:
        return _fail(str(exc), EXIT_NOT_FOUND if exc.kind == "missing" else EXIT_CONTENT)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror or exc}")
    print(args.out)
    return 0
