"""The reference pages' tables, as Markdown, from the kept results (:mod:`kibitz.study.pages.kept`).

Each function takes every kept row and gives the text of one generated block of a page
(:mod:`kibitz.study.pages` puts it between the block's marker lines). Nothing here is typed
by hand: a figure in a generated table comes from the rows, with its sample size and its
interval.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from kibitz.agents.setting import budget_of
from kibitz.difficulty import MIN_LEVEL_DEALS, Ratings
from kibitz.intervals import wilson
from kibitz.solver.result import NATIVE_TABLE
from kibitz.study.budgets import AFFORDABLE_SECONDS, BudgetStep, budget_steps
from kibitz.study.pages.figures import RatedLine, Tail, game_name, line_label
from kibitz.study.pages.kept import Kept
from kibitz.study.report import (Line, OddsLine, check_words, format_speeds, joined_rulesets, latest_checks, summarize,
                                 summarize_odds)
from kibitz.study.store import Play


def game_order(slug: str, ruleset: str) -> tuple[int, int, str, str]:
    """Lines in the order of the rules' games, the standard rules first."""
    from kibitz.registry import games
    from kibitz.rules import RULESETS
    slugs = [info.slug for info in games()]
    return (slugs.index(slug) if slug in slugs else len(slugs),
            RULESETS.index(ruleset) if ruleset in RULESETS else len(RULESETS), slug, ruleset)


def percent(share: float, places: int = 3) -> str:
    return f"{share * 100:.{places}f}%"


def span(low_high: tuple[float, float], places: int = 3) -> str:
    return f"{percent(low_high[0], places)} - {percent(low_high[1], places)}"


_SUMMARIZED: list[tuple[Kept, tuple[Line, ...]]] = []
"""The lines of the last kept rows summarized: every table and figure of the pages reads them."""


def winnability_lines(kept: Kept) -> tuple[Line, ...]:
    """The winnability table's lines, in the order of the games."""
    from kibitz.study.commands import registered_alike
    if not _SUMMARIZED or _SUMMARIZED[0][0] is not kept:
        lines = summarize(kept.rows, alike=registered_alike())
        _SUMMARIZED[:] = [(kept, tuple(sorted(lines, key=lambda line: game_order(line.game, line.ruleset))))]
    return _SUMMARIZED[0][1]


def limits_words(line: Line) -> str:
    """The time limits a line's deals were solved under, and what they counted."""
    clocks = {"cpu": "processor", "wall": "wall clock"}
    return ", ".join(f"{limit:g}" for limit in line.limits) + (
        f" ({' and '.join(clocks.get(clock, clock) for clock in line.clocks)})" if line.clocks else "")


def winnability_table(kept: Kept) -> str:
    """Per game and ruleset: the deals, won, proved lost and undecided, the winnable share
    of decided deals with its 95% Wilson interval, the conservative interval, the limits and
    the solver's version."""
    lines = winnability_lines(kept)
    if not lines:
        return "No winnability rows are kept yet (`scripts/winnability` makes them)."
    out = ["| game | rules | deals | won | proved lost | undecided | winnable, of decided (95% interval) "
           "| conservative 95% (undecided as won or lost) | time limits, s | solver |",
           "|---|---|---:|---:|---:|---:|---|---|---|---|"]
    for line in lines:
        rate = "n/a" if line.winnability is None else f"{percent(line.winnability)} ({span(line.interval)})"
        out.append(f"| {game_name(line.game)} | {line.rulesets} | {line.deals:,} | {line.won:,} | {line.lost:,} | "
                   f"{line.unknown:,} | {rate} | {span(line.conservative)} | {limits_words(line)} | "
                   f"{'+'.join(map(str, line.solver_versions))} |")
    rows = len(kept.rows)
    out.append(f"\nFrom {rows:,} kept rows; a deal counts once, with the verdict of the run that decided it.")
    missing = unstudied(lines)
    if missing:
        out.append(f"Not studied yet: {', '.join(missing)}.")
    return "\n".join(out)


def unstudied(lines: Sequence[Line]) -> list[str]:
    """The registered games and rulesets that no line of ``lines`` stands for, in words."""
    from kibitz.registry import games
    from kibitz.rules import RULESETS
    studied = {(line.game, ruleset) for line in lines for ruleset in (line.ruleset, *line.same_rules)}
    return [f"{info.name} ({ruleset})" for info in games() for ruleset in RULESETS
            if (info.slug, ruleset) not in studied]


