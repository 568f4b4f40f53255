"""Card notation on the Python side: ``"Ah 10d Ks"`` <-> card codes (see :mod:`sims.core.deck`)."""

from __future__ import annotations

SUITS = "cdhs"
FACES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_FACE_ALIASES = {"T": 9, "1": 0}


def card_code(text: str) -> int:
    """Parse one card such as ``"Ah"``, ``"10d"``, ``"Td"`` or ``"ks"`` into its code."""
    token = text.strip()
    if len(token) < 2:
        raise ValueError(f"'{text}' is not a card: write a face and a suit, like Ah or 10d.")
    face_text, suit_text = token[:-1].upper(), token[-1].lower()
    if suit_text not in SUITS:
        raise ValueError(f"'{text}' is not a card: the suit must be one of c, d, h, s.")
    if face_text in FACES:
        face = FACES.index(face_text)
    elif face_text in _FACE_ALIASES:
        face = _FACE_ALIASES[face_text]
    else:
        raise ValueError(f"'{text}' is not a card: the face must be A, 2-10, J, Q or K.")
    return SUITS.index(suit_text) * 13 + face


def parse_cards(text: str) -> list[int]:
    """Parse a space- or comma-separated list of cards, e.g. ``"Ah 10d Ks"``."""
    return [card_code(token) for token in text.replace(",", " ").split()]


def card_name(code: int) -> str:
    """The notation of one card code, e.g. ``0 -> "Ac"``."""
    if not 0 <= code < 52:
        raise ValueError(f"{code} is not a card code (0-51).")
    return FACES[code % 13] + SUITS[code // 13]


def format_cards(codes) -> str:
    """Space-separated notation of several card codes."""
    return " ".join(card_name(int(c)) for c in codes)
