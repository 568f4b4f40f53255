"""A report's decision guides: every cell of a game's guides (``sims/games/<game>/guide.py``,
see :mod:`sims.core.guide`) played through advice, each with all its candidate actions on
the same deals, and laid out as a table, a chart and one verdict sentence.

A cell shows the best action and by how much it beats the runner-up (the paired
difference of the headline ± its standard error), or a tie when the runner-up is within
two standard errors.  Everything else about a cell (the deals, the stream, the store) is
what ``analyze advise`` does for the same position, holding and context.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from analyzer.present.text import runs_text, with_se
from analyzer.reporting.words import field_text, listed, main_field_text, rules_text, sentence

REFERENCE_HANDS = 1_000_000  # a guide's ``deals`` are per cell at this --hands
LEAST_DEALS = 200


@dataclass(frozen=True)
class CellAnswer:
    """One cell: the options ranked best first, and the deals behind them."""

    ranked: list  # analyzer.strategy.advice.Option, best first
    accepted: int
    tried: int

    @property
    def best(self) -> str:
        return self.ranked[0].action

    @property
    def gap(self) -> tuple[float, float]:
        """How much better the best is than the runner-up, and the paired error (0, 0 alone)."""
        if len(self.ranked) < 2:
            return 0.0, 0.0
        second = self.ranked[1]
        return abs(second.diff), second.diff_se

    @property
    def tied(self) -> list[str]:
        """The actions within two standard errors of the best, best first (just the best
        when it is clearly better)."""
        return [self.best] + [option.action for option in self.ranked[1:] if not abs(option.diff) > 2 * option.diff_se]


def guide_deals(guide, count: int) -> int:
    """Accepted deals per cell in a report of ``count`` hands."""
    return max(LEAST_DEALS, round(guide.deals * count / REFERENCE_HANDS))


def play_guide(spec, guide, count: int, seed: int, context, field=None) -> dict[tuple[int, int], CellAnswer]:
    """Every cell of ``guide`` played with ``guide_deals(guide, count)`` accepted deals,
    under the standard rules and the default policy at the guide's table size (``field``:
    another policy matrix for every seat, such as the solved field's tables)."""
    from analyzer.run import interrupts
    from analyzer.run.params import Table
    from analyzer.strategy.advice import estimates, play_advice, ranked
    from sims.core.advice import ACCEPTED, TRIED
    from sims.situations import guide_situation

    deals = guide_deals(guide, count)
    answers = {}
    for row, column, cell in guide.cells():
        interrupts.check()
        rules, players, found = guide_situation(spec, guide, cell)
        policy = field if field is not None else spec.default_policy(players)
        table = Table(players, tuple(rules), policy, None, "default" if field is None else "solved")
        flat = play_advice(spec, table, found, seed, deals, None, context.quiet(), lambda flat: None)
        options, _ = estimates(flat, found)
        answers[(row, column)] = CellAnswer(ranked(options, found), flat[ACCEPTED], flat[TRIED])
    return answers


def compact(value: float, se: float) -> str:
    """``value ± se`` to one significant digit of the error (a guide's cells are narrow)."""
    if not se > 0 or not math.isfinite(se):
        return f"{value:.3g}"
    digits = max(0, -math.floor(math.log10(se)))
    return f"{value:.{digits}f} ± {se:.{digits}f}"


def cell_text(guide, answer: CellAnswer | None, also: str = "") -> str:
    """A cell as the report's table shows it: ``**keep** 0.15 ± 0.01`` (the best action and
    its margin over the runner-up), or ``keep ≈ swap 0.003 ± 0.004`` for a tie."""
    if answer is None:
        return ""
    if answer.accepted == 0:
        return "no deal"
    gap, se = answer.gap
    tied = answer.tied
    if len(answer.ranked) == 1:
        text = f"{guide.short(answer.best)} (only)"
    elif len(tied) > 1:
        names = " ≈ ".join(guide.short(action) for action in tied[:3]) + (" …" if len(tied) > 3 else "")
        text = f"{names} {compact(gap, se)}"
    else:
        text = f"**{guide.short(answer.best)}** {compact(gap, se)}"
    if also:
        mean, also_se = answer.ranked[0].outcomes[also]
        text += f"; {also} {compact(mean, also_se)}"
    return text


def _columns_text(labels: list[str], positions: list[int]) -> str:
    """Column labels of a run of cells as a sentence lists them: "A to 4" for three or
    more adjacent, "5 and 6", a label with a comma of its own in quotation marks."""
    return listed(runs_text(positions, lambda k: labels[k]))


