"""Fuzzing the engine's states from outside: for every preset, states reached by random play are
corrupted one field at a time, with values out of the field's range and values in range that may
not fit the rest of the state; both environments' ``set_state`` must either refuse such a state
with a StateError naming a field (out of range: the field corrupted, with its value) or accept it
and then play on from it with a legal action at every turn.

Nothing runs in a subprocess: a state that made compiled code read or write outside its arrays
would crash pytest, which fails the run (and under ``NUMBA_BOUNDSCHECK=1``, as CI runs this file
again, raise an IndexError). Every state random play reaches passes the checks unchanged.
"""

from __future__ import annotations

import numpy as np
import pytest

from jass_env import Round, VectorJassEnv
from jass_env.engine.spec import tail_offsets
from jass_env.engine.state import FIELDS, StateView
from jass_env.engine.validate import StateError, check_state, check_states, column_ranges
from jass_env.envs.aec import raw_env
from jass_env.games import PRESETS, make_rules

#: base states per preset, corruptions tried per column, states stepped in the AEC env per preset,
#: steps after a corrupted state is accepted
BASE_STATES = 4
AEC_STATES = 12
STEPS = 30
#: the errors set_state documents besides StateError: a finished state, a match in a round env
DOCUMENTED = ("finished", "not at a decision", "episode=")
INT64 = np.iinfo(np.int64)


def field_names(size: int, rules_name: str) -> list[str]:
    """The field of every column of a state: the shared layout, then the game's own fields."""
    names = [""] * size
    for name, offset, slots in FIELDS:
        names[offset:offset + slots] = [name] * slots
    spec = make_rules(rules_name).spec
    tail = size - spec.tail_size                           # the game's own fields follow the shared ones
    for name, at in tail_offsets(spec.state_fields).items():
        slots = dict(spec.state_fields)[name]
        names[tail + at:tail + at + slots] = [name] * slots
    return names


def random_play(rules_name: str, rng: np.random.Generator) -> np.ndarray:
    """Every state of two random rounds, the finished ones included: (k, state_size)."""
    out = []
    for seed in range(2):
        r = Round(rules_name, seed=seed)
        out.append(r.state.copy())
        while not r.is_over:
            r.step(int(rng.choice(r.legal_actions())))
            out.append(r.state.copy())
    return np.array(out)


def corruptions(value: int, low: int, high: int, rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """(values out of the range low..high, values in it) to put in place of ``value``."""
    out = [low - 1, high + 1, int(INT64.min), int(INT64.max), 2**40, -(2**40)]
    inside = {low, high, int(rng.integers(low, min(high, low + 64) + 1))}
    inside |= {v for v in (value - 1, value + 1) if low <= v <= high}
    if low == 0 and high >= 2**35:                      # a card set: one card more or less
        inside.add(value ^ (1 << int(rng.integers(0, 36))))
    return [v for v in out if not low <= v <= high and INT64.min <= v <= INT64.max], sorted(inside - {value})


def play_on_aec(env: raw_env, rng: np.random.Generator) -> None:
    """Random legal actions from the state set, STEPS of them or to the episode's end; every turn
    has a legal action."""
    for _ in range(STEPS):
        if not env.agents:
            return
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        assert legal.size, f"{agent} has no legal action"
        env.step(int(rng.choice(legal)))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_corrupted_states_are_refused_or_played_on(preset: str) -> None:
    rng = np.random.default_rng(list(PRESETS).index(preset))
    rules = make_rules(preset)
    played = random_play(preset, rng)
    check_states(played, rules)                         # every state of random play passes
    live = [st for st in played if not StateView(st, rules.params).is_over]
    bases = [live[i] for i in rng.choice(len(live), BASE_STATES, replace=False)]
    low, high = column_ranges(rules)
    names = field_names(played.shape[1], preset)
    refused: list[tuple[np.ndarray, int, int, bool]] = []    # state, column, value, out of range
    accepted: list[np.ndarray] = []
    for base in bases:
        for column in range(base.size):
            outside, inside = corruptions(int(base[column]), int(low[column]), int(high[column]), rng)
            for value in outside + inside:
                st = base.copy()
                st[column] = value
                try:
                    check_state(st, rules)
                except StateError as e:
                    assert e.field and e.field in str(e) and str(e.value) in str(e)
                    if value in outside:
                        assert (e.field, e.value) == (names[column], value), str(e)
                    refused.append((st, column, value, value in outside))
                    continue
                assert value in inside, f"{names[column]} = {value} is out of range and was accepted"
                accepted.append(st)
    assert refused and accepted
    # set_state refuses as check_state does, in both environments
    aec = raw_env(preset)
    venv = VectorJassEnv(1, rules=preset)
    venv.reset(seed=0)
    for k in rng.choice(len(refused), min(len(refused), 24), replace=False):
        st, column, value, out_of_range = refused[k]
        for set_state in (aec.set_state, lambda s: venv.set_state(s[None, :])):
            with pytest.raises(StateError) as e:
                set_state(st)
            if out_of_range:
                assert (e.value.field, e.value.value) == (names[column], value)
    # and plays on from a state it accepts: a sample in the AEC env, all of them in the batched env
    for k in rng.choice(len(accepted), min(len(accepted), AEC_STATES), replace=False):
        try:
            aec.set_state(accepted[k])
        except ValueError as e:
            assert not isinstance(e, StateError) and any(words in str(e) for words in DOCUMENTED), str(e)
            continue
        play_on_aec(aec, rng)
    at_decision = np.array([st for st in accepted if not StateView(st, rules.params).is_over])
    venv = VectorJassEnv(len(at_decision), rules=preset)
    venv.reset(seed=0)
    first = venv.set_state(at_decision)
    assert first.mask.any(axis=1).all()
    for _ in range(STEPS):
        out = venv.step(venv.sample_actions())
        assert out.mask.any(axis=1).all(), "a game without a legal action"
