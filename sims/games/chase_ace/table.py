"""Chase the Ace: the strategy-table decision ``swap`` (sims.core.table), each seat's policy
written as a table, and the solve kernel (see the package docstring's "Strategy tables").

One decision, ``swap``: a non-dealer's swap-or-keep and the dealer's cut-or-keep (the
dealer's ``swap`` is its cut; a file may write ``cut``).  Actions in draw order ``swap``,
``keep``: a mixed cell swaps when the hand's uniform ``u`` is below its swap probability,
the draw rule of ``threshold_mix``.

Cells (codes as declared, faces spelled as the CLI spells them, A 2 .. 10 J Q K):
  0 .. 12            ``(held, None)``: nobody swapped with the seat from its right; the face held.
  13 + 13 * h + g    ``(held, gave)``: the right-hand neighbour exchanged with the seat on its
                     own turn; ``h`` the face received (now held), ``g`` the face given.
The kernel classifies by rank (:func:`rank_cell`); :func:`declared_cell` maps a rank cell to
its declared code (they differ only with ace_high, which changes the rank order, not the
spelling).
"""

from __future__ import annotations

import numpy as np

from sims.core.table import TableDecision
from sims.games.chase_ace.rules import INFORMED, POLICY_FIELDS, THRESHOLD, THRESHOLD_MIX, Rules

FACE_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
N_FACES = 13
N_CELLS = N_FACES + N_FACES * N_FACES  # 13 held alone + 169 (received, given)
SWAP, KEEP = 0, 1  # action indices (draw order)
N_FIELDS = len(POLICY_FIELDS)  # the swap decision's block starts here in a widened policy row
TOP_RANK = 12

SOLVE_OUTCOME = "lose_life"
SOLVE_LOWER_IS_BETTER = True
SOLVE_SCALE = 1


def _cells() -> tuple[tuple, ...]:
    held_alone = tuple((FACE_NAMES[f], None) for f in range(N_FACES))
    after_swap = tuple((FACE_NAMES[h], FACE_NAMES[g]) for h in range(N_FACES) for g in range(N_FACES))
    return held_alone + after_swap


def _describe(cell: tuple) -> str:
    held, gave = cell
    if gave is None:
        return f"holding {held}, nobody swapped with you from your right (dealer: before cutting)"
    return f"your right-hand neighbour swapped with you: you received {held} (now held) and gave {gave}"


TABLES = (
    TableDecision(
        name="swap",
        help="a non-dealer swaps with its left-hand neighbour or keeps; the dealer cuts the pack (swap) or keeps",
        fields=("held", "gave"),
        cells=_cells(),
        actions=("swap", "keep"),
        describe=_describe,
        aliases={"cut": "swap"},
        grid=(("held",), ("gave",)),
    ),
)


def face_cell(held_face: int, gave_face: int | None) -> int:
    """The declared code of the cell holding ``held_face`` (0=A .. 12=K), after a swap from
    the right that took ``gave_face`` (None: no swap from the right)."""
    return held_face if gave_face is None else N_FACES + N_FACES * held_face + gave_face


def rank_cell(held_rank: int, gave_rank: int | None) -> int:
    """The kernel's rank-based cell code (ranks 0 lowest .. 12 top): the same layout as
    :func:`face_cell`, by rank."""
    return held_rank if gave_rank is None else N_FACES + N_FACES * held_rank + gave_rank


def face_of_rank(rank: int, ace_high: bool) -> int:
    return (rank + 1) % N_FACES if ace_high else rank


def rank_of_face(face: int, ace_high: bool) -> int:
    return (face + 12) % N_FACES if ace_high else face


def declared_cell(rank_code: int, ace_high: bool) -> int:
    """The declared (face) code of the kernel's rank cell ``rank_code``."""
    if rank_code < N_FACES:
        return face_of_rank(rank_code, ace_high)
    held, gave = divmod(rank_code - N_FACES, N_FACES)
    return face_cell(face_of_rank(held, ace_high), face_of_rank(gave, ace_high))


def _threshold_mix(row, rank: int) -> tuple[float, float]:
    """(swap, keep) probabilities of rule c (threshold) for a card of ``rank``."""
    threshold, mix = int(row[THRESHOLD]), float(row[THRESHOLD_MIX])
    if rank == TOP_RANK:
        return 0.0, 1.0  # its holder keeps (the table is never consulted there)
    if rank + 1 <= threshold:
        return 1.0, 0.0
    if rank + 1 == threshold + 1 and mix > 0.0:
        return (1.0, 0.0) if mix >= 1.0 else (mix, 1.0 - mix)
    return 0.0, 1.0


def _role_action(row, held: int, gave: int | None, dealer: bool) -> tuple[float, float]:
    """The policy row's (swap, keep) probabilities in a cell given by ranks, as a
    non-dealer (rules a, c) or as the dealer."""
    informed = row[INFORMED] > 0.5 and gave is not None and held != TOP_RANK
    if informed and dealer:
        return (1.0, 0.0) if held < gave else (0.0, 1.0)
    if informed and held > gave:
        return 0.0, 1.0
    return _threshold_mix(row, held)


def policy_table(
    rules, policy_row, seat: int, n_seats: int, decision_name: str = "swap", hand_mode: bool = False
) -> np.ndarray:
    """Seat ``seat``'s policy fields as a ``[cells, 2]`` table of the swap decision.

    Every cell holds the action the policy takes there in the seat's hand-mode role (seat
    ``n_seats - 1`` deals).  In game mode a seat plays its one table in every position, and
    an informed policy's rule differs by role after a swap from the right (a non-dealer keeps
    on a higher rank received and otherwise applies its threshold; the dealer cuts exactly
    on a lower one): the cells where the two roles act differently are left out (-1, the
    policy fields decide there), so that the table plays every hand and game as the policy
    does, bit for bit."""
    if decision_name != "swap":
        raise ValueError(f"chase-ace has no table decision '{decision_name}'; its decision is: swap.")
    ace_high = bool(rules.ace_high if hasattr(rules, "ace_high") else rules[Rules._fields.index("ace_high")])
    row = np.asarray(policy_row, dtype=np.float64)
    dealer = seat == n_seats - 1
    out = np.full((N_CELLS, 2), -1.0)
    for code in range(N_CELLS):
        if code < N_FACES:
            held, gave = rank_of_face(code, ace_high), None
        else:
            h, g = divmod(code - N_FACES, N_FACES)
            held, gave = rank_of_face(h, ace_high), rank_of_face(g, ace_high)
        mine = _role_action(row, held, gave, dealer)
        if hand_mode or mine == _role_action(row, held, gave, not dealer):
            out[code] = mine
    return out


def hand_policy_table(rules, policy_row, seat: int, n_seats: int, decision_name: str = "swap") -> np.ndarray:
    """The seat's policy as a complete table for hand mode, where its role is fixed (seat
    ``n_seats - 1`` deals): every cell holds the action the policy takes there in that role
    (what a solve starts from, :func:`sims.solve.policy_tables`)."""
    return policy_table(rules, policy_row, seat, n_seats, decision_name, hand_mode=True)
