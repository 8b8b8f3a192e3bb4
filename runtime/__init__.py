"""The game engine: rules from a generated ruleset, hands, games, records, bots, CLI."""
