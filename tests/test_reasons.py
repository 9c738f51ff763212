"""Refusals in the player's words: each game's typical refusals worded in full, and a sweep
over random positions that no reason names a hidden card, writes a card in notation or fails."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

import kibitz
from kibitz.cards import RANK_SYMBOLS, SUIT_SYMBOLS, format_card, parse_card
from kibitz.errors import IllegalMoveError
from kibitz.moves import DEAL, Move
from kibitz.notation import parse_state
from kibitz.reasons import NOT_LEGAL
from kibitz.state import State

from conftest import GAMES_AND_RULESETS


def position(slug: str, ruleset: str = "standard", *, round: int = 1, base: str = "-", fill: str = "s",
             **piles: str) -> State:
    """A state with the named piles (codes bottom to top, lower case face down); every card not
    named goes to the bottom of pile ``fill`` (face down in the stock, face up elsewhere)."""
    game = kibitz.game(slug, ruleset)
    used = Counter(parse_card(code) & 63 for text in piles.values() for code in text.split())
    rest = [format_card(c) for c in range(52) for _ in range(game.info.packs - used[c])]
    piles[fill] = " ".join([code.lower() if fill == "s" else code for code in rest] + piles.get(fill, "").split())
    fields = [slug, ruleset, f"round={round}", f"base={base}"]
    fields += [f"{name}={','.join(piles.get(name, '').split())}" for name in game.pile_names()]
    return parse_state(" ".join(fields))


def refusal(state: State, move: str) -> str:
    """The message of the move's refusal, checked to be the same through ``apply``."""
    parsed = DEAL if move == "deal" else Move.parse(move)
    assert parsed not in state.legal_moves, move
    with pytest.raises(IllegalMoveError) as caught:
        state.apply(parsed)
    assert str(caught.value) == state.game.explain_illegal(state, parsed)
    return str(caught.value)


BOTH = pytest.mark.parametrize("ruleset", kibitz.RULESETS)


# -- Grand Duchess and Parisienne ---------------------------------------------------------------

@BOTH
def test_grand_duchess_foundations_up_and_down(ruleset: str) -> None:
    state = position("grand-duchess", ruleset, f1="AC 2C", t1="4C", t2="QH", t3="9D 6S")
    assert refusal(state, "t1>f1") == ("The 4\u2663 can't go to the foundation f1: it builds up in clubs from "
                                       "the ace, and takes the 3\u2663 next.")
    assert refusal(state, "t2>f7") == ("The Q\u2665 can't go to the foundation f7: it builds down in hearts from "
                                       "the king, so it starts with the K\u2665.")
    assert refusal(state, "t3#0>f8") == ("The 9\u2666 is covered by the 6\u2660; only the top card of a tableau "
                                         "pile can move.")
    assert refusal(state, "t1>t2") == ("Nothing is ever played onto the tableau in Grand Duchess: its piles are "
                                       "only dealt to.")


@BOTH
def test_grand_duchess_reserve_and_stock(ruleset: str) -> None:
    state = position("grand-duchess", ruleset, r1="3d 5d", t1="AD")
    assert refusal(state, "r1>f4") == ("That card is face down: the reserve turns face up when a deal empties "
                                       "the stock.")
    assert refusal(state, "s>t2") == "Cards leave the stock only when it is dealt."
    assert refusal(state, "t1>r2") == "Nothing is ever played onto the reserve in Grand Duchess."
    assert state.game.explain_card(state, "r1", 0) == "That card is face down: the reserve turns face up when a deal empties the stock."
    ended = position("grand-duchess", ruleset, round=4, fill="t1", t2="5H")
    assert refusal(ended, "deal") == "The stock is empty, and all three redeals are used."


def test_grand_duchess_foundation_transfer_only_in_pysolfc() -> None:
    piles = {"f2": "AS 2S 3S 4S 5S 6S 7S", "f6": "KS QS JS TS 9S", "t1": "5D"}
    assert refusal(position("grand-duchess", "standard", **piles), "f2>f6") == (
        "In these rules, cards never leave the foundations.")
    assert refusal(position("grand-duchess", "pysolfc", **piles), "f2>f6") == (
        "The 7\u2660 can't go to the foundation f6: it builds down in spades from the king, and takes the "
        "8\u2660 next.")
    assert refusal(position("grand-duchess", "pysolfc", **piles), "f2#5>f6") == (
        "The 6\u2660 is covered by the 7\u2660; only the top card of a foundation can move.")


