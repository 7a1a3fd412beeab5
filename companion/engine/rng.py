"""The game's own random generator: its whole state is one integer kept in the game state.

SplitMix64: tiny, fast, and good enough for dice. Every draw returns the value and the next
state, so the rules stay pure and a replay or an undo never rolls again.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The generator state for a game seed."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """One 64-bit draw and the following state."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        x, state = next_u64(state)
        if x < limit:
            return x % n, state


def roll(state: int, count: int, sides: int = 6) -> tuple[tuple[int, ...], int]:
    """``count`` dice of ``sides`` faces, and the following state."""
    values = []
    for _ in range(count):
        v, state = below(state, sides)
        values.append(v + 1)
    return tuple(values), state


def shuffled(state: int, items: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
    """A Fisher-Yates shuffle of ``items``, and the following state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), state
