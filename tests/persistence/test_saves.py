"""Campaign saves: round trips, one transaction per step, refusals that leave files untouched,
fallback to the backup, Alembic migrations, the kill test, the list of saves, the chronicle, the CLI."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from desktop.persistence import (
    FORMAT,
    HEAD,
    SaveError,
    SaveFile,
    campaign_path,
    chronicle,
    default_folder,
    examine,
    list_saves,
    slugify,
    summarize,
)
from desktop.persistence.savefile import digest

ROOT = Path(__file__).resolve().parents[2]


# --- helpers -------------------------------------------------------------------------------------


def fake_campaign(step: int = 0, rooms: int = 400) -> dict[str, Any]:
    """Shaped like Campaign.to_dict(), about 50 KB of JSON with the default rooms."""
    rng = random.Random(step)
    return {
        "seed": 11,
        "rng": [3, [rng.randrange(2**32) for _ in range(20)], None],
        "phase": "exploration",
        "day": 1 + step // 10,
        "settlement": "Trinta",
        "party": [
            {"id": f"a{i}", "adv": {"character": {"name": n, "silver": 5 + i}}} for i, n in enumerate(["Ash", "Bree"])
        ],
        "locations": {"d1": {"id": "d1", "title": "The Chapel of Candles", "data": "{}"}},
        "expedition": {"location": "d1", "depth": 1, "room": step % 12},
        "stats": {"steps": step},
        "rooms": [
            {
                "id": i,
                "text": f"Room {i}: wet stone and old candles; salt crusts the walls, the air tastes of iron.",
                "seen": i < step,
            }
            for i in range(rooms)
        ],
    }


def step_events(step: int, n: int = 3) -> list[dict[str, Any]]:
    return [{"kind": "note", "text": f"Step {step}, event {i}.", "data": {"i": i}} for i in range(n)]


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_save(path: Path, steps: int = 3) -> Path:
    with SaveFile.create(path, fake_campaign(0)) as save:
        for step in range(1, steps + 1):
            save.commit_step(step, fake_campaign(step), step_events(step))
    return path


def raw(path: Path, *sql: str) -> None:
    """Change a file behind Blacksalt's back (as damage, or another program, would)."""
    con = sqlite3.connect(path)
    try:
        for stmt in sql:
            con.execute(stmt)
        con.commit()
    finally:
        con.close()


# --- round trip ----------------------------------------------------------------------------------


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "campaigns" / "ash-bree-1.sqlite3"
    save = SaveFile.create(path, fake_campaign(0))
    assert save.step == 0 and save.source == "snapshot" and not save.warnings
    assert save.load() == (fake_campaign(0), 0)
    for step in range(1, 6):
        save.commit_step(step, fake_campaign(step), step_events(step))
    assert save.load() == (fake_campaign(5), 5)
    save.close()
    assert save.closed
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no WAL, no temporary file left

    with SaveFile.open(path) as again:
        assert again.load() == (fake_campaign(5), 5)
        assert again.load() == (fake_campaign(5), 5)  # the second load reads the file
        events = again.events()
        assert [(e["step"], e["seq"], e["text"]) for e in events] == [
            (s, i, f"Step {s}, event {i}.") for s in range(1, 6) for i in range(3)
        ]
        assert events[0]["data"] == {"i": 0} and events[0]["kind"] == "note" and events[0]["day"] == 1
        assert [e["step"] for e in again.events(since=4)] == [5, 5, 5]
        assert again.summary == {
            "party": ["Ash", "Bree"],
            "location": "The Chapel of Candles",
            "day": 1,
            "phase": "exploration",
            "silver": 11,
            "seed": 11,
        }
        assert again.campaign_id == save.campaign_id and len(again.campaign_id) == 12
    with pytest.raises(SaveError, match="closed"):
        again.load()


