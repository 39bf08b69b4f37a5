# GestureKit: the README's two commands are `make demo` and `make test`.
SWIFT ?= swift
OUT ?= out
DEMO_TRACE ?= Fixtures/ts-wacom-isdv4-e6-double-tap-1f.evemu

.PHONY: deps build demo test fuzz clean

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

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# libFuzzer targets (Fuzz/): each runs SECONDS seconds, two at a time; a crash fails the
# run and is kept in .build/fuzz/artifacts/<target>/. FUZZ_TARGETS picks some of them.
SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz:
	Fuzz/fuzz.sh $(SECONDS) $(FUZZ_TARGETS)

clean:
	rm -rf .build $(OUT)
