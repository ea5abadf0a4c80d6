"""Play Jass in the terminal: you hold one seat, agents (bots, checkpoints, ONNX files) the others.

    python -m agents.play [--seat 0] [--partner heuristic] [--opponents pimc:worlds=10]
                          [--rules schieber] [--seed N] [--match] [--record FILE|DIR]

(console script ``jass-play``). Agents are registry specs (:mod:`agents.registry`): ``random``,
``heuristic``, ``pimc:worlds=10``, ``runs/x.pt``, ``runs/x.onnx``; each opponent seat gets its own
instance of ``--opponents``. Without ``--match`` one round is played; with it, rounds until a team
reaches the rules' target.

When it is your turn the table is shown from your seat (your hand, the trick, the contract, public
Weis and Stöck, the score; :func:`jass_env.render.render_table` with ``show_hands=<your seat>``),
then your options numbered 1..k: the contracts and push while choosing the contract, the legal
cards while playing. Answer with a number, a card (``H9``, ``hJ``, ``♥9``), a contract (``H``,
``obenabe``, ``push``), ``?`` for help, or ``q`` to quit. Wrong input gets a hint and the question
again. Every bot action is printed, and after each trick who won it.

At the end (also after ``q``, end of input or Ctrl-C) every round played through all 9 tricks is
written as a game record (docs/records.md, :func:`jass_env.records.record_of`) to
``--record FILE``, one line per round; check it with
``.venv/bin/python -m jass_env.records check FILE``. ``--record DIR`` (an existing folder, or a
path ending in ``/``) writes ``DIR/jass_game_<YYYYmmdd_HHMMSS>.jsonl``; without ``--record`` the
file goes to ``runs/play/`` (``runs/`` holds every generated output and is ignored by git). The
record's folder is created and tested for writing *before* the game, so a game is never played
into a record that cannot be written.

Exit status: 0 game finished or quit, 1 an agent failed or the record could not be written,
2 bad arguments (unknown agent, rules or seat; a record path that cannot be written; standard input
closed).
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import numpy as np

from jass_env.commands import module_command
from jass_env.engine.cards import CONTRACT_NAMES, SUIT_SYMBOLS, SUITS, card_id, card_symbol
from jass_env.engine.state import PHASE_CONTRACT, StateView
from jass_env.engine.switches import Rules, RulesError
from jass_env.envs.encoding import obs_dim
from jass_env.games import game_of, make_rules
from jass_env.games.schieber.rules import CONTRACT_OFFSET as CONTRACT_ACTION_OFFSET
from jass_env.games.schieber.rules import PUSH as PUSH_ACTION
from jass_env.records import record_of, write_records
from jass_env.render import render_table
from jass_env.round import Match, Round

from .base import Agent

QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "help")
_CONTRACT_WORDS = {**{s.lower(): i for i, s in enumerate(SUITS)},
                   **{sym: i for i, sym in enumerate(SUIT_SYMBOLS)},
                   "obenabe": 4, "oben": 4, "o": 4, "undenufe": 5, "unde": 5, "u": 5}
_PUSH_WORDS = ("push", "p", "schieben", "schiebe")


DEFAULT_RECORD_DIR = Path("runs") / "play"


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


class QuitGame(Exception):
    """The player typed q, or the input ended."""


class AgentFailure(RuntimeError):
    """An agent raised or chose an illegal action."""


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
def option_label(action: int) -> str:
    """How an action is shown in the numbered list: ``♥9``, ``♥ trump``, ``push``."""
    if action < CONTRACT_ACTION_OFFSET:
        return card_symbol(action)
    if action == PUSH_ACTION:
        return "push (your partner chooses)"
    return CONTRACT_NAMES[action - CONTRACT_ACTION_OFFSET]


def options_line(options: Sequence[int], contract_phase: bool) -> str:
    """``Your cards to play: 1 ♦A  2 ♦10 ...`` or ``Choose the contract: 1 ♦ trump ... 7 push``."""
    items = "  ".join(f"{i} {option_label(a)}" for i, a in enumerate(options, 1))
    return ("Choose the contract: " if contract_phase else "Your cards to play: ") + items


def _card_of_text(text: str) -> int | None:
    """A card id from ``H9``, ``hJ``, ``♥9``, ``h 10``; None if the text is not a card."""
    t = text.replace(" ", "")
    for i, sym in enumerate(SUIT_SYMBOLS):
        t = t.replace(sym, SUITS[i])
    try:
        return card_id(t)
    except ValueError:
        return None


def interpret(text: str, options: Sequence[int], hand: int, contract_phase: bool) -> tuple[int | None, str]:
    """Read one answer: (chosen legal action, "") or (None, hint explaining what is wrong).

    ``options``: the legal actions in the order shown (numbered from 1); ``hand``: the player's
    cards as a bitboard. Quit and help words are handled by the caller.
    """
    k = len(options)
    usage = (f"type a number 1..{k}" + (", a contract (D H S C obenabe undenufe) or push"
                                        if contract_phase else " or a card like H9")
             + "; ? for help, q to quit")
    t = text.strip()
    if not t:
        return None, f"Please answer: {usage}."
    if re.fullmatch(r"[+-]?\d+", t):
        n = int(t)
        if 1 <= n <= k:
            return options[n - 1], ""
        return None, f"{n} is out of range: choose a number from 1 to {k} ({usage})."
    low = t.lower()
    if contract_phase:
        if low in _PUSH_WORDS:
            if PUSH_ACTION in options:
                return PUSH_ACTION, ""
            return None, f"You cannot push now (the choice was pushed to you): {usage}."
        if low in _CONTRACT_WORDS:
            a = CONTRACT_ACTION_OFFSET + _CONTRACT_WORDS[low]
            if a in options:
                return a, ""
            return None, f"{option_label(a)} is not allowed under these rules: {usage}."
        if _card_of_text(t) is not None:
            return None, f"First the contract is chosen; cards are played afterwards: {usage}."
        return None, f"Not understood: {t!r}; {usage}."
    card = _card_of_text(t)
    if card is None:
        if low in _PUSH_WORDS or low in ("obenabe", "undenufe"):
            return None, f"The contract is already chosen; play a card: {usage}."
        return None, f"Not understood: {t!r}; {usage}."
    if card in options:
        return card, ""
    if not hand >> card & 1:
        return None, f"You do not hold {card_symbol(card)}: {usage}."
    legal = " ".join(card_symbol(c) for c in options)
    return None, (f"{card_symbol(card)} may not be played now (you must follow suit where the rules "
                  f"demand it); legal: {legal}. {usage[0].upper()}{usage[1:]}.")


HELP_TEXT = """\
How to answer: the number in front of an option, or its name:
  cards     H9, hJ, C10, ♥9 (suit D H S C, rank 6 7 8 9 10 J Q K A)
  contract  D H S C (trump suit), obenabe, undenufe, push (the partner chooses)
  q         quit (finished rounds are still recorded)
