// Rules every case of a JSON file through web/dist/xqadj.mjs in Node, three ways, and prints
// what the module said as JSON, for tests/test_web.py to compare with the Python package:
//   whole: arbiter.position(fen, moves) with every move at once;
//   growing: position(fen, moves[0..k]) for k = 1, 2, ... (the protocol's incremental lines);
//   moves: newGame(fen), then move() one at a time up to the ruling.
// Usage: node tests/web/cases.mjs web/dist/xqadj.mjs cases.json
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [modulePath, casesPath] = process.argv.slice(2);
const { loadArbiter, XqadjError } = await import(pathToFileURL(resolve(modulePath)).href);
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
const arbiters = new Map();
const out = [];
for (const c of cases) {
  const key = JSON.stringify(c.options);
  if (!arbiters.has(key)) arbiters.set(key, await loadArbiter(c.options));
  const arbiter = arbiters.get(key);
  const moves = c.moves.split(" ").filter(Boolean);
  arbiter.newGame(); // another game first, so that `whole` starts a new one
  const whole = arbiter.position(c.fen, moves);
  const explanation = arbiter.explain();
  const picture = createHash("sha256").update(arbiter.picture()).digest("hex");
  const status = arbiter.status();
  arbiter.newGame();
  const growing = [];
  for (let k = 1; k <= moves.length; k++) {
    const ruling = arbiter.position(c.fen, moves.slice(0, k));
    if (ruling) growing.push([k, ruling]);
  }
  let byMove = arbiter.newGame(c.fen);
  let banned = null;
  let after = null;
  for (const move of moves) {
    if (byMove) break;
    banned = arbiter.bannedMoves();
    byMove = arbiter.move(move);
  }
  if (byMove && moves.length) {
    try {
      arbiter.move(moves[0]);
    } catch (error) {
      after = error instanceof XqadjError ? error.code : `not an XqadjError: ${error}`;
    }
  }
  out.push({ id: c.id, whole, explanation, picture, status, growing, byMove, banned, after });
}
process.stdout.write(JSON.stringify(out));
