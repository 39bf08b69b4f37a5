#!/usr/bin/env bash
# make stress: runs every suite of scripts/realtime-tests.txt RUNS times (20) beside CPU load
# (a busy loop on every core, started before and stopped after), and counts each test's runs and
# failures. It answers "does this real-time test hold on a loaded machine?" with a figure; make
# test cannot (it runs each once).
#
# Each round runs the suites one after another, one `swift test --skip-build --filter` each,
# with the suite's results as JUnit XML (Swift Testing's --xunit-output). The tests must be built
# (`swift build --build-tests`); nothing here rebuilds, so run it in a tree no one builds in
# meanwhile (a `git worktree` of the commit under test).
#
# Settings (environment or make variables):
#   RUNS=N          rounds (default 20)
#   LOAD=N          busy loops beside the tests (default: one a core, `nproc`); 0 for none
#   STRESS_FILTER=R only the lines of realtime-tests.txt whose pattern matches the regex R
#   STRESS_SOAKS=1  also the minute-long soaks (marked `soak` in the list)
#   OUT             where results go (default out): $OUT/stress/summary.txt, a table of every
#                   test (runs, failures, the rounds that failed); $OUT/stress/round-K/ the
#                   XML and log of every suite of round K (a failed suite's log is kept, a
#                   passing one's removed).
# Exit status: 0 when no test failed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
OUT=${OUT:-out}
RUNS=${RUNS:-20}
LOAD=${LOAD:-$(nproc)}
FILTER=${STRESS_FILTER:-.}
SOAKS=${STRESS_SOAKS:-0}
dir="$OUT/stress"
rm -rf "$dir"
mkdir -p "$dir"

suites=()
while read -r first second _; do
    case "$first" in ''|'#'*) continue ;; esac
    if [ "$first" = soak ]; then
        [ "$SOAKS" = 1 ] || continue
        first=$second
    fi
    [[ "$first" =~ $FILTER ]] && suites+=("$first")
done < scripts/realtime-tests.txt
[ ${#suites[@]} -gt 0 ] || { echo "stress: no suite of scripts/realtime-tests.txt matches '$FILTER'" >&2; exit 2; }

loops=()
stop_load() { for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null; done; loops=(); }
trap stop_load EXIT
trap 'exit 130' INT TERM
for ((i = 0; i < LOAD; i++)); do
    ( while :; do :; done ) &
    loops+=($!)
done

start=$(date +%s)
echo "stress: ${#suites[@]} suites, $RUNS rounds, $LOAD busy loops beside them; results in $dir/summary.txt"
for ((round = 1; round <= RUNS; round++)); do
    mkdir -p "$dir/round-$round"
    for suite in "${suites[@]}"; do
        name=${suite%/}
        log="$dir/round-$round/$name.log"
        "$SWIFT" test --skip-build --filter "$suite" --xunit-output "$dir/round-$round/$name.xml" > "$log" 2>&1
        status=$?
        xml="$dir/round-$round/$name-swift-testing.xml"
        # One line a test case: "classname/name pass|fail". A suite that crashed or wrote no
        # XML counts as one failure of the suite itself.
        if [ -s "$xml" ]; then
            awk -v round="$round" '
                /<testcase / {
                    match($0, /classname="[^"]*"/); c = substr($0, RSTART + 11, RLENGTH - 12)
                    match($0, / name="[^"]*"/); n = substr($0, RSTART + 7, RLENGTH - 8)
                    id = c "/" n; failed = 0
                    if ($0 ~ /\/>[ \t]*$/) { print id, "pass", round; id = ""; next }
                }
                /<failure/ { failed = 1 }
                /<skipped/ { skipped = 1 }
                /<\/testcase>/ { if (id != "") print id, (skipped ? "skip" : (failed ? "fail" : "pass")), round; id = ""; skipped = 0 }
            ' "$xml" >> "$dir/results.txt"
        else
            echo "$name/(the suite: exit $status, no results) fail $round" >> "$dir/results.txt"
        fi
        if [ "$status" -eq 0 ]; then rm -f "$log"; fi
        echo "stress: round $round/$RUNS $name: exit $status ($(( $(date +%s) - start )) s in)"
    done
done
stop_load

{
    echo "make stress, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null), $RUNS rounds, $LOAD busy loops on $(nproc) cores, $(( $(date +%s) - start )) s"
    echo
    printf '%-90s %5s %8s  %s\n' "test" "runs" "failures" "rounds failed"
    awk '{ id = $1; runs[id]++; if ($2 == "fail") { fails[id]++; rounds[id] = rounds[id] " " $3 } if ($2 == "skip") skips[id]++ }
         END { for (id in runs) printf "%-90s %5d %8d %s%s\n", id, runs[id] - skips[id], fails[id], rounds[id], (skips[id] ? "  (skipped here)" : "") }' \
        "$dir/results.txt" | sort
    echo
    awk '{ n++; if ($2 == "fail") f++ } END { printf "%d test runs, %d failures\n", n, f }' "$dir/results.txt"
} > "$dir/summary.txt"
cat "$dir/summary.txt"
! grep -q ' fail ' "$dir/results.txt"