@BOTH
def test_parisienne_foundations_start_with_an_ace_and_a_king(ruleset: str) -> None:
    state = kibitz.game("parisienne", ruleset).deal(1)
    top = state.pile("t1")[-1]
    assert format_card(top) == "5H"
    assert refusal(state, "t1>f3") == ("The 5\u2665 can't go to the foundation f3: it builds up in hearts from "
                                       "the ace, and takes the 2\u2665 next.")
    assert refusal(state, "t1>f8") == ("The 5\u2665 can't go to the foundation f8: it builds down in diamonds "
                                       "from the king, and takes the Q\u2666 next.")
    assert refusal(state, "t1>t2") == ("Nothing is ever played onto the tableau in Parisienne: its piles are "
                                       "only dealt to.")
    expected = "In these rules, cards never leave the foundations." if ruleset == "standard" else (
        "The K\u2663 can't go to the foundation f1: it builds up in clubs from the ace, and takes the 2\u2663 next.")
    assert refusal(state, "f5>f1") == expected


# -- Duchess ----------------------------------------------------------------------------------

@BOTH
def test_duchess_base_from_the_reserve(ruleset: str) -> None:
    state = kibitz.game("duchess", ruleset).deal(3)
    assert [format_card(state.pile(f"t{n}")[0]) for n in range(1, 5)] == ["QS", "8S", "9C", "QD"]
    assert refusal(state, "t3>f1") == "The first card on a foundation must come from the reserve; it sets the base rank."
    assert refusal(state, "deal") == ("The stock can't be dealt before the base rank is set: first play a "
                                      "reserve card to its foundation.")
    assert refusal(state, "r1>f1") == "The 7\u2666 can't go to the foundation f1: it takes only clubs."
    expected = {"standard": "Nothing else moves until the base rank is set: first play a reserve card to its "
                            "foundation.",
                "pysolfc": "Until the base rank is set, only reserve cards move; the first one on a foundation "
                           "sets it."}
    assert refusal(state, "t3>t2") == expected[ruleset]
    assert state.game.explain_card(state, "t1", 0) == (
        "The first card on a foundation must come from the reserve; it sets the base rank.")


@BOTH
def test_duchess_foundations_from_the_base_rank(ruleset: str) -> None:
    state = position("duchess", ruleset, base="Q", f1="QC KC", f2="QS", r1="3C", r2="5S", t1="9H")
    assert refusal(state, "r1>f1") == ("The 3\u2663 can't go to the foundation f1: it builds up in clubs from the "
                                       "base rank (Q), ace after king, and takes the A\u2663 next.")
    assert refusal(state, "r2>f4") == ("The 5\u2660 can't go to the foundation f4: it builds up in diamonds from "
                                       "the base rank (Q), ace after king, so it starts with the Q\u2666.")


@BOTH
def test_duchess_spaces(ruleset: str) -> None:
    state = position("duchess", ruleset, base="A", f1="AC", r1="3H", w="9C", t2="8D", t3="5S")
    assert refusal(state, "w>t1") == {
        "standard": "An empty tableau pile takes a reserve card while the reserve has any.",
        "pysolfc": "An empty tableau pile takes the waste's top card only once the reserve is used up."}[ruleset]
    if ruleset == "standard":
        assert refusal(state, "t2>t1") == "An empty tableau pile takes a reserve card while the reserve has any."
        assert refusal(state, "s>t1") == "An empty tableau pile takes a reserve card while the reserve has any."
        no_reserve = position("duchess", ruleset, base="A", f1="AC", w="9C", t2="8D", t3="5S")
        assert refusal(no_reserve, "s>t1") == "An empty tableau pile takes the waste's top card before the stock's."
        assert refusal(no_reserve, "t2>t1") == ("Once the reserve is used up, an empty tableau pile takes only "
                                                "the waste's top card, or the stock's when the waste is empty.")
        assert refusal(no_reserve, "s>f2") == ("Only the stock's top card can move: into an empty tableau pile, "
                                               "once the reserve and the waste are used up.")
    else:
        assert refusal(state, "s>t1") == "Cards leave the stock only when it is dealt."


