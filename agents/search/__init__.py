"""Search over sampled worlds, shared by the bots of every game: dealing the hidden cards of a
seat's worlds (:mod:`~agents.search.worlds`), the generic PIMC driver (:mod:`~agents.search.pimc`),
the policy-guided search (:mod:`~agents.search.search`: rollouts played by a trained policy in the
worlds each game builds, :mod:`~agents.search.world_model`, with its batched first layer
:mod:`~agents.search.sparse_forward`) and its distillation into the policy
(:mod:`~agents.search.distill`, the command ``python -m agents.distill``).

Nothing is imported here: the policy-guided parts need torch, the rest does not.
"""
