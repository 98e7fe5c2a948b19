"""The proxy's logic in-process (:class:`xqadj.integrations.proxy.Proxy`, no processes): it stays
in sync with the game the GUI actually plays, whatever the engine's ``bestmove`` said."""

from __future__ import annotations

import re

from xqadj.board import Board, Move
from xqadj.integrations.proxy import Proxy

D001_FEN = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w"
D001 = "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9".split()


def status(proxy: Proxy) -> str:
    [line] = proxy.session.handle("status")
    return line


def rulings(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string xqadj ruling")]


def search(proxy: Proxy, position: str, go: str = "go depth 1") -> list[str]:
    """The GUI's position line and go: the lines the GUI is shown, the engine's lines checked."""
    to_engine, shown = proxy.from_gui(position)
    assert to_engine == [position] and shown == []
    to_engine, shown = proxy.from_gui(go)
    assert to_engine[-1] == go
    return shown


def test_a_bestmove_the_gui_does_not_play_is_taken_back() -> None:
    proxy = Proxy()
    proxy.from_gui("uci")
    search(proxy, f"position fen {D001_FEN} moves {' '.join(D001[:7])}")
    # The engine's f8f9 would complete the third occurrence: shown before its bestmove.
    shown = proxy.from_engine("bestmove f8f9")
    assert len(rulings(shown)) == 1 and shown[-1] == "bestmove f8f9"
    # The GUI (a human at the board, say) played f8f7 instead: the proxy follows the GUI.
    shown = search(proxy, f"position fen {D001_FEN} moves {' '.join(D001[:7])} f8f7 h8h9")
    assert rulings(shown) == []
    assert status(proxy).startswith("status ply 9 occurrences 1 result * ")


def test_analysis_and_stopped_ponder_answers_are_not_played() -> None:
    proxy = Proxy()
    proxy.from_gui("uci")
    line = f"position fen {D001_FEN} moves {' '.join(D001[:7])}"
    search(proxy, line, "go infinite")
    proxy.from_gui("stop")
    assert proxy.from_engine("bestmove f8f9") == ["bestmove f8f9"]
    assert status(proxy).startswith("status ply 7 ")
    search(proxy, f"position fen {D001_FEN} moves {' '.join(D001)}", "go ponder")
    assert status(proxy).startswith("status ply 7 ")  # the guess f8f9 is not played
    proxy.from_gui("stop")
    assert proxy.from_engine("bestmove h8h9") == ["bestmove h8h9"]
    assert status(proxy).startswith("status ply 7 ")


def test_ucci_banmoves_while_pondering_are_those_after_the_guess() -> None:
    board = Board("1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w")
    board.push_iccs("b3b2")
    cycle = "f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2".split()
    proxy = Proxy()
    proxy.from_gui("ucci")
    proxy.from_gui(f"position fen {board.fen()} moves {' '.join(cycle)}")
    # Red's engine ponders on Black's f3f2 (the last move): Red's b3b2 is banned after it.
    to_engine, shown = proxy.from_gui("go ponder depth 5")
    assert to_engine == ["banmoves b3b2", "go ponder depth 5"] and shown == []
    assert status(proxy).startswith("status ply 6 ")


def test_uci2wb_lines_and_the_engines_captures() -> None:
    """UCI2WB (UCCI mode) starts each line after the last capture; the engine's own capture
    makes the FEN of the GUI's next line."""
    start = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/R3K4/r8 w"
    proxy = Proxy()
    proxy.from_gui("ucci")
    search(proxy, f"position fen {start}")
    assert rulings(proxy.from_engine("bestmove a1a0")) == []  # the engine takes the rook
    after = Board(start)
    after.push_iccs("a1a0")
    game = ["i6i5", *D001]
    shown: list[str] = []
    for ply in range(1, len(game), 2):  # Red's turns: the GUI's line, then the engine's move
        # UCI2WB writes the FEN's last fields too: `- - 0 1`.
        shown += search(proxy, f"position fen {after.fen()} - - 0 1 moves {' '.join(game[:ply])}")
        shown += proxy.from_engine(f"bestmove {game[ply]}")
    # Black's f8f9 completes the third occurrence: Red's engine gets the line past it.
    shown += search(proxy, f"position fen {after.fen()} - - 0 1 moves {' '.join(game)}")
    assert rulings(shown) == [
        "info string xqadj ruling result 0-1 reason perpetual-check ply 10 offender red "
        "article art.6 cycle " + " ".join(D001)
    ]
    assert status(proxy).startswith("status ply 10 occurrences 3 result 0-1")


def test_a_ruling_before_the_ponder_guess_is_shown() -> None:
    """The opponent's last move ended the game; the GUI's ponder line adds a guess after it."""
    proxy = Proxy()
    proxy.from_gui("ucci")
    shown = search(proxy, f"position fen {D001_FEN} moves {' '.join(D001)} h8h9", "go ponder")
    assert len(rulings(shown)) == 1
    assert status(proxy).startswith("status ply 8 occurrences 3 result 0-1")


def explanations(lines: list[str]) -> list[str]:
    return [
        line.removeprefix("info string xqadj ")
        for line in lines
        if line.startswith("info string xqadj ") and not rulings([line])
    ]


#: A move or a square in a text: ``h9h10``, ``f10``.
MOVE_OR_SQUARE = re.compile(r"(?<![A-Za-z0-9])(?:[a-i](?:10|[0-9])){1,2}(?![A-Za-z0-9])")


def test_the_explanation_is_in_the_engines_notation() -> None:
    """Fairy-Stockfish writes ranks 1-10: the ruling and its explanation both do too."""
    proxy = Proxy()
    proxy.from_gui("uci")
    proxy.from_engine("id name Fairy-Stockfish 14 64")
    proxy.from_engine("uciok")
    fairy = [Move.from_iccs(move).fairy() for move in D001]
    search(proxy, f"position fen {D001_FEN} moves {' '.join(fairy[:7])}")
    shown = proxy.from_engine(f"bestmove {fairy[7]}")
    assert rulings(shown) == [
        "info string xqadj ruling result 0-1 reason perpetual-check ply 8 offender red "
        "article art.6 cycle " + " ".join(fairy)
    ]
    [text] = explanations(shown)
    assert "h9h10 (车二进一) red check 将 (the rook h10 attacks the king: a check)" in text
    assert "the red rook that stood on h9 when the cycle began" in text
    # Every move and square named is in fairy notation: the cycle's moves, and squares on
    # ranks 1-10 (ICCS would write h8h9 and the rook h9).
    named = MOVE_OR_SQUARE.findall(text)
    assert {m for m in named if len(m) > 3} <= set(fairy)
    assert "h8h9" not in named and "h9" in named and "h10" in named


def test_under_ucci_the_explanation_stays_in_iccs() -> None:
    proxy = Proxy()
    proxy.from_gui("ucci")
    shown = search(proxy, f"position fen {D001_FEN} moves {' '.join(D001)}")
    [text] = explanations(shown)
    assert "h8h9 (车二进一) red check 将 (the rook h9 attacks the king: a check)" in text


def test_a_cxa_explanation_is_in_the_engines_notation_too() -> None:
    d022 = "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w"
    fairy = [Move.from_iccs(m).fairy() for m in "b3b2 f2f3 b2b3 f3f2".split() * 2]
    proxy = Proxy(notation="fairy", rules="cxa")
    proxy.from_gui("uci")
    shown = search(proxy, f"position fen {d022} moves {' '.join(fairy)}")
    assert rulings(shown)[0].endswith("cycle " + " ".join(fairy))
    [text] = explanations(shown)
    assert "Under the CXA rules" in text and "b4b3 (炮八退一)" in text
    # Every move and square of the ICCS explanation (the cycle, the capture lines) is there,
    # one rank up.
    ruling = proxy.session.game.ruling
    assert ruling is not None
    iccs = MOVE_OR_SQUARE.findall(ruling.explain())
    up = [re.sub(r"[0-9]", lambda d: str(int(d[0]) + 1), token) for token in iccs]
    assert iccs and MOVE_OR_SQUARE.findall(text) == up
