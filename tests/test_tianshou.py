"""The Tianshou example (examples/tianshou_ppo.py): four-seat self-play PPO on the AEC env through
Tianshou's multi-agent on-policy setup trains a few hundred steps, acts legally, saves and reloads;
the per-seat rewards and GAE chains and the team-signed critic do what the example says; rounds
with random opponents hand Tianshou only the learning team's turns.

Skipped when tianshou is not installed (``pip install -e ".[tianshou]"``).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("tianshou")

import torch  # noqa: E402
from conftest import play_aec_round  # noqa: E402
from tianshou.data import Batch, Collector, VectorReplayBuffer  # noqa: E402
from tianshou.env.pettingzoo_env import PettingZooEnv  # noqa: E402

from agents.random_bot import random_actions  # noqa: E402
from examples.tianshou_ppo import (  # noqa: E402
    AGENTS,
    SeatCritic,
    TianshouPolicyAgent,
    build,
    load_agent,
    main,
    make_env,
    save,
    train,
)
from jass_env.envs.aec import env as aec_env  # noqa: E402
from jass_env.games import make_rules  # noqa: E402
from jass_env.games.schieber.observation import OBS_DIM  # noqa: E402


@pytest.fixture(autouse=True)
def _one_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def test_short_training_acts_legally_saves_and_reloads(tmp_path):
    build_out = build(seed=2, n_envs=2, hidden=(32,))
    initial = [p.clone() for p in build_out[2].parameters()]
    out = train(300, seed=2, n_envs=2, steps_per_collect=150, batch_size=64, repeat=1, hidden=(32,))
    assert out["env_steps"] >= 300
    trained = list(out["actor"].parameters())
    # same seed, same initial weights: training moved them
    assert not all(torch.equal(a, b) for a, b in zip(initial, trained))
    # the four seat learners share one actor, one value network and one optimizer
    algos = [out["algorithm"].get_algorithm(a) for a in AGENTS]
    assert all(a.policy.actor is out["actor"] for a in algos)
    assert all(a.critic.value_net is out["value_net"] for a in algos)
    assert all(a.optim is algos[0].optim for a in algos)
    agent = TianshouPolicyAgent(out["actor"], greedy=False, seed=1)
    assert play_aec_round(agent, seed=5) >= 37  # contract + 36 cards (+ push)
    path = tmp_path / "ts.pt"
    save(path, out["actor"], out["value_net"], (32,), {"seed": 2})
    loaded = load_agent(path)
    assert play_aec_round(loaded, seed=6) >= 37
    e = aec_env()
    e.reset(seed=8)
    obs = e.observe(e.agent_selection)
    assert loaded.act(obs) == TianshouPolicyAgent(out["actor"], greedy=True).act(obs)


def test_seat_steps_match_a_brute_force_walk():
    """Each seat transition's reward is the seat's reward summed until it acts again, and its
    chain continues at its own next decision (or ends with the round, or at the buffer's end)."""
    algorithm, envs, _, _ = build(seed=0, n_envs=2, hidden=(16,), reward="tricks")
    buffer = VectorReplayBuffer(400, 2)
    collector = Collector(algorithm, envs, buffer)
    collector.reset(reset_buffer=True)
    collector.collect(n_step=300)
    envs.close()
    all_rew = buffer.rew.copy()  # (steps, 4 seats)
    seen = {"next": 0, "terminal": 0, "cut": 0, "reward from others": 0}
    for seat, agent_id in enumerate(AGENTS):
        ppo = algorithm.get_algorithm(agent_id)
        idx = np.flatnonzero(buffer.obs.agent_id[:len(buffer)] == agent_id)
        idx = idx[np.isin(idx, buffer.sample_indices(0))]
        buffer._meta.rew = all_rew[:, seat]  # as Tianshou's dispatcher sets it for this seat
        reward, next_index, terminal, cut = ppo.seat_steps(buffer, idx)
        for n, i in enumerate(idx):
            j, total = int(i), float(all_rew[i, seat])
            while True:  # walk the round until this seat acts again, the round ends, or the buffer
                if buffer.done[j]:
                    expect = (-1, True, -1)
                    break
                k = int(buffer.next(j))
                if k == j:
                    expect = (-1, False, j)
                    break
                if buffer.obs.agent_id[k] == agent_id:
                    expect = (k, False, -1)
                    break
                total += float(all_rew[k, seat])
                j = k
            assert (int(next_index[n]), bool(terminal[n]), int(cut[n])) == expect, (seat, i)
            assert reward[n] == pytest.approx(total)
            seen["next" if expect[0] >= 0 else "terminal" if expect[1] else "cut"] += 1
            seen["reward from others"] += total != float(all_rew[i, seat])
    buffer._meta.rew = all_rew
    assert all(v > 0 for v in seen.values()), seen


def test_seat_critic_values_the_other_team_negatively():
    value_net = torch.nn.Linear(OBS_DIM, 1)
    x = np.random.default_rng(0).random((4, OBS_DIM), dtype=np.float32)
    obs = Batch(obs=x, agent_id=np.array(AGENTS, dtype=object), mask=np.ones((4, 43), dtype=bool))
    raw = value_net(torch.as_tensor(x)).detach()
    for seat in range(4):
        v = SeatCritic(value_net, seat)(obs).detach()
        sign = torch.tensor([[1.0] if s % 2 == seat % 2 else [-1.0] for s in range(4)])
        assert torch.allclose(v, sign * raw)


def test_masked_actor_never_samples_an_illegal_action():
    _, envs, actor, _ = build(seed=1, n_envs=1, hidden=(16,))
    envs.close()
    mask = np.zeros((1, 43), dtype=bool)
    mask[0, [3, 40]] = True
    obs = Batch(obs=np.zeros((1, OBS_DIM), dtype=np.float32), mask=mask, agent_id=np.array(["player_0"]))
    with torch.no_grad():
        logits, _ = actor(obs)
    probs = torch.softmax(logits, -1)[0]
    assert float(probs[[3, 40]].sum()) == pytest.approx(1.0)
    empty = Batch(obs=obs.obs, mask=np.zeros((1, 43), dtype=bool), agent_id=obs.agent_id)
    with torch.no_grad():
        assert torch.isfinite(torch.softmax(actor(empty)[0], -1)).all()  # no NaN at a terminal observation


def test_errors_are_clear(tmp_path, capsys):
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="not a readable torch checkpoint"):
        load_agent(bad)
    other = tmp_path / "other.pt"
    torch.save({"format": "something-else"}, other)
    with pytest.raises(ValueError, match="not a jass-tianshou-ppo/1 checkpoint"):
        load_agent(other)
    with pytest.raises(ValueError, match="unknown reward 'score'"):
        build(reward="score")
    assert main(["--timesteps", "0"]) == 2
    assert "timesteps" in capsys.readouterr().err
    with pytest.raises(ValueError, match="no legal action"):
        TianshouPolicyAgent(build(n_envs=1, hidden=(8,))[2]).act(
            {"observation": np.zeros(OBS_DIM, np.float32), "action_mask": np.zeros(43, np.int8)})


