"""Headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``),
with the standard library alone: for the tests and the benchmark of the web build.  Its
:data:`FLAGS` are Chromium's flags wherever the tests and benchmarks run it, and
:func:`run_browser` runs it once on a page without the pipe (``--dump-dom``, ``--screenshot``:
``tests/test_report_browser.py``, ``bench/report.py``).

Chromium reads commands from its file descriptor 3 and writes answers and events to 4, each a
JSON object ended by a NUL byte.  :class:`Browser` starts it with a fresh profile, opens one page
(a flat session), records every request the page makes (``Network.requestWillBeSent``) and ends
the whole process group when closed.  A static file server (:func:`serve_folder`) serves a
folder on 127.0.0.1 and records every path asked of it.
"""

from __future__ import annotations

import base64
import functools
import http.server
import json
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]


def run_browser(
    browser: str,
    page: Path,
    *options: str,
    env: dict[str, str] | None = None,
    timeout: float = 240.0,
) -> str:
    """Run headless Chromium on ``page`` with a fresh profile; returns its stdout.  The whole
    process group is ended afterwards, so no renderer or helper process is left behind."""
    profile = tempfile.mkdtemp(prefix="xqadj-chromium-")
    process = subprocess.Popen(
        [browser, *FLAGS, f"--user-data-dir={profile}", *options, page.as_uri()],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        env=env,
    )
    try:
        out, _ = process.communicate(timeout=timeout)
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
        shutil.rmtree(profile, ignore_errors=True)
    if process.returncode != 0:
        raise RuntimeError(f"chromium exited {process.returncode}")
    return out


class Browser:
    """One headless Chromium with one page, driven over the pipe."""

    def __init__(self, executable: str, timeout: float = 120.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="xqadj-cdp-")
        to_browser_read, self._write = os.pipe()
        self._read, from_browser_write = os.pipe()

        def wire() -> None:  # in the child: its fd 3 reads our commands, its fd 4 answers
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        self.process = subprocess.Popen(
            [executable, *FLAGS, "--remote-debugging-pipe", f"--user-data-dir={self.profile}"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=wire,
            start_new_session=True,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._next_id = 0
        self._answers: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self.events: list[dict[str, Any]] = []
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        attached = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})
        self.session = attached["sessionId"]
        self.call("Network.enable", session=self.session)
        self.call("Page.enable", session=self.session)
        self.call("Runtime.enable", session=self.session)

    def _read_loop(self) -> None:
        buffer = b""
        while True:
            try:
                data = os.read(self._read, 1 << 16)
            except OSError:
                return
            if not data:
                return
            buffer += data
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self._lock:
                        box = self._answers.get(message["id"])
                    if box is not None:
                        box.put(message)
                else:
                    self.events.append(message)

    def call(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        """Send a command; its result (a DevTools error raises ``RuntimeError``)."""
        with self._lock:
            self._next_id += 1
            ident = self._next_id
            box: queue.Queue[dict[str, Any]] = queue.Queue()
            self._answers[ident] = box
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        answer = box.get(timeout=self.timeout)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    def page(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """A command to the page's session."""
        return self.call(method, params, self.session)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises are awaited)."""
        result = self.page(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True},
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:60]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float | None = None) -> Any:
        """Poll until the expression is truthy; its value (``TimeoutError`` after ``timeout``)."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(f"waited {timeout or self.timeout} s for {expression}")

    def navigate(self, url: str) -> None:
        self.page("Page.navigate", {"url": url})

    def requests(self) -> list[str]:
        """Every URL the page asked for so far."""
        return [
            e["params"]["request"]["url"]
            for e in list(self.events)
            if e.get("method") == "Network.requestWillBeSent"
        ]

    def screenshot(self, path: Path) -> None:
        data = self.page("Page.captureScreenshot", {"format": "png"})["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        for fd in (self._write, self._read):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
    }

    def log_message(self, format: str, *args: Any) -> None:
        self.server.asked.append(self.path)  # type: ignore[attr-defined]


@contextmanager
def serve_folder(folder: Path) -> Iterator[tuple[str, list[str]]]:
    """Serve ``folder`` on 127.0.0.1 (a free port): its base URL and the list of paths asked."""
    handler = functools.partial(_Handler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    asked: list[str] = []
    server.asked = asked  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", asked
    finally:
        server.shutdown()
        server.server_close()
