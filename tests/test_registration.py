"""The environments are reachable through the PettingZoo and Gymnasium registries and lazily
from the package, and importing the engine pulls in no RL library."""

import subprocess
import sys

import gymnasium
import pettingzoo

import jass_env


def test_pettingzoo_make_builds_the_aec_env_with_keyword_arguments():
    import jass_env.envs.aec  # noqa: F401  (registers jass_v0)

    env = pettingzoo.make("aec", "jass_v0", rules="seed_vaud", episode="match")
    env.reset(seed=3)
    assert env.unwrapped.rules.name == "seed_vaud"
    assert env.metadata["name"] == "jass_v0"


def test_gymnasium_make_builds_the_single_agent_wrapper():
    import jass_env.envs.gym  # noqa: F401  (registers jass_env/Jass-v0)

    env = gymnasium.make("jass_env/Jass-v0", seat=1)
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"].shape == (43,)


def test_gymnasium_make_builds_the_differenzler_seats():
    import jass_env.envs.gym  # noqa: F401  (registers the ids)

    for gym_id, players in (("jass_env/Differenzler-v0", 4), ("jass_env/Differenzler3-v0", 3)):
        env = gymnasium.make(gym_id, seat=players - 1)
        obs, _ = env.reset(seed=0)
        assert obs["action_mask"].shape == (194,)
        assert env.unwrapped.rules.spec.players == players


def test_pettingzoo_make_builds_the_differenzler_envs():
    import jass_env.envs.aec  # noqa: F401  (registers the names)

    for name, game in (("differenzler_v0", "differenzler"), ("differenzler3_v0", "differenzler3")):
        env = pettingzoo.make("aec", name, episode="match")
        env.reset(seed=1)
        assert env.unwrapped.rules.game == game and env.metadata["name"] == name


def test_package_exposes_env_raw_env_and_vector_env():
    assert jass_env.env().metadata["name"] == "jass_v0"
    assert jass_env.raw_env(rules="tournament").rules.name == "tournament"
    assert jass_env.VectorJassEnv(2).num_envs == 2


def test_importing_the_engine_loads_no_rl_library_or_torch():
    code = ("import sys, jass_env, jass_env.engine.transitions, jass_env.records,"
            " jass_env.games.schieber.observation, jass_env.games.differenzler.observation,"
            " jass_env.envs.encoding, jass_env.envs.rewards;"
            "bad = [m for m in ('pettingzoo', 'gymnasium', 'torch', 'agents') if m in sys.modules];"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_environments_import_no_agents_or_torch():
    code = ("import sys, jass_env.envs.aec, jass_env.envs.vector, jass_env.envs.gym;"
            "bad = [m for m in ('torch', 'agents') if m in sys.modules];"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
