"""The full hand check shared by the Fight for the Lead twin and kernel tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def ffl_hand_check():
    """The full hand check shared by the Fight for the Lead twin and kernel tests."""
    return check_fight_for_the_lead_hand


def check_fight_for_the_lead_hand(res, rules, n, pot, compulsory):
    """Every law a Fight for the Lead hand (a play_dealt result) must obey: cards, fight,
    leader, follow suit, trick winners, chips."""
    from sims.games.fight_for_the_lead import CAP_EQUAL, REFUND_SPLIT
    from sims.games.fight_for_the_lead.twin import rank_value

    playing = res["playing"]
    n_in = sum(playing)
    # cards: every seat holds 4 distinct cards, no card in two hands, fight/turned disjoint from held
    held = [c for h in res["held"] for c in h]
    assert all(len(h) == 4 and h == sorted(h) for h in res["held"])
    assert len(set(held)) == 4 * n
    assert len(set(res["fight"])) == n
    assert len(set(res["turned"])) == len(res["turned"])
    assert not set(res["turned"]) & set(res["fight"])
    # the fight: the last turned card matches the winner's suit unless the pack ran out
    if res["turned"] and any(f // 13 == res["turned"][-1] // 13 for f in res["fight"]):
        suit = res["turned"][-1] // 13
        assert res["fight"][res["lead"]] // 13 == suit
        assert all(rank_value(f) <= rank_value(res["fight"][res["lead"]]) for f in res["fight"] if f // 13 == suit)
        for c in res["turned"][:-1]:
            assert all(f // 13 != c // 13 for f in res["fight"])
    else:
        assert 4 * n + len(res["turned"]) == 52
    if compulsory:
        assert playing == [1] * n
    if n_in == 0:
        assert res["all_dropped"] == 1 and res["leader"] == -1 and res["tricks"] == []
        assert res["won"] == [0] * n and res["traded"] == [0] * n
        if rules.all_drop == REFUND_SPLIT:
            assert res["net"] == [pot // n] * n and res["pot_next"] == 0
            assert sum(res["net"]) == pot
        else:
            assert res["net"] == [0] * n and res["pot_next"] == pot
        return
    assert res["all_dropped"] == 0
    # trick winnings sum to the pot; payments make the next pot
    winnings = [res["won"][s] * pot // 4 for s in range(n)]
    assert sum(winnings) == pot
    losers = [s for s in range(n) if playing[s] and res["won"][s] == 0]
    assert res["pot_next"] == len(losers) * pot
    for s in range(n):
        assert res["net"][s] == winnings[s] - (pot if s in losers else 0)
        if not playing[s]:
            assert res["won"][s] == 0 and res["net"][s] == 0 and res["traded"][s] == 0
    assert sum(res["net"]) == pot - res["pot_next"]
    if n_in == 1:
        lone = playing.index(1)
        assert res["won"][lone] == 4 and res["net"][lone] == pot and res["pot_next"] == 0
        assert res["leader"] == -1 and res["tricks"] == []
        return
    # the leader: the fight winner or the next playing seat clockwise from it
    lead, leader = res["lead"], res["leader"]
    assert playing[leader]
    step = 0
    while not playing[(lead + step) % n]:
        step += 1
    assert leader == (lead + step) % n
    if compulsory and not rules.trade_in_first_hand:
        assert res["traded"] == [0] * n
    if rules.trade_exhaust == CAP_EQUAL:
        assert max(res["traded"]) <= 52 - 5 * n  # at most S // n_in <= S
    # four tricks, each seat plays its held cards, follows suit, highest of the led suit wins
    assert len(res["tricks"]) == 4
    hands = {s: set(res["held"][s]) for s in range(n) if playing[s]}
    to_lead = leader
    won = [0] * n
    for trick_leader, plays, winner in res["tricks"]:
        assert trick_leader == to_lead
        seats = [s for s, _ in plays]
        assert seats == [(to_lead + i) % n for i in range(n) if playing[(to_lead + i) % n]]
        led = plays[0][1] // 13
        for s, card in plays:
            assert card in hands[s]
            if card // 13 != led:
                assert all(c // 13 != led for c in hands[s])
            hands[s].discard(card)
        top = max((c for _, c in plays if c // 13 == led), key=rank_value)
        assert winner == [s for s, c in plays if c == top][0]
        won[winner] += 1
        to_lead = winner
    assert all(not h for h in hands.values())
    assert won == res["won"]
