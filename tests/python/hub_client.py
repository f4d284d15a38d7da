#!/usr/bin/env python3
"""A real Hub client drives `tiao hub`: the HubEngine wrapper of the
pydraughts package plays complete international games between two Tiao
processes, and pydraughts' own rules check every move Tiao sends.

Usage: hub_client.py PATH_TO_TIAO
"""
import os
import random
import sys

from draughts import WHITE, Board, Move
from draughts.engine import HubEngine, Limit

import watchdog

MAX_PLIES = 400
# Seconds the whole script may take (it takes about a minute).
WHOLE_RUN_LIMIT = 600


def play_game(binary, limit_for, seed):
    rng = random.Random(seed)
    engines = {WHITE: HubEngine([binary, "hub"]), "black": HubEngine([binary, "hub"])}
    for e in engines.values():
        watchdog.watch(e.p)
        assert e.id.get("name") == "Tiao", e.id
        assert "variant" in e.options and "normal" in e.variants, (e.options, e.variants)
        e.init()
        e.ping()
    board = Board(variant="standard")
    plies = 0
    try:
        while not board.is_over():
            if plies >= MAX_PLIES:
                raise AssertionError(f"game {seed} did not end in {MAX_PLIES} plies")
            legal = board.legal_moves()
            if plies < 2:
                # Vary the openings so that the games differ.
                move = rng.choice(legal)
            else:
                engine = engines[WHITE] if board.turn == WHITE else engines["black"]
                result = engine.play(board, limit_for(plies), ponder=False)
                move = result.move
                hubs = [m.hub_move for m in legal]
                assert move.hub_move in hubs, f"illegal move {move.hub_move} (legal: {hubs})"
                # pydraughts lists one capture once per jump path; Tiao (like
                # the rules) counts it once, and plays a single move at once.
                if len(set(hubs)) > 1:
                    assert "depth" in engine.info and "score" in engine.info, engine.info
            board.push(move)
            plies += 1
    finally:
        for e in engines.values():
            e.quit()
            e.p.wait(timeout=10)
            e.p.stdin.close()
            e.p.stdout.close()
            assert e.p.returncode == 0, f"tiao exited with {e.p.returncode}"
    return board.winner(), plies


def main():
    watchdog.start(WHOLE_RUN_LIMIT)
    binary = os.path.abspath(sys.argv[1])
    setups = [
        ("move time 20 ms", lambda ply: Limit(movetime=0.02)),
        ("clock 3 s + 0.05 s", lambda ply: Limit(time=max(0.2, 3.0 - ply * 0.02), inc=0.05)),
        ("depth 4", lambda ply: Limit(depth=4)),
        ("nodes 5000", lambda ply: Limit(nodes=5000)),
    ]
    for seed, (name, limit_for) in enumerate(setups):
        winner, plies = play_game(binary, limit_for, seed)
        print(f"game {seed + 1} ({name}): {plies} plies, winner {winner}")
    print("pydraughts hub client: ok")


if __name__ == "__main__":
    main()
