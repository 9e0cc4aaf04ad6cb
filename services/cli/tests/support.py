"""What the client's tests share: a stand-in server on loopback, the client zipped from its sources,
and running it as a user would."""

import json
import os
import pty
import subprocess
import sys
import tempfile
import threading
import unittest
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SOURCE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rde_cli")
sys.path.insert(0, os.path.dirname(SOURCE))


def answer_json(value, status=200):
    return (status, "application/json", json.dumps(value).encode())


class StandIn:
    """Answers each path (with its query) with a fixed (status, content type, bytes), or with each of
    a list in turn (the last one then repeats); keeps every request as (method, path, JSON body)."""

    def __init__(self, routes):
        requests = self.requests = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                self.answer()

            def do_POST(self):
                self.answer()

            def answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                sent = self.rfile.read(length) if length else b""
                requests.append((self.command, self.path, json.loads(sent) if sent else None))
                status, kind, body = next_answer(routes, self.path)
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def next_answer(routes, path):
    answer = routes.get(path, (404, "application/json", b"{}"))
    if isinstance(answer, list):
        return answer.pop(0) if len(answer) > 1 else answer[0]
    return answer


def run_cli(archive, arguments, home):
    return subprocess.run([sys.executable, archive] + arguments, capture_output=True, text=True, env=user_env(home))


def run_cli_on_terminal(archive, arguments, home):
    """The client with its stdout and stderr on one terminal (a pty), as a person sees it: (exit code, text)."""
    main, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, archive] + arguments, stdout=terminal, stderr=terminal, env=user_env(home))
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the terminal closed: the client exited
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    return process.wait(), shown.decode("utf-8").replace("\r\n", "\n")


def user_env(home):
    return dict(os.environ, RDE_CONFIG_DIR=os.path.join(home, "config"))


class WithArchive(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.home = self.directory.name
        # A plain zip is enough here; the reproducible build is services/cli/src/archive.ts.
        os.makedirs(os.path.join(self.home, "bin"))
        self.archive = os.path.join(self.home, "bin", "rde.pyz")
        with zipfile.ZipFile(self.archive, "w") as archive:
            for name in os.listdir(SOURCE):
                if name.endswith(".py"):
                    archive.write(os.path.join(SOURCE, name), "rde_cli/" + name)
            archive.write(os.path.join(SOURCE, "__main__.py"), "__main__.py")

    def tearDown(self):
        self.directory.cleanup()
