"""Stacked-deck tests of Chase the Ace, run against both the Numba kernel
(sims.games.chase_ace.stacked.play_dealt) and the plain-Python twin (sims.games.chase_ace.twin).

Every expected result below is derived by hand from the package docstring of sims/games/chase_ace/__init__.py.
Cards are listed by position (eldest hand first, dealer last), then the cut card.
"""

from __future__ import annotations

import numpy as np
import pytest

import sims.games.chase_ace.twin as twin
from sims.core.cards import parse_cards
from sims.core.rng import Stream
from sims.games.chase_ace import (
    FINAL_CARRY_NO_STAKE,
    FINAL_CARRY_STAKE,
    FINAL_CUT_HIGH,
    FINAL_REPLAY,
    FINAL_SPLIT,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    JACKS_HOLDER_MOVES,
    JACKS_HOLDER_SKIPPED,
    KINGS_BLOCK,
    KINGS_FREEZE,
    KINGS_NONE,
    KINGS_SKIP,
    KINGS_STOP_ALL,
    LENGTH_BUCKETS,
    REVEAL_AT_DEAL,
    TIE_ALL_LOWEST,
    TIE_CANCEL_MATCHES,
    TIE_EARLIEST,
    TIE_LATEST,
    TIE_TO_DEALER,
    Rules,
    stacked,
)
from sims.games.chase_ace.twin import play_game, play_hand, replay_lines, simulate

IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)
pytestmark = pytest.mark.usefixtures("implementation")

R = Rules()  # block, on-attempt, dealer king block, no queens/jacks, all-lowest, ace low


def pol(*rows):
    """Policy rows: an int is (threshold, 0, 0); a tuple is (threshold, mix, informed)."""
    out = []
    for row in rows:
        if isinstance(row, tuple):
            t, mix, informed = (tuple(row) + (0.0, 0))[:3]
            out.append([float(t), float(mix), float(informed)])
        else:
            out.append([float(row), 0.0, 0.0])
    return np.array(out, dtype=float)


def play(rules, policy, text, stream=None, log=None):
    return play_dealt(rules, policy, parse_cards(text), stream, log)


def check(res, lose, exchange, final):
    assert res["lose"] == lose
    assert res["exchange"] == exchange
    assert res["final"] == parse_cards(final)


# ----------------------------------------------------------------------------------------
# Tie rules


@pytest.mark.slow
def test_tie_all_lowest_every_holder_loses():
    res = play(R._replace(tie=TIE_ALL_LOWEST), pol(0, 0, 0, 0), "3c 3d 9h 5s Kc")
    check(res, [1, 1, 0, 0], [0, 0, 0, 0], "3c 3d 9h 5s")


def test_tie_cancel_matches_lowest_unique_loses():
    res = play(R._replace(tie=TIE_CANCEL_MATCHES), pol(0, 0, 0, 0), "3c 3d 9h 5s Kc")
    check(res, [0, 0, 0, 1], [0, 0, 0, 0], "3c 3d 9h 5s")


def test_tie_cancel_matches_all_shared_nobody_loses():
    res = play(R._replace(tie=TIE_CANCEL_MATCHES), pol(0, 0, 0, 0), "5c 5d 9h 9s Kc")
    check(res, [0, 0, 0, 0], [0, 0, 0, 0], "5c 5d 9h 9s")


def test_tie_earliest_seat_loses():
    res = play(R._replace(tie=TIE_EARLIEST), pol(0, 0, 0, 0), "9c 3d 3h 5s Kc")
    check(res, [0, 1, 0, 0], [0, 0, 0, 0], "9c 3d 3h 5s")


def test_tie_latest_seat_loses():
    res = play(R._replace(tie=TIE_LATEST), pol(0, 0, 0, 0), "9c 3d 3h 5s Kc")
    check(res, [0, 0, 1, 0], [0, 0, 0, 0], "9c 3d 3h 5s")


