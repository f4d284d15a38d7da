#!/usr/bin/env python3
"""pydraughts' own DXP code plays complete games against `tiao dxp`.

pydraughts 0.6.7 speaks DXP only as the initiator (its DXPEngine sends the
game request, `R`, and relays the moves of whoever drives it; it has no
follower side), so Tiao is the follower here, in both TCP roles:

- Tiao listens (`tiao dxp --listen`) and pydraughts connects, as
  DXPEngine does with `engine-opened`;
- Tiao connects (`tiao dxp --connect`) to a socket this script listens on;
  the accepted socket is handed to pydraughts' Sender, so every message is
  still written and parsed by pydraughts (`dxp_communication`). Here Tiao
  also ponders (`--ponder`): its search on this side's time must survive
  every reply, expected or not, and the game's end.

One part of pydraughts is mended here, its socket's reading: it reads what
has arrived and parses it as one message, so Tiao's A and its first move,
arriving together, were read as an A alone and the move was lost (the game
then stalled: a rare failure under load); and once the peer had closed the
socket its reader spun for ever, so a failed test never exited. The mended
reader splits on NUL, as the spec frames messages, and stops at the close.

This side's moves are random legal moves (seeded); pydraughts' board checks
every move Tiao sends (its receiver ignores an illegal one, and the game
then stalls and fails here). Each game must end by the rules on both
boards, and Tiao's PDN record must carry the same result; Tiao's log must
report the fields of the game request it received.

Usage: dxp_client.py PATH_TO_TIAO
"""
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback

from draughts import BLACK, WHITE, Board
from draughts.engine import DXPEngine
from draughts.engines.dxp_communication.dxp_classes import MySocket

import watchdog

MAX_PLIES = 400
# Seconds the whole script may take (it takes about a minute).
WHOLE_RUN_LIMIT = 600
# How long Tiao may take over one move (it thinks 20 ms a move).
MOVE_WAIT = 30.0
GAMES_PER_ROLE = 2


# Far above any DXP message (pydraughts itself cuts them at 127 bytes).
MAX_MESSAGE = 4096


class FramedSocket(MySocket):
    """pydraughts' socket, reading one NUL-framed message at a time."""

    def __init__(self):
        super().__init__()
        self.pending = b""

    def receive(self):
        while b"\0" not in self.pending:
            # A closed or broken connection raises here, which ends
            # pydraughts' receiver thread.
            chunk = self.sock.recv(1024)
            if not chunk:
                raise ConnectionError("the peer closed the connection")
            self.pending += chunk
            if len(self.pending) > MAX_MESSAGE and b"\0" not in self.pending:
                raise ConnectionError(f"over {MAX_MESSAGE} bytes without a NUL")
        message, _, self.pending = self.pending.partition(b"\0")
        return message.decode("ascii", errors="replace").strip()


def framed(engine):
    """A DXPEngine whose messages are read one at a time (FramedSocket)."""
    engine.sender.socket = FramedSocket()
    return engine


class AcceptedDXPEngine(DXPEngine):
    """pydraughts' DXPEngine on a connection that Tiao opened to us: only
    the TCP connect is replaced (by an accept); the DXP messages are
    pydraughts' own."""

    def __init__(self, server, **kwargs):
        self.server = server
        super().__init__(**kwargs)

    def _connect(self):
        self.server.settimeout(30)
        conn, _ = self.server.accept()
        conn.settimeout(None)
        self.sender.socket.sock = conn
        self.sender.socket.closed = False
        self.sender.receiver.start()


def tiao_move(engine, board):
    """Tiao's answer to the board's last move (or its first move): the
    move, or None when Tiao ended the game (an E) instead."""
    answer = {}
    thread = threading.Thread(target=lambda: answer.update(r=engine.play(board)), daemon=True)
    thread.start()
    deadline = time.monotonic() + MOVE_WAIT
    while thread.is_alive():
        if engine.sender.current.result is not None:
            return None
        if time.monotonic() > deadline:
            raise AssertionError(f"no move from Tiao in {MOVE_WAIT} s at {board.fen}")
        time.sleep(0.005)
    return answer["r"].move


def play_game(engine, tiao_colour, seed):
    """One game through pydraughts' DXP code; returns (winner, plies)."""
    rng = random.Random(seed)
    board = Board(variant="standard")
    plies = 0
    while not board.is_over():
        if plies >= MAX_PLIES:
            raise AssertionError(f"game {seed} did not end in {MAX_PLIES} plies")
        if board.turn == tiao_colour:
            move = tiao_move(engine, board)
            if move is None:
                # Only a draw rule pydraughts does not apply the same way
                # (Tiao's are tested on their own) may end the game here.
                reason = engine.sender.current.result
                assert reason == "2", f"Tiao ended the game with E{reason} at {board.fen}"
                print(f"  Tiao claimed a draw by its rules after {plies} plies")
                engine.quit()
                return None, plies
            legal = [m.hub_move for m in board.legal_moves()]
            assert move.hub_move in legal, f"illegal move {move.hub_move} (legal: {legal})"
            board.push(move)
        else:
            board.push(rng.choice(board.legal_moves()))
        plies += 1
    if board.turn == tiao_colour:
        # This side made the last move: pydraughts sends it, and Tiao, to
        # move with the game over by the rules, says so (E).
        assert tiao_move(engine, board) is None, "Tiao moved in a finished game"
        reason = engine.sender.current.result
        assert reason in ("1", "2"), f"Tiao's E reason {reason!r}"
    name = engine.id.get("name", "")
    assert name.startswith("Tiao"), f"the name in Tiao's A: {name!r}"
    engine.quit()
    return board.winner(), plies


