"""xlbridge: bridge masterpoint awards and club season recalculation for Excel.

The public engine calls (pure Python, no Excel needed):

- :func:`award` -- the award for one final place,
- :func:`awards` -- the awards of a whole ranking,
- :func:`schemes` -- every scheme the engine knows.

Rule violations raise :class:`RuleError` (a ``ValueError``) with a message that
names the rule and the offending value.
"""

from xlbridge.rules import Award, RuleError, SchemeInfo, award, awards, schemes

__all__ = ["Award", "RuleError", "SchemeInfo", "award", "awards", "schemes"]
__version__ = "0.1.0"
