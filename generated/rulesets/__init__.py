"""Generated ruleset modules, one per built-in variant. Do not edit."""

VARIANTS = ('all-pass-no-trumps', 'american', 'australian', 'australian-45', 'australian-46', 'bidder-goes-out', 'both-hands-misere', 'double-nullo', 'g-variations', 'misere-230', 'misere-anytime-210', 'nullo-above-8s', 'open-misere-after-8', 'sans-kitty', 'three-handed', 'trickster-australian', 'two-handed', 'two-handed-24')
