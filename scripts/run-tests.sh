#!/usr/bin/env bash
# Runs the test suite (already built) in two phases, and when it fails, prints every failed
# test and the issues it recorded again at the very end, so that the last lines of a long log
# (all a CI page may keep) say what failed and where. The whole log is in $OUT/test.log.
#
# 1. Everything but the sessions under a real compositor and the builds of other packages, in
#    parallel, as three test processes at once: the libinput suites (real libinput on mock
#    devices, in real time), the Wayland, GTK and X11 suites that may share the machine (a
#    compositor or an X server each, waiting on them), and everything else. The libinput
#    process is the phase's last: its agreement suite (every touchpad and mouse recording, one
#    replay at a time) runs on after the others have ended. (As a fourth process, with every
#    core busy to the phase's end, libinput 1.22 began one-finger holds in two fresh runs of
#    four: a frame read 2.6 ms late where a recording decides 2.5 ms before libinput's hold
#    timer, which the timing log then did not note; it notes such lateness now, and the
#    agreement tests allow for it, but the layout has not been tried again.) Swift Testing runs a
#    process's tests on Swift's cooperative thread pool, one thread a core, and a test waiting
#    for a session (a compositor, umockdev, a child process) holds its thread while it waits:
#    one process on 2 cores ran no more than two such tests at a time, and the machine sat
#    two-thirds idle (vmstat) while they waited. SwiftPM locks the build directory for
#    `swift test`, so the other processes are the test bundle itself (Swift Testing's entry
#    point, as `swift test` runs it). Beside them, at the lowest priority (nice 19), the
#    command BESIDE_TESTS names, which must not need the build directory (make test: the fuzz
#    targets' build, in a build directory of their own).
# 2. The sessions under sway (a compositor, a client window, a recording replayed on the real
#    clock) one at a time, at the normal priority; beside them, at nice 10, gesturekit drive's
#    sessions one at a time (their own sway, seat, devices and apps: two sessions side by side
#    are apart, DriveSessionTests.sideBySide; 20 rounds beside a busy loop on every core at the
#    normal priority, make stress, failed 2 of 280 runs, both a screen read mid-gesture, since
#    mended), and at nice 19 (they get only the
#    CPU the sessions leave, which is most of it: a session mostly waits on the real clock),
#    the suites that build other packages (Examples/Downstream*, GestureSDL3) and the command
#    BESIDE_SESSIONS names (make test: the Wayland headers check, the fuzz runs, the install
#    check and the documentation). A client window starved of the CPU by hundreds of parallel
#    tests at its own priority reads its input late, and what it measures from event times (a
#    flick's velocity) is then not the finger's; a nice 19 build yields the CPU when a session
#    wakes. BESIDE_TESTS, when phase 1's tests end before it, goes on beside them (a command of
#    BESIDE_SESSIONS that needs what it makes must wait for it: SwiftPM's lock on a build
#    directory does). Both test processes of this phase are the bundle run directly, so that the build
#    directory is free for BESIDE_SESSIONS (swift build, swift package), which builds nothing
#    the sessions run (everything is built first).
set -uo pipefail
SWIFT=${SWIFT:-swift}
OUT=${OUT:-out}
SERIAL_SESSIONS='GestureWaylandTests\.(CompositorTests|DragBetweenAppsTests|CompositorPenTests|WaylandClientTests|PhotoWallDesktopTests|CompositorRobustnessTests|CompositorScrollTests|CompositorPenLatencyTests|PhotoWallWindowHiDPITests|CompositorZoomTests|SourceContractTests)'
# Phase 2's second lane: gesturekit drive's sessions, one at a time, beside the others.
DRIVE_SESSIONS='GestureDriveTests\.DriveSessionTests'
REAL_CLOCK_SESSIONS="$SERIAL_SESSIONS|$DRIVE_SESSIONS"
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
# A process started in the background: its output goes to $OUT/NAME.log until collect() waits
# for it, appends its log to the whole log under a heading, and keeps its exit status in
# status_NAME.
start() {
    local name=$1
    shift
    "$@" > "$OUT/$name.log" 2>&1 &
    eval "pid_$name=$!"
}
collect() {
    local name=$1 heading=$2 pid
    eval "pid=\$pid_$name"
    wait "$pid"
    eval "status_$name=$?"
    echo "==== $heading (exit $(eval echo "\$status_$name")) ====" | tee -a "$log"
    tee -a "$log" < "$OUT/$name.log"
}
status_beside_tests=0
status_beside_sessions=0

