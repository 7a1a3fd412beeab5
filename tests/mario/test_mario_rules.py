"""Scenario tests: one per rule of the Super Mario Bros. Movie Edition, as a player sees it.

Board (default layout): 0 GO, 1 Brooklyn, 2 Question Block, 3 Punch-Out Pizzeria, 4 Toad Town,
5 Bowser's Fury, 6 Mushroom Forest, 7 Jail, 8 Training Course, 9 Super Star, 10 Peach's Castle,
11 Jungle Kingdom, 12 Question Block, 13 Kong Arena, 14 Free Parking, 15 Rainbow Road,
16 Bowser's Fury, 17 Snow Kingdom, 18 Penguin Village, 19 Question Block, 20 Lava Lake,
21 Go to Jail, 22 Dark Lands, 23 Bowser's Fury, 24 Bowser's Airship, 25 Bowser's Castle,
26 Piranha Plant, 27 Super Bell Hill. Rolls are [red, black]: Bowser moves on the black die.
"""

from __future__ import annotations

import pytest

from companion.editions.mario import MarioValues
from companion.engine.types import IllegalCommand
from tests.playing import TableGame

GO, BROOKLYN, PIZZERIA, TOAD_TOWN, JAIL, SUPER_STAR, PEACH = 0, 1, 3, 4, 7, 9, 10
FREE_PARKING, RAINBOW, SNOW, GO_TO_JAIL, PIRANHA = 14, 15, 17, 21, 26


def mario(n: int = 2, **kw: object) -> TableGame:
    names = ["Mario", "Luigi", "Peach", "Toad", "Yoshi", "DK"][:n]
    return TableGame.start("mario", names, **kw)  # type: ignore[arg-type]


def bowser(g: TableGame) -> dict:
    return dict(g.state.ext["bowser"])


def put_bowser(g: TableGame, position: int, active: bool = True) -> None:
    g.patch(ext=MarioValues(bowser={"position": position, "active": active, "wake": []}))


def own(g: TableGame, index: int, pid: str | None, game_over: bool = False) -> None:
    g.arrange("deed_owned", space=index, owner=pid)
    g.arrange("game_over_marked", space=index, game_over=game_over)


def game_over(g: TableGame, index: int) -> bool:
    return index in g.state.ext.game_over


def test_everyone_starts_with_30_coins_and_bowser_on_free_parking() -> None:
    """Each player starts with 30 coins; Bowser starts on Free Parking."""
    g = mario(3)
    assert [p.money for p in g.state.players] == [30, 30, 30]
    assert bowser(g) == {"position": FREE_PARKING, "active": True, "wake": []}


def test_passing_go_pays_two_coins() -> None:
    """Passing GO collects 2 coins."""
    g = mario()
    g.patch_player("mario", position=25)
    g.roll(3, 1)  # Bowser 14 -> 15; Mario 25 -> 1 (Brooklyn), passing GO
    assert g.player("mario").position == BROOKLYN
    assert g.player("mario").money == 32
    assert any("passes GO" in s for s in g.says(1))


def test_landing_on_go_also_pays_two_coins() -> None:
    """Landing exactly on GO collects 2 coins too."""
    g = mario()
    g.patch_player("mario", position=24)
    g.roll(3, 1)
    assert g.player("mario").position == GO
    assert g.player("mario").money == 32


def test_bowser_moves_first_on_the_black_die() -> None:
    """Bowser moves on the black die before the player moves on both dice."""
    g = mario()
    g.roll(1, 2)
    says = g.says(1)
    assert bowser(g)["position"] == FREE_PARKING + 2
    assert g.player("mario").position == 3
    assert says.index(next(s for s in says if s.startswith("Bowser moves"))) < says.index(
        next(s for s in says if s.startswith("Mario moves")))


def test_bowser_passing_a_player_costs_one_coin() -> None:
    """A player Bowser passes (without landing on them) pays 1 coin to the Bank."""
    g = mario()
    g.patch_player("luigi", position=16)
    g.roll(1, 3)  # Bowser 14 -> 17, passes 15 and 16
    assert g.player("luigi").money == 29
    assert "Bowser passed Luigi: Luigi pays 1 coin." in g.says(1)


