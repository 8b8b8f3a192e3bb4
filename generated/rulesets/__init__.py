"""Generated ruleset modules, one per built-in variant. Do not edit."""

VARIANTS = ('all-pass-no-trumps', 'american', 'american-45', 'american-46', 'australian', 'australian-45', 'australian-46', 'bidder-goes-out', 'both-hands-misere', 'double-nullo', 'five-handed', 'five-handed-call', 'g-variations', 'misere-230', 'misere-anytime-210', 'nullo-above-8s', 'open-misere-after-8', 'raise-own-bid', 'sans-kitty', 'six-handed', 'six-handed-2v2v2', 'six-handed-2v2v2-65', 'six-handed-2v2v2-66', 'six-handed-65', 'six-handed-66', 'three-handed', 'trickster-australian', 'two-handed', 'two-handed-24')
