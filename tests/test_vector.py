"""Tests of the batched environment (jass_env.envs.vector) against the AEC env and the rules."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from jass_env.engine.state import PHASE_OVER, StateView
from jass_env.engine.switches import RP_BERGPREIS, RP_MATCH_ROUNDS, RP_MULT, RP_TARGET
from jass_env.engine.transitions import for_game
from jass_env.envs.rewards import reward_kinds
from jass_env.envs.vector import VectorJassEnv
from jass_env.games import SCHIEBER_PRESETS, make_rules
from jass_env.games.schieber.observation import OBS_DIM, STATE_DIM, encode_state
from jass_env.round import IllegalActionError, Round

aec = pytest.importorskip("jass_env.envs.aec")

#: episodes each game plays in the equivalence test (so auto-resets are covered), step cap
EPISODES_WANTED = {"round": 3, "match": 1}
MAX_STEPS = 3000


def _pick(rng: np.random.Generator, mask_row: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask_row)))


# equivalence
#: every Schieber preset, the Differenzler games (whose variants share the compiled paths), Mittlere,
#: Molotow for three to six, Sidi and Schieber for six (the order picks each one's reward kind)
EQUIVALENCE_PRESETS = sorted(SCHIEBER_PRESETS) + ["differenzler", "differenzler3", "mittlere", "molotow",
                                                  "molotow3", "sidi", "schieber6", "molotow5", "molotow6"]


@pytest.mark.parametrize("episode", ["round", "match"])
@pytest.mark.parametrize("preset", EQUIVALENCE_PRESETS)
def test_same_as_aec(preset: str, episode: str) -> None:
    """Game i of the vector env and an AEC env seeded alike agree at every step."""
    seeds = [11, 2024, 7]
    kinds = reward_kinds(make_rules(preset))
    k = EQUIVALENCE_PRESETS.index(preset) + (episode == "match")
    reward = kinds[k % len(kinds)]                    # every reward kind in both episode modes
    venv = VectorJassEnv(len(seeds), rules=preset, episode=episode, reward=reward)
    envs = [aec.raw_env(rules=preset, episode=episode, reward=reward) for _ in seeds]
    obs, mask, seat = venv.reset(seeds=seeds)
    for e, s in zip(envs, seeds, strict=True):
        e.reset(seed=s)
    rng = np.random.default_rng(0)
    episodes = [0] * len(seeds)
    venv_steps = 0
    while min(episodes) < EPISODES_WANTED[episode]:
        assert venv_steps < MAX_STEPS, episodes
        venv_steps += 1
        actions = np.zeros(len(seeds), dtype=np.int64)
        for i, e in enumerate(envs):
            agent = e.agent_selection
            assert seat[i] == int(agent.split("_")[1])
            o = e.observe(agent)
            np.testing.assert_array_equal(obs[i], o["observation"])
            np.testing.assert_array_equal(mask[i], o["action_mask"].astype(bool))
            actions[i] = _pick(rng, mask[i])
        out = venv.step(actions)
        obs, mask, seat = out.obs, out.mask, out.seat
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            expected = np.array([e.rewards[a] for a in e.possible_agents], dtype=np.float32)
            np.testing.assert_array_equal(out.rewards[i], expected)
            over = all(e.terminations.values())
            assert out.done[i] == over
            if over:
                view = StateView(e.core_state, e.rules.params)
                if episode == "round":
                    score = view.score
                else:
                    score = view.match_score
                    assert out.winner[i] == view.match_winner
                assert list(out.final_score[i]) == score
                episodes[i] += 1
                e.reset()                          # next episode from the same deal stream
            else:
                assert out.winner[i] == -1


# bookkeeping
def _round_score(st: np.ndarray, rp: np.ndarray, team: int) -> int:
    """(card points + Match bonus + Weis + Stöck) * multiplier, recomputed from a finished round."""
    v = StateView(st, rp)
    total = v.points[team]
    if v.match_team == team:
        total += rp[11]                                # RP_MATCH_BONUS
    if v.weis_team == team:
        total += v.weis_points[team]
    if v.stoeck_shown and v.stoeck_player % 2 == team:
        total += rp[10]                                # RP_STOECK
    return int(total * rp[RP_MULT + v.contract])


@pytest.mark.parametrize("preset", ["schieber", "schieber_2500", "seed_nl"])
def test_round_results(preset: str) -> None:
    """Each finished round reports one result after 37 or 38 actions; scores follow the rules."""
    n = 64
    env = VectorJassEnv(n, rules=preset, episode="round", reward="points", state_obs=False)
    env.reset(seed=5)
    rp = env.rp
    since = np.zeros(n, dtype=np.int64)
    finished = 0
    for _ in range(200):
        before = env.game_states.copy()
        actions = env.sample_actions().copy()
        out = env.step(actions)
        since += 1
        for i in np.flatnonzero(out.done):
            st = before[i].copy()
            for_game(env.rules.spec.kind).apply_action(st, int(actions[i]), rp)
            v = StateView(st, rp)
            assert v.phase == PHASE_OVER
            assert since[i] in (37, 38)                # contract (+ push) and 36 cards
            assert v.points[0] + v.points[1] == 157
            assert v.tricks_won[0] + v.tricks_won[1] == 9
            score = [_round_score(st, rp, 0), _round_score(st, rp, 1)]
            assert list(out.final_score[i]) == score
            assert score == v.score
            diff = (score[0] - score[1]) / 157
            np.testing.assert_allclose(out.rewards[i], [diff, -diff, diff, -diff], rtol=1e-6)
            assert out.winner[i] == (0 if score[0] > score[1] else 1 if score[1] > score[0] else 2)
            since[i] = 0
            finished += 1
        # games that did not finish report nothing
        assert not out.rewards[~out.done].any()
        assert (out.winner[~out.done] == -1).all() and not out.final_score[~out.done].any()
    assert finished >= 4 * n


@pytest.mark.parametrize("preset", ["schieber", "tournament", "seed_nl"])
def test_match_results(preset: str) -> None:
    """Match episodes: the summed 'tricks' rewards equal the final score difference, the winner
    is consistent with the target / number of rounds, and the next match starts at 0."""
    n = 32
    env = VectorJassEnv(n, rules=preset, episode="match", reward="tricks")
    env.reset(seed=9)
    rp = env.rp
    acc = np.zeros(n, dtype=np.float64)
    finished = 0
    for _ in range(700):
        out = env.step(env.sample_actions())
        acc += out.rewards[:, 0]
        assert np.all(out.rewards[:, 0] == -out.rewards[:, 1])
        for i in np.flatnonzero(out.done):
            a, b = out.final_score[i]
            assert rp[RP_BERGPREIS] == 0
            assert abs(acc[i] * 157 - (a - b)) < 1e-3 * max(1, abs(a - b))
            w = out.winner[i]
            if rp[RP_MATCH_ROUNDS] > 0:
                assert w == (0 if a > b else 1 if b > a else 2)
            else:
                assert w in (0, 1) and out.final_score[i, w] >= rp[RP_TARGET]
            v = StateView(env.game_states[i], rp)  # the new match
            assert v.match_score == [0, 0]
            assert v.rounds_done == 0 and v.match_winner is None
            acc[i] = 0.0
            finished += 1
    assert finished >= n // 2


# seeding
def _trajectory(env: VectorJassEnv, steps: int, **reset_kwargs: object) -> list[np.ndarray]:
    obs, _, _ = env.reset(**reset_kwargs)
    frames = [obs.copy()]
    for _ in range(steps):
        frames.append(env.step(env.sample_actions()).obs.copy())
    return frames


def test_seeding() -> None:
    env = VectorJassEnv(16)
    a = _trajectory(env, 60, seed=3)
    b = _trajectory(env, 60, seed=3)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    c = _trajectory(env, 0, seed=4)
    hands_a = a[0][:, :36]
    assert not np.array_equal(hands_a, c[0][:, :36])
    # games of one env get different deals
    deals = {tuple(StateView(env.game_states[i], env.rp).dealt) for i in range(16)}
    assert len(deals) == 16
    # explicit seeds: equal seeds deal equal games, and reproduce across envs
    env2 = VectorJassEnv(3)
    env2.reset(seeds=[8, 8, 9])
    st = env2.game_states
    assert np.array_equal(st[0], st[1]) and not np.array_equal(st[0, :4], st[2, :4])
    env3 = VectorJassEnv(1)
    env3.reset(seeds=[9])
    assert np.array_equal(env3.game_states[0], st[2])


def test_dealers_fix_who_deals_without_changing_the_hands() -> None:
    env = VectorJassEnv(8)
    env.reset(seeds=[4] * 8, dealers=[0, 1, 2, 3, 0, 1, 2, 3])
    views = [StateView(st, env.rp) for st in env.game_states]
    assert [v.dealer for v in views] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert all(v.dealt == views[0].dealt for v in views)
    # the forehand (dealer's right-hand neighbour) chooses the contract
    assert env.reset(seeds=[4] * 8, dealers=[3] * 8).seat.tolist() == [0] * 8
    assert env.reset(seeds=[4] * 8, dealers=[2] * 8).seat.tolist() == [3] * 8


def test_set_state_continues_exactly_where_get_state_was_taken() -> None:
    env = VectorJassEnv(32, state_obs=True)
    env.reset(seed=11)
    for _ in range(50):
        env.step(env.sample_actions())
    saved = env.get_state()

    def play(n: int) -> list[np.ndarray]:
        seen = []
        for _ in range(n):
            out = env.step(env.sample_actions())
            seen += [out.obs.copy(), out.mask.copy(), out.rewards.copy(), out.done.copy(), out.states.copy()]
        return seen

    first = play(60)
    r = env.set_state(**saved)
    assert r.seat.tolist() == [StateView(st, env.rp).to_move for st in saved["game_states"]]
    second = play(60)
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
    # the restored legal-action cache is what check_actions uses
    r = env.set_state(**saved)
    illegal = np.where(r.mask, 0, 1).argmax(axis=1)
    with pytest.raises(IllegalActionError):
        env.step(illegal)


def test_set_state_rejects_states_that_do_not_fit_and_changes_nothing() -> None:
    env = VectorJassEnv(4)
    env.reset(seed=2)
    before = env.get_state()
    with pytest.raises(ValueError, match=r"shape \(4, "):
        env.set_state(before["game_states"][:3])
    finished = Round(seed=3)                            # a round played to its end
    while not finished.is_over:
        finished.step(int(finished.legal_actions()[0]))
    over = before["game_states"].copy()
    over[1] = finished.state
    with pytest.raises(ValueError, match="game 1 is not at a decision"):
        env.set_state(over)
    assert np.array_equal(env.get_state()["game_states"], before["game_states"])


def test_bad_seeds_and_dealers() -> None:
    env = VectorJassEnv(2)
    with pytest.raises(ValueError, match="one seed per game"):
        env.reset(seeds=[1, 2, 3])
    with pytest.raises(ValueError, match="non-negative"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match=r"dealers must give one integer per game \(2\) in 0..3, or -1"):
        env.reset(seed=1, dealers=[0, 4])
    with pytest.raises(ValueError, match="dealers must give"):
        env.reset(seed=1, dealers=[0])


# errors
def test_illegal_action_message() -> None:
    env = VectorJassEnv(4, rules="schieber")
    obs, mask, seat = env.reset(seed=1)
    actions = np.array([int(np.flatnonzero(mask[i])[0]) for i in range(4)], dtype=np.int64)
    actions[2] = 0 if not mask[2, 0] else 35           # a card while the contract is chosen
    before = env.game_states.copy()
    with pytest.raises(IllegalActionError) as err:
        env.step(actions)
    msg = str(err.value)
    assert isinstance(err.value, ValueError)
    assert "game 2" in msg and f"seat {seat[2]}" in msg and f"(action {actions[2]})" in msg
    assert "legal:" in msg and "push (42)" in msg
    assert np.array_equal(env.game_states, before)     # nothing was stepped
    actions[2] = 99
    with pytest.raises(IllegalActionError, match="action 99 .actions are 0..42"):
        env.step(actions)
    with pytest.raises(ValueError, match="shape"):
        env.step(actions[:3])
    with pytest.raises(ValueError, match="integers"):
        env.step(actions.astype(np.float32))
    with pytest.raises(RuntimeError, match="reset"):
        VectorJassEnv(1).step([36])
    with pytest.raises(ValueError, match="episode"):
        VectorJassEnv(1, episode="game")
    with pytest.raises(ValueError, match="reward"):
        VectorJassEnv(1, reward="score")
    with pytest.raises(ValueError, match="num_envs"):
        VectorJassEnv(0)


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("bad", [-1, 43, 100_000, -2**63])
def test_unchecked_mode_still_rejects_actions_outside_the_layout(parallel: bool, bad: int) -> None:
    # check_actions=False skips the legality check, never memory safety: an action outside the
    # 43-action layout (0..42) raises, names the game and the action, and steps no game
    env = VectorJassEnv(4, check_actions=False, parallel=parallel)
    env.reset(seed=3)
    actions = env.sample_actions().copy()
    actions[1] = bad
    before = env.game_states.copy()
    with pytest.raises(IllegalActionError, match=rf"game 1: .*action {bad} \(actions are 0..42\)"):
        env.step(actions)
    assert np.array_equal(env.game_states, before)
    env.step(env.sample_actions())                     # and the env goes on with legal actions


def test_sampling_a_game_left_without_legal_action_is_a_named_error() -> None:
    """check_actions=False takes illegal actions on trust; one can leave a game where the seat to
    act has no legal action. Sampling there once divided by the size of the empty legal set (a
    silent out-of-range action, or ZeroDivisionError without numba): now a RuntimeError names the
    game and the cause."""
    env = VectorJassEnv(16, rules="schieber", check_actions=False)
    rng = np.random.default_rng(0)
    mask = env.reset(seed=0).mask
    for _ in range(200):                                # each game: an illegal action half the time
        actions = np.array([int(rng.choice(np.flatnonzero(~row if rng.random() < 0.5 else row)))
                            for row in mask], dtype=np.int64)
        mask = env.step(actions).mask
        empty = np.flatnonzero(~mask.any(axis=1))
        if empty.size:
            break
    assert empty.size, "no game was left without a legal action within 200 steps"
    with pytest.raises(RuntimeError, match=rf"game {empty[0]} has no legal action: an illegal action was "
                                           r"stepped with check_actions=False"):
        env.sample_actions()
    env.reset(seed=1)                                   # reset makes every game playable again
    assert env.sample_actions().min() >= 0


def test_reset_refuses_seeds_that_are_not_non_negative_integers() -> None:
    env = VectorJassEnv(2)
    env.reset(seed=0)
    before = env.game_states.copy()
    for seed in (True, -1, 1.5):
        with pytest.raises(ValueError, match=r"seed must be a non-negative integer or None"):
            env.reset(seed=seed)
        with pytest.raises(ValueError, match=r"seed must be a non-negative integer or None"):
            env.reset(seed=seed, seeds=[1, 2])          # also next to per-game seeds
    for seeds in ([1, True], np.array([1.5, 2.0]), [3, None]):
        with pytest.raises(ValueError, match=r"seeds\[[01]\] must be a non-negative integer, got "):
            env.reset(seeds=seeds)
    assert np.array_equal(env.game_states, before)


# arrays
def test_arrays_shapes_and_reuse() -> None:
    n = 8
    env = VectorJassEnv(n, state_obs=True)
    first = env.reset(seed=2)
    out = env.step(env.sample_actions())
    assert out.obs is first.obs and out.mask is first.mask and out.seat is first.seat
    for _ in range(50):
        again = env.step(env.sample_actions().astype(np.int32))   # other int dtypes are accepted
        for x, y in zip(again, out, strict=True):
            assert x is y
    shapes = {"obs": ((n, OBS_DIM), np.float32), "mask": ((n, 43), np.bool_), "seat": ((n,), np.int64),
              "rewards": ((n, 4), np.float32), "done": ((n,), np.bool_),
              "final_score": ((n, 2), np.int64), "winner": ((n,), np.int64),
              "states": ((n, STATE_DIM), np.float32)}
    for name, (shape, dtype) in shapes.items():
        arr = getattr(out, name)
        assert arr.shape == shape and arr.dtype == dtype and arr.flags.c_contiguous, name
    # the state is encode_state for the seat to act, and starts with the observation
    buf = np.zeros(STATE_DIM, dtype=np.float32)
    for i in range(n):
        encode_state(env.game_states[i], int(out.seat[i]), env.rp, buf)
        np.testing.assert_array_equal(out.states[i], buf)
    np.testing.assert_array_equal(out.states[:, :OBS_DIM], out.obs)
    assert env.states() is out.states
    # states() on request without state_obs
    plain = VectorJassEnv(n)
    plain.reset(seed=2)
    step = plain.step(plain.sample_actions())
    assert step.states is None
    s = plain.states()
    assert s.shape == (n, STATE_DIM)
    np.testing.assert_array_equal(s[:, :OBS_DIM], step.obs)
    assert 2500 < env.bytes_per_game and VectorJassEnv(n).bytes_per_game <= 4096


def test_sample_actions_legal_and_uniform() -> None:
    env = VectorJassEnv(7000)
    _, mask, _ = env.reset(seed=0)
    a = env.sample_actions()
    assert a is env.sample_actions()                   # reused buffer
    assert (mask[:, 36:].sum(1) == 7).all()            # 6 contracts + push for forehand
    counts = np.bincount(a, minlength=43)[36:]
    assert counts.min() > 850 and counts.max() < 1150  # 1000 expected each
    for _ in range(40):
        a = env.sample_actions()
        assert mask[np.arange(7000), a].all()
        mask = env.step(a).mask


def test_unchecked_and_parallel_agree() -> None:
    kw = dict(rules="seed_vaud", episode="match", reward="win")
    envs = [VectorJassEnv(64, **kw), VectorJassEnv(64, check_actions=False, **kw),
            VectorJassEnv(64, parallel=True, **kw)]
    outs = [e.reset(seed=4) for e in envs]
    for _ in range(150):
        a = envs[0].sample_actions().copy()
        outs = [e.step(a) for e in envs]
        for o in outs[1:]:
            for x, y in zip(o[:7], outs[0][:7], strict=True):
                np.testing.assert_array_equal(x, y)


def test_torch_shares_memory() -> None:
    torch = pytest.importorskip("torch")
    env = VectorJassEnv(4)
    obs, mask, seat = env.reset(seed=0)
    t = torch.from_numpy(obs)
    env.step(env.sample_actions())
    assert torch.equal(t, torch.from_numpy(obs)) and t.data_ptr() == obs.ctypes.data
    torch.from_numpy(mask), torch.from_numpy(seat)
    env.step(torch.from_numpy(env.sample_actions().copy()))      # CPU tensors are accepted


def test_benchmark_runs_on_one_cpu() -> None:
    # benchmarks/vector.py must run when the process may use a single CPU (taskset -c 0), its AEC
    # measurement included (importing benchmarks/env.py used to reset numba's thread count)
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "vector.py"
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    done = subprocess.run([*pin, sys.executable, str(script), "--seconds", "0.02"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["aec_steps_per_s"] > 0 and result["decisions_per_s"]["1024"] > 0
    if pin:
        assert set(result["parallel_decisions_per_s"]["1024"]) == {"1"}   # one CPU: one thread