def test_bowser_spares_players_in_jail_and_on_free_parking() -> None:
    """Bowser harms nobody in Jail or on Free Parking when he passes them."""
    g = mario(3)
    put_bowser(g, 5)
    g.patch_player("luigi", position=JAIL, in_jail=True)
    g.patch_player("peach", position=FREE_PARKING)
    g.patch_player("mario", position=20)
    g.roll(1, 6)  # Bowser 5 -> 11 passes Jail (7)
    assert g.player("luigi").money == 30
    g2 = mario(3)
    put_bowser(g2, 12)
    g2.patch_player("peach", position=FREE_PARKING)
    g2.roll(1, 4)  # 12 -> 16 passes 13, 14, 15
    assert g2.player("peach").money == 30


def test_bowser_landing_on_a_location_puts_it_in_game_over() -> None:
    """A location Bowser lands on goes GAME OVER (owned or not)."""
    g = mario()
    own(g, SNOW, "luigi")
    g.roll(2, 3)  # Bowser 14 -> 17 Snow Kingdom
    assert game_over(g, SNOW)
    assert any("GAME OVER" in s for s in g.says(1))


def test_a_complete_colour_set_protects_from_game_over() -> None:
    """Bowser cannot put a location of a complete colour set in GAME OVER."""
    g = mario()
    own(g, RAINBOW, "luigi")
    own(g, SNOW, "luigi")
    g.roll(2, 3)
    assert not game_over(g, SNOW)
    assert any("protects" in s for s in g.says(1))


def test_no_rent_from_a_game_over_location() -> None:
    """The owner of a GAME OVER location collects no rent."""
    g = mario()
    own(g, TOAD_TOWN, "luigi", game_over=True)
    g.roll(3, 1)  # Mario -> Toad Town
    assert g.player("mario").money == 30
    assert g.player("luigi").money == 30
    assert any("no rent" in s for s in g.says(1))


def test_rent_is_paid_and_doubled_for_a_colour_set() -> None:
    """Rent goes to the owner, doubled when they own the whole colour set."""
    g = mario()
    own(g, TOAD_TOWN, "luigi")
    g.roll(3, 1)
    rent = g.state.b.spaces[TOAD_TOWN].rent
    assert g.player("luigi").money == 30 + rent
    g2 = mario()
    own(g2, TOAD_TOWN, "luigi")
    own(g2, 6, "luigi")
    g2.roll(3, 1)
    assert g2.player("luigi").money == 30 + 2 * rent


def test_continue_a_game_over_location_for_one_coin() -> None:
    """At the start of their turn the owner pays 1 coin to continue a GAME OVER location."""
    g = mario()
    own(g, PEACH, "mario", game_over=True)
    g.do("continue_location", space=PEACH)
    assert not game_over(g, PEACH)
    assert g.player("mario").money == 29
    assert g.state.prompt.kind == "turn"  # still their turn to roll


def test_only_the_owner_may_continue_and_only_a_game_over_location() -> None:
    """Continuing a location you do not own, or one not in GAME OVER, is refused."""
    g = mario()
    own(g, PEACH, "luigi", game_over=True)
    own(g, BROOKLYN, "mario", game_over=False)
    before = g.state
    with pytest.raises(IllegalCommand, match="only continue a location you own"):
        g.do("continue_location", actor="mario", space=PEACH)
    with pytest.raises(IllegalCommand, match="not in GAME OVER"):
        g.do("continue_location", actor="mario", space=BROOKLYN)
    assert g.state == before


def test_buying_is_compulsory_buy_or_auction() -> None:
    """On an unowned location the player must buy or auction: nothing else ends the turn."""
    g = mario()
    g.roll(3, 1)
    assert g.state.prompt.kind == "buy"
    mine = {a.type for a in g.actions("mario")}
    assert {"buy", "auction"} <= mine
    assert "roll" not in {a.type for a in g.actions()}
    g.do("buy")
    assert g.state.owner(TOAD_TOWN) == "mario"
    assert g.player("mario").money == 30 - g.state.b.spaces[TOAD_TOWN].price


