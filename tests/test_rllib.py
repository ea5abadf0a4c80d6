"""RLlib integration (examples/rllib_ppo.py): env wrapper, team metrics, training, checkpoint reload,
the strength figure against ``random``, and the two-node Ray cluster recipe of docs/integrations.md (head and
worker started with ``ray start`` on a loopback address, the job sent with ``ray job submit``,
token authentication on).

Skipped when the optional extra is missing (``pip install -e '.[rllib]'``); CI runs it in its
own virtual environment through ``.ci/rllib`` (Ray pins its own gymnasium).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="RLlib extra not installed (pip install -e '.[rllib]'; "
                                        "CI runs this file through .ci/rllib)")
import psutil  # noqa: E402  (a dependency of Ray)
import ray  # noqa: E402
import torch  # noqa: E402

from examples import rllib_ppo as rp  # noqa: E402
from examples.rllib_ppo import AGENTS  # noqa: E402
from jass_env.engine.state import StateView  # noqa: E402
from jass_env.games.schieber.observation import OBS_DIM  # noqa: E402
from jass_env.games.schieber.rules import N_ACTIONS  # noqa: E402
from jass_env.round import IllegalActionError  # noqa: E402


def _legal(obs: dict[str, np.ndarray]) -> np.ndarray:
    return np.flatnonzero(obs["action_mask"])


def _play_round(env: rp.JassMultiAgentEnv, seed: int, choose) -> tuple[dict[str, float], int]:
    """Play one episode choosing ``choose(obs) -> action``; returns per-seat returns and steps."""
    obs, _ = env.reset(seed=seed)
    returns = dict.fromkeys(AGENTS, 0.0)
    steps = 0
    while True:
        assert len(obs) == 1, "turn-based: only the agent to move is observed"
        (agent, o), = obs.items()
        assert env.observation_spaces[agent].contains(o)
        obs, rew, term, trunc, _ = env.step({agent: choose(o)})
        steps += 1
        for a, r in rew.items():
            returns[a] += r
        assert trunc == {"__all__": False}
        if term["__all__"]:
            assert set(obs) == set(AGENTS) and all(term[a] for a in AGENTS)
            assert all(not o["action_mask"].any() for o in obs.values())
            return returns, steps
        assert set(rew) == set(obs), "rewards travel with the observation of the seat to move"


def test_env_wrapper_keys_turns_and_zero_sum_returns() -> None:
    env = rp.JassMultiAgentEnv({"rules": "schieber", "reward": "points"})
    space = env.observation_spaces["player_0"]
    assert set(space.spaces) == {"observations", "action_mask"}
    assert space["observations"].shape == (OBS_DIM,) and space["action_mask"].shape == (N_ACTIONS,)
    assert space["action_mask"].dtype == np.float32
    rng = np.random.default_rng(0)
    for seed in range(3):
        returns, steps = _play_round(env, seed, lambda o: int(rng.choice(_legal(o))))
        assert steps in (37, 38)                      # contract (maybe after a push) + 36 cards
        score = StateView(env.aec.core_state, env.aec.rules.params).score
        diff = (score[0] - score[1]) / 157.0
        assert returns["player_0"] == pytest.approx(diff) == pytest.approx(returns["player_2"])
        assert returns["player_1"] == pytest.approx(-diff) == pytest.approx(returns["player_3"])


def test_env_wrapper_tricks_reward_sums_to_points_and_is_reproducible() -> None:
    env = rp.JassMultiAgentEnv({"rules": "schieber", "reward": "tricks"})
    first = _play_round(env, 7, lambda o: int(_legal(o)[0]))
    again = _play_round(env, 7, lambda o: int(_legal(o)[0]))
    assert first == again
    score = StateView(env.aec.core_state, env.aec.rules.params).score
    assert first[0]["player_0"] == pytest.approx((score[0] - score[1]) / 157.0)


def test_random_opponents_leave_only_the_learning_team_to_the_policy() -> None:
    """With random_opponents 1 every round has one team played inside the env by the random bot:
    only the other team's seats are observed, each with the points difference as its return."""
    env = rp.JassMultiAgentEnv({"rules": "schieber", "reward": "tricks", "random_opponents": 1.0})
    teams_learning = set()
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        learners = set(AGENTS) - env.random_seats
        assert len(env.random_seats) == 2 and {AGENTS.index(a) % 2 for a in env.random_seats} != {0, 1}
        teams_learning.add(AGENTS.index(min(learners)) % 2)
        returns = dict.fromkeys(learners, 0.0)
        while True:
            (agent, o), = obs.items()
            assert agent in learners
            obs, rew, term, _, _ = env.step({agent: int(_legal(o)[0])})
            for a, r in rew.items():
                returns[a] += r
            if term["__all__"]:
                break
            assert set(obs) <= learners
        assert set(obs) == learners and set(rew) <= learners
        score = StateView(env.aec.core_state, env.aec.rules.params).score
        learner_team = AGENTS.index(min(learners)) % 2
        diff = (score[learner_team] - score[1 - learner_team]) / 157.0
        assert all(r == pytest.approx(diff) for r in returns.values())
    assert teams_learning == {0, 1}, "each team learns in some rounds"


