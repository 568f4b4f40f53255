"""``analyze rules GAME`` and ``ca.rules(GAME)``: every advice decision with its context
keys, each key's help and what leaving it out means (``Decision.absent``), the game's
terms (``TERMS`` of its advice module), columns that stay aligned after long keys, and
choice fields by their names (``play_style=greedy``, never ``0``)."""

from __future__ import annotations

import re
import types

import pytest

import analyzer as ca
from analyzer.cli.games import rules_lines
from sims.core.advice import Decision
from sims.registry import GAMES, get_game
from sims.spec import GameSpec

FAKE = types.SimpleNamespace(
    DECISIONS=(
        Decision(
            "swap",
            "swap your card with the next player's, or keep it",
            {"gave": "the card your right-hand neighbour gave you", "earlier_actions_of_everyone": "k or s per seat"},
            "analyze advise chase-ace --position 2 --holding 5h --context earlier=kk",
            absent={"gave": "nobody swapped with you", "earlier_actions_of_everyone": "not noticed"},
        ),
    ),
    TERMS={"lose_life": "the chance that you lose a life in this deal", "threshold": "swap on this rank or lower"},
)


@pytest.fixture
def fake_advice(monkeypatch):
    monkeypatch.setattr(GameSpec, "advice_module", lambda spec: FAKE)


def test_rules_lists_each_context_key_with_what_leaving_it_out_means_and_the_terms(fake_advice):
    text = "\n".join(rules_lines(get_game("chase-ace")))
    decisions = text.split("\ndecisions (analyze advise")[1].split("\n\n")[0].splitlines()
    assert decisions[1].split() == "swap swap your card with the next player's, or keep it".split()
    assert decisions[2] == (
        "      --context gave=...                         the card your right-hand neighbour gave you"
    )
    assert decisions[3] == "                                                 left out: nobody swapped with you"
    assert decisions[4].startswith("      --context earlier_actions_of_everyone=...  k or s per seat")
    assert decisions[5].endswith("left out: not noticed") and decisions[6].startswith("      e.g. analyze advise")
    terms = text.split("\nterms (the words of advice and policies):\n")[1].split("\n\n")[0].splitlines()
    assert [line.split()[0] for line in terms] == ["lose_life", "threshold"]
    assert terms[0].endswith(" the chance that you lose a life in this deal")


def test_ca_rules_has_the_decisions_their_context_keys_and_the_terms(fake_advice):
    table = ca.rules("chase-ace")
    assert list(table.columns) == ["kind", "key", "default", "allowed", "values", "mode", "meaning", "decision"]
    decision = table[table["kind"] == "decision"].iloc[0]
    assert decision["key"] == "swap" and decision["allowed"].startswith("analyze advise chase-ace")
    context = table[table["kind"] == "context"].set_index("key")
    assert context.loc["gave", "default"] == "nobody swapped with you"
    assert context.loc["gave", "meaning"] == "the card your right-hand neighbour gave you"
    assert context.loc["gave", "decision"] == "swap"
    terms = table[table["kind"] == "term"].set_index("key")
    assert terms.loc["threshold", "meaning"] == "swap on this rank or lower"
    assert (table[table["kind"] == "rule"]["decision"] == "").all()


def test_the_real_decisions_are_listed_for_every_game_with_an_advice_module():
    for name, spec in GAMES.items():
        found = spec.decisions()
        table = ca.rules(name)
        assert list(table[table["kind"] == "decision"]["key"]) == [d.name for d in found], name
        keys = [(d.name, key) for d in found for key in d.context]
        context = table[table["kind"] == "context"]
        assert list(zip(context["decision"], context["key"])) == keys, name
        assert list(table[table["kind"] == "term"]["key"]) == list(spec.terms()), name


@pytest.mark.parametrize("name", sorted(GAMES))
def test_columns_stay_aligned_after_long_keys(name):
    lines = rules_lines(get_game(name))
    fields = [line for line in lines if re.match(r"  \S+ +default ", line)]
    assert fields, name
    starts = {line.index(" default ") for line in fields}
    assert len(starts) == 1, (name, starts)  # every default in one column, whatever the key's length
    allowed = {len(re.match(r"  \S+ +default \S+ +", line).group(0)) for line in fields}
    assert len(allowed) == 1, (name, allowed)
    help_lines = [lines[lines.index(line) + 1] for line in fields]
    assert {len(line) - len(line.lstrip()) for line in help_lines} == {starts.pop() + 1}


def test_choice_policy_fields_and_strategies_show_names_not_codes():
    lines = rules_lines(get_game("all-fours"))
    play_style = next(line for line in lines if line.startswith("  play_style "))
    assert play_style.split()[:3] == ["play_style", "default", "greedy"]
    shown = "\n".join(lines)
    assert "sets play_style=high" in shown and "play_style=1" not in shown
    table = ca.rules("all-fours").set_index(["kind", "key"])
    assert table.loc[("policy", "play_style"), "default"] == "greedy"
    assert table.loc[("strategy", "play-high"), "meaning"].endswith("(play_style=high)")
    chase = "\n".join(rules_lines(get_game("chase-ace")))
    assert "sets threshold=7, informed=1; last seat: threshold=8" in chase  # le-her: the dealer's own


def test_the_command_prints_the_same_lines(cli):
    shown = cli("rules", "all-fours")
    assert shown.exit_code == 0 and shown.stdout.splitlines() == rules_lines(get_game("all-fours"))
