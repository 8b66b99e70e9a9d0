#!/usr/bin/env python3
"""The long reliability runs of issue 6 against the built `timeline` binary.

Each scenario appends rows to one table: what was tried, how many runs, kills, processes or
inputs, what held, and every failure found. `tools/stress/run` builds the binary and calls this.
"""

import argparse
import fcntl
import hashlib
import json
import os
import pty
import random
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import threading
import time
import zlib

# ---------------------------------------------------------------------------------------------
# Running timeline


class Timeline:
    """The `timeline` binary pointed at one database, with a clean environment."""

    def __init__(self, binary, directory):
        self.binary = binary
        self.directory = directory
        os.makedirs(directory, exist_ok=True)
        self.db = os.path.join(directory, "timeline.sqlite")
        self.snapshot = os.path.join(directory, "timeline.snapshot")
        self.env = {"TIMELINE_DB": self.db, "HOME": "/nonexistent", "PATH": "/usr/bin:/bin",
                    "TERM": "xterm-256color"}

    def run(self, args, stdin=None, timeout=120, env=None):
        """Runs on pipes; returns (status, stdout bytes, stderr text, seconds)."""
        started = time.monotonic()
        done = subprocess.run([self.binary] + args, input=stdin, capture_output=True, timeout=timeout,
                              env=dict(self.env, **(env or {})))
        return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"), time.monotonic() - started

    def start(self, args):
        return subprocess.Popen([self.binary] + args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=self.env)

    def run_in_terminal(self, args, columns=80, rows=40, timeout=60, env=None):
        """Runs with a pseudo-terminal as stdin and stdout (stderr a pipe); returns like run()."""
        primary, secondary = pty.openpty()
        fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        attributes = termios.tcgetattr(secondary)
        attributes[1] &= ~termios.OPOST  # raw output: see the bytes as written
        termios.tcsetattr(secondary, termios.TCSANOW, attributes)
        started = time.monotonic()
        process = subprocess.Popen([self.binary] + args, stdin=secondary, stdout=secondary, stderr=subprocess.PIPE,
                                   env=dict(self.env, **(env or {})), start_new_session=True)
        os.close(secondary)
        errors = []
        reader = threading.Thread(target=lambda: errors.append(process.stderr.read()))
        reader.start()
        output = bytearray()
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:
                break  # EIO: the terminal's last writer is gone
            if not chunk:
                break
            output += chunk
        process.wait(timeout=timeout)
        reader.join()
        os.close(primary)
        return process.returncode, bytes(output), errors[0].decode("utf-8", "replace"), time.monotonic() - started

    def query(self, sql):
        connection = sqlite3.connect(self.db, timeout=30)
        try:
            return connection.execute(sql).fetchall()
        finally:
            connection.close()

    def dump(self):
        """The snapshot as `timeline snapshot --dump` prints it, or None when it does not read."""
        status, output, _, _ = self.run(["snapshot", "--dump"])
        return json.loads(output)["snapshot"] if status == 0 else None

    def stats(self):
        status, output, errors, _ = self.run(["stats", "--json"])
        if status != 0:
            raise RuntimeError("stats failed: " + errors)
        values = json.loads(output)
        return {key: values[key] for key in ["messages", "users", "unread", "generation"]}

    def fingerprint(self):
        """What must not change when a command fails: counts, every row, the snapshot's bytes."""
        rows = self.query("SELECT id, author_id, text, seq NOT IN (SELECT seq FROM unread_messages) AS read, like_count FROM messages ORDER BY id")
        users = self.query("SELECT id, handle, name FROM users ORDER BY id")
        digest = hashlib.sha256(repr((rows, users)).encode()).hexdigest()
        snapshot = open(self.snapshot, "rb").read() if os.path.exists(self.snapshot) else b""
        return (tuple(sorted(self.stats().items())), digest, hashlib.sha256(snapshot).hexdigest())


