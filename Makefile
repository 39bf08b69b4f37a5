# GestureKit: the README's two commands are `make demo` and `make test`. Each target installs the
# Debian packages its own part needs when they are missing (scripts/install-deps.sh PART);
# `make test` and `make build` install everything.
SWIFT ?= swift
OUT ?= out
DEMO_TRACE ?= Fixtures/ts-wacom-isdv4-e6-double-tap-1f.evemu

PHOTOWALL_TRACE ?= Fixtures/ts-wacom-isdv4-e6-double-tap-1f.evemu

.PHONY: deps build demo test test-debian13 check-fresh-demo check-fresh-test stress docs install uninstall photowall bench bench-gtk-cost bench-drive-overhead test-drive fuzz test-release-asan soak clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

# The main job: replay a real recording through the default scene, print what was
# recognized, and draw the replay (SVG, and PNG through rsvg-convert).
demo:
	@scripts/install-deps.sh demo
	@mkdir -p $(OUT)
	$(SWIFT) run gesturekit replay $(DEMO_TRACE) --svg $(OUT)/replay.svg
	rsvg-convert -o $(OUT)/replay.png $(OUT)/replay.svg
	@echo "picture: $(OUT)/replay.svg and $(OUT)/replay.png"

# The example app: replay a recording into the photo wall, headless, and write a PNG of
# the wall after every recognized gesture (and of the last frame) to out/photowall/.
photowall:
	@scripts/install-deps.sh photowall
	@mkdir -p $(OUT)/photowall
	$(SWIFT) run photowall --replay $(PHOTOWALL_TRACE) --frames $(OUT)/photowall

# The tests (scripts/run-tests.sh, docs/TESTING.md: a failed run names its failures again at the
# end; the whole log is in $(OUT)/test.log), in a debug build, which compiles out every shortcut
# past Swift's run-time checks (Package.swift, checkedInDebug). Beside the tests, at nice 19: the
# fuzz targets built (AddressSanitizer, unoptimized: .build/fuzz-debug) from the parallel phase on; during the
# real-compositor phase, GestureWayland type-checked against the libwayland headers of Debian 13
# and sid (scripts/check-wayland-headers.sh), every fuzz target run for TEST_FUZZ_SECONDS with
# AddressSanitizer and LeakSanitizer (a leak or a crash fails the run), `make install` into a
# temporary prefix, and the documentation built with warnings as errors. On a fresh machine the
# packages the build needs are installed first, and those only the tests run (compositors, apps,
# browsers) during the build, which waits for them before any test starts.
TEST_FUZZ_SECONDS ?= 5
test:
	@scripts/install-deps.sh build
	@mkdir -p $(OUT); scripts/install-deps.sh > $(OUT)/install-deps.log 2>&1 & deps=$$!; \
	  $(SWIFT) build --build-tests; built=$$?; \
	  wait $$deps; installed=$$?; cat $(OUT)/install-deps.log >&2; \
	  [ $$installed -eq 0 ] || { echo "make test: installing the packages the tests need failed (above)" >&2; exit 1; }; \
	  exit $$built
	SWIFT=$(SWIFT) OUT=$(OUT) BESIDE_TESTS='FUZZ_CONFIG=debug Fuzz/fuzz.sh build' \
	  BESIDE_SESSIONS='scripts/check-wayland-headers.sh && FUZZ_CONFIG=debug Fuzz/fuzz.sh $(TEST_FUZZ_SECONDS) && scripts/check-install.sh && scripts/docs.sh' \
	  scripts/run-tests.sh

# The same test command inside a Debian 13 (trixie) root made with debootstrap and kept in
# DEBIAN13_ROOT (default /var/cache/gesturekit/debian13; its first creation takes a minute or
# two, later runs reuse it), with this machine's Swift toolchain bound in: libwayland 1.23,
# libinput 1.28, sway 1.10, umockdev 0.19, SDL2 2.32. Needs root. The log and a summary
# (versions, times, results) go to $(OUT)/debian13/. DEBIAN13_FILTER=PATTERN runs only the tests
# swift test --filter PATTERN picks. See scripts/test-debian13.sh.
test-debian13:
	OUT=$(OUT) SWIFT=$(SWIFT) scripts/test-debian13.sh

