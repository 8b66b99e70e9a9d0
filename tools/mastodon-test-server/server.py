#!/usr/bin/env python3
"""A loopback Mastodon API server for timeline's tests (Python 3 standard library only).

It serves a home timeline, notifications, markers, posting, OAuth and a server-sent event
stream from fixture data (real statuses from Fixtures/realdata plus generated ones), with real
paging and headers, and can be told to misbehave (429, 206, 401, 500, slow, cut bodies). It
binds 127.0.0.1 or ::1 only, prints `PORT <n>` on its first line of standard output once it
listens, and stops by itself when idle or when the process that started it is gone.

See README.md beside it for the endpoints and the control interface.
"""

import argparse
import base64
import copy
import hashlib
import html
import json
import os
import queue
import random
import re
import secrets
import socket
import sys
import threading
import time
import urllib.parse
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
REALDATA = os.path.join(REPOSITORY, "Fixtures", "realdata")

# The newest generated status is at this time; older ones go back a minute each. Fixed, so that
# two runs serve the same IDs and the tests can name them.
NEWEST_TIME = datetime(2024, 3, 1, 12, 0, 0, tzinfo=timezone.utc)
DEFAULT_TOKEN = "loopback-test-token-0123456789abcdef"
OOB = "urn:ietf:wg:oauth:2.0:oob"


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


# The shape of the IDs this server hands out (`--id-shape`): what real servers send.
ID_SHAPE = "snowflake"
ID_SHAPES = ["snowflake", "ulid", "flake", "uuid7", "aid"]
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def digits(number, alphabet, width):
    text = ""
    while number:
        number, digit = divmod(number, len(alphabet))
        text = alphabet[digit] + text
    return text.rjust(width, alphabet[0])


def snowflake(moment, sequence):
    """An ID for something made at `moment`, in the shape `ID_SHAPE` says; every shape sorts
    by time as a string (and Mastodon's as a number too), as the servers that use it do:

    - `snowflake`: Mastodon's, milliseconds since the epoch shifted left 16 bits plus a sequence
      (`111949404006481920`);
    - `ulid`: GoToSocial's ULID, 26 Crockford base-32 characters (`01HQ8Z5J2K3M4N5P6Q7R8S9T0V`);
    - `flake`: Pleroma's and Akkoma's flake ID, 128 bits (time, worker, sequence) in base 62,
      18 characters (`AfP8Rz3bqLhE7Dk2mN`);
    - `uuid7`: Mitra's UUIDv7 (`018e0d4e-5b7a-7c3d-9f1e-2a3b4c5d6e7f`);
    - `aid`: Misskey's and Sharkey's aid, base-36 milliseconds since 2000 and two more
      characters, 10 in all (`9pq7h5dl3x`)."""
    milliseconds = int(moment.timestamp() * 1000)
    noise = int(hashlib.sha256(b"%d/%d" % (milliseconds, sequence)).hexdigest(), 16)
    if ID_SHAPE == "ulid":
        return digits((milliseconds << 80) | (noise & ((1 << 80) - 1)), CROCKFORD, 26)
    if ID_SHAPE == "flake":
        return digits((milliseconds << 64) | ((noise & 0xFFFFFFFFFFFF) << 16) | (sequence & 0xFFFF), BASE62, 18)
    if ID_SHAPE == "uuid7":
        value = (milliseconds << 80) | (0x7 << 76) | ((sequence & 0xFFF) << 64) | (0b10 << 62) | (noise & ((1 << 62) - 1))
        text = "%032x" % value
        return "-".join([text[:8], text[8:12], text[12:16], text[16:20], text[20:]])
    if ID_SHAPE == "aid":
        return digits(milliseconds - 946684800000, BASE36, 8) + digits(sequence % (36 * 36), BASE36, 2)
    return str((milliseconds << 16) | (sequence & 0xFFFF))


def shuffled(value, generator):
    """`value` with every object's keys in a random order: JSON objects are unordered, and
    servers write their keys in orders of their own (`id` need not come first)."""
    if isinstance(value, dict):
        items = list(value.items())
        generator.shuffle(items)
        return {key: shuffled(item, generator) for key, item in items}
    if isinstance(value, list):
        return [shuffled(item, generator) for item in value]
    return value


def id_order(value):
    """How the server orders its IDs: as numbers when they are digits, else as strings (every
    other shape above sorts by time as a string)."""
    return (0, int(value), "") if value.isdigit() else (1, 0, value)


def load_json(relative):
    with open(os.path.join(REALDATA, relative), encoding="utf-8") as handle:
        return json.load(handle)


def stringify_ids(value):
    """Mastodon before 2.0 sent integer IDs; a modern server sends strings."""
    if isinstance(value, dict):
        for key, item in list(value.items()):
            if (key == "id" or key.endswith("_id")) and isinstance(item, int) and not isinstance(item, bool):
                value[key] = str(item)
            else:
                stringify_ids(item)
    elif isinstance(value, list):
        for item in value:
            stringify_ids(item)
    return value


