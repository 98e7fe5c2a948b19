"""One reader of the ``KEY=VALUE`` settings that options take, in cutechess-cli's style.

``--engine``, ``--each``, ``--openings``, ``--sprt``, ``--draw`` and ``--resign`` all read their
settings here, so that every option words its errors alike.

Layer: integrations.  It imports nothing of xqadj, so the pure modules (statistics, openings) can
use it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def parse_key_values(
    tokens: Sequence[str], what: str, keys: Collection[str], expected: str, options: bool = False
) -> dict[str, str]:
    """``KEY=VALUE`` tokens as a dict (a later key replaces an earlier one).  A token without
    ``=`` or with a key outside ``keys`` is a :class:`ValueError` naming ``what`` (``unknown
    {what} setting 'x': expected {expected}``); with ``options``, ``option.<Name>`` keys are kept
    as they are, and one without a name is refused.

    >>> parse_key_values(["file=a.epd", "plies=8"], "openings", ("file", "plies"), "file or plies")
    {'file': 'a.epd', 'plies': '8'}
    >>> parse_key_values(["depth"], "engine", ("depth",), "depth")
    Traceback (most recent call last):
    ...
    ValueError: engine setting 'depth' is not key=value
    """
    values: dict[str, str] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep:
            raise ValueError(f"{what} setting {token!r} is not key=value")
        if options and key.startswith("option."):
            if not key[len("option.") :]:
                raise ValueError(f"{what} setting {token!r}: option. needs a name")
        elif key not in keys:
            raise ValueError(f"unknown {what} setting {key!r}: expected {expected}")
        values[key] = value
    return values
