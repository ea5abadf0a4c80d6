"""The games of the Jass family, declared once: who plays, with how many cards, and what they do.

A :class:`GameSpec` holds the facts of one game that never change with a rule switch: players,
teams, hand size, tricks, the phases before card play, the action layout and how a round is
scored. The engine derives everything sized by a game from it: the state layout
(:mod:`jass_env.core` is sized for the largest game here), the action space and the observation
layout of each game's environment.

Every game's actions begin with the 36 card actions (``id = 9 * suit + rank offset``, see
:mod:`jass_env.cards`), so card masks, embeddings and heads are shared across the family; the
phase actions follow.

=============== ======= ========= ====== ====== ================ ======= =====================
game            players teams     cards  tricks trump            actions round score
=============== ======= ========= ====== ====== ================ ======= =====================
schieber        4       pairs     9      9      chosen (or push) 43      team points
differenzler    4       none      9      9      bottom card      194     penalty |pred − pts|
differenzler3   3       none      12     12     bottom card      194     penalty |pred − pts|
coiffeur        4       pairs     9      9      declared row     55      a row of the sheet
coiffeur6       4       pairs     9      9      declared row     43      a row of the sheet
coiffeur10      4       pairs     9      9      declared row     59      a row of the sheet
mittlere        3       none      12     12     first discard    36      Striche − Nullen (place)
molotow         4       none      9      9      first discard    36      points + table − hand Weis
molotow3        3       none      12     12     first discard    36      points + table − hand Weis
molotow5        5       none      7      7      first discard    36      points + table − hand Weis
molotow6        6       none      6      6      first discard    36      points + table − hand Weis
sidi            2       none      8      18     open card        37      points + Weis + Stöck
schieber6       6       alternate 6      6      chosen (or push) 43      team points
=============== ======= ========= ====== ====== ================ ======= =====================

Every game deals from the 36 cards but ``molotow5``, whose deck lacks the ♠7 (``GameSpec.removed``;
35 cards, 7 each). The ♠7 counts 0 points in every contract, so a round still has 157 points.

The rule switches that vary within a game (presets, ``trump_mode``, ``predictions``, ...) live in
:mod:`jass_env.rules`; ``Rules.game`` names the spec.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import ALL_CARDS_MASK, CONTRACTS, N_CARDS, RANKS, SUITS, mask_of

#: how seats form sides: "pairs" (p and p + 2 partners), "alternate" ({0, 2, 4} vs {1, 3, 5}),
#: "none" (everyone alone: each player is his own side)
TEAM_MODES = ("none", "pairs", "alternate")
TEAMS_NONE, TEAMS_PAIRS, TEAMS_ALTERNATE = range(3)

#: the rules families of the compiled engine (how phases run and rounds score)
KIND_SCHIEBER, KIND_DIFFERENZLER = range(2)
# ---- Coiffeur (issue 15): its rules family, appended
KIND_COIFFEUR = 2
# --- Mittlere and Molotow (issue 17): trump fixed by the first discard (jass_env.first_discard)
KIND_MITTLERE, KIND_MOLOTOW = 3, 4
# --- end Mittlere and Molotow
# --- Sidi-Jass for two (project rules, docs/sidi.md): the open trump card and a stock
KIND_SIDI = 5
# --- end Sidi

#: points of one round's cards with the last trick's 5 (docs/rules.md "The deck"), in every game of 36 cards
ROUND_POINTS = 157
LAST_TRICK_BONUS = 5

#: Differenzler: a prediction is an integer 0..ROUND_POINTS
N_PREDICTIONS = ROUND_POINTS + 1

CARD_ACTION_NAMES: tuple[str, ...] = tuple(f"{SUITS[c // 9]}{RANKS[c % 9]}" for c in range(N_CARDS))


@dataclass(frozen=True)
class GameSpec:
    """The fixed facts of one game of the family (see the module docstring for the table)."""

    name: str
    title: str
    #: rules family of the compiled engine (KIND_*)
    kind: int
    players: int
    #: index into TEAM_MODES
    teams: int
    hand_size: int
    tricks: int
    #: the phase before card play: "contract" (Schieber's choice or push), "prediction",
    #: "declaration" (Coiffeur: a row of one's team's sheet, or push), or "none" (card play at
    #: once: Mittlere, Molotow)
    bidding: str
    #: every action's name, index = action id (cards first)
    action_names: tuple[str, ...] = field(repr=False, default=())
    #: the first action after the cards (a contract, or the prediction of 0 points)
    phase_action_offset: int = N_CARDS
    # ---- Coiffeur (issue 15)
    #: the rows of each team's score sheet, labels of COIFFEUR_ROW_LABELS in sheet order (() = none)
    rows: tuple[str, ...] = ()
    #: the environments' episode unless told otherwise: "round" (one deal) or "match" (Coiffeur:
    #: the whole game, since which row to spend on which hand is the game)
    default_episode: str = "round"
    # ---- Molotow for five (issue 17): the cards taken out of the deck before the deal
    #: names of the cards not in this game's deck (``molotow5``: ``("S7",)``); () = all 36
    removed: tuple[str, ...] = ()

    @property
    def deck(self) -> int:
        """The cards of this game's deck (36-bit mask): all 36 but the ``removed`` ones."""
        return ALL_CARDS_MASK & ~mask_of(self.removed)

    @property
    def n_actions(self) -> int:
        return len(self.action_names)

    @property
    def sides(self) -> int:
        """Scoring sides: 2 teams, or one per player when everyone plays alone."""
        return self.players if self.teams == TEAMS_NONE else 2

    @property
    def team_mode(self) -> str:
        return TEAM_MODES[self.teams]

    def side_of(self, player: int) -> int:
        """The side (team, or the player himself) that ``player`` scores for."""
        return player if self.teams == TEAMS_NONE else player % 2


