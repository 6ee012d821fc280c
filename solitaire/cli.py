"""``python -m solitaire``: the engine from a shell, speaking the notation
of docs/notation.md.

Exit codes a script can rely on: 0 success; 1 an illegal move in ``play``;
2 bad input (usage, notation, move text)."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys

from .deal import deal
from .errors import IllegalMoveError, SolitaireError
from .moves import Move
from .position import GAMES, parse_position

EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own usage errors exit 2, as ours do
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"error: {message}\n")


def _positions_from_stdin():
    for n, line in enumerate(sys.stdin, 1):
        if line.strip():
            yield n, line


def _moves_line(pos) -> str:
    return " ".join(sorted(m.token() for m in pos.legal_moves()))


def cmd_deal(args) -> int:
    print(deal(args.game, args.seed).notation())
    return EXIT_OK


def cmd_moves(args) -> int:
    if args.position == "-":
        for n, line in _positions_from_stdin():
            try:
                print(_moves_line(parse_position(line)), flush=True)
            except SolitaireError as exc:
                print(f"error: line {n}: {exc}", file=sys.stderr)
                return EXIT_BAD_INPUT
        return EXIT_OK
    pos = parse_position(args.position)
    for token in sorted(m.token() for m in pos.legal_moves()):
        print(token)
    return EXIT_OK


def cmd_play(args) -> int:
    pos = parse_position(args.position)
    for i, token in enumerate(args.moves, 1):
        move = Move.parse(token)
        try:
            pos = pos.apply(move)
        except IllegalMoveError as exc:
            print(f"illegal move {i} ({token}): {exc}", file=sys.stderr)
            return EXIT_ILLEGAL
    print(pos.notation())
    return EXIT_OK


def _solve_line(pos, args) -> str:
    from .solver import SolveStatus, solve  # only `solve` needs the solver loaded

    result = solve(pos, max_nodes=args.max_nodes, max_seconds=args.max_seconds)
    if args.json:
        d = result.to_dict()
        return json.dumps(
            {"status": d["status"], "moves": d["moves"], "nodes": d["nodes"], "seconds": d["seconds"],
             "length": d["length"], "redeals": d["redeals"], "difficulty": d["difficulty"]}
        )
    if result.status is SolveStatus.SOLVED:
        return "solved: " + " ".join(m.token() for m in result.moves)
    return result.status.value


def _solve_task(task) -> str:
    notation, args = task
    return _solve_line(parse_position(notation), args)


def cmd_solve(args) -> int:
    if args.position != "-":
        print(_solve_line(parse_position(args.position), args))
        return EXIT_OK
    # Batch: check every line first, so bad input fails before any work.
    lines = []
    for n, line in _positions_from_stdin():
        try:
            lines.append(parse_position(line).notation())
        except SolitaireError as exc:
            print(f"error: line {n}: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
    jobs = max(1, min(args.jobs or os.cpu_count() or 1, len(lines) or 1))
    tasks = [(notation, args) for notation in lines]
    total = len(tasks)

    def progress(done):
        if args.progress:
            print(f"\rsolve: {done}/{total}", end="\n" if done == total else "",
                  file=sys.stderr, flush=True)

    if jobs == 1:
        for i, task in enumerate(tasks, 1):
            print(_solve_task(task), flush=True)
            progress(i)
        return EXIT_OK
    # Several processes (the solver is CPU bound); imap keeps input order.
    with multiprocessing.Pool(jobs) as pool:
        for i, line in enumerate(pool.imap(_solve_task, tasks), 1):
            print(line, flush=True)
            progress(i)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m solitaire", description="Cruel and Flower Garden engine.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("deal", help="print the deal of a game for a seed")
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--seed", type=int, required=True)
    p.set_defaults(func=cmd_deal)

    p = sub.add_parser("moves", help="legal moves of a position, one a line ('-': batch from stdin)")
    p.add_argument("position")
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("play", help="apply moves and print the resulting position")
    p.add_argument("position")
    p.add_argument("moves", nargs="*")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("solve", help="solve a position ('-': batch from stdin)")
    p.add_argument("position")
    p.add_argument("--max-nodes", type=int, default=None)
    p.add_argument("--max-seconds", type=float, default=None)
    p.add_argument("--json", action="store_true")
    p.add_argument("--jobs", type=int, default=None,
                   help="batch: worker processes (default: one per core; a Flower Garden"
                        " solve with --max-seconds runs two threads, so half as many"
                        " jobs give each deal the same time)")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="batch: no progress line on stderr")
    p.set_defaults(func=cmd_solve)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except SolitaireError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into `head`
        return EXIT_OK
