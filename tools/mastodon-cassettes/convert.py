#!/usr/bin/env python3
"""Converts Mastodon.py's VCR cassettes (YAML) into the JSON the TimelineKit tests replay.

Run once when the fixtures are refreshed; the JSON files are committed, so the tests need
neither Python nor a YAML reader:

    tools/mastodon-cassettes/convert.py MASTODON_PY_CHECKOUT Fixtures/Mastodon.py

MASTODON_PY_CHECKOUT is a checkout of https://github.com/halcy/Mastodon.py (MIT). Each
cassette becomes {"source", "interactions": [{"request": {...}, "response": {...}}]} with the
headers as [name, value] pairs in the order recorded (Link may repeat), bodies as text.
"""
import json
import os
import sys

import yaml

# The recordings the tests replay, and the name each is saved under.
CASSETTES = {
    "test_home_tl.yaml": "home_timeline.json",
    "test_markers.yaml": "markers.json",
    "test_fetch_next_previous.yaml": "fetch_next_previous.json",
    "test_min_max_id.yaml": "min_max_id.json",
    "test_notifications.yaml": "notifications.json",
    "test_status_post[Content warning-public].yaml": "status_post_content_warning_public.json",
    "test_status_edit.yaml": "status_edit.json",
    "test_instance.yaml": "instance.json",
    "test_unauthed_home_tl_throws.yaml": "unauthorized_home_timeline.json",
}


def header_pairs(headers):
    pairs = []
    for name, values in (headers or {}).items():
        for value in values if isinstance(values, list) else [values]:
            pairs.append([name, str(value)])
    return pairs


def body_text(body):
    if body is None:
        return None
    if isinstance(body, dict):
        body = body.get("string")
    if isinstance(body, bytes):
        body = body.decode("utf-8")
    return body


def convert(source_path, name):
    with open(source_path, encoding="utf-8") as handle:
        cassette = yaml.safe_load(handle)
    interactions = []
    for interaction in cassette["interactions"]:
        request, response = interaction["request"], interaction["response"]
        interactions.append({
            "request": {
                "method": request["method"],
                "uri": request["uri"],
                "headers": header_pairs(request.get("headers")),
                "body": body_text(request.get("body")),
            },
            "response": {
                "status": response["status"]["code"],
                "headers": header_pairs(response.get("headers")),
                "body": body_text(response.get("body")) or "",
            },
        })
    return {"source": "halcy/Mastodon.py tests/cassettes/" + name, "interactions": interactions}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    checkout, destination = sys.argv[1], sys.argv[2]
    os.makedirs(destination, exist_ok=True)
    for source, target in CASSETTES.items():
        document = convert(os.path.join(checkout, "tests", "cassettes", source), source)
        with open(os.path.join(destination, target), "w", encoding="utf-8") as handle:
            json.dump(document, handle, ensure_ascii=False, indent=1)
            handle.write("\n")
        print(f"{source} -> {target}: {len(document['interactions'])} interactions")


if __name__ == "__main__":
    main()
