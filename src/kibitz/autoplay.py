"""Automatic moves to the foundations, shared by the players: ``auto`` plays every card that
can safely go there, and :func:`finishing_moves` the whole end of a game once it is certain.

See :data:`SAFE_RULE` for what "safe" means; it is conservative, so that an
automatic move can never spoil the game. Whether a game's foundations go up and down,
start from a base rank or only go up is read from its foundation declarations.
"""

from __future__ import annotations

from kibitz.cards import IDENTITY, Card, is_red, rank_of
from kibitz.history import History
from kibitz.moves import Move
from kibitz.piles import PileKind
from kibitz.state import State

SAFE_RULE = """\
auto plays cards to the foundations while one can safely go; a card is safe
only when no other pile could ever want it. It takes cards from the tableau,
the reserve and the waste only, one at a time, and never does anything else
(no building, no cells or spaces, no deal).
  - up and down foundations (Grand Duchess, Parisienne, Tournament, Napoleon's
    Flank, Cicely): a card is safe once the other copy of it is already on a
    foundation, so that it has exactly one place left to go;
  - Duchess: never before the base rank is chosen; then a card is safe when
    both cards of the other colour one step lower in the foundation order (the
    cards that could be built on it) are already on the foundations;
  - Kingsdown Eights, where foundation cards may come back: a card is safe only
    when every card of lower rank is already on the foundations (aces always).
Safety is about where the card itself may be needed; auto does not try to
foresee how later deals, refills or redeals will fall."""

AUTO_SOURCES = (PileKind.TABLEAU, PileKind.RESERVE, PileKind.WASTE)
"""Piles that auto takes cards from."""


def moving_card(state: State, move: Move) -> Card:
    """The identity of the (bottom) card a move carries."""
    pile = state.pile(move.source)
    card = pile[move.position] if move.position is not None else pile[-move.size]
    return card & IDENTITY


def foundation_cards(state: State) -> list[Card]:
    """The identities of every card on the foundations."""
    game = state.game
    return [c & IDENTITY for i in game.foundations for c in state.piles[i]]


def is_safe(state: State, move: Move) -> bool:
    """True when ``move`` (legal in ``state``) is a safe move of one card to a foundation."""
    game = state.game
    if move.is_deal or move.size != 1:
        return False
    if game.kinds[game.pile_index(move.target)] is not PileKind.FOUNDATION:
        return False
    if game.kinds[game.pile_index(move.source)] not in AUTO_SOURCES:
        return False
    card = moving_card(state, move)
    foundations = [spec.foundation for spec in game.piles if spec.foundation is not None]
    on_foundations = foundation_cards(state)
    packs = game.info.packs
    if any(f.step < 0 for f in foundations):
        # Up and down: the other copies are already up, so this one has one place to go.
        return on_foundations.count(card) >= packs - 1
    if any(f.first is None for f in foundations):
        # Built from a base rank, ace after king; the tableau builds down in alternate colours.
        if state.base is None:
            return False
        below = (rank_of(card) - 1) % 13
        builders = [suit * 13 + below for suit in range(4) if is_red(suit * 13) != is_red(card)]
        return all(on_foundations.count(c) == packs for c in builders)
    # Up from the ace, and foundation cards may return: every lower card must be up already.
    rank = rank_of(card)
    return sum(1 for c in on_foundations if rank_of(c) < rank) == 4 * packs * rank


def safe_move(state: State) -> Move | None:
    """The first legal safe move to a foundation in ``state``, or ``None``."""
    for move in state.legal_moves:
        if is_safe(state, move):
            return move
    return None


def autoplay(history: History) -> list[Move]:
    """Play safe moves to the foundations until none is left; return the moves played."""
    played: list[Move] = []
    limit = history.game.total_cards
    while len(played) < limit:
        move = safe_move(history.state)
        if move is None:
            break
        history.play(move)
        played.append(move)
    return played



def finishing_moves(state: State) -> tuple[Move, ...] | None:
    """The moves that finish the game when its end is certain, else ``None``.

    The end is certain when the player sees every card (nothing face down, no squared pile
    hiding cards, hence an empty stock) and playing only cards to the foundations, one at a
    time from the other piles, in the order a simple greedy loop finds them, wins. It reads
    the view first, so it never acts on a card the player cannot see; and as each move puts
    one more card on the foundations, the loop makes at most as many moves as there are cards.
    """
    view = state.view()
    if any(card is None for pile in view.piles for card in pile):
        return None
    game = state.game
    moves: list[Move] = []
    while not state.is_won():
        move = next((m for m in state.legal_moves if not m.is_deal and m.size == 1
                     and game.kinds[game.pile_index(m.target)] is PileKind.FOUNDATION
                     and game.kinds[game.pile_index(m.source)] is not PileKind.FOUNDATION), None)
        if move is None or len(moves) >= game.total_cards:
            return None
        moves.append(move)
        state = game.apply_unchecked(state, move)
    return tuple(moves)