def test_script_end_to_end(tmp_path, capsys):
    path = tmp_path / "m.pt"
    rc = main(["--timesteps", "200", "--envs", "1", "--steps-per-collect", "200", "--batch-size", "64",
               "--repeat", "1", "--hidden", "32", "--eval-deals", "2", "--save", str(path)])
    assert rc == 0
    report = json.loads(capsys.readouterr().out)
    assert report["env_steps"] >= 200 and set(report["evaluation"]) == {"random", "heuristic"}
    assert load_agent(path).name == "tianshou-ppo"


def test_linear_lr_schedule_reaches_zero_at_the_last_update():
    out = train(600, seed=1, n_envs=2, steps_per_collect=200, batch_size=64, repeat=1, hidden=(16,),
                lr=1e-3, lr_schedule="linear")
    optimizer = out["algorithm"].lr_schedulers[0].optimizer
    # 3 updates of 200 steps: the rate was 1e-3, then 2/3 and 1/3 of it; after the last update, 0
    assert optimizer.param_groups[0]["lr"] == pytest.approx(0.0, abs=1e-12)
    assert out["algorithm"].lr_schedulers[0].last_epoch == 3
    constant = train(200, seed=1, n_envs=2, steps_per_collect=200, batch_size=64, repeat=1, hidden=(16,),
                     lr=1e-3)
    assert constant["algorithm"].lr_schedulers == []
    with pytest.raises(ValueError, match="unknown lr_schedule 'step'.*constant, linear"):
        train(10, lr_schedule="step")


