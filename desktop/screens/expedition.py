"""The expedition: the map of what the party has seen, the room they stand in, and what they can do.

Only what the engine knows the party has seen is drawn (rooms marked ``seen`` in the level's state, and the
corridors between rooms they have walked); the party's room carries a marker and the rooms where they met
monsters still standing are marked.  The trackers shown are the ones the party may know: decay and light;
the doom only as a Veteran read it, the omens only to a Third eye.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen, QPixmap
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop.theme import COLORS
from desktop.widgets.action_list import ActionList
from desktop.widgets.log_view import DIE_FACES

if TYPE_CHECKING:
    from desktop.session import Session
    from dungeon_gen.model import LevelData
    from rules.gm.events import Event

#: The groups of the expedition's actions, by the engine's action kinds.

GROUPS: list[tuple[str, list[str]]] = [
    ("Move", ["move", "stairs", "come_to"]),
    ("Doors", ["force", "break", "unlock", "pick", "spike", "listen", "unseal"]),
    ("Encounter", ["fight", "parley", "bribe", "grant"]),
    ("Search & loot", ["loot", "loot_quietly", "search", "look_for_traps", "disarm", "feature", "work", "ward"]),
    ("Items & magic", ["light", "snuff", "use_item", "cast", "pray", "concentrate", "stabilise"]),
    ("Rest & camp", ["catch_breath", "camp"]),
    ("Other", ["veteran", "freeform"]),
    ("Leave", ["exit"]),
]

Overlay = Callable[[QPainter, Any], None]


def level_data(session: Session) -> LevelData | None:
    """The generator's data of the level the party is on (parsed once per location and kept)."""
    c = session.campaign
    exp = c.expedition
    if exp is None:
        return None
    loc = c.locations.get(exp.location)
    if loc is None or not loc.data:
        return None
    cache: dict[str, Any] = session.__dict__.setdefault("_dungeon_cache", {})
    dungeon = cache.get(loc.id)
    if dungeon is None:
        from dungeon_gen.export.json_io import loads

        dungeon = loads(loc.data)
        cache[loc.id] = dungeon
    levels = dungeon.levels
    return levels[exp.depth - 1] if 0 < exp.depth <= len(levels) else None


def seen_of(session: Session) -> Any:
    """What the party has seen on this level: rooms seen, and corridors with both ends visited."""
    from dungeon_gen.export.walls import Seen

    gm = session.gm
    lv = gm.level_state()
    rooms = {rid for rid, st in lv.rooms.items() if st.seen}
    visited = {rid for rid, st in lv.rooms.items() if st.visited}
    links = set()
    for link in gm.site_level().links:
        door = lv.doors.get(link.id)
        if (link.a in visited and link.b in visited) or (
            door is not None and (door.opened or door.broken) and (link.a in visited or link.b in visited)
        ):
            links.add(link.id)
    return Seen.of(rooms, links)


class FallbackMap(QWidget):
    """The map painted to fit the widget (used when the workshop's MapView is not there)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.layout_: Any = None
        self.overlay: Overlay | None = None
        self._pixmap: QPixmap | None = None
        self.setMinimumSize(300, 240)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_level(self, level: LevelData, options: Any) -> None:
        from desktop.render.map_painter import MapLayout, paint_map

        self.layout_ = lay = MapLayout(level, 24, options)
        w, h = lay.size()
        pm = QPixmap(w, h)
        pm.fill(QColor(COLORS["bg"]))
        p = QPainter(pm)
        paint_map(p, lay)
        p.end()
        self._pixmap = pm
        self.update()

    def set_overlay(self, overlay: Overlay | None) -> None:
        self.overlay = overlay
        self.update()

    def centre_on(self, *_: Any) -> None:
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(COLORS["bg"]))
        if self._pixmap is None or self.layout_ is None:
            p.end()
            return
        pw, ph = self._pixmap.width(), self._pixmap.height()
        scale = min(self.width() / pw, self.height() / ph)
        p.translate((self.width() - pw * scale) / 2, (self.height() - ph * scale) / 2)
        p.scale(scale, scale)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        p.drawPixmap(0, 0, self._pixmap)
        if self.overlay is not None:
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            self.overlay(p, self.layout_)
        p.end()


def make_map(parent: QWidget) -> QWidget:
    try:
        from desktop.widgets.map_view import MapView

        view: QWidget = MapView(parent)
        return view
    except ImportError:
        return FallbackMap(parent)


class Tracker(QLabel):
    """A named tracker drawn as filled and empty boxes."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.setTextFormat(Qt.TextFormat.RichText)

    def show_steps(self, filled: int, total: int, tone: str = "accent", note: str = "") -> None:
        c = COLORS
        boxes = (f"<span style='color:{c[tone]}'>{'■' * filled}</span>"
                 f"<span style='color:{c['border']}'>{'■' * max(0, total - filled)}</span>")  # fmt: skip
        extra = f" <span style='color:{c['muted']}'>{escape(note)}</span>" if note else ""
        self.setText(f"<span style='color:{c['gold']}'>{escape(self.name)}</span> "
                     f"<span style='font-size:12pt; letter-spacing:1px'>{boxes}</span>{extra}")  # fmt: skip


