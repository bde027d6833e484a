"""``blacksalt``: the game's entry point.

With a sub-command it runs the Qt-free command line (:mod:`desktop.cli`);
without one it opens the game window once the desktop exists, and until then
prints the command line's help.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from desktop.cli import run

    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    raise SystemExit(main())
