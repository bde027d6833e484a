"""What the packaged game leaves out of PySide6: the spec runs :func:`slim` on PyInstaller's TOC lists.

PyInstaller's PySide6 hooks collect the Qt plugins of every Qt module the game imports (QtCore, QtGui,
QtWidgets, QtSvg), and with them the Qt libraries those plugins link (Network, OpenGL, Wayland, ...).
Blacksalt draws everything with widgets and a stylesheet, so most of that is dead weight.  Kept:

- platforms: ``xcb`` (a real window on X11 and XWayland), ``offscreen`` and ``minimal`` (headless:
  ``--screenshots``, the smoke test), ``windows``, ``cocoa``;
- ``imageformats/qsvg`` and ``iconengines/qsvgicon`` (the stylesheet's SVG arrows), PNG is built into QtGui;
- ``styles`` (the native Windows/macOS styles under the stylesheet) and ``xcbglintegrations`` (no extra
  Qt library; Qt may ask for them on X11).

Dropped, with the trade-offs (see ``packaging/README.md``): Qt's translations (Qt's own dialog strings are
English only), the wayland/eglfs/linuxfb/vnc/vkkhrdisplay platforms (Wayland desktops run it through
XWayland), platform themes (no GTK theming, the game has its own), input contexts (no IBus/compose input
methods in name fields), TLS, network information, printing, SQL drivers, QML tooling, and every other
image format.  The Qt libraries that only the dropped plugins need go too.

Pure functions on ``(dest_name, source, typecode)`` tuples, so the tests run without PyInstaller.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

Entry = tuple[str, str, str]

#: Plugin folders kept whole.
KEEP_PLUGIN_DIRS = {"platforms", "imageformats", "iconengines", "styles", "xcbglintegrations"}
#: Inside the kept folders, only these plugins (base names without lib prefix / suffix); None = all.
KEEP_PLUGINS: dict[str, set[str] | None] = {
    "platforms": {"qxcb", "qoffscreen", "qminimal", "qwindows", "qcocoa"},
    "imageformats": {"qsvg"},
    "iconengines": {"qsvgicon"},
    "styles": None,
    "xcbglintegrations": None,
}

#: Qt libraries no kept plugin or imported module needs (names without lib prefix, version or suffix).
DROP_QT_LIBS = {
    "Qt6Network",
    "Qt6OpenGL",
    "Qt6OpenGLWidgets",
    "Qt6Qml",
    "Qt6QmlCore",
    "Qt6QmlMeta",
    "Qt6QmlModels",
    "Qt6QmlWorkerScript",
    "Qt6Quick",
    "Qt6QuickWidgets",
    "Qt6Pdf",
    "Qt6PrintSupport",
    "Qt6Sql",
    "Qt6Test",
    "Qt6Xml",
    "Qt6VirtualKeyboard",
    "Qt6VirtualKeyboardQml",
    "Qt6WaylandClient",
    "Qt6WaylandCompositor",
    "Qt6WaylandEglClientHwIntegration",
    "Qt6WaylandEglCompositorHwIntegration",
    "Qt6WlShellIntegration",
    "Qt6EglFSDeviceIntegration",
    "Qt6EglFsKmsSupport",
    "Qt6EglFsKmsGbmSupport",
    "Qt6Lottie",
    "Qt6LottieVectorImageGenerator",
    "Qt6LottieVectorImageHelpers",
    "Qt6Concurrent",
}

#: Python modules the game never imports (``--exclude-module``); the Qt ones keep the hooks from
#: collecting their plugins at all.
EXCLUDE_MODULES = [
    "PySide6.QtNetwork",
    "PySide6.QtDBus",
    "PySide6.QtQml",
    "PySide6.QtQuick",
    "PySide6.QtQuickWidgets",
    "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets",
    "PySide6.QtPrintSupport",
    "PySide6.QtSql",
    "PySide6.QtXml",
    "PySide6.QtTest",
    "PySide6.QtConcurrent",
    "PySide6.QtPdf",
    "tkinter",
    "_tkinter",
    "unittest",
    "pydoc",
    "pytest",
    "hypothesis",
    "PIL",
    "numpy",
    "IPython",
    "mypy",
    "pydantic.mypy",
    "ast_serialize",
    # pydantic's optional pretty-printer (rich, markdown_it, attrs) and Mako's Pygments plugin
    "rich",
    "pygments",
    "markdown_it",
    "mdurl",
    "attr",
    "attrs",
    "mako.ext",
    # no network: without ssl/_hashlib, OpenSSL's libssl and libcrypto stay out (hashlib falls back to
    # Python's own sha256)
    "ssl",
    "_ssl",
    "_hashlib",
]

_PLUGIN_RE = re.compile(r"(?:^|/)plugins/([^/]+)/([^/]+)$")
_LIB_RE = re.compile(r"^(?:lib)?(Qt6[A-Za-z0-9]+?)(?:\.so(?:\.[0-9]+)*|\.dll|\.dylib)?$")
_FRAMEWORK_RE = re.compile(r"(?:^|/)(Qt[A-Za-z0-9]+)\.framework(?:/|$)")


def _norm(name: str) -> str:
    return name.replace("\\", "/")


def plugin_base(filename: str) -> str:
    """``libqxcb.so`` / ``qxcb.dll`` / ``libqcocoa.dylib`` / ``qsvgd.dll`` -> ``qxcb`` ... (``d`` debug suffix kept)."""
    stem = filename.split(".")[0]
    return stem[3:] if stem.startswith("lib") else stem


def qt_lib_name(dest: str) -> str | None:
    """``PySide6/Qt/lib/libQt6Network.so.6`` -> ``Qt6Network``; macOS ``QtNetwork.framework/...`` ->
    ``Qt6Network``; anything else -> None."""
    dest = _norm(dest)
    fw = _FRAMEWORK_RE.search(dest)
    if fw:
        return "Qt6" + fw.group(1)[2:]
    m = _LIB_RE.match(dest.rsplit("/", 1)[-1])
    return m.group(1) if m else None


def keep(entry: Entry) -> bool:
    """Whether a binary or data file goes into the bundle."""
    dest = _norm(entry[0])
    if "PySide6/" not in dest and not dest.startswith("PySide6"):
        return True
    parts = dest.split("/")
    if "translations" in parts:
        return False
    if "qml" in parts or "metatypes" in parts or "typesystems" in parts or "include" in parts:
        return False
    m = _PLUGIN_RE.search(dest)
    if m:
        folder, filename = m.group(1), m.group(2)
        if folder not in KEEP_PLUGIN_DIRS:
            return False
        wanted = KEEP_PLUGINS.get(folder)
        return wanted is None or plugin_base(filename) in wanted
    lib = qt_lib_name(dest)
    return not (lib is not None and lib in DROP_QT_LIBS)


def slim(entries: Iterable[Entry]) -> list[Entry]:
    """The entries :func:`keep` keeps, in their order."""
    return [e for e in entries if keep(e)]


def dropped(entries: Iterable[Entry]) -> list[Entry]:
    return [e for e in entries if not keep(e)]


def _base(name: str) -> str:
    return _norm(name).rsplit("/", 1)[-1]


def is_root(entry: Entry) -> bool:
    """A binary something loads by itself: an extension module, a Qt plugin, or libpython (the bootloader's)."""
    dest, _src, kind = entry
    return kind != "BINARY" or bool(_PLUGIN_RE.search(_norm(dest))) or _base(dest).startswith(("libpython", "python"))


def prune_unreachable(binaries: Iterable[Entry], imports: Callable[[str], Iterable[str]]) -> list[Entry]:
    """Drop the shared libraries no root links, directly or through other kept libraries.

    PyInstaller adds the link-time dependencies of every collected binary before :func:`slim` runs, so the
    libraries only a dropped plugin needed (GTK's cairo and gio for the gtk3 theme, OpenSSL's for TLS ...)
    would stay.  ``imports(source_path)`` lists the library names a binary links (DT_NEEDED on Linux).
    """
    entries = list(binaries)
    by_name: dict[str, Entry] = {}
    for e in entries:
        by_name.setdefault(_base(e[0]), e)
    reached: set[str] = set()
    todo = [e for e in entries if is_root(e)]
    seen: set[str] = {e[0] for e in todo}
    while todo:
        entry = todo.pop()
        for name in imports(entry[1]):
            dep = by_name.get(_base(name))
            if dep is None or dep[0] in seen:
                continue
            seen.add(dep[0])
            reached.add(dep[0])
            todo.append(dep)
    return [e for e in entries if is_root(e) or e[0] in reached]


def prune_symlinks(datas: Iterable[Entry], binaries: Iterable[Entry]) -> list[Entry]:
    """Drop the ``SYMLINK`` entries (``libQt6Gui.so.6 -> PySide6/Qt/lib/libQt6Gui.so.6``) whose target is gone."""
    kept = {_norm(e[0]) for e in binaries}
    return [e for e in datas if e[2] != "SYMLINK" or _norm(e[1]) in kept]
