// `npm --prefix web run build`: web/dist/, everything the page and the module need, so that
// nothing is fetched from outside that folder at run time:
//   the page (index.html, page.mjs, page.css, sw.js), the module (xqadj.mjs, xqadj.d.ts),
//   pyodide/ (the runtime and the standard library, copied from the npm package `pyodide`),
//   the xqadj wheel built from this repository, and xqadj.json naming it.
// The wheel is built with $PYTHON (default python3): `python -m pip wheel --no-deps`.
// Copyright the xqadj developers; GPL-3.0-or-later.

import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const web = dirname(fileURLToPath(import.meta.url));
const repo = dirname(web);
const dist = join(web, "dist");
const pyodide = join(web, "node_modules", "pyodide");
// The runtime's files; the rest of the npm package is its source maps, consoles and typings.
const RUNTIME = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
const PAGE = ["index.html", "page.mjs", "page.css", "sw.js", "xqadj.mjs", "xqadj.d.ts"];

rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, "pyodide"), { recursive: true });
for (const name of RUNTIME) copyFileSync(join(pyodide, name), join(dist, "pyodide", name));
for (const name of PAGE) copyFileSync(join(web, name), join(dist, name));

// A relative $PYTHON is relative to where npm was started (npm runs this script in web/).
const given = process.env.PYTHON || "python3";
const python = given.includes("/") ? resolve(process.env.INIT_CWD ?? process.cwd(), given) : given;
const wheels = join(dist, "wheel-build");
// XQADJ_PURE: a pure-Python wheel (py3-none-any), which Pyodide installs; the compiled modules
// of a native install (setup.py) are built for this machine's CPython, not for WebAssembly.
execFileSync(python, ["-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", wheels, repo], {
  stdio: ["ignore", "inherit", "inherit"],
  env: { ...process.env, XQADJ_PURE: "1" },
});
const wheel = readdirSync(wheels).find((name) => /^xqadj-.*-py3-none-any\.whl$/.test(name));
if (!wheel) throw new Error("build: pip wrote no xqadj wheel");
copyFileSync(join(wheels, wheel), join(dist, wheel));
rmSync(wheels, { recursive: true, force: true });

const pyodideVersion = JSON.parse(readFileSync(join(pyodide, "package.json"), "utf8")).version;
const version = wheel.split("-")[1];
writeFileSync(join(dist, "xqadj.json"), JSON.stringify({ wheel, xqadj: version, pyodide: pyodideVersion }, null, 1) + "\n");
// The service worker caches these for offline use; a new build is a new cache.
const files = ["./", ...PAGE, wheel, "xqadj.json", ...RUNTIME.map((name) => `pyodide/${name}`)];
const worker = readFileSync(join(dist, "sw.js"), "utf8")
  .replace("__VERSION__", `${version}-${pyodideVersion}-${Date.now()}`)
  .replace('"__FILES__"', JSON.stringify(files));
writeFileSync(join(dist, "sw.js"), worker);
console.log(`web/dist: xqadj ${version} on Pyodide ${pyodideVersion} (${wheel})`);
