"""The terminal UI: the layout drawing, the safe ``auto`` moves and the play loop."""

from __future__ import annotations

import hashlib
import io
import random
import re
from collections import Counter
from pathlib import Path

import pytest

import kibitz
from kibitz.cards import FACE_DOWN, RANKS, SUITS, format_card, is_red, rank_of
from kibitz.history import History
from kibitz.notation import parse_state
from kibitz.piles import PileKind
from kibitz.state import State
from kibitz.autoplay import autoplay, safe_move
from kibitz.tui import PlaySession, ScriptedInput, choose_game, colour_wanted, draw
from kibitz.tui.drawing import BACK

from conftest import GAME_SLUGS

CARD = re.compile(r"(?<![\w#])([A2-9TJQK][CSHD])(?![\w])")
MOVE = re.compile(r"(?<!\S)(deal|[swftr]\d?(?:#\d+)?>[ftr]\d(?:/\d+)?)(?=[\s(]|$)")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


# -- helpers --------------------------------------------------------------------

def up(suit: str, top: str) -> str:
    """The cards of an up foundation from the ace to ``top``: ``up("C", "3")`` is ``AC 2C 3C``."""
    return " ".join(rank + suit for rank in RANKS[:RANKS.index(top) + 1])


def down(suit: str, bottom: str) -> str:
    """The cards of a down foundation from the king to ``bottom``."""
    return " ".join(rank + suit for rank in reversed(RANKS[RANKS.index(bottom):]))


def build(slug: str, ruleset: str = "standard", *, round: int = 1, base: str = "-",
          **piles: str) -> State:
    """A position of ``slug`` with the given piles (cards bottom to top, space-separated).

    Every card not placed goes to the stock, face down, unless ``s`` is given.
    """
    game = kibitz.game(slug, ruleset)
    placed = Counter(code.upper() for text in piles.values() for code in text.split())
    if "s" not in piles:
        pack = Counter(format_card(c) for c in range(52) for _ in range(game.info.packs))
        piles["s"] = " ".join(code.lower() for code in sorted((pack - placed).elements()))
    fields = [slug, ruleset, f"round={round}", f"base={base}"]
    fields += [f"{name}={','.join(piles.get(name, '').split())}" for name in game.pile_names()]
    return parse_state(" ".join(fields))


def session_for(state: State, deal_number: int | None = None, *, colour: bool = False
                ) -> tuple[PlaySession, io.StringIO]:
    output = io.StringIO()
    return PlaySession(History(state, deal_number), output, colour=colour), output


def run_lines(session: PlaySession, output: io.StringIO, *lines: str) -> str:
    """Feed lines to the session; return what it wrote for them."""
    start = output.tell()
    for line in lines:
        if not session.handle(line):
            break
    return output.getvalue()[start:]


def random_positions(game: kibitz.Game, seed: int, steps: int = 60) -> list[State]:
    """The positions of a random play-out (preferring card moves to deals)."""
    rng = random.Random(seed)
    state = game.deal(seed)
    positions = [state]
    for _ in range(steps):
        moves = state.legal_moves
        if not moves:
            break
        cards = [m for m in moves if not m.is_deal]
        state = state.apply(rng.choice(cards) if cards and rng.random() < 0.85 else rng.choice(moves))
        positions.append(state)
    return positions


def expected_visible(state: State) -> Counter[str]:
    """The cards a drawing must show: every visible card, of foundations only the top."""
    view = state.view()
    shown: Counter[str] = Counter()
    for spec, pile in zip(state.game.piles, view.piles):
        cards = pile[-1:] if spec.kind is PileKind.FOUNDATION else pile
        shown.update(format_card(c) for c in cards if c is not None)
    return shown


# -- drawing --------------------------------------------------------------------

@pytest.mark.parametrize("slug", GAME_SLUGS)
@pytest.mark.parametrize("ruleset", kibitz.RULESETS)
def test_drawing_shows_exactly_the_visible_cards(slug: str, ruleset: str) -> None:
    game = kibitz.game(slug, ruleset)
    for seed in (1, 2, 40000):
        for state in random_positions(game, seed):
            text = draw(state, deal_number=seed, moves_played=3)
            assert Counter(CARD.findall(text)) == expected_visible(state), format_card
            for name in game.pile_names():
                if name != "s":
                    assert re.search(rf"(?<!\w){name} ", text), f"pile {name} has no label"


