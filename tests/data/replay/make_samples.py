"""Write the game-file samples of this directory (see README.md): ``python make_samples.py``.

cchess ships no sample XQF/CBR/CBF files, so these writers produce them, byte for byte the
layout that cchess's readers (``cchess/read_xqf.py``, ``read_cbr.py``, ``read_cbf.py``,
version 1.25.5) decode; each file is read back with cchess and checked before it is kept.
The Chinese move text of ``chinese.pgn`` is written by cchess (``cchess.Move.to_text``), so
that xqadj's reader is tested against another program's notation.

The games are rulebook cases from ``axf-cases.tsv`` (copied below) and master games from
``shared/games`` (read by file name and game number).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
GAMES_DIR = HERE.parents[3] / "shared" / "games"
STANDARD = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"

#: Rulebook cases (id, FEN, moves) from axf-cases.tsv.
CASES = {
    "WXF-D001": (
        "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w",
        "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9",
    ),
    "WXF-D004": (
        "3akr3/5c3/1P2b4/4R4/9/9/9/9/9/4CK3 w",
        "e6e7 f8e8 e7f7 e8f8 f7e7 f8e8 e7f7 e8f8 f7e7",
    ),
    "WXF-D019": (
        "2bak4/4a4/4b4/2p5p/6p2/2Pp5/4P4/2N4C1/2CrA4/3AK4 w",
        "h2h1 d1d3 h1h3 d3d1 h3h1 d1d3 h1h3 d3d1 h3h1",
    ),
    "WXF-D022": (
        "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w",
        "b3b2 f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2",
    ),
}


# -- positions ---------------------------------------------------------------------------------


def squares(fen: str) -> dict[tuple[int, int], str]:
    """``{(file, rank): letter}`` for a FEN (ranks 0-9 from Red's side)."""
    placement = fen.split()[0].replace("H", "N").replace("h", "n").replace("E", "B")
    placement = placement.replace("e", "b")
    board: dict[tuple[int, int], str] = {}
    for row, text in enumerate(placement.split("/")):
        file = 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
            else:
                board[(file, 9 - row)] = ch
                file += 1
    return board


def iccs_squares(move: str) -> tuple[tuple[int, int], tuple[int, int]]:
    return (ord(move[0]) - 97, int(move[1])), (ord(move[2]) - 97, int(move[3]))


# -- XQF ---------------------------------------------------------------------------------------

XQF_HEADER = "<2sB13s32s3sB12sB15sB63s64sB63sB15sB15sB15sB15sB63sB15sB15s32sB15sB15s528s"
XQF_SLOTS = "RNBAKABNRCCPPPPP"  # the 16 piece slots of each side


def _xqf_key(b: int, factor: int) -> int:
    return (((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) * factor & 0xFF


def _gb(text: str, size: int) -> tuple[int, bytes]:
    data = text.encode("gb18030")[:size]
    return len(data), data


def write_xqf(
    path: Path,
    fen: str,
    moves: Sequence[str],
    *,
    title: str = "",
    event: str = "",
    red: str = "",
    black: str = "",
    result: int = 0,
    encrypted: bool = True,
    annotation: str = "",
    variation: tuple[int, Sequence[str]] | None = None,
) -> None:
    """An XQF file: version 18 (encrypted, as XQStudio writes) or version 10 (plain).

    ``variation`` is ``(ply, moves)``: an alternative to the main line's move ``ply``
    (1-based) and its continuation, to check that the reader keeps the main line.
    """
    version = 18 if encrypted else 10
    if encrypted:
        mask, product, ors = 0xE7, 0x12345678, (0x18, 0x24, 0x00, 0x5A)
        key_sum, key_xy, key_xyf, key_xyt = 0x9C, 0x3B, 0x71, 0xA5
        xy = _xqf_key(key_xy, key_xy)
        xyf = _xqf_key(key_xyf, xy)
        xyt = _xqf_key(key_xyt, xyf)
        rmk_size = ((key_sum * 256 + key_xy) % 32000) + 767
        key_bytes = (
            (key_sum & mask) | ors[0],
            (key_xy & mask) | ors[1],
            (key_xyf & mask) | ors[2],
            (key_xyt & mask) | ors[3],
        )
        f32 = bytes(c & key_bytes[i % 4] for i, c in enumerate(b"[(C) Copyright Mr. Dong Shiwei.]"))
        crypt = struct.pack("<BIBBBBBBBB", mask, product, *ors, key_sum, key_xy, key_xyf, key_xyt)
    else:
        xy = xyf = xyt = rmk_size = 0
        crypt = bytes(13)
    # The 32 piece slots: Red's 16 then Black's 16, each x * 10 + y, 0xFF when off the board.
    slots = [0xFF] * 32
    for (file, rank), letter in sorted(squares(fen).items()):
        side = 0 if letter.isupper() else 1
        for i, kind in enumerate(XQF_SLOTS):
            if kind == letter.upper() and slots[side * 16 + i] == 0xFF:
                slots[side * 16 + i] = file * 10 + rank
                break
        else:
            raise ValueError(f"no XQF slot left for {letter}")
    if encrypted:
        plain = [(s + xy) & 0xFF for s in slots]
        board = bytes(plain[(xy + i + 1) & 0x1F] for i in range(32))
    else:
        board = bytes(slots)
    fields = []
    for text, size in ((title, 63), (event, 63), ("", 15), ("", 15), (red, 15), (black, 15)):
        fields.append(_gb(text, size))
    (tl, tt), (el, et), (dl, dt), (al, at), (rl, rt), (bl, bt) = fields
    header = struct.pack(
        XQF_HEADER,
        b"XQ", version, crypt, board, bytes(3), result, bytes(12), 0, bytes(15),
        tl, tt, bytes(64), el, et, dl, dt, al, at, rl, rt, bl, bt,
        0, b"", 0, b"", 0, b"", bytes(32), 0, b"", 0, b"", bytes(528),
    )  # fmt: skip
    assert len(header) == 0x400

    def record(origin: int, target: int, has_next: bool, has_var: bool, note: str = "") -> bytes:
        data = note.encode("gb18030")
        if encrypted:
            flags = (0x80 if has_next else 0) | (0x40 if has_var else 0) | (0x20 if data else 0)
            out = bytes([(origin + 0x18 + xyf) & 0xFF, (target + 0x20 + xyt) & 0xFF, flags, 0])
            if data:
                out += struct.pack("<i", len(data) + rmk_size) + data
            return out
        flags = (0xF0 if has_next else 0) | (0x0F if has_var else 0)
        out = bytes([(origin + 0x18) & 0xFF, (target + 0x20) & 0xFF, flags, 0])
        return out + struct.pack("<i", len(data)) + data

    def pos(square: tuple[int, int]) -> int:
        return square[0] * 10 + square[1]

    def line(seq: Sequence[str], var_at: int | None, notes: dict[int, str]) -> list[bytes]:
        out = []
        for i, move in enumerate(seq):
            origin, target = iccs_squares(move)
            last = i + 1 == len(seq)
            out.append(record(pos(origin), pos(target), not last, i == var_at, notes.get(i, "")))
        return out

    body = record(0, 0, bool(moves), False, annotation)
    var_at = None if variation is None else variation[0] - 1
    records = line(moves, var_at, {0: "main line"} if annotation else {})
    if variation is not None:
        # Preorder, as the reader recurses: a move, its continuation to the end of the line,
        # then the alternative to it.
        records += line(variation[1], None, {})
    body += b"".join(records)
    if encrypted:
        body = bytes((c + f32[(0x400 + i) % 32]) & 0xFF for i, c in enumerate(body))
    path.write_bytes(header + body)


# -- CBR ---------------------------------------------------------------------------------------

CBR_HEADER = "<16s164s128s384s64s320s64s160s64s712sB35sB3sH2s90si"
CBR_PIECES = {"R": 0x11, "N": 0x12, "B": 0x13, "A": 0x14, "K": 0x15, "C": 0x16, "P": 0x17}


def _utf16(text: str, size: int) -> bytes:
    data = text.encode("utf-16-le")[: size - 2]
    return data + bytes(size - len(data))


def write_cbr(
    path: Path,
    fen: str,
    moves: Sequence[str],
    *,
    title: str = "",
    event: str = "",
    red: str = "",
    black: str = "",
    result: int = 0,
    annotation: str = "",
) -> None:
    """A CBR (CCBridge record) file, padded to 4096 bytes as in a CBL library."""
    board = bytearray(90)
    for (file, rank), letter in squares(fen).items():
        code = CBR_PIECES[letter.upper()] + (0 if letter.isupper() else 0x10)
        board[(9 - rank) * 9 + file] = code
    side = 2 if fen.split()[1:2] == ["b"] else 1
    header = struct.pack(
        CBR_HEADER,
        b"CCBridge Record\x00", bytes(164), _utf16(title, 128), bytes(384), _utf16(event, 64),
        bytes(320), _utf16(red, 64), bytes(160), _utf16(black, 64), bytes(712), result,
        bytes(35), len(moves) & 0xFF, bytes(3), side, bytes(2), bytes(board), 0,
    )  # fmt: skip
    assert len(header) == 2214
    body = b""
    if annotation:
        data = annotation.encode("utf-16-le") + b"\x00\x00"
        body += struct.pack("<ii", 1, len(data)) + data
    else:
        body += struct.pack("<i", 0)
    for i, move in enumerate(moves):
        (ff, fr), (tf, tr) = iccs_squares(move)
        mark = 0x01 if i + 1 == len(moves) else 0
        body += bytes([mark, 0, (9 - fr) * 9 + ff, (9 - tr) * 9 + tf])
    data = header + body
    path.write_bytes(data + bytes(-len(data) % 4096))


# -- CBF ---------------------------------------------------------------------------------------


def write_cbf(
    path: Path, fen: str, moves: Sequence[str], *, event: str = "", red: str = "", black: str = ""
) -> None:
    """A CBF (CCBridge XML) file."""
    rows = [
        f'    <Move value="{f}{9 - r}-{tf}{9 - tr}" />'
        for (f, r), (tf, tr) in map(iccs_squares, moves)
    ]
    text = "\n".join(
        [
            '<?xml version="1.0" encoding="utf-8"?>',
            '<ChineseChessRecord Version="1.0">',
            "  <Head>",
            f"    <Name>{escape(event)}</Name>",
            f"    <Contest>{escape(event)}</Contest>",
            f"    <Red>{escape(red)}</Red>",
            f"    <Black>{escape(black)}</Black>",
            f"    <FEN>{escape(fen)} - - 0 1</FEN>",
            "  </Head>",
            "  <MoveList>",
            '    <Move value="00-00" />',
            *rows,
            "  </MoveList>",
            "</ChineseChessRecord>",
            "",
        ]
    )
    path.write_text(text, encoding="utf-8")


# -- PGN with Chinese move text, written by cchess -----------------------------------------------


def chinese_moves(fen: str, moves: Sequence[str]) -> list[str]:
    import cchess  # type: ignore[import-untyped]

    board = cchess.ChessBoard(fen)
    out = []
    for move in moves:
        made = board.move_iccs(move)
        if made is None:
            raise ValueError(f"cchess refuses {move} in {board.to_fen()}")
        out.append(made.to_text())
        board.next_turn()
    return out


def pgn_game(headers: dict[str, str], texts: Sequence[str]) -> str:
    lines = [f'[{key} "{value}"]' for key, value in headers.items()]
    body = []
    for i in range(0, len(texts), 2):
        body.append(f"{i // 2 + 1}. " + " ".join(texts[i : i + 2]))
    words: list[str] = []
    out = []
    for item in body:
        words.append(item)
        if len(words) == 5:
            out.append(" ".join(words))
            words = []
    if words:
        out.append(" ".join(words))
    return "\n".join(lines) + "\n\n" + "\n".join(out) + " *\n"


# -- master games ------------------------------------------------------------------------------


def master_game(file_name: str, number: int) -> tuple[dict[str, str], list[str]]:
    """Headers and ICCS moves of game ``number`` (1-based) of a file in shared/games."""
    games: list[tuple[dict[str, str], list[str]]] = []
    for line in (GAMES_DIR / file_name).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("["):
            if not games or games[-1][1]:
                games.append(({}, []))
            key, _, value = line[1:-1].partition(" ")
            games[-1][0][key] = value.strip('"')
        elif line:
            games[-1][1].extend(t for t in line.split() if not t.endswith("."))
    return games[number - 1]


# -- checks ------------------------------------------------------------------------------------


def check(path: Path, fen: str, moves: Sequence[str]) -> None:
    """Read ``path`` back with cchess: the same start position and main line."""
    import cchess

    reader = {
        ".xqf": cchess.read_from_xqf,
        ".cbr": cchess.read_from_cbr,
        ".cbf": cchess.read_from_cbf,
    }
    game = reader[path.suffix](str(path))
    got_fen = game.init_board.to_fen()
    got = [m.to_iccs() for m in game.iter_moves()]
    want_fen = " ".join(fen.split()[:2])
    assert got_fen == want_fen, (path, got_fen, want_fen)
    assert got == list(moves), (path, got, moves)


def main() -> None:
    out = HERE
    fen, moves = CASES["WXF-D022"]
    d022 = moves.split()
    path = out / "wxf-d022.xqf"
    write_xqf(
        path, fen, d022, title="WXF diagram 22", event="AXF/WXF rulebook 象棋比赛规则",
        red="红方", black="黑方", result=2, annotation="长捉: the cannon chases the rook",
        variation=(1, ["b3b4", "f2f3"]),
    )  # fmt: skip
    check(path, fen, d022)

    headers, master = master_game("Hu_Ronghua_1391_UCI_games.pgn", 51)
    path = out / "master-hu51.xqf"
    write_xqf(
        path, STANDARD, master, event=headers["Event"], red=headers["Red"],
        black=headers["Black"], encrypted=False,
    )  # fmt: skip
    check(path, STANDARD, master)

    fen, moves = CASES["WXF-D001"]
    path = out / "wxf-d001.cbr"
    write_cbr(
        path, fen, moves.split(), title="WXF diagram 1", event="AXF/WXF rulebook",
        red="Red", black="Black", result=2, annotation="长将",
    )  # fmt: skip
    check(path, fen, moves.split())

    headers, master = master_game("Liu_Dahua_1125_UCI_games.pgn", 1125)
    path = out / "master-liu1125.cbr"
    event, red, black = headers["Event"], headers["Red"], headers["Black"]
    write_cbr(path, STANDARD, master, event=event, red=red, black=black)
    check(path, STANDARD, master)

    fen, moves = CASES["WXF-D004"]
    path = out / "wxf-d004.cbf"
    names = {"event": "AXF/WXF rulebook diagram 4", "red": "Red", "black": "Black"}
    write_cbf(path, fen, moves.split(), **names)
    check(path, fen, moves.split())

    games = []
    for number in (1, 62):
        headers, master = master_game("Hu_Ronghua_1391_UCI_games.pgn", number)
        games.append(pgn_game(headers, chinese_moves(STANDARD, master)))
    fen, moves = CASES["WXF-D019"]
    headers = {"Event": "AXF/WXF rulebook diagram 19", "Red": "Red", "Black": "Black", "FEN": fen}
    games.append(pgn_game(headers, chinese_moves(fen, moves.split())))
    (out / "chinese.pgn").write_text("\n".join(games), encoding="utf-8")


if __name__ == "__main__":
    main()