def ordered_tails(kept: Kept) -> list[Tail]:
    """The undecided tail of each line, in the order of the table's lines."""
    from kibitz.study.commands import registered_alike
    from kibitz.study.pages.figures import line_label, tails
    order = {line_label(line.game, line.rulesets): index for index, line in enumerate(winnability_lines(kept))}
    return sorted(tails(kept.rows, registered_alike()), key=lambda tail: (order.get(tail.label, len(order)), tail.label))


def tail_table(kept: Kept, limits: Sequence[float] = (1, 10, 60, 600)) -> str:
    """Per game and ruleset, the deals still undecided at each of ``limits`` seconds of
    processor time (a deal counts as decided at the time its deciding run took). Deals left
    undecided at a shorter limit and not retried at this one yet are counted apart (``28 +
    45 not tried yet``); a limit no deal was tried at is ``not tried``; where no deal is left
    undecided, none is at any longer limit either."""
    found = ordered_tails(kept)
    if not found:
        return "No winnability rows are kept yet."
    out = ["| game (rules) | deals | " + " | ".join(f"undecided at {limit:g} s" for limit in limits) + " |",
           "|---|---:|" + "---:|" * len(limits)]
    for tail in found:
        out.append(f"| {tail.label} | {tail.deals:,} | " + " | ".join(tail_cell(tail, limit) for limit in limits)
                   + " |")
    return "\n".join(out) + "\n\n" + full_tables_words(found)


def full_tables_words(tails: Sequence[Tail]) -> str:
    """The table limits the runs set, and the undecided deals whose search filled its table
    (unknown: memory limit) before its time was up, line by line."""
    tables = sorted({table for tail in tails for table in tail.tables})
    own = f"{NATIVE_TABLE:,}"
    words = (f"Every search kept the native build's own table, at most {own} positions." if not tables else
             f"The searches kept at most {own} positions in their table (the native build's own), or as "
             f"many as their run set: {', '.join(f'{table:,}' for table in tables)}.")
    full = [(tail.label, tail.full_tables) for tail in tails if tail.full_tables]
    if not full:
        return words + " No undecided deal stopped with its table full."
    count = sum(count for _, count in full)
    deals = f"{count:,} undecided deal stopped with its table" if count == 1 else \
        f"{count:,} undecided deals stopped with their table"
    return (words + f" {deals} full before the time limit (unknown: memory limit; `kibitz study --table` "
            "retries with a larger one): " + ", ".join(f"{label} {count:,}" for label, count in full) + ".")


def tail_cell(tail: Tail, limit: float) -> str:
    """The undecided deals of one line at one time limit, those not tried at it yet apart."""
    undecided, untried = tail.undecided_at(limit), tail.untried_at(limit)
    if not untried:
        return f"{undecided:,}"
    if limit > max(tail.limits, default=0.0):
        return "not tried"
    return f"{undecided - untried:,} + {untried:,} not tried yet"


def losses_list(kept: Kept) -> str:
    """Every deal proved lost, with the solver's proof and the independent check's verdict,
    each with its positions."""
    lines = winnability_lines(kept)
    checks = latest_checks(kept.checks)
    losses = [(line, loss) for line in lines for loss in line.losses]
    if not losses:
        return "No kept deal is proved lost."
    confirmed = sum(1 for line, loss in losses
                    if (check := checks.get((line.game, line.ruleset, loss.deal))) and check.verdict == "lost")
    out = [f"{len(losses):,} deals proved lost; {confirmed:,} of them confirmed by the independent check.", ""]
    out.extend(f"- {game_name(line.game)} ({line.rulesets}) deal {loss.deal}: {loss.reason()}; "
               f"{check_words(checks.get((line.game, line.ruleset, loss.deal)))}" for line, loss in losses)
    return "\n".join(out)


def machine_speeds(kept: Kept) -> str:
    """The machine's speed measured at the start and end of each study run."""
    from kibitz.study.commands import registered_alike
    alike = registered_alike()

    def label(game: str, ruleset: str) -> str:
        first, *others = alike(game, ruleset)
        return line_label(game, joined_rulesets(first, tuple(others)))

    return format_speeds(kept.speeds, label=label, order=game_order) or "No speed measure is kept."


def budget(setting: str) -> int:
    """The budget factor of a strong agent's setting (``study*10``: 10)."""
    return budget_of(setting)[1]


def newest_plays(kept: Kept) -> list[Play]:
    """The kept games of the newest version of each agent (with the solver's and rules')."""
    newest: dict[str, tuple[int, int, int]] = {}
    for play in kept.plays:
        versions = (play.agent_version, play.solver_version, play.rules_version)
        newest[play.agent] = max(newest.get(play.agent, versions), versions)
    return [play for play in kept.plays
            if (play.agent_version, play.solver_version, play.rules_version) == newest[play.agent]]


