#!/bin/sh
# Builds Examples/DownstreamToolkits, a package of its own that depends on GestureKit by path
# as a toolkit app would: downstream-gtk on the GestureKit and GestureGTK products,
# downstream-gtk-widgets on those and CGTK4 (GTK's C API), downstream-sdl on GestureKit and
# GestureSDL. Runs downstream-sdl (SDL's event queue needs no display) and compares its output
# with expected-sdl-output.txt, and downstream-gtk-widgets on Xvfb against
# expected-gtk-widgets-output.txt; checks that each program
# links its own toolkit directly and nothing else of GestureKit's C libraries (libinput,
# libevdev, libudev, libwayland-client, libxkbcommon, the other toolkit). Run by the test
# suite (DownstreamTests).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
pkg="$root/Examples/DownstreamToolkits"
SWIFT=${SWIFT:-swift}
# DOWNSTREAM_SCRATCH: a build directory kept between runs (by default a new one, removed).
if [ -n "${DOWNSTREAM_SCRATCH:-}" ]; then
    scratch=$DOWNSTREAM_SCRATCH; mkdir -p "$scratch"
else
    scratch=$(mktemp -d /tmp/gesturekit-downstream-toolkits.XXXXXX)
    trap 'rm -rf "$scratch"' EXIT
fi
if ! $SWIFT build --package-path "$pkg" --scratch-path "$scratch" > "$scratch/build.log" 2>&1; then
    echo "check-downstream-toolkits: the package does not build:"
    grep -E "error:" -A3 "$scratch/build.log" | head -60
    exit 1
fi
tail -1 "$scratch/build.log"

needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
fail=0
check() { # program, the library it must link, the libraries it must not
    name=$1; exe="$scratch/debug/$1"; want=$2; shift 2
    libs=$(needed "$exe")
    if ! echo "$libs" | grep -q "^$want"; then
        echo "check-downstream-toolkits: $name does not link $want directly: $(echo $libs)"; fail=1
    fi
    for l in "$@"; do
        if echo "$libs" | grep -q "^$l"; then
            echo "check-downstream-toolkits: $name links $l, which it does not need: $(echo $libs)"; fail=1
        fi
    done
}
check downstream-gtk libgtk-4 libinput libevdev libudev libwayland-client libxkbcommon libSDL2
check downstream-gtk-widgets libgtk-4 libinput libevdev libudev libwayland-client libxkbcommon libSDL2
check downstream-sdl libSDL2 libinput libevdev libudev libwayland-client libxkbcommon libgtk-4

# downstream-gtk-widgets on Xvfb (GTK's X11 backend): xvfb-run waits for the server to say it
# is ready; the app waits for its window to be laid out and painted, says what it bound, quits.
if command -v xvfb-run >/dev/null; then
    out=$(env -u WAYLAND_DISPLAY GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none \
          xvfb-run -a -s "-screen 0 1000x1000x24" "$scratch/debug/downstream-gtk-widgets" 2>"$scratch/gtk.err") || true
    expected=$(cat "$pkg/expected-gtk-widgets-output.txt")
    if [ "$out" != "$expected" ]; then
        echo "check-downstream-toolkits: downstream-gtk-widgets printed:"; echo "$out"; cat "$scratch/gtk.err"
        echo "check-downstream-toolkits: expected ($pkg/expected-gtk-widgets-output.txt):"; echo "$expected"
        fail=1
    fi
else
    echo "check-downstream-toolkits: downstream-gtk-widgets not run: no xvfb-run (scripts/install-deps.sh installs xvfb)"
fi

out=$("$scratch/debug/downstream-sdl")
expected=$(cat "$pkg/expected-sdl-output.txt")
if [ "$out" != "$expected" ]; then
    echo "check-downstream-toolkits: downstream-sdl printed:"; echo "$out"
    echo "check-downstream-toolkits: expected ($pkg/expected-sdl-output.txt):"; echo "$expected"
    fail=1
fi
[ $fail -eq 0 ] && echo "check-downstream-toolkits: all built; downstream-sdl and downstream-gtk-widgets ran and printed what was expected; each links its toolkit and no other C library of GestureKit's"
exit $fail