@BOTH
def test_duchess_runs(ruleset: str) -> None:
    state = position("duchess", ruleset, base="A", f1="AC", t1="9S 4H 8H", t2="9D 8C", t3="5C", t4="6D")
    assert refusal(state, "t1>t3/2") == {
        "standard": "The cards from the 4\u2665 up are not in sequence (down in alternating colours, king on ace), "
                    "so they can't move together.",
        "pysolfc": "The 4\u2665 is covered by the 8\u2665; in these rules only a whole tableau pile moves onto "
                   "another pile."}[ruleset]
    assert refusal(state, "t2>t3/2") == ("The run from the 9\u2666 can't go on the 5\u2663 in t3: the tableau "
                                         "builds down in alternating colours, king on ace, so only a red 4 goes on it.")
    assert refusal(state, "t2>f2/2") == "Cards go to a foundation one at a time."
    if ruleset == "pysolfc":
        assert refusal(state, "t1>t4") == (
            "In these rules cards move between tableau piles only as a whole pile in sequence; a single card "
            "from a longer pile goes only to a foundation.")
        assert refusal(state, "t1>t3/3") == ("The cards of t1 are not in sequence (down in alternating colours, "
                                             "king on ace), so the pile can't move as a whole.")
    assert state.game.explain_card(state, "t2", 0) == "No pile takes the run from the 9\u2666 now."


@BOTH
def test_duchess_stock_and_redeal(ruleset: str) -> None:
    state = position("duchess", ruleset, base="A", round=2, fill="t1", f1="AC")
    assert refusal(state, "deal") == "The stock is empty, and its one redeal is used."
    first_round = position("duchess", ruleset, base="A", fill="t1", f1="AC")
    assert refusal(first_round, "deal") == ("The stock and the waste are both empty: there is nothing to deal or "
                                            "turn over.")


# -- Tournament and Napoleon's Flank -------------------------------------------------------------

@pytest.mark.parametrize("slug", ["tournament", "napoleons-flank"])
@BOTH
def test_tournament_cells_and_columns(slug: str, ruleset: str) -> None:
    name = kibitz.game(slug).name
    state = position(slug, ruleset, r1="8D", r3="KH", t1="2C 3C", t2="5H", f5="KC QC")
    assert refusal(state, "t2>r1") == ("The 5\u2665 can't go to the cell r1: it already holds a card, and a cell "
                                       "holds only one.")
    assert refusal(state, "r1>t3") == f"Nothing is ever played onto the tableau in {name}: its piles are only dealt to."
    assert refusal(state, "t1>f5") == ("The 3\u2663 can't go to the foundation f5: it builds down in clubs from "
                                       "the king, and takes the J\u2663 next.")
    if ruleset == "standard":
        assert refusal(state, "r1>r2") == "An empty cell takes only the top card of a tableau pile."
        assert refusal(state, "f5>r2") == "An empty cell takes only the top card of a tableau pile."
    else:
        assert Move.parse("r1>r2") in state.legal_moves and Move.parse("f5>r2") in state.legal_moves
    covered = {"tournament": "The 2\u2663 is covered by the 3\u2663; only the top card of a tableau pile can move.",
               "napoleons-flank": "That card cannot be seen: only the top card of the tableau pile t1 shows."}
    assert refusal(state, "t1#0>f1") == covered[slug]
    assert state.game.explain_card(state, "t1", 0) == covered[slug]


@BOTH
def test_tournament_redeals(ruleset: str) -> None:
    spent = position("tournament", ruleset, round=3, fill="t1")
    assert refusal(spent, "deal") == "The stock is empty, and both redeals are used."
    home = {f"f{k + 1}": " ".join(rank + suit for rank in "A23456789TJQK") for k, suit in enumerate("CSHD")}
    home |= {f"f{k + 5}": " ".join(rank + suit for rank in "KQJT98765432A") for k, suit in enumerate("CSHD")}
    home["f4"] = home["f4"].removesuffix(" KD")
    empty_columns = position("tournament", ruleset, r1="KD", **home)
    assert refusal(empty_columns, "deal") == ("The stock is empty, and a redeal gathers the tableau piles, which "
                                              "are all empty.")


# -- Cicely and Kingsdown Eights ---------------------------------------------------------------