def test_random_opponents_share_and_reproducibility() -> None:
    """A share F of the rounds has random opponents; the same seed replays the same rounds."""
    env = rp.JassMultiAgentEnv({"rules": "schieber", "random_opponents": 0.5})
    drawn = []
    for seed in range(200):
        env.reset(seed=seed)
        drawn.append(env.random_seats)
    assert 60 <= sum(bool(d) for d in drawn) <= 140
    again = rp.JassMultiAgentEnv({"rules": "schieber", "random_opponents": 0.5})
    for seed in (3, 4, 5):
        assert _play_first_turns(env, seed) == _play_first_turns(again, seed)
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="from 0 to 1"):
            rp.JassMultiAgentEnv({"rules": "schieber", "random_opponents": bad})


def _play_first_turns(env: rp.JassMultiAgentEnv, seed: int) -> list[tuple[str, int]]:
    obs, _ = env.reset(seed=seed)
    turns = []
    for _ in range(10):
        (agent, o), = obs.items()
        turns.append((agent, int(_legal(o)[-1])))
        obs, *_ = env.step({agent: turns[-1][1]})
    return turns


def test_env_wrapper_errors_are_clear() -> None:
    env = rp.JassMultiAgentEnv({"rules": "schieber"})
    obs, _ = env.reset(seed=1)
    (agent, o), = obs.items()
    other = next(a for a in AGENTS if a != agent)
    with pytest.raises(ValueError, match=f"{agent} is to move"):
        env.step({other: 0})
    illegal = int(np.flatnonzero(o["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="legal actions"):
        env.step({agent: illegal})
    with pytest.raises(TypeError, match="valid keywords"):
        rp.JassMultiAgentEnv({"rulez": "schieber"})


def test_cli_options(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert rp.parse_args([]).address == "local"
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    args = rp.parse_args(["--num-env-runners", "8", "--iterations", "3"])
    assert (args.address, args.num_env_runners, args.iterations) == ("10.0.0.1:6379", 8, 3)
    assert rp.parse_args(["--address", "auto"]).address == "auto"
    for bad, msg in ((["--minibatch-size", "500", "--train-batch-size", "400"], "must not exceed"),
                     (["--rules", "nope"], "invalid choice"),
                     (["--num-env-runners", "-1"], "must be >= 0"),
                     (["--random-opponents", "2"], "from 0 to 1"),
                     (["--random-opponents", "0.5", "--rules", "differenzler", "--eval-deals", "0"],
                      "for the team games")):
        with pytest.raises(SystemExit):
            rp.parse_args(bad)
        assert msg in capsys.readouterr().err


def test_load_shared_module_missing_checkpoint(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="no RLlib module checkpoint"):
        rp.load_shared_module(tmp_path)


#: the address every Ray process of these tests binds to: a loopback address other than 127.0.0.1,
#: because Ray replaces 127.0.0.1 and localhost by the machine's network address
#: (ray._private.services.resolve_ip_for_localhost)
LOOPBACK = "127.0.0.2"


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address=LOOPBACK)
    yield
    ray.shutdown()


def test_node_check_names_the_node_and_the_fix_when_a_module_is_missing(local_ray) -> None:
    assert rp.check_nodes_can_import() == [LOOPBACK]
    with pytest.raises(rp.ClusterSetupError) as err:
        rp.check_nodes_can_import((*rp.RUNNER_IMPORTS, "jass_env_not_installed_here"))
    message = str(err.value)
    assert f"node {LOOPBACK} (" in message and "cannot import jass_env_not_installed_here" in message
    assert "cannot import jass_env," not in message            # the installed ones are not named
    assert "ray job submit --working-dir ." in message and "install the project on every node" in message


def test_train_two_iterations_checkpoint_and_reload(local_ray, tmp_path, capsys) -> None:
    ckpt_dir = tmp_path / "ckpt"
    args = rp.parse_args(["--iterations", "2", "--num-env-runners", "0", "--train-batch-size", "200",
                          "--minibatch-size", "100", "--num-epochs", "1", "--seed", "3",
                          "--checkpoint-dir", str(ckpt_dir), "--rules", "schieber", "--address", "local",
                          "--eval-deals", "4"])
    ckpt, history, strength = rp.train(args)
    out = capsys.readouterr().out
    assert "team0_ret" in out and f"wrote the checkpoint to {ckpt_dir.resolve()}" in out
    assert "torch threads: driver 1, env runners []" in out

    # the strength figure: the checkpoint written, greedy, against random on duplicate deals
    assert strength["agents"]["B"] == "random" and strength["deals"] == 4
    low, high = strength["ci95"]
    assert low <= strength["points_per_hand"] <= high
    assert rp.strength_line(strength) in out

    # metrics: per-team / per-seat returns, not the all-seat sum (always 0 in a zero-sum game)
    assert len(history) == 2
    last = history[-1]
    assert last["env_steps"] >= 200 and last["env_steps_per_s"] > 0
    assert np.isfinite(last[rp.TEAM_0_RETURN])
    seats = [last[k] for k in rp.SEAT_RETURNS]
    assert seats[0] == pytest.approx(seats[2]) == pytest.approx(last[rp.TEAM_0_RETURN])
    assert seats[1] == pytest.approx(seats[3]) == pytest.approx(-seats[0])

    # checkpoint written and reloads: the module plays only legal actions through a full round
    assert ckpt == ckpt_dir.resolve() and rp.module_path(ckpt).is_dir()
    module = rp.load_shared_module(ckpt)
    env = rp.JassMultiAgentEnv({"rules": "schieber"})
    chosen = []

    def choose(o):
        a = rp.greedy_action(module, o)
        assert o["action_mask"][a] == 1.0
        chosen.append(a)
        return a

    _, steps = _play_round(env, 11, choose)
    assert steps >= 37 and len(chosen) == steps

    # the whole Algorithm restores too: its acting module gives the same logits, and it trains on
    config = rp.build_config(rules="schieber", num_env_runners=0, train_batch_size=200,
                             minibatch_size=100, num_epochs=1)
    algo = config.build_algo()
    try:
        obs = [next(iter(env.reset(seed=s)[0].values())) for s in range(5)]
        batch = {"obs": {k: torch.as_tensor(np.stack([o[k] for o in obs])) for k in obs[0]}}
        fresh = algo.get_module(rp.MODULE_ID).forward_inference(
            {"obs": dict(batch["obs"])})["action_dist_inputs"]
        algo.restore_from_path(str(ckpt))
        with torch.no_grad():
            want = module.forward_inference({"obs": dict(batch["obs"])})["action_dist_inputs"]
            got = algo.get_module(rp.MODULE_ID).forward_inference(
                {"obs": dict(batch["obs"])})["action_dist_inputs"]
        assert torch.allclose(got, want) and not torch.allclose(fresh, want)
        assert rp.summarize(algo.train())["env_steps"] >= 200
    finally:
        algo.stop()


# two-node cluster
ROOT = Path(__file__).resolve().parent.parent
RAY = str(Path(sys.executable).with_name("ray"))
#: seconds the cluster may take to come up, and one job to finish (engine cached, tiny batch)
#: Ray's answer to a job submitted before any node's job agent registered ("try again later")
NO_JOB_AGENT_YET = "No available agent to submit job"
CLUSTER_START_TIMEOUT_S = 90
JOB_TIMEOUT_S = 300
#: the job of the test: one tiny PPO iteration, one env runner (on the worker node: the head has
#: no CPU), a few evaluation deals
TINY_RUN = ["--iterations", "1", "--num-env-runners", "1", "--num-envs-per-runner", "2",
            "--train-batch-size", "200", "--minibatch-size", "100", "--num-epochs", "1", "--seed", "5",
            "--eval-deals", "2"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


class TwoNodeCluster:
    """A Ray head (no CPU: dashboard, job server, the driver) and a worker node (1 CPU) started with
    ``ray start`` on :data:`LOOPBACK`, with token authentication (RAY_AUTH_MODE=token and a token
    file of its own) in the environment of every command, as the recipe in docs/integrations.md has it.
    :meth:`stop` ends every process the two ``ray start`` commands started, by its id."""

    def __init__(self, tmp: Path) -> None:
        token = tmp / "auth_token"
        token.write_text(secrets.token_hex(32))
        self.env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token),
                    "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
        self.gcs, self.dashboard = f"{LOOPBACK}:{_free_port()}", f"http://{LOOPBACK}:{_free_port()}"
        self.temp_dir = tmp / "ray"
        self.nodes: list[subprocess.Popen] = []
        common = ["--node-ip-address", LOOPBACK, "--object-store-memory", str(100 * 2**20),
                  "--disable-usage-stats", "--block"]
        # each node's job agent on a port of its own: both nodes share one address, and a Ray left
        # running by an earlier test may hold the default (52365)
        self._start([RAY, "start", "--head", "--port", self.gcs.split(":")[1], "--num-cpus", "0",
                     "--dashboard-host", LOOPBACK, "--dashboard-port", self.dashboard.rsplit(":", 1)[1],
                     "--dashboard-agent-listen-port", str(_free_port()),
                     "--temp-dir", str(self.temp_dir), *common], tmp / "head.log")
        self._wait_for_jobs_api()
        self._start([RAY, "start", "--address", self.gcs, "--num-cpus", "1",
                     "--dashboard-agent-listen-port", str(_free_port()), *common], tmp / "worker.log")
        self._wait_for_nodes(2)

    def _start(self, argv: list[str], log: Path) -> None:
        with open(log, "w") as f:
            self.nodes.append(subprocess.Popen(argv, env=self.env, stdout=f, stderr=subprocess.STDOUT,
                                               stdin=subprocess.DEVNULL, start_new_session=True))

    def ray_cli(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run([RAY, *args], env=self.env, capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL, cwd=ROOT)

    def _wait_for(self, what: str, ready) -> None:
        deadline = time.monotonic() + CLUSTER_START_TIMEOUT_S
        while not ready():
            dead = [p.args[:3] for p in self.nodes if p.poll() is not None]
            assert not dead, f"ray start exited: {dead}"
            assert time.monotonic() < deadline, f"the cluster did not come up: {what}"
            time.sleep(1)

    def _wait_for_jobs_api(self) -> None:
        self._wait_for("job server", lambda: self.ray_cli("job", "list", "--address",
                                                           self.dashboard).returncode == 0)

    def _wait_for_nodes(self, n: int) -> None:
        def alive() -> bool:
            out = self.ray_cli("list", "nodes", "--address", self.dashboard, "--format", "json")
            if out.returncode != 0:
                return False
            try:     # before any node registered Ray prints "No resource in the cluster", not JSON
                nodes = json.loads(out.stdout)
            except json.JSONDecodeError:
                return False
            return sum(x["state"] == "ALIVE" for x in nodes) >= n
        self._wait_for(f"{n} nodes", alive)

    def submit(self, *entrypoint: str, working_dir: Path | None = None) -> subprocess.CompletedProcess:
        """``ray job submit`` (waits for the job; its output is the job's log)."""
        shipped = ["--working-dir", str(working_dir)] if working_dir else []
        deadline = time.monotonic() + CLUSTER_START_TIMEOUT_S
        while True:
            job = self.ray_cli("job", "submit", "--address", self.dashboard, *shipped, "--", *entrypoint,
                               timeout=JOB_TIMEOUT_S)
            # right after start-up the nodes' job agents may not be registered yet; Ray refuses the
            # job with this message and asks to try again later
            if NO_JOB_AGENT_YET not in job.stdout + job.stderr or time.monotonic() > deadline:
                return job
            time.sleep(2)

    def stop(self) -> None:
        procs = []
        for p in self.nodes:
            try:
                procs += [psutil.Process(p.pid), *psutil.Process(p.pid).children(recursive=True)]
            except psutil.NoSuchProcess:
                pass
        for p in procs:
            try:
                p.terminate()
            except psutil.NoSuchProcess:
                pass
        _, alive = psutil.wait_procs(procs, timeout=20)
        for p in alive:
            try:
                p.kill()
            except psutil.NoSuchProcess:
                pass
        psutil.wait_procs(alive, timeout=10)


@pytest.fixture(scope="module")
def two_node_cluster():
    tmp = Path(tempfile.mkdtemp(prefix="jr", dir="/tmp"))     # short: Ray's socket paths are limited
    cluster = None
    try:
        cluster = TwoNodeCluster(tmp)
        yield cluster
    finally:
        if cluster is not None:
            cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def test_two_node_cluster_trains_on_the_worker_node_checkpoints_and_restores(two_node_cluster,
                                                                               tmp_path) -> None:
    script = str(ROOT / "examples" / "rllib_ppo.py")
    first, second = tmp_path / "first", tmp_path / "second"
    job = two_node_cluster.submit("python", script, *TINY_RUN, "--checkpoint-dir", str(first))
    assert job.returncode == 0, job.stdout[-3000:] + job.stderr[-3000:]
    assert f"can host env runners, each imports jass_env, numba, gymnasium, pettingzoo: {LOOPBACK}\n" \
        in job.stdout                                   # one node checked: the worker (the head has no CPU)
    assert "1 env runner(s) x 2 games" in job.stdout
    assert "torch threads: driver 1, env runners [1]" in job.stdout
    assert f"wrote the checkpoint to {first}" in job.stdout and rp.module_path(first).is_dir()
    assert "points per hand" in job.stdout and "vs random on 2 duplicate deals" in job.stdout

    again = two_node_cluster.submit("python", script, *TINY_RUN, "--restore", str(first),
                                    "--checkpoint-dir", str(second), "--eval-deals", "0")
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    assert f"restored {first}" in again.stdout and rp.module_path(second).is_dir()
    def logits(module) -> torch.Tensor:    # a fresh batch each call: the module pops the mask from it
        obs = {"observations": torch.zeros(1, OBS_DIM), "action_mask": torch.ones(1, N_ACTIONS)}
        with torch.no_grad():
            return module.forward_inference({"obs": obs})["action_dist_inputs"]

    restored, trained_on = rp.load_shared_module(first), rp.load_shared_module(second)
    assert torch.allclose(logits(restored), logits(rp.load_shared_module(first)))
    assert not torch.allclose(logits(restored), logits(trained_on))   # restored, then trained on


def test_a_job_with_a_working_dir_refuses_a_relative_checkpoint_dir(two_node_cluster) -> None:
    job = two_node_cluster.submit("python", "examples/rllib_ppo.py", *TINY_RUN, "--checkpoint-dir",
                                  "runs/rllib", working_dir=ROOT)
    assert job.returncode != 0
    assert "'runs/rllib' is a relative path, and this job runs in Ray's temporary copy" in job.stdout
    assert "Traceback" not in job.stdout


def test_a_driver_without_the_token_gets_the_authentication_hint(two_node_cluster) -> None:
    env = {k: v for k, v in two_node_cluster.env.items() if not k.startswith("RAY_AUTH")}
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "rllib_ppo.py"), "--address",
                           two_node_cluster.gcs, *TINY_RUN], env=env, capture_output=True, text=True,
                          timeout=JOB_TIMEOUT_S, stdin=subprocess.DEVNULL, cwd=ROOT)
    assert proc.returncode == 1
    assert f"error: cannot connect to the Ray cluster at '{two_node_cluster.gcs}'" in proc.stderr
    assert "set RAY_AUTH_MODE=token here too" in proc.stderr