# `make demo` on a brand-new Debian 12 minbase root (debootstrap, in a temporary directory under
# /var/tmp, removed at the end) with nothing but what this machine's Swift toolchain needs, from a
# clean clone of the committed HEAD: checks that out/replay.png is made and prints how long the
# demo's packages, build and replay took and which Debian packages it installed. Needs root.
# See scripts/check-fresh-demo.sh; results in $(OUT)/fresh-demo/.
check-fresh-demo:
	OUT=$(OUT) SWIFT=$(SWIFT) scripts/check-fresh-demo.sh

# `make test` as CI runs it (`CI=true bash .ci/run`), FRESH_RUNS times (3) in a row, each from a new
# clean clone of the committed HEAD, in one brand-new Debian 12 minbase root (debootstrap) with
# nothing but what this machine's Swift toolchain needs: the first run installs every package the
# suite uses, as on a fresh CI machine. Prints each run's result and time; the logs go to
# $(OUT)/fresh-test/. Needs root. See scripts/check-fresh-test.sh.
FRESH_RUNS ?= 3
check-fresh-test:
	OUT=$(OUT) SWIFT=$(SWIFT) FRESH_RUNS=$(FRESH_RUNS) scripts/check-fresh-test.sh

# The real-time tests (scripts/realtime-tests.txt) RUNS times (20) beside a busy loop on every
# core, each test's runs and failures counted in $(OUT)/stress/summary.txt. STRESS_FILTER=REGEX
# picks suites; STRESS_SOAKS=1 adds the minute-long soaks; LOAD=N sets the busy loops. Builds
# the tests first; run it in a tree nobody else builds in meanwhile. See scripts/stress.sh.
RUNS ?= 20
stress: deps
	$(SWIFT) build --build-tests
	OUT=$(OUT) SWIFT=$(SWIFT) RUNS=$(RUNS) LOAD=$(LOAD) STRESS_FILTER="$(STRESS_FILTER)" STRESS_SOAKS=$(STRESS_SOAKS) scripts/stress.sh

# The DocC documentation of every library module, as static HTML in out/docs/site, with
# the state-machine diagrams drawn again from the code first.
docs:
	@scripts/install-deps.sh docs
	SWIFT=$(SWIFT) scripts/docs.sh