def test_explicit_summary_and_event_objects(tmp_path: Path) -> None:
    class Event:  # duck-typed like rules.gm.events.Event
        def __init__(self, kind: str, text: str, **data: Any) -> None:
            self.kind, self.text, self.data = kind, text, data

        def to_dict(self) -> dict[str, Any]:
            return {"kind": self.kind, "text": self.text, "data": self.data}

    with SaveFile.create(tmp_path / "s.sqlite3", {"day": 1}, {"party": ["Cole"], "day": 1}, campaign_id="abc") as save:
        save.commit_step(1, {"day": 2}, [Event("death", "Cole dies.", day=7)], {"party": ["Cole"], "day": 2})  # type: ignore[list-item]
        assert save.events() == [
            {"step": 1, "seq": 0, "day": 7, "kind": "death", "text": "Cole dies.", "data": {"day": 7}}
        ]
        assert save.summary == {"party": ["Cole"], "day": 2}
        assert save.campaign_id == "abc"


def test_steps_must_grow(tmp_path: Path) -> None:
    with SaveFile.create(tmp_path / "s.sqlite3", fake_campaign(0)) as save:
        save.commit_step(3, fake_campaign(3))
        for bad in (3, 2):
            with pytest.raises(ValueError, match="not after"):
                save.commit_step(bad, fake_campaign(bad))
        assert save.load() == (fake_campaign(3), 3)


def test_create_never_overwrites(tmp_path: Path) -> None:
    existing = tmp_path / "mine.sqlite3"
    existing.write_text("my own notes\n")
    before = sha(existing)
    with pytest.raises(SaveError, match="already exists") as info:
        SaveFile.create(existing, fake_campaign(0))
    assert info.value.kind == "exists"
    assert sha(existing) == before
    make_save(tmp_path / "game.sqlite3")
    before = sha(tmp_path / "game.sqlite3")
    with pytest.raises(SaveError, match="never overwrites"):
        SaveFile.create(tmp_path / "game.sqlite3", fake_campaign(9))
    assert sha(tmp_path / "game.sqlite3") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.sqlite3", "mine.sqlite3"]


# --- one transaction per step --------------------------------------------------------------------


