"""``fivehundred.pettingzoo.env(variant=...)``: PettingZoo AEC environments (see
:mod:`fivehundred.runtime.adapters.pettingzoo`; needs the ``pettingzoo`` extra)."""

from fivehundred.runtime.adapters.pettingzoo import FiveHundredEnv, env, raw_env

__all__ = ["FiveHundredEnv", "env", "raw_env"]
