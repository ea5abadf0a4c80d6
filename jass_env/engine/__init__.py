"""The engine: what every game of the family shares, compiled with numba; it names no game.

    jit.py          how it is compiled: decorators, the compile cache folders
    cards.py        card ids, names, contracts, bitboards, card points per contract
    card_play.py    legal card play (follow, trump, under-trump, Puur), trick strength and winner
    weis.py         runs and fours of a kind, the Weis comparison
    deal.py         the game's generator, dealing, the first forehand
    spec.py         GameSpec: a game's shape (players, hand size, tricks, actions, own switches)
    switches.py     Rules: the switches every game shares, the game's own; their compiled form
    state.py        the state array: shared fields, the game's tail, accessors, StateView
    hooks.py        the compiled switch over games (a game's number is a compile-time constant)
    transitions.py  a round's transitions and episodes, and the entry points for one game
    positions.py    positions built from outside (search worlds, a match at a known score)
    validate.py     the checks of a state from outside before compiled code plays it
"""
