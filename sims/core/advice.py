"""What every game's advice (``analyze advise``) shares: the declarations of a decision and
of a conditioned situation, the conditioned deal, and the layout of the sums.

Advice plays one seat's next decision (the *advised* seat, its *holding* known, and what
it has seen at that decision, the *context*) with every candidate action on the same
deals of the unseen cards.  A game's ``advice.py`` declares its ``DECISIONS``, turns a
position, holding and context into a :class:`Situation` (``situation()``), and plays it
in ``advise_nb``; its twin plays the same in plain Python (``twin.advise``).

Deal ``i`` of seed ``s`` draws from the stream ``(s, i)`` alone, as a hand does.  The
known cards are fixed and the rest dealt from the remaining pack
(:func:`deal_conditioned_nb`); the deal is played forward under the policies to the
advised seat's decision and kept only when what that seat would have seen matches the
context (exact conditioning by rejection).  Each candidate then continues from the same
point, with a copy of the same stream state, under the same policies.

The sums of a run are one flat int64 array (:func:`advice_width`): deals tried, deals
accepted, then for each candidate ``c`` and outcome ``o`` the sum and the sum of squares
of the advised seat's outcome, then for each outcome ``o`` the products of every two
candidates' outcome ``o`` summed over the accepted deals, from which the standard error
of any paired difference of any outcome follows (so advice can rank by any outcome,
``--rank-by``).  Everything is an integer, so blocks add exactly.

What the seat has seen may be read two ways (``infer``, :data:`INFER`): ``policy``
conditions the deals on the other seats having followed their policies (a deal is kept
only when the policies reproduce the history given); ``seen`` plays the actions given
as they were (forced) and keeps every deal consistent with what was visible, so a
history the policies would rarely or never produce can still be asked about.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from sims.core.cards import parse_cards
from sims.core.jit import njit
from sims.core.rng import below_nb

MAX_CANDIDATES = 64  # candidate actions of one decision at most (the cross products grow as the square)
TRIED, ACCEPTED = 0, 1  # the first two entries of the sums
INFER = ("policy", "seen")  # how the history given is read (see the module docstring)
FIRST_SUM = 2  # where the per-candidate sums begin


@dataclass(frozen=True)
class Decision:
    """One decision a game's advice answers.  ``context`` maps each context key this
    decision reads to its help; ``absent`` maps a key to what leaving it out means
    (``analyze rules`` shows it); ``example`` is a command line that asks for it."""

    name: str
    help: str
    context: Mapping[str, str] = field(default_factory=dict)
    example: str = ""
    absent: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Situation:
    """A decision to advise, ready to play.

    ``candidates`` are the actions as text (``"swap"``, ``"7NT"``, ``"rob:discard 2c"``);
    ``outcomes`` the advised seat's outcomes per candidate, the first being the headline
    the advice ranks by; ``scale`` divides each stored integer into the user's unit;
    ``lower_is_better`` says whether a player wants the headline small; ``described``
    is the context as the JSON output names it; ``known`` is the game's own encoding of
    the holding and context for its kernel and twin (int64).  ``rank_by`` is the index
    of the outcome the advice ranks by unless asked otherwise (a game puts its chance of
    winning the game there when the context gives the state of the game); ``assumed``
    maps each context key left out to what was assumed in its place ("nobody exchanged
    with you"); ``infer`` is how the history was read (:data:`INFER`); ``smaller`` names
    the outcomes a player wants small (``lower_is_better`` speaks of the first).
    ``largest`` bounds the size of any outcome of one deal in stored integers: the
    analyzer plays at most ``2**62 // largest**2`` deals in one batch, so the int64 sums
    of squares and products of a batch cannot overflow whatever stake is accepted
    (batches add as Python integers)."""

    decision: str
    candidates: tuple[str, ...]
    outcomes: tuple[str, ...]
    known: np.ndarray
    scale: tuple[int, ...] = ()
    lower_is_better: bool = False
    described: Mapping[str, object] = field(default_factory=dict)
    rank_by: int = 0
    assumed: Mapping[str, str] = field(default_factory=dict)
    infer: str = "policy"
    smaller: tuple[str, ...] = ()  # the outcomes a player wants small (lower_is_better adds the first)
    largest: int = 1 << 20  # the largest |outcome| one deal can give, in stored integers (bounds a batch)

    def __post_init__(self):
        if self.lower_is_better and self.outcomes[0] not in self.smaller:
            object.__setattr__(self, "smaller", (self.outcomes[0], *self.smaller))
        if not 1 <= len(self.candidates) <= MAX_CANDIDATES:
            raise ValueError(f"a decision needs 1 to {MAX_CANDIDATES} candidates, not {len(self.candidates)}.")
        if not 0 <= self.rank_by < len(self.outcomes):
            raise ValueError(f"rank_by {self.rank_by} is not an outcome of {self.outcomes}.")
        if self.infer not in INFER:
            raise ValueError(f"infer is one of {', '.join(INFER)}, not {self.infer!r}.")
        if not self.scale:
            object.__setattr__(self, "scale", (1,) * len(self.outcomes))

    @property
    def width(self) -> int:
        return int(advice_width(len(self.candidates), len(self.outcomes)))


@njit(cache=True)
def advice_width(n_candidates, n_outcomes):
    """Entries of the flat sums of ``n_candidates`` candidates and ``n_outcomes`` outcomes."""
    return FIRST_SUM + 2 * n_candidates * n_outcomes + n_outcomes * n_candidates * n_candidates


@njit(cache=True)
def cross_start(n_candidates, n_outcomes, outcome=0):
    """Where the cross products of ``outcome`` begin in the flat sums."""
    return FIRST_SUM + 2 * n_candidates * n_outcomes + outcome * n_candidates * n_candidates


@njit(cache=True, inline="always")
def record_deal_nb(out, values):
    """Add one accepted deal to the flat sums ``out``: ``values[c, o]`` is outcome ``o`` of
    candidate ``c`` for the advised seat (integers).  The caller counts the tries."""
    k_count, o_count = values.shape
    out[ACCEPTED] += 1
    at = FIRST_SUM
    for c in range(k_count):
        for o in range(o_count):
            v = values[c, o]
            out[at] += v
            out[at + 1] += v * v
            at += 2
    for o in range(o_count):
        for c in range(k_count):
            for d in range(k_count):
                out[at] += values[c, o] * values[d, o]
                at += 1


def record_deal(out, values) -> None:
    """Plain-Python :func:`record_deal_nb` (``out`` a list of ints, ``values`` rows of ints)."""
    out[ACCEPTED] += 1
    at = FIRST_SUM
    for row in values:
        for v in row:
            out[at] += v
            out[at + 1] += v * v
            at += 2
    for o in range(len(values[0]) if values else 0):
        for row in values:
            for other in values:
                out[at] += row[o] * other[o]
                at += 1


@njit(cache=True, inline="always")
def deal_conditioned_nb(pack, order, dealt, fixed, state):
    """Deal ``len(fixed)`` positions into ``dealt``: position ``k`` gets ``fixed[k]`` where
    that is a card (>= 0), else the next card of a Fisher-Yates shuffle of the rest of the
    pack.  ``order`` is the game's whole pack (its card codes in a fixed order); ``pack``
    is scratch of at least ``len(order)`` entries; codes are below 64.  Returns the advanced state."""
    taken = np.uint64(0)  # card codes are below 64
    for k in range(fixed.shape[0]):
        if fixed[k] >= 0:
            taken |= np.uint64(1) << np.uint64(fixed[k])
    size = 0
    for card in order:
        if (taken >> np.uint64(card)) & np.uint64(1) == 0:
            pack[size] = card
            size += 1
    top = 0
    for k in range(fixed.shape[0]):
        if fixed[k] >= 0:
            dealt[k] = fixed[k]
        else:
            j, state = below_nb(state, size - top)
            j += top
            card = pack[j]
            pack[j] = pack[top]
            pack[top] = card
            dealt[k] = card
            top += 1
    return state


def deal_conditioned(stream, order, fixed) -> list[int]:
    """Plain-Python :func:`deal_conditioned_nb` on a :class:`sims.core.rng.Stream`."""
    taken = {card for card in fixed if card >= 0}
    pack = [card for card in order if card not in taken]
    dealt = []
    top = 0
    for card in fixed:
        if card >= 0:
            dealt.append(card)
        else:
            j = top + stream.below(len(pack) - top)
            pack[top], pack[j] = pack[j], pack[top]
            dealt.append(pack[top])
            top += 1
    return dealt


def context_cards(key: str, text: str, count: int | None = None) -> list[int]:
    """The cards of a context value (``"Ac 5d"``), with one clear sentence when they are
    not cards, repeat a card, or are not ``count`` of them."""
    try:
        cards = parse_cards(str(text))
    except ValueError as problem:
        raise ValueError(f"context {key}: {problem}") from None
    if len(set(cards)) != len(cards):
        raise ValueError(f"context {key} names a card twice: '{text}'.")
    if count is not None and len(cards) != count:
        raise ValueError(f"context {key} takes {count} card{'s' if count != 1 else ''}, not '{text}'.")
    return cards


def context_int(key: str, text: str, lo: int, hi: int) -> int:
    """An integer context value in ``lo..hi``, with one clear sentence otherwise."""
    try:
        value = int(str(text).strip())
    except ValueError:
        raise ValueError(f"context {key} takes a whole number {lo}..{hi}, not '{text}'.") from None
    if not lo <= value <= hi:
        raise ValueError(f"context {key} takes a whole number {lo}..{hi}, not {value}.")
    return value


def unknown_context(decisions, context: Mapping[str, str]) -> None:
    """Refuse a context key no decision of the game reads, naming the keys it has."""
    known = sorted({key for decision in decisions for key in decision.context})
    for key in context:
        if key not in known:
            names = ", ".join(known) if known else "none"
            raise ValueError(f"unknown context '{key}'; this game's context keys are: {names}.")
