"""Generated ruleset modules, one per built-in variant. Do not edit."""

VARIANTS = ('australian',)
