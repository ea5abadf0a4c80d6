"""The rollout network: one MLP fitted to play like a suit-averaged policy (agents.search.rollout_net)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.network import load_policy  # noqa: E402
from agents.policy import default_checkpoint  # noqa: E402
from agents.search.rollout_net import (  # noqa: E402
    agreement,
    collect_positions,
    fit,
    held_out_split,
    main,
    renamed,
)
from agents.search.search import SearchAgent  # noqa: E402
from jass_env import Round  # noqa: E402
from jass_env.engine.transitions import for_game  # noqa: E402
from jass_env.envs import encoding  # noqa: E402
from jass_env.games import game_of  # noqa: E402


@pytest.fixture(scope="module")
def teacher():
    net, _ = load_policy(default_checkpoint("schieber"))
    return net.eval()


@pytest.fixture(scope="module")
def positions(teacher):
    return collect_positions(teacher, "schieber", positions=1500, games=32, seed=1)


def test_positions_are_decisions_with_a_choice_and_the_averages_logits(teacher, positions) -> None:
    assert len(positions) >= 1500
    assert bool((positions.mask.sum(1) > 1).all())
    with torch.inference_mode():
        again = teacher.masked_logits(positions.obs[:200], positions.mask[:200])
    np.testing.assert_allclose(positions.logits[:200].numpy(), again.numpy(), rtol=1e-5, atol=1e-5)


def test_a_renamed_position_is_the_same_position_to_the_suit_average(teacher, positions) -> None:
    """The suit average plays the same under every renaming of the suits: fed the position as a
    renaming shows it, with the actions renamed the same way, it gives the renamed softmax."""
    rows = positions.take(torch.arange(64))
    for view in (0, 5, 23):
        obs, mask, target = renamed(teacher, rows, torch.full((64,), view))
        with torch.inference_mode():
            seen = torch.softmax(teacher.masked_logits(obs, mask), 1)
        np.testing.assert_allclose(seen.numpy(), target.numpy(), rtol=0, atol=1e-4)
        assert int(mask.sum()) == int(rows.mask.sum())


def test_the_fit_moves_the_view_toward_the_average(teacher, positions) -> None:
    """Fitted to the average's softmax on these positions, the view agrees with the average's
    greedy action more often than the plain view did, and its KL from it is smaller."""
    before = agreement(teacher.single_view(), positions)
    student = fit(teacher, positions, epochs=3, lr=1e-3, batch_size=128, seed=0, log=lambda _: None)
    after = agreement(student, positions)
    assert after[1] < before[1]
    assert after[0] > before[0]
    assert student.hidden == teacher.hidden and student.suit_renamings is None


def test_a_narrower_network_starts_new_and_learns_the_average(teacher, positions) -> None:
    """With hidden sizes other than the policy's the fit starts from a new MLP of those sizes
    (one view, no suit average), which moves toward the average as it is fitted."""
    untrained = fit(teacher, positions, epochs=0, lr=1e-3, batch_size=128, seed=0, hidden=[32, 32],
                    log=lambda _: None)
    student = fit(teacher, positions, epochs=3, lr=3e-3, batch_size=128, seed=0, hidden=[32, 32],
                  log=lambda _: None)
    assert student.hidden == [32, 32] and student.suit_renamings is None
    assert agreement(student, positions)[1] < agreement(untrained, positions)[1]


def test_held_out_rows_are_one_in_twenty_and_disjoint() -> None:
    fit_rows, held = held_out_split(1000, seed=3)
    assert len(held) == 50 and len(fit_rows) == 950
    assert set(fit_rows.tolist()).isdisjoint(held.tolist())


def test_the_command_writes_a_network_the_search_rolls_out_with(tmp_path, capsys) -> None:
    out = tmp_path / "rollout.pt"
    assert main(["--positions", "1200", "--games", "32", "--epochs", "1", "--batch-size", "32",
                 "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "held out (" in said and f"wrote {out}" in said
    net, fields = load_policy(out)
    assert net.suit_renamings is None and fields["trained_for"]["game"] == "schieber"
    assert fields["held_out"]["positions"] > 0
    r = Round("schieber", seed=2)
    while r.phase != "play" or len(r.legal_actions()) < 2:
        r.step(int(r.legal_actions()[0]))
    bot = SearchAgent("schieber", worlds=3, seed=0, rollout_checkpoint=out)
    obs = np.zeros(encoding.obs_dim(r.rules), dtype=np.float32)
    mask = np.zeros(r.spec.n_actions, dtype=np.int8)
    game_of(r.rules).observation.encode_observation(r.state, r.to_move, r.rp, obs)
    for_game(r.spec.kind).action_mask(r.state, r.rp, mask)
    assert bot.act({"observation": obs, "action_mask": mask}) in r.legal_actions()


def test_the_command_refuses_what_it_cannot_fit(tmp_path, capsys) -> None:
    from agents.policy import write_random_checkpoint

    plain = write_random_checkpoint(tmp_path / "plain.pt")
    assert main(["--checkpoint", str(plain), "--out", str(tmp_path / "x.pt")]) == 2
    assert "is not a suit average" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--positions", "0", "--out", str(tmp_path / "x.pt")])
    assert "--positions must be an integer >= 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--hidden", "128", "0", "--out", str(tmp_path / "x.pt")])
    assert "--hidden sizes must be integers >= 1" in capsys.readouterr().err
