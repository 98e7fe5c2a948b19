"""``xqadj match`` for engine developers' habits: UCCI engines as first-class players (their
``score N`` lines, their one-limit ``go``, their notation) and cutechess-cli / fastchess
command lines that run unchanged (issue 18).

The fake engine (``engines/fake_engine.py``) can call itself Fairy-Stockfish, write moves
with ranks 1-10 and write UCCI's ``score N`` without ``cp``.
"""

from __future__ import annotations

import decimal
import math
import re
import shlex
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from test_integrations import pgn_games
from test_tourney_match import ENGINE, engine, go_lines, match

from xqadj.integrations.match.options import ENGINE_SPELLINGS, HANDLINGS, SPELLINGS
from xqadj.integrations.stats import Sprt, Trinomial, llr, llr_bayes_elo

README = Path(__file__).resolve().parents[1] / "README.md"


def fake(*options: str) -> str:
    """The fake engine's command line."""
    return shlex.join([sys.executable, str(ENGINE), "--score", "0", *options])


def plain_match(*options: str) -> subprocess.CompletedProcess[str]:
    """A match of A and B, the fake engine as it is (its first legal move, at once)."""
    return match(*engine("A"), *engine("B"), *options)


def terminations(pgn: Path) -> list[str]:
    return [game["Termination"] for game in pgn_games(pgn)]


# -- UCCI engines -------------------------------------------------------------------------------


