"""Statistics for evaluation: t-based confidence intervals, Wilson intervals, sign tests, Elo.

Pure Python (``math`` only; scipy is not a dependency). The Student-t quantile is computed by
bisection on the t CDF, which is evaluated through the regularized incomplete beta function
(Lentz continued fraction); it agrees with tabulated values to better than 1e-9.

    mean_ci([3, 1, 4, 1, 5])          -> MeanCI(mean, low, high, ...) with a t-based 95 % interval
    wilson_interval(60, 100)          -> (0.5020, 0.6906)
    sign_test([+3, -1, 0, +2])        -> SignTest(wins=2, losses=1, ties=1, share, p_value)
    bradley_terry(wins)               -> strengths; elo_ratings(...) -> Elo points, anchor = 0
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            return h
    raise ArithmeticError(f"incomplete beta continued fraction did not converge (a={a}, b={b}, x={x})")


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b) for a, b > 0 and 0 <= x <= 1."""
    if a <= 0 or b <= 0:
        raise ValueError(f"betainc needs a > 0 and b > 0, got a={a}, b={b}")
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"betainc needs 0 <= x <= 1, got x={x}")
    if x == 0.0 or x == 1.0:
        return x
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student-t cumulative distribution function P(T <= t) with ``df`` > 0 degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be > 0, got {df}")
    if t == 0:
        return 0.5
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def normal_cdf(z: float) -> float:
    """Standard normal CDF."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def _invert(cdf, p: float) -> float:
    """The x with cdf(x) = p for an increasing CDF with median 0, by bracketing and bisection."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"a quantile needs 0 < p < 1, got {p}")
    if p == 0.5:
        return 0.0
    sign = 1.0 if p > 0.5 else -1.0
    q = p if p > 0.5 else 1.0 - p            # solve the upper half, mirror by symmetry
    lo, hi = 0.0, 1.0
    while cdf(hi) < q:
        lo, hi = hi, hi * 2.0
        if hi > 1e12:
            raise ArithmeticError(f"quantile for p={p} is out of range")
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if cdf(mid) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-13 * max(1.0, hi):
            break
    return sign * 0.5 * (lo + hi)