def test_grand_duchess_opening_hides_the_reserve() -> None:
    state = kibitz.game("grand-duchess").deal(1)
    assert state.cards("r1") == [kibitz.parse_card("3D")]  # face down under the drawing
    text = draw(state, deal_number=1)
    lines = {line.split()[-2]: line.split()[-1] for line in text.splitlines()
             if re.search(r"\br[12] ", line)}
    assert lines == {"r1": BACK, "r2": BACK}
    assert "3D" not in text
    assert [line.split()[-1] for line in text.splitlines() if re.search(r"\bt[1-4] ", line)] == [
        "5H", "JC", "KH", "5S"]
    assert "98 cards" in text and "deal #1" in text and "round 1 of 4" in text


def test_squared_piles_show_the_top_and_a_count() -> None:
    state = kibitz.game("napoleons-flank").deal(1)
    text = draw(state)
    top = format_card(state.pile("t1")[-1])
    assert re.search(rf"\bt1 {top}  \(4 cards\)", text)
    assert sum(1 for line in text.splitlines() if re.search(r"\bt\d ", line)) == 6


def test_duchess_shows_the_base_rank_and_waste() -> None:
    state = kibitz.game("duchess").deal(1)
    assert "base rank not chosen" in draw(state)
    state = state.apply("r1>f4").apply("deal")
    text = draw(state)
    assert "base rank K" in text
    assert re.search(rf"\bw  {format_card(state.pile('w')[-1])}  \(1 card\)", text)
    assert "35 cards" in text


def test_colour_only_when_asked() -> None:
    state = kibitz.game("grand-duchess").deal(1)
    plain = draw(state)
    coloured = draw(state, colour=True)
    assert "\x1b[" not in plain
    assert "\x1b[31m5H\x1b[0m" in coloured and "\x1b[31mKH\x1b[0m" in coloured
    assert "\x1b[31mJC" not in coloured
    assert ANSI.sub("", coloured) == plain


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_wanted() -> None:
    assert colour_wanted(Terminal(), environ={})
    assert not colour_wanted(io.StringIO(), environ={})
    assert not colour_wanted(Terminal(), no_color=True, environ={})
    assert not colour_wanted(Terminal(), environ={"NO_COLOR": "1"})
    assert colour_wanted(Terminal(), environ={"NO_COLOR": ""})


# -- auto -------------------------------------------------------------------------

def test_auto_up_and_down_plays_only_cards_whose_twin_is_up() -> None:
    state = build("grand-duchess", f1=up("C", "5"), f5=down("C", "6"), f3=up("H", "4"),
                  t1="9D 6C", t2="5H", t3="7C", t4="4C")
    assert kibitz.Move.parse("t2>f3") in state.legal_moves  # 5H could go up, but not safely
    session, output = session_for(state)
    text = run_lines(session, output, "auto")
    assert [str(m) for m in session.history.moves] == ["t1>f1", "t3>f1"]
    assert "auto played 2 moves: t1>f1, t3>f1" in text
    after = session.state
    assert after.cards("t2") == [kibitz.parse_card("5H")]
    assert after.cards("t4") == [kibitz.parse_card("4C")]  # f5 wants 5C first
    assert after.pile("s") == state.pile("s")
    assert "no card can safely go" in run_lines(session, output, "auto")


def test_auto_takes_cells_but_leaves_cards_the_other_direction_wants() -> None:
    state = build("tournament", f1=up("C", "5"), f5=down("C", "6"), f2=up("S", "5"),
                  r1="6C", r2="6S", r3="KD", t1="2H 3H 4H 5H")
    assert {"r1>f1", "r2>f2", "r3>f8"} <= {str(m) for m in state.legal_moves}
    history = History(state)
    assert [str(m) for m in autoplay(history)] == ["r1>f1"]  # 6S and KD may still go either way


def test_auto_duchess_waits_for_both_lower_cards_of_the_other_colour() -> None:
    state = build("duchess", base="A", f1=up("C", "3"), f2=up("S", "3"), f3=up("H", "2"),
                  f4=up("D", "2"), t1="4C", t2="3H", t3="3D 9S")
    assert {"t1>f1", "t2>f3"} <= {str(m) for m in state.legal_moves}
    history = History(state)
    assert [str(m) for m in autoplay(history)] == ["t2>f3"]  # 4C still needed by 3D
    assert history.state.cards("t1") == [kibitz.parse_card("4C")]


