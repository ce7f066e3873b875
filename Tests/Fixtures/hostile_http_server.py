#!/usr/bin/env python3
"""A server that misbehaves, for the catalog tests (python3 standard library only).

Prints its port on stdout as its first line and exits when its stdin closes.

Paths:
  /hang/...      reads the request and never answers
  /endless/...   200 without a Content-Length, then bytes for ever
  anything else  404
"""
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Hostile(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/hang/"):
            while True:
                time.sleep(1)
        if self.path.startswith("/endless/"):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            chunk = b"[" * 65536
            try:
                while True:
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                return
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
server.daemon_threads = True
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
