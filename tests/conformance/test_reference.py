"""The reference itself, checked against PySolFC's own play: the recorded openings and transcripts.

The transcripts are the ground truth of the pysolfc ruleset. The reference must
reproduce every recorded legal-move set and every position on its own (each next
position is the reference's, not the engine's), so that agreeing with it means
agreeing with the rules rather than with a copy of the engine.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import kibitz
from kibitz import State, parse_move
from kibitz.notation import layout_of, state_from_layout

from conformance import reference
from conftest import DATA
from test_pysolfc_transcripts import ALL as TRANSCRIPTS

VECTORS = json.loads((DATA / "deals" / "pysolfc-openings.json").read_text())
OPENINGS = [(slug, entry["number"], entry["layout"])
            for slug, entries in VECTORS["games"].items() for entry in entries]


@pytest.mark.parametrize("slug,number,layout", OPENINGS, ids=[f"{s}-{n}" for s, n, _ in OPENINGS])
def test_reference_deals_the_recorded_openings(slug: str, number: int, layout: dict[str, Any]) -> None:
    game = kibitz.game(slug, "pysolfc")
    names = [spec.name for spec in game.piles]
    assert reference.opening(slug, "pysolfc", names, number) == reference.outcome_of(
        state_from_layout(game, layout))


@pytest.mark.parametrize("record", TRANSCRIPTS)
def test_reference_replays_the_transcript(record: dict[str, Any]) -> None:
    game = kibitz.game(record["game"], "pysolfc")
    steps = record["steps"]
    state = state_from_layout(game, steps[0]["layout"])
    for k, step in enumerate(steps):
        where = f"{record['game']} deal {record['number']} step {k}"
        assert layout_of(state) == step["layout"], f"{where}: the reference reached another layout"
        assert sorted(map(str, reference.legal_moves(state))) == step["legal"], f"{where}: legal moves differ"
        if "move" in step:
            piles, round, base = reference.after(state, parse_move(step["move"]))
            state = State(game, piles, round, base)
        else:
            assert reference.is_won(state) == step["won"], f"{where}: won flag differs"
