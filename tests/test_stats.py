"""Statistics against hand-computed and tabulated values."""

from __future__ import annotations

import math

import pytest

from agents.evaluation import stats


@pytest.mark.parametrize(("p", "df", "expected"), [
    (0.975, 9, 2.262157), (0.975, 30, 2.042272), (0.975, 2, 4.302653), (0.975, 1, 12.706205),
    (0.95, 5, 2.015048), (0.995, 20, 2.845340), (0.975, 1000, 1.962339), (0.9, 3, 1.637744),
])
def test_t_quantile_matches_tables(p: float, df: int, expected: float) -> None:
    assert stats.t_quantile(p, df) == pytest.approx(expected, abs=1e-6)
    assert stats.t_quantile(1 - p, df) == pytest.approx(-expected, abs=1e-6)


def test_t_cdf_and_quantile_are_inverse() -> None:
    for df in (2, 3, 7.5, 50):
        for p in (0.6, 0.9, 0.975, 0.999):
            assert stats.t_cdf(stats.t_quantile(p, df), df) == pytest.approx(p, abs=1e-12)
    assert stats.t_cdf(0.0, 4) == 0.5
    # df = 1 is the Cauchy distribution: P(T <= 1) = 3/4
    assert stats.t_cdf(1.0, 1) == pytest.approx(0.75, abs=1e-12)


def test_normal_quantile() -> None:
    assert stats.normal_quantile(0.975) == pytest.approx(1.959964, abs=1e-6)
    assert stats.normal_quantile(0.5) == 0.0


def test_betainc_known_values() -> None:
    # I_x(1, 1) = x;  I_x(2, 1) = x^2;  I_0.5(a, a) = 0.5
    assert stats.betainc(1, 1, 0.3) == pytest.approx(0.3, abs=1e-14)
    assert stats.betainc(2, 1, 0.3) == pytest.approx(0.09, abs=1e-14)
    assert stats.betainc(7.5, 7.5, 0.5) == pytest.approx(0.5, abs=1e-14)
    with pytest.raises(ValueError, match="0 <= x <= 1"):
        stats.betainc(1, 1, 1.5)


def test_mean_ci_by_hand() -> None:
    # 1..5: mean 3, s = sqrt(2.5), sem = sqrt(0.5), t_{0.975,4} = 2.776445
    ci = stats.mean_ci([1, 2, 3, 4, 5])
    half = 2.776445 * math.sqrt(0.5)
    assert ci.mean == 3.0 and ci.n == 5
    assert ci.low == pytest.approx(3 - half, abs=1e-5)
    assert ci.high == pytest.approx(3 + half, abs=1e-5)
    assert ci.std == pytest.approx(math.sqrt(2.5))
    # no spread: a zero-width interval; one value: unbounded
    assert stats.mean_ci([4, 4, 4]).low == stats.mean_ci([4, 4, 4]).high == 4.0
    assert math.isinf(stats.mean_ci([4]).high)
    with pytest.raises(ValueError, match="at least one"):
        stats.mean_ci([])


def test_wilson_interval_by_hand() -> None:
    lo, hi = stats.wilson_interval(60, 100)
    assert lo == pytest.approx(0.5020, abs=1e-4) and hi == pytest.approx(0.6906, abs=1e-4)
    lo, hi = stats.wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="successes <= n"):
        stats.wilson_interval(11, 10)


def test_sign_test() -> None:
    s = stats.sign_test([3, -1, 0, 2])
    assert (s.wins, s.losses, s.ties) == (2, 1, 1)
    assert s.share == pytest.approx(2.5 / 4)
    assert s.p_value == pytest.approx(1.0)
    # 9 wins of 10: two-sided p = 2 * (10 + 1) / 1024
    assert stats.sign_test([1] * 9 + [-1]).p_value == pytest.approx(22 / 1024)
    assert stats.binomial_two_sided_p(5, 10) == pytest.approx(1.0)


def test_bradley_terry_two_agents() -> None:
    # 3 wins to 1: strength ratio 3, Elo gap 400 log10(3)
    elo = stats.elo_ratings(["a", "b"], [[0, 3], [1, 0]])
    assert elo["a"] == 0.0
    assert elo["b"] == pytest.approx(-400 * math.log10(3), abs=1e-6)
    assert stats.elo_win_probability(-elo["b"]) == pytest.approx(0.75)


def test_bradley_terry_three_agents_hand_made() -> None:
    # strengths 1, 2, 4 and 6 games per pair: the expected win counts are the MLE's fixed point
    wins = [[0, 2, 1.2], [4, 0, 2], [4.8, 4, 0]]
    s = stats.bradley_terry(wins)
    assert s[1] / s[0] == pytest.approx(2, rel=1e-9) and s[2] / s[0] == pytest.approx(4, rel=1e-9)
    elo = stats.elo_ratings(["x", "y", "z"], wins, anchor="y")
    assert elo["y"] == 0.0
    assert elo["x"] == pytest.approx(-120.412, abs=1e-3)
    assert elo["z"] == pytest.approx(120.412, abs=1e-3)


def test_bradley_terry_degenerate_cases() -> None:
    with pytest.raises(ValueError, match="no wins"):
        stats.bradley_terry([[0, 0], [5, 0]])
    # a prior of virtual draws makes it finite
    s = stats.bradley_terry([[0, 0], [5, 0]], prior=1.0)
    assert s[1] / s[0] == pytest.approx(11.0)         # (5 + 0.5) / (0 + 0.5)
    with pytest.raises(ValueError, match="not connected"):
        stats.bradley_terry([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])
    with pytest.raises(ValueError, match="anchor"):
        stats.elo_ratings(["a", "b"], [[0, 1], [1, 0]], anchor="c")


def test_win_matrix() -> None:
    w = stats.win_matrix(["a", "b", "c"], [("a", "b", 3, 1), ("c", "a", 2.5, 0.5)])
    assert w == [[0, 3, 0.5], [1, 0, 0], [2.5, 0, 0]]
    with pytest.raises(ValueError, match="unknown agent 'd'"):
        stats.win_matrix(["a", "b"], [("a", "d", 1, 0)])
