#!/usr/bin/env python3
"""A loopback Bluesky (AT Protocol XRPC) server for timeline's tests (Python 3 standard library only).

It plays an entryway and, on a second port, the account's PDS with an AppView behind it, as
Bluesky's servers answer: sessions made at the entryway with an app password, whose `didDoc`
names the PDS (`#atproto_pds`), where every other call must go (the entryway refuses them);
access and refresh tokens that are JWTs (HS256; `at+jwt` with `exp` two hours on, `refresh+jwt`
with a `jti`), refresh tokens that rotate; `did:plc` identifiers of 24 base32 characters; CIDs
that decode as CIDv1 (base32, dag-cbor, sha2-256; the hash is of the record's JSON, which is
enough for clients that only carry CIDs); a home timeline paged by cursor (posts, reposts,
replies, quotes, images with alt text, link facets), notifications whose records are whole
(a like's `subject` and `createdAt`), getPosts, getProfile, updateSeen and createRecord, with
Bluesky's `ratelimit-*` headers. It can be told to misbehave (429, 500, expired access tokens).
The official Python SDK's Client logs in to it and reads the timeline (tests:
BlueskySDKSessionTests). It binds 127.0.0.1 or ::1 only, prints `PORT <n>` (the entryway) on
its first line of standard output once both ports listen, and stops by itself when idle or when
the process that started it is gone.

Endpoints (XRPC, under /xrpc/; the entryway serves the com.atproto.server ones and resolveHandle):
  POST com.atproto.server.createSession   {"identifier", "password"}  (the handle or DID, --password)
  POST com.atproto.server.refreshSession  Bearer refresh token; the old one stops working
  POST com.atproto.server.deleteSession   Bearer refresh token
  GET  app.bsky.feed.getTimeline          ?limit (1-100, default 50) &cursor
  GET  app.bsky.notification.listNotifications  ?limit &cursor
  GET  app.bsky.feed.getPosts             ?uris=…&uris=… (25 at most)
  POST app.bsky.notification.updateSeen   {"seenAt"}
  GET  com.atproto.identity.resolveHandle ?handle
  GET  app.bsky.actor.getProfile          ?actor (a handle or DID)
  POST com.atproto.repo.createRecord      {"repo", "collection": "app.bsky.feed.post", "record"}
                                          or collection app.bsky.feed.like / app.bsky.feed.repost with
                                          record {"subject": {"uri", "cid"}}: the post's count and its
                                          `viewer.like` / `viewer.repost` (the record's URI) follow
  POST com.atproto.repo.uploadBlob        the picture's bytes with its Content-Type: {"blob": {"$type": "blob",
                                          "ref": {"$link": CID of the bytes}, "mimeType", "size"}}
  POST com.atproto.repo.putRecord         {"repo", "collection", "rkey", "record"}: a like, repost or
                                          follow under the client's key; the same key again is the same record
  POST com.atproto.repo.deleteRecord      {"repo", "collection", "rkey"} (post, like, repost or follow)
                                          createRecord also takes app.bsky.graph.follow {"subject": DID}:
                                          getProfile's `viewer.following` then names the record
  GET  app.bsky.graph.getFollows          ?actor &limit &cursor: whom the account follows, newest first
  POST app.bsky.graph.muteActor / unmuteActor  {"actor"}: getProfile's `viewer.muted` follows (issue 34)
  GET  app.bsky.graph.getMutes / getBlocks ?limit &cursor: the accounts muted, blocked, newest first
                                          (createRecord / putRecord / deleteRecord take app.bsky.graph.block
                                          {"subject": DID}; getProfile's `viewer.blocking` names the record)
  GET  app.bsky.actor.getPreferences      the preferences byte for byte as /_control/preferences set them
  POST app.bsky.actor.putPreferences      {"preferences": [...]}: replaces the list; every body kept as sent
  POST com.atproto.moderation.createReport {"reasonType", "reason", "subject": strongRef {uri, cid}}
  GET  app.bsky.feed.searchPosts          ?q &tag &sort &limit &cursor: posts whose text holds the tag
  GET  app.bsky.graph.getLists            ?actor: one list of the account, "Sky Friends" (people 1 and 2)
  GET  app.bsky.graph.getList             ?list: a list made here (createRecord of app.bsky.graph.list), its
                                          app.bsky.graph.listitem records; deleteRecord takes both
  GET  app.bsky.feed.getListFeed          ?list &limit &cursor: that list's posts; another list is 400
  GET  app.bsky.feed.getFeed              ?feed &limit &cursor: any feed generator: the whole timeline, each
                                          item with a `feedContext` (`ctx-<feed's record key>-<position>`),
                                          the answer with a `reqId` (`req-<cursor>`)
  GET  app.bsky.feed.getFeedGenerators    ?feeds (repeated): a generatorView per feed (did
                                          did:web:feeds.loopback.test, acceptsInteractions true; the
                                          record key `whats-hot` is named "Discover", others by their key)
  POST app.bsky.feed.sendInteractions     {"interactions": [...]}: answers {}; the request keeps its
                                          `atproto-proxy` header (`proxy` in /_control/requests)
  GET  app.bsky.feed.getPostThread        ?uri &depth &parentHeight: threadViewPost nodes (parents up,
                                          replies down, one notFoundPost reply among them)
  GET  chat.bsky.convo.listConvos         ?limit (1-100) &cursor: convoViews, newest first (issue 37);
                                          every chat.bsky call needs `atproto-proxy:
                                          did:web:api.bsky.chat#bsky_chat` (else 400), and an app password
                                          without direct messages (/_control/chats privileged false) gets
                                          400 {"error": "InvalidToken", "message": "Bad token method"}, as the PDS
  GET  chat.bsky.convo.getConvo           ?convoId: {"convo": convoView}
  GET  chat.bsky.convo.getMessages        ?convoId &limit &cursor: messageViews (one deletedMessageView), newest first
  POST chat.bsky.convo.sendMessage        {"convoId", "message": {"text", "facets"?}}: the messageView made
  POST chat.bsky.convo.updateRead         {"convoId"}: its unreadCount becomes 0

Every post view carries `labels` (com.atproto.label.defs#label: src, uri, cid, val, cts), and an
author's profile its account labels, as /_control/label puts them; getTimeline leaves out labels
of labelers the request's `atproto-accept-labelers` does not name (Bluesky's own is always named),
as Bluesky's AppView does, and records the header with each request.

Control (no authentication; tests only; on both ports):
  GET  /_control/state      counts, seen_at, the records created, the session generation, every
                            token handed out (`tokens`), the account's DID and PDS (`did`, `pds`)
  GET  /_control/requests   every XRPC request: method, nsid, query, has_authorization, body (JSON),
                            server ("entryway" or "pds")
  POST /_control/posts      {"count": N}: N new posts on top of the timeline
  POST /_control/forget     {"uri"}: the post is gone (its author deleted it): getPosts leaves it out
  POST /_control/reply      {"to": URI}: someone replies to the post (not in the home timeline); answers {"uri"}
  POST /_control/thread_padding  {"count": N}: getPostThread adds N made-up replies to the post asked for
  POST /_control/expire     every access token stops working (as two hours do)
  POST /_control/revoke     every token stops working (the app password was revoked)
  POST /_control/faults     [{"nsid": "…", "status": 429, "times": 1, "headers": {…}}]; with
                            "hold": S instead of a status, the request is done and its answer held
                            back S seconds (a client killed meanwhile never learns it was done)
  POST /_control/lag        {"on": true}: getPosts leaves the viewer state out, getProfile the follow (an AppView behind)
  POST /_control/label      {"uri": a post URI or an account DID, "val", "src" (a labeler DID), "neg": false}:
                            the post (or every post of the account, on its profile) gets the label
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import secrets
import socket
import sys
import threading
import time
import urllib.parse
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The newest post is at this time, older ones a minute apart: thirty seconds off the Mastodon
# test server's statuses (12:00:00, 11:59:00, …), so that a mixed timeline interleaves them.
NEWEST_TIME = datetime(2024, 3, 1, 11, 59, 30, tzinfo=timezone.utc)


def base32(data):
    """RFC 4648 base32 in lower case without padding, as did:plc and CIDs write it."""
    return base64.b32encode(data).decode("ascii").lower().rstrip("=")


def plc(name):
    """A did:plc identifier of the shape the PLC directory gives: 24 base32 characters (here
    from a hash of `name`, so that they stay the same from run to run)."""
    return "did:plc:" + base32(hashlib.sha256(name.encode("utf-8")).digest())[:24]


def cid(value):
    """A CIDv1 in base32 (`bafyrei…`): version 1, dag-cbor (0x71), sha2-256 (0x12, 32 bytes),
    of `value`'s JSON. It decodes as a CID; the bytes hashed are JSON, not DAG-CBOR, which no
    client of this server can tell (none is given the blocks)."""
    digest = hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8")).digest()
    return "b" + base32(bytes([0x01, 0x71, 0x12, 0x20]) + digest)


def base64url(data):
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def jwt(secret, kind, claims):
    """A JWT signed with HS256, as a PDS signs its session tokens (`kind` is the header's `typ`)."""
    signing_input = base64url(json.dumps({"typ": kind, "alg": "HS256"}).encode()) + "." + base64url(json.dumps(claims).encode())
    return signing_input + "." + base64url(hmac.new(secret, signing_input.encode("ascii"), hashlib.sha256).digest())


def jwt_claims(secret, token):
    """The claims of a token this server signed and that has not expired, else None."""
    try:
        signing_input, signature = token.rsplit(".", 1)
        expected = base64url(hmac.new(secret, signing_input.encode("ascii"), hashlib.sha256).digest())
        if not hmac.compare_digest(signature, expected):
            return None
        payload = signing_input.split(".", 1)[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (ValueError, UnicodeError):
        return None
    return claims if isinstance(claims, dict) and claims.get("exp", 0) > time.time() else None


ME = plc("loopback me")
# Bluesky's own moderation service, whose labels every client asks for (BSKY_LABELER_DID).
BSKY_LABELER = "did:plc:ar7c4by46qjdydhdevvrndac"


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def tid(number):
    """A record key shaped like a TID (13 characters of base32-sortable), from a number."""
    alphabet = "234567abcdefghijklmnopqrstuvwxyz"
    text = ""
    for _ in range(13):
        text = alphabet[number % 32] + text
        number //= 32
    return text


class Data:
    def __init__(self, post_count, handle, password):
        self.lock = threading.Lock()
        self.handle, self.password = handle, password
        self.people = [{"did": plc("loopback user %d" % n), "handle": "user%d.loopback.test" % n,
                        "displayName": "Sky User %d" % n} for n in range(8)]
        self.me = {"did": ME, "handle": handle, "displayName": "Loopback Me"}
        self.feed = []            # feed items, newest first
        self.posts = {}           # uri -> post view
        self.generation = 0
        self.secret = secrets.token_bytes(32)
        self.issued = []          # every token handed out, in order
        self.access = set()
        self.refresh = set()
        self.last_activity = time.monotonic()
        self.sequence = 0
        self.requests = []
        self.faults = []
        self.created = []
        self.deleted = []          # URIs of records deleted (com.atproto.repo.deleteRecord)
        self.blobs = []            # blobs uploaded (com.atproto.repo.uploadBlob): cid, mimeType, size
        self.interactions = {}     # like/repost record URI -> (post URI, viewer field, count field)
        self.lagging = False       # getPosts leaves the viewer state out (/_control/lag)
        self.follows = []          # [(subject DID, follow record URI)], newest follow first
        self.list_records = {}     # URI -> app.bsky.graph.list or app.bsky.graph.listitem record made (issue 37)
        self.thread_padding = 0    # made-up replies getPostThread adds (a huge or hostile thread)
        self.seen_at = None
        self.labels = []           # every label put by /_control/label, in order
        # Issue 34: the AppView's mutes (DIDs, newest first), the block records
        # [(subject DID, record URI)], the preferences as getPreferences answers them (bytes),
        # every putPreferences body as sent, and the reports.
        self.mutes = []
        self.blocks = []
        self.preferences_body = b'{"preferences":[]}'
        self.put_preferences = []
        self.reports = []
        self.rate_used = 0
        self.notifications = []
        # Issue 37: chats (convoViews with their messages, newest first), whether the app
        # password may use them, and every sendMessage body as sent.
        self.convos = []
        self.chat_privileged = True
        self.sent_messages = []
        self.build(post_count)

    # -- content -------------------------------------------------------------------------------

    def post_view(self, author, key, text, moment, record_extra=None, embed=None):
        uri = "at://%s/app.bsky.feed.post/%s" % (author["did"], key)
        record = {"$type": "app.bsky.feed.post", "text": text, "createdAt": iso(moment), "langs": ["en"]}
        record.update(record_extra or {})
        view = {"uri": uri, "cid": cid(record), "author": author, "record": record,
                "indexedAt": iso(moment), "likeCount": self.sequence % 11, "repostCount": self.sequence % 5,
                "replyCount": self.sequence % 3, "quoteCount": 0, "labels": []}
        if embed:
            view["embed"] = embed
        self.posts[uri] = view
        return view

    def make_item(self, number, moment):
        """Post `number`: most plain, some with a link facet, images, a reply or a quote; every
        sixth reposted by someone else."""
        self.sequence += 1
        author = self.people[number % len(self.people)]
        key = tid(1_000_000 + number)
        text = "Sky post %d: %s" % (number, ["hello from the loopback sky", "coffee and code", "a walk by the river",
                                             "reading the atproto specs", "空がきれい"][number % 5])
        extra, embed = {}, None
        if number % 4 == 1:
            link = "https://example.com/articles/%d/a-long-path-name" % number
            shown = "example.com/articles/%d/a-lo..." % number
            start = len((text + " ").encode("utf-8"))
            text = text + " " + shown
            extra["facets"] = [{"index": {"byteStart": start, "byteEnd": start + len(shown.encode("utf-8"))},
                                "features": [{"$type": "app.bsky.richtext.facet#link", "uri": link}]}]
        if number % 5 == 2:
            embed = {"$type": "app.bsky.embed.images#view", "images": [
                {"thumb": "https://cdn.loopback.test/t/%d.jpg" % number, "fullsize": "https://cdn.loopback.test/f/%d.jpg" % number,
                 "alt": "a picture for post %d" % number}]}
        item = {}
        if number % 7 == 3 and self.feed:
            parent = self.feed[-1]["post"]
            extra["reply"] = {"root": {"uri": parent["uri"], "cid": parent["cid"]}, "parent": {"uri": parent["uri"], "cid": parent["cid"]}}
            item["reply"] = {"root": parent, "parent": parent}
        if number % 9 == 5 and self.feed and embed is None:
            quoted = self.feed[-1]["post"]
            embed = {"$type": "app.bsky.embed.record#view", "record": {
                "$type": "app.bsky.embed.record#viewRecord", "uri": quoted["uri"], "cid": quoted["cid"],
                "author": quoted["author"], "value": quoted["record"], "indexedAt": quoted["indexedAt"]}}
        item["post"] = self.post_view(author, key, text, moment, extra, embed)
        if number % 6 == 0:
            by = self.people[(number + 3) % len(self.people)]
            item["reason"] = {"$type": "app.bsky.feed.defs#reasonRepost", "by": by,
                              "uri": "at://%s/app.bsky.feed.repost/%s" % (by["did"], tid(2_000_000 + number)),
                              "indexedAt": iso(moment + timedelta(seconds=10))}
        return item

    def build(self, count):
        # Oldest first, so that replies and quotes point at older posts.
        for index in range(count):
            number = count - 1 - index
            self.feed.append(self.make_item(index, NEWEST_TIME - timedelta(minutes=number)))
        self.feed.reverse()
        mine = self.post_view(self.me, tid(3_000_000), "my own loopback post", NEWEST_TIME - timedelta(hours=5))
        liker, replier, follower = self.people[1], self.people[2], self.people[3]
        reply = self.post_view(replier, tid(3_000_001), "@%s nice post!" % self.handle, NEWEST_TIME - timedelta(hours=1),
                               {"reply": {"root": {"uri": mine["uri"], "cid": mine["cid"]}, "parent": {"uri": mine["uri"], "cid": mine["cid"]}}})
        liked = iso(NEWEST_TIME - timedelta(minutes=30))
        like = {"$type": "app.bsky.feed.like", "subject": {"uri": mine["uri"], "cid": mine["cid"]}, "createdAt": liked}
        follow = {"$type": "app.bsky.graph.follow", "subject": ME, "createdAt": iso(NEWEST_TIME - timedelta(hours=2))}
        self.notifications = [
            {"uri": "at://%s/app.bsky.feed.like/%s" % (liker["did"], tid(4_000_000)), "cid": cid(like), "author": liker,
             "reason": "like", "reasonSubject": mine["uri"], "record": like, "isRead": False,
             "indexedAt": liked, "labels": []},
            {"uri": reply["uri"], "cid": reply["cid"], "author": replier, "reason": "reply", "reasonSubject": mine["uri"],
             "record": reply["record"], "isRead": False, "indexedAt": reply["indexedAt"], "labels": []},
            {"uri": "at://%s/app.bsky.graph.follow/%s" % (follower["did"], tid(4_000_001)), "cid": cid(follow),
             "author": follower, "reason": "follow", "record": follow, "isRead": True,
             "indexedAt": iso(NEWEST_TIME - timedelta(hours=2)), "labels": []},
        ]

    def add_posts(self, count):
        newest = self.feed[0]["post"]["indexedAt"] if self.feed else iso(NEWEST_TIME)
        moment = datetime.strptime(newest, "%Y-%m-%dT%H:%M:%S.000Z").replace(tzinfo=timezone.utc)
        base = len(self.feed)
        for index in range(count):
            moment += timedelta(minutes=1)
            self.feed.insert(0, self.make_item(base + index, moment))

    def session(self, pds_url):
        """A new session: JWTs as a PDS signs them (the access token lives two hours, the refresh
        token ninety days and has an ID), and the DID document that names the account's PDS."""
        self.generation += 1
        now = int(time.time())
        audience = "did:web:" + urllib.parse.urlsplit(pds_url).hostname
        access = jwt(self.secret, "at+jwt", {"scope": "com.atproto.appPass", "sub": ME, "aud": audience, "iat": now,
                                              "exp": now + 7200, "jti": secrets.token_urlsafe(16)})
        refresh = jwt(self.secret, "refresh+jwt", {"scope": "com.atproto.refresh", "sub": ME, "aud": audience, "iat": now,
                                                    "exp": now + 90 * 86400, "jti": secrets.token_urlsafe(16)})
        self.access.add(access)
        self.refresh.add(refresh)
        self.issued += [access, refresh]
        return {"did": ME, "handle": self.handle, "accessJwt": access, "refreshJwt": refresh, "active": True,
                "didDoc": {"@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
                           "id": ME, "alsoKnownAs": ["at://" + self.handle],
                           "service": [{"id": "#atproto_pds", "type": "AtprotoPersonalDataServer", "serviceEndpoint": pds_url}]}}

    def valid(self, token, tokens):
        """Whether `token` is one of `tokens` (live ones of its kind), signed here and not expired."""
        return token in tokens and jwt_claims(self.secret, token) is not None

    def add_chats(self, count, messages):
        """`count` chats with one person each, newest first, each of `messages` messages (the
        oldest deleted, the newest with an escape sequence); every other one unread."""
        for number in range(count):
            person = self.people[number % len(self.people)]
            convo_id = "convo%d" % (len(self.convos) + 1)
            history = []
            for index in range(messages):
                moment = NEWEST_TIME - timedelta(hours=number, minutes=messages - index)
                sender = person if index % 2 == 0 else self.me
                view = {"$type": "chat.bsky.convo.defs#messageView", "id": "%s-m%d" % (convo_id, index), "rev": tid(index + 1),
                        "text": "message %d of %s" % (index, convo_id), "sender": {"did": sender["did"]}, "sentAt": iso(moment)}
                if index == 0:
                    view = {"$type": "chat.bsky.convo.defs#deletedMessageView", "id": view["id"], "rev": view["rev"],
                            "sender": view["sender"], "sentAt": view["sentAt"]}
                if index == messages - 1:
                    view["text"] = "newest \x1b[31mred\x1b[0m of %s" % convo_id
                history.insert(0, view)
            self.convos.append({"id": convo_id, "rev": tid(len(self.convos) + 1),
                                "members": [{"did": self.me["did"], "handle": self.handle}, {"did": person["did"], "handle": person["handle"]}],
                                "unreadCount": 2 if number % 2 == 0 else 0, "muted": False, "messages": history})

    def convo_view(self, convo):
        view = {key: value for key, value in convo.items() if key != "messages"}
        if convo["messages"]:
            view["lastMessage"] = convo["messages"][0]
        return view

    def rate_headers(self):
        self.rate_used += 1
        return {"ratelimit-limit": "3000", "ratelimit-remaining": str(max(0, 3000 - self.rate_used)),
                "ratelimit-reset": str(int(time.time()) + 300), "ratelimit-policy": "3000;w=300"}


def page(items, query, key):
    limit = max(1, min(100, int(query.get("limit", ["50"])[0])))
    start = int(query.get("cursor", ["0"])[0] or 0)
    chunk = items[start:start + limit]
    answer = {key: chunk}
    if start + len(chunk) < len(items):
        answer["cursor"] = str(start + len(chunk))
    return answer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        if self.server.verbose:
            sys.stderr.write("bluesky-test-server: " + (format % args) + "\n")

    @property
    def data(self):
        return self.server.data

    def pds_url(self):
        return self.server.pds_url

    def accepted_labelers(self):
        """The labelers the request names (`atproto-accept-labelers`), and Bluesky's own."""
        named = {item.split(";")[0].strip() for item in (self.headers.get("atproto-accept-labelers") or "").split(",")}
        return named | {BSKY_LABELER}

    def labelled(self, value):
        """`value` (an answer) with the labels of labelers the request does not name left out,
        in every post view and profile it holds."""
        accepted = self.accepted_labelers()
        def walk(node):
            if isinstance(node, dict):
                copy = {key: walk(item) for key, item in node.items()}
                if isinstance(copy.get("labels"), list) and all(isinstance(label, dict) and "src" in label for label in copy["labels"]):
                    copy["labels"] = [label for label in copy["labels"]
                                      if label["src"] in accepted or label["src"] == copy.get("did")
                                      or label["src"] == (copy.get("author") or {}).get("did")]
                return copy
            if isinstance(node, list):
                return [walk(item) for item in node]
            return node
        return walk(value)

    def send(self, status, body, headers=None):
        if getattr(self, "hold_answer", None):
            time.sleep(self.hold_answer)
            self.hold_answer = None
        payload = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def error(self, status, name, message, headers=None):
        self.send(status, {"error": name, "message": message}, headers)

    def bearer(self):
        header = self.headers.get("Authorization") or ""
        return header[7:] if header.startswith("Bearer ") else None

    def do_GET(self):
        self.handle_any()

    def do_POST(self):
        self.handle_any()

    def handle_any(self):
        self.data.last_activity = time.monotonic()
        split = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(split.query, keep_blank_values=True)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            # A blob's body is its bytes, never JSON (recorded by length and type).
            body = json.loads(raw) if raw and split.path != "/xrpc/com.atproto.repo.uploadBlob" else {}
        except ValueError:
            return self.error(400, "InvalidRequest", "the body is not JSON")
        if split.path.startswith("/_control/"):
            return self.control(split.path, body)
        if not split.path.startswith("/xrpc/"):
            return self.error(404, "NotFound", "no such path")
        nsid = split.path[len("/xrpc/"):]
        self.raw_body = raw
        with self.data.lock:
            self.data.requests.append({"method": self.command, "nsid": nsid, "query": split.query,
                                       "has_authorization": self.bearer() is not None, "body": body,
                                       "server": self.server.role,
                                       "accept_labelers": self.headers.get("atproto-accept-labelers"),
                                       "proxy": self.headers.get("atproto-proxy"),
                                       "content_type": self.headers.get("Content-Type"), "body_length": len(raw)})
            fault = next((f for f in self.data.faults if f.get("nsid") in (None, nsid)), None)
            if fault is not None:
                fault["times"] = fault.get("times", 1) - 1
                if fault["times"] <= 0:
                    self.data.faults.remove(fault)
        if fault is not None and fault.get("hold"):
            # Done, but the answer held back (`send` waits): a client killed meanwhile never
            # learns that it was done.
            self.hold_answer = float(fault["hold"])
            fault = None
        if fault is not None:
            headers = {name: str(value) for name, value in fault.get("headers", {}).items()}
            return self.error(int(fault.get("status", 500)), fault.get("error", "InternalServerError"), "asked for by the test", headers)
        route = ROUTES.get((self.command, nsid))
        if route is None:
            return self.error(501, "MethodNotImplemented", "%s is not served here" % nsid)
        if self.server.role == "entryway" and nsid not in ENTRYWAY:
            # A client that stays with the entryway after createSession never reaches the PDS.
            return self.error(400, "InvalidRequest", "%s is served by the account's PDS (the session's didDoc): %s"
                              % (nsid, self.pds_url()))
        return route(self, query, body)

    # -- sessions --------------------------------------------------------------------------------

    def create_session(self, query, body):
        with self.data.lock:
            if body.get("identifier") not in (self.data.handle, ME) or body.get("password") != self.data.password:
                return self.error(401, "AuthenticationRequired", "Invalid identifier or password")
            answer = self.data.session(self.pds_url())
        self.send(200, answer)

    def refresh_session(self, query, body):
        token = self.bearer()
        with self.data.lock:
            if not self.data.valid(token, self.data.refresh):
                return self.error(400, "ExpiredToken", "Token has been revoked")
            self.data.refresh.discard(token)
            answer = self.data.session(self.pds_url())
        self.send(200, answer)

    def delete_session(self, query, body):
        token = self.bearer()
        with self.data.lock:
            if not self.data.valid(token, self.data.refresh):
                return self.error(400, "ExpiredToken", "Token has been revoked")
            self.data.refresh.clear()
            self.data.access.clear()
        self.send(200, {})

    # -- the AppView ---------------------------------------------------------------------------

    def authorized(handler):
        def wrapped(self, query, body):
            with self.data.lock:
                valid = self.data.valid(self.bearer(), self.data.access)
                headers = self.data.rate_headers()
            if not valid:
                return self.error(400, "ExpiredToken", "Token has expired")
            return handler(self, query, body, headers)
        return wrapped

    def chat(handler):
        """A chat.bsky call as the PDS takes it: proxied to the chat service, with a token that
        may use chats."""
        def wrapped(self, query, body, headers):
            if self.headers.get("atproto-proxy") != "did:web:api.bsky.chat#bsky_chat":
                return self.error(400, "InvalidRequest", "chat.bsky methods are served by the chat service: send atproto-proxy")
            with self.data.lock:
                privileged = self.data.chat_privileged
            if not privileged:
                return self.error(400, "InvalidToken", "Bad token method")
            return handler(self, query, body, headers)
        return wrapped

    def find_convo(self, convo_id):
        return next((c for c in self.data.convos if c["id"] == convo_id), None)

    @authorized
    @chat
    def list_convos(self, query, body, headers):
        with self.data.lock:
            answer = page([self.data.convo_view(c) for c in self.data.convos], query, "convos")
        self.send(200, answer, headers)

    @authorized
    @chat
    def get_convo(self, query, body, headers):
        with self.data.lock:
            convo = self.find_convo(query.get("convoId", [""])[0])
            answer = {"convo": self.data.convo_view(convo)} if convo else None
        if answer is None:
            return self.error(400, "InvalidRequest", "Convo not found")
        self.send(200, answer, headers)

    @authorized
    @chat
    def get_messages(self, query, body, headers):
        with self.data.lock:
            convo = self.find_convo(query.get("convoId", [""])[0])
            answer = page(convo["messages"], query, "messages") if convo else None
        if answer is None:
            return self.error(400, "InvalidRequest", "Convo not found")
        self.send(200, answer, headers)

    @authorized
    @chat
    def send_message(self, query, body, headers):
        message = body.get("message") if isinstance(body, dict) else None
        if not isinstance(message, dict) or not isinstance(message.get("text"), str):
            return self.error(400, "InvalidRequest", "Input/message/text must be a string")
        with self.data.lock:
            convo = self.find_convo(body.get("convoId"))
            if convo is None:
                return self.error(400, "InvalidRequest", "Convo not found")
            self.data.sent_messages.append(body)
            self.data.sequence += 1
            view = {"$type": "chat.bsky.convo.defs#messageView", "id": "sent-%d" % self.data.sequence, "rev": tid(9_000 + self.data.sequence),
                    "text": message["text"], "sender": {"did": ME}, "sentAt": iso(NEWEST_TIME + timedelta(minutes=self.data.sequence))}
            if message.get("facets"):
                view["facets"] = message["facets"]
            convo["messages"].insert(0, view)
        self.send(200, view, headers)

    @authorized
    @chat
    def update_read(self, query, body, headers):
        with self.data.lock:
            convo = self.find_convo(body.get("convoId") if isinstance(body, dict) else None)
            if convo is not None:
                convo["unreadCount"] = 0
                answer = {"convo": self.data.convo_view(convo)}
        if convo is None:
            return self.error(400, "InvalidRequest", "Convo not found")
        self.send(200, answer, headers)

    @authorized
    def get_timeline(self, query, body, headers):
        with self.data.lock:
            # As the AppView: the posts of accounts muted or blocked leave the timeline.
            hidden = set(self.data.mutes) | {did for did, _ in self.data.blocks}
            feed = [item for item in self.data.feed if item["post"]["author"]["did"] not in hidden] if hidden else self.data.feed
            answer = self.labelled(page(feed, query, "feed"))
        self.send(200, answer, headers)

    @authorized
    def list_notifications(self, query, body, headers):
        with self.data.lock:
            answer = page(self.data.notifications, query, "notifications")
            if self.data.seen_at:
                answer["seenAt"] = self.data.seen_at
        self.send(200, answer, headers)

    @authorized
    def get_posts(self, query, body, headers):
        uris = query.get("uris", [])
        if len(uris) > 25:
            return self.error(400, "InvalidRequest", "uris must not have more than 25 elements")
        with self.data.lock:
            posts = [self.data.posts[uri] for uri in uris if uri in self.data.posts]
            if self.data.lagging:
                # An AppView behind the PDS: the account's new likes and reposts not seen yet.
                posts = [dict(post, viewer={}) for post in posts]
        self.send(200, {"posts": posts}, headers)

    @authorized
    def resolve_handle(self, query, body, headers):
        handle = query.get("handle", [""])[0]
        with self.data.lock:
            found = next((person["did"] for person in self.data.people + [self.data.me] if person["handle"] == handle), None)
        if found is None:
            return self.error(400, "InvalidRequest", "Unable to resolve handle")
        self.send(200, {"did": found}, headers)

    @authorized
    def get_profile(self, query, body, headers):
        actor = query.get("actor", [""])[0]
        with self.data.lock:
            person = next((p for p in self.data.people + [self.data.me] if actor in (p["did"], p["handle"])), None)
            posts = sum(1 for item in self.data.feed if item["post"]["author"] is person)
            record = next((uri for did, uri in self.data.follows if person is not None and did == person["did"]), None)
            if self.data.lagging:
                # An AppView behind the PDS does not show a follow made a moment ago either.
                record = None
        if person is None:
            return self.error(400, "InvalidRequest", "Profile not found")
        with self.data.lock:
            viewer = {"muted": person["did"] in self.data.mutes, "blockedBy": False}
            blocking = next((uri for did, uri in self.data.blocks if did == person["did"]), None)
        if record:
            viewer["following"] = record
        if blocking:
            viewer["blocking"] = blocking
        self.send(200, dict(person, followersCount=7, followsCount=len(self.data.follows), postsCount=posts,
                            indexedAt=iso(NEWEST_TIME - timedelta(days=30)), labels=[], viewer=viewer), headers)

    def thread_node(self, uri, depth, with_parent, parent_height):
        view = self.data.posts.get(uri)
        if view is None:
            return {"$type": "app.bsky.feed.defs#notFoundPost", "uri": uri, "notFound": True}
        node = {"$type": "app.bsky.feed.defs#threadViewPost", "post": view}
        parent = ((view["record"].get("reply") or {}).get("parent") or {}).get("uri")
        if with_parent and parent and parent_height > 0:
            node["parent"] = self.thread_node(parent, 0, True, parent_height - 1)
        if depth > 0:
            children = [v for v in self.data.posts.values()
                        if ((v["record"].get("reply") or {}).get("parent") or {}).get("uri") == uri]
            node["replies"] = [self.thread_node(child["uri"], depth - 1, False, 0) for child in children]
        return node

    @authorized
    def get_post_thread(self, query, body, headers):
        """A post's thread: its parents (`parentHeight`, default 80) and replies (`depth`,
        default 6), as threadViewPost nodes; a reply gone is a notFoundPost. `thread_padding`
        (control) adds made-up replies to the post asked for."""
        uri = query.get("uri", [""])[0]
        depth = int(query.get("depth", ["6"])[0])
        height = int(query.get("parentHeight", ["80"])[0])
        with self.data.lock:
            if uri not in self.data.posts:
                return self.error(400, "NotFound", "Post not found: %s" % uri)
            thread = self.thread_node(uri, depth, True, height)
            view = self.data.posts[uri]
            padding = [{"$type": "app.bsky.feed.defs#threadViewPost",
                        "post": dict(view, uri="at://%s/app.bsky.feed.post/%s" % (self.data.people[0]["did"], tid(8_000_000 + n)),
                                     author=self.data.people[0], record={"$type": "app.bsky.feed.post", "text": "padding %d" % n,
                                     "createdAt": view["record"]["createdAt"], "reply": {"root": {"uri": uri, "cid": view["cid"]},
                                                                                          "parent": {"uri": uri, "cid": view["cid"]}}})}
                       for n in range(self.data.thread_padding)]
        if depth > 0:
            thread["replies"] = thread.get("replies", []) + [
                {"$type": "app.bsky.feed.defs#notFoundPost", "uri": "at://did:plc:gone/app.bsky.feed.post/x", "notFound": True}] + padding
        self.send(200, {"thread": thread}, headers)

    LIST = "at://%s/app.bsky.graph.list/3kfriends22aa" % ME

    @authorized
    def search_posts(self, query, body, headers):
        """Posts whose text holds the tag (`tag`) or the words of `q`, newest first, by cursor."""
        words = (query.get("tag", [""])[0] or query.get("q", [""])[0].lstrip("#")).lower()
        with self.data.lock:
            posts = [item["post"] for item in self.data.feed if "reason" not in item and words in item["post"]["record"]["text"].lower()]
            answer = page(posts, query, "posts")
        self.send(200, answer, headers)

    @authorized
    def get_lists(self, query, body, headers):
        with self.data.lock:
            lists = [{"uri": Handler.LIST, "cid": cid({"name": "Sky Friends"}), "name": "Sky Friends",
                      "purpose": "app.bsky.graph.defs#curatelist", "creator": self.data.me,
                      "indexedAt": iso(NEWEST_TIME - timedelta(days=3))}] if query.get("actor", [""])[0] in (ME, self.data.handle) else []
        self.send(200, {"lists": lists}, headers)

    @authorized
    def get_list_feed(self, query, body, headers):
        """The list holds people 1 and 2: their posts, newest first."""
        if query.get("list", [""])[0] != Handler.LIST:
            return self.error(400, "InvalidRequest", "List not found")
        with self.data.lock:
            members = (self.data.people[1]["did"], self.data.people[2]["did"])
            items = [item for item in self.data.feed if "reason" not in item and item["post"]["author"]["did"] in members]
            answer = page(items, query, "feed")
        self.send(200, answer, headers)

    @authorized
    def get_feed(self, query, body, headers):
        """Any feed generator: the whole timeline, as a feed of everything would be, with the
        generator's `feedContext` per item and `reqId` per answer (app.bsky.feed.defs)."""
        key = query.get("feed", [""])[0].rsplit("/", 1)[-1]
        start = int(query.get("cursor", ["0"])[0] or 0)
        with self.data.lock:
            items = [dict(item, feedContext="ctx-%s-%d" % (key, n)) for n, item in enumerate(self.data.feed)]
            answer = page(items, query, "feed")
        answer["reqId"] = "req-%d" % start
        self.send(200, answer, headers)

    FEED_GENERATOR_DID = "did:web:feeds.loopback.test"

    @authorized
    def get_feed_generators(self, query, body, headers):
        """A generatorView (app.bsky.feed.defs#generatorView) for each feed asked for."""
        with self.data.lock:
            creator = self.data.me
        views = []
        for uri in query.get("feeds", []):
            key = uri.rsplit("/", 1)[-1]
            views.append({"uri": uri, "cid": cid({"feed": uri}), "did": Handler.FEED_GENERATOR_DID, "creator": creator,
                          "displayName": "Discover" if key == "whats-hot" else key, "likeCount": 3,
                          "acceptsInteractions": True, "indexedAt": iso(NEWEST_TIME - timedelta(days=10))})
        self.send(200, {"feeds": views}, headers)

    @authorized
    def send_interactions(self, query, body, headers):
        """Taken as the generator would take it, through the PDS's proxy: nothing answered."""
        if not isinstance(body.get("interactions"), list):
            return self.error(400, "InvalidRequest", "Input must have the property \"interactions\"")
        self.send(200, {}, headers)

    @authorized
    def get_follows(self, query, body, headers):
        """The accounts an actor follows (only the session's account follows anyone here),
        newest follow first, by cursor."""
        actor = query.get("actor", [""])[0]
        with self.data.lock:
            me = actor in (ME, self.data.handle)
            people = {p["did"]: p for p in self.data.people}
            follows = [dict(people[did], viewer={"following": uri}) for did, uri in self.data.follows if did in people] if me else []
            answer = page(follows, query, "follows")
            answer["subject"] = self.data.me
        self.send(200, answer, headers)

    def create_follow(self, body, headers, put=False):
        """A follow record: its subject is a DID (the AppView then shows it as the viewer's
        `following`). Bluesky does not refuse a second record for the same subject: a client must
        not make one, which `followed_twice` in the state counts. Under the client's key
        (`rkey`, putRecord) the same key again is the same record."""
        subject = (body.get("record") or {}).get("subject")
        if body.get("repo") not in (ME, self.data.handle):
            return self.error(400, "InvalidRequest", "repo must be the session's account")
        if not isinstance(subject, str) or not subject.startswith("did:"):
            return self.error(400, "InvalidRequest", "Invalid app.bsky.graph.follow record: subject must be a did")
        with self.data.lock:
            key = body.get("rkey") or tid(7_000_000 + len(self.data.created))
            uri = "at://%s/app.bsky.graph.follow/%s" % (ME, key)
            if any(record == uri for _, record in self.data.follows):
                if not put:
                    return self.error(400, "InvalidRequest", "Record already exists: %s" % uri)
                return self.send(200, {"uri": uri, "cid": cid(body.get("record"))}, headers)
            self.data.created.append({"uri": uri, "record": body.get("record")})
            self.data.follows.insert(0, (subject, uri))
        self.send(200, {"uri": uri, "cid": cid(body.get("record"))}, headers)

    def create_list_record(self, body, headers):
        """A curation list or an item of one (issue 37): kept as written, the item's subject a DID."""
        record = body.get("record") or {}
        if body.get("repo") not in (ME, self.data.handle):
            return self.error(400, "InvalidRequest", "repo must be the session's account")
        if body["collection"] == "app.bsky.graph.listitem" and not str(record.get("subject", "")).startswith("did:"):
            return self.error(400, "InvalidRequest", "Invalid app.bsky.graph.listitem record: subject must be a did")
        with self.data.lock:
            key = tid(8_000_000 + len(self.data.created))
            uri = "at://%s/%s/%s" % (ME, body["collection"], key)
            self.data.created.append({"uri": uri, "record": record})
            self.data.list_records[uri] = record
        self.send(200, {"uri": uri, "cid": cid(record)}, headers)

    @authorized
    def get_list(self, query, body, headers):
        """app.bsky.graph.getList of a list made here: its items, each its URI and subject's profile."""
        wanted = query.get("list", [""])[0]
        with self.data.lock:
            if self.data.list_records.get(wanted, {}).get("$type") != "app.bsky.graph.list":
                return self.error(400, "InvalidRequest", "List not found")
            people = {p["did"]: p for p in self.data.people}
            items = [{"uri": uri, "subject": people.get(record["subject"], {"did": record["subject"], "handle": "handle.invalid"})}
                     for uri, record in self.data.list_records.items()
                     if record.get("$type") == "app.bsky.graph.listitem" and record.get("list") == wanted]
            name = self.data.list_records[wanted].get("name")
        self.send(200, {"list": {"uri": wanted, "name": name, "purpose": "app.bsky.graph.defs#curatelist", "creator": self.data.me},
                        "items": items}, headers)

    # -- mutes, blocks, preferences and reports (issue 34) -----------------------------------------

    def person(self, actor):
        return next((p for p in self.data.people if actor in (p["did"], p["handle"])), None)

    @authorized
    def mute_actor(self, query, body, headers):
        """app.bsky.graph.muteActor / unmuteActor: {"actor": handle or DID}; answers nothing."""
        unmute = self.path.endswith("unmuteActor")
        with self.data.lock:
            person = self.person(body.get("actor"))
            if person is None:
                return self.error(400, "InvalidRequest", "Actor not found")
            if unmute:
                self.data.mutes = [did for did in self.data.mutes if did != person["did"]]
            elif person["did"] not in self.data.mutes:
                self.data.mutes.insert(0, person["did"])
        self.send(200, {}, headers)

    def profiles(self, dids, viewer_field=None):
        people = {p["did"]: p for p in self.data.people}
        return [dict(people[did], viewer={"muted": True} if viewer_field == "muted" else {"blocking": uri})
                for did, uri in dids if did in people]

    @authorized
    def get_mutes(self, query, body, headers):
        with self.data.lock:
            answer = page(self.profiles([(did, None) for did in self.data.mutes], "muted"), query, "mutes")
        self.send(200, answer, headers)

    @authorized
    def get_blocks(self, query, body, headers):
        with self.data.lock:
            answer = page(self.profiles(self.data.blocks), query, "blocks")
        self.send(200, answer, headers)

    def create_block(self, body, headers, put=False):
        """An app.bsky.graph.block record: subject a DID; under the client's key (putRecord)
        the same key again is the same record."""
        record = body.get("record") or {}
        subject = record.get("subject")
        if body.get("repo") not in (ME, self.data.handle):
            return self.error(400, "InvalidRequest", "repo must be the session's account")
        if record.get("$type") != "app.bsky.graph.block" or not isinstance(subject, str) or not subject.startswith("did:") \
                or not isinstance(record.get("createdAt"), str):
            return self.error(400, "InvalidRequest", "Invalid app.bsky.graph.block record")
        with self.data.lock:
            key = body.get("rkey") or tid(8_000_000 + len(self.data.created))
            uri = "at://%s/app.bsky.graph.block/%s" % (ME, key)
            if any(existing == uri for _, existing in self.data.blocks):
                if not put:
                    return self.error(400, "InvalidRequest", "Record already exists: %s" % uri)
                return self.send(200, {"uri": uri, "cid": cid(record)}, headers)
            self.data.created.append({"uri": uri, "record": record})
            self.data.blocks.insert(0, (subject, uri))
            self.data.follows = [(did, r) for did, r in self.data.follows if did != subject]
        self.send(200, {"uri": uri, "cid": cid(record)}, headers)

    @authorized
    def get_preferences(self, query, body, headers):
        """The preferences exactly as stored (a test sets their bytes: /_control/preferences)."""
        with self.data.lock:
            answer = self.data.preferences_body
        self.send(200, answer, headers)

    @authorized
    def put_preferences(self, query, body, headers):
        """Replaces the whole list, as the PDS does: every preference must be an object with a
        `$type` in the app.bsky.actor.defs namespace."""
        preferences = body.get("preferences")
        if not isinstance(preferences, list) or any(not isinstance(p, dict) or not isinstance(p.get("$type"), str) for p in preferences):
            return self.error(400, "InvalidRequest", "Input/preferences must be an array of preferences with $type")
        if any(not p["$type"].startswith("app.bsky.") for p in preferences):
            return self.error(400, "InvalidRequest", "Some preferences are not in the app.bsky namespace")
        with self.data.lock:
            self.data.put_preferences.append(self.raw_body.decode("utf-8"))
            self.data.preferences_body = json.dumps({"preferences": preferences}).encode("utf-8")
        self.send(200, {}, headers)

    REASONS = ("com.atproto.moderation.defs#reasonSpam", "com.atproto.moderation.defs#reasonViolation",
               "com.atproto.moderation.defs#reasonMisleading", "com.atproto.moderation.defs#reasonSexual",
               "com.atproto.moderation.defs#reasonRude", "com.atproto.moderation.defs#reasonOther",
               "com.atproto.moderation.defs#reasonAppeal")

    @authorized
    def create_report(self, query, body, headers):
        """com.atproto.moderation.createReport: reasonType, reason (2,000 graphemes at most),
        subject a repoRef or a strongRef (uri and the post's cid now); answers the report."""
        subject = body.get("subject") or {}
        if body.get("reasonType") not in Handler.REASONS:
            return self.error(400, "InvalidRequest", "Input/reasonType must be a known reason")
        if len(body.get("reason") or "") > 20000:
            return self.error(400, "InvalidRequest", "Input/reason must not be longer than 20000 characters")
        with self.data.lock:
            if subject.get("$type") == "com.atproto.repo.strongRef":
                view = self.data.posts.get(subject.get("uri"))
                if view is None or view["cid"] != subject.get("cid"):
                    return self.error(400, "InvalidRequest", "subject must name a record by uri and its cid")
            elif subject.get("$type") != "com.atproto.admin.defs#repoRef":
                return self.error(400, "InvalidRequest", "Input/subject must be a repoRef or a strongRef")
            report = {"id": len(self.data.reports) + 1, "reasonType": body["reasonType"], "subject": subject,
                      "reportedBy": ME, "createdAt": iso(datetime.now(timezone.utc))}
            if body.get("reason") is not None:
                report["reason"] = body["reason"]
            self.data.reports.append(body)
        self.send(200, report, headers)

    @authorized
    def update_seen(self, query, body, headers):
        with self.data.lock:
            self.data.seen_at = body.get("seenAt")
        self.send(200, {}, headers)

    # collection -> (the post view's viewer field, its count field)
    INTERACTIONS = {"app.bsky.feed.like": ("like", "likeCount"), "app.bsky.feed.repost": ("repost", "repostCount")}

    def create_interaction(self, body, headers, put=False):
        """A like or repost record: its subject must name a post by URI and the CID it has now
        (an AppView would not count it otherwise); the post's viewer state and count follow."""
        collection = body["collection"]
        viewer_field, count_field = Handler.INTERACTIONS[collection]
        subject = (body.get("record") or {}).get("subject") or {}
        if body.get("repo") not in (ME, self.data.handle):
            return self.error(400, "InvalidRequest", "repo must be the session's account")
        with self.data.lock:
            view = self.data.posts.get(subject.get("uri"))
            if view is None or view["cid"] != subject.get("cid"):
                return self.error(400, "InvalidRequest", "subject must name a post by uri and its cid")
            key = body.get("rkey") or tid(6_000_000 + len(self.data.created))
            uri = "at://%s/%s/%s" % (ME, collection, key)
            if uri in self.data.interactions:
                # putRecord with a key already used: the same record, written again.
                if not put:
                    return self.error(400, "InvalidRequest", "Record already exists: %s" % uri)
                return self.send(200, {"uri": uri, "cid": cid(body.get("record"))}, headers)
            self.data.created.append({"uri": uri, "record": body.get("record")})
            viewer = view.setdefault("viewer", {})
            if viewer_field not in viewer:
                view[count_field] = view.get(count_field, 0) + 1
            viewer[viewer_field] = uri
            self.data.interactions[uri] = (view["uri"], viewer_field, count_field)
        self.send(200, {"uri": uri, "cid": cid(body.get("record"))}, headers)

    @authorized
    def create_record(self, query, body, headers):
        record = body.get("record") or {}
        if body.get("collection") in Handler.INTERACTIONS:
            return self.create_interaction(body, headers)
        if body.get("collection") == "app.bsky.graph.follow":
            return self.create_follow(body, headers)
        if body.get("collection") == "app.bsky.graph.block":
            return self.create_block(body, headers)
        if body.get("collection") in ("app.bsky.graph.list", "app.bsky.graph.listitem"):
            return self.create_list_record(body, headers)
        if body.get("collection") != "app.bsky.feed.post" or not isinstance(record.get("text"), str):
            return self.error(400, "InvalidRequest", "only app.bsky.feed.post records with text are served here")
        if body.get("repo") not in (ME, self.data.handle):
            return self.error(400, "InvalidRequest", "repo must be the session's account")
        if len(record["text"]) > 3000:
            return self.error(400, "InvalidRequest", "Record/text must not be longer than 3000 bytes")
        embed = record.get("embed")
        if isinstance(embed, dict) and embed.get("$type") == "app.bsky.embed.record":
            # A quote names the quoted post by URI and the CID it has now, as a like does.
            subject = embed.get("record") or {}
            with self.data.lock:
                quoted = self.data.posts.get(subject.get("uri"))
            if quoted is None or quoted["cid"] != subject.get("cid"):
                return self.error(400, "InvalidRequest", "embed.record must name a post by uri and its cid")
        with self.data.lock:
            key = body.get("rkey") or tid(5_000_000 + len(self.data.created))
            uri = "at://%s/app.bsky.feed.post/%s" % (ME, key)
            if uri in self.data.posts:
                return self.error(400, "InvalidRequest", "Record already exists: %s" % uri)
            self.data.created.append({"uri": uri, "record": record})
            view = {"uri": uri, "cid": cid(record), "author": self.data.me, "record": record,
                    "indexedAt": iso(datetime.now(timezone.utc)), "likeCount": 0, "repostCount": 0, "replyCount": 0, "labels": []}
            self.data.posts[uri] = view
        self.send(200, {"uri": uri, "cid": view["cid"]}, headers)

    @authorized
    def upload_blob(self, query, body, headers):
        """`com.atproto.repo.uploadBlob` (issue 36): the body's bytes, typed by its Content-Type,
        answered as a blob whose CID is of those bytes (CIDv1, raw 0x55, sha2-256), as a PDS
        answers; the blobs are kept (`blobs` in /_control/state: cid, mimeType, size)."""
        digest = hashlib.sha256(self.raw_body).digest()
        blob = {"$type": "blob", "ref": {"$link": "b" + base32(bytes([0x01, 0x55, 0x12, 0x20]) + digest)},
                "mimeType": (self.headers.get("Content-Type") or "application/octet-stream").split(";")[0].strip(),
                "size": len(self.raw_body)}
        with self.data.lock:
            self.data.blobs.append({"cid": blob["ref"]["$link"], "mimeType": blob["mimeType"], "size": blob["size"]})
        self.send(200, {"blob": blob}, headers)

    @authorized
    def put_record(self, query, body, headers):
        """A like or repost written under the key the client chose (`rkey`): the same key again
        is the same record, never a second one."""
        if body.get("collection") == "app.bsky.graph.follow" and isinstance(body.get("rkey"), str):
            return self.create_follow(body, headers, put=True)
        if body.get("collection") == "app.bsky.graph.block" and isinstance(body.get("rkey"), str):
            return self.create_block(body, headers, put=True)
        if body.get("collection") not in Handler.INTERACTIONS or not isinstance(body.get("rkey"), str):
            return self.error(400, "InvalidRequest", "only like, repost and follow records with an rkey are served here")
        return self.create_interaction(body, headers, put=True)

    @authorized
    def delete_record(self, query, body, headers):
        """As a PDS does: deleting a record that is not there succeeds too."""
        collection = body.get("collection")
        if collection not in ("app.bsky.feed.post", "app.bsky.graph.follow", "app.bsky.graph.block", "app.bsky.graph.list",
                              "app.bsky.graph.listitem") + tuple(Handler.INTERACTIONS) \
                or not isinstance(body.get("rkey"), str):
            return self.error(400, "InvalidRequest", "only post, like, repost and follow records are served here")
        if body.get("repo") not in (ME, self.data.handle):
            return self.error(400, "InvalidRequest", "repo must be the session's account")
        uri = "at://%s/%s/%s" % (ME, collection, body["rkey"])
        with self.data.lock:
            self.data.posts.pop(uri, None)
            self.data.list_records.pop(uri, None)
            self.data.follows = [(did, record) for did, record in self.data.follows if record != uri]
            self.data.blocks = [(did, record) for did, record in self.data.blocks if record != uri]
            self.data.deleted.append(uri)
            interaction = self.data.interactions.pop(uri, None)
            view = self.data.posts.get(interaction[0]) if interaction else None
            if view is not None and view.get("viewer", {}).get(interaction[1]) == uri:
                del view["viewer"][interaction[1]]
                view[interaction[2]] = max(0, view.get(interaction[2], 0) - 1)
        self.send(200, {}, headers)

    # -- control -------------------------------------------------------------------------------

    def control(self, path, body):
        with self.data.lock:
            if path == "/_control/state":
                answer = {"posts": len(self.data.feed), "generation": self.data.generation, "seen_at": self.data.seen_at,
                          "created": self.data.created, "deleted": self.data.deleted, "blobs": self.data.blobs, "live_refresh_tokens": len(self.data.refresh),
                          "tokens": self.data.issued, "did": ME, "pds": self.server.pds_url,
                          "people": [{"did": p["did"], "handle": p["handle"]} for p in self.data.people],
                          "follows": [did for did, _ in self.data.follows]}
            elif path == "/_control/requests":
                answer = self.data.requests
            elif path == "/_control/moderation":
                answer = {"mutes": self.data.mutes, "blocks": [{"did": did, "uri": uri} for did, uri in self.data.blocks],
                          "preferences": self.data.preferences_body.decode("utf-8"), "put_preferences": self.data.put_preferences,
                          "reports": self.data.reports}
            elif path == "/_control/preferences":
                # The preferences getPreferences answers, byte for byte (`body`: a string).
                self.data.preferences_body = body["body"].encode("utf-8")
                answer = {}
            elif path == "/_control/mute":
                # A mute made in another app.
                self.data.mutes.insert(0, body["did"])
                answer = {"mutes": len(self.data.mutes)}
            elif path == "/_control/posts":
                self.data.add_posts(int(body.get("count", 1)))
                answer = {"posts": len(self.data.feed)}
            elif path == "/_control/reply":
                # Someone replies to a post; the reply is not in the home timeline.
                parent = self.data.posts[body["to"]]
                self.data.sequence += 1
                person = self.data.people[(self.data.sequence + 1) % len(self.data.people)]
                root = ((parent["record"].get("reply") or {}).get("root")) or {"uri": parent["uri"], "cid": parent["cid"]}
                view = self.data.post_view(person, tid(9_000_000 + self.data.sequence), "a reply %d" % self.data.sequence,
                                           NEWEST_TIME + timedelta(minutes=self.data.sequence),
                                           {"reply": {"root": root, "parent": {"uri": parent["uri"], "cid": parent["cid"]}}})
                answer = {"uri": view["uri"]}
            elif path == "/_control/thread_padding":
                self.data.thread_padding = int(body.get("count", 0))
                answer = {}
            elif path == "/_control/forget":
                # Another account deleted its post: getPosts no longer returns it.
                answer = {"forgotten": self.data.posts.pop(body.get("uri"), None) is not None}
            elif path == "/_control/lag":
                # The AppView falls behind: getPosts shows no viewer state (likes, reposts), and
                # getProfile no follow.
                self.data.lagging = bool(body.get("on", True))
                answer = {"lagging": self.data.lagging}
            elif path == "/_control/label":
                target = body["uri"]
                label = {"src": body.get("src", BSKY_LABELER), "uri": target, "val": body["val"],
                         "cts": iso(NEWEST_TIME), "ver": 1}
                if body.get("neg"):
                    label["neg"] = True
                if target.startswith("at://"):
                    view = self.data.posts[target]
                    label["cid"] = view["cid"]
                    view.setdefault("labels", []).append(label)
                else:
                    author = next(p for p in self.data.people if p["did"] == target)
                    author.setdefault("labels", []).append(label)
                self.data.labels.append(label)
                answer = {"labels": len(self.data.labels)}
            elif path == "/_control/chats":
                self.data.add_chats(int(body.get("count", 0)), int(body.get("messages", 3)))
                if "privileged" in body:
                    self.data.chat_privileged = bool(body["privileged"])
                answer = {"convos": [{"id": c["id"], "unreadCount": c["unreadCount"]} for c in self.data.convos],
                          "sent": self.data.sent_messages}
            elif path == "/_control/expire":
                self.data.access.clear()
                answer = {}
            elif path == "/_control/revoke":
                self.data.access.clear()
                self.data.refresh.clear()
                answer = {}
            elif path == "/_control/faults":
                self.data.faults.extend(body if isinstance(body, list) else [body])
                answer = {"faults": len(self.data.faults)}
            else:
                return self.error(404, "NotFound", "no such control")
        self.send(200, answer)


ROUTES = {
    ("POST", "com.atproto.server.createSession"): Handler.create_session,
    ("POST", "com.atproto.server.refreshSession"): Handler.refresh_session,
    ("POST", "com.atproto.server.deleteSession"): Handler.delete_session,
    ("GET", "app.bsky.feed.getTimeline"): Handler.get_timeline,
    ("GET", "app.bsky.notification.listNotifications"): Handler.list_notifications,
    ("GET", "app.bsky.feed.getPosts"): Handler.get_posts,
    ("POST", "app.bsky.notification.updateSeen"): Handler.update_seen,
    ("POST", "com.atproto.repo.uploadBlob"): Handler.upload_blob,
    ("GET", "com.atproto.identity.resolveHandle"): Handler.resolve_handle,
    ("POST", "com.atproto.repo.createRecord"): Handler.create_record,
    ("POST", "com.atproto.repo.putRecord"): Handler.put_record,
    ("POST", "com.atproto.repo.deleteRecord"): Handler.delete_record,
    ("GET", "app.bsky.actor.getProfile"): Handler.get_profile,
    ("GET", "app.bsky.graph.getFollows"): Handler.get_follows,
    ("POST", "app.bsky.graph.muteActor"): Handler.mute_actor,
    ("POST", "app.bsky.graph.unmuteActor"): Handler.mute_actor,
    ("GET", "app.bsky.graph.getMutes"): Handler.get_mutes,
    ("GET", "app.bsky.graph.getBlocks"): Handler.get_blocks,
    ("POST", "app.bsky.actor.putPreferences"): Handler.put_preferences,
    ("POST", "com.atproto.moderation.createReport"): Handler.create_report,
    ("GET", "app.bsky.feed.getPostThread"): Handler.get_post_thread,
    ("GET", "app.bsky.feed.searchPosts"): Handler.search_posts,
    ("GET", "app.bsky.graph.getLists"): Handler.get_lists,
    ("GET", "app.bsky.graph.getList"): Handler.get_list,
    ("GET", "app.bsky.feed.getListFeed"): Handler.get_list_feed,
    ("GET", "app.bsky.feed.getFeed"): Handler.get_feed,
    ("GET", "app.bsky.feed.getFeedGenerators"): Handler.get_feed_generators,
    ("POST", "app.bsky.feed.sendInteractions"): Handler.send_interactions,
    ("GET", "app.bsky.actor.getPreferences"): Handler.get_preferences,
    ("GET", "chat.bsky.convo.listConvos"): Handler.list_convos,
    ("GET", "chat.bsky.convo.getConvo"): Handler.get_convo,
    ("GET", "chat.bsky.convo.getMessages"): Handler.get_messages,
    ("POST", "chat.bsky.convo.sendMessage"): Handler.send_message,
    ("POST", "chat.bsky.convo.updateRead"): Handler.update_read,
}

# What the entryway answers itself; everything else is the PDS's.
ENTRYWAY = {"com.atproto.server.createSession", "com.atproto.server.refreshSession",
            "com.atproto.server.deleteSession", "com.atproto.identity.resolveHandle"}


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, family, data, verbose, role):
        self.address_family = family
        self.data = data
        self.verbose = verbose
        self.role = role          # "entryway" or "pds"
        self.pds_url = None       # set once the PDS listens
        super().__init__(address, Handler)

    def url(self):
        host, port = self.server_address[:2]
        return "http://%s:%d" % ("[%s]" % host if ":" in host else host, port)


def watchdog(data, idle_timeout, parent):
    """Ends the process when nothing happened for `idle_timeout` seconds or the parent died."""
    while True:
        time.sleep(0.25)
        if os.getppid() != parent or time.monotonic() - data.last_activity > idle_timeout:
            os._exit(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="127.0.0.1 (default) or ::1; nothing else")
    parser.add_argument("--port", type=int, default=0, help="0 (default): a free port, printed as PORT <n>")
    parser.add_argument("--statuses", type=int, default=120, help="posts in the home timeline (default 120)")
    parser.add_argument("--handle", default="me.loopback.test")
    parser.add_argument("--password", default="loop-back-app-pass")
    parser.add_argument("--idle-timeout", type=float, default=120.0, help="seconds without a request before it stops")
    parser.add_argument("--verbose", action="store_true", help="log requests on standard error")
    arguments = parser.parse_args()
    if arguments.host not in ("127.0.0.1", "::1"):
        parser.error("--host must be 127.0.0.1 or ::1: this server is for loopback tests only")
    family = socket.AF_INET6 if arguments.host == "::1" else socket.AF_INET
    data = Data(arguments.statuses, arguments.handle, arguments.password)
    server = Server((arguments.host, arguments.port), family, data, arguments.verbose, "entryway")
    pds = Server((arguments.host, 0), family, data, arguments.verbose, "pds")
    server.pds_url = pds.pds_url = pds.url()
    threading.Thread(target=pds.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
    threading.Thread(target=watchdog, args=(data, arguments.idle_timeout, os.getppid()), daemon=True).start()
    sys.stdout.write("PORT %d\n" % server.server_address[1])
    sys.stdout.flush()
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
