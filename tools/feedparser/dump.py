"""What feedparser reads in a feed: one JSON object per file named on the command line, for
Tests/TimelineFeedsTests/FeedparserComparisonTests.swift to compare with TimelineFeeds.

    .build/feedparser/bin/python tools/feedparser/dump.py URL FILE [FILE…]

prints {FILE: {"version": ..., "title": ..., "items": [{"id", "title", "link", "published",
"updated"}]}, …}: dates as seconds since 1970 (UTC), titles as feedparser gives them. URL is
the feeds' address, given as their Content-Location so relative links resolve against it. One
process for every file: Python and feedparser start once.
"""
import calendar
import json
import sys

import feedparser


def seconds(parsed):
    return None if parsed is None else calendar.timegm(parsed)


def read(url, path):
    with open(path, "rb") as handle:
        data = handle.read()
    feed = feedparser.parse(data, response_headers={"content-location": url})
    items = []
    for entry in feed.entries:
        items.append({
            "id": entry.get("id"),
            "title": entry.get("title"),
            "link": entry.get("link"),
            "published": seconds(entry.get("published_parsed")),
            "updated": seconds(entry.get("updated_parsed")),
        })
    return {"version": feed.get("version"), "title": feed.feed.get("title"), "items": items}


def main():
    url = sys.argv[1]
    json.dump({path: read(url, path) for path in sys.argv[2:]}, sys.stdout)


main()