def test_auto_duchess_never_chooses_the_base() -> None:
    state = kibitz.game("duchess").deal(1)
    assert state.legal_moves and all(m.target.startswith("f") for m in state.legal_moves)
    assert safe_move(state) is None


def test_auto_kingsdown_needs_every_lower_card_up() -> None:
    two = {f"f{k}": up(suit, "2") for k, suit in zip(range(1, 9), SUITS * 2)}
    state = build("kingsdown-eights", t1="3C", t2="4C", t3="3S", t4="KD", **two)
    history = History(state)
    played = autoplay(history)
    assert sorted(m.source for m in played) == ["t1", "t3"]
    assert history.state.cards("t2") == [kibitz.parse_card("4C")]
    assert any(m.source == "t2" for m in history.state.legal_moves)


def test_finish_plays_a_certain_end_and_waits_otherwise() -> None:
    home = {f"f{k + 1}": up(suit, "K") for k, suit in enumerate(SUITS)}
    home |= {f"f{k + 5}": down(suit, "A") for k, suit in enumerate(SUITS)}
    home["f5"] = down("C", "3")
    session, output = session_for(build("tournament", round=3, s="", t1="AC 2C", **home))
    said = run_lines(session, output, "finish")
    assert "finish played 2 moves." in said and "You won" in said
    assert session.history.moves == (kibitz.Move.parse("t1>f5"), kibitz.Move.parse("t1>f5"))
    assert "already won" in run_lines(session, output, "finish")
    session, output = session_for(kibitz.game("grand-duchess").deal(1))
    assert "the end is not certain yet" in run_lines(session, output, "finish")
    assert session.history.move_count == 0


def oracle_is_safe(before: State, after: State, card: int) -> bool:
    """An independent statement of the safety rule, checked on the position after the move."""
    game = before.game
    on = Counter(c & 63 for i in game.foundations for c in after.piles[i])
    if game.slug == "duchess":
        below = (rank_of(card) - 1) % 13
        return before.base is not None and all(
            on[s * 13 + below] == 1 for s in range(4) if is_red(s * 13) != is_red(card))
    if game.slug == "kingsdown-eights":
        return all(on[s * 13 + r] == 2 for s in range(4) for r in range(rank_of(card)))
    return on[card] == 2  # both copies up now


@pytest.mark.parametrize("slug", GAME_SLUGS)
@pytest.mark.parametrize("ruleset", kibitz.RULESETS)
def test_auto_only_moves_safe_cards_to_foundations(slug: str, ruleset: str) -> None:
    game = kibitz.game(slug, ruleset)
    moved = 0
    for seed in range(1, 9):
        for state in random_positions(game, seed, steps=150)[::10]:
            history = History(state)
            played = autoplay(history)
            position = state
            for move in played:
                assert move.target.startswith("f") and move.source[0] in "trw", move
                source = position.pile(move.source)
                card = source[move.position if move.position is not None else -1] & ~FACE_DOWN
                after = position.apply(move)
                assert oracle_is_safe(position, after, card), (str(position), str(move))
                position = after
            moved += len(played)
            final = history.state
            assert final.pile("s") == state.pile("s") and final.round == state.round
            on = sum(len(final.piles[i]) - len(state.piles[i]) for i in game.foundations)
            assert on == len(played)
            assert safe_move(final) is None
    if slug in ("grand-duchess", "parisienne", "kingsdown-eights"):
        assert moved > 0  # the random play-outs reach positions where auto has work


# -- the play loop ----------------------------------------------------------------

def test_moves_undo_and_redo() -> None:
    game = kibitz.game("grand-duchess")
    session, output = session_for(game.deal(1), 1)
    opening = session.state
    text = run_lines(session, output, "moves")
    assert set(MOVE.findall(text)) == {str(m) for m in opening.legal_moves} == {"t3>f7", "deal"}
    text = run_lines(session, output, "t3>f7")
    after = session.state
    assert after == opening.apply("t3>f7") and "1 move" in text
    assert after.cards("f7") == [kibitz.parse_card("KH")]
    run_lines(session, output, "deal")
    dealt = session.state
    assert dealt.round == 1 and len(dealt.pile("s")) == 92
    run_lines(session, output, "undo")
    assert session.state == after
    run_lines(session, output, "undo")
    assert session.state == opening
    assert "nothing to undo" in run_lines(session, output, "undo")
    run_lines(session, output, "redo 2")
    assert session.state == dealt
    assert "nothing to redo" in run_lines(session, output, "redo")
    run_lines(session, output, "restart")
    assert session.state == opening and session.history.can_redo


