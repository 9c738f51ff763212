"""Argument types of the command line, shared by the commands of each part of kibitz: a
number is checked before it is converted, and a bad one gets a clear refusal."""

from __future__ import annotations

import argparse
from typing import Callable

from kibitz.errors import quoted


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"the timeout must be a positive number of seconds, not {text}")
    return value


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high``, checked before it is converted
    (a number of thousands of digits is refused, never converted)."""

    def parse(text: str) -> int:
        digits = text.strip()
        significant = digits.lstrip("0")  # int() refuses thousands of digits, leading zeros too
        if (digits.isascii() and digits.isdigit() and len(significant) <= len(str(high))
                and low <= int(significant or "0") <= high):
            return int(significant or "0")
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a whole number from {low} to {high:,}")
    return parse
