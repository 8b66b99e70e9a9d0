# Every target installs what it needs first, so a fresh machine (root, Debian, Swift on PATH)
# goes from clone to a passing test run with `make test` alone.

SWIFT    ?= swift
PREFIX   ?= /usr/local
UNAME_S  := $(shell uname -s)

# A fully static executable reaches the `cat` floor at launch (see ../shared/design/startup-facts.md
# measured on Linux); macOS cannot link the Swift runtime statically, so it uses the system's.
# The code `show` runs at launch is laid out together (tools/launch-order/generate wrote the list;
# docs/internals.md, Launch order): each function in a section of its own, ordered by the linker.
# lld (it ships with Swift): gold, the default, accepted --section-ordering-file and moved nothing.
# Generic types' metadata through their accessors, not looked up by mangled name: the lookup's
# first `String: Hashable` scanned every conformance in the binary, 5% of `show` (docs/internals.md,
# Launch order). tools/launch-order/generate builds with the same LAUNCH_FLAGS. C is compiled
# with DWARF 4 debug information: clang's default, DWARF 5, in the one C object the binary has
# (Sources/CLaunchArguments) stops valgrind 3.19 reading the binary at all, and callgrind is how
# the launch order is made and `show`'s instructions are counted (bench stage 12).
LAUNCH_FLAGS := -Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors -Xcc -gdwarf-4
ifeq ($(UNAME_S),Linux)
RELEASE_FLAGS := -c release -Xswiftc -static-executable $(LAUNCH_FLAGS) -Xswiftc -use-ld=lld \
	-Xlinker --symbol-ordering-file=$(CURDIR)/tools/launch-order/show.order -Xlinker --no-warn-symbol-ordering
else
RELEASE_FLAGS := -c release
endif

# curl is what `timeline login` and `sync` run to reach servers (see docs/network.md). macOS
# ships curl and python3, so Homebrew installs neither. expat reads feeds' XML (TimelineFeeds,
# issue 35); its .a ships with libexpat1-dev, so the static release links it.
SYSTEM_PACKAGES := libsqlite3-dev liblz4-dev libexpat1-dev curl
# The real programs the end-to-end tests drive: the sqlite3 shell (writes from another
# process), lz4 (the snapshot is a standard frame), tmux (a real terminal), the shells whose
# start-up `timeline init` writes for, man (the installed manual page is read), curl (the network
# transport), python3 (the loopback servers in tools/), openssl (the hostile server's certificate)
# and python3-venv (the virtual environment of the official AT Protocol SDK the Bluesky tests
# compare with, tools/atproto-sdk), chafa (browse's `p` decodes pictures with it for sixel and
# kitty terminals; its tests require it rather than skip).
TEST_PACKAGES   := sqlite3 lz4 tmux bash zsh fish man-db curl python3 openssl python3-venv chafa

# Where `make install` puts completions: the places bash-completion, zsh and fish search.
BASH_COMPLETIONS ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS  ?= $(PREFIX)/share/zsh/site-functions
FISH_COMPLETIONS ?= $(PREFIX)/share/fish/vendor_completions.d
STRIP            ?= strip
GENERATED        := .build/generated
VERSION          := $(shell sed -n 's/.*timelineKitVersion = "\(.*\)"/\1/p' Sources/TimelineKit/Version.swift)
DIST_NAME        := timeline-$(VERSION)-$(shell uname -s | tr A-Z a-z)-$(shell uname -m)
DEB_NAME          = timeline_$(VERSION)_$(shell dpkg --print-architecture).deb
DIST_STAGE       := .build/dist

# The demo keeps its database inside the repository, never in the user's real data.
DEMO_DB := $(CURDIR)/demo/timeline.sqlite

.PHONY: all deps test-deps build test layers-check docs example-check test-takahe first-day-check bench bench-smoke fuzz-smoke release demo install uninstall dist dist-check man completions clean

all: build

