"""History: playing moves with unlimited undo, redo and restart."""

from __future__ import annotations

import pytest

import kibitz
from kibitz.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, KibitzError
from kibitz.history import History, NothingToUndoError
from kibitz.moves import DEAL, Move


@pytest.fixture
def history() -> History:
    """A fresh Kingsdown Eights #1: r5>f4 or r5>f8 (AD), r3>t5 (4H on 5S), r8>t1 (2S on 3D)."""
    return History.new(kibitz.game("kingsdown-eights"), 1)


def test_new_history(history: History) -> None:
    """A new history is at the opening of its deal, with nothing to undo or redo."""
    assert history.state == kibitz.game("kingsdown-eights").deal(1)
    assert history.start is history.state
    assert history.deal_number == 1
    assert history.game is kibitz.game("kingsdown-eights")
    assert history.moves == ()
    assert not history.can_undo and not history.can_redo


def test_play_moves(history: History) -> None:
    """Playing returns the new state, which equals applying the move to the old one."""
    before = history.state
    after = history.play(Move("r3", "t5"))
    assert after is history.state
    assert after == before.apply(Move("r3", "t5"))
    assert history.moves == (Move("r3", "t5"),)
    assert history.can_undo and not history.can_redo
    history.play(DEAL)
    assert list(history.moves) == [Move("r3", "t5"), DEAL]
    assert history.start == before


def test_play_text_and_shorthands(history: History) -> None:
    """Text is read as a player types it: canonical moves and unambiguous shorthands."""
    history.play("r3>t5")
    history.play("r8>t")
    history.play("r5>f8")
    history.play("d")
    assert history.moves == (Move("r3", "t5"), Move("r8", "t1"), Move("r5", "f8"), DEAL)


def test_bad_text_changes_nothing(history: History) -> None:
    """Malformed, illegal or ambiguous text raises and leaves the history as it was."""
    history.play("r3>t5")
    history.play("deal")
    history.undo()
    state, moves = history.state, history.moves
    for text, error in [("t9>t1", InvalidMoveError), ("r1>f1", IllegalMoveError),
                        ("r5>f", AmbiguousMoveError), ("t1>t2/3", IllegalMoveError)]:
        with pytest.raises(error):
            history.play(text)
        assert history.state is state and history.moves == moves
        assert history.can_redo, "a refused move must not drop the redo line"
    assert history.redo() == state.apply(DEAL)


def test_undo_redo(history: History) -> None:
    """Undo steps back through the same states; redo steps forward to the same states."""
    states = [history.state]
    for move in ("r3>t5", "r8>t1", "r5>f4", "deal"):
        states.append(history.play(move))
    for k in range(4, 0, -1):
        assert history.state is states[k]
        assert history.undo() is states[k - 1]
        assert len(history.moves) == k - 1
    assert not history.can_undo and history.can_redo
    for k in range(1, 5):
        assert history.redo() is states[k]
        assert len(history.moves) == k
    assert not history.can_redo


def test_undo_then_redo_is_identical(history: History) -> None:
    """Undo then redo gives back the very state (same object) and moves."""
    history.play("r3>t5")
    state = history.play("deal")
    moves = history.moves
    history.undo()
    assert history.redo() is state
    assert history.moves == moves


def test_undo_at_start(history: History) -> None:
    """Undo with nothing played says there is nothing to undo."""
    with pytest.raises(NothingToUndoError) as caught:
        history.undo()
    assert "nothing to undo" in str(caught.value)
    history.play("r3>t5")
    history.undo()
    with pytest.raises(NothingToUndoError, match="nothing to undo"):
        history.undo()


def test_redo_at_end(history: History) -> None:
    """Redo at the end says there is nothing to redo."""
    with pytest.raises(NothingToUndoError) as caught:
        history.redo()
    assert "nothing to redo" in str(caught.value)
    history.play("r3>t5")
    with pytest.raises(NothingToUndoError, match="nothing to redo"):
        history.redo()


def test_nothing_to_undo_is_a_kibitz_error() -> None:
    """Callers may catch it with every other kibitz error."""
    assert issubclass(NothingToUndoError, KibitzError)
    assert issubclass(NothingToUndoError, ValueError)


def test_play_after_undo_drops_redo_line(history: History) -> None:
    """A new move after undo forgets the undone moves."""
    history.play("r3>t5")
    history.play("r8>t1")
    history.play("r5>f4")
    history.undo()
    history.undo()
    assert history.can_redo
    history.play("r5>f8")
    assert history.moves == (Move("r3", "t5"), Move("r5", "f8"))
    assert not history.can_redo
    with pytest.raises(NothingToUndoError):
        history.redo()
    history.undo()
    history.undo()
    assert history.redo() == history.start.apply("r3>t5")
    assert history.redo() == history.start.apply("r3>t5").apply("r5>f8")


def test_replaying_the_undone_move(history: History) -> None:
    """Playing again the move that was undone gives an equal state and no redo line."""
    first = history.play("r3>t5")
    history.play("deal")
    history.undo()
    history.undo()
    again = history.play("r3>t5")
    assert again == first
    assert not history.can_redo


def test_restart(history: History) -> None:
    """Restart goes back to the opening; every move stays available to redo."""
    states = [history.play(move) for move in ("r3>t5", "r8>t1", "deal")]
    assert history.restart() is history.start
    assert history.state == kibitz.game("kingsdown-eights").deal(1)
    assert history.moves == ()
    assert not history.can_undo
    for state in states:
        assert history.redo() is state
    assert history.restart() is history.restart()


def test_history_from_a_state() -> None:
    """A history may start from any state; it then has no deal number."""
    state = kibitz.game("duchess").deal(5)
    history = History(state)
    assert history.deal_number is None
    assert history.start is state
    move = state.legal_moves[0]
    history.play(move)
    assert history.moves == (move,)
    assert history.undo() is state


def test_states_are_never_changed(history: History) -> None:
    """Playing, undoing and replaying do not change earlier states."""
    start_text = str(history.state)
    history.play("r3>t5")
    middle_text = str(history.state)
    history.play("deal")
    history.undo()
    history.play("r8>t1")
    assert str(history.start) == start_text
    history.undo()
    assert str(history.state) == middle_text


def test_move_count_and_line_follow_undo_redo_and_a_new_move(history: History) -> None:
    """``move_count`` is ``len(moves)``; ``line`` holds the played moves and then the redo line."""
    history.play("r3>t5")
    history.play("deal")
    played = history.moves
    history.undo()
    assert history.move_count == len(history.moves) == 1
    assert history.line == played
    history.play("r8>t1")
    assert history.line == history.moves and history.move_count == 2
    history.restart()
    assert history.move_count == 0 and history.line[0] == played[0]
