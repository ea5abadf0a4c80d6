"""Play any game of the family in the terminal: you hold one seat, agents (bots, checkpoints, ONNX
files) the others.

    python -m agents.play [--rules PRESET] [--seat N] [--opponents AGENT] [--partner AGENT]
                          [--seed N] [--match] [--record FILE|DIR] [--overwrite]

(console script ``jass-play``). ``--rules`` names any preset (``schieber`` by default; ``--help``
lists them with their players and sides); ``--seat`` is one of the game's seats, 0 .. players-1.
Agents are registry specs (:mod:`agents.registry`): ``random``, ``heuristic``, ``pimc:worlds=10``,
``runs/x.pt``, ``runs/x.onnx``. In team games (Schieber, Coiffeur) ``--partner`` plays the seats
of your team and ``--opponents`` the others; in games played alone (Differenzler, Mittlere,
Molotow, Sidi) ``--opponents`` plays every other seat and ``--partner`` is an error. Each seat gets
its own instance. Without ``--match`` one round is played; with it, the game's whole match (to its target,
or its number of rounds).

When it is your turn the table is shown from your seat (:func:`jass_env.render.render_table` with
``show_hands=<your seat>``: your hand, the trick, what the game shows of the bidding and the score),
then your options numbered 1..k: the legal cards, and the game's own actions when the engine offers
them (a contract or a push, a prediction, a row of the Coiffeur sheet, Sidi's exchange of the trump
6), named as the game names them (``choose H``, ``predict 40``, ``declare Joker-1 as S``). Answer
with a number, a card (``H9``, ``hJ``, ``♥9``), an action's name (its first word may be left out:
``H``, ``obenabe``; a beginning that fits one legal action is enough: ``pu``), ``?`` for help, or
``q`` to quit. A long run of options that count (the 158 predictions) is shortened
(``1 predict 0 … 158 predict 157``): the number of one in between is still its place in the list
(``41`` is ``predict 40``), or type its name. Wrong input gets a hint and the question again.
Every agent's action is printed (an action hidden from your seat, such as a hidden Differenzler
prediction, only as hidden), and after each trick who won it; at the end of a round the table and
each side's score.

At the end (also after ``q``, end of input or Ctrl-C) every round played through all its tricks is
written as a game record (docs/records.md, :func:`jass_env.records.record_of`) to
``--record FILE``, one line per round; an existing FILE is appended to (the tool says so), and
``--overwrite`` replaces it. Check it with ``.venv/bin/python -m jass_env.records check FILE``.
``--record DIR`` (an existing folder, or a path ending in ``/``) writes
``DIR/jass_game_<YYYYmmdd_HHMMSS>.jsonl``; without ``--record`` the file goes to ``runs/play/``
(``runs/`` holds every generated output and is ignored by git). The record's folder is created and
tested for writing *before* the game, so a game is never played into a record that cannot be
written.

Exit status: 0 game finished or quit, 1 an agent failed or the record could not be written,
2 bad arguments (unknown agent, rules or seat; ``--partner`` in a game without partners; a record
path that cannot be written; standard input closed).
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from jass_env.commands import module_command
from jass_env.engine.cards import PHASE_ACTION_OFFSET, SUIT_SYMBOLS, SUITS, card_id, card_symbol
from jass_env.engine.spec import TEAMS_NONE, GameSpec
from jass_env.engine.switches import Rules, RulesError
from jass_env.games import PRESETS, game_of, make_rules
from jass_env.records import write_records
from jass_env.render import render_table
from jass_env.round import RUN_SHOWN, Match, Round

from .base import Agent
from .table import AgentFailure, SeatedGame, Step, describe, hidden_from, is_card, option_label

QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "help")
#: the agent of a seat whose agent is not given
DEFAULT_AGENT = "heuristic"
DEFAULT_RECORD_DIR = Path("runs") / "play"
#: the width (characters) at which a list of options is wrapped
OPTIONS_WIDTH = 110


class RecordPathError(ValueError):
    """A ``--record`` path whose file cannot be written (folder is a file, not writable, ...)."""


def record_path(arg: str | None, now: time.struct_time | None = None) -> Path:
    """The record file for ``--record``: a FILE as given; in a folder (existing, or written with a
    trailing ``/``; :data:`DEFAULT_RECORD_DIR` without ``--record``) ``jass_game_<timestamp>.jsonl``."""
    name = f"jass_game_{time.strftime('%Y%m%d_%H%M%S', now or time.localtime())}.jsonl"
    if arg is None:
        return DEFAULT_RECORD_DIR / name
    path = Path(arg)
    return path / name if path.is_dir() or arg.endswith(("/", os.sep)) else path


def prepare_record(path: Path) -> None:
    """Make sure ``path`` can be written before anything is played: create its folder and write
    (and remove) a probe file there. Raises RecordPathError saying what is wrong."""
    folder = path.parent
    blocker = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise RecordPathError(f"cannot write the game record {str(path)!r}: {str(blocker)!r} is a file, "
                              "not a folder; give --record a file in a folder, or a folder")
    if path.exists() and not path.is_file():
        raise RecordPathError(f"cannot write the game record {str(path)!r}: it exists and is not a "
                              "regular file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
        if path.exists() and not os.access(path, os.W_OK):
            raise PermissionError(f"{str(path)!r} is read-only")
    except OSError as e:
        raise RecordPathError(f"cannot write the game record {str(path)!r}: {e}") from None


def record_lines(path: Path) -> int:
    """The number of non-empty lines (records) of an existing record file; 0 when there is none."""
    if not path.is_file():
        return 0
    with open(path, encoding="utf-8", errors="replace") as f:
        return sum(1 for line in f if line.strip())


def save_records(path: Path, records: list[dict], append: bool) -> int:
    """Write ``records`` to ``path`` (JSON Lines), after the file's own lines when ``append``; a
    last line without its newline gets one first, so no record is glued to it. Returns the count."""
    if append and path.is_file() and path.stat().st_size:
        with open(path, "rb") as f:
            f.seek(-1, os.SEEK_END)
            ends_with_newline = f.read(1) == b"\n"
        if not ends_with_newline:
            with open(path, "a", encoding="utf-8") as f:
                f.write("\n")
    return write_records(path, records, append=append)


class QuitGame(Exception):
    """The player typed q, or the input ended."""


# terminal
class Terminal:
    """Input and output streams; echoes answers when the input is not a terminal (so a transcript
    of a scripted game reads like a session)."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin, self.stdout = stdin, stdout
        try:
            self.echo = not stdin.isatty()
        except (AttributeError, ValueError):
            self.echo = True

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """One line of input (stripped); raises QuitGame at the end of the input."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            raise QuitGame("end of input")
        if self.echo:
            self.say(line.rstrip("\n"))
        return line.strip()


# options
#: an action name that ends in a number (``predict 40``): its text before the number, the number
_COUNTED = re.compile(r"(.*?)(\d+)")


def runs(actions: Sequence[int], spec: GameSpec) -> list[tuple[int, int]]:
    """``actions`` (ascending ids) cut into runs, as (start, end) index pairs (end exclusive): a run
    of actions that count (consecutive ids named alike but for a number one higher each: ``predict
    0``, ``predict 1``, ...), and every other action a run of its own. A run longer than RUN_SHOWN
    is shown shortened (``predict 0 … predict 157``)."""
    names = spec.action_names

    def follows(a: int, b: int) -> bool:
        if b != a + 1 or is_card(a):
            return False
        ma, mb = _COUNTED.fullmatch(names[a]), _COUNTED.fullmatch(names[b])
        return bool(ma and mb and ma[1] == mb[1] and int(mb[2]) == int(ma[2]) + 1)

    out, start = [], 0
    for i in range(1, len(actions) + 1):
        if i == len(actions) or not follows(actions[i - 1], actions[i]):
            out.append((start, i))
            start = i
    return out


def listed(actions: Sequence[int], spec: GameSpec, numbered: bool) -> list[str]:
    """The actions as a list shows them, a run of more than RUN_SHOWN that count shortened to its
    first and last: ``1 ♦A``, ``1 predict 0 … 158 predict 157`` (``numbered``: by their place in
    the list, from 1), or ``♦A``, ``predict 0 … predict 157``."""
    def item(i: int) -> str:
        return (f"{i + 1} " if numbered else "") + option_label(actions[i], spec)

    out = []
    for start, end in runs(actions, spec):
        if end - start > RUN_SHOWN:
            out.append(f"{item(start)} … {item(end - 1)}")
        else:
            out.extend(item(i) for i in range(start, end))
    return out


def options_line(options: Sequence[int], spec: GameSpec) -> str:
    """``Your cards to play: 1 ♦A  2 ♦10 ...``, ``Your contract: 1 choose D ... 7 push``; a long run
    of actions that count shortened to its first and last (:func:`runs`:
    ``Your prediction: 1 predict 0 … 158 predict 157``)."""
    items = listed(options, spec, numbered=True)
    if all(is_card(a) for a in options):
        head = "Your cards to play"
    elif not any(is_card(a) for a in options):
        head = f"Your {spec.bidding}"
    else:
        head = "Your options"
    lines, line, sep = [], f"{head}:", " "
    for i, item in enumerate(items):        # a long list wrapped between options, never inside one
        if i and len(line) + len(sep) + len(item) > OPTIONS_WIDTH:
            lines.append(line)
            line, sep = " ", " "
        line += sep + item
        sep = "  "
    return "\n".join([*lines, line])


def shortened_note(options: Sequence[int], spec: GameSpec) -> str | None:
    """For a shortened options line, how to pick one in between (its number or its name); None
    when nothing is shortened."""
    for start, end in runs(options, spec):
        if end - start > RUN_SHOWN:
            middle = (start + end) // 2
            return (f"(an option in between: its place in the list or its name, e.g. {middle + 1} or "
                    f"{option_label(options[middle], spec)!r})")
    return None


def _normal(text: str) -> str:
    """Text as answers are compared: lower case, suit symbols as letters, single spaces."""
    for i, sym in enumerate(SUIT_SYMBOLS):
        text = text.replace(sym, SUITS[i])
    return " ".join(text.lower().split())


def _card_of_text(text: str) -> int | None:
    """A card id from ``H9``, ``hJ``, ``♥9``, ``h 10``; None if the text is not a card."""
    try:
        return card_id(_normal(text).replace(" ", ""))
    except ValueError:
        return None


def phase_actions_named(text: str, spec: GameSpec) -> list[int]:
    """The game's phase actions (ids) that ``text`` names: those whose name, or name without its
    first word (``H`` for ``choose H``), it equals; else those it is the beginning of."""
    t = _normal(text)
    names = {a: _normal(spec.action_names[a]) for a in range(PHASE_ACTION_OFFSET, spec.n_actions)}
    short = {a: n.split(" ", 1)[1] for a, n in names.items() if " " in n}
    exact = [a for a in names if t in (names[a], short.get(a))]
    if exact or not t:
        return exact
    return [a for a in names if names[a].startswith(t) or short.get(a, "").startswith(t)]


def _usage(options: Sequence[int], spec: GameSpec) -> str:
    """What may be typed for these options."""
    ways = [f"type a number 1..{len(options)}"]
    if any(is_card(a) for a in options):
        ways.append("a card like H9")
    phase = [a for a in options if not is_card(a)]
    if phase:
        ways.append(f"an action's name like {spec.action_names[phase[0]]!r}")
    return ", ".join(ways[:-1]) + (" or " if len(ways) > 1 else "") + ways[-1] + "; ? for help, q to quit"


def _names_text(actions: Sequence[int], spec: GameSpec) -> str:
    """Actions by label, long runs of actions that count shortened (``predict 0 … predict 157``)."""
    return ", ".join(listed(actions, spec, numbered=False))


def interpret(text: str, options: Sequence[int], hand: int, spec: GameSpec) -> tuple[int | None, str]:
    """Read one answer: (chosen legal action, "") or (None, hint explaining what is wrong).

    ``options``: the legal actions in the order shown (numbered from 1); ``hand``: the player's
    cards as a bitboard; ``spec``: the game (its action names). Quit and help words are handled by
    the caller.
    """
    k = len(options)
    usage = _usage(options, spec)
    t = text.strip()
    if not t:
        return None, f"Please answer: {usage}."
    if re.fullmatch(r"[+-]?\d+", t):
        n = int(t)
        if 1 <= n <= k:
            return options[n - 1], ""
        return None, f"{n} is out of range: choose a number from 1 to {k} ({usage})."
    card = _card_of_text(t)
    if card is not None:
        if card in options:
            return card, ""
        if not any(is_card(a) for a in options):
            return None, f"Cards are played after the {spec.bidding}; now choose one of the options: {usage}."
        if not hand >> card & 1:
            return None, f"You do not hold {card_symbol(card)}: {usage}."
        legal = " ".join(card_symbol(c) for c in options if is_card(c))
        return None, (f"{card_symbol(card)} may not be played now (you must follow suit where the rules "
                      f"demand it); legal: {legal}. {usage[0].upper()}{usage[1:]}.")
    named = phase_actions_named(t, spec)
    legal = [a for a in named if a in options]
    if len(legal) == 1:
        return legal[0], ""
    if len(legal) > 1:
        return None, f"{t!r} could be any of: {_names_text(legal, spec)}; say which ({usage})."
    if named:
        what = option_label(named[0], spec) if len(named) == 1 else _names_text(named, spec)
        play = "; play a card" if all(is_card(a) for a in options) else ""
        return None, f"{what} is not an option now{play}: {usage}."
    return None, f"Not understood: {t!r}; {usage}."


# seats and sides
@dataclass(frozen=True)
class Seats:
    """The human's seat among the game's seats: who is whose partner, and how sides are named."""

    spec: GameSpec
    seat: int

    @property
    def teams(self) -> bool:
        return self.spec.teams != TEAMS_NONE

    @property
    def partners(self) -> tuple[int, ...]:
        """The other seats of the human's team (none in games played alone)."""
        if not self.teams:
            return ()
        mine = self.spec.side_of(self.seat)
        return tuple(p for p in range(self.spec.players) if p != self.seat and self.spec.side_of(p) == mine)

    def who(self, p: int) -> str:
        """``player_2 (partner)``, ``player_1 (opponent)``, ``player_0 (you)``."""
        role = "you" if p == self.seat else "partner" if p in self.partners else "opponent"
        return f"player_{p} ({role})"

    def annotate(self, text: str) -> str:
        """Mark the human's seat and the partners' seats in a rendered table."""
        for p in (self.seat, *self.partners):
            text = re.sub(rf"\bplayer_{p}\b", self.who(p), text)
        return text

    def side(self, side: int) -> str:
        """A side by name: ``your team (team 1)``, ``the opponents (team 0)``; ``you (player_0)``,
        ``player_2`` in games played alone."""
        if self.teams:
            return (f"your team (team {side})" if side == self.spec.side_of(self.seat)
                    else f"the opponents (team {side})")
        return f"you (player_{side})" if side == self.seat else f"player_{side}"

    def sides_text(self) -> str:
        """``2 teams: 0 & 2 against 1 & 3`` or ``each alone``."""
        if not self.teams:
            return "each alone"
        spec = self.spec
        teams = [" & ".join(str(p) for p in range(spec.players) if spec.side_of(p) == s)
                 for s in range(spec.sides)]
        return f"{len(teams)} teams: " + " against ".join(teams)

    def seats_text(self) -> str:
        """``4 players, 2 teams: 0 & 2 against 1 & 3`` or ``3 players, each alone``."""
        return f"{self.spec.players} players, {self.sides_text()}"

    def side_of_seat(self, p: int) -> str:
        """`` (team 1)`` in team games, nothing in games played alone."""
        return f" (team {self.spec.side_of(p)})" if self.teams else ""