@BOTH
def test_cicely_cells_builds_and_foundations(ruleset: str) -> None:
    cells = {f"r{k}": code for k, code in enumerate(["8D", "2H", "3H", "4H", "5H", "6H", "7H", "8H"], 1)}
    state = position("cicely", ruleset, t1="9S", t2="5S", t3="9C", t4="8S", t5="2D", t6="4D", t7="6D", t8="JD",
                     f5="KC QC", **cells)
    assert refusal(state, "t1>r1") == ("The 9\u2660 can't go to the cell r1: it already holds a card, and a cell "
                                       "holds only one.")
    assert refusal(state, "t1>t2") == ("The 9\u2660 can't go on the 5\u2660 in t2: the tableau builds up or down "
                                       "in suit, so only the 4\u2660 or the 6\u2660 goes on it.")
    assert refusal(state, "t3>f5") == ("The 9\u2663 can't go to the foundation f5: it builds down in clubs from "
                                       "the king, and takes the J\u2663 next.")
    assert refusal(state, "t3>f1") == ("The 9\u2663 can't go to the foundation f1: it builds up in clubs from "
                                       "the ace, so it starts with the A\u2663.")
    assert state.game.explain_card(state, "t1", 0) == "The 9\u2660 can go to t4."
    assert refusal(position("cicely", ruleset, fill="t1"), "deal") == "The stock is empty, and Cicely has no redeal."


@BOTH
def test_kingsdown_eights_foundations_and_columns(ruleset: str) -> None:
    state = position("kingsdown-eights", ruleset, f1="AC", t1="AD", t2="kc 2C", t3="8C", t4="JH", t5="JD",
                     t6="QH", t7="QD", t8="KH", r1="5H 9S", r2="AH")
    assert refusal(state, "t2>f5") == ("The 2\u2663 can't go to the foundation f5: it builds up in clubs from "
                                       "the ace, so it starts with the A\u2663.")
    assert refusal(state, "r1>f1") == ("The 9\u2660 can't go to the foundation f1: it builds up in clubs from "
                                       "the ace, and takes the 2\u2663 next.")
    assert refusal(state, "t3>t1") == ("The 8\u2663 can't go on the A\u2666 in t1: the tableau builds down in "
                                       "alternating colours, so no card goes on it.")
    assert refusal(state, "t3>r2") == "Nothing is ever played onto the reserve in Kingsdown Eights."
    assert refusal(state, "r1#0>f3") == ("The 5\u2665 is covered by the 9\u2660; only the top card of a reserve "
                                         "pile can move.")
    assert refusal(state, "t2#0>f5") == "That card is face down."
    assert state.game.explain_card(state, "t2", 1) == "The 2\u2663 can go to f1."
    assert state.game.explain_card(state, "r2", 0) == "The A\u2665 can go to f3, f7 or t2."
    assert refusal(position("kingsdown-eights", ruleset, fill="t1"), "deal") == (
        "The stock is empty, and Kingsdown Eights has no redeal.")


# -- shorthands typed in the terminal -------------------------------------------------------------

def test_shorthands_that_fit_no_move_say_why() -> None:
    def said(state: State, text: str) -> str:
        with pytest.raises(IllegalMoveError) as caught:
            state.parse_move(text)
        return str(caught.value)

    grand_duchess = kibitz.game("grand-duchess").deal(1)
    assert said(grand_duchess, "t1>t") == ("Nothing is ever played onto the tableau in Grand Duchess: its piles "
                                          "are only dealt to.")
    assert said(grand_duchess, "t1") == said(grand_duchess, "t1>f") == (
        "The 5\u2665 can't go to the foundation f3: it builds up in hearts from the ace, so it starts with the "
        "A\u2665; nor to the foundation f7: it builds down in hearts from the king, so it starts with the K\u2665.")
    cicely = kibitz.game("cicely").deal(2)
    assert said(cicely, "t1>t") == "No tableau pile takes the 8\u2666 now."
    assert said(cicely, "r1>f") == "That card can't go to a foundation now. The 7\u2666 can go to t1 or t5."
    assert said(cicely, "t1/3") == "The 5\u2660 is covered by the 3\u2660; only the top card of a tableau pile can move."
    assert said(kibitz.game("duchess").deal(1), "d") == (
        "The stock can't be dealt before the base rank is set: first play a reserve card to its foundation.")


# -- every game: the piles themselves ------------------------------------------------------------