def test_ucci_score_without_cp_is_adjudicated_and_commented(tmp_path: Path) -> None:
    """ElephantEye's ``info … score -900`` (no ``cp``): black resigns by --resign, and the
    PGN comments carry the score."""
    pgn = tmp_path / "m.pgn"
    run = match(
        *engine("R", "--bare-score", "--score", "0", proto="ucci"),
        *engine("B", "--bare-score", "--score", "-900", proto="ucci"),
        "--tc",
        "30+0.1",
        "--games",
        "1",
        "--resign",
        "movecount=3",
        "score=600",
        "--pgn",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    (game,) = pgn_games(pgn)
    assert (game["Result"], game["Termination"]) == ("1-0", "adjudication")
    assert "{-9.00/1 " in game["movetext"] and "{+0.00/1 " in game["movetext"]


def test_ucci_clock_with_depth_is_refused() -> None:
    """UCCI's ``go`` takes one limit: a clock and a depth cannot both be sent."""
    for extra in (("tc=10+0.1", "depth=5"), ("st=1", "nodes=1000")):
        run = match(*engine("A", proto="ucci", extra=extra), *engine("B"))
        assert run.returncode == 2
        assert run.stderr.strip() == (
            "xqadj match: engine 1: a UCCI engine takes a clock (tc=, st=) or depth=/nodes=, "
            "not both (UCCI's go has one limit)"
        )
    # UCI engines get both, and a UCCI engine either one.
    run = match(*engine("A", proto="ucci", extra=("depth=5",)), *engine("B"), "--max-plies", "2")
    assert run.returncode == 0, run.stderr


# -- notation detection ---------------------------------------------------------------------------


def test_fairy_notation_detected_from_the_engine_name(tmp_path: Path) -> None:
    """Fairy-Stockfish over UCI without notation=fairy: detected from its id name, as the
    proxy does, instead of every game lost by an illegal move."""
    pgn = tmp_path / "m.pgn"
    run = match(
        *engine("A", "--notation", "fairy", "--seed", "1", "--name", "Fairy-Stockfish 14 LB 64"),
        *engine("B", "--seed", "2"),
        "--games",
        "2",
        "--max-plies",
        "20",
        "--pgn",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    assert terminations(pgn) == ["max-plies", "max-plies"]


def test_notation_detected_from_the_first_move_and_kept(tmp_path: Path) -> None:
    """An engine writing ranks 1-10 under another name: its first move from the start position
    (sent without moves) is legal only as ranks 1-10, which settles it; as black in the next
    game (after moves, where nothing could be told) it is still read right."""
    pgn = tmp_path / "m.pgn"
    run = match(
        *engine("A", "--notation", "fairy", "--seed", "1", "--name", "other"),
        *engine("B", "--seed", "2"),
        "--games",
        "2",
        "--max-plies",
        "20",
        "--pgn",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    games = pgn_games(pgn)
    assert [(g["Red"], g["Termination"]) for g in games] == [
        ("A", "max-plies"),
        ("B", "max-plies"),
    ]


def test_an_illegal_move_by_a_guessed_notation_says_so(tmp_path: Path) -> None:
    """As black, after moves, the notation cannot be told: the forfeit names the setting."""
    pgn = tmp_path / "m.pgn"
    run = match(
        *engine("A", "--seed", "1"),
        *engine("B", "--notation", "fairy", "--seed", "2", "--name", "other"),
        "--games",
        "1",
        "--pgn",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    (game,) = pgn_games(pgn)
    assert game["Termination"] == "forfeit (illegal-move)"
    text = " ".join(game["movetext"].split())
    assert "(read as iccs, ranks 0-9: give the engine notation=iccs or notation=fairy)" in text
    # An engine whose notation is given forfeits without the hint.
    run = match(
        *engine("A", "--seed", "1"),
        *engine("B", "--notation", "fairy", "--seed", "2", extra=("notation=iccs",)),
        "--games",
        "1",
        "--pgn",
        str(tmp_path / "n.pgn"),
    )
    (game,) = pgn_games(tmp_path / "n.pgn")
    assert game["Termination"] == "forfeit (illegal-move)"
    assert "read as" not in game["movetext"]


# -- cutechess-cli and fastchess command lines ----------------------------------------------------


def comparable(pgn: Path) -> list[tuple[str, ...]]:
    """What makes the games the same games: players, opening, moves, result."""
    return [
        (g["Round"], g["Red"], g["Black"], g.get("FEN", ""), g["Result"], g["Termination"])
        + (" ".join(g["movetext"].split()),)
        for g in pgn_games(pgn)
    ]


def test_a_cutechess_command_line_runs_the_same_match(tmp_path: Path) -> None:
    """A cutechess-cli command line for two UCI engines, only the program's name changed,
    plays the games that xqadj's own spellings play (seeded engines, a shuffled book)."""
    book = tmp_path / "book.epd"
    book.write_text(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n"
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n"
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2\n"
    )
    theirs, ours = tmp_path / "cutechess.pgn", tmp_path / "xqadj.pgn"
    epd = tmp_path / "end.epd"
    cutechess = match(
        "-engine",
        f"cmd={sys.executable}",
        f"arg={ENGINE}",
        "arg=--seed",
        "arg=1",
        "name=A",
        "-engine",
        f"cmd={sys.executable}",
        f"arg={ENGINE}",
        "arg=--seed",
        "arg=2",
        "name=B",
        "-each",
        "proto=uci",
        "tc=inf",
        "depth=3",
        "-games",
        "2",
        "-rounds",
        "3",
        "-repeat",
        "-concurrency",
        "1",
        "-openings",
        f"file={book}",
        "format=epd",
        "order=random",
        "policy=encounter",
        "-srand",
        "7",
        "-maxmoves",
        "15",
        "-draw",
        "movenumber=40",
        "movecount=8",
        "score=10",
        "-resign",
        "movecount=3",
        "score=400",
        "-sprt",
        "elo0=0",
        "elo1=5",
        "alpha=0.05",
        "beta=0.05",
        "-ratinginterval",
        "2",
        "-tournament",
        "round-robin",
        "-pgnout",
        str(theirs),
        "fi",
        "-epdout",
        str(epd),
        "-recover",
    )
    assert cutechess.returncode == 0, cutechess.stderr
    assert cutechess.stderr == ""  # nothing ignored: no warning
    xqadj = match(
        "--engine",
        f"cmd={fake('--seed', '1')}",
        "name=A",
        "--engine",
        f"cmd={fake('--seed', '2')}",
        "name=B",
        "--each",
        "proto=uci",
        "depth=3",
        "--games",
        "2",
        "--rounds",
        "3",
        "--concurrency",
        "1",
        "--openings",
        f"file={book}",
        "format=epd",
        "order=random",
        "--seed",
        "7",
        "--max-plies",
        "30",
        "--draw",
        "movenumber=40",
        "movecount=8",
        "score=10",
        "--resign",
        "movecount=3",
        "score=400",
        "--sprt",
        "elo0=0",
        "elo1=5",
        "--ratinginterval",
        "2",
        "--pgn",
        str(ours),
    )
    assert xqadj.returncode == 0, xqadj.stderr
    assert len(pgn_games(theirs)) == 6
    assert comparable(theirs) == comparable(ours)
    assert cutechess.stdout.splitlines()[-1] == xqadj.stdout.splitlines()[-1]
    # -epdout: one end position a game, as a FEN line.
    ends = epd.read_text().splitlines()
    assert len(ends) == 6 and all(re.fullmatch(r"[1-9a-zA-Z/]+ [wb]", line) for line in ends)


def test_fastchess_spellings(tmp_path: Path) -> None:
    """fastchess: -rounds without -games is one game an encounter; roundrobin; -pgnout
    file=; plies= is a depth; model=bayesian; an ignored option warns and the match runs."""
    pgn = tmp_path / "f.pgn"
    run = match(
        "-engine",
        f"cmd={fake('--seed', '1')}",
        "name=A",
        "plies=4",
        "-engine",
        f"cmd={fake('--seed', '2')}",
        "name=B",
        "restart=on",
        "-each",
        "tc=30+0.1",
        "-rounds",
        "3",
        "-tournament",
        "roundrobin",
        "-maxmoves",
        "5",
        "-pgnout",
        f"file={pgn}",
        "nodes=true",
        "-sprt",
        "elo0=0",
        "elo1=5",
        "model=bayesian",
        "-wait",
        "50",
        "-report",
        "penta=true",
    )
    assert run.returncode == 0, run.stderr
    assert len(pgn_games(pgn)) == 3
    assert [g["Red"] for g in pgn_games(pgn)] == ["A", "B", "A"]
    assert "model=bayesian" in run.stdout
    assert run.stderr.splitlines() == [
        "xqadj match: warning: -wait is ignored: xqadj starts the next game at once (each "
        "search begins with isready)",
        "xqadj match: warning: -report is ignored: xqadj reports the pentanomial whenever "
        "games are paired",
        "xqadj match: warning: -pgnout nodes=true is ignored: xqadj writes its own PGN",
        "xqadj match: warning: engine setting 'restart=on' is ignored: an engine is "
        "restarted after a failure only (as restart=auto)",
    ]


def test_cutechess_games_above_two_with_rounds(tmp_path: Path) -> None:
    """cutechess-cli's -rounds 2 -games 3 with two engines: 6 games."""
    pgn = tmp_path / "m.pgn"
    run = plain_match(
        "-rounds",
        "2",
        "-games",
        "3",
        "-maxmoves",
        "1",
        "-pgnout",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    assert len(pgn_games(pgn)) == 6


@pytest.mark.parametrize(
    "options, message",
    [
        (["-noswap"], "-noswap is not supported: colours always alternate"),
        (["-tb", "/syzygy"], "-tb is not supported: there are no xiangqi tablebases"),
        (["-variant", "standard"], "-variant standard: xqadj plays xiangqi only"),
        (["-repeat", "3"], "-repeat 3: xqadj plays an opening once (-repeat 1) or with both"),
        (["-games", "x"], "-games must be a whole number, got 'x'"),
        (["-each", "whitepov"], "engine setting 'whitepov' is not supported: scores are read"),
        (["-each", "conf=sf"], "engine setting 'conf=sf' is not supported: xqadj has no"),
        (["-engine", "cmd=x", "proto=xboard"], "engine 3: proto must be uci or ucci, got 'xboard'"),
        (["--pgn", "a.pgn", "-pgnout", "b.pgn"], "give --pgn or -pgnout, not both"),
    ],
)
def test_refused_spellings(options: list[str], message: str) -> None:
    run = plain_match(*options)
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith(f"xqadj match: {message}"), run.stderr


def test_tournament_spelling_is_checked() -> None:
    run = plain_match("-tournament", "knockout")
    assert run.returncode == 2
    assert "expected gauntlet or round-robin (roundrobin), got 'knockout'" in run.stderr


def test_tc_inf_means_no_clock(tmp_path: Path) -> None:
    """cutechess-cli's tc=inf (an engine's own replaces -each's clock): the depth limits."""
    log = tmp_path / "a.log"
    run = match(
        *engine("A", "--log", str(log), extra=("tc=inf", "depth=6")),
        *engine("B"),
        "-each",
        "tc=10+0.1",
        "--games",
        "1",
        "--max-plies",
        "4",
    )
    assert run.returncode == 0, run.stderr
    assert set(go_lines(log)) == {"go depth 6"}


def test_cutechess_arg_settings_are_one_argument_each(tmp_path: Path) -> None:
    """arg= (cutechess-cli) is one argument, spaces and all, after args= (fastchess)."""
    log = tmp_path / "a b.log"
    run = match(
        "-engine",
        f"cmd={sys.executable}",
        f"args={shlex.quote(str(ENGINE))}",
        "arg=--log",
        f"arg={log}",
        "-engine",
        f"cmd={fake()}",
        "--games",
        "1",
        "--max-plies",
        "2",
    )
    assert run.returncode == 0, run.stderr
    assert go_lines(log)


# -- the README's table ---------------------------------------------------------------------------

HANDLING_WORDS = {
    "same": "same as ",
    "accepted": "accepted: ",
    "ignored": "ignored with a warning: ",
    "refused": "refused: ",
}


def readme_rows() -> dict[str, tuple[str, str]]:
    """The README's compatibility tables: spelling → (tool, what xqadj does)."""
    text = README.read_text(encoding="utf-8")
    section = text.split("#### Their scripts run unchanged", 1)[1].split("\n### ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) == 3 and cells[0].startswith("`") and cells[1] != "tool":
            rows[cells[0].strip("`")] = (cells[1], cells[2])
    return rows


def test_readme_table_says_what_xqadj_does_with_every_option() -> None:
    rows = readme_rows()
    table = {s.spelling: s for s in (*SPELLINGS, *ENGINE_SPELLINGS)}
    assert set(rows) - {"option.<Name>="} == set(table)
    for spelling, (tools, what) in rows.items():
        if spelling == "option.<Name>=":
            continue
        entry = table[spelling]
        assert entry.handling in HANDLINGS
        assert tools == entry.tools, spelling
        assert what.startswith(HANDLING_WORDS[entry.handling]), (spelling, what)
        if entry.handling == "same":
            assert what.startswith(f"same as `{entry.meaning.split()[0]}`"), spelling


def test_every_issue_spelling_is_accepted() -> None:
    """The spellings issue 18 names are all taken, none refused or ignored."""
    table = {s.spelling: s.handling for s in SPELLINGS}
    for spelling in (
        "-engine -each -openings -rounds -games -repeat -concurrency -pgnout -srand "
        "-maxmoves -recover -ratinginterval -draw -resign -sprt -tournament -epdout"
    ).split():
        assert table[spelling] in ("same", "accepted"), spelling


# -- cutechess-cli's BayesElo SPRT ----------------------------------------------------------------


def cutechess_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Written from the BayesElo model's definitions (Rémi Coulom), independently of
    xqadj.integrations.stats: P(win) = f(elo − drawelo), P(loss) = f(−elo − drawelo) with f the
    logistic curve in Elo; the draw Elo solved from the observed win and loss rates; the
    bounds scaled by dP(win)/d(elo) at 0 relative to the logistic Elo's, 4·x/(1+x)².  In
    decimal arithmetic with 80 digits, so that P(draw) = 1 − P(win) − P(loss) stays exact where
    floating point loses it (at a draw rate near 1 it reaches 0 or below there)."""
    with decimal.localcontext() as context:
        context.prec = 80
        ten, one = Decimal(10), Decimal(1)

        def f(elo: Decimal) -> Decimal:
            return one / (one + ten ** (-elo / 400))

        n = Decimal(wins + draws + losses)
        win_rate, loss_rate = wins / n, losses / n
        # w = f(b − d) gives log10(1/w − 1) = (d − b)/400, l = f(−b − d) gives (d + b)/400:
        # their sum is d/200.
        d = 200 * ((one / win_rate - one).log10() + (one / loss_rate - one).log10())
        x = ten ** (-d / 400)
        scale = 4 * x / (one + x) ** 2

        def log_likelihood(elo: float) -> Decimal:
            b = Decimal(elo) / scale
            pw, pl = f(b - d), f(-b - d)
            return wins * pw.ln() + losses * pl.ln() + draws * (one - pw - pl).ln()

        return float(log_likelihood(elo1) - log_likelihood(elo0))


def test_bayes_elo_sprt_matches_a_published_cutechess_result() -> None:
    """RukChess's published cutechess-cli run (-sprt elo0=0 elo1=10): "Score … 187 - 123 -
    255 … SPRT: llr 2.97 (101.0%), lbound -2.94, ubound 2.94 - H1 was accepted"."""
    result = Trinomial(wins=187, draws=255, losses=123)
    value = llr(result, 0, 10, "bayesian")
    assert f"{value:.2f}" == "2.97"
    assert f"{100 * value / math.log(19):.1f}" == "101.0"
    sprt = Sprt.parse("elo0=0 elo1=10 model=bayesian")
    assert sprt.state(result).accepted == "H1"
    # cutechess-cli says nothing until there is a win, a draw and a loss.
    assert llr(Trinomial(wins=30, draws=10, losses=0), 0, 10, "bayesian") == 0.0


@given(
    st.integers(1, 2000),
    st.integers(1, 2000),
    st.integers(1, 2000),
    st.floats(-20, 10),
    st.floats(1, 20),
)
@example(1, 1009, 1, 10.0, 20.0)
def test_bayes_elo_sprt_against_an_independent_formula(wins, draws, losses, elo0, width):
    """Also at draw rates near 1, where cutechess-cli's floating point gives nan (the first
    failing example pinned below)."""
    elo1 = elo0 + width
    mine = llr_bayes_elo(Trinomial(wins=wins, draws=draws, losses=losses), elo0, elo1)
    assert mine == pytest.approx(cutechess_llr(wins, draws, losses, elo0, elo1), rel=1e-9, abs=1e-6)
    # The same games seen from the other engine, the bounds negated: the same ratio.
    flipped = llr_bayes_elo(Trinomial(wins=losses, draws=draws, losses=wins), -elo0, -elo1)
    assert flipped == pytest.approx(mine, rel=1e-9, abs=1e-6)


def test_bayes_elo_takes_games_not_pairs(tmp_path: Path) -> None:
    """With game pairs the bayesian SPRT still counts games, as cutechess-cli does."""
    from xqadj.integrations.stats import Pentanomial

    with pytest.raises(ValueError, match="takes games"):
        llr(Pentanomial(1, 2, 3, 2, 1), 0, 5, "bayesian")


# -- the real engine ------------------------------------------------------------------------------


def test_cutechess_command_line_with_fairy_stockfish(fairy_stockfish: str, tmp_path: Path) -> None:
    """A cutechess-cli command line for Debian's Fairy-Stockfish over UCI (no notation=: its
    ranks 1-10 are detected) against itself over UCCI: every game is played out, none lost by
    an illegal move, and every engine move has its score in the PGN."""
    pgn = tmp_path / "fs.pgn"
    run = match(
        "-engine",
        f"cmd={fairy_stockfish}",
        "name=FS-uci",
        "proto=uci",
        "-engine",
        f"cmd={fairy_stockfish}",
        "name=FS-ucci",
        "proto=ucci",
        "-each",
        "tc=4+0.05",
        "timemargin=200",
        "option.Threads=1",
        "option.Hash=16",
        "-games",
        "2",
        "-rounds",
        "1",
        "-repeat",
        "-maxmoves",
        "12",
        "-pgnout",
        str(pgn),
        "-recover",
    )
    assert run.returncode == 0, run.stderr
    games = pgn_games(pgn)
    assert len(games) == 2
    for game in games:
        assert not game["Termination"].startswith("forfeit"), game["movetext"]
        assert game["Termination"] != "time forfeit", game["movetext"]
        comments = re.findall(r"\{([^}]*)\}", game["movetext"])
        scored = [c for c in comments if re.match(r"[+-](\d+\.\d\d|M\d+)/\d+ ", c)]
        assert len(scored) >= 10


def test_an_epdout_file_that_cannot_be_written_stops_the_match_as_other_files_do(
    tmp_path: Path,
) -> None:
    """-epdout on a full disk: the match stops as for the PGN (exit 74, the file named), not
    with a traceback from a game thread."""
    pgn = tmp_path / "m.pgn"
    run = match(
        "-engine",
        f"cmd={fake('--seed', '1')}",
        "name=A",
        "-engine",
        f"cmd={fake('--seed', '2')}",
        "name=B",
        "-each",
        "proto=uci",
        "depth=1",
        "-games",
        "2",
        "-rounds",
        "2",
        "-maxmoves",
        "5",
        "-pgnout",
        str(pgn),
        "-epdout",
        "/dev/full",
    )
    assert run.returncode == 74, run.stderr
    assert "cannot write -epdout /dev/full: No space left on device" in run.stderr
    assert "Traceback" not in run.stderr
    assert len(pgn_games(pgn)) >= 1  # the game whose end position failed is kept


def test_the_site_warning_says_what_the_pgn_holds(tmp_path: Path) -> None:
    """-site is ignored: the warning names the Site tag the PGN has (it used to say none)."""
    pgn = tmp_path / "s.pgn"
    run = match(
        "-engine",
        f"cmd={fake('--seed', '1')}",
        "name=A",
        "-engine",
        f"cmd={fake('--seed', '2')}",
        "name=B",
        "-each",
        "proto=uci",
        "depth=1",
        "-games",
        "2",
        "-maxmoves",
        "3",
        "-site",
        "Beijing",
        "-pgnout",
        str(pgn),
    )
    assert run.returncode == 0, run.stderr
    sites = set(re.findall(r'\[Site "([^"]*)"\]', pgn.read_text()))
    assert len(sites) == 1
    assert f'-site is ignored: the Site tag is always "{sites.pop()}"' in run.stderr
