"""The full-screen table's assists, dialogs and pages: hint, chance, finish, new deal, help, rules."""

from __future__ import annotations


import kibitz
from kibitz.autoplay import finishing_moves
from kibitz.history import History
from kibitz.tui.screen.app import TableApp
from kibitz.tui.screen.dialogs import DealChoice, NewDealScreen, Question, new_game
from kibitz.tui.screen.screens import HelpScreen, RulesScreen, rules_text
from textual.pilot import Pilot
from textual.widgets import Input, Markdown, Static

from .pilot import Scenario, drive
from .pilot import status as status_line

NEAR_THE_END = (
    "r1>f4 r2>f1 t1>f4 t3>f3 r2>t1 r2>f4 r1>t3 r1>t2 deal w>t4 deal w>f2 deal deal deal deal w>f2 t4>f2 deal w>f3 "
    "deal deal w>t3 t4>t3 r3>t4 deal deal w>t2 deal deal deal w>f1 deal deal deal w>f2 deal deal w>f2 r4>f2 deal "
    "deal w>t4 r3>t4 r3>t2 deal w>f1 deal deal deal w>t4 deal w>t2 w>t2 deal deal deal w>t1 r4>t1 deal w>f4 deal "
    "deal deal w>f2 deal deal w>f3 t3>f3 deal deal deal deal deal deal w>f1 t3>f1 deal w>f1 deal deal w>f3 t1>f3 "
    "t1>f1 deal w>f4 t3>f4 t4>f4 t2>f4 t4>f1 r4>t3 t1>t2 w>t1 w>t1 deal w>f2 deal w>t1 t4>t1/2 w>t4 t3>t4 w>t3 "
    "deal w>t4 deal deal w>f4 t3>f4 t1>t4/2 t1>f4 w>t3 t2>t3/4 t2>f4 t3>t2/5 s>t3 deal w>f1 deal deal w>f1 w>f1 "
    "t4>t1/3 t4>f1 t4>f4 t2>t3/5 t2>f1 s>t2").split()
"""A winning line of Duchess deal 1 (the solver's), up to where only moves to the foundations remain."""


def run(scenario: Scenario, history: History | None = None, size: tuple[int, int] = (120, 40)) -> TableApp:
    """Run ``scenario`` on ``history`` (Duchess deal 3 by default) and return the app."""
    app = TableApp(history or History.new(kibitz.game("duchess"), 3))

    return drive(app, scenario, size)


def status(app: TableApp) -> str:
    return " ".join(status_line(app).split())


async def answered(app: TableApp, pilot: Pilot[None]) -> None:
    """Wait for the searches under way, then for the screen to show their answers."""
    await app.workers.wait_for_complete()
    await pilot.pause()


def test_hint_marks_a_move_and_plays_nothing() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("h")
        await answered(app, pilot)
        hint = app.table.hint
        assert hint is not None and hint in app.history.state.legal_moves
        assert app.history.move_count == 0
        assert status(app).startswith("Duchess · #3 · 0 moves · round 1 of 2 │ Hint: the ")
        assert "seeing only what you see" in status(app)
        await pilot.press("right")   # the cursor moves: the hint stays
        assert app.table.hint == hint
        await pilot.press("colon", *"r3>f4", "enter")   # the position changes: the hint goes
        assert app.history.move_count == 1 and app.table.hint is None
        await pilot.press("u")
        assert app.table.hint == hint   # back where it was asked, it is shown again

    run(scenario)


def test_a_hint_for_a_position_left_is_not_shown() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        history = app.history
        found = kibitz.game("duchess").deal(3).legal_moves[0]
        history.play("r3>f4")
        from kibitz.analysis import Hint
        app.show_hint(history, (), Hint(found, "a reason", "strong", None))
        assert app.table.hint is None and "a reason" not in status(app)

    run(scenario)


def test_chance_says_it_in_words() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("c")
        await answered(app, pilot)
        text = status(app)
        assert "Chance to win from here: " in text and "sampled deals" in text and "an upper bound" in text
        assert app.history.move_count == 0

    run(scenario)