def test_game_over_travels_with_the_card_when_bought() -> None:
    """A GAME OVER location bought from the Bank stays GAME OVER with its new owner."""
    g = mario()
    own(g, TOAD_TOWN, None, game_over=True)
    g.roll(3, 1)
    g.do("buy")
    assert g.state.owner(TOAD_TOWN) == "mario" and game_over(g, TOAD_TOWN)


def test_auction_from_one_coin_anyone_bids_banker_closes() -> None:
    """Auctions start at 1 coin, anyone bids in any order, the banker closes: highest wins."""
    g = mario(3)
    g.roll(3, 1)
    g.do("auction")
    with pytest.raises(IllegalCommand, match="lowest bid"):
        g.do("bid", actor="peach", amount=0)
    g.do("bid", actor="peach", amount=1)
    g.do("bid", actor="mario", amount=2)
    g.do("bid", actor="luigi", amount=4)
    g.do("close_auction", actor="banker")
    assert g.state.owner(TOAD_TOWN) == "luigi"
    assert g.player("luigi").money == 26
    assert g.state.prompt.kind == "turn" and g.state.prompt.to == ("luigi",)


def test_auction_without_bids_leaves_the_location_unowned() -> None:
    """When nobody bids, the location stays with the Bank."""
    g = mario()
    g.roll(3, 1)
    g.do("auction")
    g.do("close_auction", actor="banker")
    assert g.state.owner(TOAD_TOWN) is None
    assert "Nobody bid: Toad Town stays with the Bank." in g.says(1)


def test_auction_closes_itself_when_everyone_else_passes() -> None:
    """Once every other player has passed, the high bidder wins without waiting."""
    g = mario()
    g.roll(3, 1)
    g.do("auction")
    g.do("bid", actor="luigi", amount=1)
    g.do("pass", actor="mario")
    assert g.state.owner(TOAD_TOWN) == "luigi"


def test_bowser_landing_on_a_player_starts_a_team_battle_won_with_seven() -> None:
    """Bowser landing on a player: they pick a teammate, each rolls a die; 7+ wins 2 coins
    each and sends Bowser beside GO, inactive."""
    g = mario(3)
    g.patch_player("luigi", position=17)
    g.roll(2, 3)  # Bowser 14 -> 17 meets Luigi
    assert g.state.prompt.kind == "teammate" and g.state.prompt.to == ("luigi",)
    g.choose("peach")
    g.roll(4)  # Luigi
    g.roll(3)  # Peach
    assert g.player("luigi").money == 32 and g.player("peach").money == 32
    assert bowser(g)["position"] == GO and not bowser(g)["active"]


def test_team_battle_lost_with_six_sends_the_leader_to_jail() -> None:
    """A team total of 6 or less: Bowser wins and only the leader goes to Jail."""
    g = mario(3)
    g.patch_player("luigi", position=17)
    g.roll(2, 3)
    g.choose("peach")
    g.roll(3)
    g.roll(3)
    assert g.player("luigi").in_jail and g.player("luigi").position == JAIL
    assert not g.player("peach").in_jail
    assert bowser(g)["position"] == 17 and bowser(g)["active"]


def test_landing_on_bowser_also_starts_a_battle_and_a_jailed_player_may_help() -> None:
    """A player landing where Bowser stands battles him; a jailed player can be the teammate;
    after the battle the space's own rule applies."""
    g = mario(3)
    put_bowser(g, 3)
    g.patch_player("peach", position=JAIL, in_jail=True)
    g.roll(3, 1)  # Bowser 3 -> 4 (Toad Town); Mario 0 -> 4 lands on Bowser
    assert g.state.prompt.kind == "teammate"
    assert any(a.args.get("option") == "peach" for a in g.actions("mario"))
    g.choose("peach")
    g.roll(6)
    g.roll(2, actor="peach")
    assert g.player("peach").money == 32 and g.player("mario").money == 32
    assert g.state.prompt.kind == "buy"


