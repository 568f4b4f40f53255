"""The words of an advice answer: its rules, the field's policies, counts and shares,
and numbers with their errors (``analyzer.api.advice_result`` writes them)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analyzer.run.params import Table
    from sims.spec import GameSpec


def _deals(count: int) -> str:
    return f"{count:,} deal{'s' if count != 1 else ''}"


def _percent(share: float) -> str:
    """A share as a percentage that shows a small one's digits (0.00005%, 37.9%)."""
    if share == 0 or share >= 0.001:
        return f"{share:.1%}"
    return f"{100 * share:.2g}%"


def _escaped(text: str) -> str:
    """``text`` with control characters written as escapes (a holding echoed back)."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in str(text))


def rule_pairs(spec: GameSpec, rules) -> list[str]:
    """Each rule as a user writes it (``target=11``, a choice by its name, never its code)."""
    return [f"{f.key}={f.value_text(code)}" for f, code in zip(spec.rules, rules)]


def policy_words(spec: GameSpec, row) -> str:
    """One seat's policy as a user writes it: ``threshold=7, informed=0``, a choice field
    by its name (``play_style=greedy``), never its code."""
    return ", ".join(f"{f.key}={f.value_text(value)}" for f, value in zip(spec.policy_fields, row))


def _rule_words(spec: GameSpec, rules) -> list[str]:
    return rule_pairs(spec, rules) or ["none"]


def _changed_rules(spec: GameSpec, rules) -> list[str]:
    default = spec.default_rules()
    return [f"{f.key}={f.value_text(code)}" for f, code, d in zip(spec.rules, rules, default) if int(code) != int(d)]


def _seat_policies(spec: GameSpec, table: Table) -> list[tuple[dict, str, bool]]:
    """Per seat: its policy (name -> JSON value; ``"tables"`` for the tables it plays), as
    ``name=value`` words (then ``+ DECISION from FILE`` per table), and whether it is the
    game's default policy for that seat (no table)."""
    import numpy as np

    from analyzer.present.views import seat_tables

    default = spec.default_policy(table.players)
    played = seat_tables(spec, table.policy, getattr(table, "tables", ()))
    found = []
    n_fields = len(spec.policy_fields)
    for seat, row in enumerate(np.asarray(table.policy)):
        values: dict[str, Any] = {f.key: f.value_json(v) for f, v in zip(spec.policy_fields, row)}
        text = policy_words(spec, row)
        if played[seat]:
            values["tables"] = played[seat]
            text = " + ".join([text] + [f"{r['decision']} from {r['table']}" for r in played[seat]])
        same = not played[seat] and bool(np.array_equal(row[:n_fields], default[seat]))
        found.append((values, text, same))
    return found


def field_words(spec: GameSpec, table: Table, position: int) -> str:
    """The other seats' policies in words: "a field playing the default policy
    (threshold=7, informed=1)", or seat by seat where they differ; a seat playing a table
    says so ("... with its swap played from the table mine.csv")."""
    import numpy as np

    from analyzer.present.views import seat_tables

    default = spec.default_policy(table.players)
    played = seat_tables(spec, table.policy, getattr(table, "tables", ()))
    n_fields = len(spec.policy_fields)

    def words(seat: int) -> str:
        row = np.asarray(table.policy)[seat]
        text = policy_words(spec, row)
        if not text:
            said = "the game's only policy"
        elif np.array_equal(row[:n_fields], default[seat]):
            said = f"the default policy ({text})"
        else:
            said = f"a policy other than the default ({text})"
        tables = [f"its {r['decision']} played from the table {r['table']}" for r in played[seat]]
        return said + (" with " + " and ".join(tables) if tables else "")

    others = [(seat, words(seat)) for seat in range(table.players) if seat != position]
    if not others:
        return "no other seat"
    if len({text for _, text in others}) == 1:
        return f"a field playing {others[0][1]}"
    return "a field of " + "; ".join(f"seat {seat} playing {text}" for seat, text in others)


def _places(error: float) -> int:
    """Decimals that show two significant digits of a standard error (0 to 4; 3 for none)."""
    if not error > 0 or not math.isfinite(error):
        return 3
    return max(0, min(4, 1 - math.floor(math.log10(error))))


def _with_se(mean: float, se: float) -> str:
    places = _places(se)
    return f"{mean:.{places}f} ± {se:.{places}f}" if math.isfinite(se) else f"{mean:.{places}f} ± –"
