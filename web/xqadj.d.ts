// TypeScript declarations of web/xqadj.mjs: xqadj, the xiangqi rules arbiter, on Pyodide.
// Copyright the xqadj developers; GPL-3.0-or-later.

/** The rules profiles: AXF/WXF (亚规/世规) and CXA 2020 (中规). */
export type Rules = "axf" | "cxa";

export interface ArbiterOptions {
  /** The rules profile (default `"axf"`). */
  rules?: Rules;
  /** The natural move limit in moves without a capture; 0 (default) for none. */
  moveLimit?: number;
  /** CXA only: also rule a piece's nine forbidden moves in a row (参考图8); default false. */
  forbiddenRun?: boolean;
}

/** A ruling: the fields of the protocol's `ruling` line (protocol/PROTOCOL.md). */
export interface Ruling {
  result: "1-0" | "0-1" | "1/2-1/2";
  reason:
    | "checkmate"
    | "stalemate"
    | "perpetual-check"
    | "perpetual-chase"
    | "perpetual-kill"
    | "repetition"
    | "move-limit";
  /** Moves from the start position when the ruling fell. */
  ply: number;
  /** The side that lost by rule, `"none"` for a draw. */
  offender: "red" | "black" | "none";
  /** The rulebook article (`art.15`, `24.11`, `move-limit`, ...). */
  article: string;
  /** The repeated cycle's moves in ICCS notation, empty for a ruling without one. */
  cycle: string[];
}

/** The protocol's `status` line. */
export interface Status {
  ply: number;
  /** How often the current position has occurred since the last capture. */
  occurrences: number;
  result: "1-0" | "0-1" | "1/2-1/2" | "*";
  reason: Ruling["reason"] | "none";
  fen: string;
}

/** A refused command or bad input; `code` is the protocol's error code (`illegal-move`, ...),
 * `details` its words. */
export class XqadjError extends Error {
  readonly code: string;
  readonly details: string;
}

/** One game followed move by move.  Moves are ICCS text (`"h2e2"`); a FEN is xiangqi FEN. */
export interface Arbiter {
  /** Start a new game from `fen` (default: the standard start); a ruling if the position is
   * already over (checkmate, stalemate), else `null`. */
  newGame(fen?: string | null): Ruling | null;
  /** Play one move; the ruling it causes, or `null`.  An illegal move, or a move after the
   * ruling, throws {@link XqadjError} and changes nothing. */
  move(move: string): Ruling | null;
  /** The protocol's `position` command: the game from `fen` (`null`/`"startpos"`: the standard
   * start) with `moves`.  Incremental: only moves not yet seen are played, a takeback is taken
   * back; a ruling newly reached is returned, else `null`. */
  position(fen: string | null, moves?: string[] | string): Ruling | null;
  /** Legal moves that would lose by rule at once. */
  bannedMoves(): string[];
  status(): Status;
  /** The explanation of the ruling (English with the Chinese terms), or `null`. */
  explain(): string | null;
  /** The game as SVG, as `xqadj show` draws it: the ruling with its cycle once there is one,
   * else the position with its last move. */
  picture(): string;
  /** Free the Python objects. */
  destroy(): void;
}

/** Load Pyodide and xqadj (once per page or process) and make an arbiter.  Everything is
 * loaded from the module's own folder.  Bad options reject with {@link XqadjError}. */
export function loadArbiter(options?: ArbiterOptions): Promise<Arbiter>;

export interface GameOptions extends ArbiterOptions {
  /** The start position; empty: the standard start, or the game's own FEN tag or line. */
  fen?: string;
}

/** What {@link readGame} found. */
export interface GameSummary {
  /** Bad input by field (`fen`, `game`, `limit`, `rules`), in the command line's words; when
   * not empty, the other fields are absent. */
  errors: Partial<Record<"fen" | "game" | "limit" | "rules", string>>;
  start_fen: string;
  rules: Rules;
  /** The moves in ICCS, up to the ruling. */
  moves: string[];
  /** The same moves as they were written. */
  texts: string[];
  notation: "iccs" | "wxf" | "chinese" | null;
  ruling: (Ruling & { title: string; explanation: string }) | null;
  /** Moves recorded after the ruling, not read. */
  unread: number;
  event: string | null;
  red: string | null;
  black: string | null;
}

export interface GameReading {
  summary: GameSummary;
  /** The SVG at `ply` (0: the start); the ruling's picture at the ruling's ply, its panels in
   * `columns` (default 3; 1 reads on a phone). */
  picture(ply: number, columns?: number): string;
  destroy(): void;
}

/** A game as `xqadj replay` reads it (a PGN; moves in ICCS, WXF or Chinese notation; a
 * `FEN | moves` line), followed to its first ruling. */
export function readGame(text: string, options?: GameOptions): Promise<GameReading>;

/** The Pyodide module `xqadj.integrations.web`, loaded once (for advanced use). */
export function loadRuntime(): Promise<unknown>;