def test_no_battle_on_free_parking() -> None:
    """Meeting Bowser on Free Parking is safe: no battle."""
    g = mario()
    g.patch_player("mario", position=10)
    put_bowser(g, 13)
    g.roll(3, 1)  # Bowser 13 -> 14; Mario 10 -> 14
    assert g.state.prompt.kind == "turn" and g.state.prompt.to == ("luigi",)


def _finish_turn(g: TableGame) -> None:
    while g.state.prompt.kind != "turn":
        if g.state.prompt.kind == "buy":
            g.do("auction")
        else:
            g.do("close_auction", actor="banker")


def test_inactive_bowser_rests_until_every_player_finished_a_turn() -> None:
    """After a defeat Bowser does not move until all players have completed their next turn
    (the leader's current turn counts)."""
    g = mario(2)
    g.patch_player("luigi", position=17)
    g.roll(2, 3)  # Bowser 14 -> 17 meets Luigi during Mario's turn
    g.choose("mario")
    g.roll(5)
    g.roll(5, actor="mario")
    _finish_turn(g)
    assert g.state.prompt.to == ("luigi",)
    assert not bowser(g)["active"]
    g.roll(2, 1)  # Luigi's turn: Bowser rests
    assert bowser(g)["position"] == GO
    assert any("rests" in s for s in g.says(1))
    _finish_turn(g)
    assert bowser(g)["active"]
    g.roll(3, 2)
    assert bowser(g)["position"] == 2


def test_super_star_pays_a_die_of_coins_and_piranha_plant_takes_one() -> None:
    """Super Star: roll a die, collect that many coins. Piranha Plant: roll, lose that many."""
    g = mario()
    g.patch_player("mario", position=5)
    g.roll(3, 1)  # -> 9 Super Star
    assert g.state.prompt.kind == "super_star"
    g.roll(5)
    assert g.player("mario").money == 35
    g2 = mario()
    g2.patch_player("mario", position=22)
    g2.roll(3, 1)  # -> 26 Piranha Plant
    g2.roll(4)
    assert g2.player("mario").money == 26


def _top(g: TableGame, deck: str, card_id: str) -> None:
    cards = [c for c in g.state.decks[deck] if c != card_id]
    g.patch(decks={**g.state.decks, deck: (card_id, *cards)})


def test_question_block_card_is_drawn_and_goes_under_the_deck() -> None:
    """A Question Block space draws the top card, applies it, and puts it at the bottom."""
    g = mario()
    _top(g, "question-block", "qb-03")  # Collect 3 coins
    g.roll(1, 1)  # Mario 0 -> 2
    assert g.player("mario").money == 33
    assert g.state.decks["question-block"][-1] == "qb-03"


def test_bowsers_fury_card_can_move_bowser() -> None:
    """Bowser's Fury cards include ones that move Bowser, with all his usual effects."""
    g = mario()
    _top(g, "bowsers-fury", "bf-03")  # Bowser stomps ahead 3 spaces
    g.patch_player("mario", position=1)
    g.patch_player("luigi", position=16)
    g.roll(3, 1)  # Bowser 14 -> 15; Mario 1 -> 5 Bowser's Fury; Bowser 15 -> 18 passes Luigi
    assert bowser(g)["position"] == 18
    assert g.player("luigi").money == 29


def test_get_out_of_jail_free_is_kept_and_used() -> None:
    """The Get Out of Jail Free card is kept until used, then returns under its deck."""
    g = mario()
    _top(g, "question-block", "qb-01")
    g.roll(1, 1)
    assert g.player("mario").cards == ("qb-01",)
    assert "qb-01" not in g.state.decks["question-block"]
    g2 = mario()
    g2.patch_player("mario", in_jail=True, position=JAIL, cards=("qb-01",))
    g2.patch(decks={**g2.state.decks, "question-block": tuple(
        c for c in g2.state.decks["question-block"] if c != "qb-01")})
    g2.do("use_jail_card")
    assert not g2.player("mario").in_jail and g2.player("mario").cards == ()
    assert g2.state.decks["question-block"][-1] == "qb-01"