## deps: install the SQLite and LZ4 development packages and curl when they are missing (Debian/Ubuntu).
deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(SYSTEM_PACKAGES)"

## test-deps: deps, plus the programs the end-to-end tests run, the pinned atproto SDK (from
## PyPI, in .build/atproto-sdk) the Bluesky tests compare with, and the pinned feedparser (in
## .build/feedparser) the feed tests compare with; a failed pip install stops here.
test-deps: deps
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(TEST_PACKAGES)"
	tools/atproto-sdk/setup
	tools/feedparser/setup

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
	    case $$p in libsqlite3-dev) p=sqlite;; liblz4-dev) p=lz4;; libexpat1-dev) p=expat;; curl|python3|python3-venv) continue;; esac; \
	    brew list $$p >/dev/null 2>&1 || brew install $$p; \
	  done; \
	fi

## build: debug build of the library and the tool.
build: deps
	$(SWIFT) build

## test: everything `make test` promises in docs/development.md: unit and end-to-end tests, and the
## benchmark suite's smoke run (tiny data, a few runs) so that it cannot rot.
# The tests run as two runs of the one test binary: the library's tests, then the rest. Swift
# Testing runs tests in parallel on the concurrency pool, as wide as the machine's cores; the
# command-line tests block their thread for whole processes (tmux, servers, follow loops), and on
# two cores they starved the library's async tests (TimelineChangeSequenceTests) past their time
# limit. Apart, each run keeps its parallelism.
test: test-deps
	$(MAKE) --no-print-directory layers-check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter 'TimelineKitTests\.'
	$(SWIFT) test --skip-build --skip 'TimelineKitTests\.'
	@# The embedder example builds TimelineKit again (1.5-3 minutes of compiling) while Takahē
	@# starts, which waits on PostgreSQL, pip and migrations more than on the cores; its log is
	@# printed whole after, and either failing fails the run.
	@log=.build/example-check.log; \
	$(MAKE) --no-print-directory example-check >"$$log" 2>&1 & example=$$!; \
	$(MAKE) --no-print-directory test-takahe; takahe=$$?; \
	wait $$example; example_status=$$?; \
	echo "--- make example-check (run beside test-takahe), exit $$example_status:"; cat "$$log"; \
	[ $$takahe -eq 0 ] && [ $$example_status -eq 0 ]
	$(MAKE) --no-print-directory docs
	$(MAKE) --no-print-directory bench-smoke
	$(MAKE) --no-print-directory fuzz-smoke
	$(MAKE) --no-print-directory dist-check
	$(MAKE) --no-print-directory first-day-check

## example-check: Examples/Embedder, a package that depends on this one by path and imports
## TimelineKit plainly, built and run; `timeline show` paints the messages it stored under its
## own source (issue 35). About 1.5 minutes from scratch (it builds TimelineKit again).
example-check: deps
	$(SWIFT) build
	Examples/Embedder/check "$$($(SWIFT) build --show-bin-path)/timeline"

## docs: TimelineKit's DocC documentation (the catalog and every public doc comment) as a static
## archive in .build/documentation, by the toolchain's docc from the debug build's module (20 s);
## a docc warning (a link to a symbol that is not public, a parameter left undocumented) fails it.
docs: build
	tools/docs/build --strict

## layers-check: TimelineKit's folders use only the layers below their own, as docs/architecture.md
## declares, and do not loop (a second or so; ArchitectureTests runs it too).
layers-check:
	tools/layers/layers check