def odds_lines(kept: Kept) -> list[OddsLine]:
    """The odds' lines of the newest version of each agent, beside the winnability lines."""
    from kibitz.study.commands import registered_alike
    lines = summarize_odds(newest_plays(kept), winnability_lines(kept), alike=registered_alike())
    return sorted(lines, key=lambda line: (game_order(line.game, line.ruleset), line.agent, budget(line.setting)))


def kept_budget_steps(kept: Kept) -> list[BudgetStep]:
    """The strong agent's budget steps among the kept games of its newest version."""
    from kibitz.study.commands import registered_alike
    return budget_steps(newest_plays(kept), alike=registered_alike())


def chosen_odds(lines: Iterable[OddsLine], choices: Mapping[tuple[str, str], int] | None = None
                ) -> dict[tuple[str, str, str], OddsLine]:
    """Per game, ruleset and agent, the line the odds quote: for the strong agent the line at
    the budget its budget step chose (``choices``, by game and ruleset) where there is one;
    otherwise the line of most games (of two with as many, the smaller budget)."""
    choices = choices or {}
    chosen: dict[tuple[str, str, str], OddsLine] = {}

    def rank(line: OddsLine) -> tuple[bool, int, int]:
        wanted = choices.get((line.game, line.ruleset))
        return budget(line.setting) == wanted, line.games, -budget(line.setting)

    for line in lines:
        key = (line.game, line.ruleset, line.agent)
        held = chosen.get(key)
        if held is None or rank(line) > rank(held):
            chosen[key] = line
    return chosen


def quoted_odds(kept: Kept) -> dict[tuple[str, str, str], OddsLine]:
    """The odds lines the pages quote (:func:`chosen_odds`, with the kept budget steps' choices)."""
    choices = {(step.game, step.ruleset): choice.factor for step in kept_budget_steps(kept)
               if step.setting == "study" and (choice := step.choice()) is not None}
    return chosen_odds(odds_lines(kept), choices)


def rate_words(line: OddsLine | None) -> str:
    """A line's win rate, interval and games, in a table's cell; its budget where not 1x."""
    if line is None:
        return "not played yet"
    factor = budget(line.setting)
    at = "" if factor == 1 else f", at {factor}x"
    if line.rate < 0.01:
        return f"{line.won:,} of {line.games:,} ({span(line.interval, 2)}){at}"
    return f"{percent(line.rate, 1)} ({span(line.interval, 1)}), {line.games:,} games{at}"


def odds_table(kept: Kept) -> str:
    """Per game and ruleset, the fair-play win rate of each agent with its 95% Wilson
    interval, beside the thoughtful winnability."""
    lines = odds_lines(kept)
    if not lines:
        return "No odds games are kept yet (`scripts/odds` plays them)."
    chosen = quoted_odds(kept)
    studied = {(line.game, line.ruleset): line for line in winnability_lines(kept)}
    keys = sorted({(line.game, line.ruleset) for line in lines} | set(studied), key=lambda key: game_order(*key))
    out = ["| game | rules | strong | greedy | random | thoughtful winnability, conservative 95% |",
           "|---|---|---|---|---|---|"]
    for game, ruleset in keys:
        found = [chosen.get((game, ruleset, agent)) for agent in ("strong", "greedy", "random")]
        any_line = next((line for line in found if line is not None), None)
        study = studied.get((game, ruleset)) if any_line is None else any_line.winnability
        rulesets = studied[game, ruleset].rulesets if any_line is None else any_line.rulesets
        thoughtful = "no study" if study is None else f"{span(study.conservative)} ({study.deals:,} deals)"
        rates = [rate_words(line) for line in found]
        out.append(f"| {game_name(game)} | {rulesets} | " + " | ".join(rates) + f" | {thoughtful} |")
    settings = sorted({(line.agent, line.setting, line.agent_version, line.solver_version)
                       for line in chosen.values() if line.agent == "strong"})
    out.append("")
    out.extend(f"Strong agent: setting `{setting}`, agent version {agent_version}, solver version {solver}."
               for _, setting, agent_version, solver in settings)
    return "\n".join(out)


