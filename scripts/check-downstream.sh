#!/bin/sh
# Builds and runs Examples/Downstream, a package of its own that depends on GestureKit by
# path and uses only the GestureKit and GestureLayout products, as an app would, then runs
# its tests (`swift test`), which use the GestureTesting and GestureTestingTraces products.
# It must build and test with nothing but Swift: where this machine allows a private mount
# namespace, the build and the tests run with the headers and pkg-config files of libinput,
# libevdev, libudev and SDL2 hidden; the program's output is compared with
# Examples/Downstream/expected-output.txt, its linked libraries are checked, and a failing
# test fails the check. Run by the test suite (DownstreamTests).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
pkg="$root/Examples/Downstream"
SWIFT=${SWIFT:-swift}
# A fresh build directory each time: SwiftPM does not always notice files added to a path
# dependency in an existing one, and a clone in CI has none anyway.
scratch=$(mktemp -d /tmp/gesturekit-downstream.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
build="$SWIFT build --package-path $pkg --scratch-path $scratch"
tests="$SWIFT test --package-path $pkg --scratch-path $scratch"

hide='set -e
for d in /usr/include/SDL2 /usr/include/libevdev-1.0 /usr/lib/x86_64-linux-gnu/pkgconfig /usr/lib/aarch64-linux-gnu/pkgconfig /usr/share/pkgconfig /usr/lib/pkgconfig; do
  [ -d "$d" ] && mount -t tmpfs none "$d"
done
for f in /usr/include/libinput.h /usr/include/libudev.h; do
  [ -e "$f" ] && mount --bind /dev/null "$f"
done
exec "$@"'

# Runs a command with those headers hidden where the machine allows it.
if unshare --mount --propagation private true 2>/dev/null; then
    echo "check-downstream: building and testing with the headers and pkg-config files of libinput, libevdev, libudev and SDL2 hidden"
    hidden() { unshare --mount --propagation private sh -c "$hide" sh "$@"; }
else
    echo "check-downstream: NOTE: no private mount namespace here (unshare --mount refused), so the system's libinput and SDL headers stay visible to this build and its tests; the linked-library check below still runs"
    hidden() { "$@"; }
fi
# shellcheck disable=SC2086
hidden $build

exe="$scratch/debug/downstream"
out=$("$exe")
expected=$(cat "$pkg/expected-output.txt")
if [ "$out" != "$expected" ]; then
    echo "check-downstream: the downstream program printed:"; echo "$out"
    echo "check-downstream: expected (Examples/Downstream/expected-output.txt):"; echo "$expected"
    exit 1
fi
if ldd "$exe" | grep -E 'libinput|libevdev|libudev|SDL2'; then
    echo "check-downstream: the downstream program links a C input or SDL library; GestureKit and GestureLayout must need none"
    exit 1
fi
# The package's tests (DownstreamTests: GestureTester on the app's views), in the same build
# directory, with the same headers hidden.
# shellcheck disable=SC2086
if ! hidden $tests; then
    echo "check-downstream: the downstream package's tests failed (swift test --package-path Examples/Downstream)"
    exit 1
fi
bundle="$scratch/debug/DownstreamPackageTests.xctest"
if [ -e "$bundle" ] && ldd "$bundle" | grep -E 'libinput|libevdev|libudev|SDL2'; then
    echo "check-downstream: the downstream tests link a C input or SDL library; GestureTesting and GestureTestingTraces must need none"
    exit 1
fi
echo "check-downstream: built, ran and printed what was expected; its tests passed; neither links libinput, libevdev, libudev or SDL2"
