"""``fivehundred.pettingzoo.env(variant=...)``: PettingZoo AEC environments (see
:mod:`fivehundred.runtime.pettingzoo`; needs the ``pettingzoo`` extra)."""

from fivehundred.runtime.pettingzoo import FiveHundredEnv, env, raw_env

__all__ = ["FiveHundredEnv", "env", "raw_env"]
