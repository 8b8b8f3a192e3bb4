"""fivehundred: Five Hundred and its variants as a declarative rules spec.

The sub-packages are ``fivehundred.runtime`` (the engine), ``fivehundred.generator`` (spec to
ruleset to outputs), ``fivehundred.generated`` (the committed outputs) and ``fivehundred.specs``
(the built-in rule files).
"""

__version__ = "0.1.0"
