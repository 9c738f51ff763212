"""Cards: a card is a small integer, written rank then suit (``TD``).

A card's *identity* is ``suit * 13 + rank`` (0..51) with suits in the order
clubs, spades, hearts, diamonds and ranks ace (0) to king (12). The two copies
of a card in a two-pack game share one identity: they are interchangeable.
Inside a pile a card may carry the :data:`FACE_DOWN` bit.
"""

from __future__ import annotations

from typing import Final

from kibitz.errors import NotationError

RANKS: Final = "A23456789TJQK"
SUITS: Final = "CSHD"
SUIT_NAMES: Final = ("clubs", "spades", "hearts", "diamonds")
SUIT_SYMBOLS: Final = ("\u2663", "\u2660", "\u2665", "\u2666")
RANK_SYMBOLS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Ranks as players read them on a card's index."""
RANK_NAMES: Final = ("ace", "two", "three", "four", "five", "six", "seven",
                     "eight", "nine", "ten", "jack", "queen", "king")

ACE: Final = 0
KING: Final = 12
CLUBS, SPADES, HEARTS, DIAMONDS = range(4)
FACE_DOWN: Final = 64
"""Bit set on a card lying face down in a pile."""
IDENTITY: Final = 63
"""Mask that clears :data:`FACE_DOWN`."""

Card = int
"""A card identity (0..51), possibly with the :data:`FACE_DOWN` bit."""


def card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = ace .. 12 = king) and ``suit`` (0..3)."""
    return suit * 13 + rank


def rank_of(c: Card) -> int:
    """Rank of a card: 0 (ace) to 12 (king)."""
    return (c & IDENTITY) % 13


def suit_of(c: Card) -> int:
    """Suit of a card: 0 clubs, 1 spades, 2 hearts, 3 diamonds."""
    return (c & IDENTITY) // 13


def is_red(c: Card) -> bool:
    """True for hearts and diamonds."""
    return suit_of(c) >= HEARTS


def is_face_down(c: Card) -> bool:
    """True when the card carries the face-down bit."""
    return bool(c & FACE_DOWN)


def format_card(c: Card, *, mark_face_down: bool = True) -> str:
    """``TD``; lower case (``td``) when face down and ``mark_face_down``."""
    text = RANKS[rank_of(c)] + SUITS[suit_of(c)]
    return text.lower() if mark_face_down and c & FACE_DOWN else text


def parse_card(text: str) -> Card:
    """Parse ``TD`` (face up) or ``td`` (face down, returned with the bit set)."""
    if len(text) != 2:
        raise NotationError(f"card {text!r}: a card is two characters, rank then suit (e.g. TD)")
    rank = RANKS.find(text[0].upper())
    suit = SUITS.find(text[1].upper())
    if rank < 0:
        raise NotationError(f"card {text!r}: unknown rank {text[0]!r} (ranks are {RANKS})")
    if suit < 0:
        raise NotationError(f"card {text!r}: unknown suit {text[1]!r} (suits are {SUITS})")
    face_down = text[1].islower()
    if text[0].isalpha() and text[0].islower() != face_down:
        raise NotationError(f"card {text!r}: mixed case; upper case is face up, lower case face down")
    return card(rank, suit) | (FACE_DOWN if face_down else 0)


def card_name(c: Card) -> str:
    """``ten of diamonds``."""
    return f"{RANK_NAMES[rank_of(c)]} of {SUIT_NAMES[suit_of(c)]}"


def card_text(c: Card) -> str:
    """The card as a player reads its index, with its suit symbol: ``10♦``, ``Q♠``."""
    return RANK_SYMBOLS[rank_of(c)] + SUIT_SYMBOLS[suit_of(c)]


def full_pack(packs: int = 1) -> list[Card]:
    """Every card in creation order (for each pack, suits C S H D, ranks A..K)."""
    return [c for _ in range(packs) for c in range(52)]