def test_finish_plays_out_the_end() -> None:
    history = History.new(kibitz.game("duchess"), 1)
    for move in NEAR_THE_END:
        history.play(move)
    remaining = finishing_moves(history.state)
    assert remaining

    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("f")
        assert app.history.state.is_won()
        assert app.history.move_count == len(NEAR_THE_END) + len(remaining)
        assert app.message.startswith("Finished: ") and "to the foundations" in app.message
        assert "You won in 139 moves!" in status(app)

    run(scenario, history)


def test_finish_refuses_while_a_card_is_hidden() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("f")
        assert app.history.move_count == 0
        assert "the end is not certain yet" in status(app)

    run(scenario)


def test_auto_finish_finishes_after_the_move_that_makes_the_end_certain() -> None:
    history = History.new(kibitz.game("duchess"), 1)
    for move in NEAR_THE_END[:-1]:
        history.play(move)
    assert finishing_moves(history.state) is None

    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("F")
        assert app.auto_finish and not app.history.state.is_won()
        await pilot.press("colon", *NEAR_THE_END[-1], "enter")
        assert app.history.state.is_won()
        assert "; finished: " in app.message
        assert "You won" in status(app)

    run(scenario, history)


def test_the_new_deal_dialog_starts_the_asked_deal() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("n")
        assert isinstance(app.screen, NewDealScreen)
        await pilot.press(*"17", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, NewDealScreen)
        assert app.history.deal_number == 17 and app.history.game.slug == "duchess" and app.chosen
        assert app.table.view == kibitz.game("duchess").deal(17).view()
        assert "#17" in status(app)

    run(scenario)


def test_a_new_deal_asks_before_giving_up_a_game_in_progress() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("colon", *"r3>f4", "enter", "n", *"8", "enter")
        await pilot.pause()
        assert isinstance(app.screen, Question)
        await pilot.press("n")
        assert app.history.deal_number == 3 and app.history.move_count == 1
        await pilot.press("n", *"8", "enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.history.deal_number == 8 and app.history.move_count == 0

    run(scenario)


def test_a_bad_deal_number_is_refused_in_the_dialog() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("n", *"abc", "enter")
        await pilot.pause()
        assert isinstance(app.screen, NewDealScreen)
        assert str(app.screen.query_one("#problem", Static).render()).strip()
        await pilot.press("escape")
        assert app.history.deal_number == 3

    run(scenario)


def test_new_game_of_another_game_ruleset_and_level() -> None:
    made = new_game(DealChoice("parisienne", "pysolfc", "", "easy", True))
    game = made.history.game
    assert (game.slug, game.ruleset, made.chosen) == ("parisienne", "pysolfc", False)
    from kibitz import difficulty
    rated = {deal.deal for deal in difficulty.deals("parisienne", "pysolfc", "easy", winnable_only=True)}
    assert made.history.deal_number in rated
    numbered = new_game(DealChoice("cicely", "standard", " 42 ", "hard", False))
    assert numbered.chosen and numbered.history.deal_number == 42


def test_a_new_game_changes_the_table() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await app.start_game(new_game(DealChoice("cicely", "standard", "", "any", False)))
        await pilot.pause()
        assert app.table.game.slug == "cicely" and app.title == "Cicely"
        assert "#" not in status(app).split("│")[0]   # a random deal's number stays hidden
        await pilot.press("h")
        await answered(app, pilot)
        assert app.table.hint is not None and app.history.move_count == 0

    run(scenario)


def test_help_opens_and_closes() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark")
        await pilot.press("question_mark")
        assert not isinstance(app.screen, HelpScreen)
        assert app.history.move_count == 0

    run(scenario, size=(80, 24))


def test_the_rules_page_is_the_games_own() -> None:
    assert rules_text("duchess").startswith("# Duchess")
    assert "## Common ground" in rules_text("duchess")

    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert app.screen.query_one(Markdown).source.startswith("# Duchess")
        await pilot.press("escape")
        assert not isinstance(app.screen, RulesScreen)

    run(scenario)


def test_the_footer_fits_in_80_columns() -> None:
    async def scenario(app: TableApp, pilot: Pilot[None]) -> None:
        shown = [binding.description for (_, binding, enabled, _) in app.active_bindings.values()
                 if binding.show]
        assert {"Hint", "New", "Help", "Quit"} <= set(shown)
        assert len(shown) <= 8
        assert not app.query_one("#move-line", Input).has_class("open")

    run(scenario, size=(80, 24))
