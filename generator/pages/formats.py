"""How pages print values: the templates' filters and the quick autoescape.

Both the Jinja templates (as filters, and `escape` for every `{{ ... }}`) and the Python
row renderers (`rows.py`) print through these, so a value reads the same either way.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import markupsafe
import msgspec


def dash(value: object) -> object:
    """The value, or `–` when there is none."""
    return "–" if value is None or value is msgspec.UNSET else value


def fixed(value: object, digits: int = 2) -> str:
    """A number with `digits` decimals and thousands separators."""
    if not isinstance(value, float | int):
        return "–"
    return f"{value:z,.{digits}f}"  # z: a value that rounds to zero is never `-0.00`


def signed(value: object, digits: int = 1) -> str:
    """`+1.5`, `-0.3`; a value that rounds to zero is `+0.0`, never `-0.0` or `+-0.0`."""
    if not isinstance(value, float | int):
        return "–"
    return f"{value:+z.{digits}f}"


_WHOLES: dict[tuple[type, float | int], str] = {}
WHOLES_LIMIT = 1 << 16
"""Range ends `whole` keeps (2-decimal IQs repeat: every history snapshot row has two)."""


def whole(value: object) -> str:
    """A range end as a whole IQ point, half up (the API keeps 2 decimals)."""
    if not isinstance(value, float | int):
        return "–"
    key = (type(value), value)  # 0.0 and -0.0 share a key, as they share "0"
    found = _WHOLES.get(key)
    if found is None:
        found = str(Decimal(repr(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP) + 0)  # no -0
        if len(_WHOLES) < WHOLES_LIMIT:
            _WHOLES[key] = found
    return found


try:
    from markupsafe import _escape_inner  # type: ignore[attr-defined]  # its own, in C
except ImportError:  # pragma: no cover - a markupsafe without it: escape() does the work

    def _escape_inner(text: str, /) -> str:
        return str(markupsafe.escape(text))


_new_markup = str.__new__


def escape(value: object) -> markupsafe.Markup:
    """`markupsafe.escape(value)`, the same Markup for every value, at a third of the cost
    for the two kinds pages print most: a plain str (escaped by markupsafe's own function)
    and a plain int (digits and a sign: nothing to escape). Anything else, a Markup or an
    object with `__html__` included, is `markupsafe.escape`'s. The kind is `type(value)`,
    as markupsafe's: a proxy may report another `__class__`."""
    kind = type(value)
    if kind is str:
        return _new_markup(markupsafe.Markup, _escape_inner(value))  # type: ignore[arg-type]
    if kind is int:
        return _new_markup(markupsafe.Markup, str(value))
    return markupsafe.escape(value)
