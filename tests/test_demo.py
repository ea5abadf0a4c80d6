"""The demo (python -m jass_env.demo) deals, plays and prints one round of every preset."""

from __future__ import annotations

import io
import re

import pytest

from jass_env.demo import main, play_and_print
from jass_env.engine.spec import TEAMS_NONE
from jass_env.games import PRESETS
from jass_env.render import render_table


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_demo_plays_every_preset_with_its_seats_and_sides(name, capsys) -> None:
    assert main(["--rules", name, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    spec = PRESETS[name].spec
    hands = re.findall(r"^  player (\d)( \(team \d\))?: ", out, re.M)
    assert [int(p) for p, _ in hands] == list(range(spec.players))
    if spec.teams == TEAMS_NONE:                          # everyone alone: no team anywhere
        assert "team" not in out
    else:
        assert all(side == f" (team {spec.side_of(int(p))})" for p, side in hands)
    tricks = re.findall(r"^trick (\d+): ", out, re.M)
    assert tricks == [str(t) for t in range(1, spec.tricks + 1)]
    assert out.rstrip().endswith("Round over")


def test_the_result_is_the_games_own_table() -> None:
    """The end of the printout is the game's table of the finished round (its scores as the game
    counts them): a Molotow hand Weis counts minus, and is shown so."""
    for seed in range(50):
        out = io.StringIO()
        r = play_and_print("molotow", seed=seed, out=out)
        if r.hand_weis():
            break
    else:
        raise AssertionError("no Molotow deal of seeds 0..49 held a hand Weis")
    text = out.getvalue()
    assert text.endswith("At the end:\n" + render_table(r.state, r.rules) + "\n")
    assert "Hand Weis (minus): " in text and "Weis: none" not in text


def test_sidis_exchange_of_the_trump_6_is_printed_before_the_trick_its_player_leads() -> None:
    for seed in range(50):
        out = io.StringIO()
        r = play_and_print("sidi", seed=seed, out=out)
        if r.exchange is not None:
            break
    else:
        raise AssertionError("no random Sidi round of seeds 0..49 exchanged the trump 6")
    lines = out.getvalue().splitlines()
    player, trick = r.exchange["player"], r.exchange["trick"]
    at = lines.index(f"player {player}: exchange trump 6")
    assert lines[at + 1].startswith(f"trick {trick}: p{player} ")   # he leads the trick after it


def test_an_unknown_preset_is_a_named_error(capsys) -> None:
    assert main(["--rules", "nosuchrules"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "nosuchrules" in err and "Traceback" not in err