Teams: players 0 and 2 against 1 and 3. Card points + Weis + Stöck make the round score."""


# the game
@dataclass
class Session:
    """One game at the terminal: seat assignment, agents and what has been recorded."""

    rules: Rules
    seat: int
    agents: dict[int, Agent]
    seed: int
    term: Terminal
    records: list[dict] = field(default_factory=list)
    rounds_played: int = 0

    # naming
    def who(self, p: int) -> str:
        if p == self.seat:
            return f"player_{p} (you)"
        if p == (self.seat + 2) % 4:
            return f"player_{p} (partner)"
        return f"player_{p} (opponent)"

    def annotate(self, text: str) -> str:
        """Mark the human's and the partner's seat in a rendered table."""
        partner = (self.seat + 2) % 4
        text = re.sub(rf"\bplayer_{self.seat}\b", f"player_{self.seat} (you)", text)
        return re.sub(rf"\bplayer_{partner}\b", f"player_{partner} (partner)", text)

    # acting
    def observation(self, rnd: Round) -> dict[str, np.ndarray]:
        """The observation and legal-action mask of the seat to move, sized by the game."""
        obs = np.zeros(obs_dim(self.rules), dtype=np.float32)
        mask = np.zeros(self.rules.spec.n_actions, dtype=np.int8)
        game_of(self.rules).observation.encode_observation(rnd.state, rnd.to_move, self.rules.params, obs)
        rnd.engine.action_mask(rnd.state, self.rules.params, mask)
        return {"observation": obs, "action_mask": mask}

    def agent_action(self, rnd: Round) -> int:
        p = rnd.to_move
        agent = self.agents[p]
        obs = self.observation(rnd)
        try:
            a = agent.act(obs)
        except Exception as e:
            raise AgentFailure(f"agent {getattr(agent, 'name', agent)!r} in seat {p} failed: "
                               f"{type(e).__name__}: {e}") from e
        mask = obs["action_mask"]
        if not isinstance(a, (int, np.integer)) or not 0 <= a < len(mask) or not mask[a]:
            raise AgentFailure(f"agent {getattr(agent, 'name', agent)!r} in seat {p} chose {a!r}, "
                               f"not a legal action; legal: {np.flatnonzero(obs['action_mask']).tolist()}")
        return int(a)

    def human_action(self, rnd: Round) -> int:
        st = rnd.state
        view = StateView(st, self.rules.params)
        contract_phase = view.phase == PHASE_CONTRACT
        options = [int(a) for a in rnd.legal_actions()]
        hand = view.hands[self.seat]
        self.term.say()
        self.term.say(self.annotate(render_table(st, self.rules, show_hands=self.seat)))
        if not contract_phase and rnd.trick_number == 0:
            self.show_own_weis(rnd)
        self.term.say(options_line(options, contract_phase))
        while True:
            text = self.term.ask(f"Your choice (1-{len(options)}, ? help, q quit)> ")
            if text.lower() in QUIT_WORDS:
                raise QuitGame("quit")
            if text.lower() in HELP_WORDS:
                self.term.say(HELP_TEXT)
                self.term.say(options_line(options, contract_phase))
                continue
            action, hint = interpret(text, options, hand, contract_phase)
            if action is not None:
                return action
            self.term.say(hint)
            self.term.say(options_line(options, contract_phase))

    def show_own_weis(self, rnd: Round) -> None:
        """Your own Weis and Stöck (private until shown; the engine declares them for you)."""
        weis = rnd.declared_weis(self.seat)
        if weis:
            items = " · ".join(" ".join(card_symbol(card_id(c)) for c in w["cards"]) + f" ({w['points']})"
                               for w in weis)
            self.term.say(f"Your Weis (declared for you, scored if your team's best wins): {items}")
        if rnd.stoeck_player == self.seat and not rnd.stoeck_shown:
            self.term.say(f"You hold Stöck: +{self.rules.stoeck} when you play the second of trump K and Q")

    def describe(self, rnd: Round, player: int, action: int) -> str:
        """One line for an action just taken: ``player_1 (opponent) plays ♠K``."""
        name = "You" if player == self.seat else self.who(player)
        verb_s = "" if player == self.seat else "s"
        if action == PUSH_ACTION:
            return f"{name} push{'es' if verb_s else ''} the contract choice to the partner"
        if action >= CONTRACT_ACTION_OFFSET:
            return f"{name} choose{verb_s} {CONTRACT_NAMES[action - CONTRACT_ACTION_OFFSET]}"
        return f"{name} play{verb_s} {card_symbol(action)}"

    # rounds
    def reset_agents(self, round_no: int) -> None:
        for p, agent in self.agents.items():
            agent.reset(seed=int(np.random.SeedSequence([self.seed, round_no, p]).generate_state(1)[0]))

    def trick_done(self, rnd: Round) -> None:
        t = rnd.tricks[-1]
        cards = " · ".join(f"player_{p} {card_symbol(card_id(c))}" for p, c in t["plays"])
        team = "your team" if t["winner"] % 2 == self.seat % 2 else "the opponents"
        self.term.say(self.annotate(f"Trick {len(rnd.tricks)}: {cards} -> won by player_{t['winner']} "
                                    f"({team}, {t['points']} points)"))

    def round_done(self, rnd: Round) -> None:
        mine, theirs = self.seat % 2, 1 - self.seat % 2
        self.term.say()
        self.term.say(self.annotate(render_table(rnd.state, self.rules, show_hands=self.seat)))
        sc = rnd.score
        if rnd.trick_number < 9:
            self.term.say(f"The match was decided during round {self.rounds_played + 1}; "
                          "that round is not recorded (it has fewer than 9 tricks).")
        else:
            self.term.say(f"Round {self.rounds_played + 1} over: your team (team {mine}) {sc[mine]}, "
                          f"the opponents (team {theirs}) {sc[theirs]}")
            self.records.append(record_of(rnd, id=f"play-seed{self.seed}-round{self.rounds_played + 1}"))
        self.rounds_played += 1

    def run(self, match: bool) -> None:
        """Play a round (or a match); raises QuitGame or AgentFailure."""
        game: Match | Round = (Match(self.rules, seed=self.seed) if match
                               else Round(self.rules, seed=self.seed))
        current = -1
        while True:
            rnd = game.round if isinstance(game, Match) else game
            st = rnd.state
            round_no = StateView(st, self.rules.params).rounds_done if match else 0
            if round_no != current:
                current = round_no
                self.reset_agents(round_no)
                self.term.say()
                self.term.say(f"=== Round {round_no + 1}: dealer {self.who(rnd.dealer)}, "
                              f"forehand {self.who(rnd.forehand)} ===")
            player = rnd.to_move
            action = self.human_action(rnd) if player == self.seat else self.agent_action(rnd)
            tricks_before = rnd.trick_number
            finished_before = len(game.finished_rounds) if isinstance(game, Match) else 0
            game.step(action)
            self.term.say(self.describe(rnd, player, action))
            if isinstance(game, Match):
                done = game.finished_rounds[-1] if len(game.finished_rounds) > finished_before else None
            else:
                done = game if game.is_over else None
            acted_in = done if done is not None else rnd
            if acted_in.trick_number > tricks_before:
                self.trick_done(acted_in)
            if done is not None:
                self.round_done(done)
                if not match or game.is_over:
                    break
        if isinstance(game, Match):
            w, s = game.winner, game.scores
            mine = self.seat % 2
            result = ("a draw" if w == 2 else "your team wins" if w == mine else "the opponents win")
            self.term.say(f"Match over after {self.rounds_played} rounds: your team {s[mine]}, "
                          f"the opponents {s[1 - mine]}: {result}")


# CLI
def _parser() -> argparse.ArgumentParser:
    from .registry import describe_specs  # noqa: PLC0415

    ap = argparse.ArgumentParser(
        prog=module_command("agents.play"), formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play Jass in the terminal against and with agents.",
        epilog="agent specs:\n" + describe_specs())
    ap.add_argument("--seat", type=int, default=0, choices=range(4), metavar="0-3",
                    help="your seat (default 0; teams are 0&2 and 1&3)")
    ap.add_argument("--partner", default="heuristic", metavar="AGENT",
                    help="your partner's agent spec (default heuristic)")
    ap.add_argument("--opponents", default="heuristic", metavar="AGENT",
                    help="the opponents' agent spec, one instance per seat (default heuristic)")
    ap.add_argument("--rules", default="schieber", help="rules preset (default schieber)")
    ap.add_argument("--seed", type=int, default=None, help="deal seed (default: random, printed)")
    ap.add_argument("--match", action="store_true", help="play a whole match to the rules' target")
    ap.add_argument("--record", metavar="FILE|DIR", default=None,
                    help="game record file (JSON Lines), or a folder for jass_game_<timestamp>.jsonl "
                         f"(default: {DEFAULT_RECORD_DIR}/jass_game_<timestamp>.jsonl; runs/ is "
                         "ignored by git); checked before the game")
    return ap


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
        seat = args.seat
        specs = {(seat + 2) % 4: args.partner, (seat + 1) % 4: args.opponents, (seat + 3) % 4: args.opponents}
        agents = {p: make_agent(s, rules, seed=seed + p) for p, s in specs.items()}
    except (RulesError, ValueError) as e:   # AgentSpecError and CheckpointError are ValueErrors
        return fail(str(e))
    record = record_path(args.record)
    try:
        prepare_record(record)
    except RecordPathError as e:
        return fail(str(e))

    term = Terminal(stdin, stdout)
    session = Session(rules, seat, agents, seed, term)
    term.say(f"Jass ({rules.name}{', match to ' + str(rules.target) if args.match and rules.target else ''})"
             f" · seed {seed} (replay with --seed {seed})")
    for p in range(4):
        desc = "you" if p == seat else getattr(agents[p], "name", specs[p])
        term.say(f"  player_{p} (team {p % 2}): {desc}")
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
            n = write_records(record, session.records)
        except OSError as e:
            return fail(f"cannot write the game record {str(record)!r}: {e}", 1)
        term.say(f"Wrote {n} round record(s) to {record} "
                 f"(check: {module_command('jass_env.records')} check {record})")
    else:
        term.say("No round was played through all 9 tricks; no record written.")
    return status


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["main", "interpret", "options_line", "Session", "Terminal", "QuitGame"]