SCHIEBER_ACTIONS = CARD_ACTION_NAMES + tuple(f"choose {c}" for c in CONTRACTS) + ("push",)
DIFFERENZLER_ACTIONS = CARD_ACTION_NAMES + tuple(f"predict {k}" for k in range(N_PREDICTIONS))

# ---- Coiffeur (issue 15): the rows of a score sheet and the declaration actions
#: every Coiffeur row; index = the engine's row id (the contract rows share the contract's number)
COIFFEUR_ROW_LABELS = ("D", "H", "S", "C", "Obenabe", "Undenufe", "Joker-1", "Joker-2", "Slalom", "Guschti")
COIFFEUR6_ACTIONS = (CARD_ACTION_NAMES + tuple(f"declare {c}" for c in CONTRACTS) + ("push",))
COIFFEUR_ACTIONS = COIFFEUR6_ACTIONS + tuple(f"declare Joker-{j + 1} as {c}" for j in range(2)
                                             for c in CONTRACTS)
COIFFEUR10_ACTIONS = COIFFEUR_ACTIONS + ("declare Slalom from obenabe", "declare Slalom from undenufe",
                                         "declare Guschti from obenabe", "declare Guschti from undenufe")
_BASE_ROWS = ("S", "C", "D", "H", "Obenabe", "Undenufe")

SPECS: dict[str, GameSpec] = {
    "schieber": GameSpec("schieber", "Schieber", KIND_SCHIEBER, players=4, teams=TEAMS_PAIRS,
                         hand_size=9, tricks=9, bidding="contract", action_names=SCHIEBER_ACTIONS),
    "differenzler": GameSpec("differenzler", "Differenzler", KIND_DIFFERENZLER, players=4,
                             teams=TEAMS_NONE, hand_size=9, tricks=9, bidding="prediction",
                             action_names=DIFFERENZLER_ACTIONS),
    "differenzler3": GameSpec("differenzler3", "Differenzler for three", KIND_DIFFERENZLER, players=3,
                              teams=TEAMS_NONE, hand_size=12, tricks=12, bidding="prediction",
                              action_names=DIFFERENZLER_ACTIONS),
    # ---- Coiffeur (issue 15)
    "coiffeur": GameSpec("coiffeur", "Coiffeur", KIND_COIFFEUR, players=4, teams=TEAMS_PAIRS, hand_size=9,
                         tricks=9, bidding="declaration", action_names=COIFFEUR_ACTIONS,
                         rows=_BASE_ROWS + ("Joker-1", "Joker-2"), default_episode="match"),
    "coiffeur6": GameSpec("coiffeur6", "Coiffeur (six rows)", KIND_COIFFEUR, players=4, teams=TEAMS_PAIRS,
                          hand_size=9, tricks=9, bidding="declaration", action_names=COIFFEUR6_ACTIONS,
                          rows=_BASE_ROWS, default_episode="match"),
    "coiffeur10": GameSpec("coiffeur10", "Coiffeur with Slalom and Guschti", KIND_COIFFEUR, players=4,
                           teams=TEAMS_PAIRS, hand_size=9, tricks=9, bidding="declaration",
                           action_names=COIFFEUR10_ACTIONS,
                           rows=_BASE_ROWS + ("Slalom", "Guschti", "Joker-1", "Joker-2"),
                           default_episode="match"),
}
# --- Mittlere and Molotow (issue 17): no phase before card play, the 36 card actions only.
SPECS["mittlere"] = GameSpec("mittlere", "Mittlere", KIND_MITTLERE, players=3, teams=TEAMS_NONE,
                             hand_size=12, tricks=12, bidding="none", action_names=CARD_ACTION_NAMES)
