# Every target installs what it needs first, so a fresh machine (root, Debian, Swift on PATH)
# goes from clone to a passing test run with `make test` alone.

SWIFT    ?= swift
PREFIX   ?= /usr/local
UNAME_S  := $(shell uname -s)

# A fully static executable reaches the `cat` floor at launch (see ../shared/design/startup-facts.md
# measured on Linux); macOS cannot link the Swift runtime statically, so it uses the system's.
ifeq ($(UNAME_S),Linux)
RELEASE_FLAGS := -c release -Xswiftc -static-executable
else
RELEASE_FLAGS := -c release
endif

# curl is what `timeline login` and `sync` run to reach servers (see README, Network). macOS
# ships curl and python3, so Homebrew installs neither.
SYSTEM_PACKAGES := libsqlite3-dev liblz4-dev curl
# The real programs the end-to-end tests drive: the sqlite3 shell (writes from another
# process), lz4 (the snapshot is a standard frame), tmux (a real terminal), curl (the network
# transport) and python3 (the loopback Mastodon server in tools/mastodon-test-server).
TEST_PACKAGES   := sqlite3 lz4 tmux curl python3

# The demo keeps its database inside the repository, never in the user's real data.
DEMO_DB := $(CURDIR)/demo/timeline.sqlite

.PHONY: all deps test-deps build test bench bench-smoke release demo install clean

all: build

## deps: install the SQLite and LZ4 development packages and curl when they are missing (Debian/Ubuntu).
deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(SYSTEM_PACKAGES)"

## test-deps: deps, plus the programs the end-to-end tests run.
test-deps: deps
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(TEST_PACKAGES)"

install-packages:
	@if command -v dpkg-query >/dev/null 2>&1; then \
	  missing=""; \
	  for p in $(PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	  done; \
	  if [ -n "$$missing" ]; then \
	    echo "Installing$$missing"; \
	    if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	    $$SUDO apt-get update && $$SUDO apt-get install -y $$missing; \
	  fi; \
	elif command -v brew >/dev/null 2>&1; then \
	  for p in $(PACKAGES); do \
	    case $$p in libsqlite3-dev) p=sqlite;; liblz4-dev) p=lz4;; curl|python3) continue;; esac; \
	    brew list $$p >/dev/null 2>&1 || brew install $$p; \
	  done; \
	fi

## build: debug build of the library and the tool.
build: deps
	$(SWIFT) build

## test: everything `make test` promises in the README: unit and end-to-end tests, and the
## benchmark suite's smoke run (tiny data, a few runs) so that it cannot rot.
test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) --no-print-directory bench-smoke

## bench: the full benchmark run (at most 10 minutes): a table and bench-results.json.
bench: deps
	tools/bench/run

bench-smoke: deps
	tools/bench/run --smoke

## release: the binary people run at every terminal start.
release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

## demo: build the release binary, create a demo database from Fixtures/ (once), and show it.
demo: release
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; \
	if [ ! -f "$(DEMO_DB)" ]; then \
	  "$$bin/timeline" import --db "$(DEMO_DB)" Fixtures/sample-timeline.jsonl; \
	fi; \
	"$$bin/timeline" show --db "$(DEMO_DB)"

## install: put the release binary on PATH.
install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/timeline" $(DESTDIR)$(PREFIX)/bin/timeline

clean:
	rm -rf .build demo
