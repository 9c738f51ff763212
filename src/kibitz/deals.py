"""Deal numbers compatible with PySolFC (see the rules, "Deal numbers").

A deal number picks a generator (Microsoft C runtime below 32000, CPython's
Mersenne Twister from 32000) that shuffles the pack with Fisher-Yates from the
end. :func:`shuffle` returns the pack as *creation indices* (0..52*packs-1), so
that games can tell the two packs apart where the rules need it (Parisienne);
the card of an index is ``index % 52``. The last element is the top of the stock.
"""

from __future__ import annotations

import random
import secrets
from typing import Protocol

from kibitz.errors import DealNumberError, quoted

MAX_DEAL_NUMBER = 10**20 - 1
"""The largest deal number: any positive integer of up to 20 digits is valid."""
MICROSOFT_LIMIT = 32000
"""Numbers below this use the Microsoft generator."""


class Generator(Protocol):
    """A source of uniform integers, as PySolFC's deal generators provide them."""

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``low..high`` inclusive."""
        ...


class MicrosoftGenerator:
    """The Microsoft C runtime generator used for deal numbers 1..31999."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def draw(self) -> int:
        """Advance and return the next 15-bit value."""
        self.state = (self.state * 214013 + 2531011) % (1 << 33)
        return (self.state >> 16) & 0x7FFF

    def randint(self, low: int, high: int) -> int:
        return low + self.draw() % (high + 1 - low)


class MersenneGenerator:
    """CPython's Mersenne Twister, seeded with the deal number (numbers from 32000)."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        return low + int(self.random.random() * (high + 1 - low))


def check_deal_number(number: object) -> int:
    """Return ``number`` as an int if it is a valid deal number, else raise :class:`DealNumberError`."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealNumberError(f"deal number {number!r}: must be a whole number from 1 to {MAX_DEAL_NUMBER}")
    if number < 1:
        raise DealNumberError(f"deal number {number}: deal numbers start at 1")
    if number > MAX_DEAL_NUMBER:
        raise DealNumberError(f"deal number {number}: at most 20 digits (largest {MAX_DEAL_NUMBER})")
    return number


def parse_deal_number(text: str) -> int:
    """Parse a deal number typed by a user (``"123"``, ``"#123"``, ``"1_000"`` is refused)."""
    stripped = text.strip().removeprefix("#")
    if not stripped.isascii() or not stripped.isdigit():
        raise DealNumberError(
            f"deal number {quoted(text)}: not a number; use digits only, from 1 to {MAX_DEAL_NUMBER}")
    significant = stripped.lstrip("0")  # int() refuses thousands of digits, leading zeros too
    if len(significant) > 20:
        raise DealNumberError(f"deal number {quoted(text)}: at most 20 digits (largest {MAX_DEAL_NUMBER})")
    return check_deal_number(int(significant or "0"))


def random_deal_number(limit: int = 10**9) -> int:
    """A fresh deal number for "new game", short enough to read out and replay."""
    return 1 + secrets.randbelow(limit)


def generator(number: int) -> Generator:
    """The generator PySolFC uses for deal ``number``."""
    check_deal_number(number)
    if number < MICROSOFT_LIMIT:
        return MicrosoftGenerator(number)
    return MersenneGenerator(number)


def fisher_yates(pack: list[int], rng: Generator) -> None:
    """Shuffle ``pack`` in place from the end, as step 4 of the deal procedure."""
    for n in range(len(pack) - 1, 0, -1):
        j = rng.randint(0, n)
        pack[n], pack[j] = pack[j], pack[n]


def creation_order(packs: int, microsoft: bool) -> list[int]:
    """Creation indices in the order the shuffle starts from.

    A single pack under the Microsoft generator is first put in FreeCell order:
    for each rank A..K, the suits C, D, H, S.
    """
    if packs == 1 and microsoft:
        return [rank + 13 * suit for rank in range(13) for suit in (0, 3, 2, 1)]
    return list(range(52 * packs))


def shuffle(number: int, packs: int) -> tuple[list[int], Generator]:
    """Shuffle for deal ``number``: the creation indices, last on top, and the generator.

    The generator is returned so that a game that reshuffles (standard Tournament)
    continues its sequence.
    """
    rng = generator(number)
    pack = creation_order(packs, isinstance(rng, MicrosoftGenerator))
    fisher_yates(pack, rng)
    return pack, rng
