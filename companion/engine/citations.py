"""An edition's citation catalogue: the rulebook's words (or a reading, or the companion's
own choice) behind each rule id that ``@cites`` names, resolved for the players."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from companion.engine.i18n import Msg


class CitationCatalogue:
    """Mixed into :class:`companion.engine.rules.Rules`: the catalogue hooks an edition
    overrides and the look-up every edition shares."""

    name: str = ""
    title: str = ""

    def citations(self) -> Mapping[str, Mapping[str, str]]:
        """The edition's citation catalogue: rule id -> ``section`` and ``quote`` (the
        rulebook's words), or ``reading`` (a reading's id) / ``house`` (the companion's own
        choice). ``@cites`` and ``cite=`` name these ids; see :meth:`check_citations`."""
        return {}

    cite_as: Mapping[str, str] = {}
    """Family rule ids this edition's catalogue names differently (``{"salary": "start"}``)."""
    never_cites: Mapping[str, str] = {}
    """Family rule ids this edition never applies, and why (Monopolino has no auctions)."""

    citation_file = ""
    """Where the catalogue lives, for load-time error messages (``seeds/mario.toml``)."""

    def reading_topic(self, reading: str) -> str:
        """A reading's topic in words (the catalogue's ``reading`` names its id)."""
        return reading

    def check_citations(self) -> None:
        """SeedError naming the catalogue and the rule id when a rule method cites an id the
        edition's catalogue lacks (every ``@cites`` and literal ``cite=``/``citing`` id)."""
        from companion.engine.seeds import check_cited

        check_cited(type(self), self.citations(), self.citation_file or self.name,
                    self.cite_as, frozenset(self.never_cites))

    def citation(self, rule: str) -> dict[str, str] | None:
        """Citation ``rule`` resolved for players: ``id``, ``edition``, ``section`` and
        ``quote`` when the rulebook says it, ``reading``/``house`` when the companion chose,
        and ``text``, one line saying all that; None when ``rule`` is "" or unknown."""
        entry = self.citations().get(self.cite_as.get(rule, rule)) if rule else None
        if entry is None:
            return None
        out: dict[str, str] = {"id": rule, "edition": self.title}
        ours: list[Msg] = []  # the companion's own choices, in the reader's words
        if "section" in entry:
            out["section"] = entry["section"]
        if "quote" in entry:
            out["quote"] = entry["quote"]
        if "reading" in entry:
            reading = Msg("reading: {topic}", topic=Msg(self.reading_topic(entry["reading"])))
            out["reading"] = reading
            ours.append(reading)
        if "house" in entry:
            house = Msg("house default (unverified): {house}", house=entry["house"])
            out["house"] = house
            ours.append(house)
        chosen = functools.reduce(lambda a, b: Msg("{first}; {second}", first=a, second=b),
                                  ours) if ours else None
        if "quote" in entry:  # the rulebook's words stay its exact English quotation
            quoted = Msg("{game} rulebook, {section}: \u201c{quote}\u201d", game=self.title,
                         section=entry.get("section", ""), quote=entry["quote"])
            out["text"] = quoted if chosen is None else Msg("{first}; {second}", first=quoted,
                                                            second=chosen)
        else:
            out["text"] = Msg("{game}: {rule}", game=self.title, rule=chosen or "")
        return out