class Data:
    """Everything the server knows, behind one lock."""

    def __init__(self, status_count, seed, token):
        self.lock = threading.Lock()
        self.random = random.Random(seed)
        self.sequence = 0
        self.clock = NEWEST_TIME
        self.me = self.make_account("1", "tester", "Loopback Tester")
        self.people = [self.make_account(str(100 + n), "user%d" % n, "Generated User %d" % n,
                                         domain="example.test" if n % 3 == 0 else None)
                       for n in range(12)]
        self.statuses = []          # newest first
        self.by_id = {}
        self.notifications = []     # newest first
        self.markers = {}
        self.apps = {}              # client_id -> app
        self.codes = {}             # authorization code -> grant
        self.tokens = {token: {"client_id": None, "scope": "read write"}} if token else {}
        self.revoked = []           # sha256 of revoked tokens
        self.idempotency = {}       # (token, key) -> status
        self.bookmarks = []         # bookmarked statuses, newest bookmark first
        self.follows = []           # {"id": follow ID, "account": …}, newest follow first
        self.follow_sequence = 0
        # Issue 34: {"id": the mute's or block's own ID, "account": …, "expires_at"}, newest
        # first (paged by their own IDs, as follows are); v2 filters; reports as received.
        self.mutes = []
        self.blocks = []
        self.moderation_sequence = 0
        self.filters = []
        self.filter_sequence = 0
        self.reports = []
        # Accounts of other servers the server has not seen: lookup does not know them, a search
        # with resolve=true fetches them (as Mastodon asks the handle's own server).
        self.remote = {"faraway@remote.example": self.make_account("900", "faraway", "Far Away", domain="remote.example"),
                       "hostile@remote.example": self.make_account("901", "hostile", "Evil\x1b[2J\x1b]0;pwned\x07 Name",
                                                                   domain="remote.example")}
        self.requests = []
        self.faults = []
        self.effects = []         # {"id", "action"} for each status action that changed a flag
        self.settings = {"rate_limit": 300, "rate_window": 300, "pkce": True, "marker_conflicts": 0,
                         "streaming": True, "heartbeat": 10.0, "missing": [], "missing_as": "404-html",
                         "token_refusal": "401", "classic_scopes_only": False, "shuffle_keys": False,
                         "api_versions": None, "grouped_notifications": False}
        # Issue 37: direct-message conversations ({id, unread, accounts, last_status}), newest
        # first; made by the control call `conversations`.
        self.conversations = []
        self.notification_requests = []   # NotificationRequest entities (Mastodon 4.3), newest first
        self.made_lists = {}              # list ID -> {"list": List entity, "accounts": [account IDs]}
        self.rate_used = 0
        self.rate_window_start = time.time()
        self.streams = []           # queues of connected event streams
        self.build(status_count)

    # -- fixture data ------------------------------------------------------------------------

    def make_account(self, account_id, username, display_name, domain=None):
        return {
            "id": account_id, "username": username,
            "acct": username if domain is None else "%s@%s" % (username, domain),
            "display_name": display_name, "locked": False, "bot": False, "discoverable": True,
            "group": False, "created_at": "2023-01-01T00:00:00.000Z", "note": "",
            "url": "https://%s/@%s" % (domain or "loopback.test", username),
            "avatar": "https://loopback.test/avatars/%s.png" % username,
            "avatar_static": "https://loopback.test/avatars/%s.png" % username,
            "header": "", "header_static": "", "followers_count": 10, "following_count": 10,
            "statuses_count": 100, "last_status_at": "2024-03-01", "emojis": [], "fields": [],
        }

    def next_identity(self, newer):
        """An ID and time for a status: older than every one so far while building, newer
        than every one afterwards (statuses that arrive later)."""
        self.sequence += 1
        if newer:
            newest = self.statuses[0]["created_at"] if self.statuses else iso(NEWEST_TIME)
            moment = max(datetime.fromisoformat(newest.replace("Z", "+00:00")), NEWEST_TIME) + timedelta(seconds=60)
        else:
            moment = self.clock
            self.clock -= timedelta(seconds=60)
        return snowflake(moment, self.sequence), iso(moment)

    def real_statuses(self):
        found = []
        for relative in ["mastodon4j/public_timeline.json", "mastodon4j/tag.json", "tokodon/statuses.json",
                         "tokodon/statuses-older.json"]:
            try:
                found.extend(load_json(relative))
            except (OSError, ValueError):
                pass
        for relative in ["TootSDK/post with emojis and attachments.json", "TootSDK/post wordle linebreaks.json",
                         "TootSDK/post_akkoma_quote.json"]:
            try:
                found.append(load_json(relative))
            except (OSError, ValueError):
                pass
        return [stringify_ids(copy.deepcopy(status)) for status in found]

    def generated_status(self, number, status_id, created_at):
        author = self.people[number % len(self.people)]
        text = "Generated status %d: %s" % (number, self.random.choice(
            ["good morning", "coffee time", "reading about SQLite", "shipping today", "天気がいい",
             "a #rust and #swift thread", "long walk", "new release of timeline"]))
        status = {
            "id": status_id, "created_at": created_at, "in_reply_to_id": None,
            "in_reply_to_account_id": None, "sensitive": False, "spoiler_text": "",
            "visibility": "public", "language": "en",
            "uri": "https://loopback.test/users/%s/statuses/%s" % (author["username"], status_id),
            "url": "https://loopback.test/@%s/%s" % (author["username"], status_id),
            "replies_count": number % 4, "reblogs_count": number % 7, "favourites_count": number % 11,
            "edited_at": None, "content": "<p>%s</p>" % text, "reblog": None, "application": None,
            "account": author, "media_attachments": [], "mentions": [], "tags": [], "emojis": [],
            "card": None, "poll": None,
        }
        if number % 9 == 4:
            status["spoiler_text"] = "spoilers for %d" % number
            status["sensitive"] = True
        if number % 9 == 7:
            # Mastodon 4.3 can send a content warning with HTML in it (entities, markup).
            status["spoiler_text"] = "Spoilers for <i>Dune</i> &amp; its ending (%d)" % number
            status["sensitive"] = True
        if number % 10 == 3:
            # A remote file Mastodon could not fetch or does not know: type `unknown`, no `url`.
            status["media_attachments"] = [{
                "id": "%d" % (900000 + number), "type": "unknown", "url": None, "preview_url": None,
                "remote_url": "https://remote.example/media/%d.bin" % number, "preview_remote_url": None,
                "text_url": None, "meta": None, "description": "a file from far away", "blurhash": None}]
        return status

    def build(self, status_count):
        real = self.real_statuses()
        # Real statuses first (the newest), then generated ones, each given this server's ID.
        for index in range(status_count):
            status_id, created_at = self.next_identity(newer=False)
            if index < len(real):
                status = real[index]
                status["id"], status["created_at"] = status_id, created_at
                status["uri"] = status.get("uri") or "https://loopback.test/statuses/%s" % status_id
                if isinstance(status.get("reblog"), dict):
                    self.sequence += 1
                    status["reblog"]["id"] = snowflake(datetime(2020, 1, 1, tzinfo=timezone.utc), self.sequence)
            else:
                status = self.generated_status(index, status_id, created_at)
                if index % 13 == 6 and self.statuses:
                    original = copy.deepcopy(self.statuses[-1])
                    original["reblog"] = None
                    status["reblog"], status["content"] = original, ""
            self.statuses.append(status)
            self.by_id[status_id] = status
        self.build_notifications()

    def build_notifications(self):
        try:
            real = stringify_ids(load_json("tokodon/notifications.json"))
        except (OSError, ValueError):
            real = []
        kinds = ["favourite", "reblog", "mention", "follow", "status", "poll", "update"]
        count = max(30, len(real))
        moment = NEWEST_TIME
        for index in range(count):
            self.sequence += 1
            moment -= timedelta(seconds=90)
            if index < len(real):
                notification = real[index]
            else:
                kind = kinds[index % len(kinds)]
                notification = {"type": kind, "account": self.people[index % len(self.people)], "status": None}
                if kind != "follow" and self.statuses:
                    notification["status"] = copy.deepcopy(self.statuses[index % len(self.statuses)])
            notification["id"] = snowflake(moment, self.sequence)
            notification["created_at"] = iso(moment)
            self.notifications.append(notification)

    # -- changes while running ---------------------------------------------------------------

    def add_status(self, status):
        self.statuses.insert(0, status)
        self.by_id[status["id"]] = status
        self.broadcast("update", status)

    def add_generated(self, count):
        added = []
        for _ in range(count):
            status_id, created_at = self.next_identity(newer=True)
            status = self.generated_status(len(self.by_id), status_id, created_at)
            self.add_status(status)
            added.append(status_id)
        return added

    def add_reply(self, parent_id, home=False):
        """A reply to `parent_id` by someone else; in the home timeline only when `home`."""
        status_id, created_at = self.next_identity(newer=True)
        status = self.generated_status(len(self.by_id) + 1, status_id, created_at)
        status["in_reply_to_id"] = parent_id
        status["in_reply_to_account_id"] = self.by_id[parent_id]["account"]["id"]
        status["content"] = "<p>a reply %s</p>" % status_id
        if home:
            self.add_status(status)
        else:
            self.by_id[status_id] = status
        return status_id

    def add_conversations(self, count):
        """`count` conversations, each of one direct status of one of the people to the tester
        (not in the home timeline), newest first; every other one unread. The first's text holds
        an escape sequence, as a hostile sender's would."""
        made = []
        for number in range(count):
            status_id, created_at = self.next_identity(newer=False)
            status = self.generated_status(number, status_id, created_at)
            person = self.people[number % len(self.people)]
            text = "direct %d \x1b[2Jhello" % number if number == 0 else "direct message %d" % number
            status.update({"visibility": "direct", "account": person, "content": "<p>%s</p>" % text,
                           "mentions": [{"id": self.me["id"], "username": "tester", "acct": "tester",
                                         "url": "https://loopback.test/@tester"}]})
            self.by_id[status_id] = status
            made.append({"id": str(5000 + len(self.conversations) + number), "unread": number % 2 == 0,
                         "accounts": [person], "last_status": status})
        self.conversations = sorted(self.conversations + made, key=lambda c: id_order(c["last_status"]["id"]), reverse=True)
        return [c["id"] for c in made]

    def add_thread(self, ancestor_count, reply_count):
        """A conversation: `ancestor_count` statuses, each replying to the one before, that the
        home timeline does not hold; then the focal status replying to the last of them, on top
        of the home timeline; then `reply_count` replies, every other one to the reply before
        (a branch), none of them in the home timeline. The context endpoint serves it."""
        ancestors, parent = [], None
        for _ in range(ancestor_count):
            status_id, created_at = self.next_identity(newer=True)
            status = self.generated_status(len(self.by_id) + 1, status_id, created_at)
            status["in_reply_to_id"] = parent
            status["content"] = "<p>an ancestor %s</p>" % status_id
            self.by_id[status_id] = status
            ancestors.append(status_id)
            parent = status_id
        status_id, created_at = self.next_identity(newer=True)
        focal = self.generated_status(len(self.by_id) + 1, status_id, created_at)
        focal["in_reply_to_id"] = parent
        focal["reblog"] = None
        focal["content"] = "<p>the focal status %s</p>" % status_id
        self.add_status(focal)
        replies, target = [], status_id
        for index in range(reply_count):
            reply = self.add_reply(target)
            replies.append(reply)
            target = reply if index % 2 == 0 else status_id
        return {"ancestors": ancestors, "focal": status_id, "replies": replies}

    def add_notifications(self, count):
        added = []
        for index in range(count):
            self.sequence += 1
            newest = self.notifications[0]["created_at"] if self.notifications else iso(NEWEST_TIME)
            moment = datetime.fromisoformat(newest.replace("Z", "+00:00")) + timedelta(seconds=30)
            notification = {"id": snowflake(moment, self.sequence), "created_at": iso(moment),
                            "type": "favourite", "account": self.people[index % len(self.people)],
                            "status": copy.deepcopy(self.statuses[0]) if self.statuses else None}
            self.notifications.insert(0, notification)
            self.broadcast("notification", notification)
            added.append(notification["id"])
        return added

    def known_accounts(self):
        return [self.me] + self.people + [follow["account"] for follow in self.follows]

    def broadcast(self, event, payload):
        text = payload if isinstance(payload, str) else json.dumps(payload)
        for stream in list(self.streams):
            stream.put((event, text))

    def rate_headers(self):
        now = time.time()
        window = self.settings["rate_window"]
        if now - self.rate_window_start >= window:
            self.rate_window_start, self.rate_used = now, 0
        self.rate_used += 1
        limit = self.settings["rate_limit"]
        reset = datetime.fromtimestamp(self.rate_window_start + window, tz=timezone.utc)
        return {"X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": str(max(0, limit - self.rate_used)),
                "X-RateLimit-Reset": iso(reset)}, self.rate_used > limit, reset


def find_status(values, status_id):
    """The status object with ID `status_id` anywhere inside `values` (a quote, a reblog)."""
    for value in values:
        if isinstance(value, dict):
            if value.get("id") == status_id and "account" in value:
                return value
            found = find_status(value.values(), status_id)
            if found is not None:
                return found
        elif isinstance(value, list):
            found = find_status(value, status_id)
            if found is not None:
                return found
    return None


def page(items, query, default_limit, maximum_limit):
    """Mastodon's paging: newest first; max_id (older than), since_id (newer than, the newest
    ones), min_id (newer than, the ones just above it). IDs are compared here as the server's
    shape orders them (`id_order`), because this is the server: clients must treat them as
    opaque strings."""
    def number(name):
        value = query.get(name, [None])[0]
        return id_order(value) if value not in (None, "") else None

    try:
        limit = int(query.get("limit", [default_limit])[0])
    except ValueError:
        limit = default_limit
    limit = max(1, min(limit, maximum_limit))
    max_id, since_id, min_id = number("max_id"), number("since_id"), number("min_id")
    selected = [item for item in items
                if (max_id is None or id_order(item["id"]) < max_id)
                and (since_id is None or id_order(item["id"]) > since_id)
                and (min_id is None or id_order(item["id"]) > min_id)]
    if min_id is not None and max_id is None and since_id is None:
        return selected[-limit:]
    return selected[:limit]


def with_filtered(status, filters, context):
    """`status` with its `filtered` results (FilterResult: `filter`, `keyword_matches`,
    `status_matches`) for the filters of `context` whose keywords its text or content warning
    holds, as Mastodon 4 computes them for the account that asks: a keyword is literal
    (`Regexp.escape`), case-insensitive, and with `whole_word` bounded by `\\b` where it begins or
    ends with a word character. A status without a match is returned as it is."""
    if not filters:
        return status
    text = html.unescape(re.sub(r"<[^>]*>", " ", status.get("content") or "")) + "\n" + (status.get("spoiler_text") or "")
    results = []
    for filter in filters:
        if context not in filter.get("context", []):
            continue
        matches = []
        for keyword in filter.get("keywords", []):
            word = keyword["keyword"]
            pattern = re.escape(word)
            if keyword.get("whole_word", True):
                pattern = (r"\b" if re.match(r"\w", word) else "") + pattern + (r"\b" if re.search(r"\w$", word) else "")
            if re.search(pattern, text, re.IGNORECASE):
                matches.append(word)
        statuses = [entry["id"] for entry in filter.get("statuses", []) if entry.get("status_id") == status["id"]]
        if matches or statuses:
            results.append({"filter": filter, "keyword_matches": matches or None, "status_matches": statuses or None})
    return status | {"filtered": results} if results else status