def colour_of(game):
    """Tiao's colour in a game: pydraughts asks the follower to play the
    side to move at its first play() call, so Tiao is White when that is
    the start and Black when this side has made the first move."""
    return WHITE if game % 2 == 0 else BLACK


def pdn_results(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return re.findall(r'\[Result "([^"]*)"\]', text), text


def expected_result(winner, tiao_colour):
    # PDN results are from White's side.
    if winner is None:
        return "1-1"
    return "2-0" if winner == WHITE else "0-2"


def check_log(path, pondering=False):
    with open(path, encoding="utf-8", errors="replace") as f:
        log = f.read()
    # Every field of pydraughts' R, as Tiao read it.
    needed = ["game request", "'DXP Client'", "1 minutes", "moves 0"]
    if pondering:
        needed.append("dxp: pondering on ")
    for word in needed:
        assert word in log, f"{word!r} not in Tiao's log:\n{log[-3000:]}"


def listening_role(binary, work):
    """Tiao listens; pydraughts connects, once per game."""
    pdn = os.path.join(work, "listen.pdn")
    err_path = os.path.join(work, "listen.err")
    watchdog.show_on_timeout(err_path)
    env = dict(os.environ, RUST_LOG="info")
    with open(err_path, "w") as err:
        tiao = watchdog.watch(subprocess.Popen(
            [binary, "dxp", "--listen", "127.0.0.1:0", "--move-time", "0.02", "--pdn", pdn],
            stdout=subprocess.PIPE, stderr=err, text=True, env=env))
    try:
        line = tiao.stdout.readline()
        assert line.startswith("listening on "), line
        host, port = line.split()[-1].rsplit(":", 1)
        outcomes = []
        for game in range(GAMES_PER_ROLE):
            colour = colour_of(game)
            engine = framed(DXPEngine(options={"engine-opened": True, "ip": host,
                                               "port": port}, initial_time=60))
            winner, plies = play_game(engine, colour, 100 + game)
            outcomes.append((winner, colour, plies))
            print(f"listening, game {game + 1}: {plies} plies, winner {winner}")
        # Tiao records a game as soon as it ends; the E exchange is over
        # once quit() returns.
        results, text = pdn_results(pdn)
        assert len(results) == GAMES_PER_ROLE, text
        for (winner, colour, _), result in zip(outcomes, results):
            assert result == expected_result(winner, colour), (result, winner, text)
        # The name in pydraughts' R.
        assert '"DXP Client"]' in text, text
    finally:
        tiao.terminate()
        tiao.wait(timeout=30)
        tiao.stdout.close()
    check_log(err_path)


def connecting_role(binary, work):
    """Tiao connects to this script, once per game; pydraughts speaks."""
    for game in range(GAMES_PER_ROLE):
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        pdn = os.path.join(work, f"connect-{game}.pdn")
        err_path = os.path.join(work, f"connect-{game}.err")
        watchdog.show_on_timeout(err_path)
        with open(err_path, "w") as err:
            tiao = watchdog.watch(subprocess.Popen(
                [binary, "dxp", "--connect", f"127.0.0.1:{port}", "--move-time", "0.02",
                 "--ponder", "--pdn", pdn],
                stdout=subprocess.DEVNULL, stderr=err, env=dict(os.environ, RUST_LOG="info")))
        try:
            engine = framed(AcceptedDXPEngine(server, options={"engine-opened": True},
                                              initial_time=60))
            colour = colour_of(game)
            winner, plies = play_game(engine, colour, 200 + game)
            print(f"connecting, game {game + 1}: {plies} plies, winner {winner}")
            status = tiao.wait(timeout=60)
            assert status == 0, f"tiao dxp --connect exited with {status}"
            results, text = pdn_results(pdn)
            assert results == [expected_result(winner, colour)], (results, winner, text)
        finally:
            if tiao.poll() is None:
                tiao.terminate()
                tiao.wait(timeout=30)
            server.close()
        check_log(err_path, pondering=True)


def show_logs(work):
    """Tiao's logs, which the temporary directory takes with it."""
    for name in sorted(os.listdir(work)):
        if name.endswith(".err"):
            with open(os.path.join(work, name), encoding="utf-8", errors="replace") as f:
                log = f.read()
            print(f"--- Tiao's log {name} (last 4000 characters) ---\n{log[-4000:]}",
                  file=sys.stderr)


def main():
    watchdog.start(WHOLE_RUN_LIMIT)
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="tiao-dxp-client-") as work:
        watchdog.remove_on_timeout(work)
        try:
            listening_role(binary, work)
            connecting_role(binary, work)
        except BaseException:
            traceback.print_exc()
            show_logs(work)
            sys.stderr.flush()
            sys.stdout.flush()
            shutil.rmtree(work, ignore_errors=True)
            # pydraughts' threads are not daemons and may be waiting on a
            # peer that is gone (its accept loop spins): leave at once.
            os._exit(1)
    print("pydraughts dxp client: ok")


if __name__ == "__main__":
    main()