def test_tie_latest_dealer_counts_last():
    res = play(R._replace(tie=TIE_LATEST), pol(0, 0, 0, 0), "3c 9d 5h 3s Kc")
    check(res, [0, 0, 0, 1], [0, 0, 0, 0], "3c 9d 5h 3s")


def test_tie_to_dealer_tie_goes_against_non_dealer():
    rules = R._replace(tie=TIE_TO_DEALER)
    check(play(rules, pol(0, 0), "7c 7d 2h"), [1, 0], [0, 0], "7c 7d")
    check(play(rules, pol(0, 0), "8c 7d 2h"), [0, 1], [0, 0], "8c 7d")
    check(play(rules, pol(0, 0), "6c 7d 2h"), [1, 0], [0, 0], "6c 7d")


def test_tie_to_dealer_rejects_more_than_two_players():
    with pytest.raises(ValueError):
        play(R._replace(tie=TIE_TO_DEALER), pol(0, 0, 0), "7c 7d 8h 2s")


# ----------------------------------------------------------------------------------------
# Kings


def test_kings_block():
    # Eldest (5) tries the K: blocked. The K holder keeps; dealer 9 > 7 keeps.
    res = play(R._replace(kings=KINGS_BLOCK), pol(7, 7, 7), "5c Kd 9h 2s")
    check(res, [1, 0, 0], [0, 0, 0], "5c Kd 9h")


def test_kings_block_later_players_still_exchange():
    # Eldest blocked by the K; seat 2 (3) swaps with the dealer (4); dealer (3) cuts the 2.
    res = play(R._replace(kings=KINGS_BLOCK), pol(7, 7, 7, 7), "5c Kd 3h 4s 2c")
    check(res, [0, 0, 0, 1], [0, 0, 1, 1], "5c Kd 4s 2c")


def test_kings_none_king_changes_hands():
    # 5<->K, then 5<->9 with the dealer, dealer (5) cuts and takes the 2.
    res = play(R._replace(kings=KINGS_NONE), pol(7, 7, 7), "5c Kd 9h 2s")
    check(res, [0, 0, 1], [1, 1, 1], "Kd 9h 2s")


def test_kings_freeze_if_dealt_stops_everything():
    # A K was dealt: nobody exchanges, not even the always-swapping dealer.
    res = play(R._replace(kings=KINGS_FREEZE), pol(13, 13, 13), "5c Kd 9h 2s")
    check(res, [1, 0, 0], [0, 0, 0], "5c Kd 9h")


def test_kings_freeze_if_dealt_no_king_dealt_plays_normally():
    # Only the cut card is a K: the round is played; the cut K is blocked for the dealer.
    res = play(R._replace(kings=KINGS_FREEZE), pol(13, 13, 13), "5c 7d 9h Ks")
    check(res, [0, 0, 1], [1, 1, 0], "7d 9h 5c")


def test_kings_stop_all_on_attempt():
    # Eldest tries the K: all exchanging ends, seat 2 (3) and the dealer (4) may not move.
    res = play(R._replace(kings=KINGS_STOP_ALL), pol(7, 7, 7, 7), "5c Kd 3h 4s 2c")
    check(res, [0, 0, 1, 0], [0, 0, 0, 0], "5c Kd 3h 4s")


def test_kings_skip_to_next():
    # Eldest's attempt on the K goes to seat 2 (9) instead.
    res = play(R._replace(kings=KINGS_SKIP), pol(7, 0, 0, 0), "5c Kd 9h 4s 2c")
    check(res, [0, 0, 0, 1], [1, 0, 0, 0], "9h Kd 5c 4s")


def test_kings_skip_to_next_passes_several_kings():
    res = play(R._replace(kings=KINGS_SKIP), pol(7, 0, 0, 0), "5c Kd Kh 4s 2c")
    check(res, [1, 0, 0, 0], [1, 0, 0, 0], "4s Kd Kh 5c")