SPECS["molotow"] = GameSpec("molotow", "Molotow", KIND_MOLOTOW, players=4, teams=TEAMS_NONE,
                            hand_size=9, tricks=9, bidding="none", action_names=CARD_ACTION_NAMES)
SPECS["molotow3"] = GameSpec("molotow3", "Molotow for three", KIND_MOLOTOW, players=3,
                             teams=TEAMS_NONE, hand_size=12, tricks=12, bidding="none",
                             action_names=CARD_ACTION_NAMES)
# Molotow for five and six (docs/rules.md "Molotow"): five deal 7 each from the deck without the
# ♠7, six deal 6 each from the 36 cards
SPECS["molotow5"] = GameSpec("molotow5", "Molotow for five", KIND_MOLOTOW, players=5,
                             teams=TEAMS_NONE, hand_size=7, tricks=7, bidding="none",
                             action_names=CARD_ACTION_NAMES, removed=("S7",))
SPECS["molotow6"] = GameSpec("molotow6", "Molotow for six", KIND_MOLOTOW, players=6,
                             teams=TEAMS_NONE, hand_size=6, tricks=6, bidding="none",
                             action_names=CARD_ACTION_NAMES)
# --- end Mittlere and Molotow
# --- Sidi-Jass for two (project rules, docs/sidi.md): 2 players of 8 cards, a stock of 20 cards
# under the open trump card, 18 tricks of 2 cards; action 36 exchanges the trump 6 for the open card
SIDI_ACTIONS = CARD_ACTION_NAMES + ("exchange trump 6",)
SPECS["sidi"] = GameSpec("sidi", "Sidi-Jass for two", KIND_SIDI, players=2, teams=TEAMS_NONE,
                         hand_size=8, tricks=18, bidding="none", action_names=SIDI_ACTIONS)
# --- end Sidi
# ---- Schieber for six (the project's own rules, docs/schieber6.md): Schieber's rules and actions
# for 6 players in two teams of three ({0, 2, 4} against {1, 3, 5}), 6 cards each, 6 tricks
SPECS["schieber6"] = GameSpec("schieber6", "Schieber for six", KIND_SCHIEBER, players=6,
                              teams=TEAMS_ALTERNATE, hand_size=6, tricks=6, bidding="contract",
                              action_names=SCHIEBER_ACTIONS)
# ---- end Schieber for six

#: the family's largest game, which sizes the engine's state layout
MAX_PLAYERS = max(s.players for s in SPECS.values())
MAX_TRICKS = max(s.tricks for s in SPECS.values())
MAX_SIDES = max(s.sides for s in SPECS.values())
MAX_ACTIONS = max(s.n_actions for s in SPECS.values())


def game_spec(name: str) -> GameSpec:
    """The spec of a game by name; ValueError lists the games."""
    if name not in SPECS:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(SPECS)}")
    return SPECS[name]


__all__ = ["GameSpec", "SPECS", "game_spec", "TEAM_MODES", "ROUND_POINTS", "N_PREDICTIONS",
           "MAX_PLAYERS", "MAX_TRICKS", "MAX_SIDES", "MAX_ACTIONS"]
