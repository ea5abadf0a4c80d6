"""Trump by the first discard: what Mittlere and Molotow share (their round rules, observation
layout, readers and text lines).

Play starts at once (no bidding): forehand leads, there is no trump yet, the cards rank as in
Obenabe and everyone must follow suit. The first player who cannot follow plays any card, and its
suit is trump **from that card on**: that card can win its trick, and the players after him in
that trick already play under the trump rules (docs/rules.md "Legal moves", with the rules'
``undertrump_rule``, ``only_if_void`` in both games). A trick finished before trump was fixed keeps
the winner decided then (Obenabe ranking), but every trick of the hand counts with the final trump's
card values: their points are recounted when trump is fixed. When nobody ever discards (every
player holds as many cards of each suit: 0.24 % of Mittlere deals; impossible with 4, 5 or 6
players, whose suits of 9 cards, or 8 spades without the ♠7, do not split evenly) the hand
counts with Obenabe values, or scores 0 for all under ``no_trump_hand = "annul"``.

Each game's scoring is its own (:mod:`jass_env.games.mittlere.rules`,
:mod:`jass_env.games.molotow.rules`); a game is ``match_rounds`` hands, the best total wins
(Mittlere: the highest, Molotow: the lowest), and a tie for the best plays one more hand.
"""

