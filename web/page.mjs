// The arbiter's page: reads the fields, asks xqadj (Python) to follow the game, shows what it
// says.  No rule, parse or picture is made here.  Copyright the xqadj developers;
// GPL-3.0-or-later.

import { loadRuntime, readGame } from "./xqadj.mjs";

const $ = (id) => document.getElementById(id);
const FIELDS = { rules: "rules", limit: "limit", fen: "fen", game: "game" };
let reading = null; // the game shown: {summary, picture(ply)}
let ply = 0;
// A phone gets the ruling's panels one under the other, big enough to read.
const narrow = window.matchMedia("(max-width: 700px)");

function showErrors(errors) {
  for (const [key, id] of Object.entries(FIELDS)) {
    const message = errors[key];
    const box = $(`${id}-error`);
    box.hidden = !message;
    box.textContent = message ?? "";
    $(id).setAttribute("aria-invalid", message ? "true" : "false");
  }
}

function options() {
  return { fen: $("fen").value, rules: $("rules").value, moveLimit: $("limit").value, forbiddenRun: $("run").checked };
}

function shareLink(summary) {
  const params = new URLSearchParams();
  params.set("fen", summary.start_fen);
  params.set("moves", summary.moves.join(" "));
  params.set("rules", summary.rules);
  if (Number($("limit").value) > 0) params.set("limit", $("limit").value.trim());
  if ($("run").checked) params.set("run", "1");
  return `?${params}`;
}

function showRuling(summary) {
  const ruling = summary.ruling;
  const title = document.createElement("h2");
  const details = [];
  if (ruling) {
    title.textContent = ruling.title;
    const line = document.createElement("p");
    const code = document.createElement("code");
    code.textContent =
      `ruling result ${ruling.result} reason ${ruling.reason} ply ${ruling.ply} offender ${ruling.offender} ` +
      `article ${ruling.article} cycle ${ruling.cycle.join(" ")}`.trim();
    line.append(code);
    const explanation = document.createElement("p");
    explanation.id = "explanation";
    explanation.textContent = ruling.explanation;
    details.push(line, explanation);
  } else {
    title.textContent = `No ruling after ${summary.moves.length} moves (${summary.rules.toUpperCase()} rules)`;
  }
  if (summary.unread > 0) {
    const unread = document.createElement("p");
    unread.textContent = `${summary.unread} moves recorded after the ruling were not read: the game ended at the ruling.`;
    details.push(unread);
  }
  $("ruling").replaceChildren(title);
  $("ruling").dataset.result = ruling ? ruling.result : "*";
  $("details").replaceChildren(...details);
}

function showPly(target) {
  const summary = reading.summary;
  ply = Math.max(0, Math.min(target, summary.moves.length));
  $("board").innerHTML = reading.picture(ply, narrow.matches ? 1 : 3); // SVG from xqadj.svg, escaped there
  $("board").classList.toggle("ruling", Boolean(summary.ruling) && ply === summary.ruling.ply);
  $("ply").textContent = `ply ${ply} / ${summary.moves.length}`;
  $("moves").querySelectorAll("li").forEach((item, index) => item.classList.toggle("current", index + 1 === ply));
}

function showMoves(summary) {
  const list = $("moves");
  list.replaceChildren();
  summary.texts.forEach((text, index) => {
    const item = document.createElement("li");
    const number = document.createElement("small");
    number.textContent = `${index + 1}.`; // plies, not moves: a game may start with Black
    item.append(number, text);
    if (summary.ruling && index + 1 === summary.ruling.ply) item.classList.add("ruled");
    item.addEventListener("click", () => showPly(index + 1));
    list.append(item);
  });
}

async function rule() {
  const next = await readGame($("game").value, options());
  const summary = next.summary;
  showErrors(summary.errors);
  if (Object.keys(summary.errors).length) {
    next.destroy();
    return false; // the last good game stays on the page
  }
  reading?.destroy();
  reading = next;
  showRuling(summary);
  showMoves(summary);
  $("result").hidden = false;
  const link = $("share");
  link.href = shareLink(summary);
  link.hidden = false;
  showPly(summary.ruling ? summary.ruling.ply : summary.moves.length);
  return true;
}

function fromLink() {
  const params = new URLSearchParams(location.search);
  if (!params.has("moves") && !params.has("fen")) return false;
  const fen = params.get("fen") ?? "";
  $("fen").value = fen === "startpos" ? "" : fen;
  $("game").value = params.get("moves") ?? "";
  if (params.has("rules")) $("rules").value = params.get("rules");
  if (params.has("limit")) $("limit").value = params.get("limit");
  $("run").checked = params.get("run") === "1";
  return true;
}

function syncRun() {
  $("run-row").hidden = $("rules").value !== "cxa";
  if ($("run-row").hidden) $("run").checked = false;
}

async function main() {
  const linked = fromLink();
  syncRun();
  await loadRuntime();
  $("rule").disabled = false;
  $("state").textContent = "Ready: type or paste a game, or open a shared link.";
  if (linked) await rule();
  document.body.dataset.firstRulingMs = String(Math.round(performance.now()));
  document.body.dataset.ready = "true";
  $("game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    rule();
  });
  $("rules").addEventListener("change", () => {
    syncRun();
    rule();
  });
  let timer = 0;
  for (const id of ["game", "fen", "limit", "run"]) {
    $(id).addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(rule, 250); // the ruling follows the typing
    });
  }
  narrow.addEventListener("change", () => reading && showPly(ply));
  $("first").addEventListener("click", () => showPly(0));
  $("back").addEventListener("click", () => showPly(ply - 1));
  $("next").addEventListener("click", () => showPly(ply + 1));
  $("last").addEventListener("click", () => showPly(Infinity));
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (!reading || (target instanceof Element && target.closest("input, textarea, select"))) return;
    const moves = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: Infinity };
    if (event.key in moves) {
      event.preventDefault();
      showPly(moves[event.key]);
    }
  });
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("sw.js").catch(() => {}); // offline use is a bonus
  }
}

main().catch((error) => {
  $("state").textContent = `The arbiter could not start: ${error.message}`;
  document.body.dataset.ready = "failed";
});
