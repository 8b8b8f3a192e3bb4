"""Committed build output: ruleset modules, JSON exports and rule books."""
