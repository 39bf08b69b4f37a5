#!/usr/bin/env bash
# The engine's, the layouts' and the replays' tests (GestureKitTests, GestureLayoutTests,
# GestureReplayTests) in a release build under AddressSanitizer: the configuration apps ship,
# with every shortcut past Swift's run-time checks on (@exclusivity(unchecked),
# unowned(unsafe), Unmanaged, SlotList's pointers), so that a use after free or an
# out-of-bounds write through one fails the suite. (The debug build `make test` runs first
# compiles them out and checks every access instead.)
#
#   scripts/test-release-asan.sh [SWIFT TESTING ARGUMENTS...]     (make test-release-asan)
#
# Cheapest sound way: the library modules are the fuzz targets' (Fuzz/fuzz.sh builds them in
# release, with AddressSanitizer and -enable-testing, in .build/fuzz), so only the test
# modules and what they need besides (GestureTesting, GestureMockDevice, GesturePicture, the
# shared Tests/Support) are compiled here, with the same flags in the same build path; then
# swiftc links them with a main that runs Swift Testing, as SwiftPM's own test runner does,
# without the package's other twelve test targets. The fuzzers' coverage instrumentation
# comes along and is inert without libFuzzer (AddressSanitizer's runtime answers its hooks).
# GESTUREKIT_CASES (default 2,000 here, 10,000 in the debug run) sets the invariant cases.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
SWIFTC=${SWIFTC:-swiftc}
BUILD=.build/fuzz
TRIPLE=$("$SWIFTC" -print-target-info | sed -n 's/.*"unversionedTriple": "\(.*\)".*/\1/p' | head -1)
OBJ=$BUILD/$TRIPLE/release
TESTS=(GestureKitTests GestureLayoutTests GestureReplayTests)
MODULES=(GestureFormat GestureKit GestureRecording GestureTraces GestureLayout GestureReplay GesturePicture
         GestureTesting GestureMockDevice GestureTestSupport Logging HeapModule InternalCollectionsUtilities
         RealModule _NumericsShims "${TESTS[@]}")

start=$(date +%s)
for t in "${TESTS[@]}"; do
    echo "release-asan: building $t (release, -sanitize=fuzzer,address, in $BUILD)" >&2
    "$SWIFT" build -c release --build-path "$BUILD" --target "$t" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing >&2
done

objects=()
for m in "${MODULES[@]}"; do
    objects+=("$OBJ/$m.build"/*.o)
done
mkdir -p "$BUILD/bin"
main="$BUILD/bin/release-asan-main.swift"
cat > "$main" <<'EOF'
import Testing

@main struct ReleaseASanTests {
    static func main() async {
        await Testing.__swiftPMEntryPoint() as Never
    }
}
EOF
package=$(grep '"-module-name","GestureKitTests"' "$BUILD/release.yaml" | head -1 \
    | sed -n 's/.*"-package-name","\([^"]*\)".*/\1/p')
[ -n "$package" ] || { echo "release-asan: cannot find the package name in $BUILD/release.yaml" >&2; exit 1; }
echo "release-asan: linking $BUILD/bin/release-asan-tests" >&2
"$SWIFTC" -sanitize=address -O -parse-as-library -package-name "$package" -I "$OBJ/Modules" \
    -Xcc -fmodule-map-file="$BUILD/checkouts/swift-numerics/Sources/_NumericsShims/include/module.modulemap" \
    "$main" "${objects[@]}" -lm -o "$BUILD/bin/release-asan-tests" 2>&1 \
    | { grep -v "Cannot export local symbol" || true; } >&2
built=$(date +%s)

echo "release-asan: running the tests (built in $((built - start)) s)" >&2
# Swift's backtracer would run inside ASan after a trap and muddle the report; leaks are the
# fuzzers' to find (the runtime's caches live as long as the process).
status=0
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    GESTUREKIT_CASES=${GESTUREKIT_CASES:-2000} "$BUILD/bin/release-asan-tests" "$@" || status=$?
echo "release-asan: $( [ $status -eq 0 ] && echo passed || echo "FAILED (exit $status)" ) in $(( $(date +%s) - start )) s (build and link $((built - start)) s)" >&2
exit $status
