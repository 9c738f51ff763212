"""Piles, moves and refusals in a player's words (kibitz.spoken, kibitz.reasons.spoken_piles):
what the browser tells a player, with no notation, "10" for a ten, and no hidden card named."""

from __future__ import annotations

import random
import re

import pytest

import kibitz
from kibitz.cards import CLUBS, HEARTS, card, card_text
from kibitz.moves import Move, parse_move
from kibitz.piles import PileKind
from kibitz.reasons import spoken_piles
from kibitz.registry import games
from kibitz.rules import RULESETS
from kibitz.spoken import LISTED, move_phrase, played_words, to_foundations
from kibitz.state import State

SLUGS = [info.slug for info in games()]
PILE_CODE = re.compile(r"(?<![\w'])(?:[tfr]\d+|[sw])(?![\w'])")
"""A pile in notation (``t3``, ``f12``, ``s``, ``w``) standing alone in a sentence."""
NOTATION_RANK = re.compile(r"\bT(?=[\u2663\u2660\u2665\u2666])|\bT[CSHD]\b")
"""A ten written ``T`` (``T♥``, ``TH``)."""
CARD = re.compile(r"(?:10|[A2-9JQK])[\u2663\u2660\u2665\u2666]")


def line_of(slug: str, ruleset: str, deal: int, moves: int) -> list[State]:
    """The positions along a line of up to ``moves`` random legal moves (seeded by the deal)."""
    chooser = random.Random(deal)
    state = kibitz.game(slug, ruleset).deal(deal)
    states = [state]
    for _ in range(moves):
        legal = state.legal_moves
        if not legal:
            break
        state = state.apply(chooser.choice(legal))
        states.append(state)
    return states


def visible_cards(state: State) -> set[str]:
    """Every card the player sees in ``state``, written as on its index."""
    return {card_text(card) for pile in state.view().piles for card in pile if card is not None}


def test_every_pile_is_said_in_words() -> None:
    for slug in SLUGS:
        for spec in kibitz.game(slug).piles:
            words = spec.spoken
            assert not PILE_CODE.search(words), (slug, spec.name, words)
            if spec.kind in (PileKind.STOCK, PileKind.WASTE):
                assert words == {PileKind.STOCK: "the stock", PileKind.WASTE: "the waste"}[spec.kind]
            else:
                kind = "cell" if spec.cell else {PileKind.TABLEAU: "tableau", PileKind.FOUNDATION: "foundation",
                                                 PileKind.RESERVE: "reserve"}[spec.kind]
                assert words == f"{kind} {spec.name[1:]}"


def test_moves_said_as_a_player_sees_them() -> None:
    state = kibitz.game("duchess").deal(3)
    assert move_phrase(state, parse_move("r1>f4")) == "the 7\u2666 from reserve 1 to foundation 4"
    after = state.apply("r1>f4")
    said = {str(move): move_phrase(after, move) for move in after.legal_moves}
    assert said["r2>t1"] == "the J\u2665 from reserve 2 onto the Q\u2660 in tableau 1"
    assert said["deal"] == "a deal from the stock"


@pytest.mark.parametrize("slug", SLUGS)
def test_moves_in_words_carry_no_notation_and_no_hidden_card(slug: str) -> None:
    runs = empties = tens = 0
    for ruleset in RULESETS:
        for deal in (1, 2):
            for state in line_of(slug, ruleset, deal, 60)[::3]:
                seen = visible_cards(state)
                for move in state.legal_moves:
                    words = move_phrase(state, move)
                    assert not PILE_CODE.search(words) and not NOTATION_RANK.search(words), (str(move), words)
                    assert set(CARD.findall(words)) <= seen, (str(move), words)   # only cards in sight
                    if not move.is_deal:
                        cards = state.view().pile(move.source)
                        moving = cards[move.position if move.position is not None else len(cards) - move.size]
                        subject = (f"the {card_text(moving)}" if moving is not None else
                                   "the stock's top card" if move.source == "s" else "a face-down card")
                        assert words.startswith(subject), (str(move), words)
                        above = "the card" if move.size == 2 else f"the {move.size - 1} cards"
                        runs += move.size > 1 and f"{subject} and {above} on it from " in words
                        empties += "to the empty tableau" in words
                        tens += "10" in words
    assert tens, "a ten should have moved, said 10"
    if slug in ("duchess", "kingsdown-eights"):
        assert empties, "a move to an empty tableau pile should have been said"
    if slug == "duchess":
        assert runs, "a run should have been said"


def test_what_a_request_played_in_words() -> None:
    state = kibitz.game("duchess").deal(3)
    first = parse_move("r2>f3")
    after = state.apply(first)
    foundation = next(move for move in after.legal_moves if move.target.startswith("f"))
    moved = card_text(after.view().pile(foundation.source)[-1])
    assert played_words([state, after], [first, foundation], asked=True) == (
        f"the J\u2665 from reserve 2 to foundation 3; then the {moved} to the foundations")
    assert played_words([after], [foundation], asked=False) == f"the {moved} to the foundations"
    assert played_words([], [], asked=False) == ""
    listed = [card(rank, CLUBS) for rank in range(LISTED + 1)]
    assert to_foundations(listed[:3]) == "the A\u2663, 2\u2663 and 3\u2663 to the foundations"
    assert to_foundations([card(9, HEARTS)]) == "the 10\u2665 to the foundations"
    assert to_foundations(listed) == f"{LISTED + 1} cards to the foundations"
    assert to_foundations([None]) == "1 card to the foundations"


def test_refusals_name_piles_in_words_within_spoken_piles_only() -> None:
    state = kibitz.game("duchess").deal(3).apply("r1>f4")
    move = Move("r1", "f1")
    typed = state.game.explain_illegal(state, move)
    with spoken_piles():
        spoken = state.game.explain_illegal(state, move)
        where = state.game.explain_card(state, "r2", 2)
    assert typed.startswith("The 6\u2660 can't go to the foundation f1: it builds up in clubs")
    assert spoken == typed.replace("the foundation f1", "foundation 1")
    assert where == "The J\u2665 can go to tableau 1."
    assert state.game.explain_illegal(state, move) == typed   # notation again once outside


@pytest.mark.parametrize("slug", SLUGS)
def test_every_refusal_in_words_carries_no_notation(slug: str) -> None:
    for ruleset in RULESETS:
        for state in line_of(slug, ruleset, 4, 40)[::8]:
            game = state.game
            names = game.pile_names()
            legal = set(state.legal_moves)
            with spoken_piles():
                said = [game.explain_illegal(state, Move(source, target))
                        for source in names if state.pile(source) for target in names
                        if target != source and Move(source, target) not in legal]
                said += [game.explain_card(state, name, len(state.pile(name)) - 1)
                         for name in names if state.pile(name)]
                if Move("s", "", 0) not in legal:
                    said.append(game.explain_illegal(state, Move("s", "", 0)))
            for words in said:
                assert not PILE_CODE.search(words) and not NOTATION_RANK.search(words), words
