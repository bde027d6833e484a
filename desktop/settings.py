"""The player's settings: a small JSON file in the user config folder.  No Qt.

``<platformdirs user_config_dir("Blacksalt")>/settings.json``; the environment variable
``BLACKSALT_CONFIG_DIR`` names another folder (tests point it at a temporary one).  A missing or damaged
file gives the defaults and is left as it is until the player saves new settings.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

ENV_CONFIG_DIR = "BLACKSALT_CONFIG_DIR"
FILE_NAME = "settings.json"

TEXT_SIZE_MIN = 8.0
TEXT_SIZE_MAX = 20.0
ANIMATION_SPEEDS = {0: "Off", 1: "Normal", 2: "Fast"}


def config_dir() -> Path:
    """Where the settings live (not created here)."""
    override = os.environ.get(ENV_CONFIG_DIR)
    if override:
        return Path(override)
    from platformdirs import user_config_dir

    return Path(user_config_dir("Blacksalt", appauthor=False))


def settings_path() -> Path:
    return config_dir() / FILE_NAME


@dataclass
class Settings:
    """What the player can change.  ``text_size`` in points; ``gm_rerolls``: the GM decides every
    proficiency reroll (no dice tray stop); ``animation_speed``: 0 = off, 1 = normal, 2 = fast."""

    text_size: float = 10.5
    gm_rerolls: bool = False
    animation_speed: int = 1
    #: The warnings the player asked never to see again ("don't ask again"), by their keys
    #: (:mod:`desktop.warnings`): ``no_rations``, ``no_light``, ``job_unfinished``.
    dont_ask: list[str] = field(default_factory=list)
    #: Why the file on disk was not used, if it was not (shown on the settings screen; not saved).
    load_error: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.text_size = min(TEXT_SIZE_MAX, max(TEXT_SIZE_MIN, float(self.text_size)))
        self.gm_rerolls = bool(self.gm_rerolls)
        self.animation_speed = min(max(ANIMATION_SPEEDS), max(min(ANIMATION_SPEEDS), int(self.animation_speed)))
        self.dont_ask = sorted({str(k) for k in self.dont_ask})

    @property
    def saves_folder(self) -> Path:
        """Where campaigns are saved (every step, always): shown, not changed."""
        from desktop.persistence.library import default_folder

        return default_folder()

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("load_error", None)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        """Known keys of the right type; anything else is ignored (a newer version's keys, junk)."""
        defaults = cls()
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            if f.name == "load_error" or f.name not in data:
                continue
            value, default = data[f.name], getattr(defaults, f.name)
            if isinstance(default, list):
                if isinstance(value, list):
                    kwargs[f.name] = [v for v in value if isinstance(v, str)]
            elif isinstance(default, bool):
                if isinstance(value, bool):
                    kwargs[f.name] = value
            elif isinstance(value, int | float) and not isinstance(value, bool):
                kwargs[f.name] = value
        return cls(**kwargs)

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        """The saved settings, or the defaults (with ``load_error`` set) if the file is damaged."""
        path = path or settings_path()
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        except OSError as exc:
            return cls(load_error=f"{path} could not be read ({exc.strerror or exc}); using the defaults")
        try:
            data = json.loads(text)
        except ValueError as exc:
            return cls(load_error=f"{path} is damaged ({exc}); using the defaults")
        if not isinstance(data, dict):
            return cls(load_error=f"{path} is not a settings file; using the defaults")
        return cls.from_dict(data)

    def save(self, path: Path | None = None) -> Path:
        """Write the settings (atomically: a crash leaves the old file or the new one)."""
        path = path or settings_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, path)
        self.load_error = None
        return path
