"""Optional dependencies: the error raised when a module needs the ``train`` extra and it is missing.

``pip install jass-env`` installs the engine, the environments and the bots (numpy, numba,
gymnasium, pettingzoo). torch, TensorBoard, PyYAML and matplotlib, which the trainer, the policy
agents, the evaluation tool and the plots need, come with the ``train`` extra. A module that needs
one of them imports it as::

    try:
        import torch
    except ModuleNotFoundError as exc:
        raise missing_extra(exc, "agents.network (policy networks)") from None
"""

from __future__ import annotations

TRAIN_EXTRA = "train"
INSTALL_TRAIN = (f'pip install torch==2.13.0 -e ".[{TRAIN_EXTRA}]" in a clone '
                 f'(or pip install "jass-env[{TRAIN_EXTRA}]")')


class MissingExtraError(ModuleNotFoundError):
    """A package of an optional extra is not installed; the message names the extra to install."""


def missing_extra(exc: ModuleNotFoundError, needed_by: str, extra: str = TRAIN_EXTRA) -> MissingExtraError:
    """The error for ``needed_by`` failing to import ``exc.name``: names the package and the extra."""
    install = INSTALL_TRAIN if extra == TRAIN_EXTRA else f'pip install "jass-env[{extra}]"'
    return MissingExtraError(f"{needed_by} needs {exc.name}, which is not installed; it comes with the "
                             f"'{extra}' extra: {install}", name=exc.name)


__all__ = ["MissingExtraError", "missing_extra", "TRAIN_EXTRA"]
