"""The conformance suite: every game in both rulesets against a plain reference of RULES.md."""
