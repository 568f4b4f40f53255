"""A report's house rules: every rule switch changed alone from the standard rules, played
on the same deals, and the change in each seat's headline (paired ± standard error).

Rules of play (how the cards are played), stake rules (what is paid: antes, fees,
extras, bonuses; ``Switch(stake=True)``) and the simulation's caps on a game's length
(and which hand a hand-mode run samples: ``Switch(simulation=True)``) are shown apart, each with its own table and
heat map: a bigger stake moves every chip figure by construction, and drawn together it
would take every colour of the heat map and leave the rules that change play grey.  The
report's verdict names the largest effect of a rule of play; the stake rules get their
own sentence.
"""

from __future__ import annotations

import math

from analyzer.present.text import outcome_labels, with_se
from analyzer.reporting.words import listed, switch_text, switches_legend
from sims.spec import MODE_NAMES, Mode

KIND_NAMES = {"play": "rule of play", "stake": "stake rule", "setting": "setting of the simulation"}


def _direction(spec, mode: int) -> str:
    headline = spec.headline[mode]
    return "lower is better" if spec.lower_is_better(mode, headline) else "higher is better"


def _moved(difference: float, se: float) -> bool:
    """A measurable change: more than two standard errors (or exact, with no error); an
    undefined difference (a conditional outcome never seen) is none."""
    if not math.isfinite(difference):
        return False
    return abs(difference) > 2 * se if se > 0 else se == 0 and difference != 0


NONE_SEEN = "– (none seen)"  # a conditional outcome (an open misère made) over no hand at all


def _value_cell(estimate) -> str:
    """An outcome's value under the standard rules: ``mean ± se``, or a dash "none seen"
    for a conditional mean over no hand (never ``nan``)."""
    return NONE_SEEN if not math.isfinite(estimate.mean) else with_se(estimate.mean, estimate.se)


def _change_cell(difference, switched) -> str:
    """A switch's paired change of a table outcome: ``+x ± se``, a dash within two standard
    errors; where the outcome is a conditional mean that one side never saw, its value
    under the switch ("0.42 ± 0.05 under the switch, none under the standard"), or "–
    (none seen)" when neither saw it."""
    if not math.isfinite(difference.difference):
        if switched is not None and math.isfinite(switched.mean):
            return f"{with_se(switched.mean, switched.se)} under the switch, none under the standard"
        return NONE_SEEN
    d = difference
    se = d.se if d.se > 1e-9 * max(1.0, abs(d.difference)) else 0.0  # rounding of an exact change
    return with_se(d.difference, se, signed=True) if _moved(d.difference, se) else "–"


def _table_outcome_changes(spec, mode, run, switches, document) -> None:
    """The house-rules comparison for the table's own outcomes (a spoil rate, a pot, a
    game's length): one row per switch (``(index, label)``), a dash where the change is
    within two standard errors."""
    from analyzer.strategy.comparisons import paired_differences

    outcomes = spec.outcomes[mode]
    families = {f"{group}_{label}" for group, (_, labels) in outcomes.groups.items() for label in labels}
    names = [
        name
        for name in outcomes.table
        if not outcomes.companion(name) and name not in outcomes.maxima and name not in families
    ]
    if not names:
        return
    standard = {e.outcome: e for e in run.estimates(0) if e.seat not in range(run.players)}
    rows = [["standard rules (value)"] + [_value_cell(standard[name]) for name in names]]
    for index, label in switches:
        by_outcome = {d.outcome: d for d in paired_differences(run, 0, index) if d.seat not in range(run.players)}
        switched = {e.outcome: e for e in run.estimates(index) if e.seat not in range(run.players)}
        rows.append([f"`{label}`"] + [_change_cell(by_outcome[name], switched.get(name)) for name in names])
    labels = outcome_labels(spec, mode)
    document.paragraph(
        "The same switches for the table as a whole: the first row is each outcome under the "
        "standard rules (± standard error), the others its paired change (a dash: within two "
        "standard errors). " + "; ".join(f"`{name}`: {labels[name]}" for name in names) + "."
    )
    document.table(["switch"] + [f"`{name}`" for name in names], rows)


def _switch_block(spec, mode, run, switches, players, kind: str, document) -> tuple:
    """The seat table and heat map of one kind of switch (``(index, label)`` pairs);
    returns ``(strongest (label, difference), quiet labels)``."""
    from analyzer.present.charts import difference_heatmap
    from analyzer.strategy.comparisons import paired_differences

    unit = MODE_NAMES[mode]
    headline = spec.headline[mode]
    rows, differences, errors, moving = [], [], [], []
    quiet, strongest = [], None
    for index, label in switches:
        by_seat = {d.seat: d for d in paired_differences(run, 0, index) if d.outcome == headline}
        cells = []
        for seat in range(players):
            d = by_seat[seat]
            moved = _moved(d.difference, d.se)
            cells.append(with_se(d.difference, d.se, signed=True) if moved else "–")
            if moved and (strongest is None or abs(d.difference) > abs(strongest[1].difference)):
                strongest = (label, d)
        if all(cell == "–" for cell in cells):
            quiet.append(f"`{label}`")
        else:
            moving.append(label)
            differences.append([by_seat[s].difference for s in range(players)])
            errors.append([by_seat[s].se for s in range(players)])
        rows.append([f"`{label}`"] + cells)
    document.table(["switch"] + [f"seat {s}" for s in range(players)], rows)
    if moving:
        document.figure(
            f"house-rules-{unit}" + ("" if kind == "play" else f"-{kind}s"),
            difference_heatmap(
                moving,
                list(range(players)),
                differences,
                errors,
                f"{spec.title}: each {KIND_NAMES[kind]} against the standard ({unit} mode, {run.count:,} {unit})",
                f"change in {outcome_labels(spec, mode)[headline]}",
                spec.lower_is_better(mode, headline),
            ),
            f"change in each seat's {headline} for each {KIND_NAMES[kind]} "
            f"that moves it ({unit} mode; each cell the paired difference ± its standard error, grey within "
            f"two standard errors)",
        )
    return strongest, quiet


