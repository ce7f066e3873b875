#!/usr/bin/env python3
"""A tiny HTTP server for Den's http service tests (python3 standard library only).

Listens on 127.0.0.1 on a free port and prints that port on stdout as its first line. Exits by
itself after --lifetime seconds or as soon as its stdin closes (so a crashed test run leaves no
server behind).

Paths:
  /ok                  200, "hello from stub", text/plain
  /big?bytes=N         200, N bytes (default 2 MiB) streamed WITHOUT a Content-Length header
  /big-declared?bytes=N  200, N bytes with a Content-Length header
  /slow?ms=N           sleeps N ms (default 5000), then 200 "slow"
  /drip?ms=N           sends headers at once, then one byte every 100 ms for N ms (default 5000)
  /status/NNN          status NNN with body "status NNN"
  /headers             200, the request headers as a JSON object (names lower-cased)
  /redirect            302 to /ok
  /away?to=URL         302 to URL (any host: a redirect a module's http permission must check)
  /ecb.xml             200, the file given by --ecb, application/xml (404 when not given)
  anything else        404
"""

import argparse
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ecb", help="file served at /ecb.xml")
    parser.add_argument("--files", help="folder whose files are served at /files/<name>")
    parser.add_argument("--lifetime", type=float, default=120.0, help="seconds before exiting by itself")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: a free one)")
    args = parser.parse_args()
    # A test runner may start us with SIGTERM ignored or blocked; make it kill us again.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # one request per connection; a body may end at close

        def log_message(self, format, *arguments):  # keep the test output clean
            pass

        def send_body(self, status, body, content_type="text/plain; charset=utf-8", length=True):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            if length:
                self.send_header("Content-Length", str(len(body)))
            self.send_header("X-Stub", "den")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            try:
                self.route()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout or size limit): expected in tests

        def route(self):
            parts = urlsplit(self.path)
            query = parse_qs(parts.query)

            def number(name, default):
                try:
                    return int(query.get(name, [default])[0])
                except ValueError:
                    return default

            path = parts.path
            if path == "/ok":
                self.send_body(200, b"hello from stub")
            elif path in ("/big", "/big-declared"):
                size = number("bytes", 2 * 1024 * 1024)
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                if path == "/big-declared":
                    self.send_header("Content-Length", str(size))
                self.end_headers()
                chunk = b"x" * 65536
                remaining = size
                while remaining > 0:
                    piece = chunk[: min(remaining, len(chunk))]
                    self.wfile.write(piece)
                    remaining -= len(piece)
            elif path == "/slow":
                time.sleep(number("ms", 5000) / 1000.0)
                self.send_body(200, b"slow")
            elif path == "/drip":
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                deadline = time.monotonic() + number("ms", 5000) / 1000.0
                while time.monotonic() < deadline:
                    self.wfile.write(b".")
                    self.wfile.flush()
                    time.sleep(0.1)
            elif path.startswith("/status/"):
                try:
                    status = int(path[len("/status/"):])
                except ValueError:
                    status = 400
                self.send_body(status, ("status %d" % status).encode())
            elif path == "/headers":
                headers = {name.lower(): value for name, value in self.headers.items()}
                self.send_body(200, json.dumps(headers, sort_keys=True).encode(), "application/json")
            elif path == "/redirect":
                self.send_response(302)
                self.send_header("Location", "/ok")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif path == "/away":
                self.send_response(302)
                self.send_header("Location", query.get("to", ["/ok"])[0])
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif path.startswith("/files/") and args.files:
                name = os.path.basename(path[len("/files/"):])
                try:
                    with open(os.path.join(args.files, name), "rb") as handle:
                        body = handle.read()
                except OSError:
                    self.send_body(404, b"not found")
                    return
                self.send_body(200, body, "application/xml")
            elif path == "/ecb.xml" and args.ecb:
                with open(args.ecb, "rb") as handle:
                    body = handle.read()
                self.send_body(200, body, "application/xml")
            else:
                self.send_body(404, b"not found")

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        allow_reuse_address = True

        def handle_error(self, request, client_address):  # a client that went away is no error here
            pass

    server = Server(("127.0.0.1", args.port), Handler)
    print(server.server_address[1], flush=True)

    def exit_when_stdin_closes():
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except Exception:
            pass
        os._exit(0)

    def exit_after_lifetime():
        time.sleep(args.lifetime)
        os._exit(0)

    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    threading.Thread(target=exit_after_lifetime, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
