"""What the analyzer knows, as tables for a notebook: :func:`games` and :func:`rules`.

Both read only the registry and the games' specs (no hand is played); pandas is imported
when they are called.
"""

from __future__ import annotations

from typing import Any

from analyzer.api.checks import game_spec
from sims.spec import MODE_NAMES


def games():
    """Every game the analyzer plays, one row each: ``game`` (the name the functions and
    the command line take), ``title``, ``summary``, ``min_players``, ``max_players``,
    ``default_players`` and ``modes`` (``hands``, and ``games`` where whole games are
    played).  Returns a pandas DataFrame."""
    import pandas as pd

    from sims.registry import ENTRIES, get_game

    rows = []
    for name, entry in ENTRIES.items():
        spec = get_game(name)
        rows.append(
            {
                "game": name,
                "title": entry.title,
                "summary": entry.summary,
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "default_players": spec.default_players,
                "modes": ", ".join(MODE_NAMES[mode] for mode in spec.outcomes),
            }
        )
    return pd.DataFrame(rows)


def rules(game: str):
    """What can be set for ``game``, one row per setting: ``kind`` (``rule``, ``policy``,
    ``variant``, ``strategy`` or ``outcome``), ``key`` (the name to pass: a key of
    ``rules=`` or ``policy=``, a ``variant=`` or ``strategy=`` name, an outcome's name),
    ``default`` (rules and policy fields), ``allowed`` (the values it takes, as text),
    ``values`` (rules and policy fields: the choices, or ``(lo, hi)``), ``mode`` (outcomes:
    ``hands`` or ``games``; rules acting only in whole games: ``games``) and ``meaning``.
    Returns a pandas DataFrame; ``ValueError`` for an unknown game."""
    import pandas as pd

    spec = game_spec(game)
    rows: list[dict[str, Any]] = []
    for field in spec.rules:
        values = field.choices or ((False, True) if field.kind == "bool" else (field.lo, field.hi))
        rows.append(
            {
                "kind": "rule",
                "key": field.key,
                "default": field.value_json(field.default),
                "allowed": field.allowed_text(),
                "values": values,
                "mode": "games" if field.games_only else "",
                "meaning": field.help,
            }
        )
    for policy_field in spec.policy_fields:
        choices = policy_field.choices or (policy_field.lo, policy_field.hi)
        rows.append(
            {
                "kind": "policy",
                "key": policy_field.key,
                "default": policy_field.value_json(policy_field.default),
                "allowed": policy_field.allowed_text(),
                "values": choices,
                "mode": "",
                "meaning": policy_field.help,
            }
        )
    for name, variant in spec.variants.items():
        rows.append(
            {
                "kind": "variant",
                "key": name,
                "default": None,
                "allowed": "",
                "values": None,
                "mode": "",
                "meaning": variant.help,
            }
        )
    for name, preset in spec.policies.items():
        rows.append(
            {
                "kind": "strategy",
                "key": name,
                "default": None,
                "allowed": "",
                "values": None,
                "mode": "",
                "meaning": preset.help,
            }
        )
    for mode, outcomes in spec.outcomes.items():
        for name in outcomes.seat + outcomes.table:
            if name not in outcomes.help:  # a companion (sums of squares and the like), not shown
                continue
            rows.append(
                {
                    "kind": "outcome",
                    "key": name,
                    "default": None,
                    "allowed": "",
                    "values": None,
                    "mode": MODE_NAMES[mode],
                    "meaning": outcomes.help[name],
                }
            )
    return pd.DataFrame(rows)