def help_text(seats: Seats, rules: Rules) -> str:
    """How to answer, the game's named actions, the seats and which way its scores are better."""
    game, spec = game_of(rules), rules.spec
    lines = ["How to answer: the number in front of an option, or its name:",
             "  cards     H9, hJ, C10, ♥9 (suit D H S C, rank 6 7 8 9 10 J Q K A)"]
    if spec.n_actions > PHASE_ACTION_OFFSET:
        name = spec.action_names[PHASE_ACTION_OFFSET]
        rest = name.partition(" ")[2]
        short = f" (or {rest!r}, without the first word)" if rest and not rest.isdigit() else ""
        lines.append(f"  actions   as named in your options, e.g. {name!r}{short};")
        lines.append("            a beginning that fits one option will do")
    lines.append("  q         quit (finished rounds are still recorded)")
    lines.append(f"{spec.title}: {seats.seats_text()}.")
    lines.append(f"You are player_{seats.seat}{seats.side_of_seat(seats.seat)}. "
                 f"Round {game.statistic.score}: {game.better} is better.")
    return "\n".join(lines)


# the game
@dataclass
class Session:
    """One game at the terminal: seat assignment, agents, and the game once it runs (its
    records)."""

    rules: Rules
    seat: int
    agents: dict[int, Agent]
    seed: int
    term: Terminal
    play: SeatedGame | None = None

    @property
    def spec(self) -> GameSpec:
        return self.rules.spec

    @property
    def seats(self) -> Seats:
        return Seats(self.spec, self.seat)

    @property
    def records(self) -> list[dict]:
        """The records of the rounds played through all their tricks."""
        return self.play.records if self.play is not None else []

    # acting
    def hidden_from_me(self, rnd: Round, action: int) -> bool:
        """Whether another seat's ``action`` (about to be taken in ``rnd``) is hidden from the
        human (:func:`agents.table.hidden_from`)."""
        return hidden_from(rnd, action, self.seat)

    def human_action(self, rnd: Round) -> int:
        options = [int(a) for a in rnd.legal_actions()]
        hand = rnd.view.hands[self.seat]
        self.term.say()
        self.term.say(self.seats.annotate(render_table(rnd.state, self.rules, show_hands=self.seat)))
        if rnd.phase == "play" and rnd.trick_number == 0:
            self.show_own_weis(rnd)
        self.ask_options(options)
        while True:
            text = self.term.ask(f"Your choice (1-{len(options)}, ? help, q quit)> ")
            if text.lower() in QUIT_WORDS:
                raise QuitGame("quit")
            if text.lower() in HELP_WORDS:
                self.term.say(help_text(self.seats, self.rules))
                self.ask_options(options)
                continue
            action, hint = interpret(text, options, hand, self.spec)
            if action is not None:
                return action
            self.term.say(hint)
            self.ask_options(options)

    def ask_options(self, options: Sequence[int]) -> None:
        self.term.say(options_line(options, self.spec))
        note = shortened_note(options, self.spec)
        if note:
            self.term.say(note)

    def show_own_weis(self, rnd: Round) -> None:
        """Your own Weis and Stöck (private until shown; the engine declares them for you)."""
        weis = rnd.declared_weis(self.seat)
        if weis:
            items = " · ".join(" ".join(card_symbol(card_id(c)) for c in w["cards"]) + f" ({w['points']})"
                               for w in weis)
            self.term.say(f"Your Weis (declared for you; the table shows how they count): {items}")
        if rnd.stoeck_player == self.seat and not rnd.stoeck_shown:
            self.term.say(f"You hold Stöck (the trump K and Q, {self.rules.stoeck} points): it counts when "
                          "you play the second of them")

    def describe(self, player: int, action: int, hidden: bool = False) -> str:
        """One line for an action just taken: ``player_1 (opponent) plays ♠K``, ``You choose H``,
        ``player_2 (opponent) predicts (hidden from you)``."""
        return describe(self.seats.who(player), action, self.spec, you=player == self.seat, hidden=hidden)

    # rounds
    def trick_done(self, rnd: Round) -> None:
        t = rnd.tricks[-1]
        cards = " · ".join(f"player_{p} {card_symbol(card_id(c))}" for p, c in t["plays"])
        mine = self.spec.side_of(t["winner"]) == self.spec.side_of(self.seat)
        if self.seats.teams:
            by = "your team, " if mine else "the opponents, "
        else:
            by = "you, " if mine else ""
        self.term.say(self.seats.annotate(f"Trick {len(rnd.tricks)}: {cards} -> won by player_{t['winner']} "
                                          f"({by}{t['points']} points)"))

    def scores_text(self, scores: Sequence[int]) -> str:
        """Each side's score, the human's side first: ``your team (team 1) 57, the opponents
        (team 0) 100``; ``you (player_0) 12, player_1 40, ...``."""
        mine = self.spec.side_of(self.seat)
        order = [mine, *(s for s in range(self.spec.sides) if s != mine)]
        return ", ".join(f"{self.seats.side(s)} {scores[s]}" for s in order)

    def round_done(self, step: Step, round_no: int) -> None:
        """The table and the scores of round ``round_no`` (1-based), finished by ``step``."""
        game, rnd = game_of(self.rules), step.finished
        self.term.say()
        self.term.say(self.seats.annotate(render_table(rnd.state, self.rules, show_hands=self.seat)))
        if step.recorded:
            self.term.say(f"Round {round_no} over: {self.scores_text(rnd.score)} "
                          f"({game.statistic.score}, {game.better} is better)")
        else:
            self.term.say(f"The match was decided during round {round_no}; that round is not recorded "
                          f"(it has fewer than {self.spec.tricks} tricks).")

    def match_done(self, match: Match, rounds: int) -> None:
        w = match.winner
        if not 0 <= w < self.spec.sides:
            result = "a draw"
        elif w == self.spec.side_of(self.seat):
            result = "your team wins" if self.seats.teams else "you win"
        else:
            result = f"{self.seats.side(w)} win{'' if self.seats.teams else 's'}"
        self.term.say(f"Match over after {rounds} rounds: {self.scores_text(match.scores)} "
                      f"({game_of(self.rules).better} is better): {result}")

    def run(self, match: bool) -> None:
        """Play a round (or a match); raises QuitGame or AgentFailure (the rounds finished before
        are in ``records``)."""
        play = self.play = SeatedGame(self.rules, self.agents, self.seed, match,
                                      record_id=lambda n: f"play-seed{self.seed}-round{n}")
        announced = -1
        while True:
            rnd = play.round
            if play.rounds_played != announced:
                announced = play.rounds_played
                self.term.say()
                self.term.say(f"=== Round {announced + 1}: dealer {self.seats.who(rnd.dealer)}, "
                              f"forehand {self.seats.who(rnd.forehand)} ===")
            player = rnd.to_move
            action = self.human_action(rnd) if player == self.seat else play.agent_action()
            hidden = player != self.seat and not is_card(action) and self.hidden_from_me(rnd, action)
            step = play.step(action)
            self.term.say(self.describe(player, action, hidden))
            if step.trick is not None:
                self.trick_done(step.rnd)
            if step.finished is not None:
                self.round_done(step, play.rounds_played)
                if play.is_over:
                    break
        if isinstance(play.game, Match):
            self.match_done(play.game, play.rounds_played)


