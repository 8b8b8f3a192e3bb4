"""The game engine: rules from a generated ruleset, hands, games, records, bots, CLI."""

from .native import install_guard

install_guard()  # a compiled build (``fivehundred compile``) is used only while it is current