def test_kings_skip_to_next_nobody_beyond():
    # Seat 1 (7) tries seat 2's K; the dealer beyond holds a K too: no exchange.
    res = play(R._replace(kings=KINGS_SKIP), pol(0, 7, 0, 0), "5c 7d Kd Kh 2c")
    check(res, [1, 0, 0, 0], [0, 0, 0, 0], "5c 7d Kd Kh")


def test_kings_skip_to_next_is_not_informative():
    # The seat reached by skip-to-next plays its own turn: seat 2 received 5 for its 9
    # (not from its right-hand neighbour) and swaps the 5 with the dealer on threshold.
    res = play(R._replace(kings=KINGS_SKIP), pol(7, 0, (7, 0, 1), 0), "5c Kd 9h 4s 2c")
    check(res, [0, 0, 1, 0], [1, 0, 1, 0], "9h Kd 4s 5c")


# ----------------------------------------------------------------------------------------
# King reveal and the dealer's cut king


def test_king_reveal_at_deal_stop_all_not_triggered():
    # At deal the eldest sees the K next to it and keeps, so exchanging does not stop.
    rules = R._replace(kings=KINGS_STOP_ALL, king_reveal=REVEAL_AT_DEAL)
    res = play(rules, pol(7, 7, 7, 7), "5c Kd 3h 4s 2c")
    check(res, [0, 0, 0, 1], [0, 0, 1, 1], "5c Kd 4s 2c")


def test_king_reveal_at_deal_block_keeps_without_a_draw():
    # The eldest is at threshold + 1 with a mixed strategy; on-attempt it must draw
    # (no stream -> error), at-deal it keeps before the threshold rule (no draw at all).
    cards = "8c Kd 9h 2s"
    policy = pol((7, 0.5, 0), 0, 0)
    with pytest.raises(ValueError):
        play(R, policy, cards)
    res = play(R._replace(king_reveal=REVEAL_AT_DEAL), policy, cards)
    check(res, [1, 0, 0], [0, 0, 0], "8c Kd 9h")


def test_king_reveal_at_deal_does_not_stop_skip_to_next():
    rules = R._replace(kings=KINGS_SKIP, king_reveal=REVEAL_AT_DEAL)
    res = play(rules, pol(7, 0, 0, 0), "5c Kd 9h 4s 2c")
    check(res, [0, 0, 0, 1], [1, 0, 0, 0], "9h Kd 5c 4s")


def test_dealer_king_block_on_keeps_old_card():
    # 5<->7, 5<->9 with the dealer, dealer (5) cuts a K and must keep the 5.
    res = play(R._replace(dealer_king_block=True), pol(7, 7, 7), "5c 7d 9h Ks")
    check(res, [0, 0, 1], [1, 1, 0], "7d 9h 5c")


def test_dealer_king_block_off_takes_the_king():
    res = play(R._replace(dealer_king_block=False), pol(7, 7, 7), "5c 7d 9h Ks")
    check(res, [1, 0, 0], [1, 1, 1], "7d 9h Ks")


# ----------------------------------------------------------------------------------------
# Queens


def test_queens_redirect_to_right_hand_neighbour():
    # Seat 1 (2) tries seat 2's Q and must exchange with seat 0 (6) instead.
    res = play(R._replace(queens=1), pol(0, 7, 0, 0), "6c 2d Qh 9s 3c")
    check(res, [1, 0, 0, 0], [0, 1, 0, 0], "2d 6c Qh 9s")


def test_queens_off_queen_is_an_ordinary_card():
    res = play(R, pol(0, 7, 0, 0), "6c 2d Qh 9s 3c")
    check(res, [0, 0, 1, 0], [0, 1, 0, 0], "6c Qh 2d 9s")


def test_queens_eldest_redirects_to_dealer():
    # Eldest (4) meets the Q and exchanges with the dealer (9). The dealer then has its
    # normal turn; that exchange was not the last non-dealer's own swap with it, so the
    # informed rule does not apply and threshold 0 keeps the 4.
    res = play(R._replace(queens=1), pol(7, 0, (0, 0, 1)), "4c Qd 9h 2s")
    check(res, [0, 0, 1], [1, 0, 0], "9h Qd 4c")