def test_jail_pay_one_coin_then_roll_normally() -> None:
    """Paying 1 coin at the start of the turn frees the player, who rolls and moves."""
    g = mario()
    g.patch_player("mario", in_jail=True, position=JAIL)
    g.do("pay_jail_fine")
    assert g.player("mario").money == 29 and not g.player("mario").in_jail
    # said once, in a sentence (issue #29 item 13: "pays the Jail fine" then "paid 1 coin")
    assert g.says()[-2:] == ["Mario pays the Jail fine of 1 coin.", "Mario leaves Jail."]
    g.roll(1, 2)
    assert g.player("mario").position == PEACH


def test_jail_doubles_free_without_another_turn() -> None:
    """Rolling doubles in Jail frees the player, who moves but does not roll again."""
    g = mario()
    g.patch_player("mario", in_jail=True, position=JAIL)
    g.roll(2, 2)
    assert g.player("mario").position == JAIL + 4 and not g.player("mario").in_jail
    while g.state.prompt.kind != "turn":
        g.do("auction") if g.state.prompt.kind == "buy" else g.do("close_auction", "banker")
    assert g.state.prompt.to == ("luigi",)


def test_jail_third_miss_pays_and_moves_and_bowser_moves_each_try() -> None:
    """Each try Bowser moves first; after the third miss the player pays 1 coin and moves."""
    g = mario()
    g.patch_player("mario", in_jail=True, position=JAIL, jail_tries=2)
    g.roll(1, 2)
    assert bowser(g)["position"] == FREE_PARKING + 2
    assert not g.player("mario").in_jail
    assert g.player("mario").money == 29 and g.player("mario").position == JAIL + 3
    said = " ".join(g.says())  # a sentence, not "Mario's Jail fine."
    assert "Mario pays the Jail fine of 1 coin." in said and "Jail fine." not in said.replace(
        "Jail fine of", "")
    g2 = mario()
    g2.patch_player("mario", in_jail=True, position=JAIL)
    g2.roll(1, 2)
    assert g2.player("mario").in_jail and g2.player("mario").jail_tries == 1
    assert "try 1 of 3" in " ".join(g2.says(1))


def test_doubles_roll_again_and_three_doubles_go_to_jail_without_bowser() -> None:
    """Doubles give another roll; the third doubles in a row go straight to Jail, and Bowser
    does not move that time."""
    g = mario()
    g.patch_player("mario", position=20)
    g.roll(1, 1)  # 22 Dark Lands
    g.do("auction")
    g.do("close_auction", actor="banker")
    assert g.state.prompt.to == ("mario",)
    g.roll(2, 2)  # 26 Piranha
    g.roll(1)
    assert g.state.prompt.to == ("mario",)
    b = bowser(g)["position"]
    g.roll(3, 3)
    assert g.player("mario").in_jail
    assert bowser(g)["position"] == b
    assert g.state.prompt.to == ("luigi",)


def test_go_to_jail_space() -> None:
    """Landing on Go to Jail sends the player to Jail without salary; doubles do not help."""
    g = mario()
    g.patch_player("mario", position=19)
    g.roll(1, 1)
    assert g.player("mario").in_jail and g.player("mario").money == 30
    assert g.state.prompt.to == ("luigi",)


def test_debt_sell_to_the_bank_at_the_board_price() -> None:
    """Short of coins, a player sells locations to the Bank at the board price, then pays."""
    g = mario()
    own(g, 25, "luigi")
    own(g, 27, "luigi")
    own(g, BROOKLYN, "mario")
    g.patch_player("mario", position=23, money=1)
    g.roll(1, 1)  # 25 Bowser's Castle: double rent 8
    assert g.state.prompt.kind == "debt"
    price = g.state.b.spaces[BROOKLYN].price
    g.do("sell_to_bank", space=BROOKLYN)
    assert g.state.owner(BROOKLYN) is None
    assert g.state.prompt.kind == "debt"  # 1 + 1 still short of 8
    assert g.player("mario").money == 1 + price