# Installs gesturekit, photowall, the umockdev preload library, man pages and bash, zsh and
# fish completions under PREFIX, where Debian expects them (DESTDIR for packaging).
# CONFIG=debug installs the debug build instead of building a release.
PREFIX ?= /usr/local
CONFIG ?= release
BINDIR = $(DESTDIR)$(PREFIX)/bin
LIBDIR = $(DESTDIR)$(PREFIX)/lib/gesturekit
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
TOOLS = gesturekit photowall
install:
	@scripts/install-deps.sh photowall
	$(SWIFT) build -c $(CONFIG) --product gesturekit
	$(SWIFT) build -c $(CONFIG) --product photowall
	# The argument parser's generate-manual tool (what its generate-manual plugin runs; the
	# plugin itself would build the whole package in release first).
	$(SWIFT) build --product generate-manual
	install -d $(BINDIR) $(LIBDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	set -e; for t in $(TOOLS); do \
	  install -m 755 .build/$(CONFIG)/$$t $(BINDIR)/$$t; \
	  .build/debug/generate-manual .build/$(CONFIG)/$$t --output-directory $(MANDIR); \
	  .build/$(CONFIG)/$$t --generate-completion-script bash > $(BASHDIR)/$$t; \
	  .build/$(CONFIG)/$$t --generate-completion-script zsh > $(ZSHDIR)/_$$t; \
	  .build/$(CONFIG)/$$t --generate-completion-script fish > $(FISHDIR)/$$t.fish; \
	done
	cc -shared -fPIC -O2 -D_GNU_SOURCE -o $(LIBDIR)/libGestureKitUmockdevFix.so \
	  Sources/GestureMockDevice/UmockdevFix/umockdev_fix.c -ldl
	@echo "installed under $(DESTDIR)$(PREFIX)"

uninstall:
	set -e; for t in $(TOOLS); do \
	  rm -f $(BINDIR)/$$t $(MANDIR)/$$t.1 $(BASHDIR)/$$t $(ZSHDIR)/_$$t $(FISHDIR)/$$t.fish; \
	done
	rm -f $(LIBDIR)/libGestureKitUmockdevFix.so
	-rmdir $(LIBDIR)

# The benchmarks (Benchmarks/, a package of its own) and the replay comparison; results
# in out/bench/. Benchmarks/README.md has the figures and how to read them.
bench:
	@scripts/install-bench-deps.sh
	SWIFT=$(SWIFT) scripts/bench.sh

# GestureGTK's cost beside GTK's own gestures: one recording replayed under headless sway into
# gtk-widgets' scrolling page (a release build) with GestureGTK's recognizers, then with GTK's
# own gestures, each under callgrind (GTKGestureCostTests, about two minutes); the figures go
# to out/gtk-gesture-cost.txt and Benchmarks/README.md. Not part of `make test`.
bench-gtk-cost:
	@scripts/install-deps.sh
	@scripts/install-deps.sh valgrind
	$(SWIFT) build -c release --product gtk-widgets
	$(SWIFT) build --build-tests
	GESTUREKIT_GTK_COST=1 $(SWIFT) test --skip-build --filter GTKGestureCostTests

# gesturekit drive's proof tests alone (eog, gnome-calculator, a Qt Quick scene, a page in
# Chromium): what drive needs installed, then GestureDriveTests. make test runs them too.
test-drive:
	@scripts/install-deps.sh
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter GestureDriveTests

# What one gesturekit drive test costs beside its app (scripts/drive-overhead.sh): RUNS (10)
# sessions of a trivial app, the medians of drive's start and stop phases. Not part of make test.
bench-drive-overhead:
	@scripts/install-deps.sh drive
	SWIFT=$(SWIFT) scripts/drive-overhead.sh

# libFuzzer targets (Fuzz/): each runs SECONDS seconds, two at a time; a crash fails the
# run and is kept in .build/fuzz/artifacts/<target>/. FUZZ_TARGETS picks some of them.
SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz:
	@scripts/install-deps.sh g++
	Fuzz/fuzz.sh $(SECONDS) $(FUZZ_TARGETS)

# The engine's, the layouts' and the replays' tests (GestureKitTests, GestureLayoutTests,
# GestureReplayTests) in a release build, every shortcut past Swift's run-time checks on, under
# AddressSanitizer: the configuration apps ship (scripts/test-release-asan.sh; it reuses the
# fuzz targets' release build in .build/fuzz). A long check of its own, not part of `make test`
# (about 15 minutes on 2 cores when the library changed; docs/TESTING.md).
test-release-asan:
	@scripts/install-deps.sh g++
	SWIFT=$(SWIFT) scripts/test-release-asan.sh

# Minutes of random gestures from the recordings into a scene with every recognizer kind and
# a scrolling layout (gesturekit soak, a release build), twice: through real libinput under
# umockdev, then through headless sway (its libinput reading the same mock devices) into a
# Wayland window. Each fails on a crash, a recognizer stuck out of possible, or memory
# growing, and prints the latencies. sway refuses root: as root its run is the unprivileged
# user gesturekit-test's (made here if missing, as the tests make it). docs/TESTING.md describes
# it; Benchmarks/README.md has the figures of the last run.
MINUTES ?= 10
SOAK_USER = gesturekit-test
soak:
	@scripts/install-deps.sh soak
	$(SWIFT) build -c release --product gesturekit
	.build/release/gesturekit soak --minutes $(MINUTES)
	if [ "$$(id -u)" = 0 ]; then \
	    id $(SOAK_USER) >/dev/null 2>&1 || useradd --system --create-home --shell /usr/sbin/nologin $(SOAK_USER); \
	    .build/release/gesturekit soak --through compositor --user $(SOAK_USER) --minutes $(MINUTES); \
	else \
	    .build/release/gesturekit soak --through compositor --minutes $(MINUTES); \
	fi

clean:
	rm -rf .build $(OUT)
