"""``blacksalt dungeon``: the text formats, --from, and refusals that leave nothing behind."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from desktop.cli import run


def call(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = run(list(argv))
    except SystemExit as exc:  # argparse refusals
        code = int(exc.code or 0)
    c = capsys.readouterr()
    return code, c.out, c.err


def test_json_and_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(capsys, "dungeon", "--seed", "12", "--rooms", "9", "--format", "json,md",
                          "--out", str(tmp_path / "tomb"))  # fmt: skip
    assert code == 0, err
    assert (tmp_path / "tomb.json").exists() and (tmp_path / "tomb.md").exists()
    assert out.split() == [str(tmp_path / "tomb.json"), str(tmp_path / "tomb.md")]
    data = json.loads((tmp_path / "tomb.json").read_text())
    assert data["seed"] == 12 and len(data["rooms"]) == 9
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".blacksalt-export")]


def test_same_seed_same_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("a", "b"):
        assert call(capsys, "dungeon", "--seed", "5", "--depth", "2", "--level", "3", "--format", "json",
                    "--out", str(tmp_path / name))[0] == 0  # fmt: skip
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_from_file_re_exports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    call(capsys, "dungeon", "--seed", "3", "--format", "json", "--out", str(tmp_path / "orig"))
    code, _, err = call(capsys, "dungeon", "--from", str(tmp_path / "orig.json"), "--format", "json,md",
                        "--out", str(tmp_path / "copy"))  # fmt: skip
    assert code == 0, err
    assert (tmp_path / "copy.json").read_text() == (tmp_path / "orig.json").read_text()


def test_folder_output_uses_the_title(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "dungeon", "--seed", "8", "--format", "md", "--out", str(tmp_path) + os.sep)
    assert code == 0
    written = Path(out.strip())
    assert written.parent == tmp_path and written.suffix == ".md" and written.stem != "dungeon"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rooms", "-3"], "between 3 and 60"),
        (["--rooms", "lots"], "whole number"),
        (["--theme", "moon_base"], "unknown theme 'moon_base'"),
        (["--format", "docx"], "unknown format"),
        (["--depth", "9"], "between 1 and 5"),
    ],
)
def test_nonsense_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = call(capsys, "dungeon", *argv, "--out", str(tmp_path / "x"))
    assert code != 0 and out == ""
    assert message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_malformed_from_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    call(capsys, "dungeon", "--seed", "3", "--format", "json", "--out", str(tmp_path / "orig"))
    data = json.loads((tmp_path / "orig.json").read_text())
    data["rooms"][2]["w"] = "wide"
    (tmp_path / "bad.json").write_text(json.dumps(data))
    code, _, err = call(capsys, "dungeon", "--from", str(tmp_path / "bad.json"), "--format", "md",
                        "--out", str(tmp_path / "out"))  # fmt: skip
    assert code != 0 and "rooms[2].w" in err
    assert not (tmp_path / "out.md").exists()
    code, _, err = call(capsys, "dungeon", "--from", str(tmp_path / "missing.json"), "--out", str(tmp_path / "o"))
    assert code != 0 and "no such file" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    code, _, err = call(capsys, "dungeon", "--seed", "1", "--out", str(locked / "x"))
    assert code != 0 and "cannot write" in err


def test_unwritable_path_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code, _, err = call(capsys, "dungeon", "--seed", "1", "--out", str(blocker / "sub" / "x"))
    assert code != 0 and "cannot create the folder" in err
    assert blocker.read_text() == "not a folder"


def test_from_file_with_overlapping_rooms_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    call(capsys, "dungeon", "--seed", "3", "--depth", "2", "--format", "json", "--out", str(tmp_path / "orig"))
    data = json.loads((tmp_path / "orig.json").read_text())
    level2 = data["deeper_levels"][0]
    a, b = level2["rooms"][1], level2["rooms"][4]
    b["x"], b["y"], b["outline"] = a["x"] + 1, a["y"] + 1, None  # b's corner now lies inside a
    b["w"], b["h"] = min(b["w"], data["deeper_levels"][0]["grid"]["width"] - b["x"]), 2
    (tmp_path / "overlap.json").write_text(json.dumps(data))
    code, out, err = call(capsys, "dungeon", "--from", str(tmp_path / "overlap.json"), "--format", "md",
                          "--out", str(tmp_path / "out"))  # fmt: skip
    assert code != 0 and out == "" and "Traceback" not in err
    assert "rooms overlap" in err
    assert f"level 2: room {a['id']} ({a['name']}) and room {b['id']} ({b['name']})" in err
    assert not (tmp_path / "out.md").exists()
    # The file as generated re-exports.
    code, _, _ = call(capsys, "dungeon", "--from", str(tmp_path / "orig.json"), "--format", "md",
                      "--out", str(tmp_path / "fine"))  # fmt: skip
    assert code == 0


def test_generated_dungeons_never_overlap() -> None:
    from dungeon_gen.export.json_io import overlapping_rooms
    from dungeon_gen.generate import generate

    for seed in range(10):
        d = generate(seed, rooms=10 + 5 * seed, depth=1 + seed % 3)
        assert [line for level in d.levels for line in overlapping_rooms(level)] == [], seed


def test_every_format_is_the_same_bytes_from_another_process(tmp_path: Path) -> None:
    """The README's promise, across processes as a GM meets it (two runs of the command, another
    clock zone, Python's and Qt's hashes seeded afresh each time): every file of ``--format all``
    is the same bytes, the PDF with its document id and fonts included."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    outs = []
    for i, tz in enumerate(("UTC", "Pacific/Auckland")):
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", TZ=tz, PYTHONHASHSEED=str(17 + i))
        env.pop("QT_HASH_SEED", None)
        out = tmp_path / f"run{i}"
        subprocess.run(
            [sys.executable, "-m", "desktop", "dungeon", "--seed", "5", "--rooms", "8", "--depth", "2",
             "--format", "all", "--out", f"{out}/"],
            cwd=root, env=env, check=True, capture_output=True, timeout=300,
        )  # fmt: skip
        outs.append(out)
    names = sorted(p.name for p in outs[0].iterdir())
    assert names == sorted(p.name for p in outs[1].iterdir())
    assert {Path(n).suffix for n in names} == {".json", ".md", ".svg", ".png", ".pdf", ".dd2vtt"}
    assert len(names) == 2 + 2 * 6 + 1  # json, md; per level 2 svg, 2 png, 2 dd2vtt; one pdf
    for name in names:
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name
