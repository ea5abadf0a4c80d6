"""Policy network, checkpoint files and PolicyAgent."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

from agents.network import CHECKPOINT_FORMAT, CheckpointError, PolicyNet, load_policy, save_policy
from agents.policy import DEFAULT_CHECKPOINT, SELFPLAY_CHECKPOINT, PolicyAgent, main, write_random_checkpoint
from agents.registry import make_agent
from agents.search.sparse_forward import GreedyForward
from agents.trained_for import RulesMismatchWarning, rules_difference, trained_for
from jass_env import Round, make_rules
from jass_env.games.schieber.observation import OBS_DIM, OBS_VERSION, encode_observation
from jass_env.games.schieber.suit_symmetry import (
    action_index,
    action_source,
    observation_index,
    suit_permutations,
)

SCHIEBER = make_rules("schieber")


def _obs(round_: Round) -> dict[str, np.ndarray]:
    obs = np.zeros(OBS_DIM, dtype=np.float32)
    mask = np.zeros(43, dtype=np.int8)
    encode_observation(round_.state, round_.to_move, round_.rp, obs)
    round_.engine.action_mask(round_.state, round_.rp, mask)
    return {"observation": obs, "action_mask": mask}


def test_masked_logits_give_zero_probability_to_illegal_actions() -> None:
    net = PolicyNet((32,), seed=1)
    obs = torch.randn(5, OBS_DIM)
    mask = torch.zeros(5, 43, dtype=torch.bool)
    mask[:, [3, 7, 40]] = True
    mask[4] = False                                  # a row without legal actions stays finite
    logits = net.masked_logits(obs, mask)
    assert logits.shape == (5, 43)
    probs = torch.softmax(logits, dim=-1)
    assert torch.all(probs[:4][~mask[:4]] == 0)
    assert torch.allclose(probs[:4].sum(-1), torch.ones(4))
    assert torch.all(torch.isfinite(probs))
    logits_raw, value = net(obs)
    assert logits_raw.shape == (5, 43) and value.shape == (5,)


def test_seeded_init_is_reproducible_and_leaves_global_rng() -> None:
    state = torch.random.get_rng_state()
    a, b = PolicyNet((16, 8), seed=3), PolicyNet((16, 8), seed=3)
    assert torch.equal(torch.random.get_rng_state(), state)
    for (ka, va), (kb, vb) in zip(a.state_dict().items(), b.state_dict().items(), strict=True):
        assert ka == kb and torch.equal(va, vb)
    with pytest.raises(ValueError, match="positive"):
        PolicyNet((0,))


def test_checkpoint_round_trip_and_weights_only(tmp_path) -> None:
    net = PolicyNet((24, 12), seed=5)
    path = save_policy(tmp_path / "sub" / "p.pt", net, config={"lr": 3e-4}, steps=1234)
    raw = torch.load(path, weights_only=True)
    assert raw["format"] == CHECKPOINT_FORMAT and raw["obs_version"] == OBS_VERSION
    assert raw["net"]["hidden"] == [24, 12] and raw["steps"] == 1234 and raw["config"] == {"lr": 3e-4}
    loaded, ckpt = load_policy(path)
    assert ckpt["steps"] == 1234 and not loaded.training
    x = torch.randn(3, OBS_DIM)
    assert torch.equal(net(x)[0], loaded(x)[0]) and torch.equal(net(x)[1], loaded(x)[1])
    assert [p.name for p in (tmp_path / "sub").iterdir()] == ["p.pt"]   # no temp file left


def test_save_rejects_fields_that_would_not_load_weights_only(tmp_path) -> None:
    with pytest.raises(TypeError, match="config.when"):
        save_policy(tmp_path / "p.pt", PolicyNet((4,)), config={"when": object()})
    with pytest.raises(ValueError, match="may not be named"):
        save_policy(tmp_path / "p.pt", PolicyNet((4,)), model=1)
    assert not list(tmp_path.iterdir())


def test_load_errors_name_the_file_and_the_expectation(tmp_path) -> None:
    with pytest.raises(CheckpointError, match="does not exist"):
        load_policy(tmp_path / "missing.pt")
    good = save_policy(tmp_path / "good.pt", PolicyNet((8,), seed=0))
    data = good.read_bytes()
    trunc = tmp_path / "trunc.pt"
    trunc.write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match=r"trunc\.pt.*cannot be read.*corrupt, truncated"):
        load_policy(trunc)
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a torch file at all")
    with pytest.raises(CheckpointError, match="cannot be read"):
        load_policy(junk)

    def variant(name: str, **changes) -> str:
        ckpt = torch.load(good, weights_only=True)
        ckpt.update(changes)
        torch.save(ckpt, tmp_path / name)
        return str(tmp_path / name)

    with pytest.raises(CheckpointError, match="format 'other/2'; expected 'jass-policy/1'"):
        load_policy(variant("fmt.pt", format="other/2"))
    with pytest.raises(CheckpointError, match=f"version 99; this code encodes version {OBS_VERSION}"):
        load_policy(variant("obs.pt", obs_version=99))
    shape_msg = r"wrong shapes: .*trunk\.0\.weight: \(8, 529\) \(expected \(16, 529\)\)"
    with pytest.raises(CheckpointError, match=shape_msg):
        load_policy(variant("shape.pt", net={"hidden": [16]}))
    torch.save([1, 2], tmp_path / "list.pt")
    with pytest.raises(CheckpointError, match="holds a list"):
        load_policy(tmp_path / "list.pt")


def test_policy_agent_plays_legal_actions_greedy_and_sampled(tmp_path) -> None:
    path = write_random_checkpoint(tmp_path / "r.pt", hidden=(32,), seed=2)
    greedy = PolicyAgent(path)
    assert "r.pt" in greedy.name and greedy.checkpoint_sha256 and torch.get_num_threads() == 1
    sampled = PolicyAgent(path, greedy=False, seed=1)
    for agent in (greedy, sampled):
        r = Round(seed=11)
        while not r.is_over:
            obs = _obs(r)
            a = agent.act(obs)
            assert obs["action_mask"][a]
            if agent is greedy:
                probs = agent.action_probabilities(obs)
                assert a == int(np.argmax(probs)) and probs[obs["action_mask"] == 0].sum() == 0
            r.step(a)


def test_sampled_policy_is_reproducible_after_reset(tmp_path) -> None:
    path = write_random_checkpoint(tmp_path / "r.pt", hidden=(32,), seed=2)
    agent = PolicyAgent(path, greedy=False)
    obs = _obs(Round(seed=4))

    def draws(seed: int) -> list[int]:
        agent.reset(seed)
        return [agent.act(obs) for _ in range(20)]

    assert draws(7) == draws(7)
    assert len(set(draws(7))) > 1                    # near-uniform initial policy: it does sample


def test_default_policy_without_checkpoint_uses_seeded_random_weights() -> None:
    a, b = PolicyAgent(seed=3), PolicyAgent(seed=3)
    if a.checkpoint is None:
        assert "random-weights seed=3" in a.name and "rules" not in a.trained_for   # untrained
        obs = _obs(Round(seed=1))
        assert np.array_equal(a.action_probabilities(obs), b.action_probabilities(obs))


def test_write_random_cli(tmp_path, capsys) -> None:
    assert main(["--write-random", str(tmp_path / "x.pt"), "--hidden", "16", "--seed", "4"]) == 0
    net, ckpt = load_policy(tmp_path / "x.pt")
    assert net.hidden == [16] and ckpt["seed"] == 4
    assert "wrote" in capsys.readouterr().out


# the game a checkpoint is for
def _trained(tmp_path, name: str, **fields) -> str:
    """A small checkpoint with the given extra fields (e.g. a trainer's ``rules``/``trained_for``)."""
    return str(save_policy(tmp_path / name, PolicyNet((16,), seed=0), **fields))


def test_a_checkpoint_records_the_game_layout_and_rules_it_was_trained_for(tmp_path) -> None:
    path = _trained(tmp_path, "vaud.pt", rules="seed_vaud", trained_for=trained_for("seed_vaud"))
    tf = torch.load(path, weights_only=True)["trained_for"]
    assert tf["game"] == "schieber" and tf["rules"] == "seed_vaud"
    assert (tf["obs_version"], tf["obs_dim"], tf["n_actions"]) == (OBS_VERSION, OBS_DIM, 43)
    assert tf["switches"]["contracts"] == ["D", "H", "S", "C"]      # seed_vaud: suits only
    assert PolicyAgent(path, rules="seed_vaud").trained_for == tf
    untrained = torch.load(write_random_checkpoint(tmp_path / "r.pt"), weights_only=True)["trained_for"]
    assert untrained["game"] == "schieber" and "rules" not in untrained


def test_a_policy_for_another_game_is_refused(tmp_path) -> None:
    other = {**trained_for("schieber"), "game": "differenzler"}
    here = r"game 'schieber' \(observation version 1, 529 inputs, 43 actions\)"
    with pytest.raises(CheckpointError, match=rf"trained for game 'differenzler' .* this code plays {here}"):
        PolicyAgent(_trained(tmp_path, "d.pt", trained_for=other))
    more_actions = {**trained_for("schieber"), "n_actions": 44}
    with pytest.raises(CheckpointError, match="44 actions"):
        make_agent(_trained(tmp_path, "a.pt", trained_for=more_actions), "schieber")


def test_other_rules_warn_naming_the_switches_and_the_same_rules_do_not(tmp_path) -> None:
    path = _trained(tmp_path, "s.pt", rules="schieber", trained_for=trained_for("schieber"))
    with pytest.warns(RulesMismatchWarning, match=r"trained for rules 'schieber' but plays under "
                                                   r"'tournament', which differ in weis, stoeck"):
        make_agent(path, "tournament")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make_agent(path, "schieber")
        PolicyAgent(path)                               # no rules given: nothing to compare


@pytest.mark.skipif(not (DEFAULT_CHECKPOINT.exists() and SELFPLAY_CHECKPOINT.exists()),
                    reason="no shipped policy")
def test_the_shipped_policy_and_older_checkpoints_still_load(tmp_path) -> None:
    schieber = {"game": "schieber", "obs_version": OBS_VERSION, "obs_dim": OBS_DIM, "n_actions": 43,
                "rules": "schieber"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        shipped = make_agent("policy", "schieber")
        assert {k: shipped.trained_for[k] for k in schieber} == schieber    # and the rule switches
        # the shipped policy is the suit average over every renaming of the suits
        assert sorted(shipped.net.suit_renamings) == sorted(suit_permutations(SCHIEBER).tolist())
        # written before trained_for existed: read as Schieber with the preset it carries
        assert "trained_for" not in torch.load(SELFPLAY_CHECKPOINT, weights_only=True)
        assert make_agent(str(SELFPLAY_CHECKPOINT), "schieber").trained_for == schieber
    old_nl = _trained(tmp_path, "nl.pt", rules="seed_nl")
    with pytest.warns(RulesMismatchWarning, match="trained for rules 'seed_nl' but plays under 'schieber'"):
        make_agent(old_nl, "schieber")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make_agent(_trained(tmp_path, "none.pt"), "tournament")   # no rules recorded: no warning


def test_a_differenzler_policy_plays_differenzler_and_is_refused_in_schieber(tmp_path) -> None:
    path = write_random_checkpoint(tmp_path / "d.pt", hidden=[16], game="differenzler")
    agent = PolicyAgent(path)                       # no rules: the game the checkpoint names
    assert agent.trained_for["game"] == "differenzler" and agent.net.n_actions == 36 + 158
    assert PolicyAgent(path, rules="differenzler").net.obs_dim == agent.net.obs_dim
    here = r"game 'schieber' \(observation version 1, 529 inputs, 43 actions\)"
    with pytest.raises(CheckpointError, match=rf"trained for game 'differenzler' .* this code plays {here}"):
        make_agent(str(path), "schieber")
    with pytest.raises(CheckpointError, match="this code plays game 'differenzler3'"):
        PolicyAgent(path, rules="differenzler3")    # 3 players: another observation


def test_without_a_checkpoint_each_game_gets_its_shipped_policy_or_random_weights_of_its_layout(
        monkeypatch, tmp_path) -> None:
    import agents.policy
    from agents.policy import SHIPPED_CHECKPOINTS, default_checkpoint
    from jass_env.games import REGISTRY

    for game in REGISTRY.values():
        for spec in game.checkpoints:             # each game's CHECKPOINTS fact names its files
            shipped = SHIPPED_CHECKPOINTS[spec]
            assert shipped.exists() and default_checkpoint(spec) == shipped
            agent = make_agent("policy", spec)
            assert agent.checkpoint == str(shipped) and agent.trained_for["game"] == spec
    assert make_agent("policy", "schieber").checkpoint == str(DEFAULT_CHECKPOINT)
    assert make_agent("policy", "differenzler").trained_for["rules"] == "differenzler"
    monkeypatch.setattr(agents.policy, "CHECKPOINT_DIR", tmp_path)     # the files taken away
    assert default_checkpoint("differenzler3") is None
    tf = PolicyAgent(rules="differenzler3").trained_for  # random weights in the layout of three players
    assert tf["game"] == "differenzler3" and tf["obs_dim"] != trained_for("differenzler")["obs_dim"]


def test_a_switch_newer_than_the_checkpoint_counts_at_its_default():
    """A checkpoint written before a switch existed was trained with that switch's default: no
    mismatch is reported for it (here a Differenzler policy without ``zero_bid_bonus``), while a
    recorded switch that differs still is."""
    tf = trained_for("differenzler")
    del tf["switches"]["zero_bid_bonus"]
    assert rules_difference(tf, "differenzler") == []
    tf["switches"]["predictions"] = "open"
    assert rules_difference(tf, "differenzler") == ["predictions"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RulesMismatchWarning)
        make_agent("policy", "differenzler")


# the suit average
def test_the_suit_average_plays_a_renamed_position_as_the_renamed_play(tmp_path) -> None:
    """A suit-averaged net over all 24 renamings: renaming the suits of a position renames its
    action probabilities and leaves its value, whatever the weights."""
    perms = suit_permutations(SCHIEBER)
    net = PolicyNet((32,), seed=4, suit_renamings=perms.tolist()).eval()
    r = Round(seed=9)
    r.step("choose H")
    for _ in range(5):
        r.step(int(r.legal_actions()[0]))
    seen = _obs(r)
    x, m = torch.from_numpy(seen["observation"])[None], torch.from_numpy(seen["action_mask"])[None]
    with torch.inference_mode():
        probs = torch.softmax(net.masked_logits(x, m), 1)[0]
        value = net(x)[1]
        for k in (5, 17, 23):
            obs_k = x[:, torch.from_numpy(observation_index(perms, SCHIEBER)[k])]
            mask_k = m[:, torch.from_numpy(action_source(perms, SCHIEBER)[k])]
            probs_k = torch.softmax(net.masked_logits(obs_k, mask_k), 1)[0]
            renamed = torch.from_numpy(action_index(perms, SCHIEBER)[k])
            assert torch.allclose(probs_k[renamed], probs, atol=1e-6)
            assert torch.allclose(net(obs_k)[1], value, atol=1e-5)
        plain = net.single_view()
        assert plain.suit_renamings is None and plain.trunk is net.trunk
        assert not torch.allclose(torch.softmax(plain.masked_logits(x, m), 1)[0], probs)
    loaded, ckpt = load_policy(save_policy(tmp_path / "avg.pt", net))
    assert ckpt["net"]["suit_renamings"] == perms.tolist()
    assert torch.equal(loaded(x)[0], net(x)[0])
    assert PolicyAgent(tmp_path / "avg.pt").act(seen) == int(probs.argmax())


def test_the_identity_alone_is_the_plain_network_and_bad_renamings_are_refused(tmp_path) -> None:
    net = PolicyNet((16,), seed=2)
    same = PolicyNet((16,), seed=2, suit_renamings=[[0, 1, 2, 3]])
    x = torch.randn(4, OBS_DIM)
    assert torch.allclose(net(x)[0], same(x)[0]) and torch.allclose(net(x)[1], same(x)[1])
    with pytest.raises(ValueError, match="permutations of 0..3"):
        PolicyNet((16,), suit_renamings=[[0, 1, 2, 2]])
    with pytest.raises(ValueError, match=r"schieber's layout \(obs_dim 529, n_actions 43\), not \(100, 43\)"):
        PolicyNet((16,), obs_dim=100, suit_renamings=[[0, 1, 2, 3]])
    path = save_policy(tmp_path / "p.pt", same)
    ckpt = torch.load(path, weights_only=True)
    ckpt["net"]["suit_renamings"] = [[3, 3, 3, 3]]
    torch.save(ckpt, tmp_path / "bad.pt")
    with pytest.raises(CheckpointError, match=r"bad\.pt.*permutations of 0\.\.3"):
        load_policy(tmp_path / "bad.pt")
    with pytest.raises(ValueError, match="single_view"):
        GreedyForward(same)


@pytest.mark.parametrize("preset", ["differenzler", "coiffeur", "mittlere", "molotow5", "sidi"])
def test_a_suit_averaged_net_of_every_game_renames_its_choices_with_the_suits(preset: str) -> None:
    """Averaged over all 24 renamings (a group), any game's network plays a position with its suits
    renamed as the renamed play of the original, through the game's own suit-symmetry tables."""
    from itertools import permutations

    from jass_env.envs.encoding import obs_dim
    from jass_env.games import game_of

    rules = make_rules(preset)
    symmetry = game_of(rules).suit_symmetry
    perms = np.array(list(permutations(range(4))), dtype=np.int64)
    n_actions = rules.spec.n_actions
    net = PolicyNet((16,), obs_dim(rules), n_actions, seed=1, suit_renamings=perms.tolist(),
                    game=rules.game).eval()
    x = torch.rand(1, obs_dim(rules))
    m = torch.ones(1, n_actions, dtype=torch.bool)
    with torch.no_grad():
        probs = torch.softmax(net.masked_logits(x, m), 1)[0]
        for k in (5, 17):
            renamed = torch.from_numpy(symmetry.observation_index(perms, rules)[k])
            probs_k = torch.softmax(net.masked_logits(x[:, renamed], m), 1)[0]
            actions = torch.from_numpy(symmetry.action_index(perms, rules)[k])
            assert torch.allclose(probs_k[actions], probs, atol=1e-6)
