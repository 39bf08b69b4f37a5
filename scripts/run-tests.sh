#!/usr/bin/env bash
# Runs the test suite (already built) in two phases, and when it fails, prints every failed
# test and the issues it recorded again at the very end, so that the last lines of a long log
# (all a CI page may keep) say what failed and where. The whole log is in $OUT/test.log.
#
# 1. Everything but the sessions under a real compositor and the builds of other packages, in
#    parallel, as three test processes at once: the libinput suites (real libinput on mock
#    devices, in real time), the Wayland, GTK and X11 suites that may share the machine (a
#    compositor or an X server each, waiting on them), and everything else. Swift Testing runs a
#    process's tests on Swift's cooperative thread pool, one thread a core, and a test waiting
#    for a session (a compositor, umockdev, a child process) holds its thread while it waits:
#    one process on 2 cores ran no more than two such tests at a time, and the machine sat
#    two-thirds idle (vmstat) while they waited. SwiftPM locks the build directory for
#    `swift test`, so the other processes are the test bundle itself (Swift Testing's entry
#    point, as `swift test` runs it). Beside them, at the lowest priority (nice 19), the
#    command BESIDE_TESTS names, which must not need the build directory (make test: the fuzz
#    targets' build, in a build directory of their own).
# 2. The sessions under sway (a compositor, a client window, a recording replayed on the real
#    clock) one at a time, at the normal priority; beside them, at nice 19 (they get only the
#    CPU the sessions leave, which is most of it: a session mostly waits on the real clock),
#    the suites that build other packages (Examples/Downstream*, GestureSDL3) and the command
#    BESIDE_SESSIONS names (make test: the Wayland headers check, the fuzz runs, the install
#    check and the documentation). A client window starved of the CPU by hundreds of parallel
#    tests at its own priority reads its input late, and what it measures from event times (a
#    flick's velocity) is then not the finger's; a nice 19 build yields the CPU when a session
#    wakes. Both test processes of this phase are the bundle run directly, so that the build
#    directory is free for BESIDE_SESSIONS (swift build, swift package), which builds nothing
#    the sessions run (everything is built first).
set -uo pipefail
SWIFT=${SWIFT:-swift}
OUT=${OUT:-out}
REAL_CLOCK_SESSIONS='GestureWaylandTests\.(CompositorTests|CompositorPenTests|WaylandClientTests|PhotoWallDesktopTests|CompositorRobustnessTests|CompositorScrollTests|CompositorPenLatencyTests|PhotoWallWindowHiDPITests|CompositorZoomTests|SourceContractTests)|GestureDriveTests\.DriveSessionTests'
# The second process of phase 1: Swift Testing suites only (the bundle's XCTest tests run in the
# first, with `swift test`).
LIBINPUT_SUITES='GestureLibinputTests\.|PhotoWallTests\.(PhotoWallLibinputTests|PhotoWallRecordingTests)'
# Phase 2, beside the sessions at nice 19: the suites that build other packages.
BUILD_SUITES='GestureReplayTests\.(DownstreamTests|SDL3PackageTests)'
# Phase 1's third process: the Wayland, GTK and X11 suites but the real-clock sessions.
WAYLAND_SUITES='GestureWaylandTests\.'
BESIDE_TESTS=${BESIDE_TESTS:-}
BESIDE_SESSIONS=${BESIDE_SESSIONS:-}
mkdir -p "$OUT"
log="$OUT/test.log"
: > "$log"

# As root, the compositors run as an unprivileged user (sway refuses root): made here, once,
# before the test processes start together and each find it missing (Tests/Support's
# CompositorUser makes it too, for a test run alone).
if [ "$(id -u)" -eq 0 ] && ! id gesturekit-test >/dev/null 2>&1; then
    useradd --system --create-home --shell /usr/sbin/nologin gesturekit-test \
        || echo "run-tests: could not make the user gesturekit-test; the compositor tests will say why they cannot run" >&2
fi
bundle="$("$SWIFT" build --show-bin-path)/GestureKitPackageTests.xctest"
[ -x "$bundle" ] || { echo "run-tests: no test bundle at $bundle: build the tests first (swift build --build-tests)" >&2; exit 2; }
beside_tests_pid=
if [ -n "$BESIDE_TESTS" ]; then
    nice -n 19 bash -c "$BESIDE_TESTS" > "$OUT/beside-tests.log" 2>&1 &
    beside_tests_pid=$!
