// xqadj in the browser and in Node: the unchanged xqadj Python package on Pyodide.
//
// This module is a thin shell: every rule, every parse, every error text and every picture
// comes from Python (xqadj.integrations.web, which drives the line protocol's Session).  It
// loads Pyodide and the xqadj wheel from its own folder (web/dist/ after the build), never
// from anywhere else.  Copyright the xqadj developers; GPL-3.0-or-later.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const HERE = new URL(".", import.meta.url);
let runtime = null;

/** A refused command or bad input: `code` is the protocol's error code (`bad-move`, ...). */
export class XqadjError extends Error {
  constructor(code, details) {
    super(`${code} ${details}`.trim());
    this.name = "XqadjError";
    this.code = code;
    this.details = details;
  }
}

async function readBytes(url) {
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return new Uint8Array(await readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`xqadj: cannot load ${url}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Pyodide with xqadj installed, loaded once per page or process; resolves to the Python
 * module xqadj.integrations.web (a PyProxy).
 */
export function loadRuntime() {
  runtime ??= (async () => {
    const manifest = JSON.parse(new TextDecoder().decode(await readBytes(new URL("xqadj.json", HERE))));
    const index = new URL("pyodide/", HERE);
    // Node wants a path, a browser a URL.
    const indexURL = index.protocol === "file:" ? (await import("node:url")).fileURLToPath(index) : index.href;
    const pyodide = await loadPyodide({
      indexURL,
      // No package of Pyodide's lock file: the npm package ships none (Pyodide would fetch
      // them from its CDN), and xqadj, pure Python, needs none.
      packages: [],
      stdout: () => {},
    });
    pyodide.unpackArchive(await readBytes(new URL(manifest.wheel, HERE)), "wheel");
    return pyodide.pyimport("xqadj.integrations.web");
  })();
  return runtime;
}

function check(answer) {
  if (answer.startsWith("error ")) {
    const [, code, ...details] = answer.split(" ");
    throw new XqadjError(code, details.join(" "));
  }
  return answer;
}

/** The `ruling` line's fields as a plain object; `null` when the answer has no ruling. */
function parseRuling(answer) {
  if (!answer) return null;
  const line = answer.split("\n").find((l) => l.startsWith("ruling "));
  if (line === undefined) return null;
  const tokens = line.split(" ");
  const ruling = { cycle: [] };
  for (let i = 1; i < tokens.length; i += 2) {
    const key = tokens[i];
    if (key === "cycle") {
      ruling.cycle = tokens.slice(i + 1);
      break;
    }
    ruling[key] = key === "ply" ? Number(tokens[i + 1]) : tokens[i + 1];
  }
  return ruling;
}

function oneToken(text, what) {
  if (typeof text !== "string") throw new TypeError(`${what} must be a string`);
  if (!/^\S+$/.test(text)) throw new XqadjError("bad-move", `${JSON.stringify(text)}: expected one ${what}`);
  return text;
}

function startOf(fen) {
  if (fen === undefined || fen === null || fen === "startpos") return "startpos";
  if (typeof fen !== "string") throw new TypeError("fen must be a string");
  if (/\n|\bmoves\b/.test(fen)) throw new XqadjError("bad-fen", `${JSON.stringify(fen)}: not a FEN`);
  return `fen ${fen}`;
}

/** A game followed for a web GUI; see xqadj.d.ts. */
class Arbiter {
  #python;
  #send;

  constructor(python) {
    this.#python = python;
    this.#send = python.send;
  }

  #call(line) {
    return check(this.#send(line));
  }

  newGame(fen) {
    const start = startOf(fen);
    return parseRuling(check(this.#python.new_game(start === "startpos" ? "" : start.slice(4))));
  }

  move(move) {
    return parseRuling(this.#call(`move ${oneToken(move, "move")}`));
  }

  position(fen, moves = []) {
    const list = typeof moves === "string" ? moves.split(/\s+/).filter(Boolean) : Array.from(moves ?? []);
    list.forEach((m) => oneToken(m, "move"));
    const tail = list.length ? ` moves ${list.join(" ")}` : "";
    return parseRuling(this.#call(`position ${startOf(fen)}${tail}`));
  }

  bannedMoves() {
    return this.#call("banmoves").split(" ").slice(1);
  }

  status() {
    const words = this.#call("status").split(" ");
    return {
      ply: Number(words[2]),
      occurrences: Number(words[4]),
      result: words[6],
      reason: words[8],
      fen: words.slice(10).join(" "),
    };
  }

  explain() {
    return this.#python.explain() ?? null;
  }

  picture() {
    return this.#python.picture();
  }

  destroy() {
    this.#send.destroy();
    this.#python.destroy();
  }
}

/**
 * An arbiter under the given rules: `{rules: 'axf'|'cxa', moveLimit: 0, forbiddenRun: false}`.
 * A bad option rejects with the protocol's error.
 */
export async function loadArbiter({ rules = "axf", moveLimit = 0, forbiddenRun = false } = {}) {
  const web = await loadRuntime();
  let python;
  try {
    python = web.Arbiter(String(rules), Number(moveLimit), Boolean(forbiddenRun));
  } catch (error) {
    const line = String(error.message).trim().split("\n").pop().replace(/^\S*XqadjError: /, "");
    check(line);
    throw error;
  }
  return new Arbiter(python);
}

/**
 * A game as the page takes it (a PGN, moves in ICCS, WXF or Chinese, or a `FEN | moves`
 * line), followed to its first ruling: `{summary, picture(ply), destroy()}`; see xqadj.d.ts.
 */
export async function readGame(text, { fen = "", rules = "axf", moveLimit = 0, forbiddenRun = false } = {}) {
  const web = await loadRuntime();
  const reading = web.read_game(String(text), String(fen ?? ""), String(rules), String(moveLimit), Boolean(forbiddenRun));
  return {
    summary: JSON.parse(reading.summary()),
    picture: (ply, columns = 3) => reading.picture(ply, columns),
    destroy: () => reading.destroy(),
  };
}
