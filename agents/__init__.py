"""Agents for Jass: the agent interface, baseline bots, the policy agent and evaluation.

    base.py       the Agent interface (act(obs) -> action, reset(seed))
    view.py       decoding an observation into what the seat knows
    random_bot.py uniformly random legal actions
    heuristic.py  Graf trump choice and rule-based card play (compiled, also used in rollouts)
    pimc.py       Perfect Information Monte Carlo search
    network.py    the policy network (masked logits, value head) and its checkpoint files
    policy.py     PolicyAgent: plays a checkpoint (or seeded random weights)
    registry.py   agents by name ("heuristic", "pimc:worlds=10") or checkpoint path
    evaluation/   evaluation with confidence intervals: duplicate deals, seat rotation, whole
                  games, round robin with Elo (the package's __init__ maps its modules)
    evaluate.py   the evaluation's command line (python -m agents.evaluate)
    play.py       a person plays one seat in the terminal (python -m agents.play)
    export.py     checkpoint to ONNX (python -m agents.export); onnx_policy.py plays it without torch
    training/     the PPO trainer's pieces (config, loss, rollout, checkpoints); train.py is its loop
"""
