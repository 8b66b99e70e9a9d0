#!/usr/bin/env python3
"""Converts response snapshots of the atproto test suites (Jest) into the JSON the TimelineKit
tests read as Bluesky answers.

Run once when the fixtures are refreshed; the JSON files are committed, so the tests need no
Python:

    tools/atproto-snapshots/convert.py ATPROTO_CHECKOUT Fixtures/Bluesky

ATPROTO_CHECKOUT is a checkout of https://github.com/bluesky-social/atproto (MIT OR Apache-2.0).

A Jest snapshot is a JavaScript literal with trailing commas, and the suite replaces every value
that changes between runs with a placeholder: `user(N)` for a DID, `record(N)` for an at:// URI,
`cids(N)` for a CID. A client reads those as its real shapes, so each becomes a well-formed value,
the same N always the same value:

- `user(N)` becomes `did:plc:fixtureuserN`;
- `record(N)` becomes `at://DID/COLLECTION/fixturerecordN`, DID and collection taken from where
  the suite shows whose record it is (a post view's `author`, a repost reason's `by`, a
  notification's `author` and `record.$type`, a self-label's `src`); a URI seen only as a reference (a reply's root
  and parent not in the answer, a label's subject) keeps its author unknown
  (`did:plc:fixtureunknown`, `app.bsky.feed.post`);
- `cids(N)` becomes `bafyfixturecidN`.

Times stay as recorded (the suites pin them to 1970-01-01): these fixtures are about shapes.
"""
import json
import os
import re
import subprocess
import sys

# (snapshot file, entry name) -> the name it is saved under.
ENTRIES = [
    ("packages/pds/tests/proxied/__snapshots__/views.test.ts.snap",
     "proxies view requests feed.getTimeline 1", "getTimeline-proxied.json"),
    ("packages/bsky/tests/views/__snapshots__/timeline.test.ts.snap",
     "timeline views > fetches authenticated user's home feed w/ reverse-chronological algorithm 1",
     "getTimeline-alice.json"),
    ("packages/bsky/tests/views/__snapshots__/timeline.test.ts.snap",
     "timeline views > fetches authenticated user's home feed w/ reverse-chronological algorithm 2",
     "getTimeline-bob.json"),
    ("packages/bsky/tests/views/__snapshots__/notifications.test.ts.snap",
     "notification views > fetches notifications without a last-seen 1",
     "listNotifications.json"),
]


def snapshot_entries(text):
    """Every `exports[`NAME`] = `BODY`;` of a snapshot file, by name."""
    entries = {}
    for match in re.finditer(r"^exports\[`(.*?)`\] = `\n?(.*?)`;$", text, re.S | re.M):
        entries[match.group(1)] = match.group(2)
    return entries


def js_literal_to_json(body):
    """The snapshot's literal as JSON: no trailing commas (strings in these entries hold none
    before a closing bracket, which the parse below would catch)."""
    return json.loads(re.sub(r",(\s*[}\]])", r"\1", body))


PLACEHOLDER = re.compile(r"^(user|record|cids)\((\d+)\)$")


def owners(value, found):
    """record(N) -> (DID placeholder, collection) where the answer says whose record it is."""
    if isinstance(value, list):
        for item in value:
            owners(item, found)
        return
    if not isinstance(value, dict):
        return
    uri = value.get("uri")
    if isinstance(uri, str) and PLACEHOLDER.match(uri):
        author = value.get("author") or {}
        record = value.get("record") or value.get("value") or {}
        collection = record.get("$type") if isinstance(record, dict) else None
        if value.get("$type") == "app.bsky.feed.defs#reasonRepost" and "by" in value:
            found.setdefault(uri, (value["by"]["did"], "app.bsky.feed.repost"))
        elif "did" in author:
            found.setdefault(uri, (author["did"], collection or "app.bsky.feed.post"))
        elif "src" in value and "val" in value:
            # A self-label: its subject is the labeller's own profile record.
            found.setdefault(uri, (value["src"], "app.bsky.actor.profile"))
    for item in value.values():
        owners(item, found)


def replace(value, found):
    if isinstance(value, list):
        return [replace(item, found) for item in value]
    if isinstance(value, dict):
        return {key: replace(item, found) for key, item in value.items()}
    if isinstance(value, str):
        match = PLACEHOLDER.match(value)
        if match:
            kind, number = match.groups()
            if kind == "user":
                return "did:plc:fixtureuser" + number
            if kind == "cids":
                return "bafyfixturecid" + number
            did, collection = found.get(value, ("did:plc:fixtureunknown", "app.bsky.feed.post"))
            did = replace(did, found)
            return "at://%s/%s/fixturerecord%s" % (did, collection, number)
        # Placeholders inside longer strings (avatar and image URLs).
        return re.sub(r"(user|cids)\((\d+)\)",
                      lambda m: ("did:plc:fixtureuser" if m.group(1) == "user" else "bafyfixturecid") + m.group(2),
                      value)
    return value


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    checkout, destination = sys.argv[1], sys.argv[2]
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    os.makedirs(destination, exist_ok=True)
    for path, name, output in ENTRIES:
        text = subprocess.run(["git", "-C", checkout, "show", "HEAD:" + path], capture_output=True, text=True, check=True).stdout
        entries = snapshot_entries(text)
        if name not in entries:
            sys.exit("%s: no entry %r" % (path, name))
        answer = js_literal_to_json(entries[name])
        if isinstance(answer, list):
            # Some suites snapshot the answer's list alone: put it back in its envelope.
            answer = {"notifications" if output.startswith("listNotifications") else "feed": answer}
        found = {}
        owners(answer, found)
        answer = replace(answer, found)
        with open(os.path.join(destination, output), "w") as file:
            json.dump(answer, file, indent=1, ensure_ascii=False, sort_keys=False)
            file.write("\n")
        print("%s <- %s: %s (commit %s)" % (output, path, name, commit or "?"))


if __name__ == "__main__":
    main()
