"""``python -m desktop.persistence.migrations revision -m MESSAGE``: a new, empty revision file."""

from __future__ import annotations

import argparse


def main() -> int:
    from alembic import command

    from desktop.persistence.migrate import alembic_config

    ap = argparse.ArgumentParser(prog="python -m desktop.persistence.migrations")
    sub = ap.add_subparsers(dest="command", required=True)
    rev = sub.add_parser("revision", help="write a new revision file in migrations/versions")
    rev.add_argument("-m", "--message", required=True)
    rev.add_argument("--rev-id", default=None, help="the revision id (default: the next four-digit number)")
    sub.add_parser("history", help="list the revisions")
    args = ap.parse_args()
    cfg = alembic_config()
    if args.command == "history":
        command.history(cfg)
        return 0
    from desktop.persistence.schema import HEAD

    rev_id = args.rev_id or f"{int(HEAD) + 1:04d}"
    command.revision(cfg, message=args.message, rev_id=rev_id)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
