"""Each edition's own rules, on top of the shared engine (and the Monopoly family)."""
