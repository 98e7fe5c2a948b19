"""``xqadj match`` on the command line: arguments in, exit status out.

Here :func:`main` checks the arguments, plays the match and prints its statistics and summary,
writes ``--results`` and ``--html``, and turns how the match ended into the exit status:

* 0: the match was played (or the SPRT stopped it);
* 1: it could not start (an engine did not start, the ``--resume`` PGN is not this match's);
* 2: bad arguments;
* 3: an engine could not be restarted (the match stopped, or went on without it);
* 74 (``EX_IOERR``): a file could not be written (the PGN, a ``--log`` file, ``--results``);
  the match stopped as at Ctrl-C, the finished games kept and the statistics printed;
* 130 / 143: Ctrl-C / SIGTERM; 141: the output was closed.

Layer: integrations.  Inside :mod:`xqadj.integrations.match` it imports only the modules
below it (the top but for the package itself).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading

from xqadj.integrations.arguments import picture_coordinates
from xqadj.integrations.match.director import Match
from xqadj.integrations.match.options import check_arguments, configure
from xqadj.integrations.match.outputs import (
    results_document,
    summary_line,
    write_html,
    write_results,
)
from xqadj.integrations.match.record import MatchError

__all__ = ["main"]

#: Exit statuses (see the module's docstring).
EXIT_ENGINE_LOST = 3
EXIT_WRITE_ERROR = 74


class _Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is."""

    signum = signal.SIGTERM


def _on_sigterm(signum: int, frame: object) -> None:
    raise _Terminated()


def main(args: argparse.Namespace) -> int:
    problem = check_arguments(args)
    if problem:
        print(f"xqadj match: {problem}", file=sys.stderr)
        return 2
    try:
        config, notes = configure(args)
    except ValueError as error:
        print(f"xqadj match: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"xqadj match: {args._option} {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    for note in notes:
        # A warning (another tool's option that xqadj ignores) goes with the errors.
        out = sys.stderr if note.startswith("warning:") else sys.stdout
        print(f"xqadj match: {note}", file=out, flush=True)
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        match = Match(config)
        result = match.run()
    except MatchError as error:
        print(f"xqadj match: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # the PGN file could not be opened after all
        print(f"xqadj match: {error}", file=sys.stderr)
        return 1
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    played = match.tally.played
    summary = summary_line(match.tally, result, config.pgn)
    if config.results is not None:
        try:
            document = results_document(
                config, match.players, len(match.schedule), match.tally, result
            )
            write_results(config.results, document)
        except OSError as error:
            problem = f"cannot write --results {config.results}: {error.strerror}"
            if problem not in result.problems:
                result.problems.append(problem)
    try:
        for line in match.statistics(final=True):
            print(line, flush=True)
        print(summary, flush=True)
    except BrokenPipeError:
        result.stopped = "output closed"
    if args.html:
        try:
            from xqadj.integrations.report import Drawing

            drawing = Drawing(args.letters, args.flip, picture_coordinates(args))
            write_html(
                args.html, result.records, [summary], match.tally.view(), drawing, args.rules
            )
        except OSError as error:
            print(f"xqadj match: cannot write the report: {error}", file=sys.stderr)
            return 2
    if result.stopped == "output closed":
        # Nothing more can go to stdout; keep the interpreter from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        print(
            f"xqadj match: output closed; stopped after {played} games ({summary})",
            file=sys.stderr,
        )
        return 141
    if result.stopped == "interrupted":
        print(
            f"xqadj match: interrupted; {played} finished games kept",
            file=sys.stderr,
        )
        return 128 + int(result.signal)
    for problem in result.problems:
        print(f"xqadj match: {problem}", file=sys.stderr)
    if any(problem.startswith("cannot write") for problem in result.problems):
        print(f"xqadj match: write error; {played} finished games kept", file=sys.stderr)
        return EXIT_WRITE_ERROR
    if result.lost:
        return EXIT_ENGINE_LOST
    return 0
