"""The commands of each game (``analyze GAME``, one per game of ``sims.registry``) and
the game-level commands ``rules``, ``replay`` and ``exact``."""

from __future__ import annotations

import json

import typer

from analyzer.api import functions as api
from analyzer.api.checks import UserError
from analyzer.cli.app import (
    TABLE_OPTIONS,
    Given,
    app,
    guarded,
    play_and_show,
    with_options,
)
from analyzer.present.views import policy_json, rules_json
from sims.registry import ENTRIES, get_game
from sims.spec import MODE_NAMES, Mode


def _make_game_command(name: str):
    """The subcommand of one game (its module is imported only when the command runs)."""

    @with_options()
    def command(given: Given):
        out = given.out

        def body():
            table, run = given.args()
            play_and_show(api.plan_simulation(name, table=table, run=run, out=out), given.as_json, out)

        def interrupted(stop) -> str:
            found = stop.partial
            unit = MODE_NAMES[found.mode] if found is not None else "hands"
            if found is None or found.count == 0:
                said = f"before any of the {unit} finished"
            else:
                said = (
                    f"after {found.count:,} of {found.requested:,} {unit}; the table above is for those {unit}, "
                    f"marked partial"
                )
            return said + ("; nothing was written to --out" if out is not None else "")

        guarded(body, interrupted)

    entry = ENTRIES[name]
    command.__doc__ = f"{entry.title}: {entry.summary}  Simulate hands (--hands) or whole games (--games)."
    return command


for _name in ENTRIES:
    app.command(_name, help=_make_game_command(_name).__doc__)(_make_game_command(_name))


# ------------------------------------------------------------------------------ other commands


@app.command("rules")
def rules_command(game: str = typer.Argument(..., help="game name, e.g. chase-ace")):
    """Every rule switch, policy field, variant and strategy of a game with its default; the
    decisions advise answers, each context key with what leaving it out means; the terms."""

    def body():
        typer.echo("\n".join(rules_lines(get_game(game))))

    guarded(body)


def rules_lines(spec) -> list[str]:
    """What ``analyze rules`` prints: the rules, policy fields, variants, strategies,
    decisions (each context key with its help and what leaving it out means), terms and
    outcomes, their names in one column as wide as the longest (a long key never pushes
    its row out of line), every choice by its name."""
    from analyzer.api.catalog import decision_entries, preset_text

    found_terms = spec.terms()
    names = (
        [f.key for f in spec.rules]
        + [f.key for f in spec.policy_fields]
        + list(spec.variants)
        + list(spec.policies)
        + list(found_terms)
        + [name for outcomes in spec.outcomes.values() for name in outcomes.help]
    )
    width = max([20] + [len(name) + 1 for name in names])
    shown_defaults = [f.value_text(f.default) for f in spec.rules] + [
        f.value_text(f.default) for f in spec.policy_fields
    ]
    value_width = max([8] + [len(text) + 1 for text in shown_defaults])

    def entry(name: str, text: str) -> str:
        return f"  {name:<{width}} {text}"

    lines = [
        f"{spec.title} ({spec.name}): {spec.summary}",
        f"players: {spec.min_players} to {spec.max_players} (default {spec.default_players})",
    ]
    for players in range(spec.min_players, spec.max_players + 1):
        lines += [f"  with {players}: {message}" for message in spec.warnings(spec.default_rules(), players)]
    lines += ["", "rules (--rule KEY=VALUE):"]
    for field in spec.rules:
        lines.append(
            entry(field.key, f"default {field.value_text(field.default):<{value_width}} {field.allowed_text()}")
        )
        lines.append(entry("", field.help))
    lines += ["", "policy fields (--policy KEY=VALUE for all seats, --seat I:KEY=VALUE for one):"]
    for policy_field in spec.policy_fields:
        shown = policy_field.value_text(policy_field.default)
        lines.append(entry(policy_field.key, f"default {shown:<{value_width}} {policy_field.allowed_text()}"))
        lines.append(entry("", policy_field.help))
    lines += ["", "variants (--variant NAME):"]
    lines += [entry(name, variant.help) for name, variant in spec.variants.items()]
    lines += ["", "strategies (--strategy NAME):"]
    for name, preset in spec.policies.items():
        lines.append(entry(name, preset.help))
        if preset.base or preset.seats:
            lines.append(entry("", f"sets {preset_text(spec, preset)}"))
    entries = decision_entries(spec)
    if entries:
        lines += ["", "decisions (analyze advise GAME --position S --holding CARDS [--context KEY=VALUE ...]):"]
        key_width = max([0] + [len(f"--context {key}=...") + 1 for _, keys in entries for key, _, _ in keys])
        for decision, keys in entries:
            lines.append(entry(decision.name, decision.help))
            for key, text, absent in keys:
                lines.append(f"      {f'--context {key}=...':<{key_width}} {text}")
                if absent:
                    lines.append(f"      {'':<{key_width}} left out: {absent}")
            if decision.example:
                lines.append(f"      e.g. {decision.example}")
    if found_terms:
        lines += ["", "terms (the words of advice and policies):"]
        lines += [entry(term, text) for term, text in found_terms.items()]
    for mode, outcomes in spec.outcomes.items():
        lines += ["", f"outcomes in {MODE_NAMES[mode]} mode:"]
        lines += [entry(name, outcomes.help[name]) for name in outcomes.seat + outcomes.table if name in outcomes.help]
    return lines


