"""Monopoly: Star Wars: ship tokens, Hyperspace, Galactic Empire Tax and Use the Force.

Everything else (buying, auctions, rent, jail, Chance cards, trades, debt) is the shared
Monopoly family with the rulebook's numbers in ``seeds/starwars.toml``.

Decisions the rulebook leaves to the table:
- "Anyone can bid (even the Banker)": the rulebook's Banker is one of the players, so in this
  app the person holding the banker PIN bids from their own seat. The Bank itself never bids
  (it would pay itself); the banker actor only closes an auction. No bid: it stays unowned.
- Each ship has 16 property markers: a ship with all 16 on the board cannot buy, bid, take a
  property with Force Stealth or receive more properties than it gives in a trade (it still
  auctions). A bankrupt ship's properties go to its creditor in full, as the rulebook says.
- Hyperspace is a jump forward: passing GO on the way collects ₥200 ("every time you pass").
- Owing a player: "Sell them your properties": each sale goes to the creditor at half the
  purchase value, counted against the debt (the creditor pays any change); selling to the
  Bank is for debts to the Bank. Trades stay open ("to the satisfaction of both players").
- "If you still cannot pay": bankruptcy is refused while the sales still possible could pay.
- Owing the Bank: the properties are auctioned one after another at once, among the others;
  a Get Out of Jail Free card goes back under the Chance pile.
"""

from companion.editions.starwars.rules import StarWarsRules

__all__ = ["StarWarsRules"]
