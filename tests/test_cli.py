"""The command line: every sub-command, its JSON, and clear errors on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.cli import run

ROOT = Path(__file__).resolve().parents[1]


def out(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_odds_json_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = out(capsys, "odds", "--dice", "5", "--proficiency", "2", "--json")
    assert code == 0
    data = json.loads(text)
    assert set(data) >= {"success", "great_success", "critical_failure", "fatigue"}
    # five dice all failing, then two rerolls of failures that fail again: (1/2)^7
    assert data["success"] == pytest.approx(1 - 0.5**7, abs=1e-12)


def test_odds_one_die(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = out(capsys, "odds", "--dice", "1", "--json")
    assert code == 0
    data = json.loads(text)
    assert data == pytest.approx(
        {"success": 0.5, "great_success": 0.0, "critical_failure": 1 / 6, "fatigue": 1 / 3, "helper_fatigue": 0.0}
    )


def test_odds_options_change_the_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    def success(*extra: str) -> float:
        code, text, _ = out(capsys, "odds", "--dice", "3", "--json", *extra)
        assert code == 0
        return float(json.loads(text)["success"])

    base = success()
    assert success("--advantage", "1") > base
    assert success("--disadvantage", "1") < base
    assert success("--advantage", "1", "--disadvantage", "1") == pytest.approx(base)
    assert success("--affliction", "terrified") < base
    assert success("--keep-safe") < base
    assert success("--extra-effort") > base
    code, text, _ = out(capsys, "odds", "--dice", "3", "--check", "--json")
    assert code == 0
    assert json.loads(text)["fatigue"] == 0


def test_odds_readable(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = out(capsys, "odds", "--dice", "0")
    assert code == 0 and "keep the lowest" in text and "Success" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["odds", "--dice", "x"], "whole number"),
        (["odds", "--dice", "99"], "between"),
        (["odds", "--dice", "2", "--proficiency", "-1"], "between"),
        (["odds", "--dice", "2", "--affliction", "grumpy"], "grumpy"),
        (["odds", "--dice", "2", "--extra-effort", "--keep-safe"], "keeping it safe"),
        (["odds", "--dice", "2", "--extra-effort", "--affliction", "sleepy"], "Sleepy"),
        (["rules", "spaceship", "x"], "unknown kind"),
        (["character", "--class", "bard"], "unknown class"),
        (["character", "--seed", "-4"], "between"),
        (["nonsense"], "invalid choice"),
    ],
)
def test_bad_input_is_refused_clearly(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as exc:
        code = run(argv)
        raise SystemExit(code)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_rules_monster_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = out(capsys, "rules", "monster", "FRESHLY", "risen", "corpse", "--json")
    assert code == 0
    m = json.loads(text)
    for key in ("name", "level", "wounds", "armor", "resist", "movement", "tags", "extract", "actions"):
        assert key in m
    assert (m["name"], m["level"], m["wounds"], m["armor"], m["movement"]) == ("Freshly Risen Corpse", 2, 5, 1, 5)
    lunge = next(a for a in m["actions"] if a["name"] == "Lunge")
    assert lunge["attack"]["attributes"] == ["DEX"] and lunge["attack"]["damage"] == 2
    assert lunge["attack"]["range"] == "Nearby"


def test_rules_weapon_parsed_attack(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = out(capsys, "rules", "weapon", "falchion", "--json")
    assert code == 0
    w = json.loads(text)
    a = w["attack"]
    for key in ("attributes", "modifier", "damage", "crit_damage", "effects", "crit_effects", "range"):
        assert key in a
    assert (a["damage"], a["crit_damage"], a["crit_effects"], a["modifier"]) == (3, 1, ["B"], None)


def test_rules_rend_disadvantage(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = out(capsys, "rules", "monster", "bugbear", "--json")
    assert code == 0
    rend = next(a for a in json.loads(text)["actions"] if a["name"] == "Rend")
    assert rend["attack"]["modifier"] == "disadvantage" and rend["attack"]["crit_effects"] == ["B"]


@pytest.mark.parametrize(
    ("kind", "name"),
    [
        ("armor", "chainmail"),
        ("armour", "Gothic plate armor"),
        ("shield", "tower shield"),
        ("item", "lantern"),
        ("skill", "street wise"),
        ("trait", "dauntless"),
        ("affliction", "Terrified"),
        ("spell", "magic missile"),
        ("prayer", "cure light wounds"),
        ("settlement", "yoros"),
    ],
)
def test_rules_every_kind(capsys: pytest.CaptureFixture[str], kind: str, name: str) -> None:
    code, text, _ = out(capsys, "rules", kind, name, "--json")
    assert code == 0, text
    assert json.loads(text)["name"].lower() == name.lower()
    code, card, _ = out(capsys, "rules", kind, name)
    assert code == 0 and card.strip()


def test_rules_unknown_name_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = out(capsys, "rules", "monster", "bugbare")
    assert code == 3
    assert "Bugbear" in err


def test_character_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = out(capsys, "character", "--seed", "7", "--class", "WIZARD", "--json")
    assert code == 0
    d = json.loads(text)
    for key in ("name", "attributes", "proficiencies", "class", "background", "skills", "traits", "burden",
                "quirk", "equipment", "silver", "insight", "spells", "prayers", "seed"):  # fmt: skip
        assert key in d, key
    assert d["class"] == "Wizard" and d["seed"] == 7 and d["spells"]
    code, again, _ = out(capsys, "character", "--seed", "7", "--class", "wizard", "--json")
    assert again == text


def test_validate_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = out(capsys, "validate")
    assert code == 0
    assert "bestiary.monsters" in text and "all valid" in text


def test_validate_refuses_a_feature_reward_the_gm_cannot_play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import dungeon_gen.themes

    src = ROOT / "resources" / "dungeon" / "themes" / "ruined_watchtower.toml"
    good, bad = 'rewards = [{ kind = "item", items = ["Crossbow"', 'rewards = [{ kind = "wish", items = ["Crossbow"'
    text = src.read_text().replace(good, bad)
    assert text != src.read_text()
    (tmp_path / "ruined_watchtower.toml").write_text(text)
    monkeypatch.setattr(dungeon_gen.themes, "themes_dir", lambda: tmp_path)
    code, _, err = out(capsys, "validate")
    assert code != 0 and "reward kind 'wish' has no handler in the GM" in err


def test_validate_refuses_a_power_or_an_item_effect_the_gm_cannot_play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue #13: content with no implementation in the GM fails ``validate``, each entry named."""
    import shutil

    import rules.content.registry

    code, text, _ = out(capsys, "validate")
    assert code == 0 and "has a handler in the GM" in text
    content = tmp_path / "content"
    shutil.copytree(ROOT / "resources" / "content", content)
    with (content / "magic.toml").open("a") as f:
        f.write('\n[[prayers]]\nname = "Prayer of the Unheard"\nsource = "Akhzu"\ntext = "Nothing the GM knows."\n')
    with (content / "items.toml").open("a") as f:
        f.write('\n[[items]]\nname = "Made-up charm"\nrarity = "common"\ntext = "A charm."\ntags = ["quick"]\n'
                '\n[[items.effects]]\ntext = "Something."\nspecial = "made_up_charm"\n')  # fmt: skip
    monkeypatch.setattr(rules.content.registry, "content_dir", lambda: content)
    code, _, err = out(capsys, "validate")
    assert code != 0
    assert "prayer: Prayer of the Unheard" in err and "item: Made-up charm (effect 'made_up_charm')" in err


def test_console_script_entry_point_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "desktop", "odds", "--dice", "2", "--json"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["success"] == pytest.approx(0.75)


def test_no_arguments_opens_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    import desktop.app

    opened: list[list[str]] = []
    monkeypatch.setattr(desktop.app, "run_window", lambda argv: opened.append(list(argv)) or 0)
    assert run([]) == 0
    assert len(opened) == 1


def test_help_names_the_commands_and_credits_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(["--help"])
    text = capsys.readouterr().out
    assert exit_.value.code == 0 and "odds" in text and "simulate" in text and "Pedro Medeiros" in text
