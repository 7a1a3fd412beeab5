"""Edition data files (TOML): boards, prices, decks, chips. Read with importlib.resources."""
