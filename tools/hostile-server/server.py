#!/usr/bin/env python3
"""A scripted loopback server that answers what a test tells it to, for the tests of how
timeline stands up to hostile or broken servers (issue 24): oversized posts, tokens quoted
back, slow and trickling answers, streams that end at once or fall silent, addresses that
lead to plain http. Python 3 standard library only.

It binds 127.0.0.1 or ::1 only, prints `PORT <n>` on its first line of standard output once
it listens, and stops by itself when idle or when the process that started it is gone. With
`--tls` it also listens for plain http on a second port (`PLAIN <n>`, the second line), sharing
the routes and the record: the control calls go there, and a test can name it as the plain-http
address a hostile https server hands out.

Control (no authentication; never recorded):
  POST /_control/routes    {"/path": ANSWER or [ANSWER, …]}: answers for a path (the query is
                           ignored), used in order, the last one for every later request
  GET  /_control/requests  every other request: method, path, query, authorization (the
                           header's value: this server is a test's own), scheme, started_at,
                           and once answered ended_at and outcome (sent, closed by the client,
                           dropped)

An ANSWER is an object:
  status     the status code (default 200)
  headers    {"Name": "value"}
  body       the body, a string; `{AUTH}` is replaced by the request's Authorization value,
             `{N}` by how many requests to this path came before, `{ID}` by 1000000 - N,
             `{BASE}` by this server's own scheme://host:port
  repeat     {"text": "…", "count": n}: the body is the text n times (after templating), for
             large bodies without sending them through the control call
  delay      seconds before the head
  body_base64  the body as base64, for binary bodies (a picture); replaces `body`
  trickle    bytes a second: the body is sent one byte at a time at this rate
  hold       seconds the connection stays open after the body (a stream), silent
  drop       true: the connection is closed without an answer
Without a route, a path is answered 404.
"""

import argparse
import base64
import json
import os
import socket
import ssl
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def handle_any(self, method):
        server = self.server.state
        server.touch()
        split = urllib.parse.urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if split.path == "/_control/routes" and method == "POST":
            with server.lock:
                for path, answers in json.loads(body or b"{}").items():
                    server.routes[path] = answers if isinstance(answers, list) else [answers]
            return self.answer({"status": 200, "body": "{}"}, {})
        if split.path == "/_control/requests":
            with server.lock:
                text = json.dumps(server.requests)
            return self.answer({"status": 200, "body": text}, {})
        with server.lock:
            count = server.counts.get(split.path, 0)
            server.counts[split.path] = count + 1
            record = {
                "method": method, "path": split.path, "query": split.query,
                "authorization": self.headers.get("Authorization"),
                "scheme": "https" if self.server.tls else "http", "started_at": time.time(),
            }
            server.requests.append(record)
            answers = server.routes.get(split.path)
            answer = None if not answers else answers[min(count, len(answers) - 1)]
        if answer is None:
            return self.answer({"status": 404, "body": '{"error":"no route"}'}, {})
        values = {
            "{AUTH}": self.headers.get("Authorization") or "",
            "{N}": str(count),
            "{ID}": str(1000000 - count),
            "{BASE}": "%s://%s" % ("https" if self.server.tls else "http", self.headers.get("Host")),
        }
        outcome = self.answer(answer, values)
        with server.lock:
            record["ended_at"] = time.time()
            record["outcome"] = outcome

    def answer(self, answer, values):
        """Sends `answer`; returns "sent", or "closed" when the client went away first."""
        def fill(text):
            for key, value in values.items():
                text = text.replace(key, value)
            return text

        if answer.get("delay"):
            time.sleep(float(answer["delay"]))
        if answer.get("drop"):
            self.close_connection = True
            return "dropped"
        text = fill(answer.get("body", ""))
        repeat = answer.get("repeat")
        if repeat:
            text += fill(repeat["text"]) * int(repeat["count"])
            text += fill(answer.get("after", ""))
        body = text.encode()
        if answer.get("body_base64"):
            body = base64.b64decode(answer["body_base64"])
        try:
            self.send_response(int(answer.get("status", 200)))
            headers = {k: fill(v) for k, v in answer.get("headers", {}).items()}
            headers.setdefault("Content-Type", "application/json; charset=utf-8")
            for name, value in headers.items():
                self.send_header(name, value)
            hold = float(answer.get("hold", 0))
            if not hold:
                self.send_header("Content-Length", str(len(body)))
            else:
                self.send_header("Connection", "close")
            self.end_headers()
            rate = answer.get("trickle")
            if rate:
                for index in range(len(body)):
                    self.wfile.write(body[index:index + 1])
                    self.wfile.flush()
                    time.sleep(1.0 / float(rate))
            else:
                self.wfile.write(body)
                self.wfile.flush()
            if hold:
                time.sleep(hold)
                self.close_connection = True
            return "sent"
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            self.close_connection = True
            return "closed"


class State:
    """What the listeners share: the routes, the counts, the record."""

    def __init__(self):
        self.lock = threading.Lock()
        self.routes = {}
        self.counts = {}
        self.requests = []
        self.last_activity = time.monotonic()

    def touch(self):
        self.last_activity = time.monotonic()


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, family, tls, state):
        self.address_family = family
        self.tls = tls
        self.state = state
        super().__init__(address, Handler)


def watchdog(state, idle_timeout, parent):
    """Ends the process when idle for `idle_timeout` seconds or when the parent died."""
    while True:
        time.sleep(0.25)
        if os.getppid() != parent or time.monotonic() - state.last_activity > idle_timeout:
            os._exit(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="127.0.0.1 (default) or ::1; nothing else")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--idle-timeout", type=float, default=120.0)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="serve https with this certificate")
    arguments = parser.parse_args()
    if arguments.host not in ("127.0.0.1", "::1"):
        parser.error("--host must be 127.0.0.1 or ::1: this server is for loopback tests only")
    family = socket.AF_INET6 if arguments.host == "::1" else socket.AF_INET
    state = State()
    server = Server((arguments.host, arguments.port), family, arguments.tls is not None, state)
    lines = ["PORT %d" % server.server_address[1]]
    if arguments.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*arguments.tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        plain = Server((arguments.host, 0), family, False, state)
        threading.Thread(target=plain.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
        lines.append("PLAIN %d" % plain.server_address[1])
    threading.Thread(target=watchdog, args=(state, arguments.idle_timeout, os.getppid()), daemon=True).start()
    sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