def test_queens_eldest_redirect_dealer_then_cuts():
    res = play(R._replace(queens=1), pol(7, 0, 7), "4c Qd 9h 2s")
    check(res, [0, 0, 1], [1, 0, 1], "9h Qd 2s")


def test_queens_queen_next_to_queen_blocks():
    # Seat 1 (5) meets the Q at seat 2; its right-hand neighbour holds a Q too.
    res = play(R._replace(queens=1), pol(0, 7, 0, 0), "Qc 5d Qh 9s 2c")
    check(res, [0, 1, 0, 0], [0, 0, 0, 0], "Qc 5d Qh 9s")


def test_queens_two_players_no_exchange():
    res = play(R._replace(queens=1), pol(7, 7), "5c Qd 2h")
    check(res, [1, 0], [0, 0], "5c Qd")


def test_queens_redirect_onto_king_is_blocked():
    res = play(R._replace(queens=1), pol(0, 7, 0, 0), "Kc 5d Qh 9s 2c")
    check(res, [0, 1, 0, 0], [0, 0, 0, 0], "Kc 5d Qh 9s")


def test_queens_redirect_onto_king_skip_to_next_blocks():
    res = play(R._replace(queens=1, kings=KINGS_SKIP), pol(0, 7, 0, 0), "Kc 5d Qh 9s 2c")
    check(res, [0, 1, 0, 0], [0, 0, 0, 0], "Kc 5d Qh 9s")


def test_queens_redirect_onto_king_stop_all_ends_exchanging():
    # Seat 1 is redirected onto the K: exchanging stops, seat 3 (3) and the dealer keep.
    rules = R._replace(queens=1, kings=KINGS_STOP_ALL)
    res = play(rules, pol(0, 7, 0, 7, 13), "Kc 5d Qh 3s 9d 2c")
    check(res, [0, 0, 0, 1, 0], [0, 0, 0, 0, 0], "Kc 5d Qh 3s 9d")


def test_queens_redirect_onto_jack_dealer_loses_turn():
    # Eldest meets the Q, is redirected onto the dealer's J: blocked, and with
    # holder-skipped the dealer (who has not moved) loses its turn.
    rules = R._replace(queens=1, jacks=JACKS_HOLDER_SKIPPED)
    res = play(rules, pol(7, 0, 13), "4c Qd Jh 2s")
    check(res, [1, 0, 0], [0, 0, 0], "4c Qd Jh")
    rules = R._replace(queens=1, jacks=JACKS_HOLDER_MOVES)
    res = play(rules, pol(7, 0, 13), "4c Qd Jh 2s")
    check(res, [0, 0, 1], [0, 0, 1], "4c Qd 2s")


# ----------------------------------------------------------------------------------------
# Jacks


def test_jacks_holder_moves():
    # Eldest (5) is blocked by the J; the J holder (threshold 11) then swaps with the dealer.
    res = play(R._replace(jacks=JACKS_HOLDER_MOVES), pol(7, 11, 0), "5c Jd 9h 2s")
    check(res, [1, 0, 0], [0, 1, 0], "5c 9h Jd")


def test_jacks_holder_skipped():
    res = play(R._replace(jacks=JACKS_HOLDER_SKIPPED), pol(7, 11, 0), "5c Jd 9h 2s")
    check(res, [1, 0, 0], [0, 0, 0], "5c Jd 9h")


def test_jacks_off_jack_is_an_ordinary_card():
    res = play(R, pol(7, 11, 0), "5c Jd 9h 2s")
    # 5<->J; seat 1 (5) <-> dealer 9; dealer keeps 5 (threshold 0).
    check(res, [0, 0, 1], [1, 1, 0], "Jd 9h 5c")


def test_jacks_holder_skipped_dealer_cannot_cut():
    res = play(R._replace(jacks=JACKS_HOLDER_SKIPPED), pol(7, 7, 13), "5c 7d Jh 2s")
    check(res, [0, 1, 0], [1, 0, 0], "7d 5c Jh")


