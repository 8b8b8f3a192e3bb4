"""Spec loading, validation, the ruleset model and the renderers that write generated/."""
