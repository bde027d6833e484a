"""``blacksalt --screenshots DIR [--seed S] [--size WxH] [--text-size PT] [--scale F]``: play a seeded demo
campaign headless and photograph every screen.

The demo lives in a temporary folder (saves, settings and exports redirected there: the player's own saves
are never touched).  The campaign is driven by the autoplay policy until each phase is reached; each screen
is grabbed (at 1280×720 unless ``--size`` says otherwise, with the settings' text size unless ``--text-size``
does, on a screen of device pixel ratio ``--scale``, so ``--size 1280x720 --scale 2`` gives the 2560×1440
pixels of a high-density screen, drawn sharp rather than upscaled) into DIR: start.png, new-campaign.png,
expedition.png, dice-tray.png, combat.png, camp.png, inventory.png, interlude.png, shop.png, workshop.png,
chronicle.png, settings.png, about.png.
Dialogs (the dice tray, the inventory, the About box) are shown over the dimmed window, as the player sees
them.  A screen whose phase the demo did not reach is photographed as it stands, and named in the report.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PySide6.QtGui import QPixmap
    from PySide6.QtWidgets import QApplication, QWidget

    from desktop.main_window import MainWindow
    from desktop.session import Session

SIZE = (1280, 720)
DEFAULT_SEED = 1234
MAX_STEPS = 4000

SCREENS = (
    "start",
    "new-campaign",
    "interlude",
    "shop",
    "expedition",
    "dice-tray",
    "dice-tray-esc",
    "decision",
    "inventory",
    "combat",
    "camp",
    "workshop",
    "chronicle",
    "settings",
    "about",
    "keys",
)


class Shooter:
    """Drives one window through the demo and writes the pictures."""

    def __init__(self, out: Path, seed: int, home: Path, log: Callable[[str], None] = print,
                 size: tuple[int, int] = SIZE, text_size: float | None = None) -> None:  # fmt: skip
        self.out = out
        self.size = size
        self.text_size = text_size
        self.seed = seed
        self.home = home
        self.saves = home / "saves"
        self.log = log
        self.written: list[Path] = []
        self.missed: list[str] = []
        self.app: QApplication
        self.window: MainWindow
        self.session: Session | None = None

    # --- plumbing ------------------------------------------------------------------------------------------

    def settle(self, rounds: int = 6) -> None:
        from PySide6.QtCore import QCoreApplication, QEventLoop

        for _ in range(rounds):
            QCoreApplication.sendPostedEvents(None, 0)  # deleteLater and friends
            self.app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)

    def save(self, name: str, pix: QPixmap) -> Path:
        path = self.out / f"{name}.png"
        if not pix.save(str(path)):
            raise OSError(f"could not write {path}")
        self.written.append(path)
        self.log(f"  {path.name}")
        return path

    def shoot(self, name: str, widget: QWidget | None = None) -> Path:
        self.settle()
        target = widget if widget is not None else self.window
        return self.save(name, target.grab())

    def shoot_over(self, name: str, dialog: QWidget) -> Path:
        """A dialog over the dimmed window, as the player sees it."""
        from PySide6.QtCore import QPoint
        from PySide6.QtGui import QColor, QPainter

        self.settle()
        base = self.window.grab()
        p = QPainter(base)
        p.fillRect(base.rect(), QColor(0, 0, 0, 150))
        dpix = dialog.grab()
        scale = dpix.devicePixelRatio() or 1.0
        w, h = dpix.width() / scale, dpix.height() / scale
        top_left = QPoint(int((self.size[0] - w) / 2), max(0, int((self.size[1] - h) / 2)))
        p.fillRect(top_left.x() - 1, top_left.y() - 1, int(w) + 2, int(h) + 2, QColor("#b08d57"))
        p.drawPixmap(top_left, dpix)
        p.end()
        return self.save(name, base)

    # --- the campaign ------------------------------------------------------------------------------------

    def play_until(self, done: Callable[[Session], bool], limit: int = MAX_STEPS, prefer: tuple[str, ...] = ()) -> bool:
        """Autoplay (the GM's own choices, no dialogs) until ``done``; False if it never came.  An available
        action of a kind in ``prefer`` is taken first (to steer the demo to a screen)."""
        from rules.gm.engine import AutoDecider
        from rules.gm.state import Phase

        s = self.session
        assert s is not None
        before = s.gm.decider
        s.gm.decider = AutoDecider()
        try:
            for _ in range(limit):
                if done(s):
                    return True
                if s.phase is Phase.OVER:
                    return done(s)
                steer = next((a for a in s.actions() if a.available and a.kind in prefer), None) if prefer else None
                if steer is not None:
                    s.apply(steer)
                elif not s.autoplay():
                    return done(s)
            return done(s)
        finally:
            s.gm.decider = before

    def show_game(self) -> Any:
        """The game screen, redrawn from the campaign as it now stands."""
        game: Any = self.window.screens.get("game")
        if game is None:
            return None
        self.window._show("game", game)
        if self.session is not None:
            log = getattr(game, "log", None)
            if log is not None and hasattr(log, "set_history"):
                log.set_history(self.session.log())
            game.refresh([])
        self.settle()
        return game

    # --- the tour ----------------------------------------------------------------------------------------

    def run(self) -> list[Path]:
        from desktop.app import create_app
        from desktop.main_window import MainWindow
        from desktop.session import Session
        from desktop.settings import Settings

        settings = Settings()
        if self.text_size is not None:
            settings = Settings(text_size=self.text_size)
        self.app = create_app(["blacksalt"], settings)
        t0 = time.perf_counter()
        self.log(f"Demo campaign, seed {self.seed}, in {self.home}")
        # an earlier campaign in the list, so the start screen shows more than one
        with Session.new(seed=self.seed + 1, party_size=2, folder=self.saves) as other:
            for _ in range(25):
                if not other.autoplay():
                    break
        self.session = Session.new(seed=self.seed, party_size=3, folder=self.saves)
        for _ in range(3):
            self.session.autoplay()

        self.window = win = MainWindow(settings, saves_folder=self.saves)
        win.resize(*self.size)
        win.show()
        self.settle()
        win.start_screen().refresh()
        self.shoot("start")

        win.show_new_campaign()
        self.shoot("new-campaign")
        win.show_start()  # (closes nothing: the demo session is not open in the window yet)

        win.start_session(self.session)
        self.tour_interlude()
        self.tour_expedition()
        self.tour_combat()
        self.tour_camp()

        win.show_chronicle()
        self.shoot("chronicle")
        win.go_back()
        win.show_settings()
        self.shoot("settings")
        win.go_back()

        win.close_session()
        self.session = None
        self.settle()
        win.show_workshop()
        self.wait_workshop()
        self.shoot("workshop")

        win.show_start()
        self.settle()
        win.show_about()
        self.shoot_over("about", win.about_box)
        win.about_box.close()
        win.show_keys()
        self.shoot_over("keys", win.keys_dialog)
        win.keys_dialog.close()
        win.close()
        self.settle()
        self.log(f"{len(self.written)} screenshots in {time.perf_counter() - t0:.1f} s")
        if self.missed:
            self.log(f"not reached in the demo (photographed as they stood): {', '.join(self.missed)}")
        return self.written

    def tour_interlude(self) -> None:
        from rules.gm.state import Phase

        game = self.show_game()
        if self.session is None or game is None:
            return
        if self.session.phase is not Phase.INTERLUDE:
            self.missed.append("interlude")
        self.shoot("interlude")
        # the shop: the day's actions chosen, someone at the market
        reached = self.play_until(lambda s: s.phase is not Phase.INTERLUDE or _has(s, "buy"), limit=200)
        game = self.show_game()
        view = game.current_view() if game is not None else None
        tabs = getattr(view, "tabs", None)
        if tabs is not None:
            for i in range(tabs.count()):
                if tabs.tabText(i).lower().startswith("shop"):
                    tabs.setCurrentIndex(i)
        if not (reached and self.session.phase is Phase.INTERLUDE):
            self.missed.append("shop")
        self.shoot("shop")

    def tour_expedition(self) -> None:
        from rules.gm.state import Phase

        def exploring(s: Session) -> bool:
            exp = s.campaign.expedition
            return s.phase is Phase.EXPLORATION and exp is not None and exp.turns >= 3

        if not self.play_until(exploring):
            self.play_until(lambda s: s.phase is Phase.EXPLORATION)
            if self.session is not None and self.session.phase is not Phase.EXPLORATION:
                self.missed.append("expedition")
        game = self.show_game()
        self.shoot("expedition")
        self.shoot_dice_tray()
        if game is not None and hasattr(game, "show_inventory"):
            self.shoot_modal("inventory", game.show_inventory)

    def shoot_dice_tray(self) -> None:
        from random import Random

        from desktop.widgets.dice_tray import DiceTray
        from rules.attributes import Attr

        s = self.session
        if s is None:
            return
        m = s.campaign.party[0]
        attr = Attr.DEX
        spec = m.adv.character.test_spec(attr)
        tray = DiceTray(self.window)
        tray.resize(640, 0)
        tray.play(spec, Random(self.seed), title=f"{m.name} tests {attr.value}: leap the flooded gap")
        tray.show()
        self.settle()
        tray.reject()  # Esc before the roll: the tray asks, it never rolls unasked
        if tray.question is not None:
            self.shoot_over("dice-tray-esc", tray.question)
            tray.question.reject()
        else:
            self.missed.append("dice-tray-esc")
        self.settle()
        tray.roll_button.click()
        self.settle()
        self.shoot_over("dice-tray", tray)
        self.shoot_decision()
        tray.hide()
        tray.deleteLater()

    def shoot_decision(self) -> None:
        """A decision inside a step, after the player tried to close it with its X."""
        from desktop.decider import DecisionDialog

        dlg = DecisionDialog(self.window, "Noll: which affliction takes hold?", ["angry", "terrified", "sleepy"],
                             "“Roll on the affliction table, or choose when the text says so.”")  # fmt: skip
        dlg.show()
        self.settle()
        dlg.close()  # the X: the dialog stays and says why
        self.shoot_over("decision", dlg)
        dlg.pick(0)
        dlg.deleteLater()

    def shoot_modal(self, name: str, opener: Callable[[], Any]) -> None:
        """A dialog opened with exec(): photographed and closed from inside its own event loop."""
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication, QDialog

        def grab_and_close() -> None:
            dlg = QApplication.activeModalWidget()
            if isinstance(dlg, QDialog):
                self.settle(3)
                self.shoot_over(name, dlg)
                dlg.reject()
            else:
                self.missed.append(name)

        QTimer.singleShot(300, grab_and_close)
        opener()
        self.settle()

    def tour_combat(self) -> None:
        from rules.gm.state import Phase

        if not self.play_until(lambda s: s.phase is Phase.COMBAT, prefer=("fight",)):
            self.missed.append("combat")
        self.show_game()
        self.shoot("combat")  # the fight as it opens; a few moves in below, if the fight lasts that long
        from rules.gm.engine import AutoDecider

        s = self.session
        for _ in range(3):
            if s is None or s.phase is not Phase.COMBAT or not self._fight_lasts(s):
                break
            s.gm.decider, before = AutoDecider(), s.gm.decider
            try:
                s.autoplay()
            finally:
                s.gm.decider = before
        if s is not None and s.phase is Phase.COMBAT:
            self.show_game()
            self.shoot("combat")

    @staticmethod
    def _fight_lasts(s: Session) -> bool:
        """The GM's next move in a copy of the campaign leaves the fight going (the demo's shot stays a fight)."""
        from copy import deepcopy

        from rules.autoplay import suggest
        from rules.gm.engine import AutoDecider
        from rules.gm.state import Phase

        copy = s.gm.fork(deepcopy(s.gm.rng))  # the same dice as the real step will roll
        copy.decider = AutoDecider()
        step = suggest(copy)
        if step is None:
            return False
        copy.apply(step)
        return copy.c.phase is Phase.COMBAT

    def tour_camp(self) -> None:
        from rules.gm.state import Phase

        if not self.play_until(lambda s: s.phase is Phase.CAMP, prefer=("camp",)):
            self.missed.append("camp")
        self.show_game()
        self.shoot("camp")

    def wait_workshop(self, timeout: float = 60.0) -> None:
        screen = self.window.screens.get("workshop")
        end = time.monotonic() + timeout
        while screen is not None and getattr(screen, "dungeon", None) is None and time.monotonic() < end:
            self.settle(2)
            time.sleep(0.02)
        self.settle()


def _has(s: Session, kind: str) -> bool:
    return any(a.kind == kind and a.available for a in s.actions())


def main(out: Path, seed: int | None = None, size: tuple[int, int] = SIZE, text_size: float | None = None,
         scale: float | None = None) -> int:  # fmt: skip
    """Write every screenshot into ``out``; 0 on success, 1 on an error (reported, no traceback)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if scale is not None:
        os.environ["QT_SCALE_FACTOR"] = f"{scale:g}"  # read when the application is created
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"blacksalt: cannot create {out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="blacksalt-demo-") as tmp:
        home = Path(tmp)
        # the demo's settings, saves and exports stay in the temporary folder
        keys = ("BLACKSALT_CONFIG_DIR", "BLACKSALT_DATA_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME")
        saved = {k: os.environ.get(k) for k in keys}
        os.environ["BLACKSALT_CONFIG_DIR"] = str(home / "config")
        os.environ["BLACKSALT_DATA_DIR"] = str(home / "data")
        os.environ["XDG_DATA_HOME"] = str(home / "data")
        os.environ["XDG_CONFIG_HOME"] = str(home / "config")
        try:
            Shooter(out, DEFAULT_SEED if seed is None else seed, home, size=size, text_size=text_size).run()
        except Exception as exc:
            import traceback

            traceback.print_exc(file=sys.stderr)
            print(f"blacksalt: the screenshots failed: {exc}", file=sys.stderr)
            return 1
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    return 0
