"""``python -m agents.evaluate``: the evaluation's command line (:mod:`agents.evaluation.cli`;
``--help`` lists the options, docs/bots.md the protocols)."""

from __future__ import annotations

from agents.evaluation.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