def test_jacks_holder_moves_dealer_cuts():
    res = play(R._replace(jacks=JACKS_HOLDER_MOVES), pol(7, 7, 13), "5c 7d Jh 2s")
    check(res, [0, 0, 1], [1, 0, 1], "7d 5c 2s")


# ----------------------------------------------------------------------------------------
# Ace high


def test_ace_high_ace_is_top_and_king_is_ordinary():
    # A is the blocker: eldest keeps it; seat 1 (2, lowest) swaps with the K; dealer cuts 9.
    res = play(R._replace(ace_high=True), pol(7, 7, 7), "Ac 2d Kh 9s")
    check(res, [0, 0, 1], [0, 1, 1], "Ac Kh 9s")


def test_ace_low_same_cards():
    # Ace low: eldest passes the A on; seat 1's attempt on the K is blocked; dealer has K.
    res = play(R, pol(7, 7, 7), "Ac 2d Kh 9s")
    check(res, [0, 1, 0], [1, 0, 0], "2d Ac Kh")


def test_ace_high_ace_blocks():
    res = play(R._replace(ace_high=True), pol(7, 0, 0), "5c Ad 9h 2s")
    check(res, [1, 0, 0], [0, 0, 0], "5c Ad 9h")


# ----------------------------------------------------------------------------------------
# Informed play


def test_informed_non_dealer_stands_after_favourable_swap():
    # Eldest (6) swaps with seat 1 (2); seat 1 received 6 > gave 2 and keeps despite 7.
    res = play(R, pol(7, (7, 0, 1), 7, 7), "6c 2d 9h 10s 3c")
    check(res, [1, 0, 0, 0], [1, 0, 0, 0], "2d 6c 9h 10s")


def test_uninformed_non_dealer_swaps_on_threshold():
    res = play(R, pol(7, 7, 7, 7), "6c 2d 9h 10s 3c")
    check(res, [1, 0, 0, 0], [1, 1, 1, 1], "2d 9h 10s 3c")


def test_informed_non_dealer_unfavourable_swap_falls_to_threshold():
    # Eldest 3 <-> seat 1's 8; seat 1 received 3 < gave 8, so the threshold decides:
    # 3 <= 7 swaps with seat 2's 9.
    res = play(R, pol(7, (7, 0, 1), 0, 0), "3c 8d 9h 10s 2c")
    check(res, [0, 0, 1, 0], [1, 1, 0, 0], "8d 9h 3c 10s")


def test_informed_dealer_cuts_when_behind():
    # Eldest 5 <-> dealer 9: the dealer received 5 < gave 9, so it cuts (threshold 0).
    res = play(R, pol(7, (0, 0, 1)), "5c 9d 7h")
    check(res, [0, 1], [1, 1], "9d 7h")


def test_informed_dealer_keeps_when_ahead_without_a_draw():
    # Eldest 9 (threshold 9) <-> dealer 5: received 9 > gave 5, keep; the dealer sits at
    # threshold + 1 with a mixed strategy but the informed rule decides without a draw.
    res = play(R, pol(9, (8, 0.5, 1)), "9c 5d 2h")
    check(res, [1, 0], [1, 0], "5d 9c")


# ----------------------------------------------------------------------------------------
# Threshold mix and draws


def test_threshold_mix_zero_keeps_without_draw():
    res = play(R, pol((7, 0.0, 0), 0), "8c 5d 2h")
    check(res, [0, 1], [0, 0], "8c 5d")


def test_threshold_mix_one_swaps_without_draw():
    res = play(R, pol((7, 1.0, 0), 0), "8c 5d 2h")
    check(res, [1, 0], [1, 0], "5d 8c")


def test_threshold_mix_needs_stream():
    with pytest.raises(ValueError, match="stream"):
        play(R, pol((7, 0.5, 0), 0), "8c 5d 2h")


