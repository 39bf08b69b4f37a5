#!/bin/sh
# Builds Examples/DownstreamToolkits, a package of its own that depends on GestureKit by path
# as a toolkit app would: downstream-gtk on the GestureKit and GestureGTK products,
# downstream-sdl on GestureKit and GestureSDL. Runs downstream-sdl (SDL's event queue needs
# no display) and compares its output with expected-sdl-output.txt; checks that each program
# links its own toolkit directly and nothing else of GestureKit's C libraries (libinput,
# libevdev, libudev, libwayland-client, libxkbcommon, the other toolkit). Run by the test
# suite (DownstreamTests).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
pkg="$root/Examples/DownstreamToolkits"
SWIFT=${SWIFT:-swift}
scratch=$(mktemp -d /tmp/gesturekit-downstream-toolkits.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
$SWIFT build --package-path "$pkg" --scratch-path "$scratch" 2>&1 | grep -v "prohibited flag" | tail -3

needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
fail=0
check() { # program, the library it must link, the libraries it must not
    exe="$scratch/debug/$1"; want=$2; shift 2
    libs=$(needed "$exe")
    if ! echo "$libs" | grep -q "^$want"; then
        echo "check-downstream-toolkits: $1 does not link $want directly: $(echo $libs)"; fail=1
    fi
    for l in "$@"; do
        if echo "$libs" | grep -q "^$l"; then
            echo "check-downstream-toolkits: $1 links $l, which it does not need: $(echo $libs)"; fail=1
        fi
    done
}
check downstream-gtk libgtk-4 libinput libevdev libudev libwayland-client libxkbcommon libSDL2
check downstream-sdl libSDL2 libinput libevdev libudev libwayland-client libxkbcommon libgtk-4

out=$("$scratch/debug/downstream-sdl")
expected=$(cat "$pkg/expected-sdl-output.txt")
if [ "$out" != "$expected" ]; then
    echo "check-downstream-toolkits: downstream-sdl printed:"; echo "$out"
    echo "check-downstream-toolkits: expected ($pkg/expected-sdl-output.txt):"; echo "$expected"
    fail=1
fi
[ $fail -eq 0 ] && echo "check-downstream-toolkits: both built; downstream-sdl ran and printed what was expected; each links its toolkit and no other C library of GestureKit's"
exit $fail
