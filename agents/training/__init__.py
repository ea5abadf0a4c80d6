"""The PPO self-play trainer's pieces; ``train.py`` is the loop that uses them.

    config.py       TrainConfig (every key, with its docstring), load_config, resumed_config
    yaml_config.py  typed dataclass configs from YAML and key=value overrides, ConfigError
    networks.py     the centralized critic, the policy's and critic's values, the Learner
    ppo.py          the masked distribution, the PPO and behaviour-cloning losses, per-seat GAE,
                    the minibatch update both the loop and the warm start run
    rollout.py      the batched env of a config, the rollout storage, bootstrap values, the Batch
    lineups.py      who plays which seat (learner, snapshot, bots, agent) and their decisions
    generators.py   the run's random generators and their checkpointed states
    warm_start.py   behaviour cloning of the heuristic before PPO's iteration 0
    run_folder.py   the run folder: where, refusing an earlier run's folder, opening it
    checkpoint.py   saving the whole trainer state, reading and restoring it (--resume)
    results.py      the periodic and final evaluations, results.json/results.md, RunSummary
    scalars.py      what is logged to TensorBoard
    timing.py       wall time per category, and reading it back from a run's events
    console.py      the progress line and the summary printed at the end
"""