def t_quantile(p: float, df: float) -> float:
    """Quantile of Student's t: the t with P(T <= t) = p (e.g. t_quantile(0.975, 9) = 2.262157)."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be > 0, got {df}")
    return _invert(lambda x: t_cdf(x, df), p)


def normal_quantile(p: float) -> float:
    """Quantile of the standard normal (normal_quantile(0.975) = 1.959964)."""
    return _invert(normal_cdf, p)


@dataclass(frozen=True)
class MeanCI:
    """Sample mean with a two-sided t-based confidence interval (``low``, ``high``)."""

    mean: float
    low: float
    high: float
    n: int
    std: float          # sample standard deviation (ddof = 1)
    sem: float          # standard error of the mean
    confidence: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


def mean_ci(values: Iterable[float], confidence: float = 0.95) -> MeanCI:
    """Mean of ``values`` with a t-based CI: mean ± t_{(1+c)/2, n-1} · s / √n.

    One value gives an infinite interval (no spread can be estimated); an empty input is an error.
    """
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        raise ValueError("mean_ci needs at least one value")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    mean = math.fsum(xs) / n
    if n == 1:
        return MeanCI(mean, -math.inf, math.inf, 1, math.nan, math.inf, confidence)
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    std = math.sqrt(var)
    sem = std / math.sqrt(n)
    half = t_quantile((1.0 + confidence) / 2.0, n - 1) * sem
    return MeanCI(mean, mean - half, mean + half, n, std, sem, confidence)


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n`` (fractional successes allowed,
    e.g. draws counted as one half). ``n = 0`` gives (0, 1)."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"wilson_interval needs 0 <= successes <= n, got {successes} of {n}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if n == 0:
        return (0.0, 1.0)
    z = normal_quantile((1.0 + confidence) / 2.0)
    p = successes / n
    z2n = z * z / n
    center = (p + z2n / 2.0) / (1.0 + z2n)
    half = z / (1.0 + z2n) * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n))
    return (max(0.0, center - half), min(1.0, center + half))


@dataclass(frozen=True)
class SignTest:
    """Deals won/lost/tied by the first agent; ``share`` = (wins + ties / 2) / n;
    ``p_value``: exact two-sided binomial sign test on the non-tied deals (1.0 when all tie)."""

    wins: int
    losses: int
    ties: int
    share: float
    p_value: float

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


def binomial_two_sided_p(k: int, n: int) -> float:
    """Exact two-sided p-value of k successes in n fair coin flips (sum of outcomes as unlikely)."""
    if n == 0:
        return 1.0
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2.0)
            for i in range(n + 1)]
    ref = logs[k] + 1e-9 * max(1.0, abs(logs[k]))    # outcomes at most as likely as k (float slack)
    return min(1.0, math.fsum(math.exp(lg) for lg in logs if lg <= ref))


def sign_test(diffs: Iterable[float]) -> SignTest:
    """Sign test over paired differences (> 0: the first agent did better on that deal)."""
    ds = list(diffs)
    if not ds:
        raise ValueError("sign_test needs at least one difference")
    wins = sum(1 for d in ds if d > 0)
    losses = sum(1 for d in ds if d < 0)
    ties = len(ds) - wins - losses
    share = (wins + 0.5 * ties) / len(ds)
    return SignTest(wins, losses, ties, share, binomial_two_sided_p(wins, wins + losses))


ELO_SCALE = 400.0 / math.log(10.0)   # Elo points per natural-log unit of strength


def bradley_terry(wins: Sequence[Sequence[float]], prior: float = 0.0, max_iter: int = 10_000,
                  tol: float = 1e-12) -> list[float]:
    """Bradley-Terry strengths from a win matrix by MM iterations (Hunter 2004).

    ``wins[i][j]`` = games i won against j (ties counted as half a win for each side).
    ``prior`` adds that many virtual games, split half/half, to every pair that met, so agents
    that won or lost everything still get finite strengths. Returns strengths normalised to a
    geometric mean of 1; P(i beats j) = s_i / (s_i + s_j).

    Raises ValueError when the maximum-likelihood fit does not exist (an agent with no wins or
    no losses) and ``prior`` is 0, or when the agents do not form one connected comparison graph.
    """
    k = len(wins)
    if k < 2 or any(len(row) != k for row in wins):
        raise ValueError(f"bradley_terry needs a square win matrix of at least 2 agents, got {k} rows")
    w = [[float(wins[i][j]) + (prior / 2.0 if i != j and wins[i][j] + wins[j][i] > 0 else 0.0)
          for j in range(k)] for i in range(k)]
    if any(w[i][j] < 0 for i in range(k) for j in range(k)):
        raise ValueError("win counts must be >= 0")
    games = [[w[i][j] + w[j][i] if i != j else 0.0 for j in range(k)] for i in range(k)]
    total = [math.fsum(w[i][j] for j in range(k) if j != i) for i in range(k)]
    for i in range(k):
        if total[i] <= 0:
            raise ValueError(f"agent {i} has no wins; the Bradley-Terry fit does not exist "
                             f"(use prior > 0)")
        if all(w[j][i] <= 0 for j in range(k) if j != i):
            raise ValueError(f"agent {i} never lost; the Bradley-Terry fit does not exist (use prior > 0)")
    if not _connected(games):
        raise ValueError("the comparison graph is not connected; strengths are not comparable")
    s = [1.0] * k
    for _ in range(max_iter):
        new = []
        for i in range(k):
            denom = math.fsum(games[i][j] / (s[i] + s[j]) for j in range(k) if j != i and games[i][j] > 0)
            new.append(total[i] / denom)
        g = math.exp(math.fsum(math.log(x) for x in new) / k)
        new = [x / g for x in new]
        delta = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, s, strict=True))
        s = new
        if delta < tol:
            break
    return s


def _connected(games: list[list[float]]) -> bool:
    k = len(games)
    seen, stack = {0}, [0]
    while stack:
        i = stack.pop()
        for j in range(k):
            if games[i][j] > 0 and j not in seen:
                seen.add(j)
                stack.append(j)
    return len(seen) == k


def elo_ratings(names: Sequence[str], wins: Sequence[Sequence[float]], anchor: str | None = None,
                prior: float = 0.0) -> dict[str, float]:
    """Elo ratings from a win matrix: 400·log10 of the Bradley-Terry strengths, with ``anchor``
    (default: the first name) at 0. A 100-point gap means P(win) = 1 / (1 + 10^(-100/400)) ≈ 0.64."""
    if len(names) != len(wins):
        raise ValueError(f"{len(names)} names for a {len(wins)}x{len(wins)} win matrix")
    anchor = names[0] if anchor is None else anchor
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of the agents: {', '.join(names)}")
    s = bradley_terry(wins, prior=prior)
    ref = math.log(s[list(names).index(anchor)])
    return {n: ELO_SCALE * (math.log(x) - ref) for n, x in zip(names, s, strict=True)}


def win_matrix(names: Sequence[str], results: Iterable[tuple[str, str, float, float]]) -> list[list[float]]:
    """Build a win matrix from (agent_a, agent_b, wins_a, wins_b) records (ties: add half to each)."""
    index: Mapping[str, int] = {n: i for i, n in enumerate(names)}
    w = [[0.0] * len(names) for _ in names]
    for a, b, wa, wb in results:
        for x in (a, b):
            if x not in index:
                raise ValueError(f"result names unknown agent {x!r}; agents: {', '.join(names)}")
        w[index[a]][index[b]] += wa
        w[index[b]][index[a]] += wb
    return w


def elo_win_probability(elo_diff: float) -> float:
    """P(win) for an Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo_diff / 400.0))


__all__ = ["MeanCI", "SignTest", "betainc", "t_cdf", "t_quantile", "normal_cdf", "normal_quantile",
           "mean_ci", "wilson_interval", "sign_test", "binomial_two_sided_p", "bradley_terry",
           "elo_ratings", "win_matrix", "elo_win_probability", "ELO_SCALE"]
