#!/usr/bin/env bash
# Runs the test suite (already built) in two phases, and when it fails, prints every failed
# test and the issues it recorded again at the very end, so that the last lines of a long log
# (all a CI page may keep) say what failed and where. The whole log is in $OUT/test.log.
#
# 1. Everything but the sessions under a real compositor, in parallel, as two test processes at
#    once: the libinput suites (real libinput on mock devices, in real time) in one, everything
#    else in the other. Swift Testing runs a process's tests on Swift's cooperative thread pool,
#    one thread a core, and a test waiting for a session (a compositor, umockdev, a child
#    process) holds its thread while it waits: one process on 2 cores ran no more than two such
#    tests at a time, and its slowest suite (the touchpad agreement tests) only began once
#    others let it. SwiftPM locks the build directory for `swift test`, so the second process is
#    the test bundle itself (Swift Testing's entry point, as `swift test` runs it).
# 2. The sessions under sway (a compositor, a client window, a recording replayed on the real
#    clock) one at a time, with nothing else running: a client window starved of the CPU
#    by hundreds of parallel tests reads its input late, and what it measures from event times
#    (a flick's velocity) is then not the finger's.
set -uo pipefail
SWIFT=${SWIFT:-swift}
OUT=${OUT:-out}
REAL_CLOCK_SESSIONS='GestureWaylandTests\.(CompositorTests|CompositorPenTests|WaylandClientTests|PhotoWallDesktopTests|CompositorRobustnessTests|CompositorScrollTests|CompositorPenLatencyTests|PhotoWallWindowHiDPITests|CompositorZoomTests|SourceContractTests)|GestureDriveTests\.DriveSessionTests'
# The second process of phase 1: Swift Testing suites only (the bundle's XCTest tests run in the
# first, with `swift test`).
LIBINPUT_SUITES='GestureLibinputTests\.|PhotoWallTests\.(PhotoWallLibinputTests|PhotoWallRecordingTests)'
mkdir -p "$OUT"
log="$OUT/test.log"
: > "$log"

bundle="$("$SWIFT" build --show-bin-path)/GestureKitPackageTests.xctest"
[ -x "$bundle" ] || { echo "run-tests: no test bundle at $bundle: build the tests first (swift build --build-tests)" >&2; exit 2; }
NO_COLOR=1 "$bundle" --testing-library swift-testing --filter "$LIBINPUT_SUITES" > "$OUT/test-libinput.log" 2>&1 &
libinput_pid=$!
"$SWIFT" test --skip-build --skip "$REAL_CLOCK_SESSIONS|$LIBINPUT_SUITES" 2>&1 | tee -a "$log"
first=${PIPESTATUS[0]}
wait "$libinput_pid"
libinput=$?
echo "==== the libinput suites, run beside the above ====" | tee -a "$log"
cat "$OUT/test-libinput.log" | tee -a "$log"
rm -f "$OUT/test-libinput.log"
echo "==== the sessions under a real compositor, one at a time ====" | tee -a "$log"
"$SWIFT" test --skip-build --no-parallel --filter "$REAL_CLOCK_SESSIONS" 2>&1 | tee -a "$log"
second=${PIPESTATUS[0]}

if [ "$first" -ne 0 ] || [ "$libinput" -ne 0 ] || [ "$second" -ne 0 ]; then
    echo
    echo "==== the test run failed (exit $first and $libinput, then $second); what failed, from $log: ===="
    # Swift Testing marks a failed test and each issue it records with ✘ (an issue's details
    # follow on lines of their own, up to the next test's line); a crash says "Fatal error" or
    # names the signal.
    awk '/^(✘|Fatal error)|[Cc]aught signal|error: Exited with/ { keep = 1; kept = 0; print; next }
         /^(◇|✔|􀟈)/ { keep = 0 }
         keep && kept < 8 { print; kept++ }' "$log" | tail -n 80
    exit 1
fi