def _first_seed(predicate, index=0):
    for seed in range(1000):
        if predicate(Stream(seed, index).uniform()):
            return seed
    raise AssertionError("no seed found")


def test_threshold_mix_draw_swaps_when_u_below_mix():
    seed = _first_seed(lambda u: u < 0.5)
    stream = Stream(seed, 0)
    res = play(R, pol((7, 0.5, 0), 0), "8c 5d 2h", stream=stream)
    check(res, [1, 0], [1, 0], "5d 8c")
    # exactly one draw was taken
    ref = Stream(seed, 0)
    ref.uniform()
    assert stream.next_u64() == ref.next_u64()


def test_threshold_mix_draw_keeps_when_u_at_or_above_mix():
    seed = _first_seed(lambda u: u >= 0.5)
    stream = Stream(seed, 0)
    res = play(R, pol((7, 0.5, 0), 0), "8c 5d 2h", stream=stream)
    check(res, [0, 1], [0, 0], "8c 5d")
    ref = Stream(seed, 0)
    ref.uniform()
    assert stream.next_u64() == ref.next_u64()


def test_threshold_mix_draws_in_turn_order():
    # Eldest 8 and dealer 8 both sit at threshold + 1: the eldest draws first, then the
    # dealer (the eldest's swap, if any, is with seat 1's 9d, not with the dealer).
    cards = "8c 9d 8h 2s"
    policy = pol((7, 0.3, 0), 0, (7, 0.6, 0))
    for seed in range(20):
        ref = Stream(seed, 0)
        u1 = ref.uniform()
        if u1 < 0.3:
            hand = ["9d", "8c", "8h"]
            exch = [1, 0, 0]
        else:
            hand = ["8c", "9d", "8h"]
            exch = [0, 0, 0]
        u2 = ref.uniform()
        if u2 < 0.6:
            hand[2] = "2s"
            exch[2] = 1
        ranks = [parse_cards(c)[0] % 13 for c in hand]
        lose = [1 if r == min(ranks) else 0 for r in ranks]
        res = play(R, policy, cards, stream=Stream(seed, 0))
        check(res, lose, exch, " ".join(hand))


def test_threshold_13_always_and_0_never():
    check(play(R, pol(13, 13), "Qc 5d 2h"), [0, 1], [1, 1], "5d 2h")
    check(play(R, pol(0, 0), "Ac 5d 2h"), [1, 0], [0, 0], "Ac 5d")


# ----------------------------------------------------------------------------------------
# Logs and hand mode


def test_log_names_cards_and_losers(implementation):
    if implementation == "kernel":
        pytest.skip("the step log is the twin's (replay); the kernel keeps none")
    log = []
    play(R._replace(queens=1), pol(7, 0, 7), "4c Qd 9h 2s", log=log)
    text = "\n".join(log)
    for token in ("4c", "Qd", "9h", "2s", "shows Qd", "cuts: 2s"):
        assert token in text
    assert log[-1] == "loses a life: seat 2"


def test_replay_lines_header_deal_and_losers():
    policy = pol(*([7] * 5))
    lines = replay_lines(R, policy, 5, 123, 7)
    assert "seed 123" in lines[0] and "hand 7" in lines[0]
    deal = [line for line in lines if line.startswith("deal: seat")]
    assert len(deal) == 5
    assert lines[-1].startswith("loses a life: ")
    seat_rows, _ = play_hand(R, policy, 5, 123, 7)
    losers = [f"seat {s}" for s in range(5) if seat_rows[s][0]]
    assert lines[-1] == "loses a life: " + ", ".join(losers)


def test_play_hand_uses_deal_prefix_of_seed_and_index():
    from sims.core.deck import deal_prefix

    policy = pol(*([7] * 6))
    for index in range(20):
        cards = deal_prefix(Stream(9, index), 7)
        res = play_dealt(R, policy, cards, Stream(9, index))
        seat_rows, table = play_hand(R, policy, 6, 9, index)
        assert [r[0] for r in seat_rows] == res["lose"]
        assert [r[1] for r in seat_rows] == res["exchange"]
        losers = sum(res["lose"])
        assert table == [losers, losers * losers, int(losers == 0)]