@pytest.mark.parametrize(("slug", "ruleset"), GAMES_AND_RULESETS)
def test_piles_that_are_empty_missing_or_too_short(slug: str, ruleset: str) -> None:
    state = kibitz.game(slug, ruleset).deal(2)
    game = state.game
    for name in game.pile_names():
        if not state.pile(name) and name != "s":
            where = {"f": "The foundation", "t": "The tableau pile", "w": "The waste"}[name[0]]
            assert refusal(state, f"{name}>t1") == f"{where} {name} is empty.".replace("waste w", "waste")
    count = len(state.pile("t1"))
    assert refusal(state, "t1>t2/9") == f"The tableau pile t1 holds only {count} card{'s' if count > 1 else ''}."
    missing = "w" if game.waste is None else "t8"
    assert refusal(state, f"{missing}>f1") == f"{game.name} has no pile {missing}."
    with pytest.raises(IllegalMoveError):
        game.explain_card(state, "t1", 40)
    with pytest.raises(IllegalMoveError):
        game.explain_card(state, "x9", 0)


# -- the sweep ----------------------------------------------------------------------------------

SYMBOL_CARD = re.compile("(10|[A2-9JQK])([" + "".join(SUIT_SYMBOLS) + "])")
NOTATION_CARD = re.compile(r"(?<![\w#])[A2-9TJQK][CSHD](?!\w)")


def named_cards(text: str) -> set[int]:
    """The card identities a message names (``6♣``)."""
    return {SUIT_SYMBOLS.index(suit) * 13 + RANK_SYMBOLS.index(rank) for rank, suit in SYMBOL_CARD.findall(text)}


def allowed_names(state: State) -> set[int]:
    """The cards a message may name: those the player sees, and those a pile asks for by its rules
    (the card a foundation takes next, the cards a visible top card takes)."""
    view = state.view()
    seen = {c & 63 for pile in view.piles for c in pile if c is not None}
    game = state.game
    wants: dict[int, list[int]] = {}
    for rule in game.rules.targets:
        rule(game, state, wants, [])
    return seen | set(wants)


def random_positions(game: kibitz.Game, seed: int, steps: int) -> list[State]:
    rng = random.Random(seed)
    state = game.deal(seed)
    positions = [state]
    for _ in range(steps):
        moves = state.legal_moves
        if not moves:
            break
        cards = [m for m in moves if not m.is_deal]
        state = state.apply(rng.choice(cards) if cards and rng.random() < 0.9 else rng.choice(moves))
        positions.append(state)
    return positions


def check_message(state: State, message: str, what: str) -> None:
    assert message and message[0].isupper() and message.endswith("."), (what, message)
    assert NOT_LEGAL not in message and "That move is legal" not in message, (what, message)
    assert not NOTATION_CARD.search(message), (what, message)
    assert named_cards(message) <= allowed_names(state), (what, message, str(state.view()))


@pytest.mark.parametrize(("slug", "ruleset"), GAMES_AND_RULESETS)
def test_sweep_reasons_name_no_hidden_card(slug: str, ruleset: str) -> None:
    game = kibitz.game(slug, ruleset)
    rng = random.Random(f"{slug}/{ruleset}")
    names = game.pile_names()
    checked = 0
    for seed in range(1, 5):
        for state in random_positions(game, seed, 120)[::6]:
            legal = set(state.legal_moves)
            for _ in range(40):
                source, target = rng.sample(names, 2)
                pile = state.pile(source)
                if pile and rng.random() < 0.3:
                    move = Move(source, target, 1, rng.randrange(len(pile)))
                else:
                    move = Move(source, target, rng.choice((1, 1, 1, 2, 3)))
                if move in legal:
                    continue
                check_message(state, game.explain_illegal(state, move), str(move))
                checked += 1
            if DEAL not in legal:
                check_message(state, game.explain_illegal(state, DEAL), "deal")
            for name in names:
                for index in range(len(state.pile(name))):
                    said = game.explain_card(state, name, index)
                    check_message(state, said, f"{name}#{index}")
                    moves = [m for m in state.legal_moves if m.source == name and not m.is_deal and (
                        m.position == index if m.position is not None else len(state.pile(name)) - m.size == index)]
                    if moves:
                        targets = said.split(" can go to ")[1].rstrip(".").replace(" or ", ", ").split(", ")
                        assert targets == list(dict.fromkeys(m.target for m in moves)), (said, moves)
                    else:
                        assert " can go to " not in said, said
    assert checked > 500
