"""The value of every decision in a report: for each policy field, what each of its values
costs each seat against that seat's best value (the paired difference of the sweep's
headline on the same deals), and one verdict sentence: the best value, what the worst
costs, and whether the default can be beaten (measured again on fresh deals)."""

from __future__ import annotations

from analyzer.present.text import best_text, runs_text, with_se
from sims.spec import MODE_NAMES


def _seats_text(seats: list[int]) -> str:
    """ "seat 3", "seats 0 to 2 and 5"."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    parts = runs_text(seats, str)
    return "seats " + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0])


def value_table(spec, mode, key, values, responses, count, document) -> str:
    """What each value of ``key`` costs each seat against its best (a table in
    ``document``); returns the verdict sentence."""
    unit = MODE_NAMES[mode]
    headline = spec.headline[mode]
    field = spec.policy_field(key)
    document.heading(3, f"`{key}`")
    document.paragraph(f"`{key}`: {field.help}.")
    first = responses[0]
    rows = []
    for i, value in enumerate(first.values):
        label = values.value_text(value) + (" (default)" if i == first.current else "")
        cells = []
        for r in responses:
            if i == r.best:
                cells.append("**best**")
            elif i in r.tied:
                cells.append(f"≈ {with_se(r.costs[i], r.cost_ses[i])}")
            else:
                cells.append(with_se(r.costs[i], r.cost_ses[i]))
        rows.append([label] + cells)
    document.table([f"`{key}`"] + [f"seat {r.seat}" for r in responses], rows)
    span = f"{count:,} {unit} per value, paired"
    widest = max(
        ((r.costs[i], r.cost_ses[i], r, i) for r in responses for i in range(len(r.values))), key=lambda x: x[0]
    )
    cost, cost_se, worst_seat, worst = widest
    if all(r.no_effect for r in responses):
        return (
            f"`{key}` makes no measurable difference: for every seat every value is within two standard errors "
            f"of its best (the widest gap {with_se(cost, cost_se)} in {headline}; {span})."
        )
    groups: dict[str, list[int]] = {}
    for r in responses:
        groups.setdefault(best_text(values, r), []).append(r.seat)
    if len(groups) == 1:
        best = f"play `{key}` = {next(iter(groups))} from every seat"
    else:
        best = "best `" + key + "`: " + "; ".join(f"{text} for {_seats_text(seats)}" for text, seats in groups.items())
    sentence = (
        f"{best[0].upper() + best[1:]}. Playing {values.value_text(worst_seat.values[worst])} instead costs up to "
        f"{with_se(cost, cost_se)} in {headline} ({'seat ' + str(worst_seat.seat)})"
    )
    gaining = [r for r in responses if r.best != r.current and r.confirmed_gain > 2 * r.confirmed_gain_se]
    default = values.value_text(first.values[first.current])
    if gaining:
        top = max(gaining, key=lambda r: r.confirmed_gain)
        sentence += (
            f"; the default, {default}, gives up {with_se(top.confirmed_gain, top.confirmed_gain_se)} for seat "
            f"{top.seat}, measured again on fresh deals"
        )
    else:
        sentence += f"; the default, {default}, is as good as the best within two standard errors for every seat"
    return sentence + f" ({span})."
