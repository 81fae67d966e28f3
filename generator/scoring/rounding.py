"""Rounding half up (toward +infinity at .5), robust to float noise."""

from __future__ import annotations

from decimal import ROUND_FLOOR, ROUND_HALF_EVEN, Context, Decimal

_HALF = Decimal("0.5")
_NOISE = Decimal("1e-9")  # far below any published precision, far above float error
_CONTEXT = Context(prec=400)  # enough digits for any finite float at 9 decimals


def _decimal(x: float) -> Decimal:
    """`x` as the decimal it prints as, with float noise below 1e-9 removed.

    Projections and posteriors carry errors around 1e-14 (102.49999999999999
    for an exact 102.5); snapping to 9 decimals first keeps .5 a .5.
    """
    return Decimal(repr(x)).quantize(_NOISE, rounding=ROUND_HALF_EVEN, context=_CONTEXT)


def round_half_up(x: float) -> int:
    """Round to the nearest integer, .5 going up: 114.5 -> 115, 114.49 -> 114."""
    return int(_CONTEXT.add(_decimal(x), _HALF).to_integral_value(rounding=ROUND_FLOOR))


def round_to(x: float, digits: int) -> float:
    """Round half up to `digits` (at most 8) decimals: round_to(0.00125, 4) == 0.0013."""
    step = Decimal(1).scaleb(-digits)
    scaled = _CONTEXT.add(_CONTEXT.divide(_decimal(x), step), _HALF)
    return float(_CONTEXT.multiply(scaled.to_integral_value(rounding=ROUND_FLOOR), step))