def test_shorthands_and_bad_input_keep_the_game_going() -> None:
    session, output = session_for(kibitz.game("grand-duchess").deal(1), 1)
    opening = session.state
    for bad, message in [("t9>f1", "not a move"),
                         ("t1>f1", "The 5♥ can't go to the foundation f1: it builds up in clubs"),
                         ("hello", "help"), ("undo x", "not a number"),
                         ("t1", "The 5♥ can't go to the foundation f3"),
                         ("save", "give a file name"), ("new 0", "deal numbers start at 1"),
                         ("load /nonexistent/file", "cannot read")]:
        text = run_lines(session, output, bad)
        assert message in text, (bad, text)
        assert len(text.strip().splitlines()) == 1, text
        assert session.state == opening
    run_lines(session, output, "t3")  # the one legal move of KH
    assert session.history.moves == (kibitz.Move.parse("t3>f7"),)
    run_lines(session, output, "d")
    assert session.history.moves[-1].is_deal


def test_moves_by_card_name() -> None:
    # A face-up reserve (as once the stock ran out): any of its cards may move.
    state = build("grand-duchess", round=2, f2=up("S", "5"), f6=down("S", "7"), r1="6S 9D 6S")
    legal = {str(m) for m in state.legal_moves}
    assert {"r1#0>f2", "r1>f2", "r1#0>f6", "r1>f6"} <= legal
    session, output = session_for(state)
    assert "more than one move" in run_lines(session, output, "6S")
    assert "more than one move" in run_lines(session, output, "6s>f")
    assert "9D cannot move" in run_lines(session, output, "9d")
    assert "QH cannot move to f3" in run_lines(session, output, "QH>f3")
    assert session.state == state
    run_lines(session, output, "6S>f2")
    assert session.history.moves == (kibitz.Move.parse("r1>f2"),)  # the copy nearest the top
    run_lines(session, output, "6S")  # now only f6 takes it
    assert session.history.moves[-1] == kibitz.Move.parse("r1#0>f6")
    assert session.state.cards("r1") == [kibitz.parse_card("9D")]


def test_naming_a_card_never_probes_the_hidden_stock() -> None:
    # Duchess, reserve and waste empty: the (face-down) stock top may fill the space t1.
    state = build("duchess", base="A", f1=up("C", "3"), t2="9H")
    hidden = format_card(state.pile("s")[-1] & 63)
    assert "s>t1" in {str(m) for m in state.legal_moves}
    session, output = session_for(state)
    assert f"{hidden} cannot move" in run_lines(session, output, hidden)
    assert session.state == state


@pytest.mark.parametrize("slug", ["napoleons-flank", "kingsdown-eights", "duchess", "grand-duchess"])
def test_messages_never_name_a_hidden_card(slug: str) -> None:
    game = kibitz.game(slug)
    for state in random_positions(game, 11, steps=40)[::8]:
        visible = {format_card(c) for pile in state.view().piles for c in pile if c is not None}
        session, output = session_for(state)
        for source in game.pile_names():
            for k in range(len(state.pile(source))):
                for text in (f"{source}#{k}>f1", f"{source}>t1/{k + 1}", f"{source}#{k}>r1"):
                    if text.split(">")[1].split("/")[0] == source or kibitz.Move.parse(text) in state.legal_moves:
                        continue
                    said = run_lines(session, output, text).replace("(6S, 6S>f2)", "")
                    assert set(CARD.findall(said)) <= visible, (text, said)
                    assert session.state == state


def test_cards_under_the_waste_stay_hidden() -> None:
    state = kibitz.game("duchess").deal(1).apply("r1>f4").apply("deal").apply("deal").apply("deal")
    under = format_card(state.pile("w")[0])
    assert state.view().pile("w")[0] is None and under not in draw(state)
    session, output = session_for(state)
    said = run_lines(session, output, "w#0>t1")
    assert "cannot be seen" in said and under not in said