def message_line(id, author, text, created_ms, **extra):
    value = {"type": "message", "id": id, "author": author, "text": text,
             "created_at": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created_ms // 1000)) + ".%03dZ" % (created_ms % 1000)}
    value.update(extra)
    return json.dumps(value)


def user_line(id, handle=None, name=None):
    return json.dumps({"type": "user", "id": id, "handle": handle or id, "name": name or ("User " + id)})


def write_lines(path, lines):
    with open(path, "w") as file:
        file.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------------------------
# The table


class Table:
    def __init__(self):
        self.rows = []

    def add(self, scenario, tried, count, held, failures):
        self.rows.append((scenario, tried, count, held, failures))
        mark = "ok" if not failures else "FAILED (%d)" % len(failures)
        print("stress: %-22s %-60s %s" % (scenario, count, mark), file=sys.stderr, flush=True)

    def print(self):
        print()
        print("| scenario | what was tried | runs / kills / processes / inputs | what held | failures |")
        print("|---|---|---|---|---|")
        for scenario, tried, count, held, failures in self.rows:
            shown = "none" if not failures else "; ".join(sorted(set(failures)))[:600]
            print("| %s | %s | %s | %s | %s |" % (scenario, tried, count, held, shown))
        print()

    @property
    def failed(self):
        return any(row[4] for row in self.rows)


# ---------------------------------------------------------------------------------------------
# 1. Crash during save


class Model:
    """What the database must hold, built from the batches written, never read back."""

    def __init__(self):
        self.messages = {}  # id -> (text, likes, created_ms)

    def applied(self, batch):
        model = Model()
        model.messages = dict(self.messages)
        model.messages.update(batch)
        return model

    def rows(self):
        return sorted((id, text, likes) for id, (text, likes, _) in self.messages.items())

    def window(self, limit):
        newest = sorted(self.messages.items(), key=lambda item: (item[1][2], item[0]), reverse=True)[:limit]
        return [(id, text, likes) for id, (text, likes, _) in newest]


def crash(binary, work, kills, limit, seed, table):
    """Imports killed with SIGKILL at finely varied moments of a save; checks everything after each."""
    timeline = Timeline(binary, os.path.join(work, "crash-%d" % limit))
    rng = random.Random(seed)
    users = ["a", "b", "c"]
    used_times = set()
    model = Model()
    history = {}  # message count after a commit -> the window a snapshot of it must hold
    failures = []

    def new_batch(k, size, edits):
        batch = {}
        for n in range(size):
            while True:
                created = 1_700_000_000_000 + rng.randrange(200_000_000) * 1000
                if created not in used_times:
                    used_times.add(created)
                    break
            batch["b%d-%d" % (k, n)] = ("batch %d message %d %s" % (k, n, "x" * rng.randrange(50, 400)), 0, created)
        stored = sorted(model.messages)
        for id in rng.sample(stored, min(edits, len(stored))):
            text, likes, created = model.messages[id]
            batch[id] = ("edited in batch %d" % k, k, created)
        return batch

    def write_batch(k, batch):
        path = os.path.join(timeline.directory, "batch.jsonl")
        lines = [user_line(u) for u in users] if k == 0 else []
        lines += [message_line(id, users[len(id) % 3], text, created, likes=likes) for id, (text, likes, created) in batch.items()]
        write_lines(path, lines)
        return path

    def commit(batch):
        nonlocal model
        model = model.applied(batch)
        history[len(model.messages)] = model.window(limit)

    def check_snapshot(context):
        snapshot = timeline.dump()
        if snapshot is None:
            failures.append("a snapshot that does not read (%s)" % context)
            return None
        count = snapshot["state"]["messageCount"]
        if count not in history:
            failures.append("a snapshot of %d messages, a count no commit left (%s)" % (count, context))
            return snapshot
        shown = [(m["id"], m["text"], m["likeCount"]) for m in snapshot["window"]["messages"]]
        if shown != history[count]:
            failures.append("a snapshot whose window is not the newest %d of its commit (%s)" % (limit, context))
        return snapshot

    # The first batch fills the window; the snapshot limit is set; two imports run to the end to time one.
    first = new_batch(0, limit + 100, 0)
    status, _, errors, _ = timeline.run(["import", write_batch(0, first)])
    assert status == 0, errors
    commit(first)
    timeline.run(["snapshot", "--limit", str(limit)])
    durations = []
    for k in (1, 2):
        batch = new_batch(k, 60, 5)
        status, _, errors, seconds = timeline.run(["import", write_batch(k, batch)])
        assert status == 0, errors
        commit(batch)
        durations.append(seconds)
    span = max(durations) * 1.25

    outcomes = {"killed before commit": 0, "killed between commit and snapshot rename": 0,
                "killed after snapshot rename": 0, "finished": 0}
    for trial in range(kills):
        k = trial + 3
        batch = new_batch(k, rng.randrange(20, 120), rng.randrange(0, 8))
        path = write_batch(k, batch)
        # Finely spread delays: every part of the save gets hit, start-up to the final rename.
        delay = span * (trial + rng.random()) / kills
        previous_count = len(model.messages)
        process = timeline.start(["import", path])
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        status = process.wait()
        killed = status == -signal.SIGKILL
        context = "batch %d, delay %.1f ms" % (k, delay * 1000)

        after = model.applied(batch)
        rows = timeline.query("SELECT id, text, like_count FROM messages ORDER BY id")
        rows = sorted(rows)
        if not killed and status != 0:
            failures.append("import exited %d without being killed (%s)" % (status, context))
        if rows == after.rows():
            commit(batch)
            committed = True
        elif rows == model.rows():
            committed = False
            if not killed:
                failures.append("an import that exited 0 is not in the database (%s)" % context)
        else:
            failures.append("the database holds neither the state before the batch nor after it (%s)" % context)
            break
        integrity = timeline.query("PRAGMA integrity_check")
        if integrity != [("ok",)]:
            failures.append("integrity_check: %s (%s)" % (integrity, context))

        snapshot = check_snapshot(context)
        if not killed:
            outcomes["finished"] += 1
        elif not committed:
            outcomes["killed before commit"] += 1
        elif snapshot is not None and snapshot["state"]["messageCount"] == previous_count:
            outcomes["killed between commit and snapshot rename"] += 1
        else:
            outcomes["killed after snapshot rename"] += 1

        # The next show paints, then reconciles to the truth.
        status, output, errors, _ = timeline.run_in_terminal(["show", "-n", "3", "--color", "never"])
        if status != 0 or not output:
            failures.append("show after a kill: exit %d, %d bytes, %s" % (status, len(output), errors.strip()))
        status, _, errors, _ = timeline.run(["snapshot", "--check"])
        if status != 0:
            failures.append("snapshot --check after show: exit %d: %s" % (status, errors.strip()))
        snapshot = timeline.dump()
        if snapshot is None or [(m["id"], m["text"], m["likeCount"]) for m in snapshot["window"]["messages"]] != model.window(limit):
            failures.append("show did not reconcile the snapshot to the truth (%s)" % context)

    killed = kills - outcomes["finished"]
    table.add("crash during save", "`import` of 20–120 messages + edits, SIGKILL at delays spread over 0–%d ms, snapshot limit %d" % (span * 1000, limit),
              "%d runs, %d kills (%s)" % (kills, killed, ", ".join("%d %s" % (n, what) for what, n in outcomes.items())),
              "integrity_check ok; nothing committed lost; killed batch all-or-nothing; every snapshot = newest %d of a committed state; show reconciled" % limit,
              failures)


# ---------------------------------------------------------------------------------------------
# 2. Many terminals


def terminals(binary, work, rounds, table):
    timeline = Timeline(binary, os.path.join(work, "terminals"))
    sample = os.path.join(ROOT, "Fixtures", "sample-timeline.jsonl")
    status, _, errors, _ = timeline.run(["import", sample])
    assert status == 0, errors
    failures = []
    stop = threading.Event()
    imported = [0]

    def ingest():
        n = 0
        path = os.path.join(timeline.directory, "ingest.jsonl")
        while not stop.is_set():
            write_lines(path, [user_line("fetcher")] + [
                message_line("ingest-%d-%d" % (n, i), "fetcher", "ingested %d.%d" % (n, i), 1_800_000_000_000 + (n * 50 + i) * 1000)
                for i in range(50)])
            status, _, errors, _ = timeline.run(["import", path])
            if status != 0:
                failures.append("the writer's import exited %d: %s" % (status, errors.strip()))
            imported[0] += 1
            n += 1

    writer = threading.Thread(target=ingest)
    writer.start()
    durations = []
    lock_words = ("locked", "busy", "SQLITE_BUSY", "not updated")
    for round in range(rounds):
        results = [None] * 20

        def show(index):
            args = ["show", "-n", "3", "--color", "never"]
            results[index] = timeline.run_in_terminal(args) if index % 2 == 0 else timeline.run(args)

        threads = [threading.Thread(target=show, args=(i,)) for i in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for index, (status, output, errors, seconds) in enumerate(results):
            durations.append(seconds)
            where = "terminal" if index % 2 == 0 else "pipe"
            if status != 0:
                failures.append("a show on a %s exited %d: %s" % (where, status, errors.strip()))
            if not output:
                failures.append("a show on a %s printed nothing" % where)
            if any(word in errors for word in lock_words):
                failures.append("a show on a %s said: %s" % (where, errors.strip()))
            if seconds > 1.0:
                failures.append("a show on a %s took %.2f s" % (where, seconds))
    stop.set()
    writer.join()
    status, _, errors, _ = timeline.run(["snapshot", "--check"])
    if status != 0:
        failures.append("snapshot not fresh once the writer stopped: " + errors.strip())
    durations.sort()
    table.add("many terminals", "%d rounds of 20 `show`s at once (10 on ptys, 10 on pipes) while `import` runs back to back" % rounds,
              "%d show processes, %d imports" % (len(durations), imported[0]),
              "all exit 0 and print; no lock text; median %.0f ms, max %.0f ms (bound 1 s); snapshot fresh at the end"
              % (durations[len(durations) // 2] * 1000, durations[-1] * 1000),
              failures)


# ---------------------------------------------------------------------------------------------
# 3. A locked database


def locked(binary, work, hold, table):
    timeline = Timeline(binary, os.path.join(work, "locked"))
    sample = os.path.join(ROOT, "Fixtures", "sample-timeline.jsonl")
    timeline.run(["import", sample])
    timeline.run(["user", "me", "--handle", "locker", "--name", "Locker"])
    unread = timeline.query("SELECT id FROM messages WHERE seq IN (SELECT seq FROM unread_messages) LIMIT 1")[0][0]
    batch = os.path.join(timeline.directory, "batch.jsonl")
    write_lines(batch, [message_line("while-locked", "me", "must not land", 1_900_000_000_000)])
    painted = timeline.run(["show", "-n", "3", "--color", "never"])[1]
    before = timeline.fingerprint()
    failures = []

    ready = os.path.join(timeline.directory, "holder-ready")
    holder = subprocess.Popen(["sqlite3", timeline.db, "PRAGMA locking_mode=EXCLUSIVE;", "BEGIN EXCLUSIVE;",
                               "UPDATE messages SET like_count = like_count;", ".shell touch '%s'" % ready, ".shell sleep %s" % hold, "ROLLBACK;"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # The holder is a sqlite3 shell: if it fails to take the lock (a missing shell, a busy
    # database), it exits or hangs without ever touching the file, and the wait must not be
    # endless.
    deadline = time.monotonic() + READY_TIMEOUT
    while not os.path.exists(ready):
        if holder.poll() is not None or time.monotonic() > deadline:
            if holder.poll() is None:
                holder.kill()
            holder.wait()
            table.add("locked database", "sqlite3 holds `BEGIN EXCLUSIVE` for %s s" % hold, "0 processes",
                      "the holder takes the lock",
                      ["the sqlite3 holder %s without taking the lock (no %s after %.0f s)"
                       % ("exited with status %d" % holder.returncode if holder.returncode >= 0 else "was ended",
                          os.path.basename(ready), READY_TIMEOUT)])
            return
        time.sleep(0.005)
    commands = {
        "show (terminal)": (["show", "-n", "3", "--color", "never"], True, 0, 0.1, 0.6),
        "show (pipe)": (["show", "-n", "3", "--color", "never"], False, 75, 0.1, 0.6),
        "import": (["import", batch], False, 75, 5.0, 5.8),
        "post": (["post", "--as", "locker", "must not land"], False, 75, 5.0, 5.8),
        "mark-read": (["mark-read", unread], False, 75, 5.0, 5.8),
        "mark-read --all": (["mark-read", "--all"], False, 75, 5.0, 5.8),
        "delete": (["delete", unread], False, 75, 5.0, 5.8),
    }
    results = {}

    def go(name):
        args, terminal, _, _, _ = commands[name]
        results[name] = timeline.run_in_terminal(args) if terminal else timeline.run(args)

    threads = [threading.Thread(target=go, args=(name,)) for name in commands]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    holder.wait()
    timings = []
    for name, (args, terminal, expected, least, most) in commands.items():
        status, output, errors, seconds = results[name]
        timings.append("%s %.2f s" % (name, seconds))
        if status != expected:
            failures.append("%s exited %d, not %d: %s" % (name, status, expected, errors.strip()))
        if not (least <= seconds <= most):
            failures.append("%s took %.2f s, outside %.1f–%.1f s" % (name, seconds, least, most))
        if expected == 75 and "stayed locked by another process" not in errors:
            failures.append("%s said: %s" % (name, errors.strip()))
        if terminal and output != painted:
            failures.append("show on a terminal did not paint the snapshot")
    if timeline.fingerprint() != before:
        failures.append("something changed while the database was locked")
    table.add("locked database", "sqlite3 holds `BEGIN EXCLUSIVE` (exclusive locking mode) for %s s (longer than the 5 s write timeout); 7 commands meanwhile" % hold,
              "7 processes (%s)" % ", ".join(timings),
              "show paints at once (exit 0 on a terminal, 75 on a pipe, within its 100 ms); writes wait 5 s, exit 75 with a clear message; database and snapshot unchanged",
              failures)


# ---------------------------------------------------------------------------------------------
# 4. Hostile snapshot files


def hostile_snapshots(binary, work, table):
    timeline = Timeline(binary, os.path.join(work, "snapshots"))
    timeline.run(["import", os.path.join(ROOT, "Fixtures", "sample-timeline.jsonl")])
    good = open(timeline.snapshot, "rb").read()
    expected = timeline.run(["show", "-n", "2", "--color", "never"])[1]
    failures = []
    rng = random.Random(66)
    content_length = struct.unpack_from("<I", good, 4)[0]

    def with_header(change):
        data = bytearray(good)
        change(data)
        struct.pack_into("<I", data, 8 + content_length - 4, zlib.crc32(bytes(data[8:8 + content_length - 4])))
        return bytes(data)

    cases = {
        "empty file": b"",
        "not a snapshot": b"{\"messages\": []}\n",
        "truncated header": good[:20],
        "truncated payload": good[:len(good) // 2],
        "one byte short": good[:-1],
        "trailing garbage": good + b"garbage",
        "older format (0)": with_header(lambda d: struct.pack_into("<H", d, 16, 0)),
        "newer format (2)": with_header(lambda d: struct.pack_into("<H", d, 16, 2)),
        "declared payload 4 GB": with_header(lambda d: struct.pack_into("<I", d, 20, 0xFFFFFFFF)),
        "declared payload 64 MB": with_header(lambda d: struct.pack_into("<I", d, 20, 64 << 20)),
        "another database's ID": with_header(lambda d: d.__setitem__(36, (d[36] + 1) % 256)),
        "generation from the future": with_header(lambda d: struct.pack_into("<q", d, 24, 1 << 62)),
    }
    for n in range(200):
        data = bytearray(good)
        for _ in range(rng.randrange(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        cases["random damage %d" % n] = bytes(data)
    for name, data in cases.items():
        with open(timeline.snapshot, "wb") as file:
            file.write(data)
        status, output, errors, seconds = timeline.run(["show", "-n", "2", "--color", "never"], timeout=10)
        if status != 0 or output != expected or seconds > 2:
            failures.append("%s: show exit %d in %.2f s, output %s" % (name, status, seconds, "right" if output == expected else "wrong"))
        status, _, errors, _ = timeline.run(["snapshot", "--check"])
        if status != 0:
            failures.append("%s: not rewritten by show (check exit %d)" % (name, status))
    # A symlink, a directory and a FIFO in its place: refused, not followed, not blocked on.
    victim = os.path.join(timeline.directory, "victim")
    for kind in ("symlink", "directory", "fifo"):
        if os.path.isdir(timeline.snapshot) and not os.path.islink(timeline.snapshot):
            os.rmdir(timeline.snapshot)
        elif os.path.lexists(timeline.snapshot):
            os.remove(timeline.snapshot)
        if kind == "symlink":
            with open(victim, "wb") as file:
                file.write(good)
            os.symlink(victim, timeline.snapshot)
        elif kind == "directory":
            os.mkdir(timeline.snapshot)
        else:
            os.mkfifo(timeline.snapshot)
        status, output, errors, seconds = timeline.run_in_terminal(["show", "-n", "2", "--color", "never"], timeout=10)
        if status != 0 or not output or seconds > 2:
            failures.append("%s in place of the snapshot: exit %d in %.2f s" % (kind, status, seconds))
        if kind == "symlink" and open(victim, "rb").read() != good:
            failures.append("the snapshot symlink was written through")
    table.add("hostile snapshot files", "truncations, bad versions, huge declared sizes, foreign IDs, 200 random damages; a symlink, directory, FIFO",
              "%d files, each through show + snapshot --check" % (len(cases) + 3),
              "show exits 0 with the database's truth within 2 s and rewrites the snapshot; nothing followed or blocked on",
              failures)


# ---------------------------------------------------------------------------------------------
# 5. Hostile import files


def hostile_imports(binary, work, table):
    timeline = Timeline(binary, os.path.join(work, "imports"))
    sample = os.path.join(ROOT, "Fixtures", "sample-timeline.jsonl")
    timeline.run(["import", sample])
    directory = timeline.directory
    good_user = user_line("h-user")
    ok = message_line("h-ok", "h-user", "fine", 1_800_000_000_000)
    refused = []  # (name, path, line, field or None)

    def refuse(name, lines, line, field, raw=None):
        path = os.path.join(directory, name.replace(" ", "-") + ".jsonl")
        if raw is not None:
            with open(path, "wb") as file:
                file.write(raw)
        else:
            write_lines(path, lines)
        refused.append((name, path, line, field))

    refuse("malformed JSON", [good_user, ok, '{"type":"message","id":"x",'], 3, None)
    refuse("trailing comma", [good_user, '{"type":"user","id":"u9","handle":"h","name":"n",}'], 2, None)
    refuse("not an object", [good_user, "[1,2,3]"], 2, None)
    refuse("wrong type: likes", [good_user, message_line("h1", "h-user", "t", 1_800_000_000_000, likes="many")], 2, "likes")
    refuse("wrong type: text", [good_user, ok.replace('"text": "fine"', '"text": 42')], 2, "text")
    refuse("wrong type: read", [good_user, message_line("h1", "h-user", "t", 1_800_000_000_000, read="yes")], 2, "read")
    refuse("negative count", [good_user, message_line("h1", "h-user", "t", 1_800_000_000_000, reposts=-1)], 2, "reposts")
    refuse("missing field: author", [good_user, '{"type":"message","id":"h1","text":"t","created_at":"2026-01-01T00:00:00Z"}'], 2, "author")
    refuse("missing field: handle", ['{"type":"user","id":"u9","name":"n"}'], 1, "handle")
    refuse("missing field: created_at", [good_user, '{"type":"message","id":"h1","author":"h-user","text":"t"}'], 2, "created_at")
    refuse("time without zone", [good_user, ok.replace("Z\"", "\"")], 2, "created_at")
    refuse("invalid UTF-8", None, 2, "text",
           raw=(good_user + "\n").encode() + b'{"type":"message","id":"h1","author":"h-user","text":"bad \xff\xfe here","created_at":"2026-01-01T00:00:00Z"}\n')
    refuse("overlong UTF-8", None, 2, "text",
           raw=(good_user + "\n").encode() + b'{"type":"message","id":"h1","author":"h-user","text":"\xc0\xaf","created_at":"2026-01-01T00:00:00Z"}\n')
    refuse("lone surrogate escape", [good_user, ok.replace('"fine"', '"\\ud800"')], 2, "text")
    refuse("unknown author", [good_user, message_line("h1", "nobody-knows-me", "t", 1_800_000_000_000)], 2, "author")
    refuse("10 MB message", [good_user, message_line("h-big", "h-user", "x" * 10_000_000, 1_800_000_000_000)], 2, None)
    refuse("text over 100,000 bytes", [good_user, message_line("h-big", "h-user", "é" * 50_001, 1_800_000_000_000)], 2, "text")
    refuse("deep nesting", [good_user, '{"type":"message","x":' + "[" * 100_000 + "]" * 100_000 + "}"], 2, None)
    # A million lines, every one fine but the last.
    million = os.path.join(directory, "million.jsonl")
    with open(million, "w") as file:
        file.write(good_user + "\n")
        for n in range(1, 999_999):
            file.write('{"type":"message","id":"mm%d","author":"h-user","text":"line %d","created_at":"2026-01-01T00:00:00Z"}\n' % (n, n))
        file.write(message_line("mm-last", "h-user", "t", 1_800_000_000_000, likes=-1) + "\n")
    refused.append(("a million lines, error on the last", million, 1_000_000, "likes"))

    failures = []
    before = timeline.fingerprint()
    longest = 0.0
    for name, path, line, field in refused:
        status, output, errors, seconds = timeline.run(["import", path], timeout=300)
        longest = max(longest, seconds)
        where = "%s:%d:" % (os.path.basename(path), line)
        if status != 65:
            failures.append("%s: exit %d (%s)" % (name, status, errors.strip()[:200]))
        if where not in errors:
            failures.append("%s: the message does not say %s: %s" % (name, where, errors.strip()[:200]))
        if field and field not in errors:
            failures.append("%s: the message does not name %s: %s" % (name, field, errors.strip()[:200]))
        if "\x1b" in errors or "\xff" in errors:
            failures.append("%s: raw bytes from the file in the message" % name)
        if timeline.fingerprint() != before:
            failures.append("%s: the database or snapshot changed" % name)
            before = timeline.fingerprint()

    # Accepted on purpose: duplicates in one batch (the last wins), SQL-looking IDs and text stored as text.
    accepted = 0
    duplicates = os.path.join(directory, "duplicates.jsonl")
    write_lines(duplicates, [good_user, message_line("dup", "h-user", "first", 1_800_000_000_000),
                             message_line("dup", "h-user", "second", 1_800_000_000_000, likes=2), good_user])
    status, _, errors, _ = timeline.run(["import", duplicates])
    accepted += 1
    rows = timeline.query("SELECT text, like_count FROM messages WHERE id = 'dup'")
    if status != 0 or rows != [("second", 2)]:
        failures.append("duplicate IDs in one batch: exit %d, stored %s" % (status, rows))
    sqlish = ["'; DROP TABLE messages; --", "1 OR 1=1", "\" OR \"\"=\"", "x'); DELETE FROM users; --", "%", "_", "?", ":id", "$1"]
    lines = [user_line("'; DROP TABLE users; --", "bobby", "Robert'); DROP TABLE users;--")]
    for n, text in enumerate(sqlish):
        lines.append(message_line(text, "'; DROP TABLE users; --", text, 1_800_000_100_000 + n * 1000))
    sql_path = os.path.join(directory, "sql.jsonl")
    write_lines(sql_path, lines)
    messages_before = timeline.stats()["messages"]
    status, _, errors, _ = timeline.run(["import", sql_path])
    accepted += 1
    stored = timeline.query("SELECT id, text FROM messages WHERE author_id = '''; DROP TABLE users; --' ORDER BY id")
    if status != 0 or sorted(stored) != sorted((text, text) for text in sqlish):
        failures.append("SQL-looking IDs and text: exit %d, stored %s" % (status, stored))
    if timeline.stats()["messages"] != messages_before + len(sqlish):
        failures.append("SQL-looking IDs changed other rows")
    status, _, errors, _ = timeline.run(["mark-read", "%", "1 OR 1=1"])
    unread_like = timeline.query("SELECT count(*) FROM messages WHERE seq NOT IN (SELECT seq FROM unread_messages) AND author_id = '''; DROP TABLE users; --'")[0][0]
    if status != 0 or unread_like != 2:
        failures.append("mark-read of SQL-looking IDs marked %d messages, not 2" % unread_like)
    status, output, _, _ = timeline.run(["delete", "_"])
    if timeline.query("SELECT count(*) FROM messages WHERE id = '_'")[0][0] != 0 or timeline.stats()["messages"] != messages_before + len(sqlish) - 1:
        failures.append("delete of the ID '_' removed something else")
    integrity = timeline.query("PRAGMA integrity_check")
    if integrity != [("ok",)]:
        failures.append("integrity_check: %s" % integrity)
    table.add("hostile import files", "malformed JSON, wrong types, missing fields, invalid UTF-8, 10 MB message, 1,000,000 lines with the last bad, unknown author, deep nesting; duplicates and SQL-looking IDs",
              "%d refused inputs, %d accepted inputs (slowest import %.1f s)" % (len(refused), accepted, longest),
              "exit 65 with file:line and the field; database and snapshot unchanged; duplicates: last wins; SQL-looking IDs stored, matched and deleted as plain text",
              failures)


# ---------------------------------------------------------------------------------------------
# 6. Hostile JSON shapes of issue 12: what a follower on a pipe prints, what error messages
#    carry, times, NUL in IDs, documents larger than detection's window


UNSAFE = set(range(0x20)) - {0x0A} | set(range(0x7F, 0xA0)) | set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) \
    | {0x200B, 0x2060, 0xFEFF}


def carries_unsafe(text):
    return any(ord(character) in UNSAFE for character in text)


def hostile_json_shapes(binary, work, table):
    timeline = Timeline(binary, os.path.join(work, "json-shapes"))
    directory = timeline.directory
    timeline.run(["import", os.path.join(ROOT, "Fixtures", "sample-timeline.jsonl")])
    failures = []
    inputs = 0
    good_user = user_line("j-user")

    # Error messages quoting input: escapes, C1 and bidirectional overrides never reach stderr raw.
    hostile = "\x1b]0;owned\x07\u009b31m\u202egpj.exe\u2066\u200b"
    shapes = {
        "a value": [good_user, message_line("j1", "j-user", "t", 1_800_000_000_000, likes=hostile)],
        "a record type": [json.dumps({"type": hostile, "id": "x"})],
        "a field name": [good_user, json.dumps({"type": "message", hostile: "\udc00"})],
        "an unknown author": [message_line(hostile, hostile, "t", 1_800_000_000_000)],
        "a time": [good_user, message_line("j1", "j-user", "t", 1_800_000_000_000).replace("Z\"", hostile + "\"")],
    }
    for name, lines in shapes.items():
        path = os.path.join(directory, "bidi-%s.jsonl" % name.replace(" ", "-"))
        write_lines(path, lines)
        for arguments, stdin in [(["import", path], None), (["import", "-"], open(path, "rb").read())]:
            inputs += 1
            status, _, errors, _ = timeline.run(arguments, stdin=stdin)
            if status != 65 or carries_unsafe(errors):
                failures.append("%s quoted in an error: exit %d, %r" % (name, status, errors[-200:]))
    for arguments in [["show", "--" + hostile], ["prune", "--older-than", hostile], ["import", "--format", hostile, "-"],
                      ["import", os.path.join(directory, "missing" + hostile)]]:
        inputs += 1
        status, _, errors, _ = timeline.run(arguments, stdin=b"")
        if status == 0 or carries_unsafe(errors):
            failures.append("an argument quoted in an error: exit %d, %r" % (status, errors[-200:]))

    # Times: only years 0001-9999 in UTC are kept, and what is kept exports and imports again.
    refused_times = ["9999-12-31T23:59:59-01:00", "0000-01-01T00:00:00+23:59", "0000-12-31T23:59:59.999Z", "0001-01-01T00:00:00+00:01"]
    for value in refused_times:
        inputs += 1
        path = os.path.join(directory, "time.jsonl")
        write_lines(path, [good_user, message_line("jt", "j-user", "t", 0).replace('"1970-01-01T00:00:00.000Z"', json.dumps(value))])
        status, _, errors, _ = timeline.run(["import", path])
        if status != 65 or "in UTC, outside the years 0001 to 9999" not in errors:
            failures.append("time %s: exit %d, %s" % (value, status, errors.strip()[-200:]))
    edges = Timeline(binary, os.path.join(work, "json-shapes-edges"))
    path = os.path.join(directory, "edges.jsonl")
    write_lines(path, [good_user] + [message_line("edge%d" % n, "j-user", "t", 0).replace('"1970-01-01T00:00:00.000Z"', json.dumps(value))
                                     for n, value in enumerate(["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "0000-12-31T23:00:00-01:00"])])
    inputs += 1
    status, _, errors, _ = edges.run(["import", path])
    exported = edges.run(["export", "-"])[1]
    again = Timeline(binary, os.path.join(work, "json-shapes-again"))
    again.run(["import", "-"], stdin=exported)
    if status != 0 or again.run(["export", "-"])[1] != exported or b"10000-" in exported or b"\"-0" in exported:
        failures.append("the first and last instants do not round-trip: exit %d, %s" % (status, errors.strip()[-200:]))
    for zone in ["UTC", "America/New_York", "Asia/Tokyo"]:
        status, output, _, _ = edges.run(["show", "-n", "5"], env={"TZ": zone})
        if output.count(b"0001-01-01") != 2:
            failures.append("TZ=%s shows year 1 as %r" % (zone, output[:300]))

    # NUL in an ID: refused wherever it is, with its field; kept in text.
    for field in ["id", "author", "reply_to", "reply_to_user", "repost_of", "quote_of"]:
        inputs += 1
        values = {"id": "jn", "author": "j-user"}
        values[field] = "a\u0000b"
        line = message_line(values.pop("id"), values.pop("author"), "t", 1_800_000_000_000, **values)
        path = os.path.join(directory, "nul.jsonl")
        write_lines(path, [good_user, line])
        status, _, errors, _ = timeline.run(["import", path])
        if status != 65 or ("`%s` holds the character U+0000" % field) not in errors:
            failures.append("NUL in %s: exit %d, %s" % (field, status, errors.strip()[-200:]))
    inputs += 1
    write_lines(path, [user_line("u\u0000x"), message_line("jn", "u\u0000x", "t", 1_800_000_000_000)])
    status, _, errors, _ = timeline.run(["import", path])
    if status != 65 or "`id` holds the character U+0000" not in errors or ":1:" not in errors:
        failures.append("NUL in a user ID: exit %d, %s" % (status, errors.strip()[-200:]))

    # Documents whose first value holds more than detection's first MiB before it says what it is.
    big = "x" * ((1 << 20) + 10)
    status_object = '{"id":"1","created_at":"2026-11-20T10:00:00Z","content":"%s","account":{"id":"9","acct":"a"}}' % big
    for name, document in [("a Mastodon array", "[" + status_object + "]"), ("one Mastodon status", status_object),
                           ("a JSON Lines line", '{"note":"%s","type":"message"}\n' % big)]:
        path = os.path.join(directory, "big.json")
        with open(path, "w") as file:
            file.write(document)
        for arguments, stdin in [(["import", path], None), (["import", "-"], document.encode())]:
            inputs += 1
            status, _, errors, _ = timeline.run(arguments, stdin=stdin)
            if status != 65 or "cannot tell the format" in errors or not ("content`" in errors or "longer than the limit" in errors):
                failures.append("%s over 1 MiB: exit %d, %s" % (name, status, errors.strip()[-200:]))

    # show -f on a pipe: every message an import adds is printed once, oldest first, new or back-filled.
    follower = subprocess.Popen([binary, "show", "-f", "--json", "-n", "1"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=timeline.env)
    lines_seen = []
    reader = threading.Thread(target=lambda: lines_seen.extend(follower.stdout))
    reader.start()
    deadline = time.monotonic() + 30
    while not lines_seen and time.monotonic() < deadline:
        time.sleep(0.05)
    newest = timeline.query("SELECT max(created_at), min(created_at) FROM messages")[0]
    batches = [("new", [message_line("jf-new-%d" % n, "j-user", "new", newest[0] + 60_000 * (n + 1)) for n in range(5000)]),
               ("old", [message_line("jf-old-%d" % n, "j-user", "old", newest[1] - 86_400_000 + 1000 * n) for n in range(100)])]
    expected = []
    arrival = []
    for name, lines in batches:
        path = os.path.join(directory, "follow-%s.jsonl" % name)
        write_lines(path, [good_user] + list(reversed(lines)))  # stored newest first, as API pages come
        started = time.monotonic()
        timeline.run(["import", path])
        expected += ["jf-%s-%d" % (name, n) for n in range(len(lines))]
        while len(lines_seen) < 1 + len(expected) and time.monotonic() < started + 60:
            time.sleep(0.02)
        arrival.append(time.monotonic() - started)
    follower.send_signal(signal.SIGTERM)
    follower.wait(timeout=30)
    reader.join(timeout=30)
    inputs += 2
    printed = [json.loads(line)["id"] for line in lines_seen[1:]]
    if printed != expected:
        failures.append("show -f on a pipe printed %d of %d added messages (first difference at %s)"
                        % (len(printed), len(expected), next((i for i, (a, b) in enumerate(zip(printed, expected)) if a != b), min(len(printed), len(expected)))))
    if carries_unsafe(follower.stderr.read().decode("utf-8", "replace")):
        failures.append("show -f wrote raw escapes to stderr")

    table.add("hostile JSON shapes (issue 12)",
              "values, IDs, field names, times and arguments with escapes and U+202E in errors; times beyond 0001-9999 UTC; NUL in every ID field; "
              "a status and a line over 1 MiB before anything tells the format, from a file and a pipe; show -f --json on a pipe during an import "
              "of 5,000 new and one of 100 back-filled messages",
              "%d inputs; the follower printed %d messages (%.1f s for the 5,000, %.1f s for the 100)" % (inputs, len(printed), arrival[0], arrival[1]),
              "exit 65 naming the field, no raw escape or override on stderr; edges round-trip; year 1 shows as 0001-01-01 in every zone; "
              "the decoder's own error without --format; every added message printed once, oldest first",
              failures)


# ---------------------------------------------------------------------------------------------
# 7. Hostile text (issue 12): truncated HTML, quadratic markup, names and texts that are slow to
# measure. Each hostile case is timed against a normal case of the same size in the same run.


def hostile_text(binary, work, table, ratio_limit=5.0):
    failures = []
    tried = 0
    directory = os.path.join(work, "text")
    os.makedirs(directory, exist_ok=True)

    def fastest(timeline, args, terminal=False, runs=5):
        best = None
        for _ in range(runs):
            if terminal:
                status, _, errors, seconds = timeline.run_in_terminal(args, timeout=600)
            else:
                status, _, errors, seconds = timeline.run(args, timeout=600)
            if status != 0:
                failures.append("%s: exit %d (%s)" % (" ".join(args)[:60], status, errors.strip()[:200]))
            best = seconds if best is None else min(best, seconds)
        return best

    def status(id, content, name="Alice"):
        return {"id": id, "created_at": "2026-01-01T00:00:%02dZ" % (int(id) % 60), "content": content,
                "account": {"id": "a1", "acct": "alice", "display_name": name}}

    def mastodon(name, statuses):
        path = os.path.join(directory, name + ".json")
        with open(path, "w") as file:
            json.dump(statuses, file)
        return path

    # Content that ends inside a tag: text, no crash.
    truncated = {"a <": "a <", "<": "<", "a </": "a </", "<p>x</p><": "x\n\n<", '<p>x<a href="y': 'x<a href="y'}
    timeline = Timeline(binary, os.path.join(directory, "truncated"))
    path = mastodon("truncated", [status(str(n + 1), html) for n, html in enumerate(truncated)])
    code, _, errors, _ = timeline.run(["import", "--format", "mastodon", path])
    tried += len(truncated)
    stored = dict(timeline.query("SELECT text, 1 FROM messages")) if code == 0 else {}
    if code != 0:
        failures.append("content ending inside a tag: exit %d (%s)" % (code, errors.strip()[:200]))
    for html, text in truncated.items():
        if text not in stored:
            failures.append("content %r: stored %r, not %r" % (html, sorted(stored), text))

    # Markup that took quadratic time, against normal markup of the same size.
    normal_html = "<p>" + "a b " * 10_000 + "</p>"
    shapes = {
        "<a x 20,000": "<a" * 20_000,
        "unclosed quotes": '<a href="x ' * 4_000,
        "stray closing tags": "<span>" * 3_000 + "</script>" * 3_000,
        "<! x 20,000": "<!" * 20_000,
    }
    slowest = 0.0
    for name, html in shapes.items():
        hostile_timeline = Timeline(binary, os.path.join(directory, "html-" + str(tried)))
        normal_timeline = Timeline(binary, os.path.join(directory, "html-normal-" + str(tried)))
        hostile_path = mastodon("hostile-%d" % tried, [status("1", html)])
        normal_path = mastodon("normal-%d" % tried, [status("1", normal_html)])
        tried += 1
        ratio = fastest(hostile_timeline, ["import", "--format", "mastodon", hostile_path]) / \
            fastest(normal_timeline, ["import", "--format", "mastodon", normal_path])
        slowest = max(slowest, ratio)
        if ratio > ratio_limit:
            failures.append("import of %s: %.1fx a normal import" % (name, ratio))
    path = mastodon("too-large", [status("1", "<p>" + "x" * 1_000_001 + "</p>")])
    code, _, errors, _ = Timeline(binary, os.path.join(directory, "too-large")).run(["import", "--format", "mastodon", path])
    tried += 1
    if code != 65 or "content" not in errors or "1,000,000" not in errors:
        failures.append("content over 1,000,000 bytes: exit %d (%s)" % (code, errors.strip()[:200]))

    # Names and texts slow to measure, painted on a pipe and in a terminal.
    texts = {
        "50,000 regional indicators as a name": ("\U0001F1E6" * 50_000, "hello"),
        "12,500 flags as a text": ("Alice", "🇯🇵" * 12_500),
        "combining marks": ("Alice", "a" + "\u0301" * 49_999),
        "a ZWJ chain": ("Alice", "👩\u200d" * 14_000),
        "skin tones": ("Alice", "👍🏽" * 12_000),
        "variation selectors": ("Alice", "❤\ufe0f" * 16_000),
        "100 KB without a space": ("Alice", "x" * 100_000),
        "wide characters": ("Alice", "日" * 33_000),
    }
    normal = Timeline(binary, os.path.join(directory, "paint-normal"))
    normal_path = os.path.join(directory, "paint-normal.jsonl")
    write_lines(normal_path, [user_line("u1", "alice", "Alice " * 10), message_line("m1", "u1", "hello world " * 8_000, 1_800_000_000_000)])
    normal.run(["import", normal_path])
    normal.run(["show"])
    baseline = {terminal: fastest(normal, ["show", "--color", "never"], terminal) for terminal in (False, True)}
    for name, (user_name, text) in texts.items():
        hostile = Timeline(binary, os.path.join(directory, "paint-%d" % tried))
        path = os.path.join(directory, "paint-%d.jsonl" % tried)
        tried += 1
        write_lines(path, [user_line("u1", "alice", user_name), message_line("m1", "u1", text, 1_800_000_000_000)])
        code, _, errors, _ = hostile.run(["import", path])
        if code != 0:
            failures.append("%s: import exit %d (%s)" % (name, code, errors.strip()[:200]))
            continue
        hostile.run(["show"])
        for terminal in (False, True):
            ratio = fastest(hostile, ["show", "--color", "never"], terminal) / baseline[terminal]
            slowest = max(slowest, ratio)
            if ratio > ratio_limit:
                failures.append("show of %s%s: %.1fx a normal paint" % (name, " in a terminal" if terminal else "", ratio))
    # A name written past the import (another program, an older database) is not bounded by it.
    hostile = Timeline(binary, os.path.join(directory, "paint-past-import"))
    path = os.path.join(directory, "paint-past-import.jsonl")
    write_lines(path, [user_line("u1", "alice", "Alice"), message_line("m1", "u1", "hello", 1_800_000_000_000)])
    hostile.run(["import", path])
    connection = sqlite3.connect(hostile.db, timeout=30)
    with connection:
        connection.execute("UPDATE users SET name = ?", ("\U0001F1E6" * 50_000,))
    connection.close()
    hostile.run(["show"])
    tried += 1
    for terminal in (False, True):
        ratio = fastest(hostile, ["show", "--color", "never"], terminal) / baseline[terminal]
        slowest = max(slowest, ratio)
        if ratio > ratio_limit:
            failures.append("show of 50,000 regional indicators stored past the import%s: %.1fx a normal paint" % (" in a terminal" if terminal else "", ratio))

    table.add("hostile text", "HTML ending inside tags, <a x 20,000, unclosed quotes, stray closing tags, content over the limit; names and texts of flags, marks, ZWJ chains, skin tones, selectors, 100 KB words, wide characters",
              "%d inputs (slowest %.1fx its normal counterpart)" % (tried, slowest),
              "truncated HTML stored as text; every hostile import and paint within %.0fx a normal one of the same size; oversized content refused with exit 65" % ratio_limit,
              failures)


# ---------------------------------------------------------------------------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# What `--only` takes, in the order they run.
# ---------------------------------------------------------------------------------------------
# 8. Hostile servers (issue 24): pages with oversized and broken entries in random places, a token
#    quoted back, slow answers, streams that end at once, a killed follow. Against the scripted
#    loopback server of tools/hostile-server (plain http on 127.0.0.1 only).

class HostileServer:
    """tools/hostile-server/server.py on a free loopback port."""

    def __init__(self):
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hostile-server", "server.py")
        self.process = subprocess.Popen([sys.executable, script, "--port", "0", "--idle-timeout", "60"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        line = self.process.stdout.readline().decode()
        self.port = int(line.split()[1])
        self.base = "http://127.0.0.1:%d" % self.port

    def control(self, name, body=None):
        import urllib.request
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + "/_control/" + name, data=data,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())

    def requests(self, path):
        return [r for r in self.control("requests") if r["path"] == path]

    def close(self):
        self.process.kill()
        self.process.wait()


HOSTILE_TOKEN = "stress-hostile-token-0123456789abcdef"


def hostile_status(id, content="<p>hello</p>"):
    return {"id": id, "created_at": "2024-03-01T12:00:00.000Z", "content": content,
            "account": {"id": "2", "username": "bob", "acct": "bob", "display_name": "Bob"}}


def hostile_servers(binary, work, rounds, seed, table):
    rng = random.Random(seed)

    def logged_in(server, name):
        timeline = Timeline(binary, os.path.join(work, name))
        timeline.env["XDG_CONFIG_HOME"] = os.path.join(timeline.directory, "config")
        status, _, errors, _ = timeline.run(["login", "mastodon", server.base, "--token-stdin"],
                                            stdin=(HOSTILE_TOKEN + "\n").encode())
        if status != 0:
            raise RuntimeError("login failed: " + errors)
        return timeline

    def routes(home="[]", notifications="[]"):
        return {"/api/v1/accounts/verify_credentials": {"body": json.dumps({"id": "1", "username": "tester", "acct": "tester"})},
                "/api/v1/timelines/home": [{"body": home}, {"body": "[]"}],
                "/api/v1/notifications": [{"body": notifications}, {"body": "[]"}],
                "/api/v1/markers": {"body": "{}"}, "/api/v2/instance": {"body": "{}"}}

    # a) Pages of 40 with oversized and broken entries in random places: every sync succeeds,
    #    stores every good entry, cuts every long one within the limit and counts the broken.
    failures = []
    broken_kinds = [{"id": {"no": 1}}, {"id": "x", "created_at": "never"}, {"id": "x", "account": None}, [], "text", None]
    for index in range(rounds):
        server = HostileServer()
        try:
            entries, good, long_ids, broken = [], 0, [], 0
            for position in range(40):
                id = str(10_000 - position)
                roll = rng.random()
                if roll < 0.1:
                    broken += 1
                    bad = rng.choice(broken_kinds)
                    entries.append(dict(hostile_status(id), **bad) if isinstance(bad, dict) else bad)
                elif roll < 0.2:
                    long_ids.append(id)
                    size = rng.choice([100_001, 150_000, 400_000, 1_200_000])
                    entries.append(hostile_status(id, "<p>" + rng.choice(["a", "é", "🐘", "a&amp;"]) * (size // 4) + "</p>"))
                    good += 1
                else:
                    entries.append(hostile_status(id))
                    good += 1
            server.control("routes", routes(home=json.dumps(entries)))
            timeline = logged_in(server, "hostile-page-%d" % index)
            status, out, errors, _ = timeline.run(["sync", "--json"])
            result = json.loads(out.decode() or "{}")
            if status != 0 or result.get("new_statuses") != good or result.get("skipped") != broken:
                failures.append("page %d: exit %d, %s, expected %d stored and %d skipped: %s"
                                % (index, status, out.decode().strip(), good, broken, errors[-300:]))
                continue
            too_long = timeline.query("SELECT count(*) FROM messages WHERE length(CAST(text AS BLOB)) > 100000")
            if too_long[0][0] != 0:
                failures.append("page %d: a text beyond the limit was stored" % index)
        finally:
            server.close()
    table.add("servers: pages", "pages of 40 with 10% broken and 10% oversized entries at random places",
              "%d syncs" % rounds, "every sync stored the good entries, cut the long ones, counted the broken", failures)

    # b) A token quoted back by every kind of refusal never shows.
    failures = []
    for status_code in [400, 403, 404, 409, 422, 429, 500, 503]:
        server = HostileServer()
        try:
            answer = {"status": status_code, "body": json.dumps({"error": "you sent {AUTH}", "error_description": "{AUTH}"})}
            table_routes = routes()
            table_routes["/api/v1/timelines/home"] = answer
            server.control("routes", table_routes)
            timeline = logged_in(server, "hostile-token-%d" % status_code)
            for arguments in (["sync"], ["sync", "--json"]):
                _, out, errors, _ = timeline.run(arguments + ["--time-limit", "20s"])
                if HOSTILE_TOKEN in out.decode("utf-8", "replace") + errors:
                    failures.append("%d: the token shows in %s" % (status_code, " ".join(arguments)))
        finally:
            server.close()
    table.add("servers: tokens", "refusals 400-503 quoting the Authorization header", "16 syncs",
              "no output held the token", failures)

    # c) A slow server (1 s an answer, an older page always) against a 5 s limit.
    failures = []
    server = HostileServer()
    try:
        page = {"headers": {"Link": "<{BASE}/api/v1/timelines/home?max_id={ID}>; rel=\"next\""},
                "body": json.dumps([hostile_status("{ID}")]), "delay": 1}
        slow = routes()
        slow["/api/v1/timelines/home"] = page
        slow["/api/v1/notifications"] = page
        server.control("routes", slow)
        timeline = logged_in(server, "hostile-slow")
        status, _, errors, seconds = timeline.run(["sync", "--time-limit", "5s"])
        asked = len(server.requests("/api/v1/timelines/home")) + len(server.requests("/api/v1/notifications"))
        if status != 75 or seconds > 8 or asked > 6:
            failures.append("exit %d after %.1f s and %d requests: %s" % (status, seconds, asked, errors[-200:]))
        slow_figures = "%d requests in %.1f s" % (asked, seconds)
    finally:
        server.close()
    table.add("servers: slow", "1 s an answer, always an older page, --time-limit 5s", slow_figures,
              "the sync stopped at its limit, exit 75", failures)

    # d) Streams that end at once, and a follow killed with its curl on a silent stream.
    failures = []
    server = HostileServer()
    try:
        streaming = routes()
        streaming["/api/v1/streaming/user"] = {"headers": {"Content-Type": "text/event-stream"}, "body": ":)\n"}
        server.control("routes", streaming)
        timeline = logged_in(server, "hostile-stream")
        timeline.run(["sync"])
        follow = subprocess.Popen([binary, "show", "--follow", "--json", "-n", "1"], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=timeline.env)
        time.sleep(16)
        follow.send_signal(signal.SIGTERM)
        follow.wait(timeout=30)
        connections = len(server.requests("/api/v1/streaming/user"))
        # 1, 2, 4, 8 s between: 5 connections in 16 s at most (16 without back-off).
        if connections > 6:
            failures.append("%d connections in 16 s" % connections)
        stream_figures = "%d connections in 16 s" % connections
        streaming["/api/v1/streaming/user"] = dict(streaming["/api/v1/streaming/user"], hold=60)
        server.control("routes", streaming)
        for kill in range(3 if rounds < 10 else 10):
            follow = subprocess.Popen([binary, "show", "--follow", "--json", "-n", "1"], stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=timeline.env)
            deadline = time.monotonic() + 15
            children = []
            while time.monotonic() < deadline and not children:
                time.sleep(0.1)
                children = [pid for pid in os.listdir("/proc") if pid.isdigit() and _parent_of(pid) == follow.pid
                            and _command_of(pid) == "curl"]
            follow.kill()
            follow.wait()
            time.sleep(2)
            alive = [pid for pid in children if _command_of(pid) == "curl" and not _is_zombie(pid)]
            if not children:
                failures.append("kill %d: no curl child seen" % kill)
            elif alive:
                failures.append("kill %d: curl %s outlived show -f" % (kill, alive))
    finally:
        server.close()
    table.add("servers: streams", "streams closed at once for 16 s; show -f SIGKILLed on a silent stream",
              stream_figures, "back-off 1, 2, 4… s; no curl outlived its follow", failures)


def _parent_of(pid):
    try:
        with open("/proc/%s/stat" % pid) as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def _command_of(pid):
    try:
        with open("/proc/%s/comm" % pid) as comm:
            return comm.read().strip()
    except OSError:
        return None


def _is_zombie(pid):
    try:
        with open("/proc/%s/stat" % pid) as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


# ---------------------------------------------------------------------------------------------
# 9. Nothing changed, nothing opened (issue 38)


def unchanged(binary, work, shows, seed, table):
    """A writer changes the newest message through every path there is, at random moments (bursts
    a millisecond apart, and pauses long enough for `show` to stamp the database and then open
    nothing), while `show`s run one after another; every show's output (on a pipe: the timeline
    after the reconcile, or the snapshot the stamp vouched for) must be at least as new as the
    last write that had committed before that show started. Then, the writer stopped, a `show`
    must open nothing (no `-shm` is created)."""
    random.seed(seed)
    timeline = Timeline(binary, os.path.join(work, "unchanged"))
    path = os.path.join(timeline.directory, "new.jsonl")
    write_lines(path, [user_line("writer"), message_line("w-0", "writer", "v0", 1_900_000_000_000)])
    status, _, errors, _ = timeline.run(["import", path])
    assert status == 0, errors
    failures = []
    stop = threading.Event()
    committed = [(0.0, 0)]  # (monotonic time the write had returned, version), in order
    paths = {}

    def write(version, newest):
        """Writes `version` as the newest message's text; returns the new newest message's ID."""
        kind = random.choice(["python", "python-no-checkpoint", "shell", "import", "checkpoint-and-write", "vacuum"]
                             if version % 50 else ["vacuum", "mv", "restore"])
        paths[kind] = paths.get(kind, 0) + 1
        text = "v%d" % version
        if kind in ("python", "python-no-checkpoint", "checkpoint-and-write"):
            connection = sqlite3.connect(timeline.db, timeout=30, check_same_thread=False)
            if kind != "python":
                connection.execute("PRAGMA wal_autocheckpoint = 0")
            if kind == "checkpoint-and-write":
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            connection.execute("UPDATE messages SET text = ? WHERE id = ?", (text, newest))
            connection.commit()
            if kind == "python":
                connection.close()
            else:
                # Left open, so that no close checkpoints: the write stays in the -wal (until
                # the next such write closes it, when it may be the last connection).
                release_held()
                held.append(connection)
            return newest
        if kind == "shell":
            shell(timeline.db, "UPDATE messages SET text = '%s' WHERE id = '%s'" % (text, newest))
            return newest
        if kind == "vacuum":
            shell(timeline.db, "UPDATE messages SET text = '%s' WHERE id = '%s'; VACUUM" % (text, newest))
            return newest
        if kind == "import":
            newer = "w-%d" % version
            write_lines(path, [message_line(newer, "writer", text, 1_900_000_000_000 + version * 1000)])
            status, _, errors, _ = timeline.run(["import", path])
            if status != 0:
                failures.append("the writer's import exited %d: %s" % (status, errors.strip()))
            return newer
        # mv and restore: another file put in place, with the new text in it. No connection
        # may be open on the old file (it would share the -wal with the new one).
        release_held()
        other = os.path.join(timeline.directory, "other.sqlite")
        shell(timeline.db, "PRAGMA wal_checkpoint(TRUNCATE)")
        shutil.copyfile(timeline.db, other)
        shell(other, "UPDATE messages SET text = '%s' WHERE id = '%s'" % (text, newest))
        if kind == "mv":
            os.rename(other, timeline.db)
        else:
            # cp writes over the file in place: a show meanwhile may find it empty or torn (what
            # a person copying over a database in use gets), so those shows are not judged.
            copying.append(time.monotonic())
            subprocess.run(["cp", "-p", other, timeline.db], check=True)
            copying.append(time.monotonic())
            os.remove(other)
        return newest

    def shell(database, sql):
        # The shell waits for a lock up to 10 s, as a person's shell with .timeout would.
        subprocess.run(["sqlite3", "-cmd", ".timeout 10000", database, sql], check=True, stdout=subprocess.DEVNULL)

    copying = []  # start, end, start, end… of each cp over the database

    held = []

    def release_held():
        while held:
            held.pop().close()

    def writer():
        version, newest = 0, "w-0"
        while not stop.is_set():
            pause = random.choice([0, 0, 0.001, 0.003, 0.01, 0.05, 0.2])
            time.sleep(pause)
            burst = random.choice([1, 1, 1, 2, 5])
            for _ in range(burst):
                version += 1
                newest = write(version, newest)
                committed.append((time.monotonic(), version))

    def stamp_holds():
        """Whether the stamp vouches for the snapshot right now (SnapshotStamp's layout, compared as
        TimelineStore.unchangedReconciliation does): the show about to run will open nothing."""
        try:
            stamp = open(timeline.snapshot + ".stamp", "rb").read()
            header = open(timeline.snapshot, "rb").read(36)
        except OSError:
            return False

        def identity(path):
            try:
                info = os.lstat(path)
            except OSError:
                return bytes(49)
            return struct.pack("<BQQqqIqI", 1, info.st_dev, info.st_ino, info.st_size,
                               info.st_mtime_ns // 10**9, info.st_mtime_ns % 10**9, info.st_ctime_ns // 10**9, info.st_ctime_ns % 10**9)

        return (len(stamp) > 126 and stamp[16:24] == header[24:32] and stamp[24:73] == identity(timeline.db)
                and stamp[73:122] == identity(timeline.db + "-wal"))

    thread = threading.Thread(target=writer)
    thread.start()
    stale, durations, unopened = 0, [], 0
    try:
        for _ in range(shows):
            started = time.monotonic()
            floor = max(v for t, v in committed if t < started) if committed else 0
            unopened += stamp_holds()
            status, output, errors, seconds = timeline.run(["show", "-n", "1", "--format", "{text}"])
            durations.append(seconds)
            text = output.decode("utf-8", "replace").strip()
            overlaps = any(copying[i] < started + seconds and started < (copying[i + 1] if i + 1 < len(copying) else float("inf"))
                           for i in range(0, len(copying), 2))
            if overlaps and not text.startswith("v"):
                continue
            if status != 0 or not text.startswith("v"):
                failures.append("a show exited %d and printed %r: %s" % (status, text, errors.strip()))
                continue
            if int(text[1:]) < floor:
                stale += 1
                failures.append("a show printed %s after v%d had committed" % (text, floor))
    finally:
        stop.set()
        thread.join()
        release_held()
    # The writer stopped: after a show that stamps, one opens nothing.
    shm = timeline.db + "-shm"
    quiet = False
    for _ in range(200):
        timeline.run(["show"])
        if os.path.exists(shm):
            os.remove(shm)
        timeline.run(["show"])
        if not os.path.exists(shm):
            quiet = True
            break
        time.sleep(0.01)
    if not quiet:
        failures.append("after the writer stopped, every show still opened the database")
    durations.sort()
    table.add("nothing changed, nothing opened", "%d `show`s one after another while a writer changes the newest message through "
              "every path (%s)" % (shows, ", ".join("%s %d" % item for item in sorted(paths.items()))),
              "%d shows, %d writes" % (len(durations), committed[-1][1]),
              "no show older than the last write committed before it started (%d were); %d started with a stamp "
              "that held (opened nothing); median %.1f ms; then a show opens nothing"
              % (stale, unopened, durations[len(durations) // 2] * 1000), failures)


SCENARIOS = ["crash", "terminals", "lock", "snapshots", "imports", "json-shapes", "text", "servers", "unchanged"]
# How long the lock scenario waits for its sqlite3 holder to say it holds the lock.
READY_TIMEOUT = 30


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--timeline", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default=",".join(SCENARIOS), help="some of: " + ", ".join(SCENARIOS))
    parser.add_argument("--seed", type=int, default=6)
    arguments = parser.parse_args()
    only = set(name for name in arguments.only.split(",") if name)
    unknown = sorted(only - set(SCENARIOS))
    # A misspelt name would run nothing and then say "everything held".
    if unknown or not only:
        parser.error("--only: unknown scenario %s; the scenarios are: %s"
                     % (", ".join(repr(name) for name in unknown) or "(none given)", ", ".join(SCENARIOS)))
    shutil.rmtree(arguments.work, ignore_errors=True)
    os.makedirs(arguments.work)
    table = Table()
    started = time.monotonic()
    kills = 20 if arguments.quick else 200
    if "crash" in only:
        crash(arguments.timeline, arguments.work, kills, 200, arguments.seed, table)
        crash(arguments.timeline, arguments.work, kills // 2, 5000, arguments.seed + 1, table)
    if "terminals" in only:
        terminals(arguments.timeline, arguments.work, 3 if arguments.quick else 40, table)
    if "lock" in only:
        locked(arguments.timeline, arguments.work, 6, table)
    if "snapshots" in only:
        hostile_snapshots(arguments.timeline, arguments.work, table)
    if "imports" in only:
        hostile_imports(arguments.timeline, arguments.work, table)
    if "json-shapes" in only:
        hostile_json_shapes(arguments.timeline, arguments.work, table)
    if "text" in only:
        hostile_text(arguments.timeline, arguments.work, table)
    if "servers" in only:
        hostile_servers(arguments.timeline, arguments.work, 3 if arguments.quick else 20, arguments.seed, table)
    if "unchanged" in only:
        unchanged(arguments.timeline, arguments.work, 500 if arguments.quick else 10_000, arguments.seed, table)
    table.print()
    print("stress: %.0f s in all; %s" % (time.monotonic() - started, "FAILURES FOUND" if table.failed else "everything held"))
    shutil.rmtree(arguments.work, ignore_errors=True)
    sys.exit(1 if table.failed else 0)


if __name__ == "__main__":
    main()
