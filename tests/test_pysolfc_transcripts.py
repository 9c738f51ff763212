"""Replay every PySolFC transcript in the pysolfc ruleset, step by step.

The folder is ``$KIBITZ_PYSOLFC_TRANSCRIPTS`` when set, else the project's copy,
so further recordings in the same format replay without code changes.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

import kibitz
from kibitz.notation import layout_of, state_from_layout

from conftest import DATA

pytestmark = pytest.mark.usefixtures("build")  # every transcript on each build of the rules

FOLDER = Path(os.environ.get("KIBITZ_PYSOLFC_TRANSCRIPTS", DATA / "pysolfc-transcripts"))


def transcripts() -> Iterator[Any]:
    files = sorted(FOLDER.glob("*.jsonl.gz"))
    for path in files:
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                record = json.loads(line)
                yield pytest.param(record, id=f"{path.name.split('.')[0]}-line{number}-deal{record['number']}")


ALL = list(transcripts())


def test_transcripts_are_present() -> None:
    assert ALL, f"no transcripts found in {FOLDER}"
    assert {p.values[0]["game"] for p in ALL} >= {info.slug for info in kibitz.games()}


@pytest.mark.parametrize("record", ALL)
def test_transcript_replays_exactly(record: dict[str, Any]) -> None:
    game = kibitz.game(record["game"], "pysolfc")
    steps = record["steps"]
    assert layout_of(game.deal(record["number"])) == steps[0]["layout"], "opening differs from deal number"
    state = state_from_layout(game, steps[0]["layout"])
    for k, step in enumerate(steps):
        where = f"{record['game']} deal {record['number']} step {k}"
        assert layout_of(state) == step["layout"], f"{where}: layout differs"
        legal = sorted(str(move) for move in state.legal_moves)
        assert legal == step["legal"], f"{where}: legal moves differ"
        if "move" in step:
            state = state.apply(step["move"])
        else:
            assert state.is_won() == step["won"], f"{where}: won flag differs"
            if step["end"] in ("won", "stuck"):
                assert state.is_over()
