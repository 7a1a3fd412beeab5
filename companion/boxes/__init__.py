"""The real box on the table: whole-board corrections and saved box profiles (docs/profiles.md)."""
