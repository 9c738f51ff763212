"""The seven games, one module each: ``INFO`` (what the game is) and ``STANDARD`` / ``PYSOLFC`` rules."""

GAME_MODULES = ("grand_duchess", "parisienne", "duchess", "tournament",
                "napoleons_flank", "cicely", "kingsdown_eights")