@app.command("replay")
@with_options("seed", *TABLE_OPTIONS, "as_json")
def replay_command(
    game: str = typer.Argument(..., help="game name"),
    hand: str = typer.Option("0", "--hand", metavar="I", help="index of the hand in the run, 0 to 2^64 - 1"),
    given: Given = None,  # type: ignore[assignment]  # the shared options, from with_options
):
    """Show one hand step by step in card notation: hand I of a run with seed S."""
    as_json = given.as_json

    def body():
        from analyzer.cli.parse import parse_whole
        from analyzer.run.params import MAX_SEED

        spec = get_game(game)
        table, run = given.args()
        seed_number = run.seed
        index = parse_whole(hand, "--hand", 0, MAX_SEED)
        played = table.checked(spec)
        twin = spec.twin_module()
        if twin is None:
            raise UserError(f"{spec.title} has no replay yet.")
        rules = spec.rules_type(*played.rules)
        warnings = spec.warnings(rules, played.players)
        steps = twin.replay_lines(rules, played.policy, played.players, seed_number, index)
        if not as_json:
            typer.echo("\n".join([f"warning: {message}" for message in warnings] + steps))
            return
        outcomes = spec.outcomes[Mode.HANDS]
        sums = twin.simulate(rules, played.policy, played.players, Mode.HANDS, seed_number, index, 1)
        result = {
            str(seat_index): {
                name: int(sums[seat_index][k]) for k, name in enumerate(outcomes.seat) if not outcomes.companion(name)
            }
            for seat_index in range(played.players)
        }
        result["table"] = {
            name: int(sums[played.players][k]) for k, name in enumerate(outcomes.table) if not outcomes.companion(name)
        }
        typer.echo(
            json.dumps(
                {
                    "game": spec.name,
                    "players": played.players,
                    "seed": seed_number,
                    "hand": index,
                    "rules": rules_json(spec, played.rules),
                    "policy": policy_json(spec, played.policy, played.tables),
                    "warnings": warnings,
                    "steps": steps,
                    "outcome": result,
                    "scale": dict(outcomes.scale),
                }
            )
        )

    guarded(body)


def _exact_json(value):
    """An exact value as JSON: a fraction's text and its float, per seat or label too."""
    if isinstance(value, dict):
        return {str(label): _exact_json(v) for label, v in value.items()}
    if hasattr(value, "__len__"):
        return [_exact_json(v) for v in value]
    return {"fraction": str(value), "value": float(value)}


@app.command("exact")
@with_options("players", "variant", "rule", "strategy", "policy", "seat", "as_json")
def exact_command(
    game: str = typer.Argument(..., help="game name"),
    fractions: bool = typer.Option(
        True, "--fractions/--decimals", help="exact fractions with decimals, or decimals only"
    ),
    given: Given = None,  # type: ignore[assignment]  # the shared options, from with_options
):
    """Exact hand-mode values by enumerating every deal, for small tables."""
    as_json = given.as_json

    def body():
        spec = get_game(game)
        enumerator = spec.exact_module()
        if enumerator is None:
            raise UserError(f"{spec.title} has no exact enumerator.")
        table = given.args()[0].checked(spec)
        if table.tables and not getattr(enumerator, "PLAYS_TABLES", False):
            raise UserError(f"exact enumeration of {spec.title} does not play strategy tables yet.")
        if table.players > enumerator.MAX_PLAYERS:
            raise UserError(f"exact enumeration of {spec.title} handles at most {enumerator.MAX_PLAYERS} players.")
        values = enumerator.exact_hand(
            spec.rules_type(*table.rules), table.policy, table.players, exact=fractions or as_json
        )
        if as_json:
            typer.echo(
                json.dumps(
                    {
                        "game": spec.name,
                        "players": table.players,
                        "rules": rules_json(spec, table.rules),
                        "policy": policy_json(spec, table.policy),
                        "values": {name: _exact_json(value) for name, value in values.items()},
                    }
                )
            )
            return
        typer.echo(
            f"{spec.title}: exact values of one hand, {table.players} players, "
            f"the {spec.last_seat_role} in seat {table.players - 1}"
        )

        def shown(value) -> str:
            return f"{value}  ({float(value):.6f})" if fractions else f"{float(value):.6f}"

        for name, value in values.items():
            if isinstance(value, dict):  # a value per label, e.g. per card face
                for label, v in value.items():
                    typer.echo(f"  {name:<12} {label:>7}: {shown(v)}")
            elif hasattr(value, "__len__"):  # a value per seat
                for seat_index, v in enumerate(value):
                    typer.echo(f"  {name:<12} seat {seat_index:>2}: {shown(v)}")
            else:
                typer.echo(f"  {name:<12} {shown(value)}")

    guarded(body, lambda stop: "before the enumeration finished; nothing is shown")
