"""Money in integer minor units, shown the way each edition counts it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Currency:
    """How an edition names and writes its money. Amounts are integers in minor units."""

    one: str
    """The name of one unit, e.g. ``"coin"`` or ``"Poké Ball"``."""
    many: str
    """The plural name, e.g. ``"coins"``."""
    symbol: str = ""
    """A prefix symbol such as ``"₥"`` or ``"€"``; when set, amounts show as symbol + number."""
    decimals: int = 0
    """Minor-unit digits: 2 for euro cents, 0 for whole coins."""

    def format(self, amount: int) -> str:
        """``1`` -> ``"1 coin"``; ``750`` -> ``"€7.50"``; ``200`` -> ``"₥200"``."""
        sign = "-" if amount < 0 else ""
        amount = abs(amount)
        if self.decimals:
            whole, frac = divmod(amount, 10**self.decimals)
            number = f"{whole}.{frac:0{self.decimals}d}"
        else:
            number = str(amount)
        if self.symbol:
            return f"{sign}{self.symbol}{number}"
        return f"{sign}{number} {self.one if amount == 1 else self.many}"

    def counted(self) -> tuple[str, str]:
        """The message of an amount of money counted in things, singular and plural: "{n}
        coin", "{n} coins" (the catalogue has it from the edition's data: readings.py
        ``extract_texts``; a name it lacks reads in English with the reader's digits)."""
        return "{n} " + self.one, "{n} " + self.many

    def to_json(self) -> dict[str, Any]:
        return {
            "one": self.one,
            "many": self.many,
            "symbol": self.symbol,
            "decimals": self.decimals,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Currency:
        return cls(
            str(raw["one"]),
            str(raw["many"]),
            str(raw.get("symbol", "")),
            int(raw.get("decimals", 0)),
        )
