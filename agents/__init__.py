"""Agents for Jass: the agent interface, every game's bots, search, the policy agent, evaluation
and training.

    base.py          the Agent interface (act(obs) -> action, reset(seed))
    random_bot.py    uniformly random legal actions, in every game
    bots/<game>.py   each game's rule-based bots and its PIMC (the game's BOTS fact names them)
    search/          PIMC's worlds and search, Schieber's policy-guided search and its distillation
    registry.py      agents by name ("heuristic", "pimc:worlds=10") or checkpoint path
    network.py       the policy network (masked logits, value head) and its checkpoint files
    policy.py        PolicyAgent: plays a checkpoint (or seeded random weights)
    trained_for.py   the game a checkpoint was trained for, checked when it is played
    batched.py       bots and evaluation over batches of games, for the trainer
    evaluation/      duplicate deals, seat rotation, whole games, round robin with Elo
    evaluate.py      the evaluation's command line (python -m agents.evaluate)
    training/        the PPO trainer's pieces (config, loss, rollout, checkpoints); train.py is its loop
    play.py          a person plays one seat in the terminal (python -m agents.play)
    export.py        checkpoint to ONNX (python -m agents.export); onnx_policy.py plays it without torch
    jasskit.py       jass-kit both ways; serve.py its player service
"""
