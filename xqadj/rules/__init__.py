"""The rules profiles, by name: :data:`PROFILES` and :func:`get_profile`.

Layer: rules.  Each profile is a module (or subpackage) of this package with a ``PROFILE``
object that provides :class:`~xqadj.rules.base.Profile`: ``axf`` (AXF/WXF, the default,
:mod:`xqadj.rules.axf`) and ``cxa`` (Chinese Xiangqi Association 2020, :mod:`xqadj.rules.cxa`).
A new profile is one new module and one line in :data:`PROFILE_MODULES`.

A profile's module is imported when the profile is first asked for, not with the package: the
CXA look-ahead is two thousand lines that a protocol server ruling under AXF never needs, and
the server's start-up time is what a GUI waits for.  The names alone (the protocol's ``Rules``
values, ``--rules``) load nothing.  tests/test_layers.py counts these imports in the import
graph like written ones.

>>> list(PROFILES)
['axf', 'cxa']
>>> get_profile("cxa").options
frozenset({'forbidden_run'})
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from types import MappingProxyType

from xqadj.rules.base import Profile, StepLabel, Watch

__all__ = ["PROFILES", "PROFILE_MODULES", "Profile", "StepLabel", "Watch", "get_profile"]

#: The module that holds each profile's ``PROFILE``, by name, the default first.
PROFILE_MODULES: Mapping[str, str] = MappingProxyType(
    {
        "axf": "xqadj.rules.axf",
        "cxa": "xqadj.rules.cxa",
    }
)


class _Profiles(Mapping[str, Profile]):
    """The profiles by name, each module imported on first use (:data:`PROFILE_MODULES`)."""

    def __init__(self) -> None:
        self._loaded: dict[str, Profile] = {}

    def __getitem__(self, name: str) -> Profile:
        profile = self._loaded.get(name)
        if profile is None:
            module = import_module(PROFILE_MODULES[name])  # KeyError for an unknown name
            profile = self._loaded[name] = module.PROFILE
            assert profile.name == name, f"{module.__name__}.PROFILE is named {profile.name!r}"
        return profile

    def __contains__(self, name: object) -> bool:
        return name in PROFILE_MODULES  # without loading it

    def __iter__(self) -> Iterator[str]:
        return iter(PROFILE_MODULES)

    def __len__(self) -> int:
        return len(PROFILE_MODULES)


#: The profiles by name, the default first; iterating gives the names without loading any.
PROFILES: Mapping[str, Profile] = _Profiles()


def get_profile(name: str) -> Profile:
    """The profile called ``name``; :class:`ValueError` naming the known ones otherwise."""
    if name not in PROFILE_MODULES:
        raise ValueError(f"unknown rules {name!r}; expected one of {', '.join(PROFILES)}")
    return PROFILES[name]
