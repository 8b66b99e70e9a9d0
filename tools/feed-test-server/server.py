#!/usr/bin/env python3
"""A loopback HTTP server of real feeds, for the tests of `timeline subscribe` (issue 35).

Python standard library only; listens on 127.0.0.1 only; prints `PORT <n>` once listening and
exits after --idle-timeout seconds without a request.

  /feeds/<file>      a file of Fixtures/feeds/, with a strong ETag and a Last-Modified, and a
                     304 when If-None-Match or If-Modified-Since matches
  /weak/<file>       the same with a weak ETag (W/"...")
  /page.html         an HTML page naming /feeds/DaringFireball.atom by a relative href
  /plain.html        an HTML page naming no feed
  /moved/<file>      301 to /feeds/<file>
  /elsewhere/<file>  302 to /feeds/<file>
  /loop              302 to itself
  /missing           404
  /requests          the requests so far, as JSON Lines (path and the conditional headers)
"""
import argparse
import hashlib
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FEEDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Fixtures", "feeds")
LAST_MODIFIED = "Tue, 01 Dec 2026 10:00:00 GMT"
PAGE = b"""<!doctype html><html><head><title>A page</title>
<link rel="alternate" type="application/atom+xml" title="Daring Fireball" href="feeds/DaringFireball.atom">
</head><body>Hello</body></html>"""
PLAIN = b"<!doctype html><html><head><title>No feed here</title></head><body>Hello</body></html>"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    log = []
    last_request = [time.monotonic()]

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        Handler.last_request[0] = time.monotonic()
        path = self.path.split("?")[0]
        if path == "/requests":
            lines = "".join(json.dumps(entry) + "\n" for entry in Handler.log)
            return self.send(200, lines.encode(), [("Content-Type", "application/x-ndjson")])
        Handler.log.append({"path": path, "if_none_match": self.headers.get("If-None-Match"),
                            "if_modified_since": self.headers.get("If-Modified-Since"),
                            "user_agent": self.headers.get("User-Agent")})
        if path == "/page.html":
            return self.send(200, PAGE, [("Content-Type", "text/html; charset=utf-8")])
        if path == "/plain.html":
            return self.send(200, PLAIN, [("Content-Type", "text/html; charset=utf-8")])
        if path == "/loop":
            return self.send(302, b"", [("Location", "/loop")])
        for prefix, status in (("/moved/", 301), ("/elsewhere/", 302)):
            if path.startswith(prefix):
                return self.send(status, b"", [("Location", "/feeds/" + path[len(prefix):])])
        for prefix, weak in (("/feeds/", False), ("/weak/", True)):
            if path.startswith(prefix):
                name = os.path.basename(path[len(prefix):])
                file = os.path.join(FEEDS, name)
                if not name or not os.path.isfile(file):
                    break
                with open(file, "rb") as handle:
                    body = handle.read()
                etag = ('W/' if weak else '') + '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
                headers = [("ETag", etag), ("Last-Modified", LAST_MODIFIED)]
                if self.headers.get("If-None-Match") == etag or self.headers.get("If-Modified-Since") == LAST_MODIFIED:
                    return self.send(304, b"", headers)
                kind = "application/feed+json" if name.endswith(".json") else "application/xml"
                return self.send(200, body, headers + [("Content-Type", kind)])
        self.send(404, b"not found\n", [("Content-Type", "text/plain")])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--idle-timeout", type=float, default=600)
    # Accepted and unused: the Swift tests start every loopback server alike (MastodonTestServer).
    parser.add_argument("--statuses", type=int, default=0)
    options = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)

    def watch():
        while time.monotonic() - Handler.last_request[0] < options.idle_timeout:
            time.sleep(1)
        server.shutdown()

    threading.Thread(target=watch, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