def test_moves_lists_every_legal_move_midgame() -> None:
    game = kibitz.game("tournament", "pysolfc")
    state = random_positions(game, 3, steps=25)[-1]
    session, output = session_for(state)
    text = run_lines(session, output, "moves")
    assert sorted(MOVE.findall(text)) == sorted(str(m) for m in state.legal_moves)
    assert f"Legal moves ({len(state.legal_moves)})" in text


def test_save_replay_load_and_tampering(tmp_path: Path) -> None:
    from kibitz.cli import main
    session, output = session_for(kibitz.game("duchess").deal(1), 1)
    run_lines(session, output, "r1>f4", "deal", "deal", "moves")
    saved_state = session.state
    path = tmp_path / "game.kibitz"
    text = run_lines(session, output, f"save {path}")
    assert "Saved 3 moves" in text and path.exists()

    fresh, fresh_output = session_for(kibitz.game("grand-duchess").deal(5), 5)
    text = run_lines(fresh, fresh_output, f"load {path}")
    assert "Loaded" in text and fresh.state == saved_state and fresh.history.deal_number == 1
    run_lines(fresh, fresh_output, "undo 3")
    assert fresh.state == kibitz.game("duchess").deal(1)

    tampered = tmp_path / "tampered.kibitz"
    tampered.write_text(path.read_text().replace("r1>f4", "r2>f1"))
    text = run_lines(fresh, fresh_output, f"load {tampered}")
    assert text.startswith("load:") and "checksum" in text
    assert fresh.state == kibitz.game("duchess").deal(1)


def test_saving_a_constructed_position_explains_why_not(tmp_path: Path) -> None:
    session, output = session_for(build("grand-duchess", t1="5H"))
    text = run_lines(session, output, f"save {tmp_path / 'x.kibitz'}")
    assert "deal number" in text and not (tmp_path / "x.kibitz").exists()
    text = run_lines(session, output, f"save {tmp_path / 'missing' / 'x.kibitz'}")
    assert text.startswith("save:")


def grand_duchess_endgame(**clubs: str) -> State:
    """Round 4 with an empty stock; every suit but clubs is complete, clubs as given."""
    piles = {f"f{k}": up(suit, "K") for k, suit in zip(range(2, 5), SUITS[1:])}
    piles |= {f"f{k}": down(suit, "A") for k, suit in zip(range(6, 9), SUITS[1:])}
    return build("grand-duchess", round=4, s="", **piles, **clubs)


def nearly_won_grand_duchess() -> State:
    """Three clubs left: QC on KC, and AC."""
    return grand_duchess_endgame(f1=up("C", "J"), f5=down("C", "2"), t1="KC QC", t2="AC")


def winning_line(state: State, depth: int) -> list[kibitz.Move] | None:
    """A shortest winning line of at most ``depth`` moves (iterative deepening)."""
    def search(position: State, left: int) -> list[kibitz.Move] | None:
        if position.is_won():
            return []
        if left == 0:
            return None
        for move in position.legal_moves:
            rest = search(position.apply(move), left - 1)
            if rest is not None:
                return [move, *rest]
        return None
    for limit in range(depth + 1):
        line = search(state, limit)
        if line is not None:
            return line
    return None


def test_a_won_game_is_announced() -> None:
    state = nearly_won_grand_duchess()
    line = winning_line(state, 4)
    assert line is not None and len(line) == 3
    session, output = session_for(state, 7)
    text = run_lines(session, output, *(str(m) for m in line))
    assert text.count("You won") == 1 and "You won deal #7 in 3 moves" in text
    assert session.state.is_won()


def test_auto_can_finish_a_game() -> None:
    session, output = session_for(nearly_won_grand_duchess(), 7)
    text = run_lines(session, output, "auto")
    assert "You won deal #7 in 3 moves" in text


def test_a_lost_game_is_announced_and_undo_still_works() -> None:
    # KC lies on QC: once AC completes the down foundation, nothing can move.
    state = grand_duchess_endgame(f1=up("C", "J"), f5=down("C", "2"), t1="QC KC", t2="AC")
    assert [str(m) for m in state.legal_moves] == ["t2>f5"]
    session, output = session_for(state, 9)
    text = run_lines(session, output, "t2>f5")
    assert "No moves left: game over" in text and "You won" not in text
    assert "No legal moves" in run_lines(session, output, "moves")
    run_lines(session, output, "undo")
    assert session.state == state and not session.state.is_over()


