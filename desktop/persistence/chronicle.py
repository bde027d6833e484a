"""The campaign log as a chronicle to read or share: Markdown or a self-contained HTML page.

A heading per campaign day, then what happened in order, in the GM's own words.  Milestones (a
death, an expedition setting out or coming back, the end of the campaign) stand out.
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from desktop.persistence.savefile import SaveFile

#: Event kinds printed in bold: the turning points of a campaign.
MILESTONES = frozenset(
    {"death", "expedition", "exit", "campaign_over", "outcome", "retired", "recruited", "doom_event"}
)

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>])")


def _days(events: Iterable[dict[str, Any]], skip: Collection[str]) -> list[tuple[int | None, list[dict[str, Any]]]]:
    """Events grouped by day, in order; an event without a day belongs to the day before it."""
    groups: list[tuple[int | None, list[dict[str, Any]]]] = []
    for ev in events:
        if ev["kind"] in skip or not str(ev["text"]).strip():
            continue
        day = ev.get("day")
        last = groups[-1][0] if groups else None
        # days never run backwards: a step that crosses a night may log yesterday's last event after today's first
        if not groups or (day is not None and (last is None or day > last)):
            groups.append((day, []))
        groups[-1][1].append(ev)
    return groups


def _title(save: SaveFile) -> str:
    party = [p for p in save.summary.get("party") or [] if isinstance(p, str)]
    return f"The chronicle of {_join(party)}" if party else "A Blacksalt chronicle"


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _byline(save: SaveFile) -> str:
    s = save.summary
    bits = [f"Begun {save.created[:10]}", f"last played {save.last_played[:10]}"]
    if isinstance(s.get("day"), int):
        bits.append(f"day {s['day']}")
    if s.get("location"):
        bits.append(f"last seen in {s['location']}")
    if s.get("outcome"):
        bits.append(f"outcome: {s['outcome']}")
    return "; ".join(bits) + "."


def chronicle(save: SaveFile, fmt: Literal["md", "html"] = "md", *, skip: Collection[str] = ()) -> str:
    """The campaign's events as a chronicle (``fmt`` "md" or "html"), leaving out the kinds in ``skip``."""
    groups = _days(save.iter_events(), skip)
    if fmt == "md":
        return _markdown(save, groups)
    if fmt == "html":
        return _html(save, groups)
    raise ValueError(f"a chronicle is 'md' or 'html', not {fmt!r}")


def _heading(day: int | None) -> str:
    return f"Day {day}" if day is not None else "Before the first day"


def _markdown(save: SaveFile, groups: list[tuple[int | None, list[dict[str, Any]]]]) -> str:
    out = [f"# {_title(save)}", "", f"*{_byline(save)}*", ""]
    if not groups:
        out += ["Nothing has happened yet.", ""]
    for day, events in groups:
        out += [f"## {_heading(day)}", ""]
        for ev in events:
            text = _MD_SPECIAL.sub(r"\\\1", str(ev["text"]).strip()).replace("\n", "\n  ")
            out.append(f"- **{text}**" if ev["kind"] in MILESTONES else f"- {text}")
        out.append("")
    return "\n".join(out)


_CSS = """
body { font-family: Georgia, 'DejaVu Serif', serif; max-width: 42em; margin: 2em auto; padding: 0 1em;
       color: #222; background: #fbf8f1; line-height: 1.5; }
h1 { font-size: 1.8em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; border-bottom: 1px solid #c9bfa8; margin-top: 1.6em; }
.byline { font-style: italic; color: #665; }
ul { padding-left: 1.2em; }
li { margin: 0.2em 0; white-space: pre-line; }
li.milestone { font-weight: bold; }
""".strip()


def _html(save: SaveFile, groups: list[tuple[int | None, list[dict[str, Any]]]]) -> str:
    e = html.escape
    title = _title(save)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{e(title)}</title>",
        f"<style>\n{_CSS}\n</style>",
        "</head>",
        "<body>",
        f"<h1>{e(title)}</h1>",
        f'<p class="byline">{e(_byline(save))}</p>',
    ]
    if not groups:
        out.append("<p>Nothing has happened yet.</p>")
    for day, events in groups:
        out.append(f"<h2>{e(_heading(day))}</h2>")
        out.append("<ul>")
        for ev in events:
            kind = str(ev["kind"])
            cls = f"kind-{re.sub(r'[^a-z0-9_-]', '', kind.lower())}" + (" milestone" if kind in MILESTONES else "")
            out.append(f'<li class="{cls}">{e(str(ev["text"]).strip())}</li>')
        out.append("</ul>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)