[ -z "$BESIDE_TESTS" ] || start beside_tests nice -n 19 bash -c "$BESIDE_TESTS"
start libinput env NO_COLOR=1 "$bundle" --testing-library swift-testing --filter "$LIBINPUT_SUITES"
start wayland env NO_COLOR=1 "$bundle" --testing-library swift-testing --filter "$WAYLAND_SUITES" --skip "$REAL_CLOCK_SESSIONS"
"$SWIFT" test --skip-build --skip "$REAL_CLOCK_SESSIONS|$LIBINPUT_SUITES|$WAYLAND_SUITES|$BUILD_SUITES" 2>&1 | tee -a "$log"
first=${PIPESTATUS[0]}
collect wayland "the Wayland, GTK and X11 suites, run beside the above"
collect libinput "the libinput suites, run beside the above"

echo "==== the sessions under a real compositor, one at a time; beside them, gesturekit drive's sessions at nice 10, and at nice 19 the builds of other packages${BESIDE_SESSIONS:+ and: $BESIDE_SESSIONS} ====" | tee -a "$log"
start drive env NO_COLOR=1 nice -n 10 "$bundle" --testing-library swift-testing --no-parallel --filter "$DRIVE_SESSIONS"
start builds env NO_COLOR=1 nice -n 19 "$bundle" --testing-library swift-testing --filter "$BUILD_SUITES"
[ -z "$BESIDE_SESSIONS" ] || start beside_sessions nice -n 19 bash -c "$BESIDE_SESSIONS"
NO_COLOR=1 "$bundle" --testing-library swift-testing --no-parallel --filter "$SERIAL_SESSIONS" 2>&1 | tee -a "$log"
second=${PIPESTATUS[0]}
collect drive "gesturekit drive's sessions, run beside the sessions"
collect builds "the builds of other packages, run beside the sessions"
# BESIDE_TESTS may still run in phase 2 (at nice 19, as its side jobs): the sessions do not wait
# for it (a fresh machine's fuzz build outlasted phase 1's tests by 139 s).
[ -z "$BESIDE_TESTS" ] || collect beside_tests "$BESIDE_TESTS, run beside phase 1 (and on into phase 2)"
[ -z "$BESIDE_SESSIONS" ] || collect beside_sessions "$BESIDE_SESSIONS, run beside the sessions"

if [ "$first" -ne 0 ] || [ "$status_wayland" -ne 0 ] || [ "$status_libinput" -ne 0 ] \
   || [ "$status_beside_tests" -ne 0 ] || [ "$second" -ne 0 ] || [ "$status_drive" -ne 0 ] || [ "$status_builds" -ne 0 ] \
   || [ "$status_beside_sessions" -ne 0 ]; then
    echo
    echo "==== the test run failed (phase 1: exit $first, $status_wayland, $status_libinput and $status_beside_tests; phase 2: $second, $status_drive, $status_builds and $status_beside_sessions); what failed, from $log: ===="
    # Swift Testing marks a failed test and each issue it records with ✘ (an issue's details
    # follow on lines of their own, up to the next test's line); a crash says "Fatal error" or
    # names the signal.
    awk '/^(✘|Fatal error)|[Cc]aught signal|error: Exited with/ { keep = 1; kept = 0; print; next }
         /^(◇|✔|􀟈)/ { keep = 0 }
         keep && kept < 8 { print; kept++ }' "$log" | tail -n 80
    if [ "$status_beside_tests" -ne 0 ]; then
        echo "==== $BESIDE_TESTS failed (exit $status_beside_tests); its last lines, from $OUT/beside_tests.log: ===="
        tail -n 30 "$OUT/beside_tests.log"
    fi
    if [ "$status_beside_sessions" -ne 0 ]; then
        echo "==== $BESIDE_SESSIONS failed (exit $status_beside_sessions); its last lines, from $OUT/beside_sessions.log: ===="
        tail -n 30 "$OUT/beside_sessions.log"
    fi
    exit 1
fi