def test_new_deal_and_restart() -> None:
    session, output = session_for(kibitz.game("cicely").deal(1), 1)
    text = run_lines(session, output, "new 42")
    assert session.state == kibitz.game("cicely").deal(42) and session.history.deal_number == 42
    assert "deal #42" in text and "kibitz play cicely --deal 42" in text
    run_lines(session, output, "new")
    number = session.history.deal_number
    assert number is not None and session.state == kibitz.game("cicely").deal(number)


def test_help_and_quit() -> None:
    session, output = session_for(kibitz.game("duchess").deal(3), 3)
    assert "undo" in run_lines(session, output, "help") and "safe" in run_lines(session, output, "help auto")
    assert session.handle("quit") is False
    assert "kibitz play duchess --deal 3" in output.getvalue()


def test_run_ends_cleanly_on_end_of_input_and_ctrl_c() -> None:
    output = io.StringIO()
    session = PlaySession(History.new(kibitz.game("duchess"), 3), output)
    assert session.run(ScriptedInput(["r1>f4", "moves"], echo=output)) == 0
    assert "> r1>f4" in output.getvalue() and "Goodbye" in output.getvalue()
    assert len(session.history.moves) == 1

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt
    output = io.StringIO()
    session = PlaySession(History.new(kibitz.game("duchess"), 3), output)
    assert session.run(interrupted) == 130
    assert "Goodbye" in output.getvalue()


def test_colour_in_the_loop_only_when_asked() -> None:
    session, output = session_for(kibitz.game("grand-duchess").deal(1), 1, colour=True)
    session.introduce()
    assert "\x1b[31m" in output.getvalue()
    plain, plain_output = session_for(kibitz.game("grand-duchess").deal(1), 1)
    plain.introduce()
    assert "\x1b" not in plain_output.getvalue()


@pytest.mark.parametrize("answers,slug", [(["3"], "duchess"), (["Glenwood"], "duchess"),
                                          (["", "9", "nope", "napoleon's flank"], "napoleons-flank")])
def test_choose_game(answers: list[str], slug: str) -> None:
    output = io.StringIO()
    info = choose_game(ScriptedInput(answers, echo=output), output)
    assert info is not None and info.slug == slug
    text = output.getvalue()
    assert all(f"{k}. {i.name}" in text for k, i in enumerate(kibitz.games(), 1))
    if "nope" in answers:
        assert "There is no game 9" in text and "unknown game 'nope'" in text


def test_choose_game_can_be_left() -> None:
    assert choose_game(ScriptedInput(["q"]), io.StringIO()) is None
    assert choose_game(ScriptedInput([]), io.StringIO()) is None


# -- hostile input: every line ends in a message, never a traceback or raw controls ------

ESCAPES = "\x1b]0;TITLE\x07\x1b[2J\u202e"
"""Sets the window title, clears the screen, reverses what follows."""


def plain_session(deal: int = 1) -> tuple[PlaySession, io.StringIO]:
    """A Cicely session at deal ``deal`` after one move, drawn without colour."""
    session, output = session_for(kibitz.game("cicely").deal(deal), deal)
    run_lines(session, output, "r1>t3")
    return session, output


@pytest.mark.parametrize("command", ["undo", "redo", "u"])
def test_a_count_of_thousands_of_digits(command: str) -> None:
    """``undo 999...9`` (5000 digits) raised ValueError (Python's digit limit): now a message."""
    session, output = plain_session()
    for count in ("9" * 5000, "9" * 900, "-1", "\uff11"):
        text = run_lines(session, output, f"{command} {count}")
        assert len(text.splitlines()) == 1 and len(text) < 200, text[:200]
    assert session.history.move_count == 1
    start = output.tell()
    assert session.undo("9" * 5000) is True  # the command itself bounds the number it converts
    assert output.getvalue()[start:].startswith("undo: '99999")
    assert "is not a number of moves from 1 to 1,000,000" in output.getvalue()[start:]
    text = run_lines(session, output, f"{command} " + "0" * 900 + "1")  # leading zeros: 1
    if command == "redo":
        assert text == "nothing to redo\n"
    else:
        assert session.history.move_count == 0