# CLI
def presets_text() -> str:
    """One line per preset: its game, players and sides (for --help)."""
    lines = []
    for name, rules in PRESETS.items():
        seats = Seats(rules.spec, 0)
        lines.append(f"  {name}: {rules.spec.title}, {seats.seats_text()}")
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    from .registry import describe_specs  # noqa: PLC0415

    ap = argparse.ArgumentParser(
        prog=module_command("agents.play"), formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play any game of the Jass family in the terminal against (and with) agents.",
        epilog="rules presets (--rules):\n" + presets_text() + "\n\nagent specs:\n" + describe_specs())
    ap.add_argument("--rules", default="schieber", help="rules preset (default schieber; listed below)")
    ap.add_argument("--seat", type=int, default=0, metavar="N",
                    help="your seat, 0 .. the game's players - 1 (default 0)")
    ap.add_argument("--partner", default=None, metavar="AGENT",
                    help=f"team games only: the agent of your team's other seats (default {DEFAULT_AGENT})")
    ap.add_argument("--opponents", default=DEFAULT_AGENT, metavar="AGENT",
                    help="the agent of every other seat (the other team's, or everyone else's in games "
                         f"played alone), one instance per seat (default {DEFAULT_AGENT})")
    ap.add_argument("--seed", type=int, default=None, help="deal seed (default: random, printed)")
    ap.add_argument("--match", action="store_true",
                    help="play the game's whole match (to its target, or its number of rounds)")
    ap.add_argument("--record", metavar="FILE|DIR", default=None,
                    help="game record file (JSON Lines; an existing one is appended to), or a folder for "
                         f"jass_game_<timestamp>.jsonl (default: {DEFAULT_RECORD_DIR}/jass_game_<timestamp>"
                         ".jsonl; runs/ is ignored by git); checked before the game")
    ap.add_argument("--overwrite", action="store_true",
                    help="replace an existing --record FILE instead of appending to it")
    return ap


