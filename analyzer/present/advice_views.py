"""The answer of ``ca.advise`` (:class:`analyzer.api.advice_result.AdviceResult`) as a
user reads it: the text ``analyze advise`` prints, the ``--json`` object, the tables
(one row per candidate and outcome; with the question's assumptions for CSV) and the
chart.  Each function takes the result and reads only its public attributes."""

from __future__ import annotations

import math

from analyzer.present.advice_words import _deals, _escaped, _percent, _places, _rule_words, _with_se
from analyzer.run.stats import Z95


def advice_summary(result) -> dict:
    """The ``--json`` object (undefined numbers are null)."""
    from analyzer.present.text import finite

    options = []
    for option in result.options:
        mean, se = option.outcomes[result.headline]
        others = {name: {"mean": m, "se": s} for name, (m, s) in option.outcomes.items() if name != result.headline}
        options.append(
            {
                "action": option.action,
                "outcome": result.headline,
                "mean": mean,
                "se": se,
                "ci_low": mean - Z95 * se,
                "ci_high": mean + Z95 * se,
                "diff": option.diff,
                "diff_se": option.diff_se,
                "others": others,
            }
        )
    table = result._table()
    return finite(
        {
            "game": result.spec.name,
            "decision": result.situation.decision,
            "position": result.position,
            "players": result.players,
            "holding": result.holding_text,
            "context": dict(result.situation.described),
            "context_given": dict(result.context),
            "assumed": result.assumed(),
            "infer": result.situation.infer,
            "infer_switched": result.switched is not None,
            "infer_note": "history " + result.infer_text() if result.switched is not None else None,
            "rank_by": result.headline,
            "rank_lower_is_better": result.headline in result.situation.smaller,
            "variant": table.variant or "standard",
            "strategy": table.strategy,
            "rules": result.rules_object(),
            "policy": result.policy_object(),
            "field": result.field_text(),
            "seed": result.seed,
            "deals": result.accepted,
            "asked": result.asked,
            "tried": result.tried,
            "from_store": result.from_store,
            "acceptance": result.acceptance,
            "stopped_by": "interrupted" if result.interrupted else result.stop,
            "target_se": result.target_se,
            "target_se_reached": result.target_reached(),
            "notes": result.notes(),
            "lower_is_better": result.headline in result.situation.smaller,  # of the outcome ranked by
            "options": options,
            "best": None if result.too_few else result.best,
            "verdict": result.verdict(),
            "partial": result.interrupted,
        }
    )


def advice_heading(result) -> list[str]:
    """The lines above the table: the question, and every assumption behind the answer."""
    given = ", ".join(f"{key}={_escaped(value)}" for key, value in result.context.items()) or "none given"
    assumed = "; ".join(f"{key}: {what}" for key, what in result.situation.assumed.items())
    table = result._table()
    lines = [
        f"{result.spec.title}: advice for seat {result.position} of {result.players} holding "
        f"{_escaped(result.holding_text)} ({result.situation.decision})",
        f"  rules    {'; '.join(_rule_words(result.spec, table.rules))}"
        + (f" (variant {table.variant})" if table.variant else ""),
        f"  field    {result.field_text()}",
        f"  context  {given}" + (f"; assumed where left out: {assumed}" if assumed else ""),
        f"  history  {result.infer_text()}",
        f"  ranked   by {result.headline}"
        + (" (smaller is better)" if result.headline in result.situation.smaller else " (larger is better)"),
    ]
    return lines


def advice_text(result) -> str:
    lines = advice_heading(result) + [
        f"{_deals(result.accepted)} accepted of {result.tried:,} tried (acceptance {_percent(result.acceptance)}), "
        f"seed {result.seed}, every action on the same deals"
        + (f"; {result.from_store:,} of the deals tried read from the store" if result.from_store else "")
        + (" (interrupted: a partial result)" if result.interrupted else ""),
        "",
    ]
    names = [result.headline] + [name for name in result.situation.outcomes if name != result.headline]

    header = ["action", f"{names[0]} [95% interval]", "vs best ± se"] + names[1:]
    rows = []
    for option in result.ranked():
        mean, se = option.outcomes[names[0]]
        p, q = _places(se), _places(option.diff_se)
        diff = "best" if option.action == result.best else f"{option.diff:+.{q}f} ± {option.diff_se:.{q}f}"
        interval = f"[{mean - Z95 * se:.{p}f}, {mean + Z95 * se:.{p}f}]" if math.isfinite(se) else "(no interval)"
        if option.action != result.best and not math.isfinite(option.diff_se):
            diff = f"{option.diff:+.{q}f} ± –"
        rows.append(
            [option.action, f"{mean:.{p}f} {interval}", diff] + [_with_se(*option.outcomes[name]) for name in names[1:]]
        )
    widths = [max(len(str(row[k])) for row in [header] + rows) for k in range(len(header))]
    for row in [header] + rows:
        lines.append("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())
    lines += ["", result.verdict()] + result.notes()
    return "\n".join(lines)


def advice_table(result):
    """One row per candidate and outcome: ``action``, ``outcome``, ``mean``, ``se``,
    ``ci_low``, ``ci_high``, and for the outcome ranked by ``diff`` and ``diff_se`` to the best."""
    import pandas as pd

    rows = []
    for option in result.options:
        for name, (mean, se) in option.outcomes.items():
            headline = name == result.headline
            rows.append(
                {
                    "action": option.action,
                    "outcome": name,
                    "mean": mean,
                    "se": se,
                    "ci_low": mean - Z95 * se,
                    "ci_high": mean + Z95 * se,
                    "diff": option.diff if headline else math.nan,
                    "diff_se": option.diff_se if headline else math.nan,
                    "deals": result.accepted,
                }
            )
    return pd.DataFrame(rows)


def advice_csv_table(result):
    """:func:`advice_table` with the question and its assumptions in leading columns (the same
    on every row, so any reader of CSV keeps them): game, players, position, holding,
    rules, field, context, assumed, infer, rank_by."""
    frame = advice_table(result)
    leading = {
        "game": result.spec.name,
        "players": result.players,
        "position": result.position,
        "holding": result.holding_text,
        "rules": "; ".join(_rule_words(result.spec, result._table().rules)),
        "field": result.field_text(),
        "context": "; ".join(f"{key}={value}" for key, value in result.situation.described.items()),
        "assumed": "; ".join(f"{key}: {what}" for key, what in result.situation.assumed.items()),
        "infer": result.situation.infer,
        "rank_by": result.headline,
    }
    for k, (name, value) in enumerate(leading.items()):
        frame.insert(k, name, value)
    return frame


def advice_plot(result, ax=None):
    """The outcome ranked by of every candidate with its 95% interval, the best in green;
    the title names the question, the rules and the field."""
    from analyzer.present.charts import advice_chart, shown_in_jupyter

    figure = advice_chart(
        [option.action for option in result.options],
        [option.outcomes[result.headline][0] for option in result.options],
        [Z95 * option.outcomes[result.headline][1] for option in result.options],
        result.best,
        result.headline.replace("_", " "),
        f"{result.spec.title}, seat {result.position} of {result.players} holding {result.holding_text}: "
        f"{result.accepted:,} deals, 95% intervals; {result.rules_text()}; against {result.field_text()}",
        ax,
    )
    return shown_in_jupyter(figure, ax)
