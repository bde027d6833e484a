"""The packaging pieces that run without building: the slim filter, resource lookup when frozen, the
start-screen probe, the build script's paths, the icons.  The build itself is ``packaging/smoke.py``."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str) -> ModuleType:
    """A script of packaging/ (not a package) under a name that cannot shadow PyPI's ``build``."""
    spec = importlib.util.spec_from_file_location(f"blacksalt_packaging_{name}", ROOT / "packaging" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


sf = _load("slim_filter")
builder = _load("build")


def b(dest: str, kind: str = "BINARY") -> tuple[str, str, str]:
    return (dest, "/src/" + dest, kind)


# --- the slim filter --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dest",
    [
        "PySide6/Qt/plugins/platforms/libqxcb.so",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/plugins/platforms/qwindows.dll",
        "PySide6/Qt/plugins/platforms/libqcocoa.dylib",
        "PySide6/Qt/plugins/imageformats/libqsvg.so",
        "PySide6/plugins/imageformats/qsvg.dll",
        "PySide6/Qt/plugins/iconengines/libqsvgicon.so",
        "PySide6/plugins/styles/qmodernwindowsstyle.dll",
        "PySide6/Qt/lib/libQt6Core.so.6",
        "PySide6/Qt/lib/libQt6DBus.so.6",  # QtGui links it on Linux
        "PySide6/Qt/lib/libQt6Svg.so.6",
        "PySide6/Qt/lib/libicudata.so.73",
        "PySide6/Qt6Widgets.dll",
        "PySide6/Qt/lib/QtGui.framework/Versions/A/QtGui",
        "PySide6/QtWidgets.abi3.so",
        "libpython3.11.so.1.0",
        "resources/fonts/DejaVuSans.ttf",
        "desktop/persistence/migrations/env.py",
    ],
)
def test_the_filter_keeps_what_the_game_uses(dest: str) -> None:
    assert sf.keep(b(dest))


@pytest.mark.parametrize(
    "dest",
    [
        "PySide6/Qt/plugins/platforms/libqwayland.so",
        "PySide6/Qt/plugins/platforms/libqeglfs.so",
        "PySide6/Qt/plugins/platforms/libqvnc.so",
        "PySide6/Qt/plugins/platforms/libqlinuxfb.so",
        "PySide6/Qt/plugins/platformthemes/libqgtk3.so",
        "PySide6/Qt/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so",
        "PySide6/Qt/plugins/tls/libqopensslbackend.so",
        "PySide6/Qt/plugins/networkinformation/libqnetworkmanager.so",
        "PySide6/Qt/plugins/imageformats/libqjpeg.so",
        "PySide6/plugins/imageformats/qtiff.dll",
        "PySide6/Qt/plugins/wayland-shell-integration/libxdg-shell.so",
        "PySide6/Qt/translations/qtbase_de.qm",
        "PySide6/translations/qt_fr.qm",
        "PySide6/Qt/lib/libQt6Network.so.6",
        "PySide6/Qt/lib/libQt6WaylandClient.so.6",
        "PySide6/Qt/lib/libQt6Qml.so.6",
        "PySide6/Qt6Network.dll",
        "PySide6/Qt/lib/QtNetwork.framework/Versions/A/QtNetwork",
    ],
)
def test_the_filter_drops_what_the_game_never_loads(dest: str) -> None:
    assert not sf.keep(b(dest))
    assert not sf.keep(b(dest.replace("/", "\\")))  # Windows separators


def test_qt_library_names() -> None:
    assert sf.qt_lib_name("PySide6/Qt/lib/libQt6Network.so.6") == "Qt6Network"
    assert sf.qt_lib_name("PySide6\\Qt6Gui.dll") == "Qt6Gui"
    assert sf.qt_lib_name("PySide6/Qt/lib/QtSvg.framework/Versions/A/QtSvg") == "Qt6Svg"
    assert sf.qt_lib_name("PySide6/QtGui.abi3.so") is None
    assert sf.plugin_base("libqxcb.so") == "qxcb" and sf.plugin_base("qsvg.dll") == "qsvg"