def test_a_failure_inside_a_step_keeps_the_previous_step(tmp_path: Path) -> None:
    from sqlalchemy import event

    path = make_save(tmp_path / "s.sqlite3", steps=2)
    save = SaveFile.open(path)
    engine = save._engine
    assert engine is not None

    def boom(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE META"):  # the last statement of a step
            raise RuntimeError("the machine died half-way through the step")

    event.listen(engine, "before_cursor_execute", boom)
    with pytest.raises(RuntimeError, match="half-way"):
        save.commit_step(3, fake_campaign(3), step_events(3))
    assert save.step == 2
    assert save.load() == (fake_campaign(2), 2)
    assert [e["step"] for e in save.events()] == [1, 1, 1, 2, 2, 2]
    with pytest.raises(TypeError):  # not JSON: refused before the transaction starts
        save.commit_step(3, {"bad": {1, 2}})
    event.remove(engine, "before_cursor_execute", boom)
    save.close()

    with SaveFile.open(path) as again:  # what the disk holds: step 2, whole, and its backup step 1
        assert again.load() == (fake_campaign(2), 2)
        assert [e["step"] for e in again.events()] == [1, 1, 1, 2, 2, 2]
        again.commit_step(3, fake_campaign(3), step_events(3))
        assert again.load() == (fake_campaign(3), 3)
    con = sqlite3.connect(path)
    assert con.execute("SELECT step FROM backup").fetchall() == [(2,)]
    con.close()


# --- refusals: the file is left exactly as it was ------------------------------------------------


def _random_bytes(p: Path) -> None:
    p.write_bytes(random.Random(1).randbytes(50_000))


def _truncated(p: Path) -> None:
    make_save(p.parent / "whole.sqlite3", steps=5)
    data = (p.parent / "whole.sqlite3").read_bytes()
    p.write_bytes(data[: len(data) // 2])


def _cut_in_header(p: Path) -> None:
    make_save(p.parent / "whole.sqlite3")
    p.write_bytes((p.parent / "whole.sqlite3").read_bytes()[:60])


def _garbage_page(p: Path) -> None:
    make_save(p, steps=5)
    with p.open("r+b") as fh:  # page 3: a table's root page
        fh.seek(2 * 4096)
        fh.write(bytes(range(256)) * 16)


def _text(p: Path) -> None:
    p.write_text("# My campaign notes\n\nAsh died in the chapel.\n")


def _empty(p: Path) -> None:
    p.write_bytes(b"")


def _unrelated_db(p: Path) -> None:
    raw(p, "CREATE TABLE recipes (name TEXT, steps TEXT)", "INSERT INTO recipes VALUES ('bread', 'knead')")


def _other_app(p: Path) -> None:
    raw(
        p, "CREATE TABLE meta (id INTEGER PRIMARY KEY, app TEXT, format INTEGER)", "INSERT INTO meta VALUES (1, 'x', 1)"
    )


def _newer_format(p: Path) -> None:
    make_save(p)
    raw(p, f"UPDATE meta SET format = {FORMAT + 1}")


def _newer_revision(p: Path) -> None:
    make_save(p)
    raw(p, "UPDATE alembic_version SET version_num = '9999'")


def _both_rows_damaged(p: Path) -> None:
    make_save(p)
    raw(p, "UPDATE snapshot SET data = substr(data, 1, 100)", "UPDATE backup SET data = '{'")


DAMAGE = {
    "random bytes": (_random_bytes, "not_sqlite", "not an SQLite database"),
    "truncated copy": (_truncated, "damaged", "cut short"),
    "cut in the header": (_cut_in_header, "damaged", "cut short"),
    "garbage page": (_garbage_page, "damaged", "damaged"),
    "text file": (_text, "not_sqlite", "text file"),
    "empty file": (_empty, "not_sqlite", "empty"),
    "unrelated SQLite database": (_unrelated_db, "not_save", "not a Blacksalt save .tables: recipes"),
    "another program's meta": (_other_app, "not_save", "not a Blacksalt save"),
    "newer format": (_newer_format, "newer", "newer Blacksalt .save format 2"),
    "newer schema revision": (_newer_revision, "newer", "newer Blacksalt .schema revision 9999"),
    "snapshot and backup damaged": (_both_rows_damaged, "damaged", "checksum does not match.*backup"),
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_bad_files_are_refused_and_left_untouched(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from desktop.cli import run

    make, kind, message = DAMAGE[case]
    path = tmp_path / "victim.sqlite3"
    make(path)
    before = sha(path)
    for attempt in (SaveFile.open, examine):
        with pytest.raises(SaveError, match=message) as info:
            attempt(path)
        assert info.value.kind == kind
        assert "victim.sqlite3" in str(info.value)
    assert run(["save", "check", str(path)]) == 4
    err = capsys.readouterr().err
    assert err.startswith("blacksalt: victim.sqlite3") and "Traceback" not in err
    assert sha(path) == before
    assert not list(tmp_path.glob("*.bak"))


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from desktop.cli import run

    with pytest.raises(SaveError, match="no such file") as info:
        SaveFile.open(tmp_path / "nope.sqlite3")
    assert info.value.kind == "missing"
    assert run(["save", "check", str(tmp_path / "nope.sqlite3")]) == 3
    assert "no such file" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
    with pytest.raises(SaveError, match="not a file"):
        SaveFile.open(tmp_path)


# --- the backup of the last good state -----------------------------------------------------------


@pytest.mark.parametrize(
    "damage",
    ["UPDATE snapshot SET data = substr(data, 1, 100)", "UPDATE snapshot SET data = '[1, 2', digest = '{d}'"],
    ids=["checksum", "broken JSON"],
)
def test_a_damaged_snapshot_falls_back_to_the_backup(tmp_path: Path, damage: str) -> None:
    path = make_save(tmp_path / "s.sqlite3", steps=4)
    raw(path, damage.format(d=digest("[1, 2")))
    with SaveFile.open(path) as save:
        assert save.source == "backup"
        assert save.step == 3
        assert "snapshot of step 4 is damaged" in save.warnings[0] and "backup of step 3" in save.warnings[0]
        assert save.load() == (fake_campaign(3), 3)
        assert save.load() == (fake_campaign(3), 3)
        assert [e["step"] for e in save.events()] == [1, 1, 1, 2, 2, 2, 3, 3, 3]  # step 4 is lost
        # play goes on from step 3: the damaged snapshot is not copied over the good backup
        save.commit_step(4, fake_campaign(40), step_events(4, n=1))
        assert save.source == "snapshot"
        assert save.load() == (fake_campaign(40), 4)
    with SaveFile.open(path) as again:
        assert again.source == "snapshot" and not again.warnings
        assert again.load() == (fake_campaign(40), 4)
        assert [e["step"] for e in again.events()] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4]  # the lost step's events replaced
    con = sqlite3.connect(path)
    assert con.execute("SELECT step FROM backup").fetchall() == [(3,)]
    con.close()


def test_each_step_keeps_the_one_before_as_backup(tmp_path: Path) -> None:
    path = make_save(tmp_path / "s.sqlite3", steps=6)
    con = sqlite3.connect(path)
    ((step, data),) = con.execute("SELECT step, data FROM backup").fetchall()
    con.close()
    assert step == 5 and json.loads(data) == fake_campaign(5)


# --- Alembic -------------------------------------------------------------------------------------


def test_revisions_listed_in_schema_match_the_migrations() -> None:
    from desktop.persistence.migrate import script_revisions
    from desktop.persistence.schema import REVISIONS

    assert tuple(script_revisions()) == REVISIONS
    assert REVISIONS[-1] == HEAD


def test_migrations_build_the_schema_from_an_empty_file(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from desktop.persistence.migrate import upgrade
    from desktop.persistence.savefile import _engine
    from desktop.persistence.schema import metadata

    path = tmp_path / "empty.sqlite3"
    path.touch()
    engine = _engine(path)
    with engine.connect() as conn:
        with conn.begin():
            upgrade(conn)
        with conn.begin():
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == HEAD
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    engine.dispose()


def _revision_0001_save(path: Path) -> dict[str, Any]:
    """A save as Blacksalt wrote it at schema revision 0001 (events had no day column)."""
    from desktop.persistence.migrate import upgrade
    from desktop.persistence.savefile import _engine

    engine = _engine(path)
    with engine.connect() as conn, conn.begin():
        upgrade(conn, "0001")
    engine.dispose()
    campaign = fake_campaign(2)
    data = json.dumps(campaign)
    con = sqlite3.connect(path)
    con.execute(
        "INSERT INTO meta VALUES (1, 'blacksalt', 1, 'old0001', '2026-01-01T10:00:00+00:00', "
        "'2026-01-02T10:00:00+00:00', 'blacksalt 0.0.9', ?)",
        (json.dumps({"party": ["Ash"], "day": 4}),),
    )
    con.execute("INSERT INTO snapshot VALUES (1, 2, '2026-01-02T10:00:00+00:00', ?, ?)", (digest(data), data))
    con.executemany(
        "INSERT INTO events (step, seq, kind, text, data) VALUES (?, ?, ?, ?, ?)",
        [
            (1, 0, "note", "Ash wakes.", json.dumps({"day": 3})),
            (2, 0, "note", "Ash walks.", "{}"),
            (2, 1, "death", "Ash dies.", json.dumps({"day": 4})),
        ],
    )
    con.commit()
    con.close()
    return campaign


def test_an_older_revision_is_upgraded_after_a_backup_copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from desktop.cli import run

    path = tmp_path / "old.sqlite3"
    campaign = _revision_0001_save(path)
    before = sha(path)
    report = examine(path)
    assert report.revision == "0001" and report.needs_upgrade and report.step == 2
    assert run(["save", "check", str(path)]) == 0  # healthy; checking it changes nothing
    assert "opening it upgrades it" in capsys.readouterr().out
    assert sha(path) == before

    with SaveFile.open(path) as save:
        assert save.migrated_from == "0001"
        assert save.backup_file == tmp_path / "old.sqlite3.r0001.bak"
        assert any("upgraded from schema revision 0001" in w for w in save.warnings)
        assert save.load() == (campaign, 2)
        assert [(e["text"], e["day"]) for e in save.events()] == [
            ("Ash wakes.", 3),
            ("Ash walks.", None),
            ("Ash dies.", 4),
        ]
        assert "## Day 3\n\n- Ash wakes.\n- Ash walks.\n\n## Day 4\n\n- **Ash dies.**" in chronicle(save)
        save.commit_step(3, fake_campaign(3), step_events(3))
    assert examine(path).revision == HEAD
    old = examine(tmp_path / "old.sqlite3.r0001.bak")  # the copy is the file as it was
    assert (old.revision, old.step, old.campaign, old.campaign_id) == ("0001", 2, campaign, "old0001")
    with SaveFile.open(path) as again:  # no second migration, no second copy
        assert again.migrated_from is None and again.load()[1] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite3", "old.sqlite3.r0001.bak"]


# --- the kill test -------------------------------------------------------------------------------

WRITER = textwrap.dedent(
    """
    import random, sys
    from desktop.persistence import SaveFile

    save = SaveFile.open(sys.argv[1])
    data, step = save.load()
    assert data["stats"]["steps"] == step, (data["stats"], step)
    print("ready", step, flush=True)
    rng = random.Random(step)
    while True:
        step += 1
        data["stats"]["steps"] = step
        data["day"] = 1 + step // 10
        for room in rng.sample(data["rooms"], 20):
            room["seen"] = not room["seen"]
            room["text"] = f"Room {room['id']}, seen at step {step}: " + "wet stone " * rng.randint(0, 6)
        events = [{"kind": "note", "text": f"Step {step}, event {i}.", "data": {"step": step}} for i in range(5)]
        save.commit_step(step, data, events, {"party": ["Kill"], "day": data["day"]})
        print(step, flush=True)
    """
)


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_killed_writers_never_lose_more_than_the_step_in_flight(tmp_path: Path) -> None:
    path = tmp_path / "kill.sqlite3"
    SaveFile.create(path, fake_campaign(0)).close()
    assert 45_000 < len(json.dumps(fake_campaign(0))) < 70_000
    writer = tmp_path / "writer.py"
    writer.write_text(WRITER)
    rng = random.Random(20261122)
    kills, progressed, last = 30, 0, 0
    for n in range(kills):
        proc = subprocess.Popen(
            [sys.executable, str(writer), str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert proc.stdout is not None
        if n % 6 == 5:  # now and then, while it is still starting or opening the file
            time.sleep(rng.uniform(0.0, 0.4))
        else:
            line = proc.stdout.readline()
            assert line.startswith("ready"), (line, proc.stderr.read() if proc.stderr else "")
            assert int(line.split()[1]) in (last, last + 1)
            time.sleep(rng.uniform(0.0, 0.25))
        proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate()
        assert proc.returncode == -signal.SIGKILL, err
        printed = [int(x) for x in out.split() if x.isdigit()]
        committed = printed[-1] if printed else last  # the last step the writer saw committed
        report = examine(path)
        assert report.integrity == "ok" and report.source == "snapshot" and not report.warnings
        with SaveFile.open(path) as save:
            data, step = save.load()
            assert step in (committed, committed + 1), (step, committed)  # killed after a commit, before its print
            assert data["stats"]["steps"] == step
            events = save.events()
            assert len(events) == 5 * step
            assert [e["step"] for e in events] == [s for s in range(1, step + 1) for _ in range(5)]
        progressed += step > last
        last = step
    assert last > 30 and progressed >= kills // 2  # the writers got somewhere, most of the time


# --- the list of saves ---------------------------------------------------------------------------


def test_list_saves(tmp_path: Path) -> None:
    assert list_saves(tmp_path / "none") == []
    older = make_save(tmp_path / "older.sqlite3", steps=1)
    newer = make_save(tmp_path / "newer.sqlite3", steps=2)
    time.sleep(0.01)
    with SaveFile.open(older) as save:  # played last
        save.commit_step(2, fake_campaign(25), step_events(2))
    (tmp_path / "broken.sqlite3").write_text("not a save")
    (tmp_path / "notes.txt").write_text("ignored")
    (tmp_path / "older.sqlite3.r0001.bak").write_bytes(older.read_bytes())
    infos = list_saves(tmp_path)
    assert [i.path.name for i in infos] == ["older.sqlite3", "newer.sqlite3", "broken.sqlite3"]
    first = infos[0]
    assert (first.party, first.location, first.day, first.steps, first.error) == (
        ["Ash", "Bree"],
        "The Chapel of Candles",
        3,
        2,
        None,
    )
    assert first.title == "Ash, Bree" and first.last_played is not None and first.size > 0
    assert infos[1].path == newer and infos[1].day == 1
    assert infos[2].error is not None and "not a Blacksalt save" in infos[2].error


def test_paths() -> None:
    assert slugify("Ásh & Tamsen: the Chapel!") == "ash-tamsen-the-chapel"
    assert slugify("!!!") == "campaign"
    assert default_folder().name == "campaigns" and "lacksalt" in str(default_folder())
    path = campaign_path("Ash and Bree", "abc123", Path("/x"))
    assert path == Path("/x/ash-and-bree-abc123.sqlite3")


def test_summarize_reads_what_it_finds() -> None:
    assert summarize({}) == {"party": []}
    in_town = summarize({"settlement": "Trinta", "day": 4, "expedition": None, "party": [{"adv": {}}]})
    assert in_town == {"party": [], "location": "Trinta", "day": 4}


def test_a_real_campaign_round_trips(tmp_path: Path) -> None:
    pytest.importorskip("rules.gm.campaign")
    from dungeon_gen.site import GeneratedDungeons
    from rules.content.registry import load_content
    from rules.gm.campaign import new_campaign
    from rules.gm.state import Campaign

    campaign = new_campaign(load_content(), GeneratedDungeons(), 7, 3)
    with SaveFile.create(tmp_path / "real.sqlite3", campaign.to_dict()) as save:
        data, _ = save.load()
        assert Campaign.from_dict(data).to_dict() == campaign.to_dict()
        assert save.summary["party"] == [m.name for m in campaign.party]
        assert save.summary["location"] == campaign.settlement and save.summary["day"] == campaign.day


# --- the chronicle -------------------------------------------------------------------------------


def test_chronicle(tmp_path: Path) -> None:
    with SaveFile.create(tmp_path / "c.sqlite3", {"day": 1}, {"party": ["Ash", "Bree", "Cole"], "day": 1}) as save:
        assert "Nothing has happened yet." in chronicle(save)
        save.commit_step(
            1,
            {"day": 1},
            [{"kind": "expedition", "text": "They set out for the *Chapel*.", "data": {}}],
            {"party": ["Ash", "Bree", "Cole"], "day": 1},
        )
        save.commit_step(
            2,
            {"day": 2},
            [
                {"kind": "note", "text": "A <script> of salt.", "data": {}},
                {"kind": "roll", "text": "d6: 4", "data": {}},
                {"kind": "note", "text": "  ", "data": {}},
            ],
            {"party": ["Ash", "Bree", "Cole"], "day": 2},
        )
        md = chronicle(save)
        html = chronicle(save, "html", skip={"roll"})
        with pytest.raises(ValueError, match="'md' or 'html'"):
            chronicle(save, "pdf")  # type: ignore[arg-type]
    assert md.startswith("# The chronicle of Ash, Bree and Cole\n")
    assert (
        "## Day 1\n\n- **They set out for the \\*Chapel\\*.**\n\n## Day 2\n\n- A \\<script\\> of salt.\n- d6: 4\n" in md
    )
    assert html.startswith("<!DOCTYPE html>") and "<h2>Day 2</h2>" in html
    assert "A &lt;script&gt; of salt." in html and "<script>" not in html and "d6: 4" not in html
    assert '<li class="kind-expedition milestone">They set out for the *Chapel*.</li>' in html


# --- the command line ----------------------------------------------------------------------------


def test_save_check_healthy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from desktop.cli import run

    path = make_save(tmp_path / "ok.sqlite3", steps=12)
    before = sha(path)
    assert run(["save", "check", str(path)]) == 0
    out = capsys.readouterr().out
    for expected in (
        "party       Ash, Bree",
        "location    The Chapel of Candles",
        "day         2",
        "steps       12 (36 events)",
        "integrity   ok",
        f"schema revision {HEAD}",
        "size        ",
    ):
        assert expected in out, out
    assert run(["save", "check", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["steps"], data["events"], data["integrity"], data["party"]) == (12, 36, "ok", ["Ash", "Bree"])
    assert data["size"] == path.stat().st_size
    assert sha(path) == before


def test_save_check_backup_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from desktop.cli import run

    path = make_save(tmp_path / "s.sqlite3", steps=3)
    raw(path, "UPDATE snapshot SET data = '{}'")
    assert run(["save", "check", str(path)]) == 1
    captured = capsys.readouterr()
    assert "steps       2" in captured.out and "opens only from its backup" in captured.err


def test_save_chronicle_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from desktop.cli import run

    path = make_save(tmp_path / "s.sqlite3", steps=2)
    assert run(["save", "chronicle", str(path)]) == 0
    assert "## Day 1\n\n- Step 1, event 0." in capsys.readouterr().out
    out = tmp_path / "chronicle.html"
    assert run(["save", "chronicle", str(path), "--html", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert run(["save", "chronicle", str(tmp_path / "missing.sqlite3")]) == 3


def test_the_installed_command(tmp_path: Path) -> None:
    """``blacksalt save check`` in a fresh process: exit codes, and no traceback on refusal."""
    path = make_save(tmp_path / "s.sqlite3")
    exe = shutil.which("blacksalt", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "desktop"]
    ok = subprocess.run([*cmd, "save", "check", str(path)], capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0 and "integrity   ok" in ok.stdout
    (tmp_path / "t.sqlite3").write_text("hello")
    bad = subprocess.run([*cmd, "save", "check", str(tmp_path / "t.sqlite3")], capture_output=True, text=True)
    assert bad.returncode == 4 and "text file" in bad.stderr and "Traceback" not in bad.stderr


def test_a_locked_file_is_reported_and_the_step_can_be_retried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop.persistence import savefile

    monkeypatch.setattr(savefile, "BUSY_TIMEOUT", 0.05)
    path = make_save(tmp_path / "s.sqlite3", steps=1)
    with SaveFile.open(path) as save:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        with pytest.raises(SaveError, match=r"could not save step 2 .*locked") as info:
            save.commit_step(2, fake_campaign(2), step_events(2))
        assert info.value.kind == "busy" and save.step == 1
        other.execute("ROLLBACK")
        other.close()
        save.commit_step(2, fake_campaign(2), step_events(2))
        assert save.load() == (fake_campaign(2), 2)


def test_persistence_is_qt_free_and_opens_without_alembic(tmp_path: Path) -> None:
    import ast

    for path in sorted((ROOT / "desktop" / "persistence").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            assert not [n for n in names if n.split(".")[0] in ("PySide6", "shiboken6", "rules", "dungeon_gen")], path
    save = make_save(tmp_path / "s.sqlite3")
    code = (
        "import sys; from desktop.persistence import SaveFile, list_saves\n"
        f"s = SaveFile.open({str(save)!r}); s.commit_step(9, {{}}); s.close(); list_saves({str(tmp_path)!r})\n"
        "print(sorted(m for m in ('alembic', 'PySide6') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "[]"