def link_header(base, path, query, result):
    if not result:
        return None
    kept = {key: value for key, value in query.items()
            if key not in ("max_id", "since_id", "min_id") and not key.startswith("_")}

    def url(extra):
        parameters = [(key, item) for key, values in kept.items() for item in values] + extra
        return "%s%s?%s" % (base, path, urllib.parse.urlencode(parameters))

    return '<%s>; rel="next", <%s>; rel="prev"' % (url([("max_id", result[-1]["id"])]),
                                                   url([("min_id", result[0]["id"])]))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "LoopbackMastodon/1.0"

    def log_message(self, format, *args):
        if self.server.verbose:
            sys.stderr.write("%s\n" % (format % args))

    # -- plumbing ----------------------------------------------------------------------------

    @property
    def data(self):
        return self.server.data

    def base_url(self):
        host = self.headers.get("Host") or "%s:%d" % self.server.server_address[:2]
        return "%s://%s" % ("https" if self.server.tls else "http", host)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def parameters(self, body):
        """Form or JSON parameters, flattened the way Rails reads `home[last_read_id]`."""
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        if content_type == "application/json" and body:
            try:
                value = json.loads(body)
            except ValueError:
                return None
            return value if isinstance(value, dict) else None
        parsed = urllib.parse.parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
        flat = {}
        for key, values in parsed.items():
            if "[" in key and key.endswith("]"):
                outer, inner = key[:-1].split("[", 1)
                flat.setdefault(outer, {})[inner] = values[-1]
            else:
                flat[key] = values[-1]
        return flat

    def send(self, status, body=b"", headers=None, content_type="application/json; charset=utf-8"):
        if getattr(self, "hold_answer", None):
            time.sleep(self.hold_answer)
            self.hold_answer = None
        if isinstance(body, (dict, list)):
            # Not under `data.lock`: some handlers answer while holding it; reading one key is atomic.
            shuffle = self.data.settings["shuffle_keys"]
            body = json.dumps(shuffled(body, random.Random()) if shuffle else body).encode("utf-8")
        elif isinstance(body, str):
            body = body.encode("utf-8")
        self.send_response(status)
        if body or status not in (204, 304):
            self.send_header("Content-Type", content_type)
        for name, value in (headers.items() if isinstance(headers, dict) else headers or []):
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        record = getattr(self, "record", None)
        if record is not None:
            self.wfile.flush()
            # Wall-clock seconds, comparable with a file's modification time (the bench measures
            # from the last page's answer to the snapshot written after it). Not under
            # `data.lock`: some handlers answer while holding it, and one key's assignment is
            # atomic in CPython.
            record["answered_at"] = time.time()

    def error(self, status, message, headers=None):
        self.send(status, {"error": message}, headers)

    def token(self):
        header = self.headers.get("Authorization") or ""
        return header[7:] if header.startswith("Bearer ") else None

    def authorized(self):
        token = self.token()
        with self.data.lock:
            return token is not None and token in self.data.tokens

    # -- dispatch ----------------------------------------------------------------------------

    def do_GET(self):
        self.handle_any()

    def do_POST(self):
        self.handle_any()

    def do_PUT(self):
        self.handle_any()

    def do_DELETE(self):
        self.handle_any()

    def handle_any(self):
        self.record = None          # this request's entry in `requests` (none for control calls)
        self.server.touch()
        split = urllib.parse.urlsplit(self.path)
        path, query = split.path, urllib.parse.parse_qs(split.query, keep_blank_values=True)
        body = self.read_body()
        if path.startswith("/_control/"):
            return self.control(path, query, body)
        self.record = {
            "method": self.command, "path": path, "query": split.query,
            "has_authorization": self.headers.get("Authorization") is not None,
            "idempotency_key": self.headers.get("Idempotency-Key"),
            "content_type": self.headers.get("Content-Type"), "body_length": len(body),
            "user_agent": self.headers.get("User-Agent"),
        }
        with self.data.lock:
            self.data.requests.append(self.record)
        if self.query_fault(path, query, body):
            return
        if self.queued_fault(path):
            return
        if path == "/_echo":
            return self.echo(path, split.query, body)
        if path == "/_bytes":
            return self.byte_pattern(query)
        if path == "/_redirect":
            return self.send(302, b"", {"Location": self.base_url() + "/_echo"})
        if path == "/_sse":
            return self.test_events(query)
        if self.missing_endpoint(path):
            return
        route = ROUTES.get((self.command, path))
        if route is None and path.startswith("/api/v1/statuses/") and path.endswith("/source") and self.command == "GET":
            route = Handler.status_source
        if route is None and path.startswith("/api/v1/statuses/") and path.endswith("/context") and self.command == "GET":
            route = Handler.status_context
        if route is None and path.startswith("/api/v1/scheduled_statuses/") and self.command == "DELETE":
            route = Handler.unschedule
        if route is None and path.startswith("/api/v1/statuses/") and self.command == "GET":
            route = Handler.status_by_id
        if route is None and path.startswith("/api/v1/statuses/") and self.command == "PUT":
            route = Handler.edit_status
        if route is None and path.startswith("/api/v1/polls/") and path.endswith("/votes") and self.command == "POST":
            route = Handler.vote
        if route is None and path.startswith("/api/v1/statuses/") and self.command == "DELETE":
            route = Handler.delete_status
        if route is None and path.startswith("/api/v1/statuses/") and self.command == "POST" \
                and path.rsplit("/", 1)[-1] in Handler.STATUS_ACTIONS:
            route = Handler.status_action
        if route is None and path.startswith("/api/v1/accounts/") and self.command == "POST" \
                and path.rsplit("/", 1)[-1] in ("follow", "unfollow"):
            route = Handler.account_follow
        if route is None and path.startswith("/api/v1/accounts/") and self.command == "POST" \
                and path.rsplit("/", 1)[-1] in ("mute", "unmute", "block", "unblock"):
            route = Handler.account_moderate
        if route is None and path.startswith("/api/v2/filters/keywords/") and self.command == "DELETE":
            route = Handler.delete_filter_keyword
        if route is None and path.startswith("/api/v2/filters/") and self.command == "DELETE":
            route = Handler.delete_filter
        if route is None and path.startswith("/api/v1/conversations/") and path.endswith("/read") and self.command == "POST":
            route = Handler.conversation_read
        if route is None and path.startswith("/api/v1/timelines/tag/") and self.command == "GET":
            route = Handler.tag_timeline
        if route is None and path.startswith("/api/v1/timelines/list/") and self.command == "GET":
            route = Handler.list_timeline
        if route is None and path.startswith("/api/v1/accounts/") and path.endswith("/following") and self.command == "GET":
            route = Handler.account_following
        if route is None and path.startswith("/api/v1/lists/") and path.endswith("/accounts") and self.command in ("POST", "DELETE"):
            route = Handler.list_accounts
        if route is None and path.startswith("/api/v1/lists/") and path.count("/") == 4 and self.command == "DELETE":
            route = Handler.delete_list
        if route is None:
            return self.error(404, "Record not found")
        return route(self, path, query, body)

    # -- what real servers lack and how they word things -------------------------------------

    def missing_endpoint(self, path):
        """Answers a path the setting `missing` names (a prefix, or a method and a prefix) as a server without that
        endpoint does, as `missing_as` says: `404-html` (Takahē: Django's HTML page), `404`
        (JSON), `405`, `410`, `501`, or `200-html` (a web app's page for any unknown path)."""
        with self.data.lock:
            missing = list(self.data.settings["missing"])
            style = self.data.settings["missing_as"]
        # An entry is a path prefix, or a method and a prefix ("PUT /api/v1/statuses/"): a
        # server that has the path for one method and not another (no edits, but statuses).
        def lacks(entry):
            method, _, prefix = entry.rpartition(" ")
            return path.startswith(prefix) and (not method or method == self.command)
        if not any(lacks(entry) for entry in missing):
            return False
        page = ("<!DOCTYPE html><html><head><title>Page not found at %s</title></head>"
                "<body><h1>Page not found <span>(404)</span></h1></body></html>" % html.escape(path))
        if style == "200-html":
            self.send(200, page, content_type="text/html; charset=utf-8")
        elif style.endswith("-html"):
            self.send(int(style.split("-")[0]), page, content_type="text/html; charset=utf-8")
        else:
            self.error(int(style), "Not implemented" if style == "501" else "Record not found")
        return True

    def refuse_token(self):
        """A token the server does not know, as `token_refusal` says: `401` (Mastodon's JSON),
        `400-html` (Takahē: 400 `Invalid Bearer token` as text/html), `403` (JSON
        `invalid_token`)."""
        with self.data.lock:
            style = self.data.settings["token_refusal"]
        if style == "400-html":
            return self.send(400, "Invalid Bearer token", content_type="text/html; charset=utf-8")
        if style == "403":
            return self.error(403, "invalid_token")
        return self.error(401, "The access token is invalid")

    # -- faults ------------------------------------------------------------------------------

    def query_fault(self, path, query, body):
        """One-off faults asked for in the query string, for transport tests."""
        if "_delay" in query:
            time.sleep(float(query["_delay"][0]))
        if "_status" in query:
            status = int(query["_status"][0])
            self.send(status, {"error": "asked for %d" % status})
            return True
        if "_cut" in query:
            self.cut_body(b'{"truncated": "' + b"x" * 4000 + b'"}')
            return True
        if "_stall" in query:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b'{"stalled":')
            self.wfile.flush()
            time.sleep(float(query["_stall"][0]))
            self.close_connection = True
            return True
        return False

    def cut_body(self, whole):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(whole)))
        self.end_headers()
        self.wfile.write(whole[: len(whole) // 2])
        self.wfile.flush()
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def huge_body(self, size):
        """A JSON array of `size` bytes, announced by its Content-Length and sent in pieces
        until the client hangs up."""
        piece = b'{"id": "1", "content": "' + b"x" * 4000 + b'"},'
        count = max(0, (size - 3) // len(piece))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(1 + count * len(piece) + 2))
        self.end_headers()
        self.close_connection = True
        try:
            self.wfile.write(b"[")
            for _ in range(count):
                self.wfile.write(piece)
            self.wfile.write(b"{}]")
            self.wfile.flush()
        except OSError:
            pass

    def queued_fault(self, path):
        """Faults queued through /_control/faults, for the sync code, which builds its own URLs."""
        with self.data.lock:
            fault = next((f for f in self.data.faults if path.startswith(f.get("path", "/"))
                          and f.get("method", self.command) == self.command), None)
            if fault is None:
                return False
            fault["times"] = fault.get("times", 1) - 1
            if fault["times"] <= 0:
                self.data.faults.remove(fault)
            headers, _, _ = self.data.rate_headers()
        if fault.get("delay"):
            time.sleep(float(fault["delay"]))
        if fault.get("hold"):
            # Done, but the answer held back (`send` waits): a client killed meanwhile never
            # learns that it was done.
            self.hold_answer = float(fault["hold"])
        if fault.get("cut"):
            self.cut_body(b'[{"id": "1", "content": "' + b"x" * 4000 + b'"}]')
            return True
        if fault.get("html"):
            # A web app's page where the API's JSON was asked for (a proxy's, a login wall's).
            page = "<!DOCTYPE html><html><head><title>Sign in</title></head><body><h1>Sign in</h1></body></html>"
            self.send(fault.get("status", 200), page, headers, content_type="text/html; charset=utf-8")
            return True
        if fault.get("huge"):
            self.huge_body(int(fault["huge"]))
            return True
        status = fault.get("status")
        if status is None:
            return False
        if status == 429:
            reset_in = float(fault.get("reset_in", 5))
            reset = datetime.now(timezone.utc) + timedelta(seconds=reset_in)
            headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": iso(reset),
                            "Retry-After": str(max(1, int(round(reset_in))))})
            self.send(429, {"error": "Too many requests"}, headers)
        elif status == 206:
            self.send(206, [], headers)
        elif status == 401:
            self.send(401, {"error": "The access token is invalid"}, headers)
        else:
            self.send(status, fault.get("body", {"error": "fault %d" % status}), headers)
        return True

    # -- test endpoints ----------------------------------------------------------------------

    def echo(self, path, raw_query, body):
        self.send(200, {
            "method": self.command, "path": path, "query": raw_query,
            "headers": [[name, value] for name, value in self.headers.items()],
            "body_base64": base64.b64encode(body).decode("ascii"),
        }, [("X-Echo", "yes"), ("X-Repeated", "one"), ("X-Repeated", "two")])

    def byte_pattern(self, query):
        count = int(query.get("n", ["0"])[0])
        pattern = bytes(range(256))
        whole = (pattern * (count // 256 + 1))[:count]
        if query.get("chunked", ["0"])[0] == "1":
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Transfer-Encoding", "chunked")
            if query.get("trailers", ["0"])[0] == "1":
                self.send_header("Trailer", "X-Checksum")
            self.end_headers()
            for start in range(0, len(whole), 1000):
                piece = whole[start:start + 1000]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n")
            if query.get("trailers", ["0"])[0] == "1":
                self.wfile.write(b"X-Checksum: %s\r\n" % hashlib.sha256(whole).hexdigest().encode())
            self.wfile.write(b"\r\n")
            return
        self.send(200, whole, content_type="application/octet-stream")

    def test_events(self, query):
        count = int(query.get("count", ["3"])[0])
        interval = float(query.get("interval", ["0.1"])[0])
        hold = query.get("then", ["close"])[0] == "hold"
        self.start_events()
        try:
            for number in range(count):
                self.event("tick", json.dumps({"n": number}))
                time.sleep(interval)
            while hold:
                time.sleep(0.2)
                self.wfile.write(b":\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return
        self.close_connection = True

    def start_events(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(b":)\n")
        self.wfile.flush()

    def event(self, name, text):
        self.wfile.write(("event: %s\ndata: %s\n\n" % (name, text)).encode("utf-8"))
        self.wfile.flush()

    # -- control -----------------------------------------------------------------------------

    def control(self, path, query, body):
        try:
            request = json.loads(body) if body else {}
        except ValueError:
            return self.error(400, "control bodies are JSON")
        data = self.data
        with data.lock:
            if path == "/_control/state":
                result = {"statuses": len(data.statuses), "notifications": len(data.notifications),
                          "requests": len(data.requests), "apps": len(data.apps),
                          "valid_tokens": len(data.tokens), "revoked_token_sha256": data.revoked,
                          "markers": data.markers, "settings": data.settings,
                          "newest_status_id": data.statuses[0]["id"] if data.statuses else None,
                          "status_ids": [status["id"] for status in data.statuses], "effects": data.effects}
            elif path == "/_control/requests":
                result = data.requests
            elif path == "/_control/conversations":
                result = {"ids": data.add_conversations(int(request.get("count", 3))), "conversations": data.conversations}
            elif path == "/_control/thread":
                result = data.add_thread(int(request.get("ancestors", 2)), int(request.get("replies", 3)))
            elif path == "/_control/reply":
                result = {"id": data.add_reply(request["to"])}
            elif path == "/_control/filters":
                # The tester's filters, as the web interface makes them: [{"title", "context",
                # "filter_action", "expires_at", "keywords": [{"keyword", "whole_word"}]}];
                # IDs are given here.
                data.filters = []
                for number, made in enumerate(request if isinstance(request, list) else []):
                    data.filters.append({"id": str(20000 + number), "title": made.get("title", ""),
                                         "context": made.get("context", ["home"]), "expires_at": made.get("expires_at"),
                                         "filter_action": made.get("filter_action", "warn"),
                                         "keywords": [{"id": str(30000 + 100 * number + index), "keyword": keyword["keyword"],
                                                       "whole_word": keyword.get("whole_word", True)}
                                                      for index, keyword in enumerate(made.get("keywords", []))],
                                         "statuses": made.get("statuses", [])})
                result = data.filters
            elif path == "/_control/lists":
                result = {list_id: entry["accounts"] for list_id, entry in data.made_lists.items()}
            elif path == "/_control/follows":
                result = [follow["account"]["acct"] for follow in data.follows]
            elif path == "/_control/moderation":
                result = {"mutes": [{"acct": m["account"]["acct"], "expires_at": m["expires_at"]} for m in data.mutes],
                          "blocks": [b["account"]["acct"] for b in data.blocks],
                          "filters": data.filters, "reports": data.reports}
            elif path == "/_control/mute":
                # A mute made elsewhere (the web UI): `acct`, and `count` generated ones for paging.
                for n in range(int(request.get("count", 0))):
                    data.moderation_sequence += 1
                    data.mutes.insert(0, {"id": str(8000 + data.moderation_sequence), "expires_at": None,
                                          "account": data.make_account(str(5000 + data.moderation_sequence), "muted%d" % n,
                                                                       "Muted %d" % n, domain="example.test")})
                if request.get("acct"):
                    account = next(a for a in data.known_accounts() if a["acct"] == request["acct"])
                    data.moderation_sequence += 1
                    data.mutes.insert(0, {"id": str(8000 + data.moderation_sequence), "account": account, "expires_at": None})
                result = {"mutes": len(data.mutes)}
            elif path == "/_control/settings":
                data.settings.update(request)
                result = data.settings
            elif path == "/_control/faults":
                if request == {"clear": True}:
                    data.faults.clear()
                else:
                    data.faults.extend(request if isinstance(request, list) else [request])
                result = data.faults
            elif path == "/_control/statuses":
                result = {"added": data.add_generated(int(request.get("count", 1)))}
            elif path == "/_control/notifications":
                result = {"added": data.add_notifications(int(request.get("count", 1)))}
            elif path == "/_control/notification_requests":
                # Accounts whose notifications the server's filters hold back (Mastodon 4.3).
                data.notification_requests = []
                for index in range(int(request.get("count", 1))):
                    data.sequence += 1
                    moment = NEWEST_TIME - timedelta(minutes=index + 1)
                    status = copy.deepcopy(data.statuses[index % len(data.statuses)]) if data.statuses else None
                    data.notification_requests.append({
                        "id": str(7900 - index), "created_at": iso(moment), "updated_at": iso(moment),
                        "account": data.people[(index + 3) % len(data.people)],
                        "notifications_count": str(index + 2), "last_status": status})
                result = {"requests": len(data.notification_requests)}
            elif path == "/_control/edit":
                status = data.by_id.get(request.get("id"))
                if status is None:
                    return self.error(404, "no such status")
                status["edited_at"] = iso(datetime.now(timezone.utc))
                status["content"] = "<p>%s</p>" % request.get("text", "edited")
                data.broadcast("status.update", status)
                result = status
            elif path == "/_control/set_status":
                # Sets fields of a status (a poll, media, a content warning); `mine` makes it the
                # tester's own, to edit.
                status = data.by_id.get(request.get("id"))
                if status is None:
                    return self.error(404, "no such status")
                fields = dict(request.get("fields") or {})
                if fields.pop("mine", False):
                    status["account"] = data.me
                status.update(fields)
                result = status
            elif path == "/_control/delete":
                status = data.by_id.pop(request.get("id"), None)
                if status is None:
                    return self.error(404, "no such status")
                data.statuses.remove(status)
                data.broadcast("delete", status["id"])
                result = {"deleted": status["id"]}
            elif path == "/_control/end_streams":
                for events in data.streams:
                    events.put((None, None))
                result = {"ended": len(data.streams)}
            elif path == "/_control/stream":
                data.broadcast(request["event"], request["payload"])
                result = {"streams": len(data.streams)}
            elif path == "/_control/token":
                data.tokens[request["token"]] = {"client_id": None, "scope": request.get("scope", "read write")}
                result = {}
            elif path == "/_control/revoke":
                if data.tokens.pop(request["token"], None) is not None:
                    data.revoked.append(hashlib.sha256(request["token"].encode()).hexdigest())
                result = {"revoked": len(data.revoked)}
            else:
                return self.error(404, "unknown control %s" % path)
        self.send(200, result)

    # -- OAuth -------------------------------------------------------------------------------

    def create_app(self, path, query, body):
        parameters = self.parameters(body) or {}
        if not parameters.get("client_name") or not parameters.get("redirect_uris"):
            return self.error(422, "Validation failed: client_name and redirect_uris are required")
        app = {"id": str(len(self.data.apps) + 1), "name": parameters["client_name"],
               "website": parameters.get("website"), "redirect_uri": parameters["redirect_uris"],
               "scopes": parameters.get("scopes", "read"),
               "client_id": secrets.token_urlsafe(24), "client_secret": secrets.token_urlsafe(32),
               "vapid_key": "BFakeVapidKey="}
        with self.data.lock:
            self.data.apps[app["client_id"]] = app
        self.send(200, app)

    def authorization_server(self, path, query, body):
        if not self.data.settings["pkce"]:
            return self.error(404, "Not found")
        base = self.base_url()
        self.send(200, {
            "issuer": base + "/", "authorization_endpoint": base + "/oauth/authorize",
            "token_endpoint": base + "/oauth/token", "revocation_endpoint": base + "/oauth/revoke",
            "scopes_supported": ["read", "write", "read:accounts", "read:statuses", "read:notifications",
                                 "write:statuses"],
            "response_types_supported": ["code"], "grant_types_supported": ["authorization_code"],
            "code_challenge_methods_supported": ["S256"],
        })

    def authorize(self, path, query, body):
        """What a browser shows after the person approves: the code, for the out-of-band flow."""
        client_id = query.get("client_id", [""])[0]
        with self.data.lock:
            app = self.data.apps.get(client_id)
            if app is None or query.get("response_type", [""])[0] != "code":
                return self.error(400, "invalid_client")
            if query.get("redirect_uri", [""])[0] != app["redirect_uri"]:
                return self.error(400, "invalid_redirect_uri")
            code = secrets.token_urlsafe(16)
            self.data.codes[code] = {"client_id": client_id, "scope": query.get("scope", ["read"])[0],
                                     "challenge": query.get("code_challenge", [None])[0],
                                     "method": query.get("code_challenge_method", [None])[0]}
        self.send(200, "<html><body><p>Copy this code into the application:</p>"
                       "<input class='oauth-code' readonly value='%s'></body></html>" % code,
                  content_type="text/html; charset=utf-8")

    def issue_token(self, path, query, body):
        parameters = self.parameters(body) or {}
        with self.data.lock:
            app = self.data.apps.get(parameters.get("client_id"))
            if app is None or app["client_secret"] != parameters.get("client_secret"):
                return self.error(401, "invalid_client")
            if parameters.get("grant_type") != "authorization_code":
                return self.error(400, "unsupported_grant_type")
            grant = self.data.codes.pop(parameters.get("code"), None)
            if grant is None or grant["client_id"] != app["client_id"] or parameters.get("redirect_uri") != OOB:
                return self.error(400, "invalid_grant")
            if grant["challenge"]:
                verifier = parameters.get("code_verifier") or ""
                digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
                if grant["method"] != "S256" or digest != grant["challenge"]:
                    return self.error(400, "invalid_grant: the code verifier does not match")
            token = secrets.token_urlsafe(32)
            self.data.tokens[token] = {"client_id": app["client_id"], "scope": grant["scope"]}
        self.send(200, {"access_token": token, "token_type": "Bearer", "scope": grant["scope"],
                        "created_at": int(time.time())})

    def revoke(self, path, query, body):
        parameters = self.parameters(body) or {}
        with self.data.lock:
            app = self.data.apps.get(parameters.get("client_id"))
            if app is None or app["client_secret"] != parameters.get("client_secret"):
                return self.error(403, "unauthorized_client")
            token = parameters.get("token") or ""
            grant = self.data.tokens.get(token)
            if grant is not None and grant["client_id"] == app["client_id"]:
                del self.data.tokens[token]
                self.data.revoked.append(hashlib.sha256(token.encode()).hexdigest())
        self.send(200, {})

    # -- API ---------------------------------------------------------------------------------

    def api(handler):
        """Wraps an API route: the token, the rate limit and its headers."""
        def wrapped(self, path, query, body):
            if not self.authorized():
                return self.refuse_token()
            with self.data.lock:
                headers, exceeded, reset = self.data.rate_headers()
            if exceeded:
                return self.error(429, "Too many requests", headers)
            return handler(self, path, query, body, headers)
        return wrapped

    @api
    def verify_credentials(self, path, query, body, headers):
        with self.data.lock:
            scopes = self.data.tokens.get(self.token(), {}).get("scope", "read").split()
            classic_only = self.data.settings["classic_scopes_only"]
        if classic_only and "read" not in scopes:
            # Takahē requires the whole `read` scope here; `read:accounts` does not satisfy it.
            return self.error(403, "out_of_scope_for_token", headers)
        self.send(200, self.data.me | {"source": {"privacy": "public", "note": ""}}, headers)

    @api
    def home(self, path, query, body, headers):
        with self.data.lock:
            # As Mastodon: the statuses of accounts muted or blocked leave the home timeline.
            hidden = {m["account"]["id"] for m in self.data.mutes + self.data.blocks}
            shown = [s for s in self.data.statuses if s["account"]["id"] not in hidden] if hidden else self.data.statuses
            result = [with_filtered(status, self.data.filters, "home") for status in page(shown, query, 20, 40)]
        link = link_header(self.base_url(), path, query, result)
        self.send(200, result, headers | ({"Link": link} if link else {}))

    @api
    def notification_list(self, path, query, body, headers):
        types = set(query.get("types[]", []))
        excluded = set(query.get("exclude_types[]", []))
        with self.data.lock:
            items = [n for n in self.data.notifications
                     if (not types or n["type"] in types) and n["type"] not in excluded]
            result = page(items, query, 40, 80)
        link = link_header(self.base_url(), path, query, result)
        self.send(200, result, headers | ({"Link": link} if link else {}))

    @api
    def grouped_notification_list(self, path, query, body, headers):
        """`GET /api/v2/notifications` as Mastodon 4.3 answers it (`accounts`, `statuses`,
        `notification_groups`): notifications of the `grouped_types[]` kinds grouped by kind and
        status, the others one a group (`ungrouped-ID`); paged over groups by their newest
        notification's ID. A server before 4.3 (the default, `grouped_notifications` off) has
        no such route: 404."""
        with self.data.lock:
            if not self.data.settings.get("grouped_notifications"):
                return self.error(404, "Record not found", headers)
            grouped = set(query.get("grouped_types[]", []))
            groups, order = {}, []
            for notification in self.data.notifications:
                status = notification.get("status")
                if notification["type"] in grouped:
                    key = "%s-%s" % (notification["type"], status["id"] if status else "account")
                else:
                    key = "ungrouped-%s" % notification["id"]
                if key not in groups:
                    groups[key] = {"id": notification["id"], "group_key": key, "notifications_count": 0,
                                   "type": notification["type"], "most_recent_notification_id": notification["id"],
                                   "page_max_id": notification["id"], "page_min_id": notification["id"],
                                   "latest_page_notification_at": notification["created_at"], "sample_account_ids": [],
                                   "status_id": status["id"] if status else None,
                                   "_accounts": [], "_status": copy.deepcopy(status) if status else None}
                    order.append(key)
                group = groups[key]
                group["notifications_count"] += 1
                group["page_min_id"] = notification["id"]
                account = notification.get("account")
                if account and account["id"] not in group["sample_account_ids"] and len(group["sample_account_ids"]) < 8:
                    group["sample_account_ids"].append(account["id"])
                    group["_accounts"].append(account)
            result = page([groups[key] for key in order], query, 40, 80)
        accounts, statuses = {}, {}
        for group in result:
            for account in group["_accounts"]:
                accounts[account["id"]] = account
            if group["_status"]:
                statuses[group["_status"]["id"]] = group["_status"]
        answer = {"accounts": list(accounts.values()), "statuses": list(statuses.values()),
                  "notification_groups": [{key: value for key, value in group.items() if not key.startswith("_") and key != "id"}
                                          for group in result]}
        link = link_header(self.base_url(), path, query, result)
        self.send(200, answer, headers | ({"Link": link} if link else {}))

    @api
    def notification_policy(self, path, query, body, headers):
        """`GET /api/v1/notifications/policy` (Mastodon 4.3's v1 shape, with its `summary`)."""
        with self.data.lock:
            if not self.data.settings.get("grouped_notifications"):
                return self.error(404, "Record not found", headers)
            requests = self.data.notification_requests
            summary = {"pending_requests_count": len(requests),
                       "pending_notifications_count": sum(int(r["notifications_count"]) for r in requests)}
        self.send(200, {"for_not_following": "filter", "for_not_followers": "accept", "for_new_accounts": "filter",
                        "for_private_mentions": "filter", "for_limited_accounts": "filter", "summary": summary}, headers)

    @api
    def notification_request_list(self, path, query, body, headers):
        """`GET /api/v1/notifications/requests`: NotificationRequest entities, newest first."""
        with self.data.lock:
            if not self.data.settings.get("grouped_notifications"):
                return self.error(404, "Record not found", headers)
            result = page(self.data.notification_requests, query, 40, 80)
        link = link_header(self.base_url(), path, query, result)
        self.send(200, result, headers | ({"Link": link} if link else {}))

    @api
    def get_markers(self, path, query, body, headers):
        wanted = query.get("timeline[]", [])
        with self.data.lock:
            result = {name: marker for name, marker in self.data.markers.items() if name in wanted}
        self.send(200, result, headers)

    @api
    def set_markers(self, path, query, body, headers):
        parameters = self.parameters(body)
        if parameters is None:
            return self.error(400, "unreadable body")
        with self.data.lock:
            if self.data.settings["marker_conflicts"] > 0:
                self.data.settings["marker_conflicts"] -= 1
                return self.error(409, "Conflict during update, please try again", headers)
            for name in ("home", "notifications"):
                value = parameters.get(name)
                if isinstance(value, dict) and value.get("last_read_id"):
                    previous = self.data.markers.get(name, {"version": 0})
                    self.data.markers[name] = {"last_read_id": str(value["last_read_id"]),
                                               "version": previous["version"] + 1,
                                               "updated_at": iso(datetime.now(timezone.utc))}
            result = dict(self.data.markers)
        self.send(200, result, headers)

    @api
    def post_status(self, path, query, body, headers):
        parameters = self.parameters(body)
        if parameters is None:
            return self.error(400, "unreadable body")
        text = parameters.get("status") or ""
        if not text.strip():
            return self.error(422, "Validation failed: Text can't be blank")
        self.record["json"] = parameters
        key = self.headers.get("Idempotency-Key")
        if parameters.get("scheduled_at") is not None:
            return self.schedule_status(parameters, key, headers)
        with self.data.lock:
            quoted = None
            if parameters.get("quoted_status_id") is not None:
                # Mastodon 4.5: only with the quotes API (setting `api_versions`); an older
                # server ignores the parameter, as a real one would, and publishes without it.
                if (self.data.settings.get("api_versions") or {}).get("mastodon", 0) >= 7:
                    quoted = self.data.by_id.get(str(parameters["quoted_status_id"]))
                    if quoted is None:
                        return self.error(404, "Record not found", headers)
            if key and (self.token(), key) in self.data.idempotency:
                return self.send(200, self.data.idempotency[(self.token(), key)], headers)
            status_id, created_at = self.data.next_identity(newer=True)
            status = self.data.generated_status(0, status_id, created_at)
            status.update({"account": self.data.me, "content": "<p>%s</p>" % text,
                           "spoiler_text": parameters.get("spoiler_text") or "",
                           "sensitive": bool(parameters.get("spoiler_text")),
                           "visibility": parameters.get("visibility") or "public",
                           "in_reply_to_id": parameters.get("in_reply_to_id"), "source_text": text,
                           "replies_count": 0, "reblogs_count": 0, "favourites_count": 0,
                           "uri": "https://loopback.test/users/tester/statuses/%s" % status_id,
                           "url": "https://loopback.test/@tester/%s" % status_id})
            if quoted is not None:
                status["quote"] = {"state": "accepted", "quoted_status": copy.deepcopy(quoted)}
            # Issue 36: the language, sensitive media and a poll as Mastodon keeps them.
            status["language"] = parameters.get("language")
            status["sensitive"] = bool(parameters.get("sensitive")) or status["sensitive"]
            poll = parameters.get("poll")
            if isinstance(poll, dict):
                status["poll"] = {"id": "p" + status_id, "expired": False, "multiple": bool(poll.get("multiple")),
                                  "expires_at": (datetime.now(timezone.utc) + timedelta(seconds=int(poll.get("expires_in", 0))))
                                  .strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                                  "votes_count": 0, "voters_count": 0, "voted": False, "own_votes": [],
                                  "options": [{"title": title, "votes_count": 0} for title in poll.get("options", [])],
                                  "emojis": []}
            self.data.add_status(status)
            if key:
                self.data.idempotency[(self.token(), key)] = status
        self.send(200, status, headers)

    def schedule_status(self, parameters, key, headers):
        """A post with `scheduled_at` (issue 36): Mastodon answers a ScheduledStatus, not a
        Status, and refuses a time less than 5 minutes ahead (422)."""
        when = parameters["scheduled_at"]
        try:
            moment = datetime.fromisoformat(str(when).replace("Z", "+00:00"))
        except ValueError:
            return self.error(422, "Validation failed: Scheduled at is invalid", headers)
        if moment < datetime.now(timezone.utc) + timedelta(minutes=5):
            return self.error(422, "Validation failed: Scheduled at The scheduled date must be in the future", headers)
        with self.data.lock:
            if key and (self.token(), key) in self.data.idempotency:
                return self.send(200, self.data.idempotency[(self.token(), key)], headers)
            self.data.scheduled_number = getattr(self.data, "scheduled_number", 0) + 1
            scheduled = {"id": str(900 + self.data.scheduled_number), "scheduled_at": when,
                         "params": {"text": parameters.get("status"), "poll": parameters.get("poll"),
                                    "language": parameters.get("language"), "sensitive": parameters.get("sensitive"),
                                    "visibility": parameters.get("visibility"), "scheduled_at": None},
                         "media_attachments": []}
            scheduled_list = getattr(self.data, "scheduled", None)
            if scheduled_list is None:
                scheduled_list = self.data.scheduled = []
            scheduled_list.append(scheduled)
            if key:
                self.data.idempotency[(self.token(), key)] = scheduled
        self.send(200, scheduled, headers)

    @api
    def upload_media(self, path, query, body, headers):
        """`POST /api/v2/media` (issue 36): each upload is processed at once (200, with a `url`),
        numbered 7001, 7002, … in the order they arrive; the file itself is not kept. The form's
        parts are recorded with the request (`parts`: each part's name, filename, content type,
        length, and its value when it is text), so a test sees the description as sent."""
        self.record["parts"] = self.multipart_parts(body)
        with self.data.lock:
            self.data.media_number = getattr(self.data, "media_number", 0) + 1
            media_id = str(7000 + self.data.media_number)
        self.send(200, {"id": media_id, "type": "image", "url": "https://loopback.test/media/%s.png" % media_id,
                        "preview_url": None, "description": None}, headers)

    def multipart_parts(self, body):
        """The parts of a multipart/form-data body as Rails reads them: split at the boundary of
        the Content-Type, each part's Content-Disposition name and filename, its Content-Type."""
        content_type = self.headers.get("Content-Type") or ""
        boundary = next((item.strip()[len("boundary="):].strip('"') for item in content_type.split(";")
                         if item.strip().startswith("boundary=")), None)
        if not boundary:
            return []
        parts = []
        for chunk in body.split(b"--" + boundary.encode("latin-1"))[1:]:
            if chunk.startswith(b"--"):
                break
            head, _, value = chunk.partition(b"\r\n\r\n")
            if value.endswith(b"\r\n"):
                value = value[:-2]
            fields = {}
            for line in head.decode("utf-8", "replace").split("\r\n"):
                name, _, rest = line.partition(":")
                if name.lower() == "content-disposition":
                    for item in rest.split(";")[1:]:
                        key, _, quoted = item.strip().partition("=")
                        fields[key] = quoted.strip('"')
                elif name.lower() == "content-type":
                    fields["content_type"] = rest.strip()
            part = {"name": fields.get("name"), "filename": fields.get("filename"),
                    "content_type": fields.get("content_type"), "length": len(value)}
            if fields.get("filename") is None:
                part["value"] = value.decode("utf-8", "replace")
            parts.append(part)
        return parts

    @api
    def scheduled_list(self, path, query, body, headers):
        limit = int(query.get("limit", ["20"])[0])
        max_id = query.get("max_id", [None])[0]
        with self.data.lock:
            items = sorted(getattr(self.data, "scheduled", []), key=lambda item: -int(item["id"]))
        if max_id is not None:
            items = [item for item in items if int(item["id"]) < int(max_id)]
        self.send(200, items[:limit], headers)

    @api
    def unschedule(self, path, query, body, headers):
        wanted = path.rsplit("/", 1)[-1]
        with self.data.lock:
            items = getattr(self.data, "scheduled", [])
            kept = [item for item in items if item["id"] != wanted]
            if len(kept) == len(items):
                return self.error(404, "Record not found", headers)
            self.data.scheduled = kept
        self.send(200, {}, headers)

    @api
    def status_by_id(self, path, query, body, headers):
        with self.data.lock:
            status = self.data.by_id.get(path.rsplit("/", 1)[-1])
        if status is None:
            return self.error(404, "Record not found", headers)
        self.send(200, status, headers)

    @api
    def status_source(self, path, query, body, headers):
        """The text as its author wrote it (`GET /api/v1/statuses/:id/source`): the author's only."""
        with self.data.lock:
            status = self.data.by_id.get(path.split("/")[4])
            if status is None or status["account"]["id"] != self.data.me["id"]:
                return self.error(404, "Record not found", headers)
            text = status.get("source_text")
            if text is None:
                text = html.unescape(re.sub(r"<[^>]*>", "", status.get("content") or ""))
            result = {"id": status["id"], "text": text, "spoiler_text": status.get("spoiler_text") or ""}
        self.send(200, result, headers)

    @api
    def edit_status(self, path, query, body, headers):
        """`PUT /api/v1/statuses/:id` as Mastodon does it: the author's only; the text, content
        warning, sensitivity, media and language become what the request holds (media it leaves
        out are dropped, and so is a poll it leaves out); `edited_at` is set. The parameters are
        recorded with the request (`json`), for the tests to read what was sent again."""
        parameters = self.parameters(body)
        if parameters is None:
            return self.error(400, "unreadable body")
        self.record["json"] = parameters
        with self.data.lock:
            status = self.data.by_id.get(path.rsplit("/", 1)[-1])
            if status is None:
                return self.error(404, "Record not found", headers)
            if status["account"]["id"] != self.data.me["id"]:
                return self.error(403, "This action is not allowed", headers)
            text = parameters.get("status") or ""
            if not text.strip():
                return self.error(422, "Validation failed: Text can't be blank", headers)
            known = {attachment["id"]: attachment for attachment in status.get("media_attachments") or []}
            media_ids = parameters.get("media_ids") or []
            if any(media_id not in known for media_id in media_ids):
                return self.error(422, "Validation failed: media not found", headers)
            status["media_attachments"] = [known[media_id] for media_id in media_ids]
            status["content"] = "<p>%s</p>" % html.escape(text)
            status["source_text"] = text
            status["spoiler_text"] = parameters.get("spoiler_text") or ""
            status["sensitive"] = bool(parameters.get("sensitive")) or bool(status["spoiler_text"])
            if parameters.get("language"):
                status["language"] = parameters["language"]
            if "poll" not in parameters:
                status["poll"] = None
            status["edited_at"] = iso(datetime.now(timezone.utc))
            # Takahē answers an edit with the post made public whatever it was (issue 34): a test
            # sets `edit_sets_visibility` on a status (set_status) to answer the same way.
            if status.get("edit_sets_visibility"):
                status["visibility"] = status["edit_sets_visibility"]
            self.data.broadcast("status.update", status)
            answer = {key: value for key, value in status.items() if key != "edit_sets_visibility"}
        self.send(200, answer, headers)

    @api
    def vote(self, path, query, body, headers):
        """`POST /api/v1/polls/:id/votes` with `choices` (indices): Mastodon's refusals for an
        ended poll, a second vote, a choice out of range or several in a one-choice poll (422);
        the poll answered with the counts, `voted` and `own_votes`."""
        parameters = self.parameters(body)
        if parameters is None:
            return self.error(400, "unreadable body")
        self.record["json"] = parameters
        poll_id = path.split("/")[4]
        with self.data.lock:
            status = next((s for s in self.data.statuses if (s.get("poll") or {}).get("id") == poll_id), None)
            if status is None:
                return self.error(404, "Record not found", headers)
            poll = status["poll"]
            try:
                choices = [int(choice) for choice in parameters.get("choices") or []]
            except (TypeError, ValueError):
                return self.error(422, "Validation failed: choices are numbers", headers)
            if poll.get("expired"):
                return self.error(422, "Validation failed: The poll has already ended", headers)
            if poll.get("voted"):
                return self.error(422, "Validation failed: You have already voted on this poll", headers)
            if not choices or any(not 0 <= c < len(poll["options"]) for c in choices) \
                    or (len(choices) > 1 and not poll.get("multiple")):
                return self.error(422, "Validation failed: Choice is invalid", headers)
            for choice in choices:
                option = poll["options"][choice]
                option["votes_count"] = (option.get("votes_count") or 0) + 1
            poll["votes_count"] = poll.get("votes_count", 0) + len(choices)
            poll["voters_count"] = (poll.get("voters_count") or 0) + 1
            poll["voted"] = True
            poll["own_votes"] = choices
            answer = dict(poll)
        self.send(200, answer, headers)

    @api
    def status_context(self, path, query, body, headers):
        """`ancestors` (root first, following `in_reply_to_id`) and `descendants` (depth first,
        in the order written) of a status; setting `context_padding` N adds N more replies made
        up on the spot, as a huge conversation (or a hostile server) would."""
        status_id = path.split("/")[4]
        with self.data.lock:
            status = self.data.by_id.get(status_id)
            if status is None:
                # A boosted or quoted status, or one a notification is about, is known through them, as a
                # real server knows every status it shows.
                around = [n.get("status") for n in self.data.notifications]
                for s in self.data.by_id.values():
                    around += [s.get("reblog"), s.get("quote"), (s.get("pleroma") or {}).get("quote")]
                status = next((s for s in around if isinstance(s, dict) and s.get("id") == status_id), None)
            if status is None:
                return self.error(404, "Record not found", headers)
            ancestors, parent = [], status.get("in_reply_to_id")
            while parent in self.data.by_id and len(ancestors) < 100:
                ancestors.insert(0, self.data.by_id[parent])
                parent = self.data.by_id[parent].get("in_reply_to_id")
            descendants = []

            def below(parent_id):
                children = sorted((s for s in self.data.by_id.values() if s.get("in_reply_to_id") == parent_id),
                                  key=lambda s: id_order(s["id"]))
                for child in children:
                    descendants.append(child)
                    below(child["id"])
            below(status_id)
            padding = int(self.data.settings.get("context_padding", 0))
        for number in range(padding):
            reply = {"id": "9%017d" % number, "created_at": status["created_at"], "in_reply_to_id": status_id,
                     "in_reply_to_account_id": status["account"]["id"], "content": "<p>padding %d</p>" % number,
                     "account": self.data.people[number % len(self.data.people)], "visibility": "public",
                     "spoiler_text": "", "sensitive": False, "media_attachments": [], "mentions": [], "tags": [],
                     "emojis": [], "reblog": None, "uri": "https://loopback.test/statuses/p%d" % number,
                     "url": None, "replies_count": 0, "reblogs_count": 0, "favourites_count": 0}
            descendants.append(reply)
        self.send(200, {"ancestors": ancestors, "descendants": descendants}, headers)

    @api
    def delete_status(self, path, query, body, headers):
        """Mastodon answers with the deleted status; only its author may delete it."""
        with self.data.lock:
            status = self.data.by_id.get(path.rsplit("/", 1)[-1])
            if status is None:
                return self.error(404, "Record not found", headers)
            if status["account"]["id"] != self.data.me["id"]:
                return self.error(403, "This action is not allowed", headers)
            del self.data.by_id[status["id"]]
            self.data.statuses.remove(status)
            self.data.broadcast("delete", status["id"])
        self.send(200, status, headers)

    # action -> (flag, count field or None, value): what POST /api/v1/statuses/:id/ACTION sets.
    STATUS_ACTIONS = {
        "favourite": ("favourited", "favourites_count", True),
        "unfavourite": ("favourited", "favourites_count", False),
        "reblog": ("reblogged", "reblogs_count", True),
        "unreblog": ("reblogged", "reblogs_count", False),
        "bookmark": ("bookmarked", None, True),
        "unbookmark": ("bookmarked", None, False),
    }

    @api
    def status_action(self, path, query, body, headers):
        """Favourite, reblog, bookmark and their undo, as Mastodon answers them: the status
        (for a reblog, the new reblog wrapping it) with the token's flags and counts updated;
        doing what is already done changes nothing; a status that is gone is 404. The flags
        live in `self.data.flags`, one set per status, and every answer shows them."""
        _, _, _, _, status_id, action = path.split("/", 5)
        flag, count, value = Handler.STATUS_ACTIONS[action]
        with self.data.lock:
            # A status a notification is about, or one a status quotes, is known to the server too.
            status = self.data.by_id.get(status_id) or find_status(
                [n.get("status") for n in self.data.notifications] + self.data.statuses, status_id)
            if status is None:
                return self.error(404, "Record not found", headers)
            if status.get("reblog"):
                status = status["reblog"]
            if bool(status.get(flag)) != value:
                # What the action changed, once per change: a test counts them.
                self.data.effects.append({"id": status["id"], "action": action})
                status[flag] = value
                if count:
                    status[count] = max(0, status.get(count, 0) + (1 if value else -1))
            if flag == "bookmarked":
                if value and status not in self.data.bookmarks:
                    self.data.bookmarks.insert(0, status)
                elif not value and status in self.data.bookmarks:
                    self.data.bookmarks.remove(status)
            answer = dict(status)
            if action == "reblog":
                wrapper_id, created_at = self.data.next_identity(newer=True)
                answer = {"id": wrapper_id, "created_at": created_at, "account": self.data.me,
                          "content": "", "reblog": status, "reblogged": True,
                          "favourited": False, "bookmarked": False, "visibility": "public",
                          "replies_count": 0, "reblogs_count": 0, "favourites_count": 0,
                          "media_attachments": [], "mentions": [], "tags": [], "emojis": [],
                          "spoiler_text": "", "sensitive": False, "uri": status.get("uri"), "url": None,
                          "in_reply_to_id": None, "in_reply_to_account_id": None}
        self.send(200, answer, headers)

    @api
    def bookmark_list(self, path, query, body, headers):
        with self.data.lock:
            result = page(self.data.bookmarks, query, 20, 40)
        link = link_header(self.base_url(), path, query, result)
        self.send(200, result, headers | ({"Link": link} if link else {}))

    # -- accounts: lookup, search, follow ---------------------------------------------------------

    def known_accounts(self):
        return [self.data.me] + self.data.people + [follow["account"] for follow in self.data.follows]

    @api
    def account_lookup(self, path, query, body, headers):
        """Mastodon's lookup knows only the accounts the server has seen; `acct` may carry this
        server's own domain."""
        acct = query.get("acct", [""])[0].lstrip("@").lower()
        if acct.endswith("@loopback.test"):
            acct = acct[:-len("@loopback.test")]
        with self.data.lock:
            found = next((a for a in self.known_accounts() if a["acct"].lower() == acct), None)
        if found is None:
            return self.error(404, "Record not found", headers)
        self.send(200, found, headers)

    @api
    def search(self, path, query, body, headers):
        """`/api/v2/search` for accounts: names that contain the words, and with resolve=true an
        account of another server the server fetches first."""
        words = query.get("q", [""])[0].lstrip("@").lower()
        resolve = query.get("resolve", ["false"])[0] == "true"
        with self.data.lock:
            accounts = [a for a in self.known_accounts() if words.split("@")[0] in a["acct"].lower()]
            if resolve and words in self.data.remote and self.data.remote[words] not in accounts:
                accounts.append(self.data.remote[words])
        self.send(200, {"accounts": accounts[:5], "statuses": [], "hashtags": []}, headers)

    @api
    def account_follow(self, path, query, body, headers):
        """Follow or unfollow: the relationship as it now is; user5 is locked (the follow is a
        request until approved)."""
        _, _, _, _, account_id, action = path.split("/", 5)
        with self.data.lock:
            account = next((a for a in self.known_accounts() + list(self.data.remote.values()) if a["id"] == account_id), None)
            if account is None:
                return self.error(404, "Record not found", headers)
            if account is self.data.me:
                return self.error(403, "This action is not allowed", headers)
            followed = next((f for f in self.data.follows if f["account"]["id"] == account_id), None)
            requested = False
            if action == "follow" and followed is None:
                if account["username"] == "user5":
                    requested = True
                else:
                    self.data.follow_sequence += 1
                    self.data.follows.insert(0, {"id": str(7000 + self.data.follow_sequence), "account": account})
            elif action == "unfollow" and followed is not None:
                self.data.follows.remove(followed)
            following = any(f["account"]["id"] == account_id for f in self.data.follows)
        self.send(200, {"id": account_id, "following": following, "showing_reblogs": following, "notifying": False,
                        "followed_by": False, "blocking": False, "blocked_by": False, "muting": False,
                        "muting_notifications": False, "requested": requested, "domain_blocking": False,
                        "endorsed": False, "note": ""}, headers)

    @api
    def account_following(self, path, query, body, headers):
        """The accounts an account follows, newest follow first, paged by the follows' own IDs
        (the Link header's max_id is a follow's ID, not an account's), 40 by default, 80 at most."""
        account_id = path.split("/")[4]
        with self.data.lock:
            follows = list(self.data.follows) if account_id == self.data.me["id"] else []
            maximum = self.data.settings.get("following_page_size", 80)
        chosen = page(follows, query, min(40, maximum), maximum)
        link = link_header(self.base_url(), path, query, chosen)
        self.send(200, [follow["account"] for follow in chosen], headers | ({"Link": link} if link else {}))

    # -- mutes, blocks, filters and reports (issue 34) ----------------------------------------------

    def relationship(self, account_id):
        muted = next((m for m in self.data.mutes if m["account"]["id"] == account_id), None)
        return {"id": account_id, "following": any(f["account"]["id"] == account_id for f in self.data.follows),
                "showing_reblogs": False, "notifying": False, "followed_by": False,
                "blocking": any(b["account"]["id"] == account_id for b in self.data.blocks), "blocked_by": False,
                "muting": muted is not None, "muting_notifications": muted is not None, "requested": False,
                "domain_blocking": False, "endorsed": False, "note": ""}

    @api
    def account_moderate(self, path, query, body, headers):
        """POST /api/v1/accounts/:id/mute (`duration` seconds, 0 or none: no end), unmute, block,
        unblock: the relationship as it now is; doing it twice changes nothing. A block ends a
        follow, as Mastodon's does."""
        _, _, _, _, account_id, action = path.split("/", 5)
        parameters = self.parameters(body) or {}
        with self.data.lock:
            account = next((a for a in self.data.known_accounts() + list(self.data.remote.values()) if a["id"] == account_id), None)
            if account is None:
                return self.error(404, "Record not found", headers)
            if account is self.data.me:
                return self.error(403, "This action is not allowed", headers)
            kind = self.data.mutes if action in ("mute", "unmute") else self.data.blocks
            existing = next((m for m in kind if m["account"]["id"] == account_id), None)
            if action in ("mute", "block"):
                expires = None
                duration = parameters.get("duration")
                if action == "mute" and duration not in (None, "", 0, "0"):
                    try:
                        expires = iso(datetime.now(timezone.utc) + timedelta(seconds=int(duration)))
                    except (TypeError, ValueError):
                        return self.error(422, "Validation failed: Duration is not a number", headers)
                if existing is None:
                    self.data.moderation_sequence += 1
                    kind.insert(0, {"id": str(8000 + self.data.moderation_sequence), "account": account, "expires_at": expires})
                else:
                    existing["expires_at"] = expires
                if action == "block":
                    self.data.follows = [f for f in self.data.follows if f["account"]["id"] != account_id]
            elif existing is not None:
                kind.remove(existing)
            answer = self.relationship(account_id)
        self.send(200, answer, headers)

    def moderated_accounts(self, path, query, headers, items, muted):
        chosen = page(items, query, 40, 80)
        link = link_header(self.base_url(), path, query, chosen)
        accounts = [dict(item["account"], **({"mute_expires_at": item["expires_at"]} if muted else {})) for item in chosen]
        self.send(200, accounts, headers | ({"Link": link} if link else {}))

    @api
    def mute_list(self, path, query, body, headers):
        """GET /api/v1/mutes: accounts with `mute_expires_at`, newest mute first, 40 (80 at most)
        a page, by the Link header."""
        with self.data.lock:
            items = list(self.data.mutes)
        self.moderated_accounts(path, query, headers, items, True)

    @api
    def block_list(self, path, query, body, headers):
        with self.data.lock:
            items = list(self.data.blocks)
        self.moderated_accounts(path, query, headers, items, False)

    @api
    def filter_list(self, path, query, body, headers):
        """GET /api/v2/filters: the v2 Filter entities (keywords and statuses inside)."""
        with self.data.lock:
            filters = json.loads(json.dumps(self.data.filters))
        self.send(200, filters, headers)

    @api
    def create_filter(self, path, query, body, headers):
        """POST /api/v2/filters: title, context[], filter_action, expires_in, keywords_attributes[]."""
        parameters = self.parameters(body) or {}
        title, context = parameters.get("title"), parameters.get("context")
        if not isinstance(title, str) or not title or not isinstance(context, list) or not context:
            return self.error(422, "Validation failed: Title can't be blank, Context can't be blank", headers)
        if any(c not in ("home", "notifications", "public", "thread", "account") for c in context):
            return self.error(422, "Validation failed: Context contains invalid context values", headers)
        action = parameters.get("filter_action", "warn")
        if action not in ("warn", "hide", "blur"):
            return self.error(422, "Validation failed: Filter action is not included in the list", headers)
        expires_in = parameters.get("expires_in")
        with self.data.lock:
            self.data.filter_sequence += 1
            number = self.data.filter_sequence
            keywords = []
            for index, attributes in enumerate(parameters.get("keywords_attributes") or []):
                keywords.append({"id": str(number * 100 + index), "keyword": attributes.get("keyword"),
                                 "whole_word": bool(attributes.get("whole_word", True))})
            created = {"id": str(number), "title": title, "context": context, "filter_action": action,
                       "expires_at": iso(datetime.now(timezone.utc) + timedelta(seconds=int(expires_in))) if expires_in else None,
                       "keywords": keywords, "statuses": []}
            self.data.filters.append(created)
        self.send(200, created, headers)

    @api
    def delete_filter(self, path, query, body, headers):
        filter_id = path.rsplit("/", 1)[-1]
        with self.data.lock:
            found = next((f for f in self.data.filters if f["id"] == filter_id), None)
            if found is None:
                return self.error(404, "Record not found", headers)
            self.data.filters.remove(found)
        self.send(200, {}, headers)

    @api
    def delete_filter_keyword(self, path, query, body, headers):
        keyword_id = path.rsplit("/", 1)[-1]
        with self.data.lock:
            for found in self.data.filters:
                kept = [k for k in found["keywords"] if k["id"] != keyword_id]
                if len(kept) != len(found["keywords"]):
                    found["keywords"] = kept
                    break
            else:
                return self.error(404, "Record not found", headers)
        self.send(200, {}, headers)

    @api
    def create_report(self, path, query, body, headers):
        """POST /api/v1/reports: account_id (required), status_ids[], comment (1,000 characters at
        most), category (spam, legal, violation, other), forward; answers the Report entity."""
        parameters = self.parameters(body) or {}
        account_id = parameters.get("account_id")
        with self.data.lock:
            authors = [status["account"] for status in self.data.statuses]
            account = next((a for a in self.data.known_accounts() + list(self.data.remote.values()) + authors
                            if a["id"] == account_id), None)
            if account is None:
                return self.error(404, "Record not found", headers)
            category = parameters.get("category", "other")
            if category not in ("spam", "legal", "violation", "other"):
                return self.error(422, "Validation failed: Category is not included in the list", headers)
            if len(parameters.get("comment") or "") > 1000:
                return self.error(422, "Validation failed: Comment is too long (maximum is 1000 characters)", headers)
            status_ids = parameters.get("status_ids") or []
            if any(s not in self.data.by_id for s in status_ids):
                return self.error(404, "Record not found", headers)
            report = {"id": str(len(self.data.reports) + 1), "action_taken": False, "action_taken_at": None,
                      "category": category, "comment": parameters.get("comment") or "", "forwarded": bool(parameters.get("forward")),
                      "created_at": iso(datetime.now(timezone.utc)), "status_ids": status_ids, "rule_ids": None,
                      "target_account": account}
            self.data.reports.append({"body": parameters, "report": report})
        self.send(200, report, headers)

    # -- other timelines: a hashtag's, a list's ----------------------------------------------------

    # One list, of the statuses user1 and user2 write.
    LISTS = [{"id": "42", "title": "Friends", "replies_policy": "list", "exclusive": False}]

    @api
    def tag_timeline(self, path, query, body, headers):
        """The statuses whose text holds the hashtag (generated ones say #rust and #swift), paged
        as the home timeline is."""
        tag = urllib.parse.unquote(path.rsplit("/", 1)[-1]).lower()
        with self.data.lock:
            items = [s for s in self.data.statuses if ("#" + tag) in (s.get("content") or "").lower()]
            result = page(items, query, 20, 40)
        link = link_header(self.base_url(), path, query, result)
        self.send(200, result, headers | ({"Link": link} if link else {}))

    @api
    def lists(self, path, query, body, headers):
        with self.data.lock:
            made = [entry["list"] for entry in self.data.made_lists.values()]
        self.send(200, Handler.LISTS + made, headers)

    @api
    def create_list(self, path, query, body, headers):
        """`POST /api/v1/lists` `{title}`: a List entity."""
        parameters = self.parameters(body) or {}
        title = parameters.get("title")
        if not isinstance(title, str) or not title.strip():
            return self.error(422, "Validation failed: Title can't be blank", headers)
        with self.data.lock:
            self.data.sequence += 1
            entry = {"id": str(500 + self.data.sequence), "title": title, "replies_policy": "list", "exclusive": False}
            self.data.made_lists[entry["id"]] = {"list": entry, "accounts": []}
        self.send(200, entry, headers)

    @api
    def list_accounts(self, path, query, body, headers):
        """`POST`/`DELETE /api/v1/lists/:id/accounts` `{account_ids: [...]}`: Mastodon adds only
        accounts the user follows (422 otherwise); `{}` on success."""
        list_id = path.split("/")[4]
        parameters = self.parameters(body) or {}
        ids = parameters.get("account_ids") or parameters.get("account_ids[]") or []
        with self.data.lock:
            entry = self.data.made_lists.get(list_id)
            if entry is None:
                return self.error(404, "Record not found", headers)
            followed = {f["account"]["id"] for f in self.data.follows}
            if self.command == "POST":
                if any(account_id not in followed for account_id in ids):
                    return self.error(422, "Validation failed: Account has not been followed", headers)
                entry["accounts"] += [account_id for account_id in ids if account_id not in entry["accounts"]]
            else:
                entry["accounts"] = [account_id for account_id in entry["accounts"] if account_id not in ids]
        self.send(200, {}, headers)

    @api
    def delete_list(self, path, query, body, headers):
        """`DELETE /api/v1/lists/:id`: `{}`."""
        with self.data.lock:
            if self.data.made_lists.pop(path.split("/")[4], None) is None:
                return self.error(404, "Record not found", headers)
        self.send(200, {}, headers)

    @api
    def list_timeline(self, path, query, body, headers):
        list_id = path.rsplit("/", 1)[-1]
        if list_id not in [entry["id"] for entry in Handler.LISTS]:
            return self.error(404, "Record not found", headers)
        with self.data.lock:
            items = [s for s in self.data.statuses if s["account"]["username"] in ("user1", "user2") and not s.get("reblog")]
            result = page(items, query, 20, 40)
        link = link_header(self.base_url(), path, query, result)
        self.send(200, result, headers | ({"Link": link} if link else {}))

    @api
    def conversation_list(self, path, query, body, headers):
        """Mastodon's conversations: newest first, paged by their last status's ID (the
        `Link` header's max_id is the last status's, not the conversation's, as Mastodon's
        ConversationsController pages), at most 40 a page."""
        with self.data.lock:
            keyed = [c | {"_order": c["last_status"]["id"]} for c in self.data.conversations]
            try:
                limit = max(1, min(int(query.get("limit", ["20"])[0]), 40))
            except ValueError:
                limit = 20
            max_id = query.get("max_id", [None])[0]
            selected = [c for c in keyed if max_id is None or id_order(c["_order"]) < id_order(max_id)][:limit]
            result = [{key: value for key, value in c.items() if key != "_order"} for c in selected]
        link = None
        if selected:
            url = "%s%s?%s" % (self.base_url(), path, urllib.parse.urlencode([("limit", str(limit)), ("max_id", selected[-1]["_order"])]))
            link = '<%s>; rel="next"' % url
        self.send(200, result, headers | ({"Link": link} if link else {}))

    @api
    def conversation_read(self, path, query, body, headers):
        conversation_id = path.split("/")[-2]
        with self.data.lock:
            found = next((c for c in self.data.conversations if c["id"] == conversation_id), None)
            if found is not None:
                found["unread"] = False
        if found is None:
            return self.error(404, "Record not found", headers)
        self.send(200, found, headers)

    def instance(self, path, query, body):
        base = self.base_url()
        streaming = ("wss://" if self.server.tls else "ws://") + base.split("://", 1)[1]
        instance = {"domain": "loopback.test", "title": "Loopback Mastodon", "version": "4.3.0",
                    "source_url": "https://github.com/mastodon/mastodon",
                    "configuration": {"urls": {"streaming": streaming},
                                      "statuses": {"max_characters": 500},
                                      "polls": {"max_options": 4, "max_characters_per_option": 50,
                                                "min_expiration": 300, "max_expiration": 2629746}}}
        with self.data.lock:
            versions = self.data.settings.get("api_versions")
        if versions:
            instance["api_versions"] = versions
            instance["version"] = "4.5.0"
        self.send(200, instance)

    def stream_user(self, path, query, body):
        if self.path.startswith("/api/v1/streaming?") and query.get("stream", [""])[0] != "user":
            return self.error(400, "Unknown stream type")
        token = self.token() or query.get("access_token", [None])[0]
        with self.data.lock:
            valid = token in self.data.tokens
            enabled = self.data.settings["streaming"]
            heartbeat = float(self.data.settings["heartbeat"])
        if not valid:
            return self.refuse_token()
        if not enabled:
            return self.error(503, "Streaming is disabled")
        events = queue.Queue()
        with self.data.lock:
            self.data.streams.append(events)
        try:
            self.start_events()
            while True:
                try:
                    name, text = events.get(timeout=heartbeat)
                    if name is None:
                        break  # /_control/end_streams: the server ends the stream, as a restart does
                    self.event(name, text)
                except queue.Empty:
                    self.wfile.write(b":thump\n")
                    self.wfile.flush()
                self.server.touch()
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass
        finally:
            with self.data.lock:
                self.data.streams.remove(events)
            self.close_connection = True


ROUTES = {
    ("POST", "/api/v1/apps"): Handler.create_app,
    ("GET", "/.well-known/oauth-authorization-server"): Handler.authorization_server,
    ("GET", "/oauth/authorize"): Handler.authorize,
    ("POST", "/oauth/token"): Handler.issue_token,
    ("POST", "/oauth/revoke"): Handler.revoke,
    ("GET", "/api/v1/accounts/verify_credentials"): Handler.verify_credentials,
    ("GET", "/api/v1/timelines/home"): Handler.home,
    ("GET", "/api/v1/notifications"): Handler.notification_list,
    ("GET", "/api/v2/notifications"): Handler.grouped_notification_list,
    ("GET", "/api/v1/notifications/policy"): Handler.notification_policy,
    ("GET", "/api/v1/notifications/requests"): Handler.notification_request_list,
    ("GET", "/api/v1/markers"): Handler.get_markers,
    ("POST", "/api/v1/markers"): Handler.set_markers,
    ("POST", "/api/v1/statuses"): Handler.post_status,
    ("POST", "/api/v2/media"): Handler.upload_media,
    ("GET", "/api/v1/bookmarks"): Handler.bookmark_list,
    ("GET", "/api/v1/accounts/lookup"): Handler.account_lookup,
    ("GET", "/api/v2/search"): Handler.search,
    ("GET", "/api/v1/lists"): Handler.lists,
    ("GET", "/api/v1/conversations"): Handler.conversation_list,
    ("POST", "/api/v1/lists"): Handler.create_list,
    ("GET", "/api/v1/mutes"): Handler.mute_list,
    ("GET", "/api/v1/blocks"): Handler.block_list,
    ("GET", "/api/v2/filters"): Handler.filter_list,
    ("POST", "/api/v2/filters"): Handler.create_filter,
    ("POST", "/api/v1/reports"): Handler.create_report,
    ("GET", "/api/v2/instance"): Handler.instance,
    ("GET", "/api/v1/scheduled_statuses"): Handler.scheduled_list,
    ("GET", "/api/v1/streaming/user"): Handler.stream_user,
    ("GET", "/api/v1/streaming"): Handler.stream_user,
}


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, family, data, tls, verbose):
        self.address_family = family
        self.data = data
        self.tls = tls
        self.verbose = verbose
        self.last_activity = time.monotonic()
        super().__init__(address, Handler)

    def touch(self):
        self.last_activity = time.monotonic()


def watchdog(server, idle_timeout, parent):
    """Ends the process when nothing happened for `idle_timeout` seconds or the parent died
    (a test runner killed mid-test must not leave servers behind)."""
    while True:
        time.sleep(0.25)
        if os.getppid() != parent:
            os._exit(0)
        if time.monotonic() - server.last_activity > idle_timeout:
            os._exit(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="127.0.0.1 (default) or ::1; nothing else")
    parser.add_argument("--port", type=int, default=0, help="0 (default): a free port, printed as PORT <n>")
    parser.add_argument("--statuses", type=int, default=120, help="statuses in the home timeline (default 120)")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--token", default=DEFAULT_TOKEN, help="an access token accepted from the start")
    parser.add_argument("--idle-timeout", type=float, default=120.0, help="seconds without a request before it stops")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="serve https with this certificate")
    parser.add_argument("--verbose", action="store_true", help="log requests on standard error")
    parser.add_argument("--id-shape", choices=ID_SHAPES, default="snowflake",
                        help="the shape of status and notification IDs: Mastodon's snowflake (default), GoToSocial's "
                             "ulid, Akkoma's flake, Mitra's uuid7, Sharkey's aid")
    arguments = parser.parse_args()
    global ID_SHAPE
    ID_SHAPE = arguments.id_shape

    if arguments.host not in ("127.0.0.1", "::1"):
        parser.error("--host must be 127.0.0.1 or ::1: this server is for loopback tests only")
    family = socket.AF_INET6 if arguments.host == "::1" else socket.AF_INET
    data = Data(arguments.statuses, arguments.seed, arguments.token)
    server = Server((arguments.host, arguments.port), family, data, arguments.tls is not None, arguments.verbose)
    if arguments.tls:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*arguments.tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=watchdog, args=(server, arguments.idle_timeout, os.getppid()), daemon=True).start()
    sys.stdout.write("PORT %d\n" % server.server_address[1])
    sys.stdout.flush()
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
