"""The terminal player's assists: hint, chance, analysis, the review of a game, ``goto`` and
the session's statistics. Every answer comes from the analysis layer (:mod:`kibitz.analysis`);
this module only asks and says.

The fair answers (hint, chance, the review's fair part) see only what the player saw. The
solver's answers (``analysis``, ``hint --peek``, the review's point of no return) see every
card: they are labelled so, and asking one during a game marks it assisted. The review of a
finished game sees every card without assisting it (its deal is no secret any more).
"""

from __future__ import annotations

import hashlib
import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, TextIO

from kibitz.errors import quoted
from kibitz.history import History
from kibitz.state import State
from kibitz.tui.drawing import describe_move, draw, plural

if TYPE_CHECKING:  # the analysis layer is loaded when first asked: the player starts without the solver
    from kibitz.analysis import Review

ANALYSIS = "solver (sees every card)"
"""How every answer of the solver is labelled."""
PROGRESS_EVERY = 10
"""The review says how far it has got every this many moves."""


@dataclass
class Finished:
    """A game of this session that ended: its result and, once made, its review."""

    slug: str
    ruleset: str
    name: str
    deal: int | None
    won: bool
    moves: int
    assisted: bool
    review: Review | None = None


class Assists:
    """The assist commands of :class:`~kibitz.tui.session.PlaySession` (a mixin: it reads the
    session's game and writes through its ``say``)."""

    history: History
    assisted: bool
    ended: bool
    colour: bool
    seed_text: str
    finished: list[Finished]
    say: Callable[..., None]
    output: TextIO
    reviewed: Review | None

    @property
    def state(self) -> State:
        """The current position."""
        return self.history.state

    def _seed(self, what: str | None = None) -> int:
        """The seed of a search from the current position: asking again gives the same answer.
        ``what``: a seed for every position of the game (the chance, the review), so that
        positions that show no new card are judged on the same sampled deals."""
        digest = hashlib.sha256(f"{self.seed_text}:{what or self.history.move_count}".encode("ascii")).digest()
        return int.from_bytes(digest[:8], "big")

    def _over(self, command: str) -> bool:
        """Whether the game is over, said for ``command``."""
        if not self.state.is_over():
            return False
        self.say(f"{command}: the game is {'won' if self.state.is_won() else 'over: no move is left'}.")
        return True

    def hint(self, argument: str) -> bool:
        """The strong agent's move, from what the player sees (``--peek``: the solver's)."""
        if argument.lower() in ("--peek", "peek"):
            return self.analysis("")
        if argument:
            self.say(f"hint: {quoted(argument)}? Type hint, or hint --peek to ask the solver (it sees every card).")
            return True
        if self._over("hint"):
            return True
        from kibitz.analysis import fair_hint, observation_at
        found = fair_hint(observation_at(self.history), self._seed())
        self.say(f"hint: {describe_move(self.state, found.move)}: {found.reason} "
                 "(a strong player who sees only what you see)")
        return True

    def chance(self, argument: str) -> bool:
        """The chance to win from here, from deals that fit what the player sees."""
        if self._over("chance"):
            return True
        from kibitz.analysis import fair_chance, observation_at
        from kibitz.analysis.text import CHANCE_MEANING, chance_words
        found = fair_chance(observation_at(self.history), self._seed("chance"))
        self.say(f"chance to win from here: {chance_words(found)}")
        self.say(f"  {CHANCE_MEANING}")
        return True

    def analysis(self, argument: str) -> bool:
        """The solver's verdict and move: it sees every card, so the game counts as assisted."""
        if self._over("analysis"):
            return True
        from kibitz.analysis import solver_answer
        found = solver_answer(self.state)
        self.assisted = True
        if found.move is not None:
            self.say(f"{ANALYSIS}: the game can still be won; try {describe_move(self.state, found.move)}")
        elif found.winnable is False:
            self.say(f"{ANALYSIS}: the game cannot be won any more")
        else:
            self.say(f"{ANALYSIS}: not decided within {found.nodes:,} positions")
        self.say("This game is now assisted: the solver saw every card, face down or not.")
        return True

    # -- the review ----------------------------------------------------------------------

    def review(self, argument: str) -> bool:
        """The review of the moves played so far: the fair part during a game; seeing every
        card too once it has ended (``review --peek`` during a game: assisted)."""
        from kibitz.analysis import FinalChance, MoveReview, new_review, review_events
        from kibitz.analysis.text import move_words
        peek = argument.lower() in ("--peek", "peek")
        if argument and not peek:
            self.say(f"review: {quoted(argument)}? Type review, or review --peek (the solver sees every card).")
            return True
        history = self.history
        if not history.move_count:
            self.say("review: no move played yet.")
            return True
        ended = self.ended or self.state.is_over()
        sees = ended or peek
        moves = history.moves
        known = self.reviewed
        if known is not None and known.moves == moves and known.complete and (known.sees_every_card or not sees):
            self._show_review(known, sees)
            return True
        if peek and not ended:
            self.assisted = True
            self.say("This game is now assisted: the review's solver sees every card, face down or not.")
        done = new_review(history.start, moves, self._seed("review"), history.deal_number, sees_every_card=sees)
        self.say(f"Reviewing {plural(len(moves), 'move')} (Ctrl-C stops)...")
        try:
            for event in review_events(history.start, moves, done.seed, sees_every_card=sees):
                done.add(event)
                if isinstance(event, MoveReview):
                    if event.label:
                        self.say(f"  move {event.index + 1}: {event.label} ({move_words(history.states[event.index], event.move)};"
                                 f" better: {move_words(history.states[event.index], event.best)})")
                    elif (event.index + 1) % PROGRESS_EVERY == 0:
                        self.say(f"  ... {event.index + 1} of {len(moves)} moves")
                elif isinstance(event, FinalChance) and sees:
                    self.say("  ... the point of no return (the solver, seeing every card)")
        except KeyboardInterrupt:
            self.say(f"review: stopped after {plural(len(done.entries), 'move')}.")
            return True
        self.reviewed = done
        last = self.finished[-1] if self.finished else None
        if ended and last is not None and last.review is None and last.moves == len(moves):
            last.review = done   # the game just ended, in the statistics
        self._show_review(done, sees)
        return True

    def _show_review(self, done: Review, sees: bool) -> None:
        from kibitz.analysis.text import report
        self.say(report(done, self.history.states, peeked=sees))   # the review's moves are the game's
        self.say("goto N shows the table at move N.")

    def goto(self, argument: str) -> bool:
        """Show the table at move N of the game so far (the position before move N + 1), with
        the review's word on the move played there."""
        history = self.history
        count = history.move_count
        text = argument.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 7 and int(text) <= count):
            self.say(f"goto: give a move number from 0 to {count} (0: the opening), e.g. goto {min(count, 12)}")
            return True
        from kibitz.analysis.text import chance_words, move_words, wrap
        index = int(text)
        state = history.states[index]
        self.say(f"The table after {plural(index, 'move')} (type show for the game as it stands):")
        self.output.write(draw(state, colour=self.colour, moves_played=index) + "\n")   # its colours kept
        done = self.reviewed
        if index < count:
            played = history.moves[index]
            line = f"Played next: {move_words(state, played)}"
            if done is not None and index < len(done.entries) and done.moves[:index + 1] == history.moves[:index + 1]:
                entry = done.entries[index]
                chance = chance_words(entry.chance)
                line += f"; the strong player's move: {move_words(state, entry.best)}; chance before it: {chance}"
                if entry.label:
                    line += f"; {entry.label}"
            self.say("\n".join(wrap(line)))
        return True

    # -- statistics ------------------------------------------------------------------------

    def record_end(self, name: str) -> None:
        """Count the current game, which has just ended (won, no move left, or given up)."""
        history = self.history
        game = history.game
        self.finished.append(Finished(game.slug, game.ruleset, name, history.deal_number, self.state.is_won(),
                                      history.move_count, self.assisted))

    def stats(self, argument: str) -> bool:
        """This session's finished games, per game: won, and from their reviews the average
        accuracy, blunders per game and the games that could have been won."""
        if not self.finished:
            self.say("stats: no game of this session has ended yet (a game counts once won, lost or given up).")
            return True
        self.say("This session's games (review a game once it ends for its accuracy):")
        groups: dict[tuple[str, str], list[Finished]] = {}
        for game in self.finished:
            groups.setdefault((game.name, game.ruleset), []).append(game)
        for (name, ruleset), games in groups.items():
            won = sum(game.won for game in games)
            reviewed = [game.review for game in games if game.review is not None]
            line = f"  {name} ({ruleset}): {plural(len(games), 'game')}, {won} won"
            assisted = sum(game.assisted for game in games)
            if assisted:
                line += f", {assisted} assisted"
            if reviewed:
                accuracy = statistics.fmean(review.accuracy for review in reviewed)
                blunders = statistics.fmean(review.count("blunder") for review in reviewed)
                could = sum(1 for game in games if game.review is not None and not game.won
                            and game.review.no_return is not None and game.review.no_return.winnable_at_start)
                line += (f"; {len(reviewed)} reviewed: accuracy {accuracy:.0f} on average, "
                         f"{blunders:.1f} blunders a game, {plural(could, 'game')} you could have won")
            self.say(line)
        return True
