"""The conformance checks of one state against :mod:`conformance.reference`, and the players.

Shared by the conformance suite (``test_conformance.py``, which runs every check at every
step of its play-outs) and the conformance soak (``benchmarks/conformance_soak.py``, which
runs the cheap ones at every move and the others on a sample). A check raises
:class:`AssertionError` when the engine disagrees with the rules.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from kibitz import DEAL, IllegalMoveError, Move, State, parse_move
from kibitz.cards import RANKS
from kibitz.history import History
from kibitz.notation import format_state, layout_of, parse_state, state_from_layout
from kibitz.state import Key

from conformance import reference

ILLEGAL_SAMPLES = 3
"""Reference-illegal candidates tried on the engine at each fully checked state."""


@contextmanager
def raises_illegal_move(move: Move | str) -> Iterator[None]:
    """The block must raise :class:`IllegalMoveError`."""
    try:
        yield
    except IllegalMoveError:
        return
    raise AssertionError(f"{move} was applied although it is illegal")


# -- the checks of one state ------------------------------------------------------------------

def check_cards_conserved(state: State) -> None:
    """Each of the 52 identities appears exactly ``packs`` times."""
    packs = reference.FACTS[state.game.slug].packs
    counts = Counter(reference.identity(card) for pile in state.piles for card in pile)
    assert counts == Counter({identity: packs for identity in range(52)}), "cards not conserved"


def check_layout(state: State) -> None:
    """The layout invariants of a reachable state hold."""
    assert reference.layout_problems(state) == [], f"{state}: {reference.layout_problems(state)}"


def check_moves_allowed(state: State) -> None:
    """No move is generated twice, and the rules allow each one (half of :func:`check_legal_moves`,
    without trying every other move one could name)."""
    legal = state.legal_moves
    assert len(set(legal)) == len(legal), f"duplicate moves in {legal}"
    table = reference.Table.of(state)
    wrong = [move for move in legal if not reference.allows(table, move)]
    assert not wrong, f"{state}\nnot legal by the rules but generated: {sorted(map(str, wrong))}"


def check_legal_moves(state: State, rng: random.Random) -> None:
    """The engine's moves are exactly the reference's, each one applies as the reference says."""
    legal = state.legal_moves
    assert len(set(legal)) == len(legal), f"duplicate moves in {legal}"
    table = reference.Table.of(state)
    expected, illegal = reference.judged_moves(table)
    generated = set(legal)
    assert generated == expected, (
        f"{state}\nnot legal by the rules but generated: {sorted(map(str, generated - expected))}\n"
        f"legal by the rules but not generated: {sorted(map(str, expected - generated))}")
    names = state.game.pile_names()
    text = format_state(state)
    for move in legal:
        assert parse_move(str(move)) == move
        if not move.is_deal:
            assert tuple(names[i] for i in state.game.ends(move)) == (move.source, move.target)
        check_apply(state, move, text)
    for move in rng.sample(illegal, min(ILLEGAL_SAMPLES, len(illegal))):
        if not move.is_deal:
            assert tuple(names[i] for i in state.game.ends(move)) == (move.source, move.target)
        assert not state.is_legal(move)
        with raises_illegal_move(move):
            state.apply(move)
        with raises_illegal_move(move):
            state.apply(str(move))


def check_alike(state: State) -> None:
    """With a group of piles treated as interchangeable, move generation keeps, for each
    movable unit, one move onto an empty pile of the group, and drops only the others."""
    game = state.game
    legal = set(state.legal_moves)
    for group in (frozenset(game.tableau), frozenset(game.reserve), frozenset(game.tableau + game.reserve)):
        kept = game.generate_moves(state, (group,))
        assert len(set(kept)) == len(kept) and set(kept) <= legal
        onto_empty = {move for move in legal
                      if not move.is_deal and game.ends(move)[1] in group and not state.piles[game.ends(move)[1]]}
        assert legal - set(kept) <= onto_empty
        for move in onto_empty:
            unit = (move.source, move.size, move.position)
            assert sum((m.source, m.size, m.position) == unit for m in onto_empty & set(kept)) == 1, (
                f"{state}\n{move}: not one move of its unit kept onto the empty piles of {sorted(group)}")


def check_apply(state: State, move: Move, text: str | None = None) -> State:
    """``apply`` leaves its input alone and gives what the rules say (``text``: the state's
    one-line form, when the caller has it from before any move was applied)."""
    before = (state.piles, state.round, state.base, format_state(state) if text is None else text)
    after = state.apply(move)
    assert (state.piles, state.round, state.base, format_state(state)) == before, f"{move} mutated its input"
    assert after.game is state.game
    assert reference.outcome_of(after) == reference.after(state, move), f"{state}\n{move} gave {after}"
    return after


def check_notation(state: State) -> None:
    """The one-line form and the layout object round-trip; equal states share key and hash."""
    text = format_state(state)
    again = parse_state(text)
    assert again == state and again.key == state.key and hash(again) == hash(state)
    assert format_state(again) == text
    assert str(state) == text
    from_layout = state_from_layout(state.game, layout_of(state))
    assert from_layout == state and from_layout.key == state.key


def check_won_and_over(state: State) -> None:
    """Won means every card on a foundation; over means won or no legal move left."""
    won = state.is_won()
    assert won == reference.is_won(state)
    foundation_cards = sum(len(state.piles[i]) for i in state.game.foundations)
    assert won == (foundation_cards == 52 * reference.FACTS[state.game.slug].packs)
    assert state.is_over() == (won or not state.legal_moves)


CARD_CODE = re.compile(r"\b[A2-9TJQK][CSHD]\b")


def check_view(state: State) -> None:
    """The view shows exactly the cards a player may see, position by position."""
    view = state.view()
    names = [spec.name for spec in state.game.piles]
    assert view.pile_names == tuple(names)
    assert (view.slug, view.ruleset, view.round, view.base) == (
        state.game.slug, state.game.ruleset, state.round, state.base)
    tokens = str(view).split(" ")
    base = "-" if state.base is None else RANKS[state.base]
    assert tokens[:4] == [state.game.slug, state.game.ruleset, f"round={state.round}", f"base={base}"]
    assert len(tokens) == 4 + len(names)
    visible: Counter[str] = Counter()
    for name, pile, shown, field in zip(names, state.piles, view.piles, tokens[4:]):
        label, _, text = field.partition("=")
        assert label == name
        codes = text.split(",") if text else []
        assert len(pile) == len(shown) == len(codes), f"{name}: view has another number of cards"
        for position, card in enumerate(pile):
            if reference.is_hidden(state, name, position):
                assert shown[position] is None, f"{name}#{position} shows a hidden card"
                assert codes[position] == "??", f"{name}#{position} prints a hidden card"
            else:
                assert shown[position] == card, f"{name}#{position} should show {reference.code(card)}"
                assert codes[position] == reference.code(card)
                visible[codes[position]] += 1
    assert Counter(CARD_CODE.findall(str(view))) == visible, "the view's text names a hidden card"


def check_state(state: State, rng: random.Random) -> None:
    """Every per-state property."""
    check_layout(state)
    check_cards_conserved(state)
    check_legal_moves(state, rng)
    check_alike(state)
    check_notation(state)
    check_won_and_over(state)
    check_view(state)


STATE_CHECKS: tuple[Callable[[State], None], ...] = (
    check_layout, check_cards_conserved, check_moves_allowed, check_won_and_over)
"""The cheap checks of one state: what :func:`check_state` checks, but the moves the
engine does not generate, the result of each move, the notations and the view."""


# -- players -----------------------------------------------------------------------------------

def is_progress(move: Move) -> bool:
    """A card played to a foundation from elsewhere."""
    return move.target.startswith("f") and not move.source.startswith("f")


def choose(state: State, rng: random.Random, greedy: bool, seen: set[Key]) -> Move | None:
    """A random legal move; or greedily: a card to a foundation, else a move to a new position
    that allows one, else (at random) a deal or a move to a new position. None when the
    greedy player has nothing new to try."""
    legal = list(state.legal_moves)
    if not greedy:
        return rng.choice(legal)
    progress = [move for move in legal if is_progress(move)]
    if progress:
        return rng.choice(progress)
    fresh = []
    for move in legal:
        if not move.is_deal and not move.source.startswith("f"):
            after = state.apply(move)
            if after.key not in seen:
                fresh.append((move, any(is_progress(m) for m in after.legal_moves)))
    promising = [move for move, opens in fresh if opens]
    if promising:
        return rng.choice(promising)
    if fresh and (DEAL not in legal or rng.random() < 0.7):
        return rng.choice(fresh)[0]
    return DEAL if DEAL in legal else None


def play_and_check_undo(history: History, move: Move) -> State:
    """Play ``move`` in ``history``, then undo and redo it: both give the states back unchanged."""
    state = history.state
    after = history.play(move)
    assert history.undo() == state, f"undoing {move} did not give the state back"
    redone = history.redo()
    assert redone is after and format_state(redone) == format_state(after), f"redoing {move} changed the state"
    return after
