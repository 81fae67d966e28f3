"""Rounding half up (toward +infinity at .5), on the decimal value a float prints as."""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal

_HALF = Decimal("0.5")


def round_half_up(x: float) -> int:
    """Round to the nearest integer, .5 going up: 114.5 -> 115, 114.49 -> 114.

    Works on `repr(x)` as a decimal, so a float that prints as 114.5 rounds to
    115 whatever its binary expansion is.
    """
    return int((Decimal(repr(x)) + _HALF).to_integral_value(rounding=ROUND_FLOOR))


def round_to(x: float, digits: int) -> float:
    """Round half up to `digits` decimals: round_to(0.00125, 4) == 0.0013."""
    step = Decimal(1).scaleb(-digits)
    scaled = (Decimal(repr(x)) / step + _HALF).to_integral_value(rounding=ROUND_FLOOR)
    return float(scaled * step)