def test_the_excluded_modules_are_none_the_game_imports() -> None:
    """Excluding a module the game imports would make the packaged game fail where the source works."""
    used = {"PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets", "PySide6.QtSvg", "sqlite3", "hashlib"}
    for path in list((ROOT / "desktop").rglob("*.py")) + list((ROOT / "rules").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for mod in sf.EXCLUDE_MODULES:
            assert f"import {mod}\n" not in text and f"from {mod} import" not in text, (path, mod)
    assert not used & set(sf.EXCLUDE_MODULES)


def test_prune_keeps_only_libraries_a_root_links() -> None:
    links = {
        "/src/PySide6/QtGui.abi3.so": ["libQt6Gui.so.6"],
        "/src/PySide6/Qt/lib/libQt6Gui.so.6": ["libQt6Core.so.6", "libglib-2.0.so.0"],
        "/src/PySide6/Qt/lib/libQt6Core.so.6": ["libicuuc.so.73", "libc.so.6"],
        "/src/PySide6/Qt/lib/libicuuc.so.73": ["libicudata.so.73"],
        "/src/PySide6/Qt/plugins/platforms/libqxcb.so": ["libQt6XcbQpa.so.6"],
        "/src/libcairo.so.2": ["libpixman-1.so.0"],  # only the dropped gtk3 theme linked cairo
    }
    entries = [
        b("PySide6/QtGui.abi3.so", "EXTENSION"),
        b("PySide6/Qt/plugins/platforms/libqxcb.so"),
        b("PySide6/Qt/lib/libQt6Gui.so.6"),
        b("PySide6/Qt/lib/libQt6Core.so.6"),
        b("PySide6/Qt/lib/libQt6XcbQpa.so.6"),
        b("PySide6/Qt/lib/libicuuc.so.73"),
        b("PySide6/Qt/lib/libicudata.so.73"),
        b("libglib-2.0.so.0"),
        b("libcairo.so.2"),
        b("libpixman-1.so.0"),
        b("libpython3.11.so.1.0"),
    ]
    kept = {e[0] for e in sf.prune_unreachable(entries, lambda src: links.get(src, []))}
    assert "libcairo.so.2" not in kept and "libpixman-1.so.0" not in kept
    assert kept == {e[0] for e in entries} - {"libcairo.so.2", "libpixman-1.so.0"}


def test_symlinks_to_dropped_libraries_go_too() -> None:
    binaries = [b("PySide6/Qt/lib/libQt6Gui.so.6")]
    datas = [
        ("libQt6Gui.so.6", "PySide6/Qt/lib/libQt6Gui.so.6", "SYMLINK"),
        ("libQt6Network.so.6", "PySide6/Qt/lib/libQt6Network.so.6", "SYMLINK"),
        ("resources/fonts/DejaVuSans.ttf", "/src/x.ttf", "DATA"),
    ]
    assert [d[0] for d in sf.prune_symlinks(datas, binaries)] == ["libQt6Gui.so.6", "resources/fonts/DejaVuSans.ttf"]


# --- resources inside a bundle ---------------------------------------------------------------------------


def test_resources_are_found_inside_a_bundle(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from desktop import resources
    from rules.content import base
    from rules.paths import resources_dir

    assert resources_dir() == ROOT / "resources" == base.resources_dir()
    assert (resources.fonts_dir() / "DejaVuSans.ttf").is_file()
    assert resources.icon_path("blacksalt.png").is_file()
    assert not resources.frozen()
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert resources_dir() == tmp_path / "resources" == base.resources_dir()
    assert resources.fonts_dir() == tmp_path / "resources" / "fonts"
    assert resources.frozen()


def test_the_spec_bundles_every_resource_folder_the_code_reads() -> None:
    spec = (ROOT / "packaging" / "blacksalt.spec").read_text(encoding="utf-8")
    read = {p.name for p in (ROOT / "resources").iterdir() if p.is_dir()} - {"screenshots"}
    bundled = set(spec.split('for sub in ("', 1)[1].split(")", 1)[0].replace('"', "").replace(" ", "").split(","))
    assert read <= bundled, f"resources/ folders missing from the spec: {read - bundled}"


# --- the start-screen probe ------------------------------------------------------------------------------


def test_the_startup_probe_reports_the_start_screen_and_quits(tmp_path: Path) -> None:
    env = dict(os.environ)
    env.update(
        QT_QPA_PLATFORM="offscreen",
        BLACKSALT_STARTUP_PROBE="1",
        BLACKSALT_CONFIG_DIR=str(tmp_path / "config"),
        BLACKSALT_DATA_DIR=str(tmp_path / "data"),
        PYTHONPATH=str(ROOT),
    )
    out = subprocess.run(
        [sys.executable, "-m", "desktop"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr[-2000:]
    probe = json.loads([ln for ln in out.stdout.splitlines() if ln.startswith("{")][-1])
    assert probe["start_screen"] is True and probe["saves"] == 0 and probe["frozen"] is False
    assert {"DejaVu Sans", "DejaVu Serif"} <= set(probe["fonts"])
    assert probe["engine_loaded"] is False  # the start screen never waits for the engine
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").rglob("*.sqlite3"))


# --- build script and icons ------------------------------------------------------------------------------


def test_build_paths() -> None:
    exe = "blacksalt.exe" if sys.platform == "win32" else "blacksalt"
    assert builder.executable(Path("d"), onefile=True) == Path("d") / exe
    assert builder.executable(Path("d"), onefile=False) == Path("d") / "blacksalt" / exe
    assert builder.GOAL_MB == {"onefile": 60, "onedir": 130}


def test_the_icons_hold_the_sizes_each_os_wants() -> None:
    image = pytest.importorskip("PIL.Image")
    ico = image.open(ROOT / "packaging" / "icons" / "blacksalt.ico")
    assert {(16, 16), (32, 32), (48, 48), (256, 256)} <= set(ico.info["sizes"])
    icns = image.open(ROOT / "packaging" / "icons" / "blacksalt.icns")
    assert icns.size[0] >= 512
