"""Generated engine modules: each built-in variant's random playout as code (generator/templates/engine.py.j2). Do not edit."""
