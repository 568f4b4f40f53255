"""What the commands write: --out folders checked before any hand is played, files
complete or absent, compare --out, and JSON whose rule values carry their real types."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from analyzer.present import files as files_module
from analyzer.present.files import check_out_dir, write_atomically
from analyzer.reporting import write as report_module
from sims.registry import GAMES


def refused_sentence(cli, *args) -> str:
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1
    return result.stderr


@pytest.fixture
def a_file(tmp_path) -> Path:
    path = tmp_path / "afile"
    path.write_text("x")
    return path


@pytest.fixture
def nothing_runs(monkeypatch):
    """Any hand played fails the test: --out must be refused before."""

    def played(*args, **kwargs):
        raise AssertionError("a hand was played before --out was checked")

    import analyzer.run.runner
    import analyzer.strategy.sweeps

    monkeypatch.setattr(analyzer.run.runner, "run", played)
    monkeypatch.setattr(analyzer.run.runner, "run_paired", played)
    monkeypatch.setattr(analyzer.strategy.sweeps, "sweep", played)
    monkeypatch.setattr(report_module, "write_report", played)


COMMANDS = {
    "simulate": ["chase-ace", "--hands", "1000"],
    "sweep": ["sweep", "chase-ace", "--param", "threshold=3:4", "--hands", "1000"],
    "compare": ["compare", "chase-ace", "--variant", "ethier", "--hands", "1000"],
    "report": ["report", "chase-ace", "--hands", "1000"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_out_that_is_a_file_is_refused_before_any_hand(cli, a_file, nothing_runs, command):
    assert f"--out {a_file} is a file, not a folder." in refused_sentence(cli, *COMMANDS[command], "--out", str(a_file))


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_out_inside_a_file_is_refused_before_any_hand(cli, a_file, nothing_runs, command):
    inside = a_file / "sub" / "dir"
    assert f"--out {inside} is inside a file ({a_file}), not a folder." in refused_sentence(
        cli, *COMMANDS[command], "--out", str(inside)
    )


def test_out_that_cannot_be_written_is_refused(cli, tmp_path, nothing_runs):
    if os.geteuid() == 0:  # root writes anywhere permissions allow; sysfs refuses even root
        locked = Path("/sys/card-analyzer-test")
        if not Path("/sys").is_dir():
            pytest.skip("no /sys here")
    else:
        (tmp_path / "locked").mkdir(mode=0o500)
        locked = tmp_path / "locked" / "out"
    assert f"--out {locked} is not writable" in refused_sentence(cli, *COMMANDS["simulate"], "--out", str(locked))


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_empty_out_is_refused_before_any_hand(cli, tmp_path, nothing_runs, command, monkeypatch):
    monkeypatch.chdir(tmp_path)  # it used to write into the current folder
    assert (
        refused_sentence(cli, *COMMANDS[command], "--out", "")
        == "error: --out needs the name of a folder, not an empty string.\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_out_with_a_name_too_long_is_refused_before_any_hand(cli, tmp_path, nothing_runs, command):
    """A folder name longer than the file system allows used to pass the check, play every
    hand, then fail with exit 1."""
    longest = os.pathconf(tmp_path, "PC_NAME_MAX")
    too_long = tmp_path / "reports" / ("r" * (longest + 1))
    assert refused_sentence(cli, *COMMANDS[command], "--out", str(too_long)) == (
        f"error: --out {too_long} has a folder name longer than this file system allows ({longest + 1} bytes, at "
        f"most {longest}).\n"
    )
    deep = tmp_path.joinpath(*["d" * 200] * (os.pathconf(tmp_path, "PC_PATH_MAX") // 200))
    assert (
        refused_sentence(cli, *COMMANDS[command], "--out", str(deep))
        == f"error: --out {deep} is too long a path for the files written into it.\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_new_folder_is_fine_and_nothing_is_created_by_the_check(tmp_path):
    target = tmp_path / "new" / "deeper"
    assert check_out_dir(target) == target
    assert not (tmp_path / "new").exists() and list(tmp_path.iterdir()) == []


def test_a_write_that_fails_leaves_neither_the_file_nor_a_temporary(tmp_path, monkeypatch):
    write_atomically(tmp_path / "kept.csv", "old\n")

    def broken(source, target):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        write_atomically(tmp_path / "kept.csv", "new\n")
    with pytest.raises(OSError):
        write_atomically(tmp_path / "fresh.csv", "new\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.csv"]
    assert (tmp_path / "kept.csv").read_text() == "old\n"


def test_compare_out_writes_the_differences_and_a_chart(cli, tmp_path):
    result = cli(
        "compare", "chase-ace", "--players", "4", "--variant", "ethier", "--hands", "4000", "--out", str(tmp_path)
    )
    assert result.exit_code == 0, result.output
    stem = "chase-ace-4p-compare-hands-seed0"
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{stem}.csv", f"{stem}.json", f"{stem}.png"]
    csv = (tmp_path / f"{stem}.csv").read_text().splitlines()
    assert (
        csv[0]
        == "compared,scope,seat,outcome,base,base_se,other,other_se,difference,se,se_independent,variance_reduction"
    )
    assert len(csv) > 8 and all(line.startswith("ethier,") for line in csv[1:])
    summary = json.loads((tmp_path / f"{stem}.json").read_text())
    assert summary["rules"]["ethier"]["tie"] == "earliest-seat-loses" and summary["hands"] == 4000
    assert (tmp_path / f"{stem}.png").read_bytes().startswith(b"\x89PNG")


# ------------------------------------------------------------------------------ JSON types


def _check_rule_types(spec, rules: dict) -> None:
    assert list(rules) == [field.key for field in spec.rules]
    for field in spec.rules:
        value = rules[field.key]
        expected = {"choice": str, "bool": bool, "int": int}[field.kind]
        assert type(value) is expected, (field.key, value)
        assert value == field.value_json(field.default)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_json_rule_values_carry_their_real_types(cli, name):
    spec = GAMES[name]
    result = cli(name, "--hands", "200", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    _check_rule_types(spec, summary["rules"])
    for row in summary["policy"]:
        for field in spec.policy_fields:
            assert type(row[field.key]) is (str if field.choices else int if field.integer else float), field.key


def test_all_fours_target_is_the_number_7_and_booleans_are_true_or_false(cli):
    summary = json.loads(cli("all-fours", "--variant", "seven-up", "--hands", "300", "--json").stdout)
    assert summary["rules"]["target"] == 7 and summary["rules"]["gift_cannot_win"] is True


def test_replay_json_has_the_steps_and_the_outcome(cli):
    result = cli("replay", "chase-ace", "--seed", "4", "--hand", "17", "--players", "5", "--json")
    assert result.exit_code == 0, result.output
    replay = json.loads(result.stdout)
    assert (replay["game"], replay["seed"], replay["hand"], replay["players"]) == ("chase-ace", 4, 17, 5)
    _check_rule_types(GAMES["chase-ace"], replay["rules"])
    text = cli("replay", "chase-ace", "--seed", "4", "--hand", "17", "--players", "5").stdout
    assert replay["steps"] == text.splitlines()
    assert sum(replay["outcome"][str(seat)]["lose_life"] for seat in range(5)) == replay["outcome"]["table"]["losers"]


def test_replay_accepts_the_last_hand_index(cli):
    result = cli("replay", "chase-ace", "--seed", str(2**64 - 1), "--hand", str(2**64 - 1), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["hand"] == 2**64 - 1


def test_exact_json_gives_fractions_and_floats(cli):
    result = cli("exact", "chase-ace", "--variant", "le-her", "--json")
    assert result.exit_code == 0, result.output
    values = json.loads(result.stdout)["values"]
    dealer = values["lose_life"][1]
    assert dealer["fraction"] == "2828/5525" and dealer["value"] == pytest.approx(2828 / 5525)


def test_a_rule_that_acts_only_in_whole_games_gets_a_note_in_hand_mode(cli):
    note = "`lives` acts only across the deals of a whole game, so one hand plays the same with any value"
    compared = cli("compare", "chase-ace", "--rule", "lives=1", "--hands", "2000")
    assert compared.exit_code == 0 and f"note: {note}" in compared.stdout
    assert json.loads(cli("compare", "chase-ace", "--rule", "lives=1", "--hands", "2000", "--json").stdout)[
        "notes"
    ] == [note + "; use --games to see its effect"]
    assert note in cli("chase-ace", "--rule", "lives=1", "--hands", "2000").stdout
    assert "note:" not in cli("chase-ace", "--rule", "lives=1", "--games", "200").stdout
    assert "note:" not in cli("compare", "chase-ace", "--rule", "tie=cancel-matches", "--hands", "2000").stdout


def test_a_broken_link_is_refused_before_any_hand(cli, tmp_path, nothing_runs):
    link = tmp_path / "gone"
    link.symlink_to(tmp_path / "nowhere")
    said = refused_sentence(cli, *COMMANDS["simulate"], "--out", str(link))
    assert f"--out {link} is a broken link ({link} points to nothing)." in said
    assert "is inside a broken link" in refused_sentence(cli, *COMMANDS["sweep"], "--out", str(link / "sub"))


def test_a_report_whose_game_folder_is_a_file_is_refused_before_any_hand(cli, tmp_path, nothing_runs):
    (tmp_path / "chase-ace").write_text("x")
    said = refused_sentence(cli, "report", "chase-ace", "--hands", "1000", "--out", str(tmp_path))
    assert f"--out {tmp_path / 'chase-ace'} is a file, not a folder." in said


def test_a_write_that_fails_after_the_run_is_one_sentence_and_exit_1(cli, tmp_path, monkeypatch):
    def full(path, content):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(files_module, "write_atomically", full)
    result = cli("chase-ace", "--hands", "1000", "--out", str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: could not write {tmp_path}/chase-ace-8p-hands-seed0.csv: No space left on device."
    ]
