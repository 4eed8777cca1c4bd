"""A stand-in for typing_extensions on Python 3.11 (see README.md): typing's names, and `override` (3.12)."""

from typing import *  # noqa: F401,F403


def override(method):
    return method
