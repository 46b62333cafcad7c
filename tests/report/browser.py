"""A minimal Chrome DevTools Protocol client over --remote-debugging-pipe, for headless Chromium tests.

    with Browser(find_chromium()) as b:
        page = b.load("file:///tmp/report.html", width=1280, height=900)
        page.images, page.errors, page.screenshot  # what the tests check

No websocket and no port: Chromium reads commands on fd 3 and writes replies and events on fd 4, each a
JSON message ending in a NUL byte.
"""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

# Every <img>: its source, whether loading finished, and its decoded width (0 when it failed).
IMAGES_JS = """document.fonts.ready.then(() => JSON.stringify(Array.from(document.images).map(
    i => ({src: i.getAttribute("src"), complete: i.complete, width: i.naturalWidth}))))"""


def find_chromium():
    """The Chromium executable (FIRELAB_CHROMIUM overrides), or None."""
    override = os.environ.get("FIRELAB_CHROMIUM")
    if override:
        return override if os.access(override, os.X_OK) else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    pass


class Page:
    """What one load gave: images, console errors (level error, uncaught exceptions), screenshot PNG bytes."""

    def __init__(self, url):
        self.url = url
        self.images = []
        self.errors = []
        self.screenshot = b""
        self.full_page = b""


class Browser:
    def __init__(self, executable, timeout=60.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="firelab-chromium-")
        cmd_r, self.cmd_w = os.pipe()
        self.res_r, res_w = os.pipe()

        def child_fds():  # the pipe ends at fds 3 (commands in) and 4 (replies out)
            os.dup2(cmd_r, 100)
            os.dup2(res_w, 101)
            os.dup2(100, 3)
            os.dup2(101, 4)

        args = [executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                f"--user-data-dir={self.profile}", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio", "--force-color-profile=srgb",
                "about:blank"]
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                                     preexec_fn=child_fds, pass_fds=(3, 4))
        os.close(cmd_r)
        os.close(res_w)
        self.next_id = 0
        self.buffer = b""
        self.events = []  # (sessionId, method, params) not yet consumed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def stderr_tail(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-2000:]

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("timed out waiting for Chromium")
            ready, _, _ = select.select([self.res_r], [], [], left)
            if ready:
                chunk = os.read(self.res_r, 1 << 20)
                if not chunk:
                    raise BrowserError("Chromium closed the pipe:\n" + self.stderr_tail())
                self.buffer += chunk
        msg, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None):
        """Sends a command and returns its result; events that arrive meanwhile are kept."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append((reply.get("sessionId"), reply["method"], reply.get("params", {})))

    def wait_event(self, session, method, seconds):
        """Waits for an event of this session; returns False when it did not come in time."""
        deadline = time.monotonic() + seconds
        while True:
            if any(s == session and m == method for s, m, _ in self.events):
                return True
            try:
                reply = self._read_message(deadline)
            except BrowserError:
                if time.monotonic() >= deadline:
                    return False
                raise
            if "method" in reply:
                self.events.append((reply.get("sessionId"), reply["method"], reply.get("params", {})))

    def drain(self, seconds):
        """Collects the events that arrive within seconds (late console messages, timers)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.res_r], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            chunk = os.read(self.res_r, 1 << 20)
            if not chunk:
                break
            self.buffer += chunk
            while b"\0" in self.buffer:
                msg, self.buffer = self.buffer.split(b"\0", 1)
                reply = json.loads(msg)
                if "method" in reply:
                    self.events.append((reply.get("sessionId"), reply["method"], reply.get("params", {})))

    def evaluate(self, session, expression):
        """The value of a JS expression (a promise is awaited); a thrown exception raises BrowserError."""
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True}, session)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def load(self, url, width=1280, height=900, keep_open=False):
        """Opens url in a new tab of width x height CSS pixels, waits for its load event, and returns a Page.
        keep_open: the Page also carries .session for evaluate(); call close_page(page) after."""
        page = Page(url)
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page.target, page.session = target, session
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable", session=session)
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                         "mobile": False}, session)
        self.events = [e for e in self.events if e[0] != session]  # about:blank's own
        self.send("Page.navigate", {"url": url}, session)
        if not self.wait_event(session, "Page.loadEventFired", self.timeout):
            raise BrowserError(f"{url}: no load event within {self.timeout} s")
        page.images = json.loads(self.evaluate(session, IMAGES_JS))
        self.drain(0.3)
        page.screenshot = base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"}, session)["data"])
        size = self.send("Page.getLayoutMetrics", session=session)["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
        page.full_page = base64.b64decode(self.send("Page.captureScreenshot", {
            "format": "png", "clip": clip, "captureBeyondViewport": True}, session)["data"])
        page.errors = self._take_errors(session)
        if not keep_open:
            self.close_page(page)
        return page

    def close_page(self, page):
        """Closes the page's tab; errors logged since load() (say, by clicks) are added to page.errors."""
        page.errors += self._take_errors(page.session)
        self.send("Target.closeTarget", {"targetId": page.target})
        self.events = [e for e in self.events if e[0] != page.session]

    def _take_errors(self, session):
        self.drain(0.1)
        errors = [text for s, m, p in self.events if s == session for text in [error_text(m, p)] if text]
        self.events = [e for e in self.events if e[0] != session]
        return errors

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("Browser.close")
            except (BrowserError, OSError):
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self.cmd_w, self.res_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


def error_text(method, params):
    """The text of a console error, an uncaught exception or an error log entry; None for anything else."""
    if method == "Runtime.exceptionThrown":
        d = params.get("exceptionDetails", {})
        return "uncaught: " + (d.get("exception", {}).get("description") or d.get("text", "?"))
    if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
        return "console.error: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
    if method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
        e = params["entry"]
        return f"log ({e.get('source')}): {e.get('text')} {e.get('url', '')}".strip()
    return None
