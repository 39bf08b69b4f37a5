# GestureKit: the README's two commands are `make demo` and `make test`.
SWIFT ?= swift
OUT ?= out
DEMO_TRACE ?= Fixtures/ts-wacom-isdv4-e6-double-tap-1f.evemu

PHOTOWALL_TRACE ?= Fixtures/ts-wacom-isdv4-e6-double-tap-1f.evemu

.PHONY: deps build demo test photowall bench fuzz clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

# The main job: replay a real recording through the default scene, print what was
# recognized, and draw the replay (SVG, and PNG through rsvg-convert).
demo: deps
	@mkdir -p $(OUT)
	$(SWIFT) run gesturekit replay $(DEMO_TRACE) --svg $(OUT)/replay.svg
	rsvg-convert -o $(OUT)/replay.png $(OUT)/replay.svg
	@echo "picture: $(OUT)/replay.svg and $(OUT)/replay.png"

# The example app: replay a recording into the photo wall, headless, and write a PNG of
# the wall after every recognized gesture (and of the last frame) to out/photowall/.
photowall: deps
	@mkdir -p $(OUT)/photowall
	$(SWIFT) run photowall --replay $(PHOTOWALL_TRACE) --frames $(OUT)/photowall

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The benchmarks (Benchmarks/, a package of its own) and the replay comparison; results
# in out/bench/. See README's Performance section.
bench:
	@scripts/install-bench-deps.sh
	SWIFT=$(SWIFT) scripts/bench.sh

# libFuzzer targets (Fuzz/): each runs SECONDS seconds, two at a time; a crash fails the
# run and is kept in .build/fuzz/artifacts/<target>/. FUZZ_TARGETS picks some of them.
SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz:
	Fuzz/fuzz.sh $(SECONDS) $(FUZZ_TARGETS)

clean:
	rm -rf .build $(OUT)