def test_simulate_hands_shape_and_sums():
    policy = pol(*([7] * 4))
    out = simulate(R, policy, 4, 0, 5, 10, 200)
    width = max(len(HAND_OUTCOMES.seat), len(HAND_OUTCOMES.table))
    assert out.shape == (5, width) and out.dtype == np.int64
    assert out[:4, 0].sum() == out[4, 0]  # losers = sum of lose_life
    assert out[4, 0] >= 200 - out[4, 2]
    # additive over ranges
    a = simulate(R, policy, 4, 0, 5, 10, 80)
    b = simulate(R, policy, 4, 0, 5, 90, 120)
    assert np.array_equal(a + b, out)


# ----------------------------------------------------------------------------------------
# Game mode


def _games(rules, policy, n, seed, count):
    return [play_game(rules, policy, n, seed, i) for i in range(count)]


def _check_game_invariants(rules, seats, table, n):
    win = [r[0] for r in seats]
    split = [r[1] for r in seats]
    net = [r[2] for r in seats]
    rounds, rounds_sq, final_tie, final_tie_sq, carried, carried_sq, truncated = table[:7]
    assert rounds_sq == rounds * rounds and rounds >= 1
    assert table[7:] == [int(lo <= rounds <= hi) for lo, hi in LENGTH_BUCKETS]  # one length bucket, its own
    assert all(r[3] == r[2] * r[2] for r in seats)
    assert truncated == 0
    assert sum(net) == 0
    if sum(split):
        assert rules.final_tie == FINAL_SPLIT and sum(win) == 0 and sum(split) >= 2
        assert final_tie == 1
    else:
        assert sum(win) == 1
    if rules.final_tie in (FINAL_CARRY_STAKE, FINAL_CARRY_NO_STAKE):
        assert carried == final_tie
    else:
        assert carried == 0
    if rules.final_tie in (FINAL_SPLIT, FINAL_CUT_HIGH):
        assert final_tie <= 1


@pytest.mark.parametrize(
    "final_tie",
    [FINAL_SPLIT, FINAL_REPLAY, FINAL_CUT_HIGH, FINAL_CARRY_STAKE, FINAL_CARRY_NO_STAKE],
)
def test_game_final_tie_options_two_players_one_life(final_tie):
    rules = R._replace(lives=1, final_tie=final_tie)
    policy = pol(7, (8, 0.5, 1))
    games = _games(rules, policy, 2, 11, 600)
    fired = 0
    for seats, table in games:
        _check_game_invariants(rules, seats, table, 2)
        if table[2]:
            fired += 1
            if final_tie == FINAL_SPLIT:
                assert [r[1] for r in seats] == [1, 1]
                assert [r[2] for r in seats] == [0, 0]
            elif final_tie == FINAL_CUT_HIGH:
                # pot 2, each paid 1: the cut winner nets +1 unit, the other -1
                assert sorted(r[2] for r in seats) == [-12, 12]
            elif final_tie == FINAL_CARRY_NO_STAKE:
                # the carried pot of 2 is won; each paid 1 before the carry, nothing after
                assert sorted(r[2] for r in seats) == [-12, 12]
            elif final_tie == FINAL_CARRY_STAKE:
                # each carry adds 2 units, the last round 1: the winner paid (carries)
                # units and receives 2*carries + 1
                carries = table[4]
                assert sorted(r[2] for r in seats) == [-12 * (carries + 1), 12 * (carries + 1)]
        else:
            assert table[0] == 1
            assert sorted(r[2] for r in seats) == [-12, 12]
    assert fired > 0


