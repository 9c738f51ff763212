"""``kibitz review RECORD``: the readable report and the ``--json`` object, and refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kibitz.analysis.averages import average
from kibitz.analysis.text import percent
from kibitz.cli import main

REVIEWS = Path(__file__).parent.parent / "data" / "reviews"


def test_the_json_object_has_every_field(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(REVIEWS / "kingsdown-eights-3931.kibitz"), "--json", "--seed", "4"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["moves"]) == 7
    for entry in data["moves"]:
        assert set(entry) >= {"move", "chance", "best", "chance_after", "best_after", "label"}
        assert entry["label"] in ("", "inaccuracy", "mistake", "blunder")
        assert entry["chance"] is None or 0 <= entry["chance"] <= 1
    assert data["no_return"] is None and data["no_return_proved"] is False   # never winnable: no point
    assert data["winnable_at_start"] is False
    assert data["no_return_finding"]["finding"] == "never winnable"
    assert 0 <= data["accuracy"] <= 100 and data["build"] in ("native", "python") and data["seed"] == 4
    assert data["luck"] is None or 0 <= data["luck"] <= 1


def test_a_lost_game_shows_where_it_was_lost(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(REVIEWS / "tournament-22.kibitz")]) == 0
    text = capsys.readouterr().out
    assert max(len(line) for line in text.splitlines()) <= 78   # a terminal of 80 columns
    assert text.startswith("Review of deal #22 (standard rules): 83 moves, lost (no move left).")
    assert "100% |" in text and "!" in text.splitlines()[4]   # the chart marks the point of no return
    words = " ".join(text.split())
    assert "the deal could not be won after move 77 (proved)" in words
    studied = average("tournament", "standard")
    assert studied is not None
    assert "Accuracy:" in words and "Luck:" in words
    assert f"game's average: {percent(studied.won / studied.deals)} of its {studied.deals:,} studied deals" in words


def test_a_bad_record_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "broken.kibitz"
    record.write_text((REVIEWS / "tournament-22.kibitz").read_text().replace("deal\n", "t9>f1\n", 1))
    done = subprocess.run([sys.executable, "-m", "kibitz", "review", str(record)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.startswith("kibitz review: ")
    done = subprocess.run([sys.executable, "-m", "kibitz", "review", str(tmp_path / "none.kibitz")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "none.kibitz" in done.stderr