def test_bankrupt_to_a_player_hands_over_locations_and_cards() -> None:
    """Bankrupt owing a player: all locations (GAME OVER kept) and keep-cards go to them."""
    g = mario(3)
    own(g, 25, "luigi")
    own(g, 27, "luigi")
    own(g, BROOKLYN, "mario", game_over=True)
    g.patch_player("mario", position=23, money=1, cards=("bf-01",))
    g.roll(1, 1)
    g.do("declare_bankruptcy")
    assert g.player("mario").bankrupt
    assert g.state.owner(BROOKLYN) == "luigi" and game_over(g, BROOKLYN)
    assert g.player("luigi").cards == ("bf-01",)
    assert g.state.prompt.to == ("luigi",)


def test_bankrupt_to_the_bank_returns_locations_and_cards() -> None:
    """Bankrupt owing the Bank: locations go back to the Bank, cards back under their deck."""
    g = mario(3)
    own(g, BROOKLYN, "mario")
    g.patch_player("mario", position=22, money=0, cards=("bf-01",))
    g.patch(decks={**g.state.decks, "bowsers-fury": tuple(
        c for c in g.state.decks["bowsers-fury"] if c != "bf-01")})
    g.roll(3, 1)  # 26 Piranha Plant
    g.roll(6)
    g.do("declare_bankruptcy")
    assert g.state.owner(BROOKLYN) is None
    assert g.state.decks["bowsers-fury"][-1] == "bf-01"


def test_last_player_standing_wins() -> None:
    """The game ends when one player is left: they win."""
    g = mario(2)
    g.patch_player("mario", position=22, money=0)
    g.roll(3, 1)
    g.roll(6)
    g.do("declare_bankruptcy")
    assert g.state.finished and g.state.winners == ("luigi",)


def test_all_sixteen_locations_in_game_over_means_everyone_loses() -> None:
    """If Bowser puts all 16 locations in GAME OVER, the game ends and nobody wins."""
    g = mario()
    for i in g.state.b.ownable:
        own(g, i, None, game_over=i != SNOW)
    g.roll(2, 3)
    assert g.state.finished and g.state.winners == ()
    assert "everyone loses" in g.state.end_reason


def test_trade_needs_both_sides_and_keeps_game_over() -> None:
    """A trade happens only when the other side accepts; GAME OVER travels with the card."""
    g = mario()
    own(g, BROOKLYN, "mario", game_over=True)
    g.do("propose_trade", actor="mario", to="luigi", give={"spaces": [BROOKLYN]},
         take={"money": 3})
    assert g.state.owner(BROOKLYN) == "mario"
    trade = g.state.trades[0].id
    g.do("accept_trade", actor="luigi", trade=trade)
    assert g.state.owner(BROOKLYN) == "luigi" and game_over(g, BROOKLYN)
    assert g.player("mario").money == 33 and g.player("luigi").money == 27


def test_starting_roll_decides_who_goes_first_and_ties_roll_again() -> None:
    """Everyone rolls; the highest starts (then seat order); ties roll again."""
    g = TableGame.start("mario", ["Mario", "Luigi", "Peach"], order="roll")
    g.roll(3, 3)
    g.roll(6, 6)
    g.roll(5, 1)
    assert [p.id for p in g.state.players] == ["luigi", "peach", "mario"]
    g2 = TableGame.start("mario", ["Mario", "Luigi"], order="roll")
    g2.roll(4, 4)
    g2.roll(2, 6)
    assert g2.state.prompt.kind == "order"
    g2.roll(1, 1)
    g2.roll(2, 1)
    assert [p.id for p in g2.state.players] == ["luigi", "mario"]