## test-takahe: the end-to-end suite against a real Mastodon-API server, Takahē, started from
## ../shared/real-servers/takahe beside the checkout (its start installs PostgreSQL, python3-venv
## and the pip packages it needs on a fresh machine): about two minutes warm; a cold start adds pip
## and migrations (docs/network.md, Real servers). It never skips: no Takahē folder, no PostgreSQL or no
## pip is a failure. A clone made elsewhere (`git clone . /tmp/fresh`) looks beside the checkout
## it was cloned from (its `origin`, when that is a local folder) before it fails.
TAKAHE_DIR ?= $(shell dir="$(CURDIR)/../shared/real-servers/takahe"; \
  origin="$$(git -C "$(CURDIR)" remote get-url origin 2>/dev/null)"; \
  case "$$origin" in (/*) [ -d "$$dir" ] || [ ! -d "$$origin/../shared/real-servers/takahe" ] || dir="$$origin/../shared/real-servers/takahe";; esac; \
  echo "$$dir")
test-takahe: deps
	$(SWIFT) build
	tools/takahe-e2e/run "$$($(SWIFT) build --show-bin-path)/timeline" --takahe "$(TAKAHE_DIR)"

## bench: the full benchmark run (at most 10 minutes): a table and bench-results.json. The
## sqlite3 shell is the peer the commands are measured against (stages 9 to 11).
## Stage 14 starts bash, zsh and fish (the shell hook's time to first prompt) beside zoxide's
## init, the peer for a shell hook: Debian's zoxide, installed for the bench only.
bench: deps
	@$(MAKE) --no-print-directory install-packages PACKAGES="sqlite3 bash zsh fish zoxide"
	tools/bench/run

bench-smoke: deps
	@$(MAKE) --no-print-directory install-packages PACKAGES="sqlite3 bash zsh fish"
	tools/bench/run --smoke

## fuzz-smoke: the import fuzzer (libFuzzer + AddressSanitizer on every decoder) for 42 seconds (6 a format),
## its seeds first: each real file, and each with every number set to each extreme of
## tools/fuzz/numbers.dict (issue 33), then at most 4,000 inputs a format from a fixed random
## seed, so that it repeats itself. A crash, a hang or an allocation past 64 MB fails it.
## Then the feed fuzzer (issue 35: XML through expat, JSON Feed, OPML, discovery): the real
## feeds, then at most 4,000 inputs from a fixed seed, within 10 seconds.
fuzz-smoke: deps
	FUZZ_RUNS=4000 tools/fuzz/run-import 42
	FUZZ_RUNS=4000 tools/fuzz/run-feeds 10

## release: the binary people run at every terminal start.
release: deps
	@# SwiftPM does not know the link reads the order file: a newer list forces the link again.
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; \
	if [ -f "$$bin/timeline" ] && [ tools/launch-order/show.order -nt "$$bin/timeline" ]; then rm -f "$$bin/timeline"; fi
	$(SWIFT) build $(RELEASE_FLAGS)

## demo: build the release binary, create a demo database from Fixtures/ (once), and show it.
demo: release
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; \
	if [ ! -f "$(DEMO_DB)" ]; then \
	  "$$bin/timeline" import --db "$(DEMO_DB)" Fixtures/sample-timeline.jsonl; \
	fi; \
	"$$bin/timeline" show --db "$(DEMO_DB)"

## install: the stripped release binary, its man page and its bash, zsh and fish completions,
## each in its standard place under PREFIX (DESTDIR stages them, as packagers expect).
install: release man completions
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(BASH_COMPLETIONS) $(DESTDIR)$(ZSH_COMPLETIONS) $(DESTDIR)$(FISH_COMPLETIONS)
	install -m 0755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/timeline" $(DESTDIR)$(PREFIX)/bin/timeline
	$(STRIP) $(DESTDIR)$(PREFIX)/bin/timeline
	install -m 0644 $(GENERATED)/timeline.1 $(DESTDIR)$(PREFIX)/share/man/man1/timeline.1
	install -m 0644 $(GENERATED)/timeline.bash $(DESTDIR)$(BASH_COMPLETIONS)/timeline
	install -m 0644 $(GENERATED)/_timeline $(DESTDIR)$(ZSH_COMPLETIONS)/_timeline
	install -m 0644 $(GENERATED)/timeline.fish $(DESTDIR)$(FISH_COMPLETIONS)/timeline.fish

## uninstall: remove exactly what install put in place.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/timeline $(DESTDIR)$(PREFIX)/share/man/man1/timeline.1 \
	  $(DESTDIR)$(BASH_COMPLETIONS)/timeline $(DESTDIR)$(ZSH_COMPLETIONS)/_timeline \
	  $(DESTDIR)$(FISH_COMPLETIONS)/timeline.fish

## man: the manual page, generated from the command tree's own help (ArgumentParser's plugin).
## Blank lines inside mdoc paragraphs become .Pp, so `man` prints no warnings.
man:
	@mkdir -p $(GENERATED)
	$(SWIFT) package plugin generate-manual --configuration debug >/dev/null
	sed 's/^$$/.Pp/' .build/plugins/GenerateManual/outputs/timeline/timeline.1 > $(GENERATED)/timeline.1

## completions: the shells' completion scripts, generated by the release binary itself.
completions: release
	@mkdir -p $(GENERATED)
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/timeline"; \
	"$$bin" --generate-completion-script bash > $(GENERATED)/timeline.bash && \
	"$$bin" --generate-completion-script zsh > $(GENERATED)/_timeline && \
	"$$bin" --generate-completion-script fish > $(GENERATED)/timeline.fish

## dist: a release tarball and a Debian package in dist/, with their SHA-256 sums. The README and
## the docs/ pages it links go to /usr/share/doc/timeline, in the same layout, so its links work there.
dist: release man completions
	rm -rf $(DIST_STAGE) && mkdir -p $(DIST_STAGE) dist
	$(MAKE) --no-print-directory install DESTDIR=$(DIST_STAGE)/tree PREFIX=/usr
	install -d $(DIST_STAGE)/tree/usr/share/doc/timeline
	install -m 0644 README.md $(DIST_STAGE)/tree/usr/share/doc/timeline/README.md
	install -d $(DIST_STAGE)/tree/usr/share/doc/timeline/docs
	install -m 0644 docs/*.md $(DIST_STAGE)/tree/usr/share/doc/timeline/docs
	install -m 0644 THIRD-PARTY-NOTICES $(DIST_STAGE)/tree/usr/share/doc/timeline/THIRD-PARTY-NOTICES
	cd $(DIST_STAGE)/tree/usr && tar --owner=0 --group=0 --sort=name -czf $(CURDIR)/dist/$(DIST_NAME).tar.gz \
	  --transform 's,^\.,$(DIST_NAME),' .
	install -d $(DIST_STAGE)/tree/DEBIAN
	sed -e 's/@VERSION@/$(VERSION)/' -e "s/@ARCH@/$$(dpkg --print-architecture)/" \
	  -e "s/@SIZE@/$$(du -sk $(DIST_STAGE)/tree/usr | cut -f1)/" tools/dist/control > $(DIST_STAGE)/tree/DEBIAN/control
	dpkg-deb --root-owner-group --build $(DIST_STAGE)/tree dist/$(DEB_NAME) >/dev/null
	cd dist && sha256sum $(DIST_NAME).tar.gz $(DEB_NAME) > SHA256SUMS
	@cat dist/SHA256SUMS

## first-day-check: the first day as the README tells it (FirstDayReadmeTests), run again with
## the binary `make install` puts under a scratch prefix, from an empty HOME (part of `make test`).
FIRST_DAY_PREFIX := $(CURDIR)/.build/first-day/usr
first-day-check: release man completions
	rm -rf $(CURDIR)/.build/first-day
	$(MAKE) --no-print-directory install PREFIX=$(FIRST_DAY_PREFIX)
	TIMELINE_FIRST_DAY_PREFIX=$(FIRST_DAY_PREFIX) $(SWIFT) test --skip-build --filter FirstDayReadmeTests

## dist-check: install the Debian package into a scratch root, use it, remove it (part of `make test`).
dist-check: dist
	tools/dist/check-package dist/$(DEB_NAME) dist/$(DIST_NAME).tar.gz

clean:
	rm -rf .build demo dist