class ExplorationView(QWidget):
    """The dungeon turn by turn: map, room, trackers and the legal actions with their turn costs."""

    act = Signal(object)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setObjectName("exploration_view")
        self._map_key: tuple[Any, ...] | None = None
        self._party_room: tuple[str, int, int] | None = None

        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(6)

        header = QFrame(self)
        header.setProperty("role", "panel")
        header.setObjectName("expedition_header")
        hl = QHBoxLayout(header)
        hl.setContentsMargins(12, 6, 12, 6)
        hl.setSpacing(18)
        self.level_label = QLabel()
        self.level_label.setProperty("role", "subtitle")
        self.level_label.setObjectName("level")
        hl.addWidget(self.level_label, 1)
        self.decay = Tracker("Decay")
        self.decay.setObjectName("decay")
        self.decay.setToolTip("The decay tracker: after every 6 turns each adventurer rolls on the decay table, "
                              "then every light burning rolls its usage die.")  # fmt: skip
        self.turns = QLabel()
        self.turns.setProperty("role", "muted")
        self.turns.setObjectName("turns")
        self.light = QLabel()
        self.light.setObjectName("light")
        self.light.setTextFormat(Qt.TextFormat.RichText)
        self.doom = Tracker("Doom")
        self.doom.setObjectName("doom")
        self.omens = Tracker("Omens")
        self.omens.setObjectName("omens")
        for w in (self.decay, self.turns, self.light, self.doom, self.omens):
            hl.addWidget(w)
        col.addWidget(header)

        split = QSplitter(Qt.Orientation.Horizontal, self)
        self.map = make_map(split)
        self.map.setObjectName("map")
        split.addWidget(self.map)

        right = QWidget(split)
        rl = QVBoxLayout(right)
        rl.setContentsMargins(6, 0, 0, 0)
        rl.setSpacing(6)
        self.room_title = QLabel()
        self.room_title.setProperty("role", "heading")
        self.room_title.setObjectName("room_title")
        self.room_title.setWordWrap(True)
        self.room_text = QLabel()
        self.room_text.setObjectName("room_text")
        self.room_text.setWordWrap(True)
        self.room_text.setTextFormat(Qt.TextFormat.RichText)
        self.room_text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.room_text.setProperty("role", "log")
        room_box = QFrame(right)
        room_box.setProperty("role", "panel")
        bl = QVBoxLayout(room_box)
        bl.setContentsMargins(10, 8, 10, 8)
        bl.addWidget(self.room_title)
        bl.addWidget(self.room_text)
        rl.addWidget(room_box)
        self.actions_list = ActionList(right)
        self.actions_list.setObjectName("exploration_actions")
        self.actions_list.chosen.connect(self.act.emit)
        rl.addWidget(self.actions_list, 1)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([520, 440])
        split.setChildrenCollapsible(False)
        col.addWidget(split, 1)
        from desktop.keys import bind, bind_numbers

        bind_numbers(self, self.trigger_number)
        # camp and leaving are often past the ninth action (a room with doors, features and prayers): their own keys
        bind(self, "C", lambda: self.take_kind("camp"))
        bind(self, "X", lambda: self.take_kind("exit"))

    # --- refreshing ------------------------------------------------------------------------------------------

    def refresh(self, events: list[Event]) -> None:
        c = self.session.campaign
        if c.expedition is None:
            return
        self.refresh_header()
        roll = next((e for e in events if e.kind == "ambush_roll"), None)
        found = next((e.text for e in events if e.kind == "ambush"), "no one finds the camp")
        self._ambush = (roll.data, found) if roll is not None else None  # shown until the next step
        self.refresh_room()
        self.refresh_map()
        # rearranging trappings and handing them over is done on the items in the inventory, not from this list
        listed = [a for a in self.session.actions() if a.kind not in ("stow", "give")]
        self.actions_list.set_actions(listed, groups=GROUPS)

    def refresh_header(self) -> None:
        s = self.session
        c = s.campaign
        exp = c.expedition
        assert exp is not None
        gm = s.gm
        level = gm.site_level()
        self.level_label.setText(f"Level {exp.depth}" + (f" — {level.name}" if level.name else ""))
        steps = gm.content.tables.decay_steps
        self.decay.show_steps(exp.decay, steps, "accent")
        self.turns.setText(f"Turn {exp.turns}")
        lights = []
        for m in c.party:
            if m.lit:
                die = exp.light_burns.get(m.id)
                lights.append(f"{escape(m.lit)}" + (f" Ud{die}" if die else ""))
        if gm.room().lit:
            lights.insert(0, "the room is lit")
        if lights:
            self.light.setText(f"<span style='color:{COLORS['gold']}'>Light:</span> " + ", ".join(lights))
        else:
            self.light.setText(f"<span style='color:{COLORS['danger']}'><b>Darkness</b></span>")
        self.light.setToolTip("Light sources burn their usage die after each decay. In the dark every turn "
                              "costs PRE fatigue or Terrified.")  # fmt: skip
        lv = gm.level_state()
        if lv.doom_known is not None:
            total = sum(st.ticks for st in level.doom)
            note = f"next at {lv.doom_next_known}" if lv.doom_next_known is not None else "none left"
            self.doom.show_steps(lv.doom_known, total, "danger", f"(as read; {note})")
            self.doom.setToolTip("The doom of this level as the Veteran read it (a snapshot).")
            self.doom.show()
        else:
            self.doom.hide()
        seer = any(self._sees_omens(m.adv.character.traits) for m in c.party)
        if seer:
            self.omens.show_steps(c.omens.filled, c.omens.size, "gold")
            self.omens.setToolTip("Third eye: “You can see the omens tracker.”")
            self.omens.show()
        else:
            self.omens.hide()

    def _sees_omens(self, traits: list[str]) -> bool:
        table = {t.name.lower(): t for t in self.session.gm.content.character.traits}
        return any(getattr(table.get(t.lower()), "sees_omens", False) for t in traits)

    def refresh_room(self) -> None:
        gm = self.session.gm
        room = gm.room()
        st = gm.room_state()
        c = COLORS
        self.room_title.setText(room.name)
        parts = [f"<p style='margin:0'>{escape(room.description)}</p>"]
        for f in room.features:
            parts.append(f"<p style='margin:4px 0 0 0'><span style='color:{c['gold']}'>{escape(f.name)}.</span> "
                         f"{escape(f.text)}</p>")  # fmt: skip
        groups = [g for g in st.monsters if g.count > 0]
        for g in groups:
            mood = g.attitude or ("unaware" if not g.aware else "watching")
            parts.append(f"<p style='margin:4px 0 0 0; color:{c['danger']}'><b>{g.count} × {escape(g.monster)}</b>"
                         f" <span style='color:{c['muted']}'>({escape(mood)})</span></p>")  # fmt: skip
        ambush = getattr(self, "_ambush", None)
        if ambush is not None:  # the camp was just broken: its ambush dice, on screen for one step
            data, verdict = ambush
            faces = " ".join(DIE_FACES[d - 1] for d in data.get("dice", []) if 1 <= d <= 6) or "no dice"
            sixes = int(data.get("sixes", 0))
            parts.append(f"<p style='margin:6px 0 0 0; color:{c['gold']}'>Camp broken — ambush dice "
                         f"<span style='font-size:15pt; color:{c['danger'] if sixes else c['ink']}'>{faces}"
                         f"</span> <span style='color:{c['muted']}'>({escape(verdict)})</span></p>")  # fmt: skip
        lying = sum(1 for x in st.corpses if x in ("lying", "warded"))
        if lying:
            parts.append(f"<p style='margin:4px 0 0 0; color:{c['muted']}'>{lying} bod{'y' if lying == 1 else 'ies'}"
                         " on the floor.</p>")  # fmt: skip
        self.room_text.setText("".join(parts))

    def refresh_map(self) -> None:
        s = self.session
        exp = s.campaign.expedition
        level = level_data(s)
        if level is None or exp is None:
            return
        seen = seen_of(s)
        key = (exp.location, exp.depth, seen.rooms, seen.connections)
        new_place = self._map_key is None or self._map_key[:2] != key[:2]
        moved = self._party_room != (exp.location, exp.depth, exp.room)
        self._party_room = (exp.location, exp.depth, exp.room)
        if key != self._map_key:
            from desktop.render.map_painter import MapOptions

            loc = s.campaign.locations[exp.location]
            entrances = tuple(r.id for r in s.gm.site_level().rooms if r.entrance) if exp.depth == 1 else ()
            opts = MapOptions(player=True, seen=seen, decorations=False, title=loc.title, entrances=entrances)
            set_level = getattr(self.map, "set_level", None)
            if set_level is not None:
                set_level(level, opts)
            self._map_key = key
        set_overlay = getattr(self.map, "set_overlay", None)
        if set_overlay is not None:
            set_overlay(self.paint_overlay)
        if new_place:
            self.zoom_to_party()
        elif moved:
            self.centre_map()
        self.map.update()

    def zoom_to_party(self) -> None:
        """A new level: close enough to read the rooms around the party (about 18 tiles across)."""
        follow = getattr(self.map, "follow_tile", None)
        exp = self.session.campaign.expedition
        if follow is not None and exp is not None:
            # kept by the map through resizes: the view may not have its size yet (a campaign continued in a
            # dungeon is drawn before the window lays it out), and the player may resize the window
            follow(self.session.gm.room().centre, 18, 0.2, 1.6)
        else:
            self.centre_map()

    def paint_overlay(self, painter: QPainter, layout: Any) -> None:
        """The party's marker in its room, and a red mark on rooms with enemies still standing."""
        gm = self.session.gm
        exp = self.session.campaign.expedition
        if exp is None:
            return
        t = float(getattr(layout, "t", 24.0))
        c = COLORS
        lv = gm.level_state()
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for rid, st in lv.rooms.items():
            if not st.seen or rid == exp.room or not any(g.count > 0 for g in st.monsters):
                continue
            mark: QPointF = layout.centre(gm.site_level().room(rid).centre)
            painter.setPen(QPen(QColor(c["paper"]), t * 0.08))
            painter.setBrush(QColor(c["danger"]))
            painter.drawEllipse(mark, t * 0.32, t * 0.32)
        room = gm.room()
        centre: QPointF = layout.centre(room.centre)
        r = t * 0.55
        glow = QColor(c["gold"])
        glow.setAlpha(70)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(glow)
        painter.drawEllipse(centre, r * 1.9, r * 1.9)
        painter.setPen(QPen(QColor(c["paper_ink"]), t * 0.1))
        painter.setBrush(QColor(c["accent"]))
        painter.drawEllipse(centre, r, r)
        painter.setPen(QPen(QColor(c["paper"]), t * 0.08))
        n = len(self.session.campaign.party)
        painter.drawText(QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, str(n))
        painter.restore()

    def map_layout(self) -> Any:
        get = getattr(self.map, "map_layout", None)
        return get() if callable(get) else getattr(self.map, "layout_", None)

    def centre_map(self) -> None:
        """Centre the map on the party (M)."""
        if self.session.campaign.expedition is None:
            return
        centre_on = getattr(self.map, "center_on_tile", None)
        if centre_on is not None:
            centre_on(self.session.gm.room().centre)

    #: The keys of exploring (the map's own keys work when it has the focus; the Help menu lists them).
    KEYS = (
        ("1–9", "The numbered action (moves, doors, searching, camp, leaving)"),
        ("C", "Make camp here (the first camp offered)"),
        ("X", "Leave the dungeon (from the way in)"),
        ("Tab / Shift+Tab, Space", "Go from action to action, take the one with the focus"),
        ("M", "Centre the map on the party"),
    )

    def take_kind(self, kind: str) -> bool:
        """C and X: the first action of ``kind`` the list offers. One that cannot be taken now is scrolled into
        sight with the focus on it, so the reason written under it is read; False when there is none at all."""
        shown = [a for a in self.actions_list.shown_actions() if a.kind == kind]
        chosen = next((a for a in shown if a.available), None)
        if chosen is not None:
            self.act.emit(chosen)
            return True
        if shown:
            button = self.actions_list.button_for(shown[0].id)
            if button is not None:
                self.actions_list.scroller.ensureWidgetVisible(button)
                button.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return False

    def trigger_number(self, n: int) -> bool:
        return self.actions_list.trigger(n)