fi
NO_COLOR=1 "$bundle" --testing-library swift-testing --filter "$LIBINPUT_SUITES" > "$OUT/test-libinput.log" 2>&1 &
libinput_pid=$!
NO_COLOR=1 "$bundle" --testing-library swift-testing --filter "$WAYLAND_SUITES" --skip "$REAL_CLOCK_SESSIONS" > "$OUT/test-wayland.log" 2>&1 &
wayland_pid=$!
"$SWIFT" test --skip-build --skip "$REAL_CLOCK_SESSIONS|$LIBINPUT_SUITES|$WAYLAND_SUITES|$BUILD_SUITES" 2>&1 | tee -a "$log"
first=${PIPESTATUS[0]}
wait "$wayland_pid"
wayland=$?
echo "==== the Wayland, GTK and X11 suites, run beside the above ====" | tee -a "$log"
cat "$OUT/test-wayland.log" | tee -a "$log"
rm -f "$OUT/test-wayland.log"
wait "$libinput_pid"
libinput=$?
echo "==== the libinput suites, run beside the above ====" | tee -a "$log"
cat "$OUT/test-libinput.log" | tee -a "$log"
rm -f "$OUT/test-libinput.log"
beside_tests=0
if [ -n "$beside_tests_pid" ]; then
    wait "$beside_tests_pid"
    beside_tests=$?
    echo "==== $BESIDE_TESTS, run beside the above (exit $beside_tests) ====" | tee -a "$log"
    cat "$OUT/beside-tests.log" | tee -a "$log"
fi

echo "==== the sessions under a real compositor, one at a time; beside them at nice 19, the builds of other packages${BESIDE_SESSIONS:+ and: $BESIDE_SESSIONS} ====" | tee -a "$log"
NO_COLOR=1 nice -n 19 "$bundle" --testing-library swift-testing --filter "$BUILD_SUITES" > "$OUT/test-builds.log" 2>&1 &
builds_pid=$!
beside_pid=
if [ -n "$BESIDE_SESSIONS" ]; then
    nice -n 19 bash -c "$BESIDE_SESSIONS" > "$OUT/beside-sessions.log" 2>&1 &
    beside_pid=$!
fi
NO_COLOR=1 "$bundle" --testing-library swift-testing --no-parallel --filter "$REAL_CLOCK_SESSIONS" 2>&1 | tee -a "$log"
second=${PIPESTATUS[0]}
wait "$builds_pid"
builds=$?
echo "==== the builds of other packages, run beside the sessions ====" | tee -a "$log"
cat "$OUT/test-builds.log" | tee -a "$log"
rm -f "$OUT/test-builds.log"
beside=0
if [ -n "$beside_pid" ]; then
    wait "$beside_pid"
    beside=$?
    echo "==== $BESIDE_SESSIONS, run beside the sessions (exit $beside) ====" | tee -a "$log"
    cat "$OUT/beside-sessions.log" | tee -a "$log"
fi

if [ "$first" -ne 0 ] || [ "$wayland" -ne 0 ] || [ "$libinput" -ne 0 ] || [ "$beside_tests" -ne 0 ] \
   || [ "$second" -ne 0 ] || [ "$builds" -ne 0 ] || [ "$beside" -ne 0 ]; then
    echo
    echo "==== the test run failed (phase 1: exit $first, $wayland, $libinput and $beside_tests; phase 2: $second, $builds and $beside); what failed, from $log: ===="
    # Swift Testing marks a failed test and each issue it records with ✘ (an issue's details
    # follow on lines of their own, up to the next test's line); a crash says "Fatal error" or
    # names the signal.
    awk '/^(✘|Fatal error)|[Cc]aught signal|error: Exited with/ { keep = 1; kept = 0; print; next }
         /^(◇|✔|􀟈)/ { keep = 0 }
         keep && kept < 8 { print; kept++ }' "$log" | tail -n 80
    if [ "$beside_tests" -ne 0 ]; then
        echo "==== $BESIDE_TESTS failed (exit $beside_tests); its last lines, from $OUT/beside-tests.log: ===="
        tail -n 30 "$OUT/beside-tests.log"
    fi
    if [ "$beside" -ne 0 ]; then
        echo "==== $BESIDE_SESSIONS failed (exit $beside); its last lines, from $OUT/beside-sessions.log: ===="
        tail -n 30 "$OUT/beside-sessions.log"
    fi
    exit 1
fi
