"""``blacksalt``: the game's entry point.

With a sub-command it runs the Qt-free command line (:mod:`desktop.cli`);
without one it opens the game window (:func:`desktop.app.run_window`);
``--screenshots DIR [--seed S]`` plays a demo campaign headless and writes a
PNG of every screen; ``--version`` prints the version.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from desktop.cli import run

    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    raise SystemExit(main())
