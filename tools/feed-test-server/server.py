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

Feeds a test changes as it goes (for `timeline sync`), set through the control calls that
every loopback server of the tests answers (MastodonTestServer.control):

  POST /_control/feed      {"path": "/dyn/a.xml", "body": "<rss…>", "status": 200,
                           "validators": "strong" | "weak" | "last-modified" | "none",
                           "retry_after": "3600", "location": "/dyn/b.xml", "delay": 0.5}
                           serves `path` so from now on: a 200 with the body and the validators
                           asked for (a 304 when the request's match), or `status` with its
                           Retry-After or Location; `delay` seconds before answering; `gather` N:
                           held until N requests were in flight at once (at most 10 s)
  GET  /_control/requests  the requests so far, as one JSON array
  GET  /_control/state     {"most_in_flight": n}: the most requests answered at once
  POST /_control/reset     forgets the requests and the most in flight
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
    routes = {}
    lock = threading.Lock()
    flight = {"now": 0, "most": 0}

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_json(self, value):
        self.send(200, json.dumps(value).encode(), [("Content-Type", "application/json")])

    def do_POST(self):
        Handler.last_request[0] = time.monotonic()
        path = self.path.split("?")[0]
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"null")
        if path == "/_control/feed":
            with Handler.lock:
                Handler.routes[body["path"]] = body
            return self.send_json({"ok": True})
        if path == "/_control/reset":
            with Handler.lock:
                Handler.log.clear()
                Handler.flight["most"] = 0
            return self.send_json({"ok": True})
        self.send(404, b"not found\n", [("Content-Type", "text/plain")])

    def dynamic(self, route):
        """Answers a path set by /_control/feed, counting the requests in flight meanwhile."""
        with Handler.lock:
            Handler.flight["now"] += 1
            Handler.flight["most"] = max(Handler.flight["most"], Handler.flight["now"])
        try:
            time.sleep(float(route.get("delay") or 0))
            # `gather`: held until that many requests are in flight at once (or 10 s), so that a
            # test proves concurrency by what overlapped, whatever the machine's load, not by time.
            gather = int(route.get("gather") or 0)
            deadline = time.monotonic() + 10
            while gather and time.monotonic() < deadline:
                with Handler.lock:
                    if Handler.flight["most"] >= gather:
                        break
                time.sleep(0.01)
            status = int(route.get("status") or 200)
            if status != 200:
                headers = []
                if route.get("retry_after") is not None:
                    headers.append(("Retry-After", str(route["retry_after"])))
                if route.get("location") is not None:
                    headers.append(("Location", route["location"]))
                return self.send(status, b"", headers)
            body = route.get("body", "").encode()
            kind = route.get("validators") or "none"
            digest = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            headers = []
            if kind in ("strong", "weak"):
                headers.append(("ETag", ("W/" if kind == "weak" else "") + digest))
            if kind == "last-modified":
                headers.append(("Last-Modified", LAST_MODIFIED))
            etag = headers[0][1] if kind in ("strong", "weak") else None
            if (etag and self.headers.get("If-None-Match") == etag) or \
                    (kind == "last-modified" and self.headers.get("If-Modified-Since") == LAST_MODIFIED):
                return self.send(304, b"", headers)
            return self.send(200, body, headers + [("Content-Type", "application/xml")])
        finally:
            with Handler.lock:
                Handler.flight["now"] -= 1

    def do_GET(self):
        Handler.last_request[0] = time.monotonic()
        path = self.path.split("?")[0]
        if path == "/_control/requests":
            with Handler.lock:
                return self.send_json(list(Handler.log))
        if path == "/_control/state":
            with Handler.lock:
                return self.send_json({"most_in_flight": Handler.flight["most"]})
        if path == "/requests":
            lines = "".join(json.dumps(entry) + "\n" for entry in Handler.log)
            return self.send(200, lines.encode(), [("Content-Type", "application/x-ndjson")])
        Handler.log.append({"path": path, "if_none_match": self.headers.get("If-None-Match"),
                            "if_modified_since": self.headers.get("If-Modified-Since"),
                            "user_agent": self.headers.get("User-Agent")})
        with Handler.lock:
            route = Handler.routes.get(path)
        if route is not None:
            return self.dynamic(route)
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
