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

SYSTEM_PACKAGES := libsqlite3-dev liblz4-dev

.PHONY: all deps build test release install clean

all: build

## deps: install the SQLite and LZ4 development packages when they are missing (Debian/Ubuntu).
deps:
	@if command -v dpkg-query >/dev/null 2>&1; then \
	  missing=""; \
	  for p in $(SYSTEM_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	  done; \
	  if [ -n "$$missing" ]; then \
	    echo "Installing$$missing"; \
	    if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	    $$SUDO apt-get update && $$SUDO apt-get install -y $$missing; \
	  fi; \
	elif command -v brew >/dev/null 2>&1; then \
	  brew list sqlite >/dev/null 2>&1 || brew install sqlite; \
	  brew list lz4 >/dev/null 2>&1 || brew install lz4; \
	fi

## build: debug build of the library and the tool.
build: deps
	$(SWIFT) build

## test: everything `make test` promises in the README: unit and end-to-end tests.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## release: the binary people run at every terminal start.
release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

## install: put the release binary on PATH.
install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/timeline" $(DESTDIR)$(PREFIX)/bin/timeline

clean:
	rm -rf .build
