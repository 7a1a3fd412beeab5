"""Mechanics shared by the Monopoly-family editions, written once."""
