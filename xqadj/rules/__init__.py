"""The rules profiles, by name: :data:`PROFILES` and :func:`get_profile`.

Layer: rules.  Each profile is a module (or subpackage) of this package with a ``PROFILE``
object that provides :class:`~xqadj.rules.base.Profile`: ``axf`` (AXF/WXF, the default,
:mod:`xqadj.rules.axf`) and ``cxa`` (Chinese Xiangqi Association 2020, :mod:`xqadj.rules.cxa`).
A new profile is one new module and one line below.

>>> sorted(PROFILES)
['axf', 'cxa']
>>> get_profile("cxa").options
frozenset({'forbidden_run'})
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from xqadj.rules import axf, cxa
from xqadj.rules.base import Profile, StepLabel, Watch

__all__ = ["PROFILES", "Profile", "StepLabel", "Watch", "get_profile"]

#: The profiles by name, the default first.
PROFILES: Mapping[str, Profile] = MappingProxyType(
    {
        axf.PROFILE.name: axf.PROFILE,
        cxa.PROFILE.name: cxa.PROFILE,
    }
)


def get_profile(name: str) -> Profile:
    """The profile called ``name``; :class:`ValueError` naming the known ones otherwise."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(
            f"unknown rules {name!r}; expected one of {', '.join(PROFILES)}"
        ) from None
