"""What the analyzer knows, as tables for a notebook: :func:`games` and :func:`rules`;
and the pieces ``analyze rules`` shows the same way (:func:`decision_entries`,
:func:`preset_text`).

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


def preset_text(spec, preset) -> str:
    """What a strategy preset sets, as a user would write it: ``rob=0``,
    ``play_style=high`` (a choice field by its name, never its code), each seat's own
    values after (``last seat: threshold=8``)."""

    def assignments(values) -> str:
        return ", ".join(f"{key}={spec.policy_field(key).value_text(value)}" for key, value in values.items())

    parts = [assignments(preset.base)] if preset.base else []
    for seat, values in preset.seats.items():
        where = f"seat {seat}" if seat >= 0 else ("last seat" if seat == -1 else f"seat {seat} from the end")
        parts.append(f"{where}: {assignments(values)}")
    return "; ".join(parts) if parts else "the default policy"


def decision_entries(spec) -> list[tuple[Any, list[tuple[str, str, str]]]]:
    """Each decision ``analyze advise`` answers for the game, with its context keys as
    ``(key, help, what leaving it out means)`` (the last ``""`` where the game does not
    say: ``Decision.absent``)."""

    return [
        (decision, [(key, text, dict(decision.absent).get(key, "")) for key, text in decision.context.items()])
        for decision in spec.decisions()
    ]


def rules(game: str):
    """What can be set for ``game``, one row per setting: ``kind`` (``rule``, ``policy``,
    ``variant``, ``strategy`` or ``outcome``), ``key`` (the name to pass: a key of
    ``rules=`` or ``policy=``, a ``variant=`` or ``strategy=`` name, an outcome's name),
    ``default`` (rules and policy fields), ``allowed`` (the values it takes, as text),
    ``values`` (rules and policy fields: the choices, or ``(lo, hi)``), ``mode`` (outcomes:
    ``hands`` or ``games``; rules acting only in whole games: ``games``) and ``meaning``.
    What :func:`advise` answers comes after, as ``analyze rules`` lists it: ``decision``
    rows (each decision: ``meaning`` its help, ``allowed`` an example command line),
    ``context`` rows (each key of ``context=`` a decision reads, ``decision`` naming it:
    ``meaning`` its help, ``default`` what leaving it out means) and ``term`` rows (the
    words of advice and policies, ``meaning`` their definition).  The ``decision`` column
    is empty on the other rows.  Returns a pandas DataFrame; ``ValueError`` for an unknown
    game."""
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
                "meaning": f"{preset.help} ({preset_text(spec, preset)})",
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
    rows += _advice_rows(spec)
    for row in rows:
        row.setdefault("decision", "")
    return pd.DataFrame(rows)


def _advice_rows(spec) -> list[dict[str, Any]]:
    """The ``decision``, ``context`` and ``term`` rows of :func:`rules`."""

    rows: list[dict[str, Any]] = []
    plain = {"default": None, "allowed": "", "values": None, "mode": ""}
    for decision, keys in decision_entries(spec):
        rows.append(
            {"kind": "decision", "key": decision.name, **plain, "allowed": decision.example, "meaning": decision.help}
        )
        rows += [
            {
                "kind": "context",
                "key": key,
                **plain,
                "default": absent or None,
                "meaning": text,
                "decision": decision.name,
            }
            for key, text, absent in keys
        ]
    rows += [{"kind": "term", "key": term, **plain, "meaning": text} for term, text in spec.terms().items()]
    return rows
