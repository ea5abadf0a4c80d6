"""The plots: a run's strength against training time (agents.curves, from hand-written TensorBoard
events) and the round robin's heat map (agents.evaluation.round_robin)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from torch.utils.tensorboard import SummaryWriter

from agents.curves import main as curves_main
from agents.curves import read_curves, strength_figure
from agents.evaluation.round_robin import round_robin_figure


def write_evaluations(run: Path, evals: list[tuple[int, float, float, float, float]],
                      bot: str = "heuristic") -> None:
    """Events as the trainer logs them: per (decisions, minutes, points, ci low, ci high)."""
    with SummaryWriter(str(run)) as w:
        for step, minutes, points, low, high in evals:
            w.add_scalar(f"eval/points_per_hand_vs_{bot}", points, step)
            w.add_scalar(f"eval/ci95_low_vs_{bot}", low, step)
            w.add_scalar(f"eval/ci95_high_vs_{bot}", high, step)
            w.add_scalar("time/elapsed_s", minutes * 60.0, step)


def write_results(run: Path, points: float, low: float, high: float, deals: int = 2000) -> None:
    """A ``results.json`` as ``train.final_results`` writes it, for ``latest.pt`` only."""
    row = {"checkpoint": str(run / "checkpoints" / "latest.pt"), "env_decisions": 2048,
           "heuristic": {"points_per_hand": points, "ci_low": low, "ci_high": high, "deals": deals}}
    (run / "results.json").write_text(json.dumps({"rules": "schieber", "deals": deals, "deal_set_seed": 0,
                                                  "opponents": ["heuristic"], "rows": [row]}))


def legend_texts(fig) -> list[str]:
    return [t.get_text() for t in fig.axes[0].get_legend().get_texts()]


def test_the_band_is_a_95_percent_interval_and_the_end_label_is_the_final_figure(tmp_path):
    write_evaluations(tmp_path, [(1024, 1.0, -10.0, -20.0, 0.0), (2048, 2.0, 5.0, -3.0, 13.0)])
    write_results(tmp_path, 7.3, 5.0, 9.6)
    fig = strength_figure(tmp_path)
    assert [t.get_text() for t in fig.axes[0].texts] == ["+7.3"]          # results.md's figure
    legend = legend_texts(fig)
    assert "vs heuristic, periodic evaluations" in legend
    assert "vs heuristic, final evaluation (2,000 deals, results.md)" in legend
    assert "shaded: 95% interval; end labels: final evaluation" in legend


def test_without_a_final_evaluation_the_end_label_says_it_is_the_last_periodic_one(tmp_path):
    write_evaluations(tmp_path, [(1024, 1.0, -10.0, -20.0, 0.0), (2048, 2.0, 5.0, -3.0, 13.0)])
    fig = strength_figure(tmp_path)
    assert [t.get_text() for t in fig.axes[0].texts] == ["+5.0"]
    assert "shaded: 95% interval; end labels: last periodic evaluation" in legend_texts(fig)


def test_the_curves_tool_names_a_run_whose_events_hold_no_evaluation(tmp_path, capsys):
    # an evaluation that TensorBoard purges: a later writer restarts before its step
    purged = tmp_path / "purged"
    write_evaluations(purged, [(1024, 1.0, -10.0, -20.0, 0.0)])
    time.sleep(1.1)                     # event files are read in the order of their names' seconds
    with SummaryWriter(str(purged), purge_step=1) as w:
        w.add_scalar("losses/loss", 0.5, 512)
    assert read_curves(purged) == []
    empty = tmp_path / "empty"
    SummaryWriter(str(empty)).close()   # an event file with no scalars at all
    for run in (purged, empty):
        assert curves_main([str(run)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and "no evaluation events yet" in err and "Traceback" not in err


def test_the_round_robin_heat_map_has_its_numbers_in_the_cells_and_a_title():
    agents = ["random", "heuristic", "pimc"]
    pph = {"random": {"random": 0.0, "heuristic": -40.5, "pimc": -52.0},
           "heuristic": {"random": 40.5, "heuristic": 0.0, "pimc": -3.31},
           "pimc": {"random": 52.0, "heuristic": 3.31, "pimc": 0.0}}
    summary = {"agents": agents, "elo": {"random": 0.0, "heuristic": 310.0, "pimc": 350.0},
               "ppH_matrix": pph, "deals": 500, "rules": {"preset": "schieber"}, "seed": 7}
    fig = round_robin_figure(summary)
    heat = fig.axes[1]
    cells = sorted(t.get_text() for t in heat.texts)
    assert cells == sorted(["—", "-40.5", "-52.0", "+40.5", "—", "-3.3", "+52.0", "+3.3", "—"])
    assert heat.get_title() == "points per hand, row vs column"
    assert fig._suptitle.get_text() == "Round robin: 500 duplicate deals per pair, rules schieber, seed 7"