def budget_table(kept: Kept) -> str:
    """Per game and ruleset, the strong agent at each budget on the deals every budget played,
    and the budget the odds take (:meth:`~kibitz.study.budgets.BudgetStep.choice`)."""
    steps = [step for step in kept_budget_steps(kept) if step.setting == "study"]
    if not steps:
        return "No budget comparison is kept yet (`scripts/odds --steps budget`)."
    factors = sorted({result.factor for step in steps for result in step.results})
    out = ["| game | rules | deals | " + " | ".join(f"{factor}x: won (95% interval), CPU s a game"
                                                   for factor in factors) + " | the odds' budget |",
           "|---|---|---:|" + "---|" * len(factors) + "---|"]
    most = max(step.deals for step in steps)
    rows: list[tuple[tuple[int, int, str, str], str]] = []
    for step in steps:
        by_factor = {result.factor: result for result in step.results if result.games}
        cells = []
        for factor in factors:
            result = by_factor.get(factor)
            cells.append("-" if result is None else f"{result.won} of {result.games} "
                         f"({span(wilson(result.won, result.games), 0)}), {result.cpu_seconds:.1f}")
        choice = step.choice()
        chosen = "not measured yet" if choice is None else choice.words()
        if 0 < step.deals < most and (choice is None or choice.costly is None):   # a costly budget stops early
            chosen += f" so far ({step.deals:,} of {most:,} deals)"
        rows.append((game_order(step.game, step.ruleset),
                     f"| {game_name(step.game)} | {joined_rulesets(step.ruleset, step.same_rules)} | {step.deals:,} | "
                     + " | ".join(cells) + f" | {chosen} |"))
    measured = {(step.game, step.ruleset) for step in steps}
    for line in winnability_lines(kept):   # a line whose step has not played two budgets yet
        if (line.game, line.ruleset) not in measured:
            rows.append((game_order(line.game, line.ruleset), f"| {game_name(line.game)} | {line.rulesets} | - | "
                         + " | ".join("-" for _ in factors) + " | not measured yet |"))
    out.extend(text for _, text in sorted(rows))
    out.append("\nThe odds' budget is the least budget whose next (ten times more) wins no more often than the "
               "top of its 95% interval; where every step still gains, the largest measured, said so; a budget "
               f"costing more than {AFFORDABLE_SECONDS:g} processor seconds a game is measured on its first "
               "deals only and never taken, said so; \"so far\" where a game has played fewer of the step's "
               "deals than another.")
    return "\n".join(out)


def ratings_table(ratings: Ratings) -> str:
    """Per game and ruleset, the deals rated, the offered deals of each level (a level with
    too few deals is declared empty, and says how few) and how many offered deals are proved
    winnable."""
    from kibitz.registry import games
    from kibitz.rules import RULESETS
    out = ["| game | rules | deals rated | easy | medium | hard | offered deals proved winnable | rated by |",
           "|---|---|---:|---|---|---|---:|---|"]
    sources = ratings.made.get("sources", {})
    for info in games():
        for ruleset in RULESETS:
            counts = ratings.levels(info.slug, ruleset)
            empties = [count.empty for count in counts if count.empty is not None]
            offered = sum(count.deals for count in counts)
            rated = empties[0].deals_rated if empties else offered
            if not rated:
                continue
            cells = [f"empty ({count.empty.found:,})" if count.empty is not None else f"{count.deals:,}"
                     for count in counts]
            winnable = sum(count.winnable for count in counts)
            out.append(f"| {info.name} | {ruleset} | {rated:,} | " + " | ".join(cells) + f" | {winnable:,} | "
                       f"{rated_by(sources.get(f'{info.slug}/{ruleset}', {}))} |")
    out.append(f"\nA level that fewer than {MIN_LEVEL_DEALS} rated deals reached is declared empty and not "
               "offered: the cell gives how many reached it. *Rated by*: the strong agent's and the solver's "
               "versions; *earlier*: a line the current rating has not reached yet, kept from an earlier one.")
    return "\n".join(out)


def rated_by(source: Mapping[str, object]) -> str:
    """Who rated a line, from its source in the ratings file: ``agent 3, solver 22``, and
    ``earlier (version 4)`` for a line kept from an earlier rating."""
    words = f"agent {source.get('agent_version', '?')}, solver {source.get('solver_version', '?')}"
    earlier = source.get("kept_from_version")
    if earlier is not None:
        return f"{words}; earlier (version {earlier})"
    return words


def rated_lines(ratings: Ratings) -> list[RatedLine]:
    """Per game and ruleset with rated deals, how many reached each level and which levels are
    declared empty, for the ratings figure."""
    from kibitz.registry import games
    from kibitz.rules import RULESETS
    found = []
    for info in games():
        for ruleset in RULESETS:
            counts = ratings.levels(info.slug, ruleset)
            reached = [count.empty.found if count.empty is not None else count.deals for count in counts]
            empty = [count.empty is not None for count in counts]
            if sum(reached):
                found.append(RatedLine(f"{info.name} ({ruleset})", (reached[0], reached[1], reached[2]),
                                       (empty[0], empty[1], empty[2])))
    return found

