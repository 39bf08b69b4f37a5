#!/usr/bin/env bash
# Runs the test suite (already built) in two parts, and when it fails, prints every failed
# test and the issues it recorded again at the very end, so that the last lines of a long log
# (all a CI page may keep) say what failed and where. The whole log is in $OUT/test.log.
#
# 1. Everything but the sessions under a real compositor, in parallel.
# 2. The sessions under sway (a compositor, a client window, a recording replayed on the real
#    clock) one at a time, with nothing else running: a client window starved of the CPU
#    by hundreds of parallel tests reads its input late, and what it measures from event times
#    (a flick's velocity) is then not the finger's.
set -uo pipefail
SWIFT=${SWIFT:-swift}
OUT=${OUT:-out}
REAL_CLOCK_SESSIONS='GestureWaylandTests\.(CompositorTests|CompositorPenTests|WaylandClientTests|PhotoWallDesktopTests|CompositorRobustnessTests|CompositorScrollTests|CompositorPenLatencyTests|PhotoWallWindowHiDPITests|CompositorZoomTests|SourceContractTests)'
mkdir -p "$OUT"
log="$OUT/test.log"
: > "$log"

"$SWIFT" test --skip-build --skip "$REAL_CLOCK_SESSIONS" 2>&1 | tee -a "$log"
first=${PIPESTATUS[0]}
echo "==== the sessions under a real compositor, one at a time ====" | tee -a "$log"
"$SWIFT" test --skip-build --no-parallel --filter "$REAL_CLOCK_SESSIONS" 2>&1 | tee -a "$log"
second=${PIPESTATUS[0]}

if [ "$first" -ne 0 ] || [ "$second" -ne 0 ]; then
    echo
    echo "==== the test run failed (exit $first, then $second); what failed, from $log: ===="
    # Swift Testing marks a failed test and each issue it records with ✘ (an issue's details
    # follow on lines of their own, up to the next test's line); a crash says "Fatal error" or
    # names the signal.
    awk '/^(✘|Fatal error)|[Cc]aught signal|error: Exited with/ { keep = 1; kept = 0; print; next }
         /^(◇|✔|􀟈)/ { keep = 0 }
         keep && kept < 8 { print; kept++ }' "$log" | tail -n 80
    exit 1
fi