@pytest.mark.parametrize(
    "final_tie",
    [FINAL_SPLIT, FINAL_REPLAY, FINAL_CUT_HIGH, FINAL_CARRY_STAKE, FINAL_CARRY_NO_STAKE],
)
def test_game_final_tie_options_three_players(final_tie):
    rules = R._replace(lives=2, final_tie=final_tie)
    policy = pol(7, 7, 8)
    for seats, table in _games(rules, policy, 3, 4, 150):
        _check_game_invariants(rules, seats, table, 3)


def test_game_split_three_way_shares_pot():
    # Three players with one life, never swapping: a three-way final tie needs three
    # equal ranks. Find one by hand-mode deals (the first round of game i is hand i).
    rules = R._replace(lives=1, final_tie=FINAL_SPLIT)
    policy = pol(0, 0, 0)
    for i in range(4000):
        seats, table = play_hand(rules, policy, 3, 2, i)
        if table[0] == 3:
            g_seats, g_table = play_game(rules, policy, 3, 2, i)
            assert [r[1] for r in g_seats] == [1, 1, 1]
            assert [r[2] for r in g_seats] == [0, 0, 0]
            assert g_table[:3] == [1, 1, 1]
            break
    else:
        pytest.fail("no three-way tie found")


def test_game_first_round_is_hand_mode_deal():
    rules = R._replace(lives=1)
    policy = pol(7, (8, 0.5, 1))
    for i in range(200):
        h_seats, h_table = play_hand(rules, policy, 2, 3, i)
        g_seats, g_table = play_game(rules, policy, 2, 3, i)
        if h_table[0] == 1:
            assert g_table[0] == 1
            assert [r[0] for r in g_seats] == [1 - r[0] for r in h_seats]


def test_game_policy_follows_the_seat_and_deal_rotates():
    rules = R._replace(lives=3)
    policy = pol(7, 7, 7)
    log = []
    play_game(rules, policy, 3, 8, 0, log)
    dealers = [int(line.split("dealer seat ")[1].split(";")[0]) for line in log if line.startswith("round ")]
    assert dealers[0] == 2 and dealers[1] == 0  # everyone still has lives after round 1
    # round 2: seat 1 is the eldest hand
    start = [k for k, line in enumerate(log) if line.startswith("round 2:")][0]
    assert log[start + 1].startswith("deal: seat 1 (eldest)")


def test_game_same_seed_identical_and_simulate_sums():
    rules = R._replace(lives=2, final_tie=FINAL_CUT_HIGH)
    policy = pol(7, 7, 7, (8, 0.5, 1))
    a = simulate(rules, policy, 4, 1, 21, 0, 60)
    b = simulate(rules, policy, 4, 1, 21, 0, 60)
    assert np.array_equal(a, b)
    width = max(len(GAME_OUTCOMES.seat), len(GAME_OUTCOMES.table))
    assert a.shape == (5, width)
    assert a[:4, 0].sum() == 60  # one outright winner per game
    assert a[:4, 2].sum() == 0  # chips sum to zero
    games = _games(rules, policy, 4, 21, 60)
    assert a[4, 0] == sum(t[0] for _, t in games)
    assert play_game(rules, policy, 4, 21, 5) == play_game(rules, policy, 4, 21, 5)
    assert play_game(rules, policy, 4, 21, 5) != play_game(rules, policy, 4, 22, 5)


def test_game_truncated(monkeypatch):
    monkeypatch.setattr(twin, "MAX_ROUNDS", 2)
    rules = R._replace(lives=5)
    policy = pol(7, 7, 7)
    seats, table = play_game(rules, policy, 3, 1, 0)
    assert table[0] == 2 and table[6] == 1
    assert all(r[0] == 0 and r[1] == 0 and r[2] <= 0 for r in seats)
    log = []
    assert play_game(rules, policy, 3, 1, 0, log) == (seats, table)
    paid = [0, 0, 0]
    for line in log:
        if line.startswith("loses a life: ") and not line.endswith("nobody"):
            for name in line[len("loses a life: ") :].split(", "):
                paid[int(name.split()[1])] += 1
    assert sum(paid) >= 2
    assert [r[2] for r in seats] == [-12 * p for p in paid]