def seat_agents(rules: Rules, seat: int, partner: str | None, opponents: str) -> dict[int, str]:
    """The agent spec of every seat but the human's. ValueError for a seat the game does not have,
    or ``partner`` given in a game played alone."""
    spec = rules.spec
    if not 0 <= seat < spec.players:
        raise ValueError(f"--seat {seat}: {rules.name} is played by {spec.players} players; choose a seat "
                         f"0..{spec.players - 1}")
    seats = Seats(spec, seat)
    if partner is not None and not seats.teams:
        raise ValueError(f"--partner: in {rules.name} every player plays alone, there is no partner; "
                         "--opponents gives the agent of every other seat")
    return {p: (partner or DEFAULT_AGENT) if p in seats.partners else opponents
            for p in range(spec.players) if p != seat}


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    """CLI entry point (streams can be given for tests); returns the exit status."""
    from .registry import make_agent  # noqa: PLC0415

    if stdout is None:
        stdout = sys.stdout
        if (getattr(stdout, "encoding", None) or "").lower().replace("-", "") != "utf8":
            try:
                stdout.reconfigure(errors="replace")   # suit symbols on a non-UTF-8 terminal
            except (AttributeError, ValueError):
                pass
    stdin = sys.stdin if stdin is None else stdin
    args = _parser().parse_args(argv)

    def fail(msg: str, status: int = 2) -> int:
        print(f"error: {msg}", file=sys.stderr)
        return status

    if stdin is None or getattr(stdin, "closed", False):
        return fail("standard input is closed; agents.play reads your answers from it (run it in a "
                    "terminal, or pipe the answers in)")

    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    if seed < 0:
        return fail(f"--seed must be >= 0, got {seed}")
    try:
        rules = make_rules(args.rules)
        specs = seat_agents(rules, args.seat, args.partner, args.opponents)
        agents = {p: make_agent(s, rules, seed=seed + p) for p, s in specs.items()}
    except (RulesError, ValueError) as e:   # AgentSpecError and CheckpointError are ValueErrors
        return fail(str(e))
    record = record_path(args.record)
    try:
        prepare_record(record)
    except RecordPathError as e:
        return fail(str(e))

    term = Terminal(stdin, stdout)
    seat, spec = args.seat, rules.spec
    session = Session(rules, seat, agents, seed, term)
    end = f"to {rules.target}" if rules.target else f"of {rules.match_rounds} rounds"
    term.say(f"{spec.title} ({rules.name}{', match ' + end if args.match else ''}) · "
             f"{session.seats.seats_text()} · seed {seed} (replay with --seed {seed})")
    for p in range(spec.players):
        desc = "you" if p == seat else getattr(agents[p], "name", specs[p])
        term.say(f"  player_{p}{session.seats.side_of_seat(p)}: {desc}")
    earlier = record_lines(record)
    append = record.exists() and not args.overwrite
    if append:
        term.say(f"The record file {record} exists ({earlier} records): this game's rounds will be "
                 "appended to it (--overwrite replaces it).")
    elif record.exists():
        term.say(f"The record file {record} exists ({earlier} records): it will be replaced (--overwrite).")
    status, quit_reason = 0, None
    try:
        session.run(args.match)
    except QuitGame as e:
        quit_reason = str(e)
    except KeyboardInterrupt:
        quit_reason = "interrupted"
    except AgentFailure as e:
        print(f"error: {e}", file=sys.stderr)
        status = 1
    if quit_reason is not None:
        term.say(f"Game stopped ({quit_reason}).")
    if session.records:
        try:
            n = save_records(record, session.records, append)
        except OSError as e:
            return fail(f"cannot write the game record {str(record)!r}: {e}", 1)
        how = (f"Appended {n} round record(s) to {record}, after its {earlier} earlier one(s)" if append
               else f"Wrote {n} round record(s) to {record}")
        term.say(f"{how} (check: {module_command('jass_env.records')} check {record})")
    else:
        term.say(f"No round was played through all {spec.tricks} tricks; no record written.")
    return status


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["main", "interpret", "options_line", "option_label", "phase_actions_named", "seat_agents",
           "Seats", "Session", "Terminal", "QuitGame", "DEFAULT_RECORD_DIR"]