def guide_verdict(guide, answers: dict, deals: int, field: str = "") -> str:
    """The verdict along the guide's lead row, in short sentences: its opening, then one
    sentence per best action naming its columns ("Swap with A to 3."), one for the ties,
    and the closest clear call with its number and error; ``field`` (the policy the other
    seats play, in words) closes it."""
    row = guide.lead_row
    label, cells = guide.rows[row]
    by_action: dict[str, list[int]] = {}
    ties = []
    closest = None
    for column in range(len(guide.columns)):
        answer = answers.get((row, column))
        if answer is None or answer.accepted == 0:
            continue
        if len(answer.tied) > 1:
            ties.append(column)
            continue
        by_action.setdefault(guide.short(answer.best), []).append(column)
        gap, se = answer.gap
        if len(answer.ranked) > 1 and (closest is None or gap < closest[1]):
            closest = (column, gap, se, guide.short(answer.best))
    opening = guide.verdict or f"{guide.title}, {guide.row_title} {label}"
    parts = [f"{action} with {_columns_text(guide.columns, columns)}." for action, columns in by_action.items()]
    if ties:
        parts.append(f"a tie with {_columns_text(guide.columns, ties)}.")
    said = f"{opening}: " + " ".join(sentence(part) if k else part for k, part in enumerate(parts))
    if not parts:
        said = f"{opening}: no cell was asked."
    if closest is not None:
        column, gap, se, action = closest
        said += f" The closest clear call, {listed([guide.columns[column]])}, is {action} by {with_se(gap, se)}"
    else:
        said = said[:-1]
    against = f" Against {field}." if field else ""
    return said + f" ({deals:,} deals a cell, every action on the same deals).{against}"


def solved_differences(guide, answers: dict, solved: dict) -> list[tuple[int, int, str, str]]:
    """The cells whose clear best action differs between the default field (``answers``)
    and the solved field (``solved``): ``(row, column, default's, solved's)``; a tie on
    either side is no difference."""
    found = []
    for key, answer in answers.items():
        other = solved.get(key)
        if other is None or answer.accepted == 0 or other.accepted == 0:
            continue
        if len(answer.tied) == 1 and len(other.tied) == 1 and answer.best != other.best:
            found.append((*key, guide.short(answer.best), guide.short(other.best)))
    return found


def solved_sentence(guide, answers: dict, solved: dict) -> str:
    """What changes when the other seats play the solved tables instead of the default."""
    differ = solved_differences(guide, answers, solved)
    if not differ:
        return "Against the solved field every cell's clear best action is the same."
    shown = [f"{guide.rows[r][0]} with {guide.columns[c]}: {new} instead of {old}" for r, c, old, new in differ[:4]]
    more = f" and {len(differ) - 4} more" if len(differ) > 4 else ""
    return f"Against the solved field the best action changes in {len(differ)} cells ({'; '.join(shown)}{more})."


def guide_section(spec, guide, answers: dict, deals: int, document, solved: dict | None = None) -> str:
    """The guide's table and chart in ``document``; returns its verdict sentence.  With
    ``solved`` (the cells played against the solved field), a second table shows them
    and the verdict says where the best action differs."""
    from analyzer.present.charts import guide_chart

    document.heading(3, guide.title)
    players = guide.players or spec.default_players
    document.paragraph(
        f"{guide.text} Assumed in every cell: {players} players; the standard rules "
        f"({rules_text(spec, spec.default_rules())}); every other seat plays the default policy, so each answer "
        f"holds against {field_text(spec, players)}. {deals:,} accepted "
        f"deals per cell. The action in bold is better than the runner-up by more than two standard errors of "
        f"their paired difference; the number after it is that difference ± its standard error, in the advised "
        f"seat's headline outcome; ≈ marks a tie. `analyze advise {spec.name}` answers any other hand, under any "
        f"rules and field (`--rule`, `--policy`)."
    )
    also = guide.also
    headers = [f"{guide.row_title} \\ {guide.column_title}"] + list(guide.columns)
    rows = [
        [label] + [cell_text(guide, answers.get((r, c)), also) for c in range(len(guide.columns))]
        for r, (label, _) in enumerate(guide.rows)
    ]
    document.table(headers, rows)
    best = [[None] * len(guide.columns) for _ in guide.rows]
    texts = [[""] * len(guide.columns) for _ in guide.rows]
    for (r, c), answer in answers.items():
        if answer.accepted == 0:
            continue
        gap, se = answer.gap
        tied = len(answer.tied) > 1
        best[r][c] = "tie" if tied else guide.short(answer.best)
        texts[r][c] = ("≈ " if tied else "") + guide.short(answer.best) + (f"\n{gap:.2g}" if not tied else "")
    document.figure(
        f"guide-{guide.name}",
        guide_chart(
            [label for label, _ in guide.rows],
            list(guide.columns),
            best,
            texts,
            f"{spec.title}: {guide.title}",
            guide.row_title,
            guide.column_title,
        ),
        f"{guide.title}: the best action in each cell (colour), with its margin over the runner-up; "
        f"grey where the best two tie ({deals:,} deals a cell)",
    )
    verdict = guide_verdict(guide, answers, deals, main_field_text(spec, players))
    if solved:
        document.paragraph(
            f"The same cells against the solved field (every other seat plays the solved tables of the section "
            f"Solved): {solved_sentence(guide, answers, solved)}"
        )
        document.table(
            headers,
            [
                [label] + [cell_text(guide, solved.get((r, c)), also) for c in range(len(guide.columns))]
                for r, (label, _) in enumerate(guide.rows)
            ],
        )
        verdict += " " + solved_sentence(guide, answers, solved)
    return verdict
