#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for DURATION seconds, two at a time.
#   Fuzz/fuzz.sh DURATION [TARGET...]      (make fuzz SECONDS=N)
#   Fuzz/fuzz.sh build                     (only build)
# Targets: evemu libinput-record debug-events scene multitouch input-recording png.
#
# FUZZ_CONFIG=debug builds without optimization, in .build/fuzz-debug: a third of the CPU of the
# release build (116 against 331 core-seconds from clean, 2026-12-02), for make test's few
# seconds a target; `make fuzz` keeps release, which runs several times more inputs a second.
#
# The library modules are built by SwiftPM with coverage and AddressSanitizer
# (-sanitize=fuzzer,address, in their own build path), and each target is linked by swiftc
# from its Fuzz/*Target.swift, Fuzz/Support.swift and the modules' object files: a SwiftPM
# executable built with -sanitize=fuzzer does not link (libFuzzer brings its own main).
# Inputs are kept in .build/fuzz/corpus/<target> (seeded from Fuzz/corpus/<target>), crashes
# in .build/fuzz/artifacts/<target>/, logs and a summary in .build/fuzz/logs/.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
SWIFTC=${SWIFTC:-swiftc}
CONFIG=${FUZZ_CONFIG:-release}
case "$CONFIG" in
    release) BUILD=.build/fuzz; OPTIMIZE=-O ;;
    debug) BUILD=.build/fuzz-debug; OPTIMIZE=-Onone ;;
    *) echo "fuzz: FUZZ_CONFIG is release or debug, not '$CONFIG'" >&2; exit 2 ;;
esac
TRIPLE=$("$SWIFTC" -print-target-info | sed -n 's/.*"unversionedTriple": "\(.*\)".*/\1/p' | head -1)
OBJ=$BUILD/$TRIPLE/$CONFIG
ALL=(evemu libinput-record debug-events scene multitouch input-recording png)
declare -A SOURCE=([evemu]=EvemuTarget [libinput-record]=LibinputRecordTarget
                   [debug-events]=DebugEventsTarget [scene]=SceneTarget [multitouch]=MultitouchTarget
                   [input-recording]=InputRecordingTarget [png]=PNGTarget)
# Sources a target compiles in beside its own (png: the picture readers, without the rest of
# GestureDrive, which brings the compositor and the testing library), and what it links.
declare -A EXTRA=([png]="Sources/GestureDrive/PNG.swift Sources/GestureDrive/Screenshot.swift Sources/GestureDrive/DriveError.swift -I Sources/CZlib -lz")
# The JSON targets take inputs up to the reader's longest line (1 MiB): a hostile file is large
# (a line of 80,000 keys, a frame of thousands of touches), and must be refused in linear time.
declare -A MAXLEN=([evemu]=16384 [libinput-record]=16384 [debug-events]=16384 [scene]=1048576 [multitouch]=4096
                   [input-recording]=1048576 [png]=65536)

build() {
    # One build (and link) of a build directory at a time: make test starts one beside its first
    # phase and another before its fuzz runs, which may come before the first has linked.
    mkdir -p "$(dirname "$BUILD")"
    exec 9>"$BUILD.lock"
    flock 9
    echo "fuzz: building the modules with -sanitize=fuzzer,address ($CONFIG)" >&2
    "$SWIFT" build -c "$CONFIG" --build-path "$BUILD" --target GestureReplay \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing >&2
    local objects=()
    for m in GestureFormat GestureKit GestureRecording GestureTraces GestureLayout GestureReplay Logging HeapModule \
             InternalCollectionsUtilities RealModule _NumericsShims; do
        objects+=("$OBJ/$m.build"/*.o)
    done
    mkdir -p "$BUILD/bin"
    # The targets use the modules' package-level API, so they are compiled as part of the
    # package: with the package name SwiftPM gave the modules (the checkout's directory name).
    local package
    package=$(grep '"-module-name","GestureReplay"' "$BUILD/$CONFIG.yaml" | head -1 \
        | sed -n 's/.*"-package-name","\([^"]*\)".*/\1/p')
    [ -n "$package" ] || { echo "fuzz: cannot find the package name in $BUILD/$CONFIG.yaml" >&2; exit 1; }
    for t in "${ALL[@]}"; do
        echo "fuzz: linking fuzz-$t" >&2
        "$SWIFTC" -sanitize=fuzzer,address -parse-as-library "$OPTIMIZE" -package-name "$package" \
            -I "$OBJ/Modules" \
            -Xcc -fmodule-map-file="$BUILD/checkouts/swift-numerics/Sources/_NumericsShims/include/module.modulemap" \
            Fuzz/Support.swift "Fuzz/${SOURCE[$t]}.swift" ${EXTRA[$t]:-} "${objects[@]}" -lm \
            -o "$BUILD/bin/fuzz-$t" 2>&1 | { grep -v "Cannot export local symbol" || true; } >&2
    done
    exec 9>&-
}

run() {  # target duration
    local t=$1 duration=$2
    mkdir -p "$BUILD/corpus/$t" "$BUILD/artifacts/$t" "$BUILD/logs"
    local log="$BUILD/logs/$t.log"
    set +e
    # Swift's own backtracer would run inside ASan after a trap and muddle the report.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    "$BUILD/bin/fuzz-$t" "$BUILD/corpus/$t" "Fuzz/corpus/$t" \
        -max_total_time="$duration" -timeout=10 -rss_limit_mb=2048 -max_len="${MAXLEN[$t]}" \
        -artifact_prefix="$BUILD/artifacts/$t/" -print_final_stats=1 >"$log" 2>&1
    local status=$?
    set -e
    local execs secs
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    secs=$(grep -o 'DONE .* in [0-9]* second' "$log" | grep -o '[0-9]* second' | tail -1 || true)
    if [ "$status" -eq 0 ]; then
        echo "$t: ok, ${execs:-?} executions, ${secs:-$duration s}" | tee -a "$BUILD/logs/summary.txt"
    else
        echo "$t: FAILED (exit $status) after ${execs:-?} executions: see $log and $BUILD/artifacts/$t/" \
            | tee -a "$BUILD/logs/summary.txt"
        grep -m5 -E "ERROR|Fatal error|panic|==[0-9]+==" "$log" >&2 || true
        return 1
    fi
}

if [ "${1:-}" = build ]; then build; exit 0; fi
duration=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${ALL[@]}")
build
mkdir -p "$BUILD/logs"
echo "--- $(date -u +%FT%TZ) ${duration}s per target" >>"$BUILD/logs/summary.txt"
failed=0
# Two at a time: the machine has two cores.
for ((i = 0; i < ${#targets[@]}; i += 2)); do
    pids=()
    for t in "${targets[@]:i:2}"; do run "$t" "$duration" & pids+=($!); done
    for p in "${pids[@]}"; do wait "$p" || failed=1; done
done
exit $failed