@pytest.mark.parametrize("command", ["save", "load"])
def test_a_file_name_with_nul(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    """``save a<NUL>b`` and ``load a<NUL>b`` raised ValueError (embedded null byte)."""
    monkeypatch.chdir(tmp_path)
    session, output = plain_session()
    for name in ("a\0b", "'a\0b'", "~a\0b/c"):
        text = run_lines(session, output, f"{command} {name}")
        assert text.startswith(f"{command}: ") and "NUL" in text and "\0" not in text, text
    assert list(tmp_path.iterdir()) == [] and session.history.move_count == 1


def test_save_under_an_unknown_users_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``save ~nosuchuser/game`` raised RuntimeError from Path.expanduser: now the name stays as
    typed, and the missing folder is said."""
    monkeypatch.chdir(tmp_path)
    session, output = plain_session()
    text = run_lines(session, output, "save ~kibitz-no-such-user-2/game.kibitz")
    assert text.startswith("save: cannot write ~kibitz-no-such-user-2/game.kibitz"), text
    text = run_lines(session, output, "load ~kibitz-no-such-user-2/game.kibitz")
    assert text.startswith("load: ~kibitz-no-such-user-2/game.kibitz: cannot read"), text


def test_choose_game_with_a_number_of_thousands_of_digits() -> None:
    """A game number of 5000 digits raised ValueError in choose_game."""
    output = io.StringIO()
    info = choose_game(ScriptedInput(["9" * 5000, "x" * 5000, "0" * 5000 + "3"]), output)
    assert info is kibitz.games()[2]
    text = output.getvalue()
    assert "There is no game 99999999999999999999... (5,000 digits)" in text
    assert "No game has a name of 5,000 characters" in text and len(text) < 2000


def test_record_content_and_file_names_are_shown_escaped(tmp_path: Path) -> None:
    """A record's rules-version with escape sequences, and file names with them, were written
    raw to the terminal by ``load`` and ``save``."""
    session, output = plain_session()
    path = tmp_path / f"game{ESCAPES}.kibitz"
    text = run_lines(session, output, f"save {path}")
    assert path.exists() and "Saved 1 move to" in text
    text = run_lines(session, output, f"load {path}")
    assert "Loaded" in text and "game\\x1b]0;TITLE\\x07\\x1b[2J\\u202e.kibitz" in text
    lines = path.read_text().split("\n")[:-2]
    lines[3] = f"rules-version: {ESCAPES}"
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    path.write_text("\n".join(lines + [f"end: sha256 {digest}"]) + "\n")
    text = run_lines(session, output, f"load {path}", f"save {tmp_path / 'none' / ESCAPES}",
                     f"load {tmp_path / ESCAPES}", f"{ESCAPES}", f"undo {ESCAPES}", f"new {ESCAPES}")
    assert "rules version \\x1b]0;TITLE" in text and text.count("\n") == 6
    assert "\x1b" not in output.getvalue() and "\u202e" not in output.getvalue()


def test_a_very_long_line_is_refused_in_one_short_line() -> None:
    """A line of 100,000 characters gets a one-line answer, not the line quoted back."""
    session, output = plain_session()
    for line in ("x" * 100_000, "save " + "y" * 100_000, "t1>t2/" + "9" * 5000):
        text = run_lines(session, output, line)
        assert len(text.splitlines()) == 1 and len(text) < 200, text[:200]
    assert session.history.move_count == 1


def test_load_of_an_endless_device(tmp_path: Path) -> None:
    """``load /dev/zero`` read until memory ran out: it stops at the size limit."""
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    session, output = plain_session()
    text = run_lines(session, output, "load /dev/zero", f"load {tmp_path}")
    assert text.startswith("load: /dev/zero: larger than a record can be (more than 10,000,000 bytes)")
    assert "cannot read" in text.splitlines()[1]
    assert session.history.move_count == 1


def test_scripted_input_echoes_controls_escaped() -> None:
    """A piped line is echoed as a terminal would show it: its controls visible, not acted on."""
    output = io.StringIO()
    assert ScriptedInput([ESCAPES], echo=output)("> ") == ESCAPES
    assert output.getvalue() == "> \\x1b]0;TITLE\\x07\\x1b[2J\\u202e\n"