MOST_NAMED = 3  # a verdict names at most this many quiet rules; more are counted


def _quiet_text(quiet: list[str], unit: str) -> str:
    """The rules of play with no measurable effect, as one short sentence: named when few,
    counted when many (the section's table shows each)."""
    if not quiet:
        return ""
    if len(quiet) <= MOST_NAMED:
        verb = "makes" if len(quiet) == 1 else "make"
        return f" {listed(quiet)} {verb} no measurable difference."
    return f" {len(quiet)} other switches make no measurable difference (rows of dashes in the {unit}-mode table)."


def house_rules_section(spec, table, mode, count, seed, context, document, findings) -> None:
    """The house-rules section of one mode; appends ``(priority, sentence)`` findings."""
    from analyzer.run.runner import Config, run_paired
    from analyzer.strategy.comparisons import single_switch_rules

    unit = MODE_NAMES[mode]
    headline = spec.headline[mode]
    switches, refused = [], []
    for label, rules in single_switch_rules(spec, table.rules, mode):
        try:
            spec.check_table(spec.rules_type(*rules), table.policy, table.players)
            switches.append((label, rules))
        except ValueError as problem:
            refused.append(f"`{label}` ({problem})")
    if not switches:
        return
    configs = [Config(table.rules, table.policy, "standard")] + [Config(r, table.policy, l) for l, r in switches]
    run = run_paired(spec, table.players, mode, seed, configs, count, context.quiet())
    stakes = {field.key for field in spec.rules if field.stake}
    settings = {field.key for field in spec.rules if field.simulation}
    indexed = [(index, label) for index, (label, _) in enumerate(switches, start=1)]
    play = [(i, label) for i, label in indexed if label.split("=")[0] not in stakes | settings]
    paid = [(i, label) for i, label in indexed if label.split("=")[0] in stakes]
    capped = [(i, label) for i, label in indexed if label.split("=")[0] in settings]
    document.heading(2, f"House rules ({unit} mode)")
    games_only = [f"`{f.key}`" for f in spec.rules if f.games_only]
    left_out = (
        f" Rules that act only across the deals of a whole game ({', '.join(games_only)}) play no part in "
        f"one hand and are compared under game mode only."
        if mode == Mode.HANDS and games_only
        else ""
    )
    document.paragraph(
        f"Each switch changed alone from the standard rules; the change in each seat's {headline} "
        f"({_direction(spec, mode)}), paired on the same {run.count:,} {unit} (± standard error). "
        f"A dash means no measurable change (within two standard errors).{left_out}"
        + (
            " Stake rules (what is paid: antes, fees, extras) are shown apart, after the rules of play: a "
            "bigger stake moves every chip figure by construction."
            if paid
            else ""
        )
        + (
            " Settings of the simulation (a cap on a game's length, which hand is sampled) are shown apart "
            "too: they change the figures without changing how a hand is played."
            if capped
            else ""
        )
    )
    strongest, quiet = None, []
    if play:
        if paid or capped:
            document.heading(3, f"Rules of play ({unit} mode)")
        strongest, quiet = _switch_block(spec, mode, run, play, table.players, "play", document)
    stake_strongest = None
    if paid:
        document.heading(3, f"Stake rules ({unit} mode)")
        stake_strongest, _ = _switch_block(spec, mode, run, paid, table.players, "stake", document)
    if capped:
        document.heading(3, f"Settings of the simulation ({unit} mode)")
        _switch_block(spec, mode, run, capped, table.players, "setting", document)
    _table_outcome_changes(spec, mode, run, play + paid + capped, document)
    legend = switches_legend(spec, [label for _, label in play + paid + capped])
    if legend:
        document.paragraph(legend)
    if refused:
        document.paragraph("Not allowed at this table: " + "; ".join(refused) + ".")
    if strongest:
        label, d = strongest
        findings.append(
            (
                4 if mode == spec.strategy_mode else 6,
                f"Of the rules of play, {switch_text(spec, label)} has the largest effect in {unit} mode: it "
                f"moves seat {d.seat}'s {headline} by {with_se(d.difference, d.se, signed=True)} ({run.count:,} "
                f"{unit}, paired)." + _quiet_text(quiet, unit),
            )
        )
    elif play:
        findings.append(
            (6, f"No rule of play changes any seat's {headline} measurably in {unit} mode ({run.count:,} {unit}).")
        )
    if stake_strongest:
        label, d = stake_strongest
        findings.append(
            (
                8,
                f"Stakes: of the stake rules, {switch_text(spec, label)} moves seat {d.seat}'s {headline} most "
                f"in {unit} mode, by "
                f"{with_se(d.difference, d.se, signed=True)} ({run.count:,} {unit}, paired).",
            )
        )
