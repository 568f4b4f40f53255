"""The shared laws of trick play, with literal cards: following suit, follow-or-trump,
Spoil Five's renege privilege, the 500 left bower, who wins a trick, and the ranked-layout
helpers (bit = 16 * suit + order)."""

from __future__ import annotations

import numpy as np

from sims.core.cards import card_code, parse_cards
from sims.core.tricks import (
    ACE_HIGH_BIT,
    ACE_HIGH_CARDS,
    ACE_HIGH_CODE,
    FOLLOW_OR_TRUMP,
    FOLLOW_SUIT,
    RANKED_SUIT,
    above_nb,
    cards_mask_nb,
    count_cards_nb,
    highest_bit_nb,
    highest_card_nb,
    legal_cards_nb,
    lowest_bit_nb,
    lowest_card_nb,
    orders_held_nb,
    ranked_beats_nb,
    strongest_nb,
    suit_masks,
    suit_of_bit_nb,
    tops_of_suits_nb,
    trick_winner_nb,
    weakest_nb,
)

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
PRINTED_SUIT = [code // 13 for code in range(52)]
PLAIN = suit_masks(PRINTED_SUIT)
ACE_HIGH = np.array([(code % 13 + 12) % 13 for code in range(52)], dtype=np.int64)  # 2 lowest .. A


def mask(text: str) -> np.uint64:
    codes = np.array(parse_cards(text), dtype=np.int64)
    return cards_mask_nb(codes, len(codes))


def names(m) -> set[int]:
    return {code for code in range(64) if (int(m) >> code) & 1}


def legal(hand, led, trump=np.uint64(0), law=FOLLOW_SUIT, renege=np.uint64(0)):
    return names(legal_cards_nb(mask(hand), led, trump, law, renege))


def test_follow_suit_must_follow_when_able():
    assert legal("Ah 5h Kc 2s", PLAIN[HEARTS]) == set(parse_cards("Ah 5h"))


def test_follow_suit_void_may_play_anything():
    assert legal("Kc 2s 9d", PLAIN[HEARTS]) == set(parse_cards("Kc 2s 9d"))


def test_leader_may_play_anything():
    assert legal("Ah 5h Kc", np.uint64(0)) == set(parse_cards("Ah 5h Kc"))


def test_follow_or_trump_may_trump_instead_of_following():
    trump = PLAIN[SPADES]
    assert legal("Ah 5h Kc 2s", PLAIN[HEARTS], trump, FOLLOW_OR_TRUMP) == set(parse_cards("Ah 5h 2s"))


def test_follow_or_trump_void_may_discard_another_plain_suit():
    trump = PLAIN[SPADES]
    assert legal("Kc 2s 9d", PLAIN[HEARTS], trump, FOLLOW_OR_TRUMP) == set(parse_cards("Kc 2s 9d"))


def test_follow_or_trump_must_follow_a_trump_lead():
    trump = PLAIN[SPADES]
    assert legal("Ah 2s 9s", trump, trump, FOLLOW_OR_TRUMP) == set(parse_cards("2s 9s"))


def test_renege_privileged_trump_may_be_held_back():
    # Spoil Five, clubs trumps: the J of trumps is led; a player holding only the 5 of
    # trumps (which outranks the jack) and plain cards may play anything.
    trump = PLAIN[CLUBS]
    renege = mask("5c")
    assert legal("5c Ah 9d", trump, trump, FOLLOW_OR_TRUMP, renege) == set(parse_cards("5c Ah 9d"))


def test_renege_does_not_excuse_other_trumps():
    # Same lead; the 5 may be held back, but holding the 3 of trumps forces a trump, and
    # then any trump may be played, the 5 included.
    trump = PLAIN[CLUBS]
    assert legal("5c 3c Ah", trump, trump, FOLLOW_OR_TRUMP, mask("5c")) == set(parse_cards("5c 3c"))


def test_left_bower_is_a_trump_not_its_printed_suit():
    # 500 with hearts trumps: the J of diamonds belongs to hearts.  A player whose only
    # "diamond" is the Jd is void in diamonds.
    suit_of = list(PRINTED_SUIT)
    suit_of[card_code("Jd")] = HEARTS
    masks = suit_masks(suit_of)
    assert legal("Jd Ks 4c", masks[DIAMONDS], masks[HEARTS], FOLLOW_SUIT) == set(parse_cards("Jd Ks 4c"))
    assert legal("Jd 7h Ks", masks[HEARTS], masks[HEARTS], FOLLOW_SUIT) == set(parse_cards("Jd 7h"))


def test_trick_winner_highest_of_suit_led_without_trumps():
    played = np.array(parse_cards("9h Kh Ac 10h"), dtype=np.int64)
    assert trick_winner_nb(played, 4, PLAIN[HEARTS], np.uint64(0), ACE_HIGH) == 1


def test_trick_winner_any_trump_beats_the_suit_led():
    played = np.array(parse_cards("9h Ah 2s Kh"), dtype=np.int64)
    assert trick_winner_nb(played, 4, PLAIN[HEARTS], PLAIN[SPADES], ACE_HIGH) == 2


def test_trick_winner_highest_trump_by_strength_table():
    strength = ACE_HIGH.copy()
    strength[card_code("5c")] = 100  # Spoil Five: the five of trumps is the best card
    played = np.array(parse_cards("Ac 5c Kc"), dtype=np.int64)
    assert trick_winner_nb(played, 3, PLAIN[CLUBS], PLAIN[CLUBS], strength) == 1


def test_strongest_weakest_and_count():
    hand = mask("2h Ah 10s Kd")
    assert strongest_nb(hand, ACE_HIGH) == card_code("Ah")
    assert weakest_nb(hand, ACE_HIGH) == card_code("2h")
    assert count_cards_nb(hand) == 4
    assert strongest_nb(np.uint64(0), ACE_HIGH) == -1


# Ranked layout with ace-high orders (Fight for the Lead's): 2 = order 0 ... A = order 12.


def ranked(text: str) -> np.uint64:
    total = 0
    for code in parse_cards(text):
        total |= 1 << (16 * (code // 13) + int(ACE_HIGH[code]))
    return np.uint64(total)


def ranked_bit(text: str) -> np.uint64:
    return highest_bit_nb(ranked(text))


def test_ranked_lowest_and_highest_card_break_rank_ties_by_the_lower_suit():
    hand = ranked("9d 3s Ah 3d As")
    assert lowest_card_nb(hand) == ranked_bit("3d")  # 3d and 3s tie on rank; diamonds first
    assert highest_card_nb(hand) == ranked_bit("Ah")  # Ah and As tie; hearts before spades
    assert lowest_bit_nb(hand) == ranked_bit("3d") and highest_bit_nb(hand) == ranked_bit("As")
    assert orders_held_nb(hand) == np.uint64((1 << 1) | (1 << 7) | (1 << 12))


def test_above_covers_every_higher_bit_and_none_below():
    ten = ranked_bit("10c")
    clubs = RANKED_SUIT
    assert ranked("Jc Qc Kc Ac") == above_nb(ten) & clubs & ranked("2c 10c Jc Qc Kc Ac")
    assert above_nb(np.uint64(63)) == np.uint64(0)


def test_ranked_beats_follows_suit_and_trumps():
    clubs, hearts = RANKED_SUIT, RANKED_SUIT << np.uint64(32)
    assert ranked_beats_nb(ranked_bit("Kc"), ranked_bit("9c"), clubs, np.uint64(0))
    assert not ranked_beats_nb(ranked_bit("8c"), ranked_bit("9c"), clubs, np.uint64(0))
    assert not ranked_beats_nb(ranked_bit("As"), ranked_bit("9c"), clubs, np.uint64(0))  # off-suit never wins
    assert ranked_beats_nb(ranked_bit("2h"), ranked_bit("Ac"), clubs, hearts)  # any trump beats the suit led
    assert not ranked_beats_nb(ranked_bit("Kc"), ranked_bit("2h"), clubs, hearts)
    assert ranked_beats_nb(ranked_bit("3h"), ranked_bit("2h"), clubs, hearts)


def test_count_cards_counts_bits():
    assert count_cards_nb(ranked("2c 3c Ah As Kd")) == 5 and count_cards_nb(np.uint64(0)) == 0


def test_ace_high_bits_are_the_ranked_layout_and_round_trip():
    assert ACE_HIGH_BIT[card_code("2c")] == 0 and ACE_HIGH_BIT[card_code("Ac")] == 12
    assert ACE_HIGH_BIT[card_code("Kd")] == 16 + 11 and ACE_HIGH_BIT[card_code("As")] == 48 + 12
    assert all(ACE_HIGH_CODE[int(ACE_HIGH_BIT[code])] == code for code in range(52))
    assert (
        ranked(" ".join(f"{face}{suit}" for face in "A 2 3 4 5 6 7 8 9 10 J Q K".split() for suit in "cdhs"))
        == ACE_HIGH_CARDS
    )


def test_suit_of_a_bit_is_its_whole_suit():
    assert suit_of_bit_nb(ranked_bit("5d")) == RANKED_SUIT << np.uint64(16)
    assert suit_of_bit_nb(ranked_bit("As")) & ranked("2s Ks Ah") == ranked("2s Ks")


def test_tops_of_suits_are_the_cards_above_every_other_card_of_their_suit():
    hand = ranked("Ah Kh 9h 9c 3d")
    unseen = ranked("Qh 10c 2d 5s")
    # Ah Kh lie above Qh, 9h does not; 9c is below 10c; 3d is above 2d; no spade is held.
    assert tops_of_suits_nb(hand, unseen) == ranked("Ah Kh 3d")
    assert tops_of_suits_nb(hand, np.uint64(0)) == hand
    assert tops_of_suits_nb(hand, ranked("Ac Ad Ah")) == np.uint64(0)