def _play_first_legal(env, rounds):
    """Play ``rounds`` rounds of a Tianshou env, each learning seat taking its lowest legal action:
    [(seats that acted, the random seats (none in self-play), summed reward vector)] per round."""
    out = []
    for _ in range(rounds):
        obs, _ = env.reset()
        seats, total = set(), np.zeros(len(AGENTS))
        while True:
            seats.add(obs["agent_id"])
            obs, rew, term, trunc, _ = env.step(int(np.flatnonzero(obs["mask"])[0]))
            total += rew
            if term or trunc:
                break
        out.append((seats, set(getattr(env, "random_seats", ())), total))
    return out


def test_random_opponent_rounds_hand_tianshou_only_the_learning_team(monkeypatch):
    """With random_opponents=1 every round has one team played by the random bot inside the env:
    Tianshou sees only the other team's turns, each random move is random_actions' legal choice,
    and the tricks reward of the random seats' steps still reaches the learning team (summed over
    the round it is the "points" reward: the round's score difference / 157)."""
    import examples.tianshou_ppo as ts

    calls = []

    def spy(obs, mask, rules, rng):
        actions = random_actions(obs, mask, rules, rng)
        calls.append(bool(np.asarray(mask, dtype=bool)[0, actions[0]]))
        return actions

    monkeypatch.setattr(ts, "random_actions", spy)
    rules = make_rules("schieber")
    tricks = _play_first_legal(ts.make_env(rules, "tricks", 7, 1.0), 12)
    points = _play_first_legal(ts.make_env(rules, "points", 7, 1.0), 12)  # same deals and draws
    learning_teams = set()
    for (seats, random_seats, total), (_, _, final) in zip(tricks, points):
        assert len(random_seats) == 2 and {int(a[-1]) % 2 for a in random_seats} in ({0}, {1})
        assert seats and seats.isdisjoint(random_seats) and seats | random_seats == set(AGENTS)
        learning_teams.add(int(min(seats)[-1]) % 2)
        assert total == pytest.approx(final)
        assert total[0] == pytest.approx(-total[1]) and total[0] == pytest.approx(total[2])
    assert learning_teams == {0, 1}  # either team learns
    # each round the random team plays 18 cards (and the contract when it is theirs to declare)
    assert len(calls) >= 2 * 12 * 18 and all(calls)


def test_random_opponents_never_reach_the_buffer_and_default_is_self_play():
    algorithm, envs, _, _ = build(seed=3, n_envs=2, hidden=(16,), random_opponents=1.0)
    buffer = VectorReplayBuffer(400, 2)
    collector = Collector(algorithm, envs, buffer)
    collector.reset(reset_buffer=True)
    collector.collect(n_step=300)
    episode_teams = []
    for env_index in range(2):
        idx = buffer.sample_indices(0)
        idx = np.sort(idx[(idx >= env_index * 200) & (idx < (env_index + 1) * 200)])
        teams = set()
        for i in idx:  # one round's learning team, until the round ends
            teams.add(int(str(buffer.obs.agent_id[i])[-1]) % 2)
            if buffer.done[i]:
                episode_teams.append(teams)
                teams = set()
    envs.close()
    assert len(episode_teams) >= 4 and all(len(t) == 1 for t in episode_teams)
    # the default (0) keeps Tianshou's own PettingZooEnv: four-seat self-play, no random seats
    _, envs, _, _ = build(seed=3, n_envs=1, hidden=(16,))
    assert type(envs.workers[0].env) is PettingZooEnv
    envs.close()
    seats = _play_first_legal(make_env(make_rules("schieber"), "tricks", 7), 2)
    assert all(s == set(AGENTS) for s, _, _ in seats)


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan")])
def test_random_opponents_outside_0_to_1_is_a_clear_error(bad, capsys):
    with pytest.raises(ValueError, match="random_opponents is the fraction of rounds .* from 0 to 1"):
        train(10, random_opponents=bad)
    assert main(["--timesteps", "10", "--random-opponents", str(bad)]) == 2
    assert "from 0 to 1; got" in capsys.readouterr().err
